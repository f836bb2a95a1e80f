"Contract cases for trustnb.learn.dap (chapter 9)."
import numpy as np
from contract import Case
from trustnb.learn import dap as DAP

_f = lambda x: float(np.sum(x ** 2))
_x = np.array([1.0, -2.0, 0.5])
CASES = [
    Case(DAP.sample_perturbations, dict(kind='dap', n=4, d=3, direction=np.array([1.0, 2.0, 0.0]), seed=0), kinds=dict(n='count', d='count')),
    Case(DAP.TwoPointEstimator, dict(perturbation='dap', delta=1e-4, n_directions=2, direction='running', beta=0.9),
         kinds=dict(delta='positive', n_directions='count', beta='prob'),
         then=lambda e: [e(_f, _x, seed=s) for s in range(3)][-1]),
    Case(DAP.zo_sgd, dict(f=_f, x0=_x, estimator=DAP.TwoPointEstimator('sphere'), lr=0.05, max_iter=5, seed=0),
         kinds=dict(lr='positive', max_iter='count'), skip=('f',)),  # f: any callable objective
    Case(DAP.quadratic, dict(d=4, cond=10.0, seed=0), kinds=dict(d='count', cond='positive'), then=lambda r: (r(np.ones(4)), r.grad(np.ones(4)))),
    Case(DAP.estimator_table, dict(d=4, n_draws=20, delta=1e-4, seed=0, dap_direction='random'), kinds=dict(d='count', n_draws='count', delta='positive')),
    Case(DAP.zo_sgd_experiment, dict(d=3, max_iter=3, lr=1e-3, n_seeds=1, seed=0), kinds=dict(d='count', max_iter='count', lr='positive', n_seeds='count', seed='nonneg')),
]
EXEMPT = {
    'trustnb.learn.dap.Quadratic': 'the record `quadratic` returns (covered through it, with its call and grad)',
    'trustnb.learn.dap.dap_claim': 'the registered reproduction (runs estimator_table, covered)',
}
