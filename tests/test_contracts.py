"Cross-method contracts: every registered claim is complete and every module follows the house rules."
import importlib, pkgutil, inspect, ast
from pathlib import Path
import trustnb
from trustnb import repro
ROOT = Path(__file__).resolve().parents[1]

def test_claims_are_complete():
    repro.discover()
    for key, c in repro.REGISTRY.items():
        for f in ('paper', 'claim', 'metric', 'baseline'):
            assert getattr(c, f).strip(), f'claim {key!r} has an empty {f}'
        assert c.module.startswith('trustnb.'), f'claim {key!r} must live in the library, not a notebook'

def test_no_star_imports_in_library():
    for p in (ROOT / 'trustnb').rglob('*.py'):
        tree = ast.parse(p.read_text())
        stars = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and any(a.name == '*' for a in n.names)]
        assert not stars, f'{p.relative_to(ROOT)}: star import from {stars}'

def test_no_stubs():
    for p in (ROOT / 'trustnb').rglob('*.py'):
        assert 'NotImplementedError' not in p.read_text(), f'{p.relative_to(ROOT)} raises NotImplementedError'

def test_no_pickle_loading():
    for p in (ROOT / 'trustnb').rglob('*.py'):
        t = p.read_text()
        assert 'pickle.load' not in t and 'torch.load(' not in t, f'{p.relative_to(ROOT)} loads pickles'
