"""Property tests for trustnb.internals.implicit_attention (issue 24): the RWKV recurrence at large magnitudes, and the
layers users have (transformers' MambaMixer and RwkvSelfAttention) read through `from_hf` / `implicit_attention`."""
import math
import pytest
import torch
from hypothesis import given, settings, strategies as st, HealthCheck

from trustnb.internals.implicit_attention import RWKVLayer, RWKVConfig, MambaLayer, implicit_attention, from_hf

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])

def _softmax_reference(layer, x):
    "RWKV time mixing in float64 from its definition: wkv_t = sum_j softmax_j(l_tj) v_j, l_tj = -(t-1-j) w + k_j (j < t), u + k_t (j = t)."
    p = layer.parts(x); k, v, w, u = p['k'], p['v'], p['w'], p['u']; L = x.shape[1]; out = []
    for t in range(L):
        j = torch.arange(t + 1, dtype=x.dtype)
        logit = -(t - 1 - j)[None, :, None] * w + k[:, :t + 1]
        logit[:, t] = u + k[:, t]
        out.append((torch.softmax(logit, 1) * v[:, :t + 1]).sum(1))
    return layer.output(p['r'] * torch.stack(out, 1))

@settings(max_examples=30, **SETTINGS)
@given(seed=st.integers(0, 10_000), scale=st.floats(50.0, 2000.0), L=st.integers(1, 24), d=st.integers(1, 8), d_att=st.integers(1, 8))
def test_rwkv_float32_forward_is_finite_and_matches_float64_at_large_magnitudes(seed, scale, L, d, d_att):
    lay = RWKVLayer(RWKVConfig(d, d_att), seed=seed)
    x = scale * torch.randn(2, L, d, generator=torch.Generator().manual_seed(seed))
    with torch.no_grad():
        y32 = lay(x)
        ref = _softmax_reference(RWKVLayer(RWKVConfig(d, d_att), seed=seed).double(), x.double())
    assert torch.isfinite(y32).all()
    assert float((y32.double() - ref).abs().max()) <= 1e-3 * max(1.0, float(ref.abs().max()))
    ia = implicit_attention(lay, x)                                     # the attention form agrees with the recurrence
    assert float((lay.output(ia.mix()) - y32).abs().max()) <= 1e-3 * max(1.0, float(ref.abs().max()))

def test_rwkv_recurrence_keeps_finite_gradients():
    lay = RWKVLayer(RWKVConfig(4, 3), seed=0).double(); x = (500 * torch.randn(2, 6, 4, dtype=torch.float64)).requires_grad_(True)
    lay(x).sum().backward(); assert torch.isfinite(x.grad).all()
    small = RWKVLayer(RWKVConfig(3, 2), seed=1).double(); xs = torch.randn(1, 4, 3, dtype=torch.float64, requires_grad=True)
    assert torch.autograd.gradcheck(small, (xs,))

# --- transformers' layers -------------------------------------------------------------------------------------------
def _inputs(model, layers, ids, **kw):
    "The input each layer receives in a forward pass of `model` (captured by pre-hooks, removed afterwards)."
    seen = {}
    hooks = [l.register_forward_pre_hook(lambda m, a, k, i=i: seen.__setitem__(i, (a[0] if a else k['hidden_states']).detach()), with_kwargs=True)
             for i, l in enumerate(layers)]
    try:
        with torch.no_grad(): model(ids, **kw)
    finally:
        for h in hooks: h.remove()
    return seen

def _check_layers(layers, seen, out_proj, rtol):
    for i, l in enumerate(layers):
        x = seen[i]
        with torch.no_grad():
            ref = l(x); ref = ref[0] if isinstance(ref, tuple) else ref
            ours = from_hf(l); ia = implicit_attention(l, x)
            tol = rtol * (1 + float(ref.abs().max()))
            assert float((ours(x) - ref).abs().max()) <= tol
            assert float((out_proj(ours)(ia.mix()) - ref).abs().max()) <= tol
        assert ia.attn.shape[:3] == (x.shape[0], x.shape[1], x.shape[1])

@settings(max_examples=8, **SETTINGS)
@given(seed=st.integers(0, 1000), hidden=st.integers(2, 10), state=st.integers(1, 5), conv=st.integers(1, 4), expand=st.integers(1, 3),
       rank=st.integers(1, 4), use_bias=st.booleans(), conv_bias=st.booleans(), L=st.integers(1, 12))
def test_hf_mamba_layers_are_read_exactly(seed, hidden, state, conv, expand, rank, use_bias, conv_bias, L):
    T = pytest.importorskip('transformers')
    cfg = T.MambaConfig(vocab_size=30, hidden_size=hidden, state_size=state, num_hidden_layers=2, conv_kernel=conv, expand=expand,
                        time_step_rank=rank, use_bias=use_bias, use_conv_bias=conv_bias)
    with torch.random.fork_rng():
        torch.manual_seed(seed); model = T.MambaModel(cfg).double().eval()
    ids = torch.randint(0, 30, (2, L), generator=torch.Generator().manual_seed(seed))
    layers = [b.mixer for b in model.layers]
    _check_layers(layers, _inputs(model, layers, ids), lambda m: m.out_proj, 1e-8)

@settings(max_examples=8, **SETTINGS)
@given(seed=st.integers(0, 1000), hidden=st.integers(2, 10), att=st.integers(2, 10), L=st.integers(1, 12))
def test_hf_rwkv_layers_are_read_exactly(seed, hidden, att, L):
    T = pytest.importorskip('transformers')
    cfg = T.RwkvConfig(vocab_size=30, hidden_size=hidden, attention_hidden_size=att, intermediate_size=2 * hidden, num_hidden_layers=2, context_length=32)
    with torch.random.fork_rng():
        torch.manual_seed(seed); model = T.RwkvModel(cfg).double().eval()
    ids = torch.randint(0, 30, (2, L), generator=torch.Generator().manual_seed(seed))
    layers = [b.attention for b in model.blocks]
    _check_layers(layers, _inputs(model, layers, ids, use_cache=False), lambda m: m.output, 1e-6)  # transformers keeps the WKV state in float32

def test_hf_layers_refused_when_not_convertible():
    T = pytest.importorskip('transformers')
    with torch.random.fork_rng():
        torch.manual_seed(0); m = T.MambaModel(T.MambaConfig(vocab_size=10, hidden_size=4, state_size=2, num_hidden_layers=1, hidden_act='gelu'))
    with pytest.raises(ValueError, match='`layer`'): from_hf(m.layers[0].mixer)
    with pytest.raises(TypeError, match='`layer`'): from_hf(torch.nn.Linear(3, 3))
    with pytest.raises(TypeError, match='`layer`'): implicit_attention(torch.nn.Linear(3, 3), torch.randn(1, 2, 3))
