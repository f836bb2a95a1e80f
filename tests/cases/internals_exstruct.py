"Contract cases for trustnb.internals.extractive_structures (chapter 2: informative / extractive components, weight grafting)."
import copy
import torch
from contract import Case
from trustnb.core import local_seed
from trustnb.internals import extractive_structures as XS

def _pair():
    from transformers import GPT2Config, GPT2LMHeadModel
    with local_seed(0): m0 = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_embd=8, n_layer=1, n_head=2, n_positions=8, resid_pdrop=0, embd_pdrop=0, attn_pdrop=0)).eval()
    m1 = copy.deepcopy(m0); g = torch.Generator().manual_seed(1)
    with torch.no_grad():
        for p in m1.parameters(): p.add_(0.05 * torch.randn(p.shape, generator=g))
    return m0, m1

_m0, _m1 = _pair()
_d = XS.weight_delta(_m0, _m1)
_ids = torch.randint(1, 12, (3, 5), generator=torch.Generator().manual_seed(2))
_mask = torch.ones(3, 5, dtype=torch.long)
_ans = torch.tensor([1, 4, 7])
_kb = XS.PeopleCities(n_people=4, n_new=2, n_cities=3, n_languages=2, kb_seed=0)
_lm = XS.pretrain_kb(_kb, 'fact_first', stage_steps=1, n_layer=1, d_model=8, n_head=2, batch_size=4, seed=0, cache=False)
_ex = XS.kb_examples(_kb, 'speaks', 'new')
_scores = XS.informative_scores(_m0, _d, _ids, _ans, _mask)

CASES = [
    Case(XS.model_components, dict(model=_m0)),
    Case(XS.weight_delta, dict(model0=_m0, model1=_m1), then=lambda d: d.norms().values),
    Case(_d.restrict, dict(components=['mlp.0']), legal=dict(components=('empty',)), id='trustnb.internals.extractive_structures.WeightDelta.restrict',
         then=lambda d: d.norms().values),
    Case(XS.graft, dict(model=_m0, delta=_d, components=['attn.0', 'mlp.0'], scale=0.5), legal=dict(components=('empty',)),
         then=lambda m: [p.detach() for p in m.parameters()]),
    Case(XS.answer_logprobs, dict(model=_m0, prompts=_ids, answers=_ans, attention_mask=_mask)),
    Case(XS.ocr_eval, dict(model=_m1, prompts=_ids, answers=_ans, attention_mask=_mask, base_model=_m0, options=torch.tensor([1, 4, 7, 9])),
         then=lambda r: (r.logprob, r.accuracy, r.gain, r.base_accuracy)),
    Case(XS.finetune_facts, dict(model=_m0, prompts=_ids, answers=_ans, attention_mask=_mask, components=['mlp.0', 'embed'], lr=1e-2, epochs=1,
                                 batch_size=2, weight_decay=0.0, seed=0),
         kinds=dict(lr='positive', epochs='count', batch_size='count', weight_decay='nonneg', seed='nonneg'), then=lambda d: d.norms().values),
    Case(XS.informative_scores, dict(model=_m0, delta=_d, prompts=_ids, answers=_ans, attention_mask=_mask, components=['attn.0', 'mlp.0'], linearized=True),
         then=lambda s: (s.scores.values, s.total)),
    Case(_scores.top, dict(k=2), kinds=dict(k='count'), id='trustnb.internals.extractive_structures.ComponentScores.top'),
    Case(XS.extractive_scores, dict(model0=_m0, model1=_m1, prompts=_ids, answers=_ans, attention_mask=_mask, kind='downstream', components=['attn.0', 'mlp.0'],
                                    linearized=False), then=lambda s: (s.scores.values, s.total)),
    Case(XS.PeopleCities, dict(n_people=4, n_new=2, n_cities=3, n_languages=2, kb_seed=0),
         kinds=dict(n_people='count', n_new='count', n_cities='count', n_languages='count', kb_seed='nonneg'),
         then=lambda kb: [e.answer for e in kb.sample(4, seed=0)]),
    Case(_kb.sample, dict(n=3, seed=0, relation='lives', group='new'), kinds=dict(n='count', seed='nonneg'),
         id='trustnb.internals.extractive_structures.PeopleCities.sample', then=lambda ex: [e.answer for e in ex]),
    Case(XS.kb_examples, dict(kb=_kb, relation='lives', group='new'), then=lambda ex: [e.answer for e in ex]),
    Case(XS.encode_facts, dict(lm=_lm, examples=_ex)),
    Case(XS.pretrain_kb, dict(kb=_kb, order='impl_first', stage_steps=1, n_layer=1, d_model=8, n_head=2, lr=1e-3, batch_size=4, seed=0, cache=False, shuffle_implications=True),
         kinds=dict(stage_steps='count', n_layer='count', d_model='count', n_head='count', lr='positive', batch_size='count', seed='nonneg'),
         then=lambda lm: lm.model.transformer.wte.weight.detach()),
    Case(XS.ordering_experiment, dict(order='joint', seed=0, n_people=4, n_new=2, n_cities=3, n_languages=2, stage_steps=1, ft_lr=1e-3, ft_epochs=1, top_k=1, sham=True),
         kinds=dict(seed='nonneg', n_people='count', n_new='count', n_cities='count', n_languages='count', stage_steps='count', ft_lr='positive',
                    ft_epochs='count', top_k='count'),
         then=lambda r: (r.ocr.accuracy, r.ocr.gain, r.gain_top, r.gain_random, r.informative.scores.values)),
]
EXEMPT = {
    'trustnb.internals.extractive_structures.extractive_structures_claim': 'the registered reproduction (2 pretrainings + fine-tunes per knowledge base, ~30 s uncached); '
                                                                           'its `n_kb` check is in the notebook\'s bad-input cell',
}
