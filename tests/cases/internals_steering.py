"Contract cases for trustnb.internals.steering (chapter 2)."
import tempfile
from pathlib import Path
import torch
import transformers as T
from contract import Case
from trustnb.core import local_seed
from trustnb.internals import steering as ST
from trustnb.internals.toylm import CopyTransform

with local_seed(0): _m = T.GPT2LMHeadModel(T.GPT2Config(vocab_size=20, n_embd=8, n_layer=2, n_head=2, n_positions=12, bos_token_id=0, eos_token_id=0)).eval()
_q = torch.randint(3, 20, (4, 4), generator=torch.Generator().manual_seed(0)); _qi = torch.cat([torch.full((4, 1), 2), _q], 1)
_v = ST.instruction_vector(_m, _qi, _q, name='x')
_path = str(ST.SteeringVector.save(_v, Path(tempfile.mkdtemp()) / 'v'))
_lang = CopyTransform()
_c = [('a', 'b', 'c'), ('c', 'a', 'b')]

@torch.no_grad()
def _ev(model): o = model(_q).logits; return float(o[:, -1, 3].mean()), float(o.abs().mean())

def _enter(st):
    with st as m: return m(_q).logits.detach()

CASES = [
    Case(ST.model_fingerprint, dict(model=_m, weights=True)),
    Case(_v.configure, dict(mode='project', strength=2.0, layers=(1,)), id='trustnb.internals.steering.SteeringVector.configure'),
    Case(ST.SteeringVector.load, dict(path=_path, model=_m, force=False), then=lambda v: v.directions[0], id='trustnb.internals.steering.SteeringVector.load'),
    Case(ST.check_compatible, dict(vector=_v, model=_m, force=False)),
    Case(ST.instruction_vector, dict(model=_m, inputs_with=_qi, inputs_without=_q, layers=(0, 1), site='resid', position=-1, name='x', batch_size=2),
         kinds=dict(batch_size='count'), legal=dict(name=('unknown_option',)), then=lambda v: (v.directions, v.targets)),
    Case(ST.Steerer, dict(model=_m, vectors=[_v], force=False), then=_enter),
    Case(ST.calibrate, dict(model=_m, vector=_v, evaluate=_ev, max_damage=10.0, layers=(0, 1), strengths=(0.5, 1.0), mode='add'),
         then=lambda c: (c.compliance, c.damage)),
    Case(ST.prompt_pairs, dict(language=_lang, instructions=('<UP>',), n=3, seed=0), kinds=dict(n='count', seed='nonneg'), then=lambda p: p.contents),
    Case(ST.instruction_scores, dict(language=_lang, outputs=[['A', 'B', 'C'], ['c', 'a', 'b']], contents=_c, instructions=('<UP>',))),
]
EXEMPT = {
    'trustnb.internals.steering.SteeringVector': 'the record instruction_vector returns (its fields are validated by configure, Steerer and load)',
    'trustnb.internals.steering.SteeringVector.save': 'writes a file at `path` (any string is a legal file name); exercised by the load case',
    'trustnb.internals.steering.SteeringVector.norm': 'a one-line accessor of an extracted direction',
    'trustnb.internals.steering.Calibration': 'the record calibrate returns (covered through it)',
    'trustnb.internals.steering.PromptPairs': 'the record prompt_pairs returns (covered through it)',
    'trustnb.internals.steering.steering_experiment': 'the reproduction on the cached toy LM (~10 s); runs every covered function',
    'trustnb.internals.steering.steering_claim': 'the registered reproduction (runs steering_experiment)',
}

# bad inputs that are wrong only in relation to another argument (issue 24): (id, a call that must raise, what the message names)
def _halfmask(): m = torch.ones_like(_qi, dtype=torch.float); m[0, 0] = 0.5; return m
RELATIONAL = [
    ('instruction_vector: attention mask not 0/1', lambda: ST.instruction_vector(_m, (_qi, _halfmask()), _q), '`inputs_with`: attention_mask must hold only 0 and 1'),
    ('instruction_vector: mask of another shape', lambda: ST.instruction_vector(_m, _qi, (_q, torch.ones(4, 3))), '`inputs_without`: attention_mask shape'),
    ('instruction_vector: prompt counts differ', lambda: ST.instruction_vector(_m, _qi, _q[:3]), '`inputs_without` must hold as many prompts'),
    ('Steerer: vector of another width', lambda: ST.Steerer(T.GPT2LMHeadModel(T.GPT2Config(vocab_size=20, n_embd=12, n_layer=2, n_head=2, n_positions=12)), _v), 'width'),
]
