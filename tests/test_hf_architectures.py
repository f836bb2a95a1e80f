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
