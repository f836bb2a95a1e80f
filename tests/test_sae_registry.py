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
