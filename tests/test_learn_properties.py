"""Property tests (hypothesis) for trustnb.learn (chapter 9), on generated inputs: f-softargmax masking and `dim`,
`divergence`'s refusal of inputs that are not distributions, and SGCRL's NotFittedError before `fit` (issue 24)."""
import math
import numpy as np
import pytest
import torch
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.exceptions import NotFittedError

from trustnb.learn.f_divergence import (KL, Alpha, ReverseKL, ChiSquare, Hellinger, JensenShannon, f_softargmax, f_divergence_loss,
                                        divergence)

SETTINGS = dict(deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
seed_st = st.integers(0, 10_000)
GENS = [KL(), Alpha(0.5), Alpha(1.5), Alpha(2.0), ReverseKL(), ChiSquare(), Hellinger(), JensenShannon()]

def _masked(seed, rows, n, frac):
    g = torch.Generator().manual_seed(seed)
    th = 3 * torch.randn(rows, n, generator=g, dtype=torch.float64)
    M = torch.rand(rows, n, generator=g) < frac
    M[torch.arange(rows), torch.randint(n, (rows,), generator=g)] = False  # at least one class left per row
    return th, M, th.masked_fill(M, -math.inf)

# --- f-softargmax: -inf logits are masked classes (as in torch.softmax and entmax) -----------------------------------
@settings(max_examples=60, **SETTINGS)
@given(seed=seed_st, rows=st.integers(1, 6), n=st.integers(2, 40), frac=st.floats(0.0, 0.9))
def test_masked_f_softargmax_matches_entmax_with_finite_gradient(seed, rows, n, frac):
    entmax = pytest.importorskip('entmax')
    th, M, thm = _masked(seed, rows, n, frac)
    for F, ref in ((Alpha(1.5), entmax.entmax15), (Alpha(2.0), entmax.sparsemax), (KL(), lambda z: torch.softmax(z, -1))):
        x = thm.clone().requires_grad_(); P = f_softargmax(x, F, n_iter=100)
        assert torch.allclose(P, ref(thm), atol=1e-9) and bool((P[M] == 0).all())
        w = torch.randn(rows, n, generator=torch.Generator().manual_seed(seed + 1), dtype=torch.float64)
        (P * w).sum().backward(); assert torch.isfinite(x.grad).all() and bool((x.grad[M] == 0).all())
    xe = thm.clone().requires_grad_(); (entmax.entmax15(xe) * w).sum().backward()
    x = thm.clone().requires_grad_(); (f_softargmax(x, Alpha(1.5), n_iter=100) * w).sum().backward()
    assert torch.allclose(x.grad, xe.grad, atol=1e-8)

@settings(max_examples=40, **SETTINGS)
@given(seed=seed_st, n=st.integers(2, 30), frac=st.floats(0.0, 0.9), which=st.integers(0, len(GENS) - 1))
def test_masked_f_softargmax_is_the_unmasked_subproblem(seed, n, frac, which):
    F = GENS[which]; th, M, thm = _masked(seed, 1, n, frac); keep = ~M[0]
    P = f_softargmax(thm, F, n_iter=100)[0]
    assert bool((P[M[0]] == 0).all()) and torch.allclose(P[keep], f_softargmax(th[0, keep], F, n_iter=100), atol=1e-9)
    assert torch.isclose(P.sum(), torch.ones((), dtype=P.dtype))

@settings(max_examples=30, **SETTINGS)
@given(seed=seed_st, n=st.integers(2, 20), frac=st.floats(0.0, 0.8))
def test_masked_loss_is_finite_and_its_gradient_is_p_minus_y(seed, n, frac):
    th, M, thm = _masked(seed, 3, n, frac)
    y = torch.tensor([int((~M[i]).nonzero()[0]) for i in range(3)])  # an unmasked target class per row
    x = thm.clone().requires_grad_(); loss = f_divergence_loss(x, y, Alpha(1.5), reduction='sum', n_iter=100); loss.backward()
    assert torch.isfinite(loss) and loss >= 0
    assert torch.allclose(x.grad, f_softargmax(thm, Alpha(1.5), n_iter=100) - torch.nn.functional.one_hot(y, n).double(), atol=1e-9)

@settings(max_examples=40, **SETTINGS)
@given(ndim=st.integers(1, 4), dim=st.integers(-8, 8))
def test_dim_out_of_range_names_dim(ndim, dim):
    x = torch.randn(*([3] * ndim), generator=torch.Generator().manual_seed(0))
    if -ndim <= dim < ndim:
        P = f_softargmax(x, Alpha(1.5), dim=dim); assert torch.allclose(P.sum(dim), torch.ones(()), atol=1e-5)
    else:
        with pytest.raises(ValueError, match='`dim`'): f_softargmax(x, Alpha(1.5), dim=dim)

# --- divergence: p a distribution, q a reference distribution of the same length -------------------------------------
def _simplex(seed, n, rows=None):
    r = np.random.default_rng(seed).dirichlet(np.ones(n), size=rows)
    return r

@settings(max_examples=60, **SETTINGS)
@given(seed=seed_st, n=st.integers(2, 12), bad=st.sampled_from(['nan', 'negative', 'unnormalised', 'inf']), which=st.sampled_from(['p', 'q']))
def test_divergence_refuses_what_is_not_a_distribution(seed, n, bad, which):
    rng = np.random.default_rng(seed); p, q = _simplex(seed, n), _simplex(seed + 1, n)
    v = p.copy() if which == 'p' else q.copy(); i = int(rng.integers(n))
    if bad == 'nan': v[i] = np.nan
    elif bad == 'inf': v[i] = np.inf
    elif bad == 'negative': o = np.arange(n) != i; v[o] *= 1.05 / v[o].sum(); v[i] = -0.05  # still sums to 1, one entry < 0
    else: v = v * rng.uniform(1.1, 3.0)
    args = (v, q) if which == 'p' else (p, v)
    with pytest.raises(ValueError, match=f'`{which}`'): divergence(*args, KL())

@settings(max_examples=40, **SETTINGS)
@given(seed=seed_st, n=st.integers(2, 12), m=st.integers(1, 12))
def test_divergence_refuses_lengths_that_disagree(seed, n, m):
    p, q = _simplex(seed, n), _simplex(seed + 1, m)
    if n == m: assert np.isfinite(divergence(p, q, KL())) and divergence(p, q, KL()) >= -1e-12
    else:
        with pytest.raises(ValueError, match='`q`'): divergence(p, q, KL())

@settings(max_examples=40, **SETTINGS)
@given(seed=seed_st, n=st.integers(2, 12), rows=st.integers(1, 5), which=st.integers(0, len(GENS) - 1))
def test_divergence_on_distributions_is_nonnegative_and_zero_at_q(seed, n, rows, which):
    F = GENS[which]; p, q = _simplex(seed, n, rows), _simplex(seed + 1, n)
    d = divergence(p, q, F); assert isinstance(d, np.ndarray) and d.shape == (rows,) and (d >= -1e-10).all()
    assert np.allclose(divergence(np.broadcast_to(q, (rows, n)).copy(), q, F), 0, atol=1e-10)
    kl = (p * np.log(np.where(p > 0, p, 1) / q)).sum(-1)
    assert np.allclose(divergence(p, q, KL()), kl, atol=1e-10)

# --- SGCRL: any method of an unfitted agent raises NotFittedError, whatever it is given --------------------------------
@pytest.mark.parametrize('method,arg', [('score', 'array'), ('score', 'env'), ('act', 'array'), ('act', 'env'), ('critic', 'array'), ('critic', 'env')])
def test_sgcrl_unfitted_raises_not_fitted(method, arg):
    pytest.importorskip('gymnasium')
    from trustnb.learn.sgcrl import SGCRLAgent, TabularQAgent, GridMaze
    env = GridMaze(4, wall_density=0.0, maze_seed=0, max_steps=6)
    value = {'array': np.zeros((3, 2), np.float32), 'env': env}[arg]
    for agent in (SGCRLAgent(), TabularQAgent()):
        if not hasattr(agent, method): continue
        with pytest.raises(NotFittedError): getattr(agent, method)(value)

# --- TriWave: a target's scale does not change how well it is fitted (standardised target, least-squares readout) ------
@settings(max_examples=8, **SETTINGS)
@given(seed=seed_st, log_scale=st.floats(-3, 3))
def test_triwave_fit_is_scale_invariant(seed, log_scale):
    from trustnb.learn.relu_regions import TriangleWaveNet, fit_1d
    a, b, c, p, m = np.random.default_rng(seed).uniform([0.2, 0.5, 0.2, 2, -1], [1, 3, 1, 4, 1])   # a random convex target
    tgt = lambda x: a * torch.exp(b * x) + c * x ** p + m * x; sc = 10.0 ** log_scale
    xs = torch.linspace(0, 1, 1024, dtype=torch.float64); v = float(tgt(xs).var())
    base = fit_1d(TriangleWaveNet(4), tgt, 150).mse / v
    scaled = fit_1d(TriangleWaveNet(4), lambda x: sc * tgt(x), 150).mse / (sc * sc * v)
    assert abs(scaled - base) <= 1e-6 * base + 1e-15, (base, scaled)
    assert base < 1e-2  # and the fit is good, not equally bad at every scale
