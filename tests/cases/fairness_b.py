"Contract cases for trustnb.fairness.coresets and trustnb.fairness.collective_action (notebooks 62 and 64)."
import numpy as np
from contract import Case, Est
from trustnb.fairness import coresets as CS

_X, _c = CS.make_fair_blobs(n=40, k=2, seed=0)
_o = CS.WeakStrongOracle(_X, seed=0)
_C = _X[:2].copy()
_B = CS.proportional_bounds(_c, 0.2)
_D = np.abs(np.random.default_rng(0).standard_normal((40, 2)))
_w = np.random.default_rng(1).uniform(0.5, 2.0, 40)

CASES = [
    Case(CS.proportional_bounds, dict(colors=_c, slack=0.1), kinds=dict(colors='labels', slack='prob')),
    Case(CS.fair_assignment_cost, dict(dist=_D, colors=_c, bounds=_B, weights=_w), kinds=dict(colors='labels', weights='positive')),
    Case(CS.fair_kmedian_cost, dict(X=_X, colors=_c, centers=_C, bounds=_B, weights=_w), kinds=dict(colors='labels', weights='positive')),
    Case(CS.WeakStrongOracle, dict(X=_X, corrupt_rate=0.1, low=0.1, high=10.0, seed=0), kinds=dict(corrupt_rate='prob', low='positive', high='positive'),
         then=lambda o: (o.weak(np.arange(3), _C), o.strong(np.arange(3), _C))),
    Case(CS.make_fair_blobs, dict(n=30, k=2, d=2, seed=0), kinds=dict(n='count', k='count', d='count')),
    Case(CS.fair_kmedian_coreset, dict(X=_X, colors=_c, k=2, oracle=_o, size=10, n_pilot=5, distances='strong', seed=0),
         kinds=dict(colors='labels', k='count', size='count', n_pilot='count'), then=lambda S: S.cost(_C, _B, _o)),
    Case(CS.coreset_experiment, dict(sizes=(10,), seeds=(0,), n=40, k=2, n_centers=2, slack=0.2, corrupt_rate=0.1, n_pilot=5),
         kinds=dict(n='count', k='count', n_centers='count', slack='prob', corrupt_rate='prob', n_pilot='count')),
]
ESTIMATORS = []
EXEMPT = {
    'trustnb.fairness.coresets.coreset_claim': 'the registered reproduction (3 seeds x 20 LPs on n=2000, ~15 s); its computation is the coreset_experiment Case',
}
