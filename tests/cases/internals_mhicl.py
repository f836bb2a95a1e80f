"Contract cases for trustnb.internals.multihead_icl (chapter 2)."
import numpy as np
import torch
from contract import Case
from trustnb.internals import multihead_icl as MH

_b = MH.sample_icl_batch(d=3, n=5, batch=2, seed=0)
_X, _y, _xq = _b.X.numpy(), _b.y.numpy(), _b.xq.numpy()
_m = MH.MultiHeadICL(3, 2, seed=0)

CASES = [
    Case(MH.sample_icl_batch, dict(d=3, n=5, batch=2, sigma=0.3, signal=1.0, seed=0),
         kinds=dict(d='count', n='count', batch='count', sigma='nonneg', signal='positive', seed='nonneg'), then=lambda r: (r.X, r.y, r.yq)),
    Case(MH.MultiHeadICL, dict(d=3, n_heads=2, seed=0), kinds=dict(d='count', n_heads='count', seed='nonneg'),
         then=lambda m: m(_b.X, _b.y, _b.xq).detach()),
    Case(_m, dict(X=_X, y=_y, xq=_xq), id='trustnb.internals.multihead_icl.MultiHeadICL.forward'),
    Case(MH.train_icl, dict(model=MH.MultiHeadICL(3, 2, seed=1), steps=2, batch=4, n=4, lr=1e-2, sigma=0.3, signal=1.0, seed=0, shuffle_targets=True),
         kinds=dict(steps='count', batch='count', n='count', lr='positive', sigma='nonneg', signal='positive', seed='nonneg')),
    Case(MH.head_structure, dict(model=_m), then=lambda s: (s.KQ, s.OV, s.zero_sum, s.last_entry_share)),
    Case(MH.debiased_gd_predict, dict(X=_X, y=_y, xq=_xq, eta=0.5), kinds=dict(eta='positive')),
    Case(MH.gd_predict, dict(X=_X, y=_y, xq=_xq, eta=0.5), kinds=dict(eta='positive')),
    Case(MH.bayes_ridge_predict, dict(X=_X, y=_y, xq=_xq, sigma=0.3, signal=1.0), kinds=dict(sigma='nonneg', signal='positive')),
    Case(MH.debiased_attention, dict(d=3, omega=0.3, mu=1.0), kinds=dict(d='count', omega='positive', mu='positive'),
         then=lambda m: m(_b.X, _b.y, _b.xq).detach()),
    Case(MH.mhicl_experiment, dict(d=2, n=4, heads=(1, 2), steps=2, batch=4, lr=1e-2, sigma=0.3, n_test=8, seed=0, sham=True),
         kinds=dict(d='count', n='count', steps='count', batch='count', lr='positive', sigma='nonneg', n_test='count', seed='nonneg'),
         then=lambda r: r['mse']),
]
EXEMPT = {
    'trustnb.internals.multihead_icl.ICLBatch': 'the record sample_icl_batch returns (covered through it)',
    'trustnb.internals.multihead_icl.HeadStructure': 'the record head_structure returns (covered through it)',
    'trustnb.internals.multihead_icl.mhicl_claim': 'the registered reproduction (trains four models for ~20 s; runs mhicl_experiment, covered)',
    'trustnb.internals.multihead_icl.SIZES': 'a constant: the two problem sizes of the claim',
}
