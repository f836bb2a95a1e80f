"The cross-library API contract (see tests/contract.py): bad inputs, RNG hygiene, estimators, coverage."
import importlib, inspect, pkgutil, warnings
from pathlib import Path
import numpy as np
import pytest
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from contract import Case, Est, battery, has_nan, rng_state, same_rng, call, relational_battery
import trustnb

FILES = sorted(p.stem for p in (Path(__file__).parent / 'cases').glob('*.py') if not p.stem.startswith('_'))
FAMILIES = sorted({f.split('_')[0] for f in FILES})  # a family may split its cases: cases/explain_a.py, cases/explain_b.py

def _load_file(name):
    try: return importlib.import_module(f'cases.{name}')
    except ImportError as e:
        if 'pip install' in str(e): pytest.skip(f'cases/{name}.py: optional dependency missing ({e})')
        raise

class _Merged:
    "The CASES, ESTIMATORS and EXEMPT of every file of a family."
    def __init__(self, mods):
        self.CASES = [c for m in mods for c in getattr(m, 'CASES', [])]
        self.ESTIMATORS = [e for m in mods for e in getattr(m, 'ESTIMATORS', [])]
        self.EXEMPT = {k: v for m in mods for k, v in getattr(m, 'EXEMPT', {}).items()}
        self.COVERS = {o for m in mods for o in getattr(m, 'COVERS', ())}  # callables exercised through a wrapper Case

def _load(fam): return _Merged([_load_file(f) for f in FILES if f == fam or f.startswith(fam + '_')])

def _all(attr):
    out = []
    for f in FILES:
        try: m = importlib.import_module(f'cases.{f}')
        except Exception: continue  # reported by test_family_imports
        out += [(f, c) for c in getattr(m, attr, [])]
    return out

CASES, ESTS = _all('CASES'), _all('ESTIMATORS')

@pytest.mark.parametrize('name', FILES)
def test_family_imports(name): _load_file(name)

def _mutations(case):
    for arg, value in case.kwargs.items():
        if arg in case.skip: continue
        for label, bad in battery(value, case.kinds.get(arg)):
            yield arg, label, bad

@pytest.mark.parametrize('fam,case', CASES, ids=[f'{f}:{c.name}' for f, c in CASES])
def test_bad_inputs(fam, case):
    "Every mutation raises ValueError/TypeError naming the argument, or is declared legal and returns no NaN."
    ok = call(case, dict(case.kwargs))
    assert not has_nan(ok), f'{case.name}: the valid call returned NaN'
    problems = []
    for arg, label, bad in _mutations(case):
        kw = dict(case.kwargs); kw[arg] = bad
        legal = label in case.legal.get(arg, ())
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: out = call(case, kw)
            except (ValueError, TypeError) as e:
                if not legal and arg not in str(e): problems.append(f'{arg}={label}: message does not name `{arg}`: {str(e)[:160]!r}')
                continue
            except Exception as e:
                problems.append(f'{arg}={label}: raw {type(e).__name__}: {str(e)[:160]!r}'); continue
        if not legal: problems.append(f'{arg}={label}: accepted silently' + (' (returned NaN)' if has_nan(out) else ''))
        elif has_nan(out) and not (case.nan_passthrough and label in ('nan', 'inf')): problems.append(f'{arg}={label}: legal, but returned NaN')
    assert not problems, f'{case.name}:\n  ' + '\n  '.join(problems)

@pytest.mark.parametrize('fam,case', [(f, c) for f, c in CASES if c.rng_free], ids=[f'{f}:{c.name}' for f, c in CASES if c.rng_free])
def test_global_rng_untouched(fam, case):
    before = rng_state(); call(case, dict(case.kwargs))
    assert same_rng(before, rng_state()), f'{case.name} changed the global RNG state (use local generators / core.local_seed)'

@pytest.mark.parametrize('fam,est', ESTS, ids=[f'{f}:{e.name}' for f, e in ESTS])
def test_estimator_contract(fam, est):
    e = est.make(); args, kwargs = est.fit_args()
    params = e.get_params(deep=False)
    for k, v in params.items():  # __init__ only stores
        assert getattr(e, k) is v, f'{est.name}.__init__ must store `{k}` unchanged'
    for m in est.methods:
        with pytest.raises(NotFittedError): getattr(e, m)(*args[:1])
    before = rng_state()
    assert e.fit(*args, **kwargs) is e, f'{est.name}.fit must return self'
    assert same_rng(before, rng_state()), f'{est.name}.fit changed the global RNG state'
    assert hasattr(e, 'n_features_in_') or not hasattr(args[0], 'shape'), f'{est.name}: fit must set n_features_in_'
    c = clone(e); assert c.get_params(deep=False).keys() == params.keys()
    if est.methods:
        with pytest.raises(NotFittedError): getattr(c, est.methods[0])(*args[:1])
    c.fit(*args, **kwargs)
    if est.compare:
        a, b = getattr(e, est.compare)(*args[:1]), getattr(c, est.compare)(*args[:1])
        a = getattr(a, 'numpy', lambda: a)() if hasattr(a, 'detach') else a
        b = getattr(b, 'numpy', lambda: b)() if hasattr(b, 'detach') else b
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b), err_msg=f'{est.name}: a clone refit with the same seed must give the same {est.compare}')

def _exported(modname):
    m = importlib.import_module(modname)
    for n in getattr(m, '__all__', []):
        o = getattr(m, n)
        if inspect.isclass(o) and hasattr(o, '__dataclass_fields__') and o.__module__ == modname and not hasattr(o, 'fit'):
            if getattr(o, '__post_init__', None) is None: continue  # plain result dataclasses (no validation) are outputs
        if (inspect.isfunction(o) or inspect.isclass(o)) and getattr(o, '__module__', '') == modname: yield n, o

def _family_modules():
    out = {}
    for mi in pkgutil.walk_packages(trustnb.__path__, 'trustnb.'):
        if mi.ispkg or mi.name.endswith('_modidx'): continue
        parts = mi.name.split('.'); out.setdefault(parts[1] if len(parts) > 2 else 'foundation', []).append(mi.name)
    return out

@pytest.mark.parametrize('fam', sorted(_family_modules()))
def test_every_export_is_covered(fam):
    "Every exported function/class is exercised by a Case or Est, or exempted with a reason."
    assert fam in FAMILIES, f'family {fam!r} has no tests/cases/{fam}.py'
    m = _load(fam)
    covered = {c.fn for c in m.CASES} | {type(e.make()) for e in m.ESTIMATORS} | m.COVERS
    exempt = getattr(m, 'EXEMPT', {})
    for reason in exempt.values(): assert isinstance(reason, str) and len(reason) > 10, 'an exemption needs a reason'
    missing = []
    for modname in _family_modules()[fam]:
        try: names = list(_exported(modname))
        except ImportError: continue
        missing += [f'{modname}.{n}' for n, o in names if o not in covered and f'{modname}.{n}' not in exempt]
    assert not missing, f'{fam}: exported but neither covered nor exempted:\n  ' + '\n  '.join(missing)
    ests = {type(e.make()) for e in m.ESTIMATORS}
    no_est = [f'{modname}.{n}' for modname in _family_modules()[fam] for n, o in _safe_exported(modname)
              if inspect.isclass(o) and callable(getattr(o, 'fit', None)) and o not in ests and f'{modname}.{n}' not in exempt]
    assert not no_est, f'{fam}: classes with `fit` must have an `Est` entry (clone/refit/NotFittedError checks):\n  ' + '\n  '.join(no_est)

def _safe_exported(modname):
    try: return list(_exported(modname))
    except ImportError: return []

@pytest.mark.parametrize('fam,case', CASES, ids=[f'{f}:{c.name}' for f, c in CASES])
def test_relational_bad_inputs(fam, case):
    """Values invalid only in relation to something else — outside the documented domain (probabilities, 0/1 masks,
    distributions) or disagreeing with a sibling's documented shape — drawn by hypothesis from each parameter's
    docments: a ValueError/TypeError naming one of the arguments involved, or a label declared legal."""
    from hypothesis import given, settings, strategies as st, HealthCheck
    problems = []
    @settings(max_examples=3, derandomize=True, deadline=None, database=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def run(data):
        for arg, label, kw, names in relational_battery(case, data):
            if label in case.legal.get(arg, ()): continue
            with warnings.catch_warnings():
                warnings.simplefilter('ignore')
                try: call(case, kw)
                except (ValueError, TypeError) as e:
                    if not any(n in str(e) for n in names): problems.append(f'{arg}={label}: message names none of {sorted(names)}: {str(e)[:160]!r}')
                    continue
                except Exception as e: problems.append(f'{arg}={label}: raw {type(e).__name__}: {str(e)[:160]!r}'); continue
            problems.append(f'{arg}={label}: accepted silently')
    run()
    assert not problems, f'{case.name}:\n  ' + '\n  '.join(sorted(set(problems)))

@pytest.mark.parametrize('fam,est', ESTS, ids=[f'{f}:{e.name}' for f, e in ESTS])
def test_estimator_rejects_data_of_another_width(fam, est):
    "A fitted estimator called on data with another number of features (fitted on other data) raises a clear error."
    args, kwargs = est.fit_args()
    X = args[0] if args else None
    if not est.methods or not hasattr(X, 'shape') or getattr(X, 'ndim', 0) != 2 or X.shape[1] < 2: pytest.skip('no 2-d feature input')
    e = est.make().fit(*args, **kwargs)
    for m in est.methods:
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try: getattr(e, m)(X[:, :-1])
            except (ValueError, TypeError) as err:
                assert any(w in str(err) for w in ('feature', 'column', 'width', 'shape', 'fitted', 'dimension', 'd_in', 'length')), f'{est.name}.{m}: unclear message {str(err)[:160]!r}'
                continue
            except Exception as err: pytest.fail(f'{est.name}.{m}: raw {type(err).__name__} on data of another width: {str(err)[:160]!r}')
            pytest.fail(f'{est.name}.{m}: accepted data with {X.shape[1] - 1} features after fitting on {X.shape[1]}')
