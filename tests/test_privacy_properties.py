"""Property tests (hypothesis) for trustnb.privacy: RR label-DP bounds, accountant monotonicity, bad input."""
import math, warnings
import numpy as np
import pytest
from hypothesis import given, settings, assume, strategies as st, HealthCheck

pytest.importorskip('dp_accounting')
from trustnb.privacy.accounting import Accountant, GaussianMechanism, epsilon_poisson_gaussian, check_delta, check_epsilon, check_sampling_rate
from trustnb.privacy.label_dp import LabelRandomizedResponse, rr_epsilon, rr_vertex

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True)  # the same examples on every run (CI time and results reproducible)
eps_st = st.floats(min_value=1e-3, max_value=20.0, allow_nan=False)
delta_st = st.floats(min_value=0.0, max_value=0.5, allow_nan=False)

def _channel(m):  # P[y, output]
    return np.array([[1 - m.p0, m.p0], [1 - m.p1, m.p1]])

@settings(max_examples=300, **SETTINGS)
@given(eps=eps_st, delta=delta_st)
def test_rr_satisfies_its_bound_exactly(eps, delta):
    "For every label pair (y, y') and output o: P[o|y] <= e^ε P[o|y'] + δ, with equality at the binding constraint."
    m = LabelRandomizedResponse(eps, delta); P = _channel(m)
    assert np.all(P >= 0) and np.allclose(P.sum(1), 1)
    slack = [P[y, o] - (math.exp(eps) * P[y2, o] + delta) for y in (0, 1) for y2 in (0, 1) for o in (0, 1) if y != y2]
    assert max(slack) <= 1e-12 * math.exp(eps)  # the bound holds (up to float rounding) for all label pairs and outputs
    assert max(slack) >= -1e-9 * math.exp(eps)  # and is tight (the mechanism spends exactly ε)
    assert m.epsilon <= eps * (1 + 1e-7)  # 1 - p1 is ~e^-ε: float rounding only

@settings(max_examples=200, **SETTINGS)
@given(eps=eps_st)
def test_pure_rr_epsilon_is_exact(eps):
    p0, p1 = rr_vertex(eps)
    assert math.isclose(rr_epsilon(p0, p1), eps, rel_tol=1e-7, abs_tol=1e-12)
    assert math.isclose(p0 + p1, 1.0, rel_tol=1e-12)

@settings(max_examples=200, **SETTINGS)
@given(p0=st.floats(0.0, 1.0), p1=st.floats(0.0, 1.0), delta=delta_st)
def test_rr_epsilon_is_the_smallest_valid_eps(p0, p1, delta):
    assume(p1 > p0 + 1e-6)
    e = rr_epsilon(p0, p1, delta)
    assume(math.isfinite(e))
    P = np.array([[1 - p0, p0], [1 - p1, p1]])
    worst = max(P[y, o] - math.exp(e) * P[1 - y, o] - delta for y in (0, 1) for o in (0, 1))
    assert worst <= 1e-9
    if e > 1e-6:  # any smaller ε violates some constraint
        e2 = e * (1 - 1e-4)
        assert max((P[y, o] - delta) - math.exp(e2) * P[1 - y, o] for y in (0, 1) for o in (0, 1)) > 0

@settings(max_examples=30, **SETTINGS)
@given(eps=st.floats(0.05, 10.0), seed=st.integers(0, 2**31 - 1))
def test_rr_empirical_rates(eps, seed):
    m = LabelRandomizedResponse(eps); y = np.repeat([0, 1], 20_000); yt = m(y, seed=seed)
    for lab, p in ((0, m.p0), (1, m.p1)):
        assert abs(yt[y == lab].mean() - p) < 5 * math.sqrt(p * (1 - p) / 20_000) + 1e-9

# accountants ---------------------------------------------------------------------------------------------------
sig_st = st.floats(0.5, 5.0); q_st = st.floats(0.001, 1.0); T_st = st.integers(1, 500)

def _eps(sigma, q, T, method):
    """ε from the accountant. A PLD `inf` is a refusal (no guarantee), never silent: it must come with the warning, and only
    where no meaningful guarantee exists (the RDP bound of the same ledger is > 100). Monotonicity is then checked between
    the finite bounds (an inf next to a finite bound is a refusal, which is sound, not a smaller ε)."""
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        e = epsilon_poisson_gaussian(sigma, q, T, 1e-5, method, discretization=1e-3)
    if not math.isfinite(e):
        assert method == 'pld' and any('PLD could not bound' in str(x.message) for x in w), 'an infinite ε must be announced'
        assert epsilon_poisson_gaussian(sigma, q, T, 1e-5, 'rdp') > 100, 'PLD refused where RDP gives a meaningful bound'
    return e

def test_pld_refusal_is_announced():
    "Found by test_monotone_in_steps: PLD returns inf at T=410 and 725 at T=412 (sigma 0.5, q 0.79); the inf now warns, with RDP's bound."
    with pytest.warns(RuntimeWarning, match='PLD could not bound'): e = epsilon_poisson_gaussian(0.5, 0.7888449354206953, 410, 1e-5, 'pld', discretization=1e-3)
    assert e == math.inf
    assert math.isfinite(epsilon_poisson_gaussian(0.5, 0.7888449354206953, 412, 1e-5, 'pld', discretization=1e-3))

@settings(max_examples=15, **SETTINGS)
@given(sigma=sig_st, q=q_st, T=T_st, extra=st.integers(1, 500), method=st.sampled_from(['rdp', 'pld']))
def test_monotone_in_steps(sigma, q, T, extra, method):
    a = _eps(sigma, q, T, method); b = _eps(sigma, q, T + extra, method)
    if math.isfinite(a): assert b >= a - 1e-9

@settings(max_examples=15, **SETTINGS)
@given(sigma=sig_st, factor=st.floats(1.05, 3.0), q=q_st, T=T_st, method=st.sampled_from(['rdp', 'pld']))
def test_monotone_in_noise(sigma, factor, q, T, method):
    a = _eps(sigma, q, T, method); b = _eps(sigma * factor, q, T, method)
    if math.isfinite(b): assert b <= a + 1e-9

@settings(max_examples=15, **SETTINGS)
@given(sigma=sig_st, q=q_st, T=T_st, d1=st.floats(1e-9, 0.5), ratio=st.floats(1.5, 100.0), method=st.sampled_from(['rdp', 'pld']))
def test_epsilon_decreasing_in_delta(sigma, q, T, d1, ratio, method):
    d2 = min(d1 * ratio, 0.9)
    acc = Accountant(method, discretization=1e-3).step(GaussianMechanism(sigma), q, T)
    assert acc.get_epsilon(d2) <= acc.get_epsilon(d1) + 1e-9

# bad input -----------------------------------------------------------------------------------------------------
@pytest.mark.parametrize('bad', [0.0, -1.0, float('nan'), float('inf')])
def test_bad_epsilon(bad):
    with pytest.raises(ValueError, match='epsilon'): check_epsilon(bad)
    with pytest.raises(ValueError, match='epsilon'): LabelRandomizedResponse(bad)

@pytest.mark.parametrize('bad', [0.0, 1.0, -0.1, 1.5])
def test_bad_delta(bad):
    with pytest.raises(ValueError, match='delta'): check_delta(bad)
    with pytest.raises(ValueError, match='delta'): Accountant().step(GaussianMechanism(1.0)).get_epsilon(bad)

@pytest.mark.parametrize('bad', [0.0, -0.5, 1.0001])
def test_bad_sampling_rate(bad):
    with pytest.raises(ValueError, match='sampling_rate'): check_sampling_rate(bad)
    with pytest.raises(ValueError, match='sampling_rate'): Accountant().step(GaussianMechanism(1.0), sampling_rate=bad)

def test_empty_labels():
    with pytest.raises(ValueError, match='`y`'): LabelRandomizedResponse(1.0)(np.array([], dtype=int))

# balanced iteration subsampling --------------------------------------------------------------------------------
from trustnb.privacy.balanced_subsampling import balanced_schedule, BalancedIterationSampler, BalancedAccountant

@settings(max_examples=60, **SETTINGS)
@given(n=st.integers(1, 300), T=st.integers(1, 40), data=st.data(), seed=st.integers(0, 2**31 - 1))
def test_balanced_schedule_exactly_k(n, T, data, seed):
    k = data.draw(st.integers(1, T))
    sched = balanced_schedule(n, T, k, seed=seed)
    assert len(sched) == T
    assert all(len(np.unique(b)) == len(b) for b in sched)
    assert np.array_equal(np.bincount(np.concatenate(sched), minlength=n), np.full(n, k))

@settings(max_examples=30, **SETTINGS)
@given(T=st.integers(1, 50), extra=st.integers(1, 10))
def test_k_greater_than_T_rejected(T, extra):
    with pytest.raises(ValueError, match='`k` must be <= `T`'): balanced_schedule(10, T, T + extra)
    with pytest.raises(ValueError, match='`k` must be <= `T`'): BalancedIterationSampler(10, T, T + extra)

def test_balanced_empty_data_rejected():
    with pytest.raises(ValueError, match='`n`'): balanced_schedule(0, 5, 1)

def test_balanced_accountant_matches_gaussian_when_k_equals_T():
    e_mc = BalancedAccountant(n_mc=20_000, z=0.0).step(GaussianMechanism(2.0), T=3, k=3, count=2).get_epsilon(1e-5)
    e_ref = Accountant().step(GaussianMechanism(2.0), 1.0, 6).get_epsilon(1e-5)
    assert abs(e_mc / e_ref - 1) < 0.03

def test_balanced_accountant_more_passes_more_loss():
    a = BalancedAccountant(n_mc=20_000).step(GaussianMechanism(1.0), T=20, k=1, count=2).get_epsilon(1e-4)
    b = BalancedAccountant(n_mc=20_000).step(GaussianMechanism(1.0), T=20, k=1, count=8).get_epsilon(1e-4)
    c = BalancedAccountant(n_mc=20_000).step(GaussianMechanism(2.0), T=20, k=1, count=8).get_epsilon(1e-4)
    assert a < b and c < b

# issue 9 §2: no silent wrong answers on generated bad inputs ----------------------------------------------------
import warnings
import torch
from trustnb.privacy.accounting import (rdp_poisson_gaussian, delta_poisson_gaussian_1step, delta_poisson_gaussian_mc, gaussian_noise_multiplier,
                                        LaplaceMechanism)
from trustnb.privacy.balanced_subsampling import epsilon_balanced, epsilon_model_partition
from trustnb.privacy.label_dp import optimal_rr_probs, RRBinaryRegression

bad_z = st.one_of(st.floats(max_value=0.0, allow_nan=False, allow_infinity=False), st.just(float('nan')), st.just(float('inf')))
bad_q = st.one_of(st.floats(max_value=0.0, allow_nan=False, allow_infinity=False), st.floats(min_value=1.0 + 1e-9, max_value=1e6), st.just(float('nan')))

@settings(max_examples=60, **SETTINGS)
@given(z=bad_z, q=st.floats(0.001, 1.0))
def test_bad_noise_multiplier_is_refused_everywhere(z, q):
    "Zero, negative, NaN or infinite noise multipliers raise, naming `noise_multiplier` (no NaN, no 'perfect privacy')."
    for f in (lambda: rdp_poisson_gaussian(z, q, [2, 4]), lambda: delta_poisson_gaussian_1step(z, q, 1.0),
              lambda: epsilon_poisson_gaussian(z, q, 3, 1e-5), lambda: delta_poisson_gaussian_mc(z, q, 1, 1.0, n_mc=10),
              lambda: epsilon_balanced(z, 4, 1, 1e-3, n_mc=200), lambda: epsilon_model_partition(z, 4, 1, 1e-3, n_mc=200)):
        with pytest.raises(ValueError, match='`noise_multiplier`'): f()

@settings(max_examples=60, **SETTINGS)
@given(q=bad_q, z=st.floats(0.3, 5.0))
def test_bad_sampling_rate_is_refused_everywhere(q, z):
    for f in (lambda: rdp_poisson_gaussian(z, q, [2, 4]), lambda: delta_poisson_gaussian_1step(z, q, 1.0),
              lambda: epsilon_poisson_gaussian(z, q, 3, 1e-5), lambda: gaussian_noise_multiplier(1.0, 1e-5, 3, q),
              lambda: Accountant().step(GaussianMechanism(1.0), q), lambda: epsilon_model_partition(z, 4, 1, 1e-3, sampling_rate=q, n_mc=200)):
        with pytest.raises(ValueError, match='`sampling_rate`'): f()

@settings(max_examples=40, **SETTINGS)
@given(z=st.floats(0.3, 5.0), q=st.floats(0.001, 1.0), eps=st.floats(1e-4, 0.05))
def test_valid_one_step_delta_is_positive_and_finite(z, q, eps):
    "A real mechanism never reports perfect privacy at small ε, nor NaN."
    d = delta_poisson_gaussian_1step(z, q, eps)
    assert math.isfinite(d) and 0 < d < 1
    r = rdp_poisson_gaussian(z, q, [2, 8])
    assert np.isfinite(r).all() and (r >= 0).all()

@settings(max_examples=40, **SETTINGS)
@given(n=st.integers(1, 20), data=st.data(), bad=st.sampled_from([np.nan, np.inf, -np.inf]), torch_in=st.booleans())
def test_mechanisms_refuse_nonfinite_queries(n, data, bad, torch_in):
    "Adding noise to NaN would release exactly which entries were NaN: the mechanisms raise instead."
    x = np.zeros(n); x[data.draw(st.integers(0, n - 1))] = bad
    x = torch.tensor(x) if torch_in else x
    for m in (GaussianMechanism(1.0), LaplaceMechanism(1.0)):
        with pytest.raises(ValueError, match='`x` contains NaN or inf'): m(x, seed=0)

@settings(max_examples=30, **SETTINGS)
@given(p=st.integers(1, 4), data=st.data())
def test_nan_pilot_beta_refused(p, data):
    X = np.random.default_rng(p).normal(size=(30, p)); b = np.ones(p); b[data.draw(st.integers(0, p - 1))] = np.nan
    with pytest.raises(ValueError, match='`beta_pilot` contains NaN'): optimal_rr_probs(X, b, 1.0)

@settings(max_examples=20, **SETTINGS)
@given(q=st.floats(0.001, 0.999))
def test_rdp_replace_with_sampling_fails_early(q):
    "dp-accounting's RDP cannot compose Poisson sampling under replace-one: we say so at `step`, not at `get_epsilon`."
    with pytest.raises(ValueError, match="`neighboring`='replace'"): Accountant('rdp', 'replace').step(GaussianMechanism(1.0), q)

def test_one_default_accountant_is_pld():
    "Calibration and reporting share the PLD default, so a calibrated mechanism's reported ε is the target (no wasted noise)."
    z = gaussian_noise_multiplier(1.0, 1e-5)
    assert z == gaussian_noise_multiplier(1.0, 1e-5, accountant='pld') < gaussian_noise_multiplier(1.0, 1e-5, accountant='rdp')
    assert abs(GaussianMechanism.from_noise_multiplier(z).guarantee(1e-5).epsilon - 1.0) < 2e-3

def test_deprecated_keywords_still_work():
    with warnings.catch_warnings(record=True) as w:
        warnings.simplefilter('always')
        assert epsilon_poisson_gaussian(sigma=1.0, sampling_rate=0.1, steps=3, delta=1e-5) == epsilon_poisson_gaussian(1.0, 0.1, 3, 1e-5)
        assert np.array_equal(rdp_poisson_gaussian(sigma=1.0, q=0.1, orders=[2, 3]), rdp_poisson_gaussian(1.0, 0.1, [2, 3]))
    assert sum(issubclass(x.category, DeprecationWarning) for x in w) >= 2
    with pytest.raises(TypeError, match='noise_multiplier'): epsilon_poisson_gaussian(1.0, 0.1, 3, 1e-5, sigma=1.0)  # both spellings: refused

@settings(max_examples=15, **SETTINGS)
@given(seed=st.integers(0, 10_000), n=st.integers(20, 200), eps=st.floats(0.5, 5.0))
def test_rr_regression_is_a_classifier(seed, n, eps):
    rng = np.random.default_rng(seed); X = rng.normal(size=(n, 2)); y = (rng.random(n) < 0.5).astype(int)
    rr = LabelRandomizedResponse(eps); yt = rr(y, seed=seed)
    assume(0 < yt.sum() < n)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning)  # separable draws may not converge: not what is tested here
        m = RRBinaryRegression(mechanism=rr).fit(X, yt)
    P = m.predict_proba(X)
    assert P.shape == (n, 2) and np.allclose(P.sum(1), 1) and np.isin(m.predict(X), [0, 1]).all()
    with pytest.raises(ValueError, match='`y_tilde`'): RRBinaryRegression().fit(X, np.r_[yt[:-1], 0.5])

# issue 24 / issue 27 §2: the PLD accountant computes at the discretization the user asked for ---------------------
import dp_accounting as _dpa
from hypothesis import example

def _dpa_pld_epsilon(z, q, T, delta, interval):
    a = _dpa.pld.PLDAccountant(_dpa.NeighboringRelation.ADD_OR_REMOVE_ONE, interval)
    a.compose(_dpa.PoissonSampledDpEvent(q, _dpa.GaussianDpEvent(z)) if q < 1 else _dpa.GaussianDpEvent(z), T)
    return a.get_epsilon(delta)

@settings(max_examples=10, **SETTINGS)
@given(z=st.floats(0.6, 4.0), log_q=st.floats(math.log(1e-4), math.log(0.2)), log_T=st.floats(0.0, math.log(1e5)),
       interval=st.sampled_from([1e-4, 3e-4, 1e-3]), delta=st.sampled_from([1e-5, 1e-7]))
@example(z=1.0, log_q=math.log(1e-4), log_T=math.log(1e5), interval=1e-4, delta=1e-5)    # 5x dp-accounting's ε before the fix
@example(z=1.1, log_q=math.log(1e-3), log_T=math.log(1e4), interval=1e-4, delta=1e-5)    # +15%
@example(z=0.8, log_q=math.log(1e-2), log_T=math.log(1e3), interval=1e-4, delta=1e-5)    # +6e-5 (the 1e-3 class)
def test_pld_epsilon_is_dp_accountings_at_the_requested_discretization(z, log_q, log_T, interval, delta):
    "Our PLD ε equals dp-accounting's PLDAccountant at the same `discretization` to 1e-6 relative (small rates, many steps included)."
    q, T = min(1.0, math.exp(log_q)), max(1, int(round(math.exp(log_T))))
    assume(q * math.sqrt(T) <= 1.0 or T <= 300)  # keeps each dp-accounting call to a few seconds
    ours = Accountant(discretization=interval).step(GaussianMechanism(z), q, T).get_epsilon(delta)
    ref = _dpa_pld_epsilon(z, q, T, delta, interval)
    assert abs(ours / ref - 1) <= 1e-6, (z, q, T, interval, ours, ref)
    assert epsilon_poisson_gaussian(z, q, T, delta, discretization=interval) == ours

@settings(max_examples=20, **SETTINGS)
@given(z=st.floats(1e-4, 5e-3), q=st.sampled_from([1.0, 0.5, 0.01]))
def test_pld_grid_too_large_is_refused_not_coarsened(z, q):
    "Tiny noise multipliers need a grid of ~1/(z² · discretization) points: refused, naming `discretization` and the interval that fits."
    with pytest.raises(ValueError, match='`discretization`=0.0001'): Accountant().step(GaussianMechanism(z), q).get_epsilon(1e-5)
    with pytest.raises(ValueError, match='`discretization`=0.0001') as e: Accountant(max_grid_points=20_000).step(GaussianMechanism(z), q).get_epsilon(1e-5)
    fit = float(str(e.value).split('pass `discretization` >= ')[1].split()[0])  # the interval the message names fits
    from trustnb.privacy.accounting import _check_grid
    _check_grid(Accountant(discretization=fit * 1.01, max_grid_points=20_000).step(GaussianMechanism(z), q))  # no refusal

@pytest.mark.parametrize('q', [1.0, 0.5])
def test_pld_at_the_suggested_discretization_is_sound(q):
    "At the interval the refusal names, ε is finite and an upper bound (checked against the exact ε of one Gaussian release)."
    from scipy import stats, optimize
    z = 3e-3
    with pytest.raises(ValueError) as e: Accountant(max_grid_points=50_000).step(GaussianMechanism(z), q).get_epsilon(1e-5)
    fit = float(str(e.value).split('pass `discretization` >= ')[1].split()[0])
    eps = Accountant(discretization=fit * 1.01, max_grid_points=50_000).step(GaussianMechanism(z), q).get_epsilon(1e-5)
    exact = optimize.brentq(lambda x: stats.norm.cdf(-x * z + 0.5 / z) - np.exp(x + stats.norm.logcdf(-x * z - 0.5 / z)) - 1e-5, 0, 1e7)
    assert (exact if q == 1 else 0) <= eps <= exact * 1.01

# issue 24: a GGUF block whose fp16 scale overflows is refused (gguf and llama.cpp would store inf) ----------------------
from trustnb.privacy import quant_gap as QG
_F16_INF_AT = 65520.0  # fp16 rounds |x| >= 65520 to inf
_OVERFLOW_AT = {('Q8_0', 1): 127 * _F16_INF_AT, ('Q8_0', -1): 127 * _F16_INF_AT, ('Q4_0', 1): 8 * _F16_INF_AT, ('Q4_0', -1): 8 * _F16_INF_AT,
                ('Q4_K', 1): 15 * 63 * _F16_INF_AT, ('Q4_K', -1): 63 * _F16_INF_AT}  # the |w| at which a block's fp16 scale (Q4_K: d or dmin) is inf

def _huge_block(qtype, sign, factor, data):
    b = QG.QTYPES[qtype]; rows, nblk = data.draw(st.integers(1, 3)), data.draw(st.integers(1, 3))
    W = np.random.default_rng(data.draw(st.integers(0, 2**31 - 1))).normal(size=(rows, b * nblk)).astype(np.float32)
    i, j = data.draw(st.integers(0, rows - 1)), data.draw(st.integers(0, b * nblk - 1))
    W[i, j] = np.float32(sign * min(3e38, factor * _OVERFLOW_AT[qtype, sign])); return W

@settings(max_examples=60, **SETTINGS)
@given(qtype=st.sampled_from(list(QG.QTYPES)), sign=st.sampled_from([1, -1]), factor=st.floats(1.01, 1e32), data=st.data(), torch_in=st.booleans())
def test_gguf_scale_overflow_is_refused(qtype, sign, factor, data, torch_in):
    W = _huge_block(qtype, sign, factor, data); Win = torch.tensor(W) if torch_in else W
    for f in [QG.quantize_dequantize, QG.pack_gguf] + ([QG.quantization_box] if qtype != 'Q4_K' else []):
        with pytest.raises(ValueError, match=r'`w` has \d+ ' + qtype + r' block\(s\) whose fp16 scale overflows'): f(Win, qtype)

@settings(max_examples=40, **SETTINGS)
@given(qtype=st.sampled_from(list(QG.QTYPES)), sign=st.sampled_from([1, -1]), factor=st.floats(1e-3, 0.99), data=st.data())
def test_gguf_large_blocks_below_the_fp16_limit_stay_finite(qtype, sign, factor, data):
    W = _huge_block(qtype, sign, factor, data)
    assert np.isfinite(QG.quantize_dequantize(W, qtype)).all()

def test_gguf_overflow_in_a_model_is_refused_by_the_audit():
    m = torch.nn.Sequential(torch.nn.Linear(64, 32), torch.nn.ReLU(), torch.nn.Linear(32, 3))
    with torch.no_grad(): m[2].weight[1, 5] = 1e7
    X = np.random.default_rng(0).normal(size=(8, 64)).astype(np.float32)
    with pytest.raises(ValueError, match="`model` weight '2.weight' cannot be quantized to Q4_0"): QG.quant_gap_audit(m, X, ['Q4_0'])
    with pytest.raises(ValueError, match='`model`'): QG.quantize_model(m, 'Q8_0')

# issue 24: rediffuse_scores refuses a variation API whose output has the wrong shape or is not finite -------------------
from trustnb.privacy.rediffuse import rediffuse_scores

@settings(max_examples=40, **SETTINGS)
@given(n_img=st.integers(1, 6), d=st.integers(2, 20), n=st.integers(1, 4), data=st.data(),
       kind=st.sampled_from(['drop_cols', 'drop_rows', 'extra_dim', 'transpose', 'nan', 'inf', 'torch_nan']))
def test_rediffuse_rejects_bad_variations(n_img, d, n, data, kind):
    X = np.random.default_rng(n_img * d).uniform(-1, 1, (n_img, d)).astype(np.float32)
    bad_query = data.draw(st.integers(0, n - 1))  # the query that misbehaves
    def api(x, t, seed):
        v = x + 0.1
        if seed != bad_query: return v
        if kind == 'drop_cols': return v[:, :-1]
        if kind == 'drop_rows': return np.r_[v, v][: n_img + 1]
        if kind == 'extra_dim': return v[None]
        if kind == 'transpose': return v.T if n_img != d else v[:, :-1]
        v = v.copy(); v.flat[data.draw(st.integers(0, v.size - 1))] = np.nan if kind != 'inf' else np.inf
        return torch.tensor(v) if kind == 'torch_nan' else v
    match = '`api` returned variations of shape' if kind in ('drop_cols', 'drop_rows', 'extra_dim', 'transpose') else '`api` returned 1 NaN or inf'
    with pytest.raises(ValueError, match=match): rediffuse_scores(api, X, t=5, n=n, seed=0)
    assert np.isfinite(rediffuse_scores(lambda x, t, seed: x + 0.1, X, t=5, n=n, seed=0)).all()
