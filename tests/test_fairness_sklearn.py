"""FairICPClassifier in scikit-learn's machinery (clone, Pipeline, GridSearchCV with `sensitive_features` routed), and
property tests of trustnb.fairness.metrics (parity with fairlearn, p-value calibration)."""
import numpy as np
import pandas as pd
import pytest
import sklearn
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.metrics import make_scorer
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline, make_pipeline
from sklearn.preprocessing import StandardScaler
from trustnb.fairness.fair_icp import FairICPClassifier, make_multi_attribute
from trustnb.fairness import metrics as M

KW = dict(hidden=(16,), disc_hidden=(16,), epochs=3, batch_size=64, n_steps=5)

@pytest.fixture(scope='module')
def data():
    d = make_multi_attribute(n=300, seed=1)
    return d.X, d.y, pd.DataFrame(d.sensitive)

def test_clone_and_not_fitted(data):
    X, y, A = data
    est = FairICPClassifier(fairness_coeff=0.3, seed=2, **KW)
    with pytest.raises(NotFittedError): est.predict(X)
    c = clone(est); assert c.get_params() == est.get_params() and c is not est
    p1 = est.fit(X, y, sensitive_features=A).predict_proba(X); p2 = c.fit(X, y, sensitive_features=A).predict_proba(X)
    np.testing.assert_array_equal(p1, p2)  # same seed, same fit
    assert est.n_features_in_ == X.shape[1] and list(est.classes_) == [0, 1]
    p3 = FairICPClassifier(fairness_coeff=0.3, seed=3, **KW).fit(X, y, sensitive_features=A).predict_proba(X)
    assert not np.array_equal(p1, p3)  # the seed matters

def test_global_rng_untouched(data):
    X, y, A = data
    import torch
    s_np, s_t = np.random.get_state()[1].copy(), torch.random.get_rng_state().clone()
    FairICPClassifier(seed=0, **KW).fit(X, y, sensitive_features=A)
    assert np.array_equal(s_np, np.random.get_state()[1]) and torch.equal(s_t, torch.random.get_rng_state())

def test_pipeline_legacy_step_params(data):
    X, y, A = data
    pipe = make_pipeline(StandardScaler(), FairICPClassifier(seed=0, **KW))
    pipe.fit(X, y, fairicpclassifier__sensitive_features=A)
    assert pipe.predict(X).shape == (len(y),) and pipe.score(X, y) > 0.5

def test_pipeline_and_gridsearch_with_metadata_routing(data):
    X, y, A = data
    with sklearn.config_context(enable_metadata_routing=True):
        clf = FairICPClassifier(seed=0, **KW).set_fit_request(sensitive_features=True)
        pipe = Pipeline([('scale', StandardScaler()), ('clf', clf)])
        pipe.fit(X, y, sensitive_features=A)
        # a fairness-aware scorer: accuracy minus the EO violation on the validation fold, A routed to it as well
        def fair_acc(y_true, y_pred, sensitive_features):
            return (y_true == y_pred).mean() - M.equalized_odds_violation(y_true, y_pred, sensitive_features=sensitive_features).total
        scorer = make_scorer(fair_acc).set_score_request(sensitive_features=True)
        gs = GridSearchCV(pipe, {'clf__fairness_coeff': [0.0, 0.5]}, cv=2, scoring=scorer)
        gs.fit(X, y, sensitive_features=A)
    assert set(gs.cv_results_['param_clf__fairness_coeff']) == {0.0, 0.5}
    assert np.isfinite(gs.cv_results_['mean_test_score']).all() and gs.best_estimator_.predict(X).shape == (len(y),)

def test_gridsearch_legacy_fit_params(data):
    "Without metadata routing GridSearchCV slices array-like fit params per fold and passes them to `fit`."
    X, y, A = data
    gs = GridSearchCV(FairICPClassifier(seed=0, **KW), {'fairness_coeff': [0.0, 0.5]}, cv=2)
    gs.fit(X, y, sensitive_features=A.to_numpy())
    assert gs.best_params_['fairness_coeff'] in (0.0, 0.5)

def test_gridsearch_rejects_unsliceable_dict(data):
    "A dict of attributes is not sliced by CV: the per-fold length check names the argument."
    X, y, A = data
    gs = GridSearchCV(FairICPClassifier(seed=0, **KW), {'fairness_coeff': [0.0]}, cv=2, error_score='raise')
    with pytest.raises(ValueError, match='`sensitive_features` must have'):
        gs.fit(X, y, sensitive_features={k: A[k].to_numpy() for k in A})

def test_fit_requires_sensitive_features(data):
    X, y, A = data
    with pytest.raises(TypeError, match='sensitive_features'): FairICPClassifier(**KW).fit(X, y)

@pytest.mark.parametrize('seed', range(6))
def test_metrics_match_fairlearn(seed):
    flm = pytest.importorskip('fairlearn.metrics')
    r = np.random.default_rng(seed); n = 2000
    yt, yp, w = r.integers(0, 2, n), r.integers(0, 2, n), r.uniform(0.1, 3, n) if seed % 2 else None
    sf = pd.DataFrame({'race': r.choice(['w', 'b', 'h'], n), 'sex': r.integers(0, 2, n)}).iloc[:, : 1 + seed % 2]
    for ours, theirs in ((M.demographic_parity_difference, flm.demographic_parity_difference), (M.demographic_parity_ratio, flm.demographic_parity_ratio),
                         (M.equalized_odds_difference, flm.equalized_odds_difference), (M.equalized_odds_ratio, flm.equalized_odds_ratio)):
        for method in ('between_groups', 'to_overall'):
            a = ours(yt, yp, sensitive_features=sf, method=method, sample_weight=w); b = theirs(yt, yp, sensitive_features=sf, method=method, sample_weight=w)
            assert abs(a - b) < 1e-12, (ours.__name__, method, a, b)

def test_bad_sensitive_features():
    yt, yp = np.array([0, 1, 0, 1]), np.array([0, 1, 1, 1])
    for sf, msg in ((np.array(['a'] * 4), 'only one group'), (np.array([0., np.nan, 1., 0.]), 'contains missing'),
                    (np.array([0, 1, 1]), 'must have 4 rows'), (np.array([0.3, 1.7, 2.2, 5.1]), 'look continuous')):
        with pytest.raises(ValueError, match='sensitive_features') as e: M.equalized_odds_difference(yt, yp, sensitive_features=sf)
        assert msg in str(e.value)

def test_independence_test_calibrated_and_powerful():
    r = np.random.default_rng(0); p0, p1 = [], []
    for s in range(150):
        g = np.random.default_rng(s); n = 120; y = g.integers(0, 2, n); A = y[:, None] + g.standard_normal((n, 2))
        score = y + g.standard_normal(n)
        p0.append(M.independence_test(score, sensitive_features=A, y_true=y, statistic='linear', n_permutations=49, seed=s).p_value)
        p1.append(M.independence_test(score + 0.8 * A[:, 0], sensitive_features=A, y_true=y, statistic='linear', n_permutations=49, seed=s).p_value)
    p0, p1 = np.array(p0), np.array(p1)
    assert (p0 <= 0.05).mean() <= 0.05 + 2.5 * np.sqrt(0.05 * 0.95 / 150)
    assert (p1 <= 0.05).mean() >= 0.9

def test_icp_permutation_properties():
    "A permutation; seeded; keeps the class-conditional law of A; continues a chain from its last output."
    from trustnb.fairness.fair_icp import conditional_loglik, icp_permutation
    r = np.random.default_rng(0); n = 400
    A = np.column_stack([r.integers(0, 2, n), r.standard_normal(n)])
    y = (r.random(n) < 1 / (1 + np.exp(-(2 * A[:, 0] - 1 + 1.5 * A[:, 1])))).astype(int)
    L = conditional_loglik(y, A)
    p = icp_permutation(L, n_steps=30, seed=1)
    assert np.array_equal(np.sort(p), np.arange(n)) and np.array_equal(p, icp_permutation(L, n_steps=30, seed=1))
    for c in (0, 1): assert abs(A[p][y == c, 1].mean() - A[y == c, 1].mean()) < 0.2
    q = icp_permutation(L, n_steps=5, init=p, seed=2)
    assert np.array_equal(np.sort(q), np.arange(n)) and not np.array_equal(p, q)
