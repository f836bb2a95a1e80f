"Contract cases for trustnb.learn.relu_regions (chapter 9)."
import numpy as np
import torch
from contract import Case
from trustnb.learn import relu_regions as RR

CASES = [
    Case(RR.tent, dict(t=torch.linspace(0, 1, 5, dtype=torch.float64), a=torch.tensor(0.3, dtype=torch.float64)), skip=('t', 'a')),  # a raw two-ReLU layer: tensors in, tensors out (NaN in -> NaN out)
    Case(RR.TriangleWaveNet, dict(depth=3, init='random', lo=0.0, hi=1.0, seed=0), kinds=dict(depth='count'), skip=('dtype',), then=lambda m: m.n_regions()),
    Case(RR.count_linear_regions, dict(f=np.abs, lo=-1.0, hi=1.0, n=101, rtol=1e-6), kinds=dict(n='count', rtol='positive'), legal=dict(lo=('negative',))),
    Case(RR.fit_1d, dict(model=RR.TriangleWaveNet(2), fn=torch.exp, steps=3, lr=1e-2, seed=0, lo=0.0, hi=1.0, n_points=32, batch_size=8, normalize=True, init_readout=True),
         kinds=dict(steps='count', lr='positive', n_points='count', batch_size='count'), legal=dict(lo=('negative',))),
    Case(RR.relu_mlp, dict(depth=2, width=3, seed=0, init='default'), kinds=dict(depth='count', width='count'), skip=('dtype',)),
    Case(RR.random_convex_target, dict(seed=0, log10_scale=(-1.0, 1.0)), kinds=dict(seed='nonneg'), legal=dict(log10_scale=('negative',)),
         then=lambda t: t(torch.linspace(0, 1, 5, dtype=torch.float64))),
    Case(RR.regions_experiment, dict(fn=torch.exp, depth=2, steps=2, widths=(2,), lrs=(1e-2,), inits=('he',), n_seeds=1, seed=0),
         kinds=dict(depth='count', steps='count', n_seeds='count', seed='nonneg'), skip=('fn',)),  # fn: any callable target
]
EXEMPT = {
    'trustnb.learn.relu_regions.ConvexTarget': 'the record `random_convex_target` returns (covered through it, with its call)',
    'trustnb.learn.relu_regions.relu_regions_claim': 'the registered reproduction (runs regions_experiment, covered)',
}
