"Contract cases for trustnb.learn.shared_ae (chapter 9)."
import numpy as np
import torch
from contract import Case, Est
from trustnb.learn import shared_ae as SA

_D = SA.two_view_data(64, 5, 4, seed=0)
_TINY = dict(n_shared=2, n_private=1, hidden=8, max_iter=2, batch_size=32, cs_rows=16, seed=0)

def _fit_transform(X1, X2):  # the fit/transform path, so that the battery reaches `X1`, `X2`
    return SA.SharedAE(**_TINY).fit(X1, X2).transform(X1, X2)

_FITTED = SA.SharedAE(**_TINY).fit(_D.X1, _D.X2)
CASES = [
    Case(SA.cs_divergence, dict(X=torch.randn(6, 2, generator=torch.Generator().manual_seed(0)), Z=torch.randn(5, 2, generator=torch.Generator().manual_seed(1)), sigma=5.0),
         kinds=dict(sigma='positive')),
    Case(SA.two_view_data, dict(n=20, d1=4, d2=3, n_shared=2, n_private=1, gain=2.0, noise=0.1, seed=0),
         kinds=dict(n='count', d1='count', d2='count', n_shared='count', n_private='count', gain='positive', noise='nonneg')),
    Case(SA.probe_r2, dict(Z=_D.X1, y=_D.shared, train_fraction=0.5, ridge_coeff=1e-3), kinds=dict(train_fraction='prob', ridge_coeff='positive')),
    Case(SA.SharedAE, dict(**_TINY, cs_coeff=0.1, swap_coeff=1.0, sigma=5.0, lr=1e-3),
         kinds=dict(n_shared='count', n_private='count', hidden='count', max_iter='count', batch_size='count', cs_rows='count',
                    cs_coeff='nonneg', swap_coeff='nonneg', sigma='positive', lr='positive'),
         then=lambda e: e.fit(_D.X1, _D.X2).transform(_D.X1, _D.X2)),
    Case(_fit_transform, dict(X1=_D.X1, X2=_D.X2), id='trustnb.learn.shared_ae.SharedAE.fit'),
    Case(_FITTED.encode, dict(X=_D.X2, view=2), id='trustnb.learn.shared_ae.SharedAE.encode'),
    Case(_FITTED.transform, dict(X1=_D.X1, X2=_D.X2), id='trustnb.learn.shared_ae.SharedAE.transform'),
    Case(SA.kernel_cca, dict(X1=_D.X1, X2=_D.X2, n_components=2, n_train=40, n_features=10, reg_coeff=1e-3, seed=0),
         kinds=dict(n_components='count', n_train='count', n_features='count', reg_coeff='positive')),
    Case(SA.separation_experiment, dict(n=40, d1=4, d2=3, gain=2.0, max_iter=1, methods=('paper', 'ours', 'cca'), seed=0),
         kinds=dict(n='count', d1='count', d2='count', gain='positive', max_iter='count', seed='nonneg')),
]
ESTIMATORS = [
    Est(make=lambda: SA.SharedAE(**_TINY), fit_args=lambda: ((_D.X1, _D.X2), {}), methods=('encode',), compare='encode'),
]
EXEMPT = {
    'trustnb.learn.shared_ae.shared_ae_claim': 'the registered reproduction (runs separation_experiment, covered)',
}
