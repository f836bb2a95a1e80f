"Property tests for explain.leverage_shap's exact tree Shapley values and the regression-adjusted estimator."
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.ensemble import GradientBoostingRegressor, RandomForestRegressor, ExtraTreesRegressor
from sklearn.tree import DecisionTreeRegressor
from trustnb.explain.leverage_shap import (LeverageSHAP, RegressionAdjustedSHAP, exact_shapley, tree_shapley,
                                            _TreeSurrogate, _KernelSurrogate, _hamming_tables)

SETTINGS = dict(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
MODELS = {'gbm': lambda d, s: GradientBoostingRegressor(n_estimators=15, max_depth=d, random_state=s),
          'rf': lambda d, s: RandomForestRegressor(8, max_depth=d, random_state=s),
          'et': lambda d, s: ExtraTreesRegressor(8, max_depth=d, random_state=s),
          'tree': lambda d, s: DecisionTreeRegressor(max_depth=d, random_state=s)}

def _data(n, seed, rows=120):
    rng = np.random.default_rng(seed); X = rng.standard_normal((rows, n))
    y = np.sin(X[:, 0]) * X[:, 1 % n] + (X[:, 2 % n] > 0) * X[:, -1] + 0.1 * rng.standard_normal(rows)
    return X, y

@settings(**SETTINGS)
@given(kind=st.sampled_from(sorted(MODELS)), n=st.integers(2, 7), depth=st.integers(1, 6), k=st.integers(1, 3), seed=st.integers(0, 10_000))
def test_tree_shapley_equals_enumeration(kind, n, depth, k, seed):
    "The leaf formula gives the exact interventional Shapley values (2^n enumeration), with efficiency."
    X, y = _data(n, seed); model = MODELS[kind](depth, seed % 7).fit(X, y)
    ts, ex = tree_shapley(model, X[0], X[1:1 + k]), exact_shapley(model.predict, X[0], X[1:1 + k])
    np.testing.assert_allclose(ts.values, ex.values, atol=1e-9)
    np.testing.assert_allclose(ts.values.sum(), ts.fx - ts.base_value, atol=1e-9)
    np.testing.assert_allclose([ts.base_value, ts.fx], [ex.base_value, ex.fx], atol=1e-12)

def test_tree_shapley_equals_shap_tree_explainer():
    "Against shap's interventional TreeExplainer on a deep ensemble with 20 features."
    shap = pytest.importorskip('shap')
    X, y = _data(20, 1, rows=400); model = GradientBoostingRegressor(n_estimators=60, max_depth=6, random_state=0).fit(X, y)
    ref = shap.TreeExplainer(model, data=X[1:4], feature_perturbation='interventional').shap_values(X[:1])[0]
    np.testing.assert_allclose(tree_shapley(model, X[0], X[1:4]).values, ref, atol=1e-7)

@settings(**SETTINGS)
@given(n=st.integers(3, 8), m=st.integers(20, 60), seed=st.integers(0, 10_000), rho=st.sampled_from([0.5, 0.8, 0.92]))
def test_surrogate_shapley_values_are_exact(n, m, seed, rho):
    "Both surrogates return the exact Shapley values (reference ∅, foreground [n]) of the game they fitted."
    rng = np.random.default_rng(seed); Z = (rng.random((m, n)) < 0.5).astype(float)
    y = Z[:, 0] * Z[:, 1] * Z[:, 2] + Z @ rng.standard_normal(n) + 0.1 * rng.standard_normal(m)
    for S in (_TreeSurrogate(n), _KernelSurrogate(n, rho=rho)):
        _, phi = S.fit_predict(Z, y, Z[:1])
        game = lambda Q, S=S: S.fit_predict(Z, y, Q)[0]
        np.testing.assert_allclose(phi, exact_shapley(game, np.ones(n), np.zeros(n)).values, atol=1e-8)

@pytest.mark.parametrize('n', [2, 5, 9])
def test_hamming_tables_by_enumeration(n):
    pin, pout = _hamming_tables(0.7, n)
    for t in range(n + 1):
        T = np.arange(n) < t
        g = lambda Q: 0.7 ** (Q != T).sum(1)
        e = exact_shapley(g, np.ones(n), np.zeros(n)).values
        np.testing.assert_allclose(e, np.where(T, pin[t], pout[t]), atol=1e-12)

def _mlp(n, seed):
    rng = np.random.default_rng(seed); W = rng.standard_normal((n, 12)) / np.sqrt(n) * 2; v = rng.standard_normal(12)
    return (lambda X: np.tanh(X @ W) @ v), rng.standard_normal(n), rng.standard_normal((2, n))

@settings(**SETTINGS)
@given(n=st.integers(3, 10), extra=st.integers(4, 60), seed=st.integers(0, 10_000))
def test_zero_surrogate_is_leverage_shap(n, extra, seed):
    "With the zero surrogate the estimator is Leverage SHAP, bit for bit (the same draws from the same seed)."
    f, x, bg = _mlp(n, seed); budget = min(n + 2 + extra, 2 ** n - 1)
    a = RegressionAdjustedSHAP(f, bg, surrogate='zero', seed=seed, n_boot=0).attribute(x, budget)
    b = LeverageSHAP(f, bg, seed=seed, n_boot=0).attribute(x, budget)
    np.testing.assert_array_equal(a.values, b.values)

@settings(**SETTINGS)
@given(n=st.integers(4, 10), seed=st.integers(0, 10_000), surrogate=st.sampled_from(['auto', 'tree', 'kernel', 'gp']))
def test_efficiency_and_standard_errors(n, seed, surrogate):
    "Efficiency holds exactly for every surrogate; standard errors are finite and non-negative."
    f, x, bg = _mlp(n, seed); budget = min(4 * n + 2, 2 ** n - 1)
    a = RegressionAdjustedSHAP(f, bg, surrogate=surrogate, seed=seed, n_boot=8).attribute(x, budget)
    np.testing.assert_allclose(a.values.sum(), a.fx - a.base_value, atol=1e-9)
    assert a.std_err.shape == a.values.shape and np.isfinite(a.std_err).all() and (a.std_err >= 0).all()
    assert a.n_evals <= budget

def _identifies(n, budget, seed):
    "Does the paired sample `attribute(seed=seed)` draws separate every feature (rank n - 1 once efficiency is imposed)?"
    from trustnb.explain.leverage_shap import leverage_sample
    Z, *_ = leverage_sample(n, budget - 2, True, False, np.random.default_rng(seed))  # the estimator's first draws from its generator
    return np.linalg.matrix_rank(Z.astype(float) @ (np.eye(n) - 1.0 / n)) == n - 1

def test_identifies_catches_confounded_features():
    "Control for the helper: the draw of n = 6, seed 2, budget 20 never separates features 3 and 4 (always in or out together)."
    assert not _identifies(6, 20, 2) and _identifies(6, 40, 2)

@settings(**SETTINGS)
@given(n=st.integers(4, 12), seed=st.integers(0, 10_000))
def test_auto_is_exact_on_games_of_order_two(n, seed):
    """A game with interactions of order <= 2 only: the zero surrogate's residual is additive and 'auto' keeps it. The estimate is
    exact when the sampled pairs separate every feature; when they do not (small budgets: e.g. two features always drawn together)
    the regression's minimum-norm solution splits their joint value and the estimate is Leverage SHAP's, with efficiency exact."""
    rng = np.random.default_rng(seed); A = np.triu(rng.standard_normal((n, n)), 1); c = rng.standard_normal(n)
    q = lambda X: X @ c + np.einsum('ri,ij,rj->r', X, A, X)
    x, bg = rng.standard_normal(n), rng.standard_normal((1, n)); budget = min(3 * n + 2, 2 ** n - 1)
    a = RegressionAdjustedSHAP(q, bg, seed=seed, n_boot=0).attribute(x, budget)
    assert a.method == 'regression_adjusted_shap[zero]'
    np.testing.assert_array_equal(a.values, LeverageSHAP(q, bg, seed=seed, n_boot=0).attribute(x, budget).values)
    np.testing.assert_allclose(a.values.sum(), a.fx - a.base_value, atol=1e-8)
    if _identifies(n, budget, seed): np.testing.assert_allclose(a.values, exact_shapley(q, x, bg).values, atol=1e-8)

def test_full_budget_is_exact_and_seed_reproducible():
    f, x, bg = _mlp(6, 0)
    np.testing.assert_allclose(RegressionAdjustedSHAP(f, bg).attribute(x, 64).values, exact_shapley(f, x, bg).values, atol=1e-12)
    e = RegressionAdjustedSHAP(f, bg, surrogate='tree', seed=3, n_boot=5)
    a1, a2 = e.attribute(x, 30), e.attribute(x, 30)
    np.testing.assert_array_equal(a1.values, a2.values); np.testing.assert_array_equal(a1.std_err, a2.std_err)

def test_tree_surrogate_beats_leverage_shap_on_a_deep_tree_ensemble():
    "Depth-6 gradient-boosted trees on breast_cancer (n = 12, m = 10n, 3 points): the tree surrogate cuts Leverage SHAP's median error by half or more."
    from trustnb.explain.leverage_shap import _gbm_problem, _GBM
    ratios = []
    for i in range(3):
        f, x, bg = _gbm_problem(12, i); ex = tree_shapley(_GBM[12, 6, 100], x, bg).values
        err = lambda est: np.median([((est(s) - ex) ** 2).sum() for s in range(4)])
        ra = err(lambda s: RegressionAdjustedSHAP(f, bg, surrogate='tree', seed=s, n_boot=0).attribute(x, 122).values)
        ratios.append(ra / err(lambda s: LeverageSHAP(f, bg, seed=s, n_boot=0).attribute(x, 122).values))
    assert np.median(ratios) < 0.5, ratios

def test_bad_inputs():
    f, x, bg = _mlp(5, 0)
    with pytest.raises(ValueError, match='`surrogate` must be one of'): RegressionAdjustedSHAP(f, bg, surrogate='xgb').attribute(x, 20)
    with pytest.raises(ValueError, match='`n_folds`'): RegressionAdjustedSHAP(f, bg, n_folds=1).attribute(x, 20)
    with pytest.raises(TypeError, match='`shrink`'): RegressionAdjustedSHAP(f, bg, shrink='yes').attribute(x, 20)
    f3, x3, bg3 = _mlp(3, 0)
    with pytest.raises(ValueError, match='`budget` must buy at least 2 coalition pairs'): RegressionAdjustedSHAP(f3, bg3).attribute(x3, 5)
    with pytest.raises(TypeError, match='`model` must be a fitted scikit-learn'): tree_shapley(lambda X: X.sum(1), x, bg)
    with pytest.raises(TypeError, match='`model` must be a fitted scikit-learn'): tree_shapley(GradientBoostingRegressor(), x, bg)
    X, y = _data(5, 0); m = DecisionTreeRegressor(max_depth=3).fit(X, y)
    with pytest.raises(ValueError, match='`x` must have 5 features'): tree_shapley(m, np.ones(4), np.ones((1, 4)))
    with pytest.raises(ValueError, match='`background` must have 5 columns'): tree_shapley(m, np.ones(5), np.ones((1, 4)))
    with pytest.raises(ValueError, match='`x` contains NaN'): tree_shapley(m, np.full(5, np.nan), bg)

def _gp_ratios(kind, n, draws, first, a, b):
    "Per generated game: median error over 2 seeds of RegressionAdjustedSHAP(surrogate='gp', **a) / the same with **b (m = 10n)."
    out = []
    for seed in range(first, first + draws):
        rng = np.random.default_rng(seed)
        if kind == 'mlp':  # random tanh MLP, two background rows
            W, v = rng.standard_normal((n, 16)) * rng.uniform(0.3, 1.5), rng.standard_normal(16); f = lambda X, W=W, v=v: np.tanh(X @ W) @ v
            x, bg = rng.standard_normal(n), rng.standard_normal((2, n))
        else:  # a few random monomials of order 3..n-1 in the signs of the indicators, plus a linear part: far from the GP's smooth prior
            A = [rng.choice(n, rng.integers(3, n), replace=False) for _ in range(4)]; c = rng.standard_normal(4)
            f = lambda X, A=A, c=c: sum(ci * np.prod(2 * X[:, a] - 1, 1) for ci, a in zip(c, A)) + X @ np.linspace(-1, 1, n)
            x, bg = np.ones(n), np.zeros((1, n))
        ex = exact_shapley(f, x, bg).values
        err = lambda kw: np.median([((RegressionAdjustedSHAP(f, bg, surrogate='gp', n_boot=0, **kw).attribute(x, 10 * n + 2, seed=s).values - ex) ** 2).sum() for s in range(2)])
        out.append(err(a) / max(err(b), 1e-300))
    return np.array(out)

_shrink_ratios = lambda kind, n, draws, first: _gp_ratios(kind, n, draws, first, dict(shrink=True), dict(shrink=False))

def test_shrinking_helps_on_generated_smooth_games_and_costs_little_elsewhere():
    """Shrinking toward the full-sample GP on games the claims do not use (n = 10, drawn seeds): on random tanh MLPs with two
    background rows it lowers the median error; on games of high-order monomials, far from the GP's prior, it never costs more than 50%."""
    mlp, par = _shrink_ratios('mlp', 10, 8, 100), _shrink_ratios('parity', 10, 6, 100)
    assert np.median(mlp) < 0.95, mlp
    assert par.max() < 1.5, par

@settings(**SETTINGS)
@given(n=st.integers(4, 9), seed=st.integers(0, 10_000))
def test_shrink_leaves_the_other_surrogates_alone(n, seed):
    "Only the GP surrogate is shrunk: for 'tree', 'kernel' and 'zero' shrink=True and shrink=False agree bit for bit."
    f, x, bg = _mlp(n, seed); budget = min(4 * n + 2, 2 ** n - 1)
    for s in ('tree', 'kernel', 'zero'):
        a = RegressionAdjustedSHAP(f, bg, surrogate=s, seed=seed, n_boot=0).attribute(x, budget)
        np.testing.assert_array_equal(a.values, RegressionAdjustedSHAP(f, bg, surrogate=s, seed=seed, n_boot=0, shrink=False).attribute(x, budget).values)

def test_active_design_helps_on_generated_smooth_games():
    """active=0.3 on random tanh MLPs the claims do not use (n = 10, drawn seeds 100+, two background rows): the median error
    is below 0.8x the default's (measured 0.50). On such MLPs at n = 12 it was about neutral, and on high-order games it can cost
    more (the notebook's numbers); this test holds the n = 10 gain."""
    r = _gp_ratios('mlp', 10, 8, 100, dict(active=0.3), {})
    assert np.median(r) < 0.8, r

def test_choose_is_the_greedy_variance_drop():
    "Each coalition `_choose` picks is the one a brute-force posterior (explicit Cholesky of every candidate set) says drops sum_i Var(phi_i) most."
    from trustnb.explain.leverage_shap import _GPSurrogate, _choose, leverage_sample
    rng = np.random.default_rng(3); n = 7; f, x, bg = _mlp(n, 3)
    Z = leverage_sample(n, 16, True, False, 0)[0].astype(float); T = np.vstack([Z, np.zeros(n), np.ones(n)])
    y = np.array([f(np.where(z > 0.5, x, bg[0])[None])[0] for z in T]); S = _GPSurrogate(n).tune(T, y - y[-2])
    P = rng.integers(0, 2, (40, n)).astype(float)
    drop = lambda T: float((np.linalg.solve(np.linalg.cholesky(S._gram(T, T) + S.reg * np.eye(len(T))), S._col_phi(T)) ** 2).sum())
    picks, cur = _choose([S], T, P, 5), T
    for j in picks:
        gains = [drop(np.vstack([cur, p])) for p in P]; assert int(np.argmax(gains)) == j, (j, np.argmax(gains))
        cur = np.vstack([cur, P[j]])
    assert len(set(picks)) == 5

@settings(**SETTINGS)
@given(n=st.integers(4, 9), seed=st.integers(0, 10_000), active=st.floats(0.05, 0.6), outputs=st.sampled_from([1, 2]))
def test_active_spends_the_budget_and_keeps_efficiency(n, seed, active, outputs):
    "active > 0: at most `budget` evaluations, efficiency per output, reproducible per seed, standard errors of the right shape."
    f1, x, bg = _mlp(n, seed); f = f1 if outputs == 1 else (lambda X: np.stack([f1(X), X[:, 0] - 2 * f1(X)], 1))
    budget = min(6 * n + 2, 2 ** n - 1); est = RegressionAdjustedSHAP(f, bg, surrogate='gp', seed=seed, n_boot=5, active=active)
    a = est.attribute(x, budget); b = est.attribute(x, budget)
    assert a.n_evals <= budget and a.method == 'regression_adjusted_shap[gp+active]'
    np.testing.assert_array_equal(a.values, b.values)
    np.testing.assert_allclose(a.values.sum(0), np.asarray(a.fx) - np.asarray(a.base_value), atol=1e-8)
    assert a.values.shape == ((n,) if outputs == 1 else (n, 2)) and a.std_err.shape == a.values.shape and np.isfinite(a.values).all()

def test_active_bad_input():
    f, x, bg = _mlp(6, 0)
    with pytest.raises(ValueError, match='`active` must lie in'): RegressionAdjustedSHAP(f, bg, surrogate='gp', active=0.95).attribute(x, 40)
    with pytest.raises(TypeError, match='`active` must be a real number'): RegressionAdjustedSHAP(f, bg, surrogate='gp', active='half').attribute(x, 40)
    with pytest.raises(ValueError, match="needs surrogate='gp'"): RegressionAdjustedSHAP(f, bg, active=0.3).attribute(x, 40)
    with pytest.raises(ValueError, match='coalition pairs'): RegressionAdjustedSHAP(f, bg, surrogate='gp', active=0.9).attribute(x, 12)
