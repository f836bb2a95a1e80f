"Contract cases for trustnb.internals.self_recognition (chapter 2: the self-recognition direction)."
import numpy as np
import torch
import transformers as T
from contract import Case
from trustnb.core import local_seed
from trustnb.internals import self_recognition as SR
from trustnb.internals.toylm import train_toy_lm

with local_seed(0): _m = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=20, n_embd=8, n_layer=2, n_head=2, n_positions=12)).eval()
_p = torch.randint(4, 20, (4, 5), generator=torch.Generator().manual_seed(0)); _n = torch.randint(4, 20, (3, 5), generator=torch.Generator().manual_seed(1))
_p[:, 1], _p[:, 3] = 1, 2                                             # a delimited span (open 1, close 2) in every row
_d = SR.contrastive_direction(_m, _p, _n, 1)
_mask = torch.ones(4, 5, dtype=torch.long)
_span = SR.span_mask(_p, 1, 2)
_y = np.array([1, 1, 0, 0])
_lang = SR.Authorship()
_lm = train_toy_lm(_lang, n_layer=1, d_model=8, n_head=2, n_ctx=16, steps=2, batch_size=4, seed=0, cache=False)
_S, _H = _lang.texts(3, 0, 'self'), _lang.texts(3, 1, 'human')

def _run(ctx):
    with ctx as m: return m(_p).logits.detach()

CASES = [
    Case(SR.contrastive_direction, dict(model=_m, pos_inputs=_p, neg_inputs=_n, layer=1, site='resid', position=-1, batch_size=2),
         kinds=dict(batch_size='count'), then=lambda d: d.direction),
    Case(SR.projection, dict(model=_m, inputs=_p, direction=_d, batch_size=2), kinds=dict(batch_size='count')),
    Case(SR.ablate_direction, dict(model=_m, direction=_d.direction, layers=(0, 1), site='resid'), then=_run,
         id='trustnb.internals.self_recognition.ablate_direction'),
    Case(SR.steer_direction, dict(model=_m, direction=_d.direction, strength=2.0, layers=(1,), positions=_span, generated=False, site='resid'),
         then=_run),
    Case(SR.last_token_mask, dict(attention_mask=_mask)),
    Case(SR.span_mask, dict(input_ids=_p, open_id=1, close_id=2)),
    Case(SR.authorship_eval, dict(model=_m, inputs=_p, labels=_y, me_id=5, human_id=6, direction=_d, batch_size=2),
         kinds=dict(labels='labels', batch_size='count'), then=lambda r: (r.accuracy, r.auroc, r.margin)),
    Case(SR.Authorship, dict(n_words=12, n_shared=6, text_len=6, n_next=4, grammar_seed=0),
         kinds=dict(n_words='count', n_shared='count', text_len='count', n_next='count', grammar_seed='nonneg'), then=lambda l: l.next_of),
    Case(_lang.texts, dict(n=3, seed=0, author='human'), kinds=dict(n='count', seed='nonneg'), id='trustnb.internals.self_recognition.Authorship.texts'),
    Case(_lang.write, dict(text=['w1', 'w2']), then=lambda e: e.answer, id='trustnb.internals.self_recognition.Authorship.write'),
    Case(_lang.ask, dict(text=['w1', 'w2'], author='self'), then=lambda e: e.prompt, id='trustnb.internals.self_recognition.Authorship.ask'),
    Case(_lang.sample, dict(n=2, seed=0), kinds=dict(n='count', seed='nonneg'), then=lambda ex: [e.answer for e in ex],
         id='trustnb.internals.self_recognition.Authorship.sample'),
    Case(_lang.in_grammar, dict(text=['w1', 'w2'], author='human'), id='trustnb.internals.self_recognition.Authorship.in_grammar'),
    Case(SR.own_texts, dict(lm=_lm, n=4, seed=0, temperature=1.0), kinds=dict(n='count', seed='nonneg', temperature='positive')),
    Case(SR.post_train, dict(base=_lm, self_texts=_S, human_texts=_H, n_write=2, steps=1, lr=1e-2, batch_size=2, seed=0, cache=False),
         kinds=dict(n_write='nonneg', steps='count', lr='positive', batch_size='count', seed='nonneg'),
         then=lambda lm: lm.model.transformer.wte.weight.detach()),
    Case(SR.recognition_batch, dict(lm=_lm, self_texts=_S, human_texts=_H), legal=dict(self_texts=('empty',), human_texts=('empty',))),
    Case(SR.text_loglik, dict(lm=_lm, texts=_S)),
]
EXEMPT = {
    'trustnb.internals.self_recognition.Direction': 'the record contrastive_direction returns (covered through it; plain-tensor directions are validated by the hook Cases)',
    'trustnb.internals.self_recognition.AuthorshipEval': 'the record authorship_eval returns (covered through it)',
    'trustnb.internals.self_recognition.SelfRecToy': 'the record selfrec_toy returns (covered through it)',
    'trustnb.internals.self_recognition.SPLITS': 'a constant: the split names',
    'trustnb.internals.self_recognition.selfrec_toy': 'trains and caches two toy models (~10 s uncached); validates its arguments (bad-input cells in the notebook); runs in the notebook',
    'trustnb.internals.self_recognition.selfrec_experiment': 'the reproduction (trains the toy); its argument checks are bad-input cells in the notebook',
    'trustnb.internals.self_recognition.self_recognition_claim': 'the registered reproduction (runs selfrec_experiment)',
}

# bad inputs that are wrong only in relation to another argument (issue 24): (id, a call that must raise, what the message names)
def _steered(P):
    with SR.steer_direction(_m, _d, 1.0, positions=P): _m(_p)
RELATIONAL = [
    ('steer_direction: positions wider than the prompt', lambda: _steered(torch.ones(4, 8, dtype=torch.bool)), '`positions` covers 8 positions'),
    ('steer_direction: positions for another batch', lambda: _steered(torch.ones(3, 5, dtype=torch.bool)), '`positions` has 3 rows'),
    ('ablate_direction: direction of another width', lambda: SR.ablate_direction(_m, torch.ones(5), (0,)), '`direction` has width 5'),
    ('authorship_eval: labels of another length', lambda: SR.authorship_eval(_m, _p, _y[:3], 5, 6), '`labels`'),
]
