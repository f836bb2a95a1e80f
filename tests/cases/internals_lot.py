"Contract cases for trustnb.internals.lines_of_thought (chapter 2: Lines of Thought)."
import numpy as np
import torch
from contract import Case, Est
from trustnb.internals import lines_of_thought as LT

def _gpt2(vocab=50):
    from transformers import GPT2Config, GPT2LMHeadModel
    g = torch.Generator().manual_seed(0)
    m = GPT2LMHeadModel(GPT2Config(vocab_size=vocab, n_embd=8, n_layer=2, n_head=2, n_positions=32, resid_pdrop=0, embd_pdrop=0, attn_pdrop=0)).eval()
    with torch.no_grad():
        for p in m.parameters(): p.copy_(torch.randn(p.shape, generator=g) * 0.2)
    return m

_m = _gpt2()
_ids = torch.randint(1, 50, (6, 5), generator=torch.Generator().manual_seed(1))
_mask = torch.ones(6, 5, dtype=torch.long); _mask[0, :2] = 0
_rng = np.random.default_rng(0)
_S = np.cumsum(_rng.standard_normal((40, 4, 12)), 1)
_S2 = np.cumsum(_rng.standard_normal((20, 4, 12)), 1)
_lot = LT.LinesOfThought(n_components=4).fit(_S)
_X = LT.collect_trajectories(_m, _ids)
_lotg = LT.LinesOfThought().fit(_X)
_tok, _ = LT.load_minilm()
_mbig = _gpt2(_tok.vocab_size)
_L = LT.ProseWords(n_words=50, min_len=4, max_len=6)

CASES = [
    Case(LT.prose_documents, {}, then=len),
    Case(LT.prose_windows, dict(n=3, min_words=5, max_words=8, split='test', seed=0), kinds=dict(n='count', min_words='count', max_words='count', seed='nonneg')),
    Case(LT.collect_trajectories, dict(model=_m, input_ids=_ids, attention_mask=_mask, token='last', layers=[0, 2], batch_size=2, max_length=16),
         kinds=dict(batch_size='count', max_length='count')),
    Case(LT.collect_trajectories, dict(model=_mbig, texts=['a short text', 'and another one here'], tokenizer=_tok, token=-2),
         id='trustnb.internals.lines_of_thought.collect_trajectories[texts]'),
    Case(LT.dimensionality, dict(traj=_S, var=0.9, center=False), kinds=dict(var='prob')),
    Case(LT.LinesOfThought, dict(n_components=3, center=False, align='match', noise='full', rtol=1e-6), kinds=dict(n_components='count', rtol='prob'),
         then=lambda e: e.fit(_S).components_),
    Case(_lot.transport, dict(x=_S2[:, 0], t=0, tau=1), kinds=dict(t='nonneg', tau='count'), id='trustnb.internals.lines_of_thought.LinesOfThought.transport'),
    Case(_lot.residuals, dict(traj=_S2, tau=2), kinds=dict(tau='count'), id='trustnb.internals.lines_of_thought.LinesOfThought.residuals'),
    Case(_lot.project, dict(x=_S2[:, 1], t=1, n_components=2), kinds=dict(n_components='count'), id='trustnb.internals.lines_of_thought.LinesOfThought.project'),
    Case(_lot.sample, dict(x0=_S2[0, 0], t0=0, t1=2, n_samples=2, seed=0), kinds=dict(t0='nonneg', n_samples='count', seed='nonneg'), legal=dict(x0=('extra_dim',)),  # (1, D) is one start state
         id='trustnb.internals.lines_of_thought.LinesOfThought.sample'),
    Case(_lot.dimensionality, dict(var=0.9), kinds=dict(var='prob'), id='trustnb.internals.lines_of_thought.LinesOfThought.dimensionality'),
    Case(LT.truncation_kl, dict(model=_m, states=_X[:, -1], lot=_lotg, ks=[1, 4], rel_tol=0.05), kinds=dict(rel_tol='positive'), then=lambda r: r.kl),
    Case(LT.ProseWords, dict(n_words=50, min_len=4, max_len=6), kinds=dict(n_words='count', min_len='count', max_len='count'), then=lambda L: L.sample(2, 0)),
    Case(_L.sample, dict(n=2, seed=0, split='test'), kinds=dict(n='count', seed='nonneg'), id='trustnb.internals.lines_of_thought.ProseWords.sample'),
    Case(_L.encode_text, dict(text='The class is a new type'), legal=dict(text=('unknown_option',)), id='trustnb.internals.lines_of_thought.ProseWords.encode_text'),
    Case(LT.prose_lm, dict(n_layer=1, d_model=8, steps=2, seed=0), kinds=dict(n_layer='count', d_model='count', steps='count', seed='nonneg'),
         then=lambda lm: lm.model.transformer.wte.weight.detach()),
    Case(LT.transport_report, dict(train=_S, test=_S2, n_components=3, center=False, ridge_coeff=1.0, n_pcs=2, seed=0),
         kinds=dict(n_components='count', ridge_coeff='positive', n_pcs='count', seed='nonneg'), then=lambda r: r['rows']),
    Case(LT.minilm_trajectories, dict(n_train=3, n_test=2, min_words=5, max_words=8, token='last', seed=0, random_twin=True),
         kinds=dict(n_train='count', n_test='count', min_words='count', max_words='count', seed='nonneg')),
]
ESTIMATORS = [
    Est(make=lambda: LT.LinesOfThought(n_components=3), fit_args=lambda: ((_S,), {}), methods=('residuals', 'dimensionality'), compare='residuals'),
    Est(make=lambda: LT.LinesOfThought(center=True, align='rank', noise='isotropic'), fit_args=lambda: ((_S,), {}), methods=('residuals',), compare='residuals',
        id='trustnb.internals.lines_of_thought.LinesOfThought[center,rank,isotropic]'),
]
EXEMPT = {
    'trustnb.internals.lines_of_thought.TruncationKL': 'the record truncation_kl returns (covered through it)',
    'trustnb.internals.lines_of_thought.lot_experiment': 'the MiniLM reproduction (~10 s of MiniLM forward passes at its defaults); its parts have Cases (minilm_trajectories, transport_report, dimensionality)',
    'trustnb.internals.lines_of_thought.lot_claim': 'the registered reproduction (runs lot_experiment at its defaults; exercised by the notebook)',
    'trustnb.internals.lines_of_thought.SPLITS': 'a constant: the document splits',
    'trustnb.internals.lines_of_thought.TOKENS': 'a constant: the named pilot tokens',
    'trustnb.internals.lines_of_thought.ALIGNS': 'a constant: the direction-pairing rules',
    'trustnb.internals.lines_of_thought.NOISES': 'a constant: the residual models',
}
