"Contract cases for trustnb.internals.task_vectors (chapter 2)."
import torch
import transformers as T
from contract import Case
from trustnb.core import local_seed
from trustnb.internals import task_vectors as TV

with local_seed(0): _m = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=20, n_embd=8, n_layer=2, n_head=2, n_positions=12)).eval()
_ids = torch.randint(0, 20, (4, 5), generator=torch.Generator().manual_seed(0))
_q = torch.randint(0, 20, (3, 4), generator=torch.Generator().manual_seed(1))
_tv = TV.extract_task_vector(_m, _ids, None, layer=1, name='t')
_tv2 = TV.extract_task_vector(_m, _q, None, layer=1, name='u')
_lang = TV.CrossModalICL(n_items=4, n_tasks=2, max_examples=1)

CASES = [
    Case(TV.extract_task_vector, dict(model=_m, input_ids=_ids, attention_mask=torch.ones(4, 5, dtype=torch.long), layer=1, position=-1,
                                      site='resid', name='t', batch_size=2),
         kinds=dict(batch_size='count'), legal=dict(name=('unknown_option',)), then=lambda v: v.vector),
    Case(TV.patched_logits, dict(model=_m, query_ids=_q, vector=_tv.vector, layer=1, position=-1, attention_mask=torch.ones(3, 4, dtype=torch.long),
                                 site='resid', batch_size=2), kinds=dict(batch_size='count')),
    Case(TV.patch_generate, dict(model=_m, query_ids=_q, vector=_tv.vector, layer=0, position=-2, attention_mask=None, site='resid',
                                 max_new_tokens=2, batch_size=2), kinds=dict(max_new_tokens='count', batch_size='count')),
    Case(TV.ensemble_task_vectors, dict(vectors=[_tv, _tv2], weights=[1.0, 2.0]), then=lambda v: v.vector),
    Case(TV.layer_sweep, dict(model=_m, specs=[_ids, (_q, torch.ones(3, 4, dtype=torch.long))], queries=[_q, _q[:2]],
                              targets=[torch.tensor([1, 2, 3]), torch.tensor([4, 5])], layers=[0, 1], position=-1, query_position=-1,
                              site='resid', batch_size=2),
         kinds=dict(batch_size='count'), then=lambda s: (s.accuracy, s.baseline)),
    Case(TV.CrossModalICL, dict(n_items=4, n_tasks=3, n_answers=2, max_examples=2, p_instruction=0.5, perm_seed=0),
         kinds=dict(n_items='count', n_tasks='count', n_answers='count', max_examples='count', p_instruction='prob', perm_seed='nonneg'),
         then=lambda l: [e.prompt for e in l.sample(3, seed=0)]),
    Case(TV.train_cross_modal_lm, dict(language=_lang, n_layer=2, d_model=8, n_head=2, steps=2, batch_size=4, lr=1e-3, positions=True,
                                       tvp_layer=0, tvp_coeff=1.0, seed=0, cache=False, rebuild=False),
         kinds=dict(n_layer='count', d_model='count', n_head='count', steps='count', batch_size='count', lr='positive', tvp_layer='nonneg',
                    tvp_coeff='nonneg', seed='nonneg'),
         then=lambda lm: lm.vocab.tokens),
]
EXEMPT = {
    'trustnb.internals.task_vectors.cross_modal_experiment': 'the reproduction on the trained toy (~25 s on a cold cache); runs every covered function',
    'trustnb.internals.task_vectors.cross_modal_claim': 'the registered reproduction (runs cross_modal_experiment)',
}
