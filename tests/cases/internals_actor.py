"Contract cases for trustnb.internals.actor (chapter 2)."
import torch
import transformers as T
from contract import Case
from trustnb.core import local_seed
from trustnb.internals import actor as A
from trustnb.internals.toylm import toy_lm

with local_seed(0):
    _m = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=20, n_embd=8, n_layer=2, n_head=2, n_positions=8, bos_token_id=1, eos_token_id=2,
                                        resid_pdrop=0., embd_pdrop=0., attn_pdrop=0.)).eval()
_ids = torch.randint(3, 20, (8, 4), generator=torch.Generator().manual_seed(0))
_mask = torch.ones_like(_ids); _ids[:2, :1] = 0; _mask[:2, :1] = 0
_kinds = ['harmful'] * 3 + ['borderline'] * 2 + ['harmless'] * 3
_rd = A.refusal_direction(_m, _ids[:3], _ids[5:], layer=1, harmful_mask=_mask[:3])
_tg = A.actor_targets(_m, _ids, _kinds, _rd, _mask)
_loss = torch.zeros(8, 4); _loss[:, -2:] = 1.0

def _run_ablation(ctx):
    with ctx: return A.refusal_rate(_m, _ids, 4, _mask).p_refuse

CASES = [
    Case(A.prompt_activations, dict(model=_m, input_ids=_ids, attention_mask=_mask, layer=1, batch_size=4), kinds=dict(batch_size='count')),
    Case(A.refusal_direction, dict(model=_m, harmful_ids=_ids[:3], harmless_ids=_ids[5:], layer=1, harmful_mask=_mask[:3], harmless_mask=_mask[5:]),
         then=lambda r: r.direction),
    Case(A.actor_targets, dict(model=_m, input_ids=_ids, kinds=_kinds, direction=_rd, attention_mask=_mask, shift_coeff=1.0),
         kinds=dict(shift_coeff='nonneg'), then=lambda t: t.target),
    Case(A.actor_finetune, dict(model=_m, targets=_tg, layer=1, steps=2, lr=1e-3, retain_coeff=1.0, batch_size=4, seed=0),
         kinds=dict(steps='count', lr='positive', retain_coeff='nonneg', batch_size='count', seed='nonneg'), then=lambda f: f.losses),
    Case(A.ablate_direction, dict(model=_m, direction=_rd.direction, layers=[0, 1], level=0.0), then=_run_ablation),
    Case(A.refusal_rate, dict(model=_m, input_ids=_ids, refuse_id=4, attention_mask=_mask, batch_size=4),
         kinds=dict(refuse_id='nonneg', batch_size='count'), then=lambda r: r.p_refuse),
    Case(A.full_finetune, dict(model=_m, input_ids=_ids, loss_mask=_loss, attention_mask=_mask, steps=2, lr=1e-3, batch_size=4, seed=0),
         kinds=dict(steps='count', lr='positive', batch_size='count', seed='nonneg'), then=lambda f: f.losses),
    Case(A.actor_experiment, dict(lm=toy_lm('requests', seed=0), layer=1, shift_coeff=1.0, steps=2, lr=1e-3, retain_coeff=1.0, n_train=60, n_test=90, seed=0),
         kinds=dict(shift_coeff='nonneg', steps='count', lr='positive', retain_coeff='nonneg', n_train='count', n_test='count', seed='nonneg'),
         then=lambda r: r.table.values.astype(float)),
]
EXEMPT = {
    'trustnb.internals.actor.RefusalDirection': 'the record refusal_direction returns (covered through it)',
    'trustnb.internals.actor.ActorTargets': 'the record actor_targets returns (covered through it)',
    'trustnb.internals.actor.LayerFit': 'the record actor_finetune and full_finetune return (covered through them)',
    'trustnb.internals.actor.RefusalRate': 'the record refusal_rate returns (covered through it)',
    'trustnb.internals.actor.ActorReport': 'the record actor_experiment returns (covered through it)',
    'trustnb.internals.actor.actor_claim': 'the registered reproduction (runs actor_experiment at full size, covered above; ~10 s)',
}

# bad inputs that are wrong only in relation to another argument (issue 24): (id, a call that must raise, what the message names)
def _ablated(v):
    with A.ablate_direction(_m, v): _m(_ids)
RELATIONAL = [
    ('ablate_direction: vector of another width', lambda: _ablated(torch.ones(5)), '`direction` has width 5'),
    ('actor_targets: kinds of another length', lambda: A.actor_targets(_m, _ids, _kinds[:5], _rd, _mask), '`kinds`'),
]
