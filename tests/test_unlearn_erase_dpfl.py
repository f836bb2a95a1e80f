"Property tests for exact unlearning (ERASE) and the DP-FL noise chain (issue 4, reliability)."
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from trustnb.unlearn.erase import QuantizedKMeans, ERASESelector, state_hash, _fixed
from trustnb.privacy.dp_fl import chain_sensitivity, chain_variance


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n=st.integers(12, 80), k=st.integers(1, 4), eps=st.sampled_from([0.1, 0.5, 2.0]),
       n_del=st.integers(1, 8))
def test_qkmeans_delete_equals_refit(seed, n, k, eps, n_del):
    "Any sequence of deletes leaves a state bit-identical to a fresh fit on the remaining records."
    rng = np.random.default_rng(seed); Z = rng.normal(size=(n, 3)) * 2
    q = QuantizedKMeans(n_clusters=k, lattice_spacing=eps, seed=seed % 7).fit(Z)
    for i in rng.choice(n, min(n_del, n - k), replace=False):
        q.unlearn(int(i))
        f = QuantizedKMeans(n_clusters=k, lattice_spacing=eps, seed=seed % 7).fit(Z[q.ids_], q.ids_)
        assert state_hash(q.state_dict()) == state_hash(f.state_dict())


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), n_del=st.integers(1, 5))
def test_erase_deleted_record_unrecoverable(seed, n_del):
    "After unlearning, no stored array holds the deleted ids, rows or embeddings, and the state equals a rerun."
    rng = np.random.default_rng(seed); X = rng.normal(size=(90, 4)); y = rng.integers(0, 3, 90)
    sel = ERASESelector(k=3, lattice_spacing=0.5, seed=1).fit(X, y)
    gone = rng.choice(90, n_del, replace=False)
    for i in gone: sel.unlearn(int(i))
    st_ = sel.state_dict()
    for i in gone:
        for key, v in st_.items():
            if key.endswith(('ids', 'demos')): assert not np.isin(i, v).any()
            v = np.asarray(v)
            for row in (X[i], _fixed(X[i][None])[0]):
                if v.ndim >= 1 and v.shape[-1] == len(row): assert not (v.reshape(-1, len(row)) == row).all(1).any()
    keep = np.setdiff1d(np.arange(90), gone)
    assert state_hash(st_) == state_hash(ERASESelector(k=3, lattice_spacing=0.5, seed=1).fit(X[keep], y[keep], keep).state_dict())


def test_unknown_id_raises():
    sel = ERASESelector(k=2, lattice_spacing=0.5).fit(np.random.default_rng(0).normal(size=(20, 2)), np.arange(20) % 2)
    with pytest.raises(ValueError, match='unknown'): sel.unlearn(99)
    with pytest.raises(KeyError): sel.unlearn(99)  # still a KeyError, as before


@settings(max_examples=50, deadline=None)
@given(beta=st.floats(0, 1), K=st.integers(1, 60))
def test_chain_matches_matrix(beta, K):
    "Sensitivity factor and accumulated-noise variance equal those of the explicit noise matrix D."
    D = np.eye(K) - beta * np.eye(K, k=-1); Dinv = np.linalg.inv(D)
    assert np.isclose(np.linalg.norm(Dinv, axis=0).max(), chain_sensitivity(beta, K), rtol=1e-6)
    assert np.isclose(np.ones(K) @ D @ D.T @ np.ones(K), chain_variance(beta, K), rtol=1e-9)
