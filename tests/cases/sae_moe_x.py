"Contract cases for trustnb.sae.moe_x (MoE-X layer, trainer, coverage metric, benchmark and claim)."
import numpy as np
import torch
from contract import Case
from trustnb.sae import moe_x as M

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((24, 4)).astype(np.float32)
_Xt = torch.as_tensor(_X)
_Y = np.abs(_rng.standard_normal((24, 3))).astype(np.float32)
_CFG = M.MoEXConfig(d_in=4, d_out=3, n_experts=4, d_expert=2, k=2)
_M = M.MoEX(_CFG, seed=0)

class _Fresh:
    "Call `fn(fresh_model, **kw)`: each battery call trains an untrained layer."
    def __init__(self, fn, qualname): self.fn, self.__module__, self.__qualname__ = fn, fn.__module__, qualname
    def __call__(self, **kw): return self.fn(M.MoEX(_CFG, seed=0), **kw)

_COUNT = dict(d_in='count', d_out='count', n_experts='count', d_expert='count', k='count')
CASES = [
    Case(M.MoEXConfig, dict(d_in=4, d_out=3, n_experts=4, d_expert=2, k=2, routing='sparsity', activation='relu'), kinds=_COUNT),
    Case(M.MoEX, dict(config=_CFG, seed=0), then=lambda m: m(_X)),
    Case(M.MoEX, dict(config=M.MoEXConfig(4, 3, 4, 2, 2, routing='topk', activation='gelu'), seed=0), then=lambda m: m(_Xt), id='MoEX[topk]'),
    Case(M.MoEX, dict(config=M.MoEXConfig(4, 3, 4, 2, 2, routing='random'), seed=0), then=lambda m: m(_Xt), id='MoEX[random]'),
    Case(M.expected_active, dict(self=_M, x=_X), skip=('self',)),  # `self`: a method called unbound
    Case(M.active_fraction, dict(self=_M, x=_Xt), skip=('self',)),
    Case(M.route, dict(self=_M, x=_X), skip=('self',)),
    Case(_Fresh(M.train_moex, 'train_moex'), dict(X=_X, Y=_Y, steps=2, lr=1e-3, batch_size=8, seed=0),
         kinds=dict(steps='count', lr='positive', batch_size='count')),
    Case(M.coverage, dict(hidden=_X, features=_Y, threshold=0.8), kinds=dict(threshold='prob')),
    Case(M.moex_benchmark, dict(seed=0, n_atoms=6, d=4, k_active=2, n_train=32, n_test=16, steps=2, lr=1e-3, batch_size=16,
                                width=4, n_experts=3, k_experts=2, sae_k=2, threshold=0.8, moex_routing='sparsity', models=('dense', 'moex', 'sae')),
         kinds=dict(n_atoms='count', d='count', k_active='count', n_train='count', n_test='count', steps='count', lr='positive',
                    batch_size='count', width='count', n_experts='count', k_experts='count', sae_k='count', threshold='prob')),
]
COVERS = {M.train_moex}
EXEMPT = {'trustnb.sae.moe_x.moex_claim': 'the registered reproduction (runs moex_benchmark at full size, covered by the notebook)'}
