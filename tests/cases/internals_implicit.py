"Contract cases for trustnb.internals.implicit_attention (chapter 2)."
import numpy as np
import torch
from contract import Case
from trustnb.internals import implicit_attention as IA

_g = torch.Generator().manual_seed(0)
_x = torch.randn(1, 4, 4, generator=_g)
_mamba = IA.MambaLayer(IA.MambaConfig(d_model=4, d_state=2, dt_rank=2), seed=0)
_rwkv = IA.RWKVLayer(IA.RWKVConfig(4, 3), seed=0)
_task = IA.key_token_task(n=4, L=5, seed=0)
_clf = IA.SequenceClassifier(IA.ClassifierConfig(vocab_size=_task.vocab_size, n_layers=1, d_model=4), seed=0)
_delta, _A = torch.rand(1, 4, 3, generator=_g), -torch.rand(3, 2, generator=_g)
_B, _C = torch.randn(1, 4, 2, generator=_g), torch.randn(1, 4, 2, generator=_g)

def _hf_layers():
    "transformers' MambaMixer and RwkvSelfAttention from tiny random models (None where transformers lacks them)."
    try: import transformers as T
    except ImportError: return None, None
    with torch.random.fork_rng():
        torch.manual_seed(0)
        mamba = T.MambaModel(T.MambaConfig(vocab_size=8, hidden_size=4, state_size=2, num_hidden_layers=1, conv_kernel=2, time_step_rank=2)).layers[0].mixer
        rwkv = T.RwkvModel(T.RwkvConfig(vocab_size=8, hidden_size=4, attention_hidden_size=3, intermediate_size=8, num_hidden_layers=2, context_length=8)).blocks[0].attention
    return mamba, rwkv
_hf_mamba, _hf_rwkv = _hf_layers()

CASES = [
    Case(IA.MambaConfig, dict(d_model=4, expand=2, d_state=2, d_conv=3, dt_rank=2, d_inner=6),
         kinds=dict(d_model='count', expand='count', d_state='count', d_conv='count', dt_rank='count', d_inner='count')),
    Case(IA.RWKVConfig, dict(d_model=4, d_att=3), kinds=dict(d_model='count', d_att='count')),
    Case(IA.ClassifierConfig, dict(vocab_size=8, n_classes=2, n_layers=1, kind='mamba', d_model=4),
         kinds=dict(vocab_size='count', n_classes='count', n_layers='count', d_model='count')),
    Case(IA.MambaLayer, dict(config=IA.MambaConfig(d_model=4, d_state=2, dt_rank=2), seed=0), then=lambda m: m(_x).detach()),
    Case(IA.RWKVLayer, dict(config=IA.RWKVConfig(4, 3), seed=0), then=lambda m: m(_x).detach()),
    Case(IA.SequenceClassifier, dict(config=IA.ClassifierConfig(vocab_size=8, n_layers=1, d_model=4), seed=0),
         then=lambda m: m(torch.zeros(1, 3, dtype=torch.long)).detach()),
    Case(IA.s6_attention, dict(delta=_delta, A=_A, B=_B, C=_C)),
    Case(IA.conv_matrix, dict(weight=torch.randn(3, 2, generator=_g), L=4), kinds=dict(L='count')),
    Case(IA.implicit_attention, dict(layer=_mamba, x=_x), then=lambda r: r.mix().detach(), id='implicit_attention[mamba]'),
    Case(IA.implicit_attention, dict(layer=_rwkv, x=_x.numpy()), then=lambda r: r.matrix('abs'), id='implicit_attention[rwkv]'),
    *([Case(IA.implicit_attention, dict(layer=_hf_mamba, x=_x), then=lambda r: r.mix().detach(), id='implicit_attention[hf mamba]'),
       Case(IA.from_hf, dict(layer=_hf_mamba), then=lambda m: m(_x).detach(), id='from_hf[mamba]'),
       Case(IA.from_hf, dict(layer=_hf_rwkv), then=lambda m: m(_x).detach(), id='from_hf[rwkv]')] if _hf_mamba is not None else []),
    Case(IA.key_token_task, dict(n=4, L=5, n_classes=2, n_noise=3, n_distractors=1, seed=0),
         kinds=dict(n='count', L='count', n_classes='count', n_noise='count', n_distractors='nonneg')),
    Case(IA.train_key_token, dict(model=_clf, task=_task, steps=2, lr=1e-3, batch_size=4, seed=0),
         kinds=dict(steps='count', lr='positive', batch_size='count')),
    Case(IA.implicit_attribution, dict(model=_clf, tokens=_task.tokens, formulation='implicit', aggregate='abs', weighting='grad', target=_task.labels),
         kinds=dict(target='labels'), then=lambda r: r.scores),
    Case(IA.key_token_experiment, dict(L=4, n_train=8, n_test=4, steps=1, kind='rwkv', ig_steps=0, seed=0, sham=False),
         kinds=dict(L='count', n_train='count', n_test='count', steps='count', ig_steps='nonneg', seed='nonneg'), then=lambda r: r['top1']),
]
EXEMPT = {
    'trustnb.internals.implicit_attention.implicit_attention_claim': 'the registered reproduction (runs key_token_experiment, covered)',
    'trustnb.internals.implicit_attention.AGGREGATIONS': 'a constant: the channel aggregations the reproduction chooses among',
}
