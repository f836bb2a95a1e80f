"Contract cases for chapter 3, part a: explain.leverage_shap, explain.responsiveness, explain.brace."
import numpy as np
import torch
from contract import Case
from trustnb.data import SCM
from trustnb.explain import leverage_shap as L, responsiveness as R, brace as B

# --- leverage_shap: a 4-feature model (2^4 = 16 coalitions) ---------------------------------------------------------
_f = lambda X: np.tanh(X @ np.array([1.0, -0.5, 0.3, 0.8])) + X[:, 0] * X[:, 1]
_x, _bg = np.array([1.0, 0.5, -0.3, 0.8]), np.zeros((2, 4))
from sklearn.tree import DecisionTreeRegressor as _DTR
_tree = _DTR(max_depth=3, random_state=0).fit(np.random.default_rng(0).standard_normal((40, 4)), np.arange(40.0))  # for tree_shapley

# --- responsiveness: a toy action set (a grid column, a 0/1 switch, an immutable column, a one-hot group, a link) -----
_Xa = np.array([[3, 0, 24, 1, 0, 0], [0, 1, 60, 0, 1, 0], [5, 0, 40, 0, 0, 1], [2, 1, 30, 1, 0, 0]], float)
_names = ['n_loans', 'guarantor', 'age', 'job=a', 'job=b', 'job=c']
_A = R.ActionSet.from_data(_Xa, _names, immutable=['age'], step={'n_loans': 1, 'guarantor': 1}, monotone={'n_loans': -1},
                           groups={'job': ['job=a', 'job=b', 'job=c']})
_lin = R.LinearModel(np.array([-1.0, 3.0, 0.0, 0.2, 0.0, 0.0]), 1.0)
_x0 = _Xa[0]
_lend = R.make_lending(200, 0)
_Xl = np.asarray(_lend.X[:3], float)

# --- brace: a 3-node linear SCM and a linear model ------------------------------------------------------------------
_scm = SCM(np.array([[0, 0.5, 0.2], [0, 0, 0.7], [0, 0, 0]]), names=['a', 'b', 'c'])
_wb = (np.array([0.5, 1.0, -0.4]), -1.0)
_Xb = np.array([[-1.0, -0.5, 0.3], [0.0, -1.0, 0.5]])
_res = B.Wachter(_wb).counterfactual(_Xb)

CASES = [
    # leverage_shap
    Case(L.exact_shapley, dict(f=_f, x=_x, background=_bg, max_features=10, batch_size=64), kinds=dict(max_features='count', batch_size='count')),
    Case(L.leverage_sample, dict(n=6, m=20, paired=True, replacement=False, seed=0), kinds=dict(n='count', m='count')),
    Case(L.kernel_shap, dict(f=_f, x=_x, background=_bg, budget=12, strategy='shap', paired=False, seed=0, batch_size=64),
         kinds=dict(budget='count', batch_size='count')),
    Case(L.LeverageSHAP, dict(f=_f, background=_bg, paired=True, replacement=False, seed=0, n_boot=5, batch_size=64),
         kinds=dict(n_boot='nonneg', batch_size='count'), legal=dict(n_boot=('zero',)), then=lambda e: e.attribute(_x, 12)),
    Case(L.shapley_errors, dict(f=_f, x=_x, bg=_bg, budget=12, seeds=2, baseline='shap'), kinds=dict(budget='count', seeds='count')),
    Case(L.point_errors, dict(n=4, instances=1, seeds=1, mult=3), kinds=dict(n='count', instances='count', seeds='count', mult='count')),
    Case(L.RegressionAdjustedSHAP, dict(f=_f, background=_bg, surrogate='tree', n_folds=2, seed=0, n_boot=5, batch_size=64),
         kinds=dict(n_folds='count', n_boot='nonneg', batch_size='count'), legal=dict(n_boot=('zero',)), then=lambda e: e.attribute(_x, 12)),
    Case(L.tree_shapley, dict(model=_tree, x=_x, background=_bg)),
    # responsiveness
    Case(R.ActionSet, dict(names=['a', 'b'], actionable=np.array([True, False]), lb=np.array([0.0, 0.0]), ub=np.array([5.0, 9.0]),
                           step=np.array([1.0, 1.0]), monotone=np.array([0.0, 0.0]), max_change=np.array([2.0, 2.0]), groups={}, links={}),
         legal=dict(ub=('inf',), max_change=('inf',), lb=()), skip=('groups', 'links'),  # {} dicts: validated, covered below
         then=lambda a: R.reachable_set(np.array([1.0, 3.0]), 'a', a)),
    Case(R.reachable_set, dict(x=_x0, feature='n_loans', action_set=_A, method='auto', n=10, seed=0), kinds=dict(n='count')),
    Case(R.responsiveness_score, dict(model=_lin, x=_x0, feature='guarantor', action_set=_A, target=1, method='auto', n=10, seed=0), kinds=dict(n='count')),
    Case(R.responsiveness_scores, dict(model=_lin, X=_Xa[:2], action_set=_A, features=['n_loans', 'job'], target=1, method='auto', n=10, seed=0),
         kinds=dict(n='count')),
    Case(R.responsive_explanation, dict(model=_lin, x=_x0, action_set=_A, k=2, target=1, method='auto', n=10, seed=0), kinds=dict(k='count', n='count')),
    Case(R.linear_params, dict(model=(np.array([1.0, -2.0]), 0.5))),
    Case(R.LinearModel, dict(w=np.array([1.0, -2.0]), b=0.5), then=lambda m: m.predict_proba(np.ones((2, 2)))),
    Case(R.certify_recourse, dict(model=_lin, x=_x0, action_set=_A, target=1, method='auto', max_points=1000, n=10, seed=0),
         kinds=dict(max_points='count', n='count')),
    Case(R.ActionRecourse, dict(model=_lin, action_set=_A, method='milp', max_points=1000, n=10, seed=0), kinds=dict(max_points='count', n='count'),
         then=lambda r: r.counterfactual(_x0, 1)),
    Case(R.linear_shap, dict(model=_lin, X=_Xa[:2], background=_Xa)),
    Case(R.unit_values, dict(phi=np.ones((2, 6)), action_set=_A)),
    Case(R.shap_reasons, dict(phi_units=np.array([[-1.0, 0.5, -2.0], [0.3, 0.2, 0.1]]), k=2, target=1), kinds=dict(k='count')),
    Case(R.make_lending, dict(n=20, seed=0), kinds=dict(n='count')),
    Case(R.lending_actions, dict(X=_lend.X)),
    Case(R.reasons_audit, dict(model=R.LinearModel(np.array([0.05, -1.2, 0.03, -3.0, 0.15]), -1.0), X=_Xl, action_set=R.lending_actions(_lend.X),
                               background=_lend.X, k=2, seed=0), kinds=dict(k='count'), skip=('caps',)),  # caps=None: a callback
    # brace
    Case(B.predict_target, dict(model=_wb, X=_Xb, target=1)),
    Case(B.generate, dict(scm=_scm, u=torch.zeros(2, 3, dtype=torch.float64)), skip=('u',)),  # differentiable internals: u comes from `abduct`
    Case(B.BRACE, dict(model=_wb, scm=_scm, noise_std=np.array([1.0, 1.0, 0.5]), feature_dist_coeff=0.1, feature_scale=np.ones(3), fixed=[0],
                       solver='auto', margin=1e-3, beta=10.0, steps=5, lr=0.05, max_rounds=2),
         kinds=dict(feature_dist_coeff='nonneg', margin='positive', beta='positive', steps='count', lr='positive', max_rounds='count'),
         legal=dict(feature_dist_coeff=('zero',), fixed=('empty',)), then=lambda b: b.counterfactual(_Xb)),
    Case(B.Wachter, dict(model=_wb, feature_scale=np.ones(3), fixed=[0], solver='auto', margin=1e-3, beta=10.0, steps=5, lr=0.05, max_rounds=2),
         kinds=dict(margin='positive', beta='positive', steps='count', lr='positive', max_rounds='count'), legal=dict(fixed=('empty',)),
         then=lambda w: w.counterfactual(_Xb)),
    Case(B.RandomSearch, dict(model=_wb, feature_scale=np.ones(3), fixed=[0], n=50, radius=3.0, seed=0),
         kinds=dict(n='count', radius='positive'), legal=dict(fixed=('empty',)), then=lambda r: r.counterfactual(_Xb)),
    Case(B.implied_noise_change, dict(scm=_scm, X=_Xb, X_cf=_Xb + 0.1, noise_std=np.ones(3))),
    Case(B.cf_report, dict(scm=_scm, X=_Xb, res=_res, noise_std=np.ones(3), fixed=[0], feature_scale=np.ones(3), tol=1e-3),
         kinds=dict(tol='positive'), legal=dict(fixed=('empty',))),
    Case(B.make_loan_scm, dict(n=20, seed=0), kinds=dict(n='count')),
]
EXEMPT = {
    'trustnb.explain.responsiveness.credit_actions': 'builds the action set of the bundled credit data set from its fixed column names; takes no numeric user input of its own besides `X` (checked by ActionSet.from_data)',
    'trustnb.explain.responsiveness.responsiveness_claim': 'the registered reproduction (runs make_lending, reasons_audit and certify_recourse, which are covered)',
    'trustnb.explain.brace.brace_claim': 'the registered reproduction (runs make_loan_scm, BRACE, Wachter, RandomSearch and cf_report, which are covered)',
}
