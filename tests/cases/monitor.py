"Contract cases for chapter 7, reliability and monitoring (trustnb.monitor.*): every export with one tiny valid call."
import numpy as np
import torch
from torch import nn
from contract import Case, Est
from trustnb.core import local_seed

_rng = np.random.default_rng(0)

# --- CAPA -------------------------------------------------------------------------------------------------------------
from trustnb.monitor import capa as K
_PA = _rng.dirichlet(np.ones(3), 12); _PB = _rng.dirichlet(np.ones(3), 12); _YK = _rng.integers(0, 3, 12)
_PROBS = {'a': _PA, 'b': _PB}
CASES = [
    Case(K.capa_terms, dict(probs_a=_PA, probs_b=_PB, y_true=_YK, discrete=False), kinds=dict(y_true='labels')),
    Case(K.capa, dict(probs_a=_PA, probs_b=_PB, y_true=_YK), kinds=dict(y_true='labels')),
    Case(K.error_consistency, dict(probs_a=_PA, probs_b=_PB, y_true=_YK), kinds=dict(y_true='labels')),
    Case(K.similarity_matrix, dict(probs=_PROBS, y_true=_YK, metric='capa'), kinds=dict(y_true='labels')),
    Case(K.capa_bootstrap, dict(probs_a=_PA, probs_b=_PB, y_true=_YK, n_boot=20, level=0.9, method='percentile', seed=0),
         kinds=dict(y_true='labels', n_boot='count', level='prob')),
    Case(K.simulate_pair, dict(n=30, k=4, acc=0.8, conf=0.9, kind='shared', shared=0.5, seed=0),
         kinds=dict(n='count', k='count', acc='prob', conf='prob', shared='prob')),
    Case(K.capa_claim, dict(seed=0, sham=False, n=500), kinds=dict(n='count', seed='nonneg')),
]
ESTIMATORS = []
EXEMPT = {'trustnb.monitor.capa.capa_claim': 'the registered reproduction; also covered by a Case'}

# --- suitability filter -----------------------------------------------------------------------------------------------
from trustnb.monitor import suitability as S
_L = _rng.normal(0, 2, (80, 3)); _Y = np.where(_rng.random(80) < 0.7, _L.argmax(1), _rng.integers(0, 3, 80))
_LT, _LU = _rng.normal(0, 2, (40, 3)), _rng.normal(0, 2, (30, 3))
_FILT = S.SuitabilityFilter(cv=2).fit(_L, _Y, _LT)
CASES += [
    Case(S.suitability_signals, dict(logits=_L, signals='all')),
    Case(S.non_inferiority_welch, dict(test=_rng.random(20), user=_rng.random(15), margin=0.05, alpha=0.05), kinds=dict(margin='nonneg', alpha='prob')),
    Case(S.SuitabilityFilter, dict(margin=0.05, alpha=0.05, signals='all', calibrated=True, cv=2), kinds=dict(margin='nonneg', alpha='prob', cv='count'),
         then=lambda f: f.fit(_L, _Y, _LT).test(_LU)),
    Case(_FILT.fit, dict(logits_sf=_L, y_sf=_Y, logits_test=_LT, y_test=_Y[:40]), kinds=dict(y_sf='labels', y_test='labels'), id='SuitabilityFilter.fit'),
    Case(_FILT.test, dict(logits_user=_LU, margin=0.05, alpha=0.05), kinds=dict(margin='nonneg', alpha='prob'), id='SuitabilityFilter.test'),
    Case(_FILT.test_correctness, dict(pc_user=_rng.random(30), margin=0.05, alpha=0.05), kinds=dict(pc_user='prob', margin='nonneg', alpha='prob'),
         id='SuitabilityFilter.test_correctness'),
    Case(S.ks_confidence_drift, dict(logits_test=_LT, logits_user=_LU, alpha=0.05), kinds=dict(alpha='prob')),
    Case(S.shift_experiment, dict(name='credit', margin=0.05, alpha=0.05, n_user=50, draws=2, seed=0),
         kinds=dict(margin='nonneg', alpha='prob', n_user='count', draws='count')),  # memoized: the valid call trains once
]
ESTIMATORS += [Est(make=lambda: S.SuitabilityFilter(cv=2), fit_args=lambda: ((_L, _Y, _LT), {}), methods=('correctness', 'test'), compare='correctness')]
EXEMPT.update({'trustnb.monitor.suitability.suitability_claim': 'the registered reproduction (runs `shift_experiment`, which is covered)'})

# --- OOD detection (DCC and baselines) ---------------------------------------------------------------------------------
from trustnb.monitor import ood_dcc as O
_F = _rng.normal(size=(60, 6)) @ _rng.normal(size=(6, 6)) + np.repeat(_rng.normal(size=(3, 6)) * 2, 20, 0); _YF = np.repeat(np.arange(3), 20)
_FT = _rng.normal(size=(10, 6))
_WH, _BH = _rng.normal(size=(3, 6)), _rng.normal(size=3)
_DCC = O.DynamicCovarianceOOD(residual_dim=2, update='psd').fit(_F, _YF)
_SP = dict(ftr=_F, ytr=_YF, fid=_FT, ood={'near': _FT + 1}, W=_WH, b=_BH)
CASES += [
    Case(O.DynamicCovarianceOOD, dict(residual_dim=2, update='psd', normalize=True, rho=0.5, ridge=1e-6, eps=1e-9, contamination=0.1),
         kinds=dict(residual_dim='count', rho='prob', ridge='nonneg', eps='positive', contamination='prob'), then=lambda d: d.fit(_F, _YF).score_samples(_FT)),
    Case(_DCC.fit, dict(X=_F, y=_YF), id='DynamicCovarianceOOD.fit'),
    Case(_DCC.score_samples, dict(X=_FT), id='DynamicCovarianceOOD.score_samples'),
    Case(_DCC.distances, dict(X=_FT, chunk=4), kinds=dict(chunk='count'), id='DynamicCovarianceOOD.distances'),
    Case(_DCC.flagged, dict(X=_FT), id='DynamicCovarianceOOD.flagged'),
    Case(O.Mahalanobis, dict(normalize=False, ridge=1e-6, contamination=0.1), kinds=dict(ridge='nonneg', contamination='prob'),
         then=lambda d: d.fit(_F, _YF).score_samples(_FT)),
    Case(O.ResidualMahalanobis, dict(residual_dim=2), kinds=dict(residual_dim='count'), then=lambda d: d.fit(_F, _YF).score_samples(_FT)),
    Case(O.ViM, dict(principal_dim=3, contamination=0.1), kinds=dict(principal_dim='count', contamination='prob'),
         then=lambda d: d.fit(_F, W=_WH, b=_BH).score_samples(_FT)),
    Case(O.ViM(principal_dim=3).fit, dict(X=_F, W=_WH, b=_BH), id='ViM.fit'),
    Case(O.energy_score, dict(logits=_F[:, :3])),
    Case(O.ood_auroc, dict(score_id=_rng.random(8) + 0.5, score_ood=_rng.random(7))),
    Case(O.detector_aurocs, dict(sp=_SP, residual_dim=2), kinds=dict(residual_dim='count')),
    Case(O.ood_splits, dict(name='credit', seed=0, hidden=(16, 8))),  # hidden: empty / opaque tuples are refused by name
]
ESTIMATORS += [
    Est(make=lambda: O.DynamicCovarianceOOD(residual_dim=2), fit_args=lambda: ((_F, _YF), {}), methods=('score_samples', 'decision_function', 'predict'), compare='score_samples'),
    Est(make=lambda: O.DynamicCovarianceOOD(residual_dim=2, update='psd'), fit_args=lambda: ((_F,), {}), methods=('score_samples',), compare='predict',
        id='DynamicCovarianceOOD[psd, no labels]'),
    Est(make=lambda: O.Mahalanobis(), fit_args=lambda: ((_F, _YF), {}), methods=('score_samples', 'predict'), compare='score_samples'),
    Est(make=lambda: O.ResidualMahalanobis(residual_dim=2), fit_args=lambda: ((_F, _YF), {}), methods=('score_samples',), compare='decision_function'),
    Est(make=lambda: O.ViM(principal_dim=3), fit_args=lambda: ((_F,), dict(W=_WH, b=_BH)), methods=('score_samples',), compare='score_samples'),
]
EXEMPT.update({'trustnb.monitor.ood_dcc.dcc_claim': 'the registered reproduction (runs `detector_aurocs` on `ood_splits`, both covered)'})

# --- learning to defer -------------------------------------------------------------------------------------------------
from trustnb.monitor import defer as D
_XD = _rng.normal(size=(40, 5)).astype(np.float32); _YD = _rng.integers(0, 3, 40)
_TD = np.c_[np.where(_rng.random(40) < 0.8, _YD, (_YD + 1) % 3), _YD]; _TDm = D.mask_annotations(_TD, 0.3, 0)
_PL = D.ProbL2D(workload_lower=np.array([0.2, 0.2, 0.]), workload_upper=np.array([0.5, 0.5, 0.6]), epochs=1, batch_size=20).fit(_XD, _YD, _TDm)
_CL = D.CompleteRowsL2D(epochs=1, batch_size=20).fit(_XD, _YD, _TDm)
_g = torch.Generator().manual_seed(0)
_LPZ = torch.randn(6, 3, generator=_g).log_softmax(-1); _LPT = torch.randn(6, 3, 4, generator=_g).log_softmax(-1)
CASES += [
    Case(D.constrained_posterior, dict(q=_rng.dirichlet(np.ones(3), 20), lower=np.array([0.2, 0.2, 0.]), upper=np.array([0.5, 0.5, 0.6]), tol=1e-10),
         kinds=dict(tol='positive')),
    Case(D.e_step, dict(log_pz=_LPZ, log_pt=_LPT, y=torch.tensor([0, 1, 2, 3, 0, 1]), T=torch.tensor([[0, -1], [1, 1], [-1, -1], [3, 2], [0, 0], [-1, 1]]),
                        label_smoothing=0.1), kinds=dict(label_smoothing='prob')),
    Case(D.coverage, dict(component=np.array([0, 1, 2, 2]), n_components=3), kinds=dict(n_components='count', component='labels')),
    Case(D.ProbL2D, dict(workload_lower=np.array([0.2, 0.2, 0.]), workload_upper=np.array([0.5, 0.5, 0.6]), hidden=(4,), label_smoothing=1e-3,
                         epochs=1, lr=1e-2, batch_size=20, weight_decay=1e-4, seed=0),
         kinds=dict(label_smoothing='prob', epochs='count', lr='positive', batch_size='count', weight_decay='nonneg'),
         legal=dict(hidden=('empty',)), then=lambda m: m.fit(_XD, _YD, _TDm).defer(_XD, _TD)),  # no hidden layer = linear networks
    Case(D.ProbL2D(epochs=1, batch_size=20).fit, dict(X=_XD, y=_YD, T=_TDm), kinds=dict(y='labels'), legal=dict(y=('unknown_label',)), id='ProbL2D.fit'),  # any int >= 0 is a class
    Case(_PL.defer, dict(X=_XD, T=_TD, enforce_workload=True), id='ProbL2D.defer'),
    Case(_PL.predict_proba, dict(X=_XD), id='ProbL2D.predict_proba'),
    Case(D.CompleteRowsL2D, dict(hidden=(4,), epochs=1, lr=1e-2, batch_size=20, weight_decay=1e-4, seed=0, missing='no_credit'),
         kinds=dict(epochs='count', lr='positive', batch_size='count', weight_decay='nonneg'), legal=dict(hidden=('empty',)),
         then=lambda m: m.fit(_XD, _YD, _TDm).defer(_XD, _TD)),
    Case(D.CompleteRowsL2D(epochs=1, batch_size=20).fit, dict(X=_XD, y=_YD, T=_TDm), kinds=dict(y='labels'), legal=dict(y=('unknown_label',)), id='CompleteRowsL2D.fit'),
    Case(_CL.defer, dict(X=_XD, T=_TD), id='CompleteRowsL2D.defer'),
    Case(D.simulate_experts, dict(y=_YD, n_classes=3, accuracy=0.9, seed=0), kinds=dict(y='labels', n_classes='count', accuracy='prob')),
    Case(D.mask_annotations, dict(T=_TD, missing=0.5, seed=0), kinds=dict(missing='prob'), legal=dict(T=('negative_label',))),
]
ESTIMATORS += [
    Est(make=lambda: D.ProbL2D(workload_lower=np.array([0.2, 0.2, 0.]), workload_upper=np.array([0.5, 0.5, 0.6]), epochs=2, batch_size=20, seed=0),
        fit_args=lambda: ((_XD, _YD, _TDm), {}), methods=('predict', 'predict_proba', 'route_proba'), compare='predict_proba'),
    Est(make=lambda: D.CompleteRowsL2D(epochs=2, batch_size=20, seed=0), fit_args=lambda: ((_XD, _YD, _TDm), {}), methods=('predict', 'predict_proba'),
        compare='predict_proba'),
]
EXEMPT.update({'trustnb.monitor.defer.defer_claim': 'the registered reproduction (trains ProbL2D and CompleteRowsL2D, complete rows and all rows, on digits; both covered)'})

# --- influence functions -----------------------------------------------------------------------------------------------
from trustnb.monitor import influence as I
with local_seed(0): _NET = nn.Linear(4, 3).double()
_XI = torch.tensor(_rng.normal(size=(30, 4))); _YI = torch.tensor(_rng.integers(0, 3, 30)); _XV = torch.tensor(_rng.normal(size=(12, 4))); _YV = torch.tensor(_rng.integers(0, 3, 12))
_NET = I.fit_minimum(_NET, _XI, _YI, weight_decay=1e-2, max_iter=50)
_OBJ = I.Objective(_NET, weight_decay=1e-2)
_HV = lambda V: _OBJ.hvp(_OBJ.theta, _XI, _YI, V)
_HM = _OBJ.hessian(_OBJ.theta, _XI, _YI).contiguous()  # the battery writes NaN through reshape(-1)
_BV = torch.tensor(_rng.normal(size=15))
_ifit = dict(model=_NET, X_train=_XI, y_train=_YI, X_val=_XV, y_val=_YV)
CASES += [
    Case(I.Objective, dict(model=_NET, loss='cross_entropy', weight_decay=1e-2), kinds=dict(weight_decay='nonneg'),
         then=lambda o: o.risk(o.theta, _XI, _YI)),
    Case(I.curvature, dict(hvp=_HV, p=15, damping='auto', rel=1e-3, H=_HM, seed=0, lanczos_steps=10), kinds=dict(p='count', rel='prob', lanczos_steps='count'),
         skip=('hvp',)),  # a callable
    Case(I.inverse_hvp, dict(hvp=_HV, B=_BV, method='cg', damping=0.1, tol=1e-8, max_iter=200), kinds=dict(damping='nonneg', tol='positive', max_iter='count'),
         skip=('hvp',)),
    Case(I.fit_minimum, dict(model=_NET, X=_XI, y=_YI, loss='cross_entropy', weight_decay=1e-2, max_iter=5, tol=1e-9),
         kinds=dict(weight_decay='nonneg', max_iter='count', tol='positive', y='labels')),
    Case(I.InfluenceFunction, dict(ihvp='cg', damping='auto', rel=1e-3, weight_decay=1e-2, tol=1e-8, max_iter=200, lissa_depth=100, seed=0),
         kinds=dict(rel='prob', weight_decay='nonneg', tol='positive', max_iter='count', lissa_depth='count'), then=lambda e: e.fit(**_ifit).result_),
    Case(I.InfluenceFunction(weight_decay=1e-2).fit, dict(_ifit), kinds=dict(y_train='labels', y_val='labels'), id='InfluenceFunction.fit'),
    Case(I.flat_validation_minimum, dict(model=_NET, X_val=_XV, y_val=_YV, rho=0.05, steps=3, lr=0.1, weight_decay=1e-2),
         kinds=dict(rho='nonneg', steps='count', lr='positive', weight_decay='nonneg'), legal=dict(steps=('zero',)),  # 0 steps: the start point
         then=lambda m: I.Objective(m).theta),
    Case(I.FlatValidationInfluence, dict(rho=0.05, steps=3, lr=0.1, weight_decay=1e-2, eps=0.01, seed=0),
         kinds=dict(rho='nonneg', steps='count', lr='positive', weight_decay='nonneg', eps='positive'), legal=dict(steps=('zero',)),
         then=lambda e: e.fit(**_ifit).result_),
    Case(I.FlatValidationInfluence(steps=3, weight_decay=1e-2).fit, dict(_ifit), kinds=dict(y_train='labels', y_val='labels'), id='FlatValidationInfluence.fit'),
    Case(I.loo_check, dict(n_points=3, n_train=60, n_val=30, weight_decay=1e-2, eps=1e-4, seed=0),
         kinds=dict(n_points='count', n_train='count', n_val='count', weight_decay='positive', eps='positive')),
    Case(I.mislabel_auroc, dict(scores=_rng.random(10), noisy_mask=np.arange(10) % 3 == 0)),
]
ESTIMATORS += [
    Est(make=lambda: I.InfluenceFunction(weight_decay=1e-2), fit_args=lambda: ((_NET, _XI, _YI, _XV, _YV), {}), methods=('most_harmful',)),
    Est(make=lambda: I.FlatValidationInfluence(steps=3, weight_decay=1e-2, seed=0), fit_args=lambda: ((_NET, _XI, _YI, _XV, _YV), {}), methods=('most_harmful',)),
]
# the influence estimators take the model as fit's first argument, so `compare` (called with it) does not apply; the notebook checks
# that a seeded clone refits to identical scores
EXEMPT.update({'trustnb.monitor.influence.fvm_mislabel_claim': 'the registered reproduction (runs the covered estimators on digits; minutes per call)'})
