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


# the unlearning contract: fit, then unlearn(ids) mutates and reports (issue 16) -----------------------------------
import random, warnings
import torch
from trustnb.core import local_seed
from trustnb.zoo import MLP
from trustnb.unlearn.certified import NoisyFinetuneUnlearner, train_full_batch
from trustnb.unlearn.erase import SISA


def _rng_state(): return (torch.random.get_rng_state().clone(), np.random.get_state()[1].copy(), random.getstate())


@settings(max_examples=5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 1000), n_del=st.integers(1, 5))
def test_noisy_finetune_unlearn_contract(seed, n_del):
    "unlearn(ids) drops exactly those records, returns the new model in its report, and leaves the global RNGs alone."
    rng = np.random.default_rng(seed); X = rng.normal(size=(30, 4)).astype(np.float32); y = rng.integers(0, 3, 30)
    with local_seed(seed): net = MLP(4, 3, (8,))
    before = _rng_state()
    u = NoisyFinetuneUnlearner(T=2, finetune_steps=2, train_steps=3, seed=seed, device='cpu').fit(X, y, model=net)
    gone = rng.choice(30, n_del, replace=False); rep = u.unlearn(gone)
    after = _rng_state()
    assert torch.equal(before[0], after[0]) and np.array_equal(before[1], after[1]) and before[2] == after[2]
    assert rep.model is u.model_ and rep.n_retained == 30 - n_del and not np.isin(gone, u.ids_).any()
    assert abs(rep.certificate.epsilon - 1.0) < 0.01 and u.predict_proba(X).shape == (30, 3)
    with pytest.raises(ValueError, match='unknown or already unlearned'): u.unlearn(gone[:1])


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000))
def test_train_full_batch_leaves_global_rng(seed):
    X = np.random.default_rng(seed).normal(size=(10, 3)); y = np.arange(10) % 2
    with local_seed(0): net = MLP(3, 2, (4,))
    before = _rng_state(); train_full_batch(net, X, y, steps=2, seed=seed); after = _rng_state()
    assert torch.equal(before[0], after[0]) and np.array_equal(before[1], after[1]) and before[2] == after[2]


@settings(max_examples=10, deadline=None)
@given(seed=st.integers(0, 10_000), n_del=st.integers(1, 6))
def test_sisa_unlearn_many(seed, n_del):
    from sklearn.linear_model import LogisticRegression
    rng = np.random.default_rng(seed); X = rng.normal(size=(40, 3)); y = np.arange(40) % 2
    s = SISA(make_estimator=lambda: LogisticRegression(max_iter=100), n_shards=3, seed=seed).fit(X, y)
    gone = rng.choice(40, n_del, replace=False); rep = s.unlearn(gone)
    assert len(rep.actions) == n_del and not np.isin(gone, s.ids_).any() and len(s.X_) == 40 - n_del
    assert s.predict(X).shape == (40,)


def test_bad_labels_and_widths_raise_clearly():
    X = np.random.default_rng(0).normal(size=(12, 3)); y = np.arange(12) % 2
    with local_seed(0): net = MLP(3, 2, (4,))
    with pytest.raises(ValueError, match='`y` holds label 5 but `model` has 2 outputs'): train_full_batch(net, X, np.r_[y[:-1], 5])
    with pytest.raises(ValueError, match='`X` has 4 columns'): train_full_batch(net, np.ones((12, 4)), y)
    with pytest.raises(ValueError, match='`y` must hold labels >= 0'): ERASESelector(k=1).fit(X, np.r_[y[:-1], -1])
    with pytest.raises(ValueError, match='`y` must hold whole-number labels'): ERASESelector(k=1).fit(X, np.r_[y[:-1], 0.5])
