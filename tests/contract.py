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

# ---------------------------------------------------------------- relational bad inputs (issue 24)
# Values that are invalid only in relation to something else: the argument's documented domain (a probability, a 0/1
# mask, a distribution), or a sibling argument whose documented shape shares a symbol ("(n, d)" and "(n,)"). They are
# derived from each parameter's docments comment and annotation, and drawn with hypothesis strategies.
import re as _re
PROB_SCALAR = _re.compile(r'^\s*(a |the )?(probability|significance level|confidence level|quantile level|sampling rate)\b|\bin \[0, ?1\]|\bin \(0, ?1\)', _re.I)
PROB_ARRAY = _re.compile(r'probabilit|\bin \[0, ?1\]', _re.I)
MASK = _re.compile(r'\bmask\b|0/1|\{0, ?1\}|\bbinary\b', _re.I)
DIST = _re.compile(r'sums? to (one|1)|\bdistribution\b|normali[sz]ed', _re.I)
SHAPE = _re.compile(r'\(\s*([A-Za-z_]\w*)\s*(?:,\s*([A-Za-z_]\w*)\s*)?(?:,[^)]*)?\)')
NOT_SHAPE = {'tensor', 'array', 'int', 'float', 'bool', 'str', 'list', 'default', 'optional', 'none', 'the', 'a', 'one', 'e', 'eg', 'i', 'see'}

def param_docs(fn) -> dict:
    "{parameter: docments comment} of a function, or of a class's `__init__`."
    from fastcore.docments import docments
    f = fn.__init__ if isinstance(fn, type) else fn
    try: return {k: (v or '') for k, v in docments(f, full=False).items()}
    except Exception: return {}

def _np(v): return v.detach().cpu().numpy() if isinstance(v, torch.Tensor) else np.asarray(v)
def _like(v, a): return torch.as_tensor(a).to(v.dtype if a.dtype.kind == 'f' and v.is_floating_point() else torch.float32) if isinstance(v, torch.Tensor) else a

def relational_battery(case: Case, data) -> list:
    """(arg, label, bad kwargs, names) for `case`: values outside an argument's documented domain, and shapes that disagree
    with a sibling. `data` is hypothesis' `st.data()`, which draws the bad values; `names` are the arguments an error
    message may name (the argument, or any argument of the shape relation)."""
    from hypothesis import strategies as st
    docs, kw, out = param_docs(case.fn), case.kwargs, []
    for arg, v in kw.items():
        if arg in case.skip: continue
        d = docs.get(arg, '')
        if isinstance(v, numbers.Real) and not isinstance(v, bool) and 0 <= v <= 1 and PROB_SCALAR.search(d) and case.kinds.get(arg) != 'prob':
            bad = data.draw(st.one_of(st.floats(-10, -1e-3), st.floats(1 + 1e-3, 10)), label=f'{arg} outside [0, 1]')
            out.append((arg, 'prob_outside_0_1', {**kw, arg: bad}, {arg}))
        if isinstance(v, (np.ndarray, torch.Tensor)) and _np(v).size and (np.issubdtype(_np(v).dtype, np.number) or _np(v).dtype == bool):
            a = _np(v); i = data.draw(st.integers(0, a.size - 1), label=f'{arg} entry')
            if PROB_ARRAY.search(d) and a.dtype.kind == 'f' and a.min() >= 0 and a.max() <= 1:
                b = a.copy(); b.flat[i] = data.draw(st.one_of(st.floats(-5, -1e-3), st.floats(1 + 1e-3, 5)), label=f'{arg} value'); out.append((arg, 'prob_entry_outside_0_1', {**kw, arg: _like(v, b)}, {arg}))
                if DIST.search(d) and a.ndim >= 1 and np.allclose(a.sum(-1), 1):
                    out.append((arg, 'unnormalised', {**kw, arg: _like(v, a * data.draw(st.floats(1.5, 4), label='scale'))}, {arg}))
            if MASK.search(d) and set(np.unique(a).tolist()) <= {0, 1}:
                b = a.astype(float).copy(); b.flat[i] = data.draw(st.sampled_from([2.0, -1.0, 0.5, 3.0]), label=f'{arg} value')
                out.append((arg, 'mask_entry_not_0_1', {**kw, arg: _like(v, b)}, {arg}))
    syms = {}  # shape symbol -> [(arg, axis, size)] from "(n, d)"-style docments
    for arg, v in kw.items():
        if arg in case.skip or not isinstance(v, (np.ndarray, torch.Tensor)): continue
        m = SHAPE.search(docs.get(arg, ''))
        if m and m.group(1).lower() not in NOT_SHAPE:
            for ax, s in enumerate(g for g in m.groups() if g):
                if ax < v.ndim: syms.setdefault(s, []).append((arg, ax, v.shape[ax]))
    for s, uses in syms.items():
        if len(uses) < 2 or len({n for *_, n in uses}) != 1 or uses[0][2] < 2: continue
        arg, ax, n = data.draw(st.sampled_from(uses), label=f'{s} mismatch')
        cut = data.draw(st.integers(1, n - 1), label='rows dropped'); v = kw[arg]
        idx = [slice(None)] * v.ndim; idx[ax] = slice(0, n - cut)
        # the error may name any argument of the call: a third one can carry the length the others are checked against
        out.append((arg, f'{s}_disagrees_axis{ax}', {**kw, arg: v[tuple(idx)]}, set(kw)))
    return out
