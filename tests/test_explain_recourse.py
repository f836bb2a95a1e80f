"Property tests for `trustnb.explain.responsiveness` and `trustnb.explain.brace` on random instances."
import numpy as np
import pytest
from trustnb.data import SCM, make_scm
from trustnb.explain.responsiveness import ActionSet, LinearModel, certify_recourse, responsiveness_score, reachable_set
from trustnb.explain.brace import BRACE, Wachter, implied_noise_change


def _random_action_set(rng):
    "5 grid columns (one immutable, random directions and caps), a 3-way one-hot group, and a link from column 1 to column 0."
    n = 40
    X = np.c_[rng.integers(0, 10, (n, 5)), np.eye(3)[rng.integers(0, 3, n)]].astype(float)
    names = [f'c{i}' for i in range(5)] + ['g=a', 'g=b', 'g=c']
    mono = {f'c{i}': int(rng.integers(-1, 2)) for i in range(1, 5)}
    return X, ActionSet.from_data(X, names, immutable=['c0'], step={f'c{i}': 1 for i in range(5)}, monotone=mono,
                                  max_change={'c2': 3}, groups={'g': ['g=a', 'g=b', 'g=c']}, links={'c1': [('c0', 1.0)]})


@pytest.mark.parametrize('seed', range(12))
def test_milp_agrees_with_enumeration(seed):
    rng = np.random.default_rng(seed); X, a = _random_action_set(rng)
    w, b = rng.standard_normal(8), rng.standard_normal() * 3
    model = LinearModel(w, b)
    for x in X[:6]:
        for target in (0, 1):
            e = certify_recourse(model, x, a, target=target, method='enumerate')
            m = certify_recourse((w, b), x, a, target=target, method='milp')
            assert e.status == m.status
            for r in (e, m):
                if r.status == 'found': assert model.predict(r.x_cf[None])[0] == target


@pytest.mark.parametrize('seed', range(6))
def test_single_feature_scores_are_consistent_with_joint_certificate(seed):
    rng = np.random.default_rng(seed); X, a = _random_action_set(rng)
    model = LinearModel(rng.standard_normal(8), rng.standard_normal() * 3)
    for x in X[:6]:
        fixed = certify_recourse(model, x, a).fixed
        scores = [responsiveness_score(model, x, u, a).score for u in a.units]
        if fixed: assert max(scores) == 0  # a fixed prediction has no responsive feature
        if max(scores) > 0: assert not fixed
        for u in a.units:  # every reachable point respects the domain bounds
            R, _ = reachable_set(x, u, a)
            assert ((R >= a.lb - 1e-9) & (R <= a.ub + 1e-9)).all()


@pytest.mark.parametrize('seed', range(5))
def test_brace_exact_is_optimal_and_matches_gradient(seed):
    rng = np.random.default_rng(seed); scm = make_scm(5, 0.6, seed=seed); sig = rng.uniform(0.3, 1.5, 5)
    X = scm.generate(rng.standard_normal((30, 5)) * sig); w, b = rng.standard_normal(5), 0.0
    X = X[X @ w + b < 0][:10]
    ex = BRACE((w, b), scm, noise_std=sig, fixed=[0], margin=0.05).explain(X)
    gr = BRACE((w, b), scm, noise_std=sig, fixed=[0], solver='gradient').explain(X)
    assert ex.validity == 1.0 and gr.validity == 1.0
    # the exact cost grows as (margin - s0)^2: rescale it to the margin the gradient solution actually reached
    s0, mg = X @ w + b, gr.x_cf @ w + b
    opt = ex.cost * ((mg - s0) / (0.05 - s0))**2
    assert np.all(gr.cost >= opt * (1 - 1e-6)) and np.all(gr.cost <= opt * 1.02)
    du = implied_noise_change(scm, X, ex.x_cf, sig)
    assert np.abs(du[:, 0]).max() < 1e-9  # the fixed exogenous variable never moves


@pytest.mark.parametrize('seed', range(5))
def test_brace_on_empty_graph_is_wachter(seed):
    rng = np.random.default_rng(seed); X = rng.standard_normal((20, 4)); w = rng.standard_normal(4); s = rng.uniform(0.5, 2, 4)
    X = X[X @ w - 0.5 < 0]
    br = BRACE((w, -0.5), SCM(np.zeros((4, 4))), noise_std=s, lam=float(rng.uniform(0, 2))).explain(X)
    wa = Wachter((w, -0.5), feature_scale=s).explain(X)
    np.testing.assert_allclose(br.x_cf, wa.x_cf, atol=1e-8)
