"""Bad inputs of chapter 6 that are invalid only in relation to something else (issue 24), on generated inputs:
an oracle built on other data than the coreset, a weighted or non-0/1 adjacency where the doc says 0/1, and
`sensitive_features` dicts whose columns have unequal lengths. Each test failed on the code before the fix."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from trustnb.fairness import coresets as CS, fdgen as FD, metrics as M
from trustnb.graphs import make_homophilous_graph

SETTINGS = settings(max_examples=15, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))

@SETTINGS
@given(n=st.integers(30, 80), d=st.integers(1, 3), seed=st.integers(0, 10_000), change=st.sampled_from(['other_draw', 'one_point_moved', 'more_points']))
def test_coreset_cost_refuses_an_oracle_built_on_other_data(n, d, seed, change):
    "`Coreset.cost` with an oracle over other points (same size, one point moved, or a superset) raises naming `oracle`."
    X, c = CS.make_fair_blobs(n, 2, d, seed=seed)
    o = CS.WeakStrongOracle(X, seed=seed); S = CS.fair_kmedian_coreset(X, c, 2, o, size=10, n_pilot=5, seed=seed)
    C, B = X[:2].copy(), CS.proportional_bounds(c, 0.3)
    S.cost(C, B, o)                                                  # the oracle it was built with: fine
    S.cost(C, B, CS.WeakStrongOracle(X.copy(), seed=seed + 1))       # another oracle over the same points: fine
    if change == 'other_draw': X2 = CS.make_fair_blobs(n, 2, d, seed=seed + 1)[0]
    elif change == 'one_point_moved': X2 = X.copy(); X2[int(S.idx[0])] += 1.0
    else: X2 = np.vstack([X, X[:5] + 0.5])
    with pytest.raises(ValueError, match='`oracle`'): S.cost(C, B, CS.WeakStrongOracle(X2, seed=seed))

@pytest.fixture(scope='module')
def graph(): return make_homophilous_graph(n_per_group=8, p_in=0.6, p_out=0.2, d_features=3, seed=0)

@SETTINGS
@given(data=st.data(), value=st.sampled_from([2.0, 0.5, 3.0, 0.25, 1.5]))
def test_fdgen_fit_refuses_non_binary_adjacency(graph, data, value):
    "`FairGraphGenerator.fit` documents a 0/1 adjacency: a weighted or multi-edge entry raises naming `A`."
    A = graph.A.astype(float).copy(); iu = np.argwhere(np.triu(A, 1) > 0)
    i, j = iu[data.draw(st.integers(0, len(iu) - 1), label='edge')]
    A[i, j] = A[j, i] = value                                        # symmetric, non-negative: only the 0/1 domain is broken
    with pytest.raises(ValueError, match='`A` must be a 0/1 adjacency'):
        FD.FairGraphGenerator(epochs=1, hidden=4, n_latents=2, seed=0).fit(A, graph.X, graph.s)

@SETTINGS
@given(n=st.integers(4, 40), cut=st.integers(1, 3), k=st.integers(2, 4), data=st.data())
def test_sensitive_features_dict_of_unequal_lengths(n, cut, k, data):
    "A dict of attribute columns with unequal lengths raises a ValueError naming `sensitive_features` (and the column), not pandas' error."
    r = np.random.default_rng(n * 10 + k)
    cols = {f'a{j}': r.integers(0, 2, n) for j in range(k)}
    short = data.draw(st.sampled_from(sorted(cols)), label='short column'); cols[short] = cols[short][:max(1, n - cut)]
    with pytest.raises(ValueError, match='`sensitive_features`') as e: M.sensitive_frame(cols)
    assert short in str(e.value)
    y = np.tile([0, 1], n)[:n]
    with pytest.raises(ValueError, match='`sensitive_features`'): M.equalized_odds_violation(y, y, sensitive_features=cols)
