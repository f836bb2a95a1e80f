"""Issue 24, chapter 2 (inside language models): bad inputs that were wrong only in relation to something else, and the steering
calibration's choice rule, on generated inputs (hypothesis). Each test failed on the code before the fix:

- `instruction_vector` read an attention mask that was not 0/1 (it truncated 0.5 to 0 and 2 to 2 real tokens' worth of weight);
- `steer_direction` with a `positions` mask wider than the prompt took the prompt for an incremental decoding step and steered every
  position (or none);
- `actor.ablate_direction` with a vector of another width reached torch's matmul with a raw RuntimeError;
- `calibrate` chose, among equally compliant cells, the smaller strength even when another cell damaged the content less.
(`intervene_site` with `add_vector` of another width is tested in test_hf_architectures.py; attention-edge ablation on every decoder
family in test_internals_architectures.py.)"""
import numpy as np
import pytest
import torch
import transformers as T
from hypothesis import given, settings, strategies as st, HealthCheck
from trustnb.core import local_seed
from trustnb.hooks import capture_sites, resolve_site
from trustnb.internals import steering as ST, self_recognition as SR, actor as AC

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])

def _gpt2(d=16, L=2, seed=0):
    with local_seed(seed): return T.GPT2LMHeadModel(T.GPT2Config(vocab_size=24, n_embd=d, n_layer=L, n_head=2, n_positions=16)).eval()

_M = _gpt2()
_Q = torch.randint(3, 24, (6, 5), generator=torch.Generator().manual_seed(0)); _QI = torch.cat([torch.full((6, 1), 2), _Q], 1)

def _clean(m): return all(not x._forward_hooks and not x._forward_pre_hooks for x in m.modules())

@SETTINGS
@given(row=st.integers(0, 5), col=st.integers(0, 5), value=st.one_of(st.floats(-3, 3).filter(lambda x: float(np.float32(x)) not in (0.0, 1.0)),
                                                                      st.integers(-3, 5).filter(lambda x: x not in (0, 1)), st.just(float('nan'))),
       which=st.sampled_from(['inputs_with', 'inputs_without']))
def test_instruction_vector_refuses_a_mask_that_is_not_0_1(row, col, value, which):
    ids = _QI if which == 'inputs_with' else _Q
    mask = torch.ones(ids.shape, dtype=torch.float if isinstance(value, float) else torch.long); mask[row, col % ids.shape[1]] = value
    kw = dict(inputs_with=_QI, inputs_without=_Q); kw[which] = (ids, mask)
    with pytest.raises(ValueError, match=f'`{which}`: attention_mask must hold only 0 and 1'): ST.instruction_vector(_M, **kw)

@SETTINGS
@given(extra=st.integers(1, 8), generated=st.booleans(), n_layers=st.sampled_from([(0,), (0, 1)]), cut=st.integers(0, 4))
def test_steer_direction_refuses_positions_wider_than_the_prompt(extra, generated, n_layers, cut):
    d = SR.contrastive_direction(_M, _QI, _Q, 1); ids = _QI[:, :_QI.shape[1] - cut]; T_ = ids.shape[1]
    P = torch.zeros(len(ids), T_ + extra, dtype=torch.bool); P[:, -1] = True
    with pytest.raises(ValueError, match=f'`positions` covers {P.shape[1]} positions but the prompt run under it has {T_}'):
        with SR.steer_direction(_M, d, 2.0, n_layers, positions=P, generated=generated): _M(ids)
    assert _clean(_M)

def test_steer_direction_positions_still_follow_generation():
    "The fix keeps what was right: the prompt's own mask, then generated tokens (no cache: longer inputs), then cached single steps."
    d = SR.contrastive_direction(_M, _QI, _Q, 1); P = torch.zeros(_QI.shape, dtype=torch.bool); P[:, 2] = True
    site = {'h': resolve_site(_M, 1)}
    with capture_sites(_M, site) as c0: _M(torch.cat([_QI, _QI[:, :2]], 1))
    ctx = SR.steer_direction(_M, d, 2.0, positions=P, generated=True)
    with ctx, capture_sites(_M, site) as c1:
        _M(_QI); _M(torch.cat([_QI, _QI[:, :2]], 1)); _M(_QI[:, :1])      # prompt, then prompt + 2 generated tokens, then a cached step
    diff = (c1['h'] - c0['h'][:, :1]) if c1['h'].shape[1] == 1 else None
    assert diff is not None and torch.allclose(diff, (2.0 * d.vector).expand_as(diff), atol=1e-5)   # the cached step is steered
    with ctx:                                                                # re-entering forgets the prompt: a short input is refused again
        with pytest.raises(ValueError, match='`positions` covers'): _M(_QI[:, :3])
    assert _clean(_M)

@SETTINGS
@given(width=st.integers(1, 40).filter(lambda w: w != 16), as_list=st.booleans(), layers=st.sampled_from([None, [0], [0, 1]]))
def test_actor_ablate_direction_refuses_another_width(width, as_list, layers):
    v = torch.randn(width, generator=torch.Generator().manual_seed(width)); v = v.tolist() if as_list else v
    with pytest.raises(ValueError, match=f'`direction` has width {width}'):
        with AC.ablate_direction(_M, torch.as_tensor(v), layers=layers): _M(_Q)
    assert _clean(_M)

# ---- calibrate's choice rule -----------------------------------------------------------------------------------------------
_V = ST.instruction_vector(_M, _QI, _Q, name='x')
_PROBE = torch.randint(3, 24, (2, 4), generator=torch.Generator().manual_seed(1))
_SITES = {l: resolve_site(_M, l) for l in (0, 1)}
with torch.no_grad(), capture_sites(_M, _SITES) as _c: _M(_PROBE)
_BASE = dict(_c)

def _applied(model, strengths):
    "The (layer, strength) cell a Steerer applies right now, read off the residual stream (None: no steering)."
    with torch.no_grad(), capture_sites(model, _SITES) as c: model(_PROBE)
    for l in (0, 1):
        delta = (c[l] - _BASE[l]).mean((0, 1))
        if float(delta.abs().max()) > 1e-6:
            u = _V.directions[l]; s = float(delta @ u / (u @ u)); return l, int(np.argmin([abs(s - x) for x in strengths]))
    return None

@SETTINGS
@given(C=st.lists(st.lists(st.sampled_from([0.25, 0.5, 1.0]), min_size=3, max_size=3), min_size=2, max_size=2),
       D=st.lists(st.lists(st.sampled_from([0.0, 0.02, 0.05, 0.08, 0.2]), min_size=3, max_size=3), min_size=2, max_size=2))
def test_calibrate_prefers_the_least_damaging_of_equally_compliant_cells(C, D):
    C, D, S = np.array(C), np.array(D), (0.5, 1.0, 2.0)
    def ev(model):
        cell = _applied(model, S); return (0.0, 0.0) if cell is None else (C[cell[0], cell[1]], D[cell[0], cell[1]])
    cal = ST.calibrate(_M, _V, ev, max_damage=0.1, strengths=S)
    np.testing.assert_array_equal(cal.compliance, C); np.testing.assert_array_equal(cal.damage, D)   # the probe read every cell right
    F = D <= 0.1
    if not F.any(): assert cal.layer is None; return
    i, j = cal.layer, list(cal.strengths).index(cal.strength)
    best = C[F].max(); tied = F & (C == best)
    assert F[i, j] and C[i, j] == best and D[i, j] == D[tied].min(), (C, D, (i, j))
    assert _clean(_M)

# ---- the relational bad inputs listed in the chapter's contract cases ---------------------------------------------------------
import importlib, sys
from pathlib import Path
sys.path[:0] = [str(Path(__file__).parent), str(Path(__file__).parent / 'cases')]
_REL = [(f, r) for f in ('internals_steering', 'internals_selfrec', 'internals_actor', 'internals_iclcircuit', 'internals_safety')
        for r in getattr(importlib.import_module(f'cases.{f}'), 'RELATIONAL', [])]

@pytest.mark.parametrize('fam,case', _REL, ids=[f'{f}:{r[0]}' for f, r in _REL])
def test_relational_bad_inputs_name_the_argument(fam, case):
    _, call, match = case
    with pytest.raises((ValueError, TypeError)) as e: call()
    assert match in str(e.value), str(e.value)
