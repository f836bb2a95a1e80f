"Contract cases for trustnb.learn.kan."
import torch
from torch import nn
from contract import Case
from trustnb.learn import kan as K

_MLP = nn.Sequential(nn.Linear(2, 3), nn.ReLU(), nn.Linear(3, 1)).double()
CASES = [
    Case(K.uniform_knots, dict(grid=4, k=2, domain=(-1.0, 1.0)), kinds=dict(grid='count')),
    Case(K.b_spline_basis, dict(x=torch.rand(5, 2), knots=K.uniform_knots(3, 1).expand(2, -1), k=1), skip=('x', 'knots', 'k'), nan_passthrough=True),  # low-level kernel: layers validate
    Case(K.KANLayer, dict(in_dim=2, out_dim=3, grid=3, k=1, seed=0), kinds=dict(in_dim='count', out_dim='count', grid='count'), skip=('noise_scale',), legal=dict(k=('zero',))),
    Case(K.KAN, dict(widths=[2, 3, 1], grid=3, k=1, seed=0), kinds=dict(grid='count'), skip=('noise_scale',)),
    Case(K.n_params, dict(model=nn.Linear(2, 2))),
    Case(K.mlp_to_kan, dict(mlp=_MLP, domain=(-1.0, 1.0))),
    Case(K.kan_to_mlp, dict(kan=K.mlp_to_kan(_MLP, (-1.0, 1.0)))),
    Case(K.spectral_error, dict(model=K.KAN([1, 2, 1], seed=0), f=K.three_waves, freqs=[1, 8], n=64), kinds=dict(n='count')),
    Case(K.matched_mlp, dict(n_target=50, seed=0), kinds=dict(n_target='count')),
    Case(K.spectral_bias, dict(steps=2, grid=4, n_train=16, every=1, seed=0, target=K.random_waves(1), method='mlp'), kinds=dict(steps='count', lr='positive', n_train='count', every='count', grid='count'), skip=('widths', 'freqs', 'extend', 'k', 'target')),  # target: any callable
    Case(K.random_waves, dict(seed=0, freqs=(1, 4)), kinds=dict(seed='nonneg'), then=lambda w: w(torch.linspace(0, 1, 8))),
]
EXEMPT = {
    'trustnb.learn.kan.Waves': 'the record `random_waves` returns (covered through it, with its call)',
    'trustnb.learn.kan.three_waves': 'the fixed target function of the experiment (an elementwise formula on a tensor)',
    'trustnb.learn.kan.kan_spectral_bias_claim': 'the registered reproduction (runs spectral_bias, covered)',
}
