"""Property tests for chapter 8 (trustnb.evaluate): each computation checked against an independent reference on
generated inputs (issue 24), and the relational bad inputs the generic contract battery cannot derive."""
import itertools
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
seed_st = st.integers(0, 10_000)

# --- encoding models: leave-one-out predictions and the layer the benchmark picks ---------------------------------
from trustnb.evaluate import encoding_models as EM

def _explicit_loo(Ftr, y, alpha):
    "Leave one stimulus out, refit sklearn's Ridge (with intercept) on the rest, predict it."
    from sklearn.linear_model import Ridge
    out = np.empty(len(y))
    for i in range(len(y)):
        keep = np.arange(len(y)) != i
        out[i] = Ridge(alpha=alpha).fit(Ftr[keep], y[keep]).predict(Ftr[i:i + 1])[0]
    return out

@settings(max_examples=8, **SETTINGS)
@given(seed=seed_st, n=st.integers(25, 60), d=st.integers(2, 40), k=st.integers(1, 3), noise=st.floats(0.1, 3.0))
def test_encoding_loo_predictions_match_an_explicit_loop(seed, n, d, k, noise):
    rng = np.random.default_rng(seed); F = rng.standard_normal((n + 10, d)) * rng.uniform(0.1, 10, d)
    Y = F @ rng.standard_normal((d, k)) / np.sqrt(d) + noise * rng.standard_normal((n + 10, k))
    tr, te = np.arange(n), np.arange(n, n + 10)
    fit = EM.fit_encoding_model(F, Y, tr, te)
    Ftr = fit['scaler'].transform(F[tr])
    for j in range(k):
        loo = _explicit_loo(Ftr, Y[tr, j], fit['alpha'][j])
        np.testing.assert_allclose(fit['train_loo_r'][j], np.corrcoef(loo, Y[tr, j])[0, 1], rtol=1e-6, atol=1e-8)
        np.testing.assert_allclose(fit['train_loo_pred'][:, j], loo, rtol=1e-6, atol=1e-8)

def test_encoding_loo_errors_equal_sklearns_stored_values():
    "What `RidgeCV(store_cv_results=True)` stores with the default scoring: squared LOO errors, not predictions."
    from sklearn.linear_model import RidgeCV
    rng = np.random.default_rng(0); F = rng.standard_normal((50, 8)); y = F @ rng.standard_normal(8) + rng.standard_normal(50)
    fit = EM.fit_encoding_model(F, y, np.arange(40), np.arange(40, 50))
    ref = RidgeCV(alphas=[fit['alpha'][0]], store_cv_results=True).fit(fit['scaler'].transform(F[:40]), y[:40])
    np.testing.assert_allclose((y[:40] - fit['train_loo_pred'][:, 0]) ** 2, ref.cv_results_.ravel(), rtol=1e-6, atol=1e-10)

@pytest.mark.parametrize('seed', range(6))
def test_benchmark_picks_the_generating_layer(seed):
    "Models with four layers each; targets generated from one known layer: the benchmark must pick that layer."
    rng = np.random.default_rng(seed); n = 160; base = rng.standard_normal((n, 12))
    layers = {f'layer{i}': np.tanh(base @ rng.standard_normal((12, 30)) * rng.uniform(0.3, 1.5)) + 0.3 * rng.standard_normal((n, 30))
              for i in range(4)}
    b = EM.EncodingBenchmark().add_model('net', layers)
    targets = {}
    for g in layers:
        s = layers[g] @ rng.standard_normal(30); s = (s - s.mean()) / s.std()
        targets[g] = np.stack([s + 0.4 * rng.standard_normal(n) for _ in range(2)])
    df = b.fit_score(targets, np.arange(120), np.arange(120, n))
    assert (df.layer == df.target).all(), df[['target', 'layer', 'r']]

# --- noise ceiling: the closed form for k = 2..6 repeats -----------------------------------------------------------
@settings(max_examples=6, **SETTINGS)
@given(seed=seed_st, noise_var=st.floats(1.0, 4.0))
def test_noise_ceiling_matches_the_closed_form_for_2_to_6_repeats(seed, noise_var):
    rng = np.random.default_rng(seed); n = 200_000; s = rng.standard_normal(n)
    for k in range(2, 7):
        reps = s + np.sqrt(noise_var) * rng.standard_normal((k, n))
        want = s.var() / (s.var() + noise_var / k)
        got = EM.split_half_noise_ceiling(reps, n_splits=10, seed=rng)[0]
        assert abs(got - want) < 0.006, (k, got, want)

# --- improvement feedback: the answer law against a brute-force enumeration ---------------------------------------
from trustnb.evaluate import improvement_feedback as IF

def _answer_law(ranking, candidate, t, weights):
    """The authors' law (their experiment scripts' lin_prob / exp_prob / unif_prob), enumerated: a voter asked about the
    candidate at position j answers with one of the k = min(j, t) candidates just above it, the one d places above with
    weight k + 1 - d (linear), e^(k + 1 - d) (exponential) or 1 (uniform); a top candidate gets 'no improvement'."""
    ranking = list(ranking); j = ranking.index(candidate); law = {}
    if j == 0: return {candidate: 1.0}
    k = min(j, t)
    w = {d: {'uniform': 1.0, 'linear': float(k + 1 - d), 'exponential': float(np.exp(k + 1 - d))}[weights] for d in range(1, k + 1)}
    tot = sum(w.values())
    for d, v in w.items(): law[ranking[j - d]] = law.get(ranking[j - d], 0.0) + v / tot
    return law

@pytest.mark.parametrize('weights', ['uniform', 'linear', 'exponential'])
@pytest.mark.parametrize('m', [3, 4, 5])
def test_feedback_distribution_equals_brute_force_enumeration(m, weights):
    for t in range(1, m):
        for r in itertools.permutations(range(m)):
            F = IF.feedback_distribution(np.array([r]), t, weights)
            for a in range(m):
                want = np.zeros(m)
                for b, p in _answer_law(r, a, t, weights).items(): want[b] = p
                np.testing.assert_allclose(F[a], want, atol=1e-12, err_msg=f'ranking {r}, candidate {a}, t={t}, {weights}')

@pytest.mark.parametrize('weights', ['linear', 'exponential'])
def test_nearer_is_likelier(weights):
    "The docstring's promise: with a declining law, the candidate just above is the likeliest answer."
    F = IF.feedback_distribution(np.array([[0, 1, 2, 3, 4, 5]]), t=4, weights=weights)
    assert F[5].argmax() == 4 and F[5, 4] > F[5, 3] > F[5, 2] > F[5, 1]
    assert F[2].argmax() == 1 and F[2, 1] > F[2, 0]  # truncated: only 2 above

@pytest.mark.parametrize('weights', ['uniform', 'linear', 'exponential'])
def test_sampled_answers_follow_the_enumerated_law(weights):
    "The sampler against the enumerated law (not against `feedback_distribution`, which could share its error)."
    rng = np.random.default_rng(0); r = [3, 0, 4, 1, 2]; n = 20_000
    for a in (2, 1):
        law = _answer_law(r, a, 3, weights)
        draws = np.array([IF.improvement_feedback(r, a, t=3, weights=weights, seed=rng) for _ in range(n)])
        for b, p in law.items(): assert abs((draws == b).mean() - p) < 4 * np.sqrt(p * (1 - p) / n) + 1e-3, (a, b, p)

# --- Bradley-Terry prior_strength = choix's alpha -------------------------------------------------------------------
from trustnb.evaluate import ranking as R

@settings(max_examples=15, **SETTINGS)
@given(seed=seed_st, n_items=st.integers(3, 15), per_item=st.integers(2, 30), alpha=st.sampled_from([0.01, 0.1, 0.5, 1.0, 3.0, 10.0]))
def test_bradley_terry_prior_strength_is_choix_alpha(seed, n_items, per_item, alpha):
    choix = pytest.importorskip('choix')
    rng = np.random.default_rng(seed); J = R.simulate_judgments(rng.normal(0, 1.5, n_items), n_items * per_item, seed=rng)
    wl = [(int(a), int(b)) if o == 1 else (int(b), int(a)) for a, b, o in J]
    ours = R.bradley_terry(J, n_items=n_items, prior_strength=alpha, tol=1e-12, max_iter=200_000).scores
    ref = choix.mm_pairwise(n_items, wl, alpha=alpha, tol=1e-12, max_iter=200_000)
    np.testing.assert_allclose(ours, ref, atol=1e-7)

# --- bad inputs that are invalid only in relation to something else -------------------------------------------------
def test_ranking_top_rejects_a_negative_k():
    r = R.bradley_terry(np.array([[0, 1], [1, 2], [2, 0], [0, 2]]))
    for k in (-1, -3, 1.5, 'two'):
        with pytest.raises((ValueError, TypeError), match='`k`'): r.top(k)
    assert r.top(0) == [] and len(r.top(99)) == 3

from trustnb.evaluate import checks_and_balances as CB

@pytest.mark.parametrize('bad', [['anger', 'rage'], ['Anger', 'joy'], ['anger', 3], ['anger', None]])
def test_dike_flags_rejects_emotions_it_does_not_know(bad):
    with pytest.raises(ValueError, match='`emotion`'): CB.dike_flags(np.array(bad, dtype=object), np.array([1, 1]))

def _raises(fn, arg):
    with pytest.raises((ValueError, TypeError), match=f'`{arg}'): fn()

def test_relational_bad_inputs_name_the_argument():
    "Inputs that are only invalid in relation to another argument (the generic battery cannot derive them)."
    from trustnb.evaluate import win_rate as WR
    P = np.array([[0, 1, 2, 3], [1, 0, 2, 3], [2, 3, 1, 0]])
    F = IF.feedback_distribution(P, 1)
    _raises(lambda: IF.scores_from_feedback(F, [3., 2, 1, 0], t=1), 'scores')            # Borda: not determined by t=1 feedback
    _raises(lambda: IF.scores_from_feedback(F, [1., 0, 0], t=1), 'scores')                # one entry short of F's candidates
    _raises(lambda: IF.scoring_winners(P, [1., 0]), 'scores')                             # fewer points than positions
    _raises(lambda: IF.characterisation_check(4, 1, star=np.ones(5)), 'star')             # a vector for another m
    _raises(lambda: IF.indistinguishable_pair([3., 2, 1, 0], weights='exponential'), 'weights')  # no exact pair for an irrational law
    T = WR.make_tabular_task(n_prompts=3, n_responses=4, n_pairs=30, n_seen=3, seed=0)
    pol = np.stack([T.reference] * 4)
    _raises(lambda: WR.pooled_correspondence(T, pol[:, :2], T.pref), 'policies')         # policies for other prompts
    _raises(lambda: WR.pooled_correspondence(T, pol, T.pref[:2]), 'pref_hat')            # preferences for other prompts
    _raises(lambda: WR.win_rate(T.reference, T.reference, T.pref, prompt_weights=np.ones(2) / 2), 'prompt_weights')
    rng = np.random.default_rng(0); Fe = rng.standard_normal((30, 3)); y = rng.standard_normal(30)
    _raises(lambda: EM.fit_encoding_model(Fe, y, np.arange(20), np.arange(15, 30)), 'train_idx')  # overlapping splits
    _raises(lambda: EM.fit_encoding_model(Fe, y, np.arange(20), np.arange(20, 40)), 'test_idx')   # indices past the stimuli
