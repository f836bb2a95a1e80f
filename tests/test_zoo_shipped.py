"""The zoo weights shipped in `trustnb/weights` (issue 25): intact, used before any training, and what our own code trains.

`tools/train_zoo.py` made them by running every notebook's default path with an empty cache and the shipped weights
switched off, so each entry was trained by trustnb's code from its seed. Here: every entry's file matches the sha256
in its config.json; `cached` loads a shipped entry without calling `build` when the user's cache is empty; a corrupt
shipped entry is ignored with a warning (and the model is trained); and retraining two entries from scratch (the
steering chapter's toy language model, a digits MLP) reproduces the shipped weights."""
import json, hashlib, shutil, warnings
from pathlib import Path
import pytest
import torch

ROOT = Path(__file__).resolve().parents[1]
WEIGHTS = ROOT / 'trustnb' / 'weights'
ENTRIES = sorted(p for p in WEIGHTS.iterdir() if p.is_dir()) if WEIGHTS.is_dir() else []

def _sha(p): return hashlib.sha256(Path(p).read_bytes()).hexdigest()

def test_weights_are_shipped():
    assert ENTRIES, 'trustnb/weights is empty: run `python tools/train_zoo.py` and commit trustnb/weights'
    size = sum(f.stat().st_size for e in ENTRIES for f in e.iterdir())
    assert size < 40e6, f'shipped weights are {size / 1e6:.1f} MB: keep the package small'

@pytest.mark.parametrize('entry', ENTRIES, ids=[e.name for e in ENTRIES])
def test_entry_is_intact(entry):
    from trustnb.zoo import _key
    meta = json.loads((entry / 'config.json').read_text())
    assert sorted(p.name for p in entry.iterdir()) == ['config.json', 'model.safetensors']
    assert meta['sha256'] == _sha(entry / 'model.safetensors')
    assert entry.name == _key(meta['name'], meta['config'])  # the folder is the key `cached` looks up

def _fresh(monkeypatch, tmp_path, shipped):
    monkeypatch.setenv('TRUSTNB_CACHE', str(tmp_path / 'cache'))
    monkeypatch.setenv('TRUSTNB_SHIPPED', '1' if shipped else '0')

def _shipped(name, **cfg):
    "The shipped entry of zoo model `name` whose config has the items `cfg` (the test fails when there is none)."
    for e in ENTRIES:
        meta = json.loads((e / 'config.json').read_text())
        if meta['name'] == name and all(meta['config'].get(k) == v for k, v in cfg.items()): return e
    pytest.fail(f'no shipped {name} with {cfg}: run `python tools/train_zoo.py` and commit trustnb/weights')

def test_shipped_entry_loads_without_training(monkeypatch, tmp_path):
    "With an empty user cache, `toy_lm()` loads the shipped weights: nothing is trained, nothing written to the cache."
    _shipped('toy_lm', language='copy_transform', seed=0); _fresh(monkeypatch, tmp_path, shipped=True)
    import trustnb.internals.toylm as T
    monkeypatch.setattr(T, 'progress', lambda *a, **k: (_ for _ in ()).throw(AssertionError('trained although the weights are shipped')))
    lm = T.toy_lm('copy_transform', seed=0)
    assert lm.model is not None
    assert not (tmp_path / 'cache').exists() or not any((tmp_path / 'cache').iterdir())

def test_corrupt_shipped_entry_is_ignored(monkeypatch, tmp_path):
    "A shipped entry whose file does not match its sha256 is not loaded: a warning, then the model is built."
    from trustnb import zoo
    src = ENTRIES[0]; fake = tmp_path / 'weights'; shutil.copytree(src, fake / src.name)
    with open(fake / src.name / 'model.safetensors', 'r+b') as f: f.seek(-1, 2); b = f.read(1); f.seek(-1, 2); f.write(bytes([b[0] ^ 1]))
    meta = json.loads((src / 'config.json').read_text())
    _fresh(monkeypatch, tmp_path, shipped=True); monkeypatch.setattr(zoo, 'shipped_dir', lambda: fake)
    built = []
    with pytest.warns(UserWarning, match='corrupt or does not match'):
        zoo.cached(meta['name'], meta['config'], build=lambda: built.append(1) or torch.nn.Linear(1, 1), make=lambda: torch.nn.Linear(1, 1))
    assert built == [1]

def _max_rel_diff(a, b):
    return max(((p - q).abs().max() / p.abs().max().clamp_min(1e-12)).item() for p, q in zip(a.parameters(), b.parameters()))

@pytest.mark.parametrize('which', ['toy_lm', 'digits_mlp'])
def test_retraining_reproduces_the_shipped_weights(monkeypatch, tmp_path, which):
    """Our code, run again from the seed with the shipped weights switched off, trains the same model: identical under
    the torch that trained them (CI's pin), and within 1e-3 relative (parameters) elsewhere, where CPU kernels may
    round differently."""
    from trustnb import zoo
    from trustnb.internals.toylm import toy_lm
    load = {'toy_lm': lambda: toy_lm('copy_transform', seed=0).model, 'digits_mlp': lambda: zoo.digits_mlp()}[which]
    _shipped(which, **({'language': 'copy_transform', 'seed': 0} if which == 'toy_lm' else {'seed': 0, 'hidden': [64], 'epochs': 30}))
    _fresh(monkeypatch, tmp_path / 'a', shipped=True); shipped = load()
    _fresh(monkeypatch, tmp_path / 'b', shipped=False); retrained = load()
    d = _max_rel_diff(shipped, retrained)
    print(f'{which}: max relative parameter difference, shipped vs retrained: {d:.2e} (torch {torch.__version__})')
    made = WEIGHTS / 'trained_with.json'   # written by tools/train_zoo.py
    same_build = made.exists() and json.loads(made.read_text())['torch'] == torch.__version__
    assert d == 0 if same_build else d <= 1e-3

def test_digits_cnn_is_shipped_for_no_grad_callers(monkeypatch, tmp_path):
    """`diffusion.sample_accuracy` calls `zoo.digits_cnn()` inside `torch.no_grad()`, where training would fail (no grad);
    a fresh install must load it from the shipped weights (training under no_grad is a known zoo bug, see 02_zoo)."""
    from trustnb import zoo
    _fresh(monkeypatch, tmp_path, shipped=True)
    with torch.no_grad(): m = zoo.digits_cnn()
    assert m is not None
    assert not (tmp_path / 'cache').exists() or not any((tmp_path / 'cache').iterdir())
