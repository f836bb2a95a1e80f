"""Property tests for `trustnb.explain.responsiveness` and `trustnb.explain.brace` on random instances.

Every 'proved_none' / fixed answer is checked against an independent brute-force enumeration of the action set's
definition, on random models (linear, trees, MLPs; labels other than 0/1), random action sets (steps, directions,
max_change, one-hot groups, links, immutables) and random applicants, including applicants outside the data range."""
import itertools, warnings
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from sklearn.linear_model import LogisticRegression
from sklearn.neural_network import MLPClassifier
from sklearn.tree import DecisionTreeClassifier
from trustnb.data import SCM, make_scm
from trustnb.explain.responsiveness import (ActionSet, ActionRecourse, LinearModel, certify_recourse, responsiveness_score,
                                            responsive_explanation, responsiveness_scores, reachable_set)
from trustnb.explain.brace import BRACE, Wachter, RandomSearch, implied_noise_change

# ---------------------------------------------------------------------------------------------------------------
# brute force, written from the definition (not from the library's code)

def _column_values(a, x, j):
    "Every value column j can take by a direct action (the current value included)."
    s = a.step[j]; lo, hi = a.lb[j], a.ub[j]
    if a.monotone[j] > 0: lo = x[j]
    if a.monotone[j] < 0: hi = x[j]
    lo, hi = max(lo, x[j] - a.max_change[j]), min(hi, x[j] + a.max_change[j])
    ks = range(int(np.floor((lo - x[j]) / s)) - 1, int(np.ceil((hi - x[j]) / s)) + 2)
    vals = [x[j] + k * s for k in ks if lo - 1e-9 <= x[j] + k * s <= hi + 1e-9 and k != 0]
    return [x[j]] + vals

def _options(a, x):
    "Per unit: the list of (columns, new values) choices, the first one being 'leave it'."
    grouped = {c for g in a.groups.values() for c in g}; out = []
    for j in range(a.d):
        if a.actionable[j] and j not in grouped: out.append([(j, v) for v in _column_values(a, x, j)])
    for g, cols in a.groups.items():
        if a.actionable[cols].all(): out.append([(tuple(cols), tuple(x[cols]))] + [(tuple(cols), tuple(np.eye(len(cols))[i])) for i in range(len(cols))])
    return out

def _realise(a, x, choice):
    "The point one combination of unit choices leads to, or None when a column an action can move leaves [lb, ub]."
    y = x.copy()
    for cols, v in choice:
        if isinstance(cols, tuple): y[list(cols)] = v; continue
        delta = v - x[cols]; y[cols] += delta
        for k, s in a.links.get(cols, []): y[k] += s * delta
    movable = {j for j in range(a.d) if a.actionable[j]} | {k for j in range(a.d) if a.actionable[j] for k, _ in a.links.get(j, [])}
    if any(not a.lb[c] - 1e-9 <= y[c] <= a.ub[c] + 1e-9 for c in movable): return None
    return y

def brute_joint(model, x, a, target):
    pts = [p for p in (_realise(a, x, c) for c in itertools.product(*_options(a, x))) if p is not None]
    return bool(len(pts)) and bool((np.asarray(model.predict(np.array(pts))) == target).any())

def brute_unit(model, x, a, unit, target):
    "Does one intervention on `unit` alone (not the null action) reach the target?"
    units = a.units; i = units.index(unit)
    grouped = {c for g in a.groups.values() for c in g}
    if unit in a.groups: cols = a.groups[unit]
    else: cols = [a.names.index(unit)]
    if not a.actionable[cols].all(): return False
    if unit in a.groups: choices = [[(tuple(cols), tuple(np.eye(len(cols))[k]))] for k in range(len(cols)) if not np.array_equal(np.eye(len(cols))[k], x[cols])]
    else: choices = [[(cols[0], v)] for v in _column_values(a, x, cols[0])[1:]]
    # only this unit's movable columns are checked (its own and its links)
    pts = []
    for c in choices:
        y = x.copy()
        for cc, v in c:
            if isinstance(cc, tuple): y[list(cc)] = v
            else:
                y[cc] = v
                for k, s in a.links.get(cc, []): y[k] += s * (v - x[cc])
        mv = cols + [k for j in cols for k, _ in a.links.get(j, [])]
        if all(a.lb[m] - 1e-9 <= y[m] <= a.ub[m] + 1e-9 for m in mv): pts.append(y)
    return bool(len(pts)) and bool((np.asarray(model.predict(np.array(pts))) == target).any())

# ---------------------------------------------------------------------------------------------------------------
# random instances

def random_instance(seed, with_group=True):
    "Data, an action set (random steps/directions/caps/immutables, a one-hot group, a link), and names."
    rng = np.random.default_rng(seed); n, p = 40, int(rng.integers(2, 5))
    steps = rng.choice([0.5, 1.0, 2.0], p)
    Xc = rng.integers(0, 6, (n, p)) * steps
    names = [f'c{i}' for i in range(p)]
    X = Xc
    groups = {}
    if with_group:
        X = np.c_[Xc, np.eye(3)[rng.integers(0, 3, n)]]; names += ['g=a', 'g=b', 'g=c']; groups = {'g': ['g=a', 'g=b', 'g=c']}
    immutable = [names[i] for i in range(p) if rng.random() < 0.3]
    mono = {names[i]: int(rng.integers(-1, 2)) for i in range(p)}
    cap = {names[i]: float(rng.choice([1, 2, 3]) * steps[i]) for i in range(p) if rng.random() < 0.4}
    links = {}
    src = [i for i in range(p) if names[i] not in immutable]
    if len(src) and p >= 2 and rng.random() < 0.8:
        j = int(rng.choice(src)); k = int(rng.choice([i for i in range(p) if i != j]))
        links = {names[j]: [(names[k], float(rng.choice([-1.0, -0.5, 0.5, 1.0])))]}
        if names[k] in links: links = {}
    a = ActionSet.from_data(X, names, immutable=immutable, step={names[i]: float(steps[i]) for i in range(p)}, monotone=mono,
                            max_change=cap, groups=groups, links=links)
    return rng, X.astype(float), a

def random_model(kind, rng, X, labels=(0, 1)):
    "A random classifier on X: linear (w, b) / LogisticRegression on other labels, a small tree, a small MLP."
    d = X.shape[1]
    if kind == 'linear': return LinearModel(rng.standard_normal(d), float(rng.standard_normal() * 3))
    w = rng.standard_normal(d); z = (X - X.mean(0)) @ w + rng.standard_normal(len(X))
    y = np.where(z > np.quantile(z, rng.uniform(0.3, 0.7)), labels[1], labels[0])
    if len(set(y)) < 2: y[:2] = labels
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        if kind == 'logreg': return LogisticRegression(C=10, max_iter=500).fit(X, y)
        if kind == 'tree': return DecisionTreeClassifier(max_depth=4, random_state=int(rng.integers(1000))).fit(X, y)
        return MLPClassifier((6,), max_iter=200, random_state=int(rng.integers(1000))).fit(X, y)

def applicants(rng, X, a, k=4):
    "Rows of X plus rows pushed outside the data range (immutable columns far out, or any column out)."
    out = [X[i].copy() for i in rng.choice(len(X), k, replace=False)]
    for _ in range(k):
        x = X[rng.integers(len(X))].copy(); imm = np.flatnonzero(~a.actionable)
        if len(imm): x[rng.choice(imm)] += rng.choice([-1, 1]) * 100  # older than anyone in the data
        out.append(x)
    x = X[rng.integers(len(X))].copy(); j = int(rng.integers(len(x))); x[j] = a.ub[j] + 5; out.append(x)  # any column out of range
    return out

OUTSIDE = "outside what the action set describes"

def _check_joint(model, x, a, target, methods):
    truth = None
    for method in methods:
        try: r = certify_recourse(model, x, a, target=target, method=method)
        except ValueError as e:
            assert OUTSIDE in str(e), str(e); continue
        if truth is None: truth = brute_joint(model, x, a, target)
        if r.status == 'proved_none': assert not truth, f'{method}: false certificate at {x}'
        if r.status == 'found':
            assert model.predict(r.x_cf[None])[0] == target
            assert _realise_point_ok(a, x, r.x_cf)
        if method == 'enumerate': assert r.status == ('found' if truth else 'proved_none')
        if method == 'milp': assert r.status in (('found',) if truth else ('proved_none', 'not_found'))
        if method == 'sample': assert r.status in ('found', 'not_found')

def _realise_point_ok(a, x, y):
    "A witness lies in the domain on every column an action can move and leaves the others unchanged."
    movable = {j for j in range(a.d) if a.actionable[j]} | {k for j in range(a.d) if a.actionable[j] for k, _ in a.links.get(j, [])}
    return all((a.lb[c] - 1e-6 <= y[c] <= a.ub[c] + 1e-6) if c in movable else y[c] == x[c] for c in range(a.d))

@pytest.mark.parametrize('seed', range(16))
@pytest.mark.parametrize('kind', ['linear', 'logreg', 'tree', 'mlp'])
def test_certificates_match_brute_force(seed, kind):
    rng, X, a = random_instance(seed, with_group=seed % 3 != 0)
    labels = (0, 1) if kind == 'linear' else [(0, 1), (3, 7), ('deny', 'approve')][seed % 3]
    model = random_model(kind, rng, X, labels)
    linear = kind in ('linear', 'logreg')
    for x in applicants(rng, X, a):
        for target in labels:
            _check_joint(model, x, a, target, ['enumerate', 'milp', 'sample'] if linear else ['enumerate', 'sample'])

@pytest.mark.parametrize('seed', range(12))
@pytest.mark.parametrize('kind', ['linear', 'tree'])
def test_unit_scores_match_brute_force(seed, kind):
    rng, X, a = random_instance(100 + seed)
    model = random_model(kind, rng, X)
    for x in applicants(rng, X, a, k=3):
        for target in (0, 1):
            for u in a.units:
                try: r = responsiveness_score(model, x, u, a, target=target)
                except ValueError as e:
                    assert OUTSIDE in str(e), str(e); continue
                truth = brute_unit(model, x, a, u, target)
                assert r.status == ('found' if truth else 'proved_none'), (u, x, r)
                if truth: assert model.predict(r.witness[None])[0] == target
            try: e = responsive_explanation(model, x, a, target=target)
            except ValueError as err:
                assert OUTSIDE in str(err); continue
            if e.status == 'proved_none':
                assert not any(brute_unit(model, x, a, u, target) for u in a.units)

def test_applicant_older_than_the_data_is_certified_soundly():
    "The issue's case: an immutable column outside the data range must not prune anything."
    rng = np.random.default_rng(0)
    X = np.c_[rng.integers(20, 60, 50), rng.integers(0, 10, 50)].astype(float)
    a = ActionSet.from_data(X, ['age', 'income'], immutable=['age'], step={'income': 1})
    m = LinearModel([1.0, 1.0], -75); x = np.array([70., 2.])  # older than anyone in X
    for method in ('enumerate', 'milp', 'auto'):
        r = certify_recourse(m, x, a, method=method)
        assert r.status == 'found' and m.predict(r.x_cf[None])[0] == 1 and r.x_cf[0] == 70
    assert responsiveness_score(m, x, 'income', a).status == 'found'

def test_outside_the_action_set_raises():
    X = np.array([[0., 30], [10, 70]])
    a = ActionSet.from_data(X, ['tenure', 'age'], immutable=['age'], step={'tenure': 1}, links={'tenure': [('age', 1.0)]})
    m = LinearModel([0., 1.], -69)
    for method in ('enumerate', 'milp', 'sample'):  # age is moved by tenure, and lies above the domain
        with pytest.raises(ValueError, match=OUTSIDE): certify_recourse(m, np.array([3., 80]), a, method=method)
    with pytest.raises(ValueError, match=OUTSIDE): certify_recourse(m, np.array([12., 50]), a)  # an actionable column out of range
    g = ActionSet.from_data(np.eye(3), ['a', 'b', 'c'], step=1, groups={'g': ['a', 'b', 'c']})
    with pytest.raises(ValueError, match='one-hot group'): certify_recourse(LinearModel([1., 0, 0], -.5), np.array([.5, .5, 0]), g)

@pytest.mark.parametrize('target', [5, -1, 0.5, 'x', float('nan')])
def test_target_not_a_class_raises_everywhere(target):
    rng, X, a = random_instance(3)
    for model in (random_model('linear', rng, X), random_model('tree', rng, X), random_model('logreg', rng, X, (3, 7))):
        x = X[0]
        for method in ('enumerate', 'milp', 'sample', 'auto'):
            if method == 'milp' and isinstance(model, DecisionTreeClassifier): continue
            with pytest.raises((ValueError, TypeError), match='target'): certify_recourse(model, x, a, target=target, method=method)
        with pytest.raises((ValueError, TypeError), match='target'): responsiveness_score(model, x, a.units[0], a, target=target)
        with pytest.raises((ValueError, TypeError), match='target'): responsiveness_scores(model, X[:2], a, target=target)
        with pytest.raises((ValueError, TypeError), match='target'): responsive_explanation(model, x, a, target=target)
        with pytest.raises((ValueError, TypeError), match='target'): ActionRecourse(model, a).counterfactual(x, target)

def test_milp_with_labels_other_than_0_1():
    "With classes (3, 7) the MILP must maximise the score of the class asked for."
    rng, X, a = random_instance(5)
    m = random_model('logreg', rng, X, (3, 7))
    for x in X[:10]:
        for t in (3, 7):
            e, mm = certify_recourse(m, x, a, target=t, method='enumerate'), certify_recourse(m, x, a, target=t, method='milp')
            assert e.status == mm.status or (mm.status == 'not_found' and abs(mm.best_score) < 1e-6)

def test_links_of_two_units_may_offset():
    "Two units push a linked column in opposite directions: each alone leaves the domain, together they do not."
    X = np.array([[0., 0, 5], [4, 4, 5]])
    a = ActionSet.from_data(X, ['p', 'q', 'z'], immutable=['z'], step={'p': 1, 'q': 1}, monotone={'p': 1, 'q': 1},
                            lb={'z': 4}, ub={'z': 6}, links={'p': [('z', 1.0)], 'q': [('z', -1.0)]})
    m = LinearModel([1., 1., 0.], -5.5)  # needs p + q >= 6 from (0, 0): only jointly, with z kept in [4, 6]
    x = np.array([0., 0., 5.])
    assert brute_joint(m, x, a, 1)
    for method in ('enumerate', 'milp'): assert certify_recourse(m, x, a, method=method).status == 'found'

@settings(max_examples=30, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 10**6), shift=st.floats(-50, 50, allow_nan=False))
def test_hypothesis_no_false_certificate(seed, shift):
    "Random instance, random linear model, an applicant whose immutable columns are shifted by `shift`."
    rng, X, a = random_instance(seed)
    m = random_model('linear', rng, X)
    x = X[rng.integers(len(X))].copy(); x[~a.actionable] += shift
    _check_joint(m, x, a, int(rng.integers(2)), ['enumerate', 'milp'])

# ---------------------------------------------------------------------------------------------------------------
# BRACE

@pytest.mark.parametrize('seed', range(5))
def test_brace_exact_is_optimal_and_matches_gradient(seed):
    rng = np.random.default_rng(seed); scm = make_scm(5, 0.6, seed=seed); sig = rng.uniform(0.3, 1.5, 5)
    X = scm.generate(rng.standard_normal((30, 5)) * sig); w, b = rng.standard_normal(5), 0.0
    X = X[X @ w + b < 0][:10]
    ex = BRACE((w, b), scm, noise_std=sig, fixed=[0], margin=0.05).counterfactual(X)
    gr = BRACE((w, b), scm, noise_std=sig, fixed=[0], solver='gradient').counterfactual(X)
    assert ex.validity == 1.0 and gr.validity == 1.0
    # the exact cost grows as (margin - s0)^2: rescale it to the margin the gradient solution actually reached
    s0, mg = X @ w + b, gr.x_cf @ w + b
    opt = ex.cost * ((mg - s0) / (0.05 - s0))**2
    assert np.all(gr.cost >= opt * (1 - 1e-6)) and np.all(gr.cost <= opt * 1.02)
    du = implied_noise_change(scm, X, ex.x_cf, sig)
    assert np.abs(du[:, 0]).max() < 1e-9  # the fixed exogenous variable never moves


@pytest.mark.parametrize('seed', range(5))
def test_brace_on_empty_graph_is_wachter(seed):
    rng = np.random.default_rng(seed); X = rng.standard_normal((20, 4)); w = rng.standard_normal(4); s = rng.uniform(0.5, 2, 4)
    X = X[X @ w - 0.5 < 0]
    br = BRACE((w, -0.5), SCM(np.zeros((4, 4))), noise_std=s, feature_dist_coeff=float(rng.uniform(0, 2))).counterfactual(X)
    wa = Wachter((w, -0.5), feature_scale=s).counterfactual(X)
    np.testing.assert_allclose(br.x_cf, wa.x_cf, atol=1e-8)

@pytest.mark.parametrize('seed', range(8))
def test_brace_proved_none_is_true(seed):
    "BRACE/Wachter answer 'proved_none' only when no free exogenous/feature direction moves the score (checked by sampling)."
    rng = np.random.default_rng(seed); p = 4; scm = make_scm(p, 0.5, seed=seed)
    w = rng.standard_normal(p); fixed = [int(i) for i in rng.choice(p, int(rng.integers(1, p)), replace=False)]
    if seed % 2: w[[i for i in range(p) if i not in fixed]] = 0.0  # the free features have no weight
    X = scm.sample(20, seed=seed); X = X[X @ w - 0.3 < 0]
    if not len(X): return
    for res, perturb in [(BRACE((w, -0.3), scm, fixed=fixed).counterfactual(X), 'u'), (Wachter((w, -0.3), fixed=fixed).counterfactual(X), 'x')]:
        for i in np.flatnonzero(res.status == 'proved_none'):
            Z = rng.standard_normal((4000, p)) * 10; Z[:, fixed] = 0
            pts = scm.generate(scm.abduct(X[i:i + 1]) + Z) if perturb == 'u' else X[i] + Z
            assert not (pts @ w - 0.3 > 0).any()

def _cyclic_scm():
    s = SCM(np.triu(np.ones((3, 3)), 1) * 0.5); s.adj = s.adj.copy(); s.adj[2, 0] = 0.5; return s

@pytest.mark.parametrize('make,arg', [
    (lambda: BRACE((np.ones(3), 0.), _cyclic_scm()), 'scm'),
    (lambda: BRACE((np.array([1., np.nan, 1.]), 0.), SCM(np.zeros((3, 3)))), 'model'),
    (lambda: BRACE((np.ones(3), 0.), SCM(np.zeros((3, 3))), margin=-0.1), 'margin'),
    (lambda: BRACE((np.ones(3), 0.), SCM(np.zeros((3, 3))), margin=float('nan')), 'margin'),
    (lambda: BRACE((np.ones(3), 0.), SCM(np.zeros((3, 3))), feature_dist_coeff=float('inf')), 'feature_dist_coeff'),
    (lambda: Wachter((np.ones(3), 0.), margin=-1.0), 'margin'),
    (lambda: Wachter((np.array([1., np.inf, 1.]), 0.)), 'model'),
    (lambda: RandomSearch((np.ones(3), float('nan'))), 'model'),
    (lambda: RandomSearch((np.ones(3), 0.), radius=-1.0), 'radius'),
])
def test_brace_rejects_bad_inputs(make, arg):
    with pytest.raises((ValueError, TypeError), match=f'`{arg}`'): make().counterfactual(-np.ones((2, 3)))

def test_brace_rejects_nan_scm_weights():
    s = SCM(np.triu(np.ones((3, 3)), 1) * 0.5); s.adj = s.adj.copy(); s.adj[0, 1] = np.nan
    with pytest.raises(ValueError, match='`scm`'): BRACE((np.ones(3), 0.), s).counterfactual(-np.ones((2, 3)))

def test_brace_accepts_a_dag_in_any_order_only_if_topological():
    "A DAG whose columns are not in topological order is named as such (a permutation exists), a cycle is not a DAG."
    s = SCM(np.triu(np.ones((3, 3)), 1) * 0.5); s.adj = s.adj.T.copy()  # lower triangular: a DAG, reversed order
    with pytest.raises(ValueError, match='topological'): BRACE((np.ones(3), 0.), s).counterfactual(-np.ones((2, 3)))
    with pytest.raises(ValueError, match='cycle'): BRACE((np.ones(3), 0.), _cyclic_scm()).counterfactual(-np.ones((2, 3)))

@pytest.mark.parametrize('scale', [1e-7, 1e-10])
def test_a_tiny_gradient_is_not_a_proof(scale):
    "A small but nonzero weight on a free feature still admits a counterfactual (a large one): never 'proved_none'."
    w = np.array([scale, 0, 0]); X = np.zeros((1, 3))
    for res in (Wachter((w, -0.5), fixed=[1, 2]).counterfactual(X), BRACE((w, -0.5), SCM(np.zeros((3, 3))), fixed=[1, 2]).counterfactual(X)):
        assert res.status[0] != 'proved_none'
        if res.status[0] == 'found': assert res.x_cf[0] @ w - 0.5 > 0

def test_every_status_is_in_the_shared_vocabulary():
    "Recourse, responsiveness and counterfactual results speak trustnb.core's status vocabulary only."
    from trustnb.core import RECOURSE_STATUSES
    rng, X, a = random_instance(7); m = random_model('linear', rng, X)
    seen = set()
    for x in X[:5]:
        for method in ('enumerate', 'milp', 'sample'): seen.add(ActionRecourse(m, a, method=method).counterfactual(x, 1).status)
        seen.add(responsive_explanation(m, x, a).status)
        seen |= set(responsiveness_scores(m, x[None], a).status.ravel())
    scm = make_scm(4, 0.5, seed=1); w = np.array([1.0, 0.0, 0.0, 0.0]); Xb = scm.sample(10, seed=1)
    for E in (BRACE((w, -5.0), scm, fixed=[0]), Wachter((w, -5.0), fixed=[0]), RandomSearch((w, -5.0), fixed=[0], n=50)):
        seen |= set(E.counterfactual(Xb).status)
    assert seen <= set(RECOURSE_STATUSES) and 'proved_none' in seen and 'found' in seen
