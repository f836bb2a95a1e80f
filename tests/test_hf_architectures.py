"Hook-based internals on every common Hugging Face decoder family, built offline from config classes with random weights."
import pytest, torch
import transformers as T
from trustnb.core import local_seed
from trustnb.hooks import SITES, resolve_site, n_layers, capture_sites, intervene_site, ablate, add_vector

KW = dict(vocab_size=50, hidden_size=16, intermediate_size=24, num_hidden_layers=3, num_attention_heads=2, max_position_embeddings=32)
FAMILIES = {
    'gpt2': lambda: T.GPT2LMHeadModel(T.GPT2Config(vocab_size=50, n_embd=16, n_layer=3, n_head=2, n_positions=32, n_inner=24)),
    'gpt_neox': lambda: T.GPTNeoXForCausalLM(T.GPTNeoXConfig(**KW)),
    'llama': lambda: T.LlamaForCausalLM(T.LlamaConfig(**KW, num_key_value_heads=1)),
    'mistral': lambda: T.MistralForCausalLM(T.MistralConfig(**KW, num_key_value_heads=1)),
    'qwen2': lambda: T.Qwen2ForCausalLM(T.Qwen2Config(**KW, num_key_value_heads=1)),
    'gemma': lambda: T.GemmaForCausalLM(T.GemmaConfig(**KW, num_key_value_heads=1, head_dim=8)),
    'gemma2': lambda: T.Gemma2ForCausalLM(T.Gemma2Config(**KW, num_key_value_heads=1, head_dim=8)),
    'phi': lambda: T.PhiForCausalLM(T.PhiConfig(**KW)),
    'phi3': lambda: T.Phi3ForCausalLM(T.Phi3Config(**KW, pad_token_id=0)),
    'llama_base': lambda: T.LlamaModel(T.LlamaConfig(**KW, num_key_value_heads=1)),  # a bare base model, no LM head
}

def _model(name):
    with local_seed(0): return FAMILIES[name]().eval()

def _out(m, ids):
    o = m(ids); return o.logits if hasattr(o, 'logits') else o.last_hidden_state

def _clean(m): return all(not x._forward_hooks and not x._forward_pre_hooks for x in m.modules())

@pytest.mark.parametrize('name', FAMILIES)
def test_sites_resolve_capture_and_edit(name):
    m = _model(name); ids = torch.randint(0, 50, (2, 5), generator=torch.Generator().manual_seed(1))
    assert n_layers(m) == 3
    for layer in (0, -1):
        sites = {s: resolve_site(m, layer, s) for s in SITES}
        with capture_sites(m, sites) as cap: base = _out(m, ids)
        for s in ('resid', 'attn', 'mlp', 'embed'): assert cap[s].shape == (2, 5, 16), (name, s, cap[s].shape)
        assert cap['mlp_neurons'].shape == (2, 5, 24), (name, cap['mlp_neurons'].shape)
        for s in ('resid', 'attn', 'mlp', 'mlp_neurons'):
            with intervene_site(m, sites[s], ablate()): assert not torch.allclose(_out(m, ids), base), (name, s)
        with intervene_site(m, sites['resid'], add_vector(torch.zeros(16))): assert torch.allclose(_out(m, ids), base, atol=1e-6)
    assert _clean(m)

@pytest.mark.parametrize('name', ['gpt2', 'llama', 'phi'])
def test_hooks_removed_when_the_edit_raises(name):
    m = _model(name); ids = torch.zeros(1, 3, dtype=torch.long)
    def boom(h): raise RuntimeError('edit failed')
    with pytest.raises(RuntimeError, match='edit failed'):
        with intervene_site(m, resolve_site(m, 0, 'mlp_neurons'), boom): _out(m, ids)
    with pytest.raises(RuntimeError, match='inside'):
        with capture_sites(m, {'r': resolve_site(m, 1, 'resid')}):
            raise RuntimeError('inside')
    assert _clean(m)

# issue 24: a vector of another width (or a per-position vector of another length) used to reach torch's broadcasting and
# fail with a raw RuntimeError (or, for width 1, broadcast silently); it must be a ValueError naming the argument.
from hypothesis import given, settings, strategies as st, HealthCheck
from trustnb.hooks import replace_with, project_out

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(name=st.sampled_from([k for k in FAMILIES if k != 'llama_base']), site=st.sampled_from(['resid', 'attn', 'mlp', 'mlp_neurons']),
       width=st.integers(1, 40), lead=st.sampled_from([(), (5,), (1, 5), (3,), (2, 5)]), edit=st.sampled_from(['add', 'replace', 'project', 'mean']))
def test_width_mismatched_vectors_raise_valueerror_naming_the_argument(name, site, width, lead, edit):
    m = _model(name); s = resolve_site(m, 1, site); ids = torch.randint(0, 50, (2, 5), generator=torch.Generator().manual_seed(0))
    true_width = 24 if site == 'mlp_neurons' else 16
    v = torch.randn(*lead, width)
    fits = width == true_width and (len(lead) == 0 or (lead[-1] in (1, 5) and (len(lead) == 1 or lead[0] in (1, 2))))
    if edit == 'project': v, fits = v.reshape(-1), v.numel() == true_width
    fn, arg = {'add': (lambda: add_vector(v), 'v'), 'replace': (lambda: replace_with(v), 'value'),
               'project': (lambda: project_out(v), 'v'), 'mean': (lambda: ablate(v), 'mean')}[edit]
    fn = fn()
    if fits:
        with intervene_site(m, s, fn): _out(m, ids)
    else:
        with pytest.raises(ValueError, match=f'`{arg}`'):
            with intervene_site(m, s, fn): _out(m, ids)
    assert _clean(m)

# ---- every causal-LM family transformers knows, built offline from its config class -------------------------------------
# The nine families above are the ones the chapter names; a method that relies on a transformers mechanism (AttentionInterface)
# must also be checked on the rest. `causal_lm_family(model_type)` shrinks the config class's defaults (width, depth, vocabulary)
# and builds the model with random weights; a family that cannot be built that way (a required extra, an architecture whose
# config the generic shrinking breaks, or more than 5M parameters after shrinking) is skipped with the reason.
from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES
from transformers.models.auto.configuration_auto import CONFIG_MAPPING

CAUSAL_LM_TYPES = sorted(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES)
_WIDTH = dict(hidden_size=16, intermediate_size=32, num_attention_heads=2, num_key_value_heads=1, n_embd=16, n_head=2, d_model=16, n_inner=32,
              head_dim=8, ffn_dim=32, d_ff=32, num_heads=2, n_heads=2, embed_dim=16, hidden_dim=16, num_local_experts=2, num_experts=2,
              n_routed_experts=2, moe_intermediate_size=16, num_experts_per_tok=1)
_WIDE = dict(_WIDTH, hidden_size=32, n_embd=32, d_model=32, embed_dim=32, hidden_dim=32, num_attention_heads=4, n_head=4, num_heads=4, n_heads=4,
             num_key_value_heads=2, intermediate_size=64, qk_rope_head_dim=4, qk_nope_head_dim=4, v_head_dim=8, kv_lora_rank=8, q_lora_rank=8,
             n_shared_experts=1, first_k_dense_replace=1, rotary_dim=4)
_DEPTH = dict(vocab_size=64, num_hidden_layers=2, n_layer=2, num_layers=2, n_layers=2, max_position_embeddings=64, n_positions=64)

def _attr(cfg, k):
    try: return getattr(cfg, k, None), hasattr(cfg, k)
    except Exception: return None, False  # per-layer attributes of heterogeneous configs raise on global access

def _shrunk(cfg, sizes):
    kw = {k: v for k, v in sizes.items() if _attr(cfg, k)[1]}
    for t in ('pad_token_id', 'bos_token_id', 'eos_token_id'):
        v = _attr(cfg, t)[0]
        if isinstance(v, int) and v >= sizes['vocab_size']: kw[t] = 1
    return kw

def causal_lm_family(model_type, max_params=5_000_000):
    "A tiny random model of `model_type` (eval mode), or pytest.skip with the reason it cannot be built offline."
    ccls, mcls = CONFIG_MAPPING[model_type], getattr(T, MODEL_FOR_CAUSAL_LM_MAPPING_NAMES[model_type], None)
    if mcls is None: pytest.skip(f'{model_type}: transformers has no class {MODEL_FOR_CAUSAL_LM_MAPPING_NAMES[model_type]}')
    try: d = ccls()
    except Exception as e: pytest.skip(f'{model_type}: its config class does not build with defaults ({type(e).__name__}: {e})'[:300])
    errors = []
    lt = _attr(d, 'layer_types')[0]
    for sizes, cut_types in (({**_WIDTH, **_DEPTH}, False), ({**_WIDE, **_DEPTH}, False), (_DEPTH, False), ({**_WIDTH, **_DEPTH}, True)):
        if cut_types and not (isinstance(lt, (list, tuple)) and len(lt) > 2): continue
        kw = _shrunk(d, sizes)
        if cut_types: kw['layer_types'] = list(lt[:2])  # per-layer type lists must match the shrunk depth
        sub = _attr(d, 'text_config')[0]
        if sub is not None and hasattr(sub, 'to_dict'): kw['text_config'] = {**sub.to_dict(), **_shrunk(sub, sizes)}
        try:
            cfg = ccls(**kw)
            with torch.device('meta'): n = sum(p.numel() for p in mcls(cfg).parameters())
            if n > max_params: raise RuntimeError(f'{n:,} parameters after shrinking')
            with local_seed(0): m = mcls(cfg).eval()
            with torch.no_grad(): m(input_ids=torch.randint(2, 16, (1, 5), generator=torch.Generator().manual_seed(0)))
            return m
        except Exception as e: errors.append(f'{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ""}'[:160])
    pytest.skip(f'{model_type}: cannot be built offline from its config class: ' + ' | '.join(errors))
