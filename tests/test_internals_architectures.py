"""Chapter 2 on every common Hugging Face decoder family: each hook-based method of `trustnb.internals` runs on tiny
random models built offline from their config classes (shapes, effect, hooks removed also after an error, caller's
model untouched). The hooks themselves are tested in test_hf_architectures.py; this file tests the methods."""
import numpy as np
import pytest
import torch
from test_hf_architectures import FAMILIES, _model, _clean
from trustnb.internals import steering as ST, actor as AC, safety_neurons as SN

DECODERS = [k for k in FAMILIES if k != 'llama_base']
V, T = 50, 6

def _ids(n, seed):
    return torch.randint(3, V, (n, T), generator=torch.Generator().manual_seed(seed))

def _logits(m, ids): return m(input_ids=ids).logits

def _state(m): return {k: v.detach().clone() for k, v in m.state_dict().items()}

def _unchanged(m, before): return all(torch.equal(v, before[k]) for k, v in m.state_dict().items())

def _width(m): return m.get_input_embeddings().weight.shape[1]

def _raising(m):
    "A context in which the model's forward raises half-way (its LM head), restored afterwards."
    head, orig = m.get_output_embeddings(), m.get_output_embeddings().forward
    class Ctx:
        def __enter__(self):
            def boom(*a, **k): raise RuntimeError('boom in the head')
            head.forward = boom
        def __exit__(self, *exc): head.forward = orig
    return Ctx()

@pytest.mark.parametrize('name', DECODERS)
def test_steering(name, tmp_path):
    m = _model(name); ids = _ids(4, 0); base = _logits(m, ids)
    with_, without = ids.clone(), ids.clone(); with_[:, 1] = 2  # an "instruction" token in slot 1
    sv = ST.instruction_vector(m, with_, without, layers=[0, 2], name='x')
    assert set(sv.directions) == {0, 2} and sv.width == _width(m)
    with ST.Steerer(m, sv.configure(strength=4.0, layers=[2])): steered = _logits(m, ids)
    assert not torch.allclose(steered, base) and _clean(m)
    with ST.Steerer(m, sv.configure(strength=0.0)): assert torch.allclose(_logits(m, ids), base, atol=1e-6)
    with pytest.raises(RuntimeError, match='boom'), _raising(m), ST.Steerer(m, sv): _logits(m, ids)
    assert _clean(m) and torch.allclose(_logits(m, ids), base)
    path = sv.save(tmp_path / 'v')
    assert ST.SteeringVector.load(path, m).width == sv.width
    other = _model('gpt2' if name != 'gpt2' else 'llama')
    with pytest.raises(ValueError, match='extracted from'): ST.SteeringVector.load(path, other)

@pytest.mark.parametrize('name', DECODERS)
def test_actor(name):
    m = _model(name); before = _state(m)
    harmful, harmless = _ids(6, 1), _ids(6, 2)
    rd = AC.refusal_direction(m, harmful, harmless, layer=1)
    assert abs(float(rd.direction.norm()) - 1) < 1e-5 and rd.p_harmful > rd.p_harmless
    tg = AC.actor_targets(m, torch.cat([harmful, harmless]), ['harmful'] * 6 + ['borderline'] * 6, rd)
    assert torch.all(tg.shift[:6] == 0) and torch.all(tg.shift >= 0)
    fit = AC.actor_finetune(m, tg, steps=2, batch_size=4, seed=0)
    changed = {n for n, p in fit.model.named_parameters() if not torch.equal(p, m.get_parameter(n))}
    assert changed and changed <= set(fit.trainable), (name, changed - set(fit.trainable))
    assert _unchanged(m, before)
    with AC.ablate_direction(m, rd, layers=[0, 1, 2]):
        h = AC.prompt_activations(m, harmful, layer=1)
    assert float((torch.as_tensor(h) @ rd.direction).abs().max()) < 1e-4 and _clean(m)
    with pytest.raises(RuntimeError, match='boom'), _raising(m), AC.ablate_direction(m, rd): _logits(m, harmful)
    assert _clean(m)
    r = AC.refusal_rate(m, harmful, refuse_id=3)
    assert r.p_refuse.shape == (6,) and 0 <= r.rate <= 1

@pytest.mark.parametrize('name', DECODERS)
def test_safety_neurons(name):
    m = _model(name); before = _state(m); ids = _ids(8, 3)
    imp = SN.neuron_importance(m, ids)
    assert set(imp.scores) == {f'{k}.{l}' for k in SN.KINDS for l in range(3)}
    assert all(v.shape[0] == 8 and np.isfinite(v).all() for v in imp.scores.values())
    S = SN.detect_neurons(imp, n_neurons=5); assert len(S) == 5
    r = SN.masked_finetune(m, ids, trainable=S, steps=2, lr=1e-2, batch_size=4, seed=0)
    masks = SN.neuron_masks(m, S)
    for n, p in r.model.named_parameters():
        moved = p.detach() != m.get_parameter(n).detach()
        allowed = masks.get(n, torch.zeros_like(moved))
        assert not (moved & ~allowed.bool()).any(), (name, n)
    assert any((p != m.get_parameter(n)).any() for n, p in r.model.named_parameters()), name
    assert _unchanged(m, before) and _clean(m)
    with pytest.raises(RuntimeError, match='boom'), _raising(m): SN.neuron_importance(m, ids)
    assert _clean(m)

@pytest.mark.parametrize('name', DECODERS)
def test_self_recognition(name):
    from trustnb.internals import self_recognition as SR
    m = _model(name); ids = _ids(8, 4); pos, neg = ids[:4], ids[4:]; base = _logits(m, ids)
    d = SR.contrastive_direction(m, pos, neg, layer=1)
    assert d.layer == 1 and abs(float(d.direction.norm()) - 1) < 1e-5
    p = SR.projection(m, ids, d); assert p.shape == (8,) and float(p[:4].mean()) > float(p[4:].mean())
    with SR.ablate_direction(m, d):
        assert float(SR.projection(m, ids, d).abs().max()) < 1e-4
    with SR.steer_direction(m, d, strength=3.0): assert not torch.allclose(_logits(m, ids), base)
    with SR.steer_direction(m, d, strength=0.0): assert torch.allclose(_logits(m, ids), base, atol=1e-6)
    with pytest.raises(RuntimeError, match='boom'), _raising(m), SR.steer_direction(m, d, strength=1.0): _logits(m, ids)
    assert _clean(m) and torch.allclose(_logits(m, ids), base)

@pytest.mark.parametrize('name', DECODERS)
def test_extractive_structures(name):
    from trustnb.internals import extractive_structures as ES
    m0 = _model(name); before = _state(m0); ids = _ids(4, 5); ans = torch.tensor([3, 4, 5, 6])
    delta = ES.finetune_facts(m0, ids, ans, epochs=2, batch_size=2, lr=1e-2, seed=0)
    assert _unchanged(m0, before) and set(delta.components) == set(ES.model_components(m0))
    m1 = ES.graft(m0, delta)
    assert ES.answer_logprobs(m1, ids, ans).mean() > ES.answer_logprobs(m0, ids, ans).mean()  # the facts were learned
    none = ES.graft(m0, delta, [])
    assert all(torch.equal(p, m0.get_parameter(n)) for n, p in none.named_parameters())
    inf = ES.informative_scores(m0, delta, ids, ans, linearized=False)
    assert np.isfinite(inf.scores.values).all() and _unchanged(m0, before)
    for kind in ES.EXTRACTIVE_KINDS:
        s = ES.extractive_scores(m0, m1, ids, ans, kind=kind)
        assert np.isfinite(s.scores.values).all() and _clean(m0) and _clean(m1)

@pytest.mark.parametrize('name', DECODERS)
def test_confidence_token_rows(name):
    from trustnb.monitor.self_ref import extend_embeddings
    m = _model(name); ids = _ids(3, 6); base = _logits(m, ids)
    extend_embeddings(m, 2)
    out = _logits(m, ids)
    assert out.shape[-1] == base.shape[-1] + 2 and torch.allclose(out[..., :base.shape[-1]], base, atol=1e-5), name

@pytest.mark.parametrize('name', DECODERS)
def test_attention_edge_ablation(name):
    from trustnb.internals.icl_circuit import remove_edges
    m = _model(name); ids = _ids(2, 7); base = _logits(m, ids); impl = m.config._attn_implementation
    none = {l: torch.zeros(T, T, dtype=torch.bool) for l in range(3)}
    with remove_edges(m, none): assert torch.allclose(_logits(m, ids), base, atol=1e-5), name
    cut = torch.zeros(T, T, dtype=torch.bool); cut[T - 1, :T - 1] = True  # the last query sees only itself
    with remove_edges(m, {0: cut}): out = _logits(m, ids)
    assert torch.allclose(out[:, :T - 1], base[:, :T - 1], atol=1e-5) and not torch.allclose(out[:, -1], base[:, -1]), name
    with pytest.raises(RuntimeError, match='boom'), _raising(m), remove_edges(m, {0: cut}): _logits(m, ids)
    assert m.config._attn_implementation == impl and torch.allclose(_logits(m, ids), base)

@pytest.mark.parametrize('name', DECODERS)
def test_task_vector_patching(name):
    from trustnb.internals.task_vectors import extract_task_vector, patched_logits
    m = _model(name); spec, q = _ids(5, 8), _ids(3, 9); base = _logits(m, q)[:, -1]
    own = extract_task_vector(m, q, None, layer=1)
    assert torch.allclose(patched_logits(m, q, own.states, layer=1), base, atol=1e-5), name  # each query's own state back: identity
    tv = extract_task_vector(m, spec, None, layer=1)
    assert not torch.allclose(patched_logits(m, q, tv, layer=1), base) and _clean(m)
    with pytest.raises(RuntimeError, match='boom'), _raising(m): patched_logits(m, q, tv, layer=1)
    assert _clean(m)

# issue 24: `remove_edges` switches the attention implementation to one registered with transformers' AttentionInterface. A family
# whose attention does not go through that interface (Bloom) used to run unchanged: the logits moved with nothing cut (another mask
# path) and the cut was never applied. On every causal-LM family transformers can build offline, `remove_edges` must either refuse the
# model with a ValueError, or be exact: nothing cut = the model's own logits, a cut edge out of the last query changes the last
# position only. The model comes back as it was either way.
from test_hf_architectures import CAUSAL_LM_TYPES, causal_lm_family

def _out(m, ids):
    with torch.no_grad(): o = m(input_ids=ids)
    return (o.logits if getattr(o, 'logits', None) is not None else o[0]).float()

@pytest.mark.parametrize('model_type', CAUSAL_LM_TYPES)
def test_attention_edges_refused_or_exact_on_every_family(model_type):
    from trustnb.internals.icl_circuit import remove_edges, _ACTIVE
    from trustnb.hooks import n_layers
    m = causal_lm_family(model_type); ids = torch.randint(2, 16, (2, 6), generator=torch.Generator().manual_seed(1))
    base, impl = _out(m, ids), m.config._attn_implementation
    try: L = n_layers(m)
    except ValueError as e: pytest.skip(f'{model_type}: trustnb.hooks cannot read its block list ({e})')
    T_ = ids.shape[1]; none = {l: torch.zeros(T_, T_, dtype=torch.bool) for l in range(L)}
    cut = torch.zeros(T_, T_, dtype=torch.bool); cut[-1, :-1] = True  # the last query sees only itself, in every block
    try:
        with remove_edges(m, none): same = _out(m, ids)
    except ValueError as e:  # refused: nothing switched, nothing left behind
        assert '`model`' in str(e) or 'attention module' in str(e), str(e)
        assert m.config._attn_implementation == impl and _ACTIVE == {} and torch.equal(_out(m, ids), base)
        return
    tol = 1e-4 * max(1.0, float(base.abs().max()))
    assert torch.allclose(same, base, atol=tol), f'{model_type}: logits changed with nothing cut ({float((same - base).abs().max()):.2e})'
    with remove_edges(m, {l: cut for l in range(L)}): out = _out(m, ids)
    assert torch.allclose(out[:, :-1], base[:, :-1], atol=tol), f'{model_type}: a cut out of the last query changed earlier positions'
    noise = max(float((same - base).abs().max()), 1e-7 * float(base.abs().max()))  # what float rounding alone moves
    assert float((out[:, -1] - base[:, -1]).abs().max()) > 100 * noise, f'{model_type}: the cut was not applied (last position unchanged)'
    assert m.config._attn_implementation == impl and _ACTIVE == {}
