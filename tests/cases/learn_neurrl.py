"Contract cases for trustnb.learn.neurrl (chapter 9)."
import numpy as np
import torch
from contract import Case, Est
from trustnb.learn import neurrl as N

_D = N.planted_rule_series(n=16, length=30, n_regions=3, width=1.0, seed=0)
_TINY = dict(n_patterns=2, n_regions=3, window=6, stride=3, emb_dim=2, hidden=4, max_iter=2, pretrain_iter=2, batch_size=8, seed=0)
_FIT = N.NeurRLClassifier(**_TINY).fit(_D.X, _D.y)
_G = np.exp(-0.5 * ((np.arange(10) - 4) / 1.5) ** 2)
CASES = [
    Case(N.load_gunpoint_resample, dict(seed=3), kinds=dict(seed='nonneg'), then=lambda r: r[0].shape),
    Case(N.planted_rule_series, dict(n=6, length=30, n_regions=3, rule=(('bump', 0), ('dip', 2)), amplitude=2.0, width=1.0, noise=0.3, seed=0),
         kinds=dict(n='count', length='count', n_regions='count', amplitude='positive', width='positive', noise='nonneg')),
    Case(N.window_regions, dict(length=30, window=6, stride=3, n_regions=3), kinds=dict(length='count', window='count', stride='count', n_regions='count')),
    Case(N.NeurRLNet, dict(window=6, regions=np.array([0, 0, 1, 1, 2, 2]), n_patterns=2, n_classes=2), skip=('regions', 'window', 'n_patterns', 'n_classes'),
         rng_free=False),  # internal module, built by NeurRLClassifier under core.local_seed; validated there
    Case(N.NeurRLClassifier, dict(_TINY), kinds=dict(n_patterns='count', n_regions='count', window='count', stride='count', emb_dim='count', hidden='count',
         tau='positive', rec_coeff='nonneg', clu_coeff='nonneg', sparse_coeff='nonneg', lr='positive', max_iter='count', pretrain_iter='nonneg',
         batch_size='count', threshold='prob'), then=lambda e: e.fit(_D.X, _D.y).predict_proba(_D.X)),
    Case(N.pattern_identity, dict(prototypes=np.stack([_G, -_G]), width=1.5, amplitude=2.0, min_corr=0.8), kinds=dict(width='positive', amplitude='positive')),
    Case(N.rule_recovery, dict(clf=_FIT, task=_D, min_corr=0.8)),
    Case(N.sample_shapelets, dict(X=_D.X, length=5, n_shapelets=3, seed=0), kinds=dict(length='count', n_shapelets='count')),
    Case(N.shapelet_distances, dict(X=_D.X, shapelets=_D.X[:2, :5])),
]
ESTIMATORS = [Est(make=lambda: N.NeurRLClassifier(**_TINY), fit_args=lambda: ((_D.X, _D.y), {}), methods=('predict', 'predict_proba', 'predicates'), compare='predict_proba')]
EXEMPT = {
    'trustnb.learn.neurrl.neurrl_gunpoint_claim': 'the registered GunPoint reproduction (runs load_gunpoint_resample, NeurRLClassifier and the baseline)',
    'trustnb.learn.neurrl.neurrl_claim': 'the registered reproduction (runs NeurRLClassifier, rule_recovery and the baseline; covered by the notebook)',
}
