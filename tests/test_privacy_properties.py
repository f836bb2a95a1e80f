"""Property tests (hypothesis) for trustnb.privacy: RR label-DP bounds, accountant monotonicity, bad input."""
import math
import numpy as np
import pytest
from hypothesis import given, settings, assume, strategies as st, HealthCheck

pytest.importorskip('dp_accounting')
from trustnb.privacy.accounting import Accountant, GaussianMechanism, epsilon_poisson_gaussian, check_delta, check_epsilon, check_sampling_rate
from trustnb.privacy.label_dp import LabelRandomizedResponse, rr_epsilon, rr_vertex

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow])
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

@settings(max_examples=15, **SETTINGS)
@given(sigma=sig_st, q=q_st, T=T_st, extra=st.integers(1, 500), method=st.sampled_from(['rdp', 'pld']))
def test_monotone_in_steps(sigma, q, T, extra, method):
    a = epsilon_poisson_gaussian(sigma, q, T, 1e-5, method, discretization=1e-3)
    b = epsilon_poisson_gaussian(sigma, q, T + extra, 1e-5, method, discretization=1e-3)
    assert b >= a - 1e-9

@settings(max_examples=15, **SETTINGS)
@given(sigma=sig_st, factor=st.floats(1.05, 3.0), q=q_st, T=T_st, method=st.sampled_from(['rdp', 'pld']))
def test_monotone_in_noise(sigma, factor, q, T, method):
    a = epsilon_poisson_gaussian(sigma, q, T, 1e-5, method, discretization=1e-3)
    b = epsilon_poisson_gaussian(sigma * factor, q, T, 1e-5, method, discretization=1e-3)
    assert b <= a + 1e-9

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
