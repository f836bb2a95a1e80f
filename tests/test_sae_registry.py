"Cross-architecture contract tests for the SAE registry (trustnb.sae): shapes, determinism, round trips, bad input."
import tempfile
import pytest
import torch
import trustnb.sae.core as C
import trustnb.sae.matryoshka  # noqa: F401  (registers 'matryoshka' and 'prefix_matryoshka')

KW = {'topk': dict(k=3), 'batchtopk': dict(k=3), 'prefix_matryoshka': dict(k=3, prefixes=[8, 16, 32]),
      'matryoshka': dict(ks=(2, 4, 8))}
ARCHS = ['relu', 'topk', 'batchtopk', 'jumprelu', 'matryoshka', 'prefix_matryoshka']


def make(name, seed=0): return C.make_sae(name, d_in=8, n_latents=32, seed=seed, **KW.get(name, {}))


def test_all_registered(): assert set(ARCHS) <= set(C.SAE_REGISTRY)


@pytest.mark.parametrize('name', ARCHS)
def test_contract(name):
    x = torch.randn(20, 8, generator=torch.Generator().manual_seed(0))
    sae = make(name); out = sae(x)
    assert isinstance(out, C.SAEOutput) and out.x_hat.shape == (20, 8) and out.z.shape == (20, 32)
    assert sae.encode(x).shape == (20, 32) and sae.decode(out.z).shape == (20, 8)
    if name != 'matryoshka': torch.testing.assert_close(out.loss, sum(out.losses.values()))
    else: torch.testing.assert_close(out.loss, torch.tensor(1.0)) # balanced levels: each part / its detached value, α sums to 1


@pytest.mark.parametrize('name', ARCHS)
def test_train_deterministic_and_roundtrip(name):
    x = torch.randn(256, 8, generator=torch.Generator().manual_seed(1))
    h1 = C.train_sae(a := make(name, 2), x, steps=15, batch_size=32, seed=3)
    h2 = C.train_sae(b := make(name, 2), x, steps=15, batch_size=32, seed=3)
    assert (h1.loss == h2.loss).all()
    with tempfile.TemporaryDirectory() as d:
        C.save_sae(a, d); c = C.load_sae(d)
        assert type(c) is type(a)
        torch.testing.assert_close(c.encode(x), a.encode(x))


@pytest.mark.parametrize('name', ARCHS)
def test_bad_input(name):
    sae = make(name)
    with pytest.raises(ValueError, match='NaN'): sae.encode(torch.full((2, 8), float('nan')))
    with pytest.raises(ValueError, match='d_in=8'): sae.encode(torch.zeros(2, 5))
    with pytest.raises(ValueError, match='empty'): sae(torch.zeros(0, 8))


@pytest.mark.parametrize('name', ARCHS)
def test_numpy_in_numpy_out(name):
    "numpy in → numpy out without grad; torch in → torch out (on the input's device)."
    import numpy as np
    sae = make(name); x = np.random.default_rng(0).standard_normal((5, 8)).astype(np.float32)
    z = sae.encode(x); assert isinstance(z, np.ndarray) and z.shape == (5, 32)
    assert isinstance(sae.decode(z), np.ndarray)
    zt = sae.encode(torch.as_tensor(x)); assert isinstance(zt, torch.Tensor) and zt.device == torch.device('cpu')
    np.testing.assert_allclose(zt.detach().numpy(), z, atol=1e-6)


def test_universal_and_jacobian_round_trip():
    "Universal and Jacobian SAEs save and load through the family's save_sae/load_sae."
    from trustnb.sae.universal import UniversalSAE, train_usae
    from trustnb.sae.jacobian import JacobianSAE
    from trustnb.core import local_seed
    g = torch.Generator().manual_seed(0); acts = {'a': torch.randn(64, 5, generator=g), 'b': torch.randn(64, 3, generator=g)}
    u = UniversalSAE({'a': 5, 'b': 3}, 16, 2); train_usae(u, acts, steps=5, batch_size=16)
    with local_seed(0): mlp = torch.nn.Sequential(torch.nn.Linear(5, 9), torch.nn.SiLU(), torch.nn.Linear(9, 4))
    js = JacobianSAE(mlp, 5, 4, 16, 2, jacobian_coeff=0.5)
    with tempfile.TemporaryDirectory() as d:
        C.save_sae(u, d + '/u'); C.save_sae(js, d + '/j'); u2, j2 = C.load_sae(d + '/u'), C.load_sae(d + '/j')
    torch.testing.assert_close(u2.encode(acts['a'], name='a'), u.encode(acts['a'], name='a'))
    assert type(j2).__qualname__ == 'JacobianSAE' and j2.jacobian_coeff == 0.5  # the registered class (a notebook may have re-registered its copy)
    torch.testing.assert_close(j2.eval()(acts['a']).J, js.eval()(acts['a']).J)


def test_save_after_a_notebook_redefines_the_class():
    """Running a library cell in a notebook (same process) re-registers a copy of the class under its name; instances of the
    library's class still save, load gives the registered class, and a class that is not a (re)definition still raises."""
    from trustnb.sae.universal import UniversalSAE
    old = C.SAE_REGISTRY['universal']
    try:
        copy = C.register_sae('universal')(type('UniversalSAE', (old,), {}))
        u = UniversalSAE({'a': 4, 'b': 3}, 8, 2)
        with tempfile.TemporaryDirectory() as d:
            C.save_sae(u, d + '/u'); u2 = C.load_sae(d + '/u')
        assert type(u2) is copy
        torch.testing.assert_close(u2.encode(torch.ones(3, 4), name='a'), u.encode(torch.ones(3, 4), name='a'))
        other = type('NotUniversal', (old,), {})
        with tempfile.TemporaryDirectory() as d, pytest.raises(ValueError, match='not registered'): C.save_sae(other({'a': 4, 'b': 3}, 8, 2), d + '/o')
    finally:
        C.SAE_REGISTRY['universal'] = old
