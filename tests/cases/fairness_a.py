"Contract cases for trustnb.fairness.metrics and trustnb.fairness.fair_icp (notebooks 60 and 61)."
import numpy as np
import pandas as pd
from contract import Case, Est
from trustnb.fairness import metrics as M, fair_icp as I

_r = np.random.default_rng(0)
_n = 40
_yt = np.tile([0, 1], _n // 2)                       # every group below has both labels
_yp = _r.integers(0, 2, _n)
_g = np.repeat([0, 1], _n // 2)                       # two groups of 20
_w = _r.uniform(0.5, 2.0, _n)
_A2 = np.column_stack([_g, _r.standard_normal(_n)])  # one categorical and one continuous column
_score = _yt + _r.standard_normal(_n)
_X = _r.standard_normal((60, 3)).astype(np.float32)
_y = np.tile([0, 1], 30)
_Ay = np.column_stack([np.repeat([0, 1, 2], 20), _r.standard_normal(60)])
_L = _r.standard_normal((6, 6))
_front = pd.DataFrame(dict(setting=[0.0, 0.5], accuracy=[0.9, 0.89], eo_violation=[0.3, 0.1]))
_GROUP = dict(y_true='labels', y_pred='labels')
_LAB_LEGAL = ('negative_label', 'unknown_label')  # any class values are legal labels for a classifier / a stratum
_ICP_KW = dict(fairness_coeff=0.5, hidden=(8,), disc_hidden=(8,), epochs=2, batch_size=16, lr=1e-3, disc_lr=1e-3, disc_steps=1,
               weight_decay=0.0, sampler='icp', n_steps=2, seed=0)

CASES = [
    Case(M.sensitive_frame, dict(sensitive_features=_g, n=_n), kinds=dict(n='count')),
    Case(M.is_categorical, dict(col=pd.Series(_g))),
    Case(M.group_metrics, dict(y_true=_yt, y_pred=_yp, sensitive_features=_g, sample_weight=_w), kinds=_GROUP),
    Case(M.demographic_parity_difference, dict(y_true=_yt, y_pred=_yp, sensitive_features=_g, method='between_groups', sample_weight=_w), kinds=_GROUP),
    Case(M.demographic_parity_ratio, dict(y_true=_yt, y_pred=_yp, sensitive_features=_g, method='to_overall', sample_weight=_w), kinds=_GROUP),
    Case(M.equalized_odds_difference, dict(y_true=_yt, y_pred=_yp, sensitive_features=_g, method='between_groups', sample_weight=_w, agg='mean'), kinds=_GROUP),
    Case(M.equalized_odds_ratio, dict(y_true=_yt, y_pred=np.r_[1, 0, _yp[2:]] | np.tile([1, 0, 0, 1], 10), sensitive_features=_g, method='between_groups',
                                      sample_weight=_w, agg='worst_case'), kinds=_GROUP),
    Case(M.probe_r2_gain, dict(y_true=_yt, y_pred=_yp, a=_A2[:, 1], sample_weight=_w), kinds=_GROUP),
    Case(M.equalized_odds_violation, dict(y_true=_yt, y_pred=_yp, sensitive_features=_A2, sample_weight=_w), kinds=_GROUP),
    Case(M.independence_test, dict(y_pred=_score, sensitive_features=_A2, y_true=_yt, statistic='hsic', n_permutations=9, seed=0),
         kinds=dict(y_true='labels', n_permutations='count'), legal=dict(y_true=_LAB_LEGAL)),
    Case(I.conditional_loglik, dict(y=_y, sensitive_features=_Ay, kind='logistic'), kinds=dict(y='labels'), legal=dict(y=_LAB_LEGAL)),
    Case(I.icp_test, dict(y_pred=_Ay[:, 1] + _y, y_true=_y, sensitive_features=_Ay, kind='logistic', n_copies=5, n_steps=3, seed=0),
         kinds=dict(y_true='labels', n_copies='count', n_steps='count'), legal=dict(y_true=_LAB_LEGAL)),
    Case(I.icp_permutation, dict(loglik=_L, n_steps=3, seed=0), kinds=dict(n_steps='count')),
    Case(I.make_multi_attribute, dict(n=40, strength=1.0, signal=0.5, proxy_noise=0.3, seed=0),
         kinds=dict(n='count', strength='nonneg', signal='positive', proxy_noise='positive')),
    Case(I.FairICPClassifier, dict(_ICP_KW), then=lambda m: m.fit(_X, _y, sensitive_features=_Ay).predict_proba(_X),
         kinds=dict(fairness_coeff='prob', epochs='count', batch_size='count', lr='positive', disc_lr='positive', disc_steps='count',
                    weight_decay='nonneg', n_steps='count'),
         legal=dict(hidden=('empty',), disc_hidden=('empty',))),  # no hidden layer: a linear predictor / discriminator
    Case(I.fair_icp_frontier, dict(X=_X, y=_y, sensitive_features=_Ay, fairness_coeffs=(0.0, 0.5), seeds=(0,), epochs=2, hidden=(8,), disc_hidden=(8,)),
         kinds=dict(y='labels', epochs='count'), legal=dict(y=_LAB_LEGAL, hidden=('empty',), disc_hidden=('empty',))),
    Case(I.headline, dict(frontier=_front, max_acc_drop=0.02), kinds=dict(max_acc_drop='prob')),
]
try:
    import fairlearn  # noqa: F401  (optional: the `bench` extra)
    CASES.append(Case(I.fairlearn_baselines, dict(X=_X, y=_y, sensitive_features=_Ay, seed=0, eps=(0.1,), models=('logistic', 'mlp'), hidden=(4,),
                                                  weight_decay=1e-3, epochs=2, batch_size=16, max_iter=3),
                      kinds=dict(y='labels', weight_decay='nonneg', epochs='count', batch_size='count', max_iter='count'),
                      legal=dict(y=_LAB_LEGAL, eps=('empty',))))  # no bounds: only the unconstrained and ThresholdOptimizer rows
    _BL = I.fairlearn_baselines(_X, _y, _Ay, seed=0, eps=(0.1,), models=('logistic',), max_iter=3)
    CASES.append(Case(I.best_within_budget, dict(baselines=_BL, min_accuracy=0.3), kinds=dict(min_accuracy='prob')))
    _FL_EXEMPT = {}
except ImportError:
    _FL_EXEMPT = {'trustnb.fairness.fair_icp.fairlearn_baselines': 'runs fairlearn (optional `bench` extra), which is not installed here',
                  'trustnb.fairness.fair_icp.best_within_budget': 'reads the rows of fairlearn_baselines (optional `bench` extra), which is not installed here'}

ESTIMATORS = [
    Est(make=lambda: I.FairICPClassifier(**_ICP_KW), fit_args=lambda: ((_X, _y), dict(sensitive_features=_Ay)),
        methods=('predict', 'predict_proba'), compare='predict_proba'),
    Est(make=lambda: I.FairICPClassifier(**(_ICP_KW | dict(sampler='stratified', fairness_coeff=0.8))), fit_args=lambda: ((_X, _y), dict(sensitive_features=_Ay)),
        methods=('predict',), compare='predict_proba', id='FairICPClassifier[stratified]'),
]

EXEMPT = {
    'trustnb.fairness.fair_icp.fair_icp_claim': 'the registered reproduction claim (loanapp, 12 FairICP fits and fairlearn on 3 splits, ~1 min): run by the '
                                                'repro registry and notebook 61; its building blocks fair_icp_frontier, headline, fairlearn_baselines and '
                                                'best_within_budget have Cases here',
} | _FL_EXEMPT
