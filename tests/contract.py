"""The cross-library API contract, as data: each family lists its exported callables with one *valid* tiny call
(`Case`) and its estimators (`Est`). `test_api_contract.py` then

- walks every `Case` with a generated battery of bad inputs (NaN, inf, wrong type, empty, wrong rank, out of range,
  unknown option) and requires a `ValueError`/`TypeError` that names the argument — no NaN result, no raw
  torch/numpy error, no silent success (a mutation that is legal for an argument is listed in `legal`);
- checks that the valid call leaves the global numpy/torch/python RNG state untouched;
- clones, refits and compares every `Est`, and checks `NotFittedError` before `fit`;
- requires every name a module exports to be covered by a `Case`/`Est` or exempted with a reason.

A family's file is `tests/cases/<family>.py` (or several: `<family>_a.py`, ...) with module-level `CASES`,
`ESTIMATORS`, `EXEMPT` ({qualified name: reason}) and optionally `COVERS` (callables exercised through a wrapper).
"""
from __future__ import annotations
import math, random, numbers
from dataclasses import dataclass, field
from typing import Any, Callable
import numpy as np
import torch

@dataclass
class Case:
    "One exported callable and a valid call of it."
    fn: Callable  # the exported function, or a class (called as a constructor)
    kwargs: dict  # a valid call, by keyword (keep it tiny: the battery calls it ~5x per argument)
    kinds: dict = field(default_factory=dict)  # arg -> extra battery: 'positive' (0, -1), 'nonneg' (-1), 'prob' (-0.1, 1.1), 'count' (0, -1), 'labels' (-1, 2.5, 10**6)
    legal: dict = field(default_factory=dict)  # arg -> battery labels that are legal (no error expected)
    skip: tuple = ()  # args the battery leaves alone (e.g. a callback, a free-form dict), with the reason in a comment
    then: Callable | None = None  # optional: a function of the result, the real call (e.g. lambda est: est.fit(X, y))
    id: str = ''  # test id (default: the callable's qualified name)
    rng_free: bool = True  # the valid call must leave global RNG state as it was
    nan_passthrough: bool = False  # a conversion: NaN in -> NaN out is its contract (not a computed NaN)

    @property
    def name(self):
        f = self.fn; q = getattr(f, '__qualname__', None) or type(f).__qualname__
        return self.id or f'{getattr(f, "__module__", "?")}.{q}'

@dataclass
class Est:
    "An estimator: how to build it unfitted, and a valid fit."
    make: Callable  # () -> unfitted estimator
    fit_args: Callable  # () -> (args tuple, kwargs dict) for fit
    methods: tuple = ()  # methods that must raise NotFittedError before fit, called as m(*fit_args[0][:1])
    compare: str | None = None  # a method whose output two seeded fits must reproduce exactly (e.g. 'predict')
    id: str = ''

    @property
    def name(self):
        if self.id: return self.id
        try: e = self.make()
        except Exception as x: return f'<Est whose make() fails: {x}>'
        return f'{type(e).__module__}.{type(e).__qualname__}'

class _Opaque:  # a wrong-typed argument that is not a number, array, string or callable
    def __repr__(self): return '<opaque object>'

def _with_nan(a, val):
    b = a.clone() if isinstance(a, torch.Tensor) else np.array(a, dtype=float, copy=True)
    if isinstance(b, torch.Tensor): b = b.float() if not b.is_floating_point() else b
    b.reshape(-1)[0] = val
    return b

def battery(value, kind: str | None = None) -> list:
    "Bad versions of `value` as (label, bad value) pairs."
    out = []
    if isinstance(value, bool) or value is None: return out
    if isinstance(value, numbers.Real):
        out += [('nan', float('nan')), ('inf', float('inf')), ('str', 'x')]
        if isinstance(value, numbers.Integral): out += [('fractional', value + 0.5)]
    elif isinstance(value, (np.ndarray, torch.Tensor)):
        arr = value
        if arr.ndim >= 1 and arr.shape[0] > 0:
            if (arr.dtype.is_floating_point if isinstance(arr, torch.Tensor) else np.issubdtype(arr.dtype, np.floating)):
                out += [('nan', _with_nan(arr, float('nan'))), ('inf', _with_nan(arr, float('inf')))]
            out += [('empty', arr[:0]), ('extra_dim', arr[None])]
        out += [('str', 'x')]
    elif isinstance(value, str):
        out += [('unknown_option', '__no_such_option__')]
    elif isinstance(value, (list, tuple)):
        if len(value): out += [('empty', type(value)())]
    if not isinstance(value, (str, numbers.Real)): out += [('opaque', _Opaque())]
    if kind in ('positive', 'count'): out += [('zero', 0), ('negative', -1)]
    if kind == 'nonneg': out += [('negative', -1)]
    if kind == 'prob': out += [('below_0', -0.1), ('above_1', 1.1)]
    if kind == 'labels' and isinstance(value, (np.ndarray, torch.Tensor)):
        a = np.array(value, copy=True); out += [('negative_label', np.r_[a[:-1], -1]), ('fractional_label', np.r_[a[:-1].astype(float), 0.5]),
                                               ('unknown_label', np.r_[a[:-1], 10**6])]
    return out

def has_nan(x, depth=0) -> bool:
    "True if a result holds NaN anywhere (numbers, arrays, tensors, dataclasses, dicts, lists)."
    if depth > 4: return False
    if isinstance(x, bool): return False
    if isinstance(x, numbers.Real): return isinstance(x, float) and math.isnan(x) or (isinstance(x, np.floating) and np.isnan(x))
    if isinstance(x, torch.Tensor): return bool(x.is_floating_point() and torch.isnan(x).any())
    if isinstance(x, np.ndarray): return bool(np.issubdtype(x.dtype, np.floating) and np.isnan(x).any())
    if isinstance(x, dict): return any(has_nan(v, depth + 1) for v in list(x.values())[:50])
    if isinstance(x, (list, tuple)): return any(has_nan(v, depth + 1) for v in list(x)[:50])
    if hasattr(x, '__dataclass_fields__'): return any(has_nan(getattr(x, f, None), depth + 1) for f in x.__dataclass_fields__)
    return False

def rng_state():
    return (torch.random.get_rng_state().clone(), np.random.get_state()[1].copy(), np.random.get_state()[2], random.getstate())

def same_rng(a, b) -> bool:
    return torch.equal(a[0], b[0]) and np.array_equal(a[1], b[1]) and a[2] == b[2] and a[3] == b[3]

def call(case: Case, kwargs: dict):
    out = case.fn(**kwargs)
    return case.then(out) if case.then is not None else out
