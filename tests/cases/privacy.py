"Contract cases for chapter 4, privacy (trustnb.privacy.*): every export with one tiny valid call."
import numpy as np
from contract import Case, Est
from trustnb.privacy import accounting as A, label_dp as L, balanced_subsampling as B, dp_fl as D

_NAME = ('name',)  # the argument-name parameter of a check is a label set by library code, not user data
_SEED = dict(seed='nonneg')
_rng = np.random.default_rng(0)

# --- accounting ---------------------------------------------------------------------------------------------------
_G, _LAP = A.GaussianMechanism(1.0), A.LaplaceMechanism(1.0)
_ACC = A.Accountant(discretization=1e-2).step(A.GaussianMechanism(1.0), 0.1, 3)
def _step(mechanism, sampling_rate, count): return A.Accountant(discretization=1e-2).step(mechanism, sampling_rate, count).get_epsilon(1e-5)
_LEGAL_X = dict(x=('empty', 'extra_dim'))  # an empty query or a query of any shape is a valid release (no NaN out)
CASES = [
    Case(A.check_epsilon, dict(epsilon=1.0, name='epsilon'), kinds=dict(epsilon='positive'), skip=_NAME),
    Case(A.check_delta, dict(delta=1e-5, name='delta'), kinds=dict(delta='prob'), skip=_NAME),
    Case(A.check_sampling_rate, dict(sampling_rate=0.5, name='sampling_rate'), kinds=dict(sampling_rate='prob'), skip=_NAME),
    Case(A.check_noise_multiplier, dict(noise_multiplier=1.0, name='noise_multiplier'), kinds=dict(noise_multiplier='positive'), skip=_NAME),
    Case(A.ApproxDpEvent, dict(epsilon=1.0, delta=1e-6), kinds=dict(epsilon='positive', delta='prob')),
    Case(A.GaussianMechanism, dict(sigma=1.0, sensitivity=2.0), kinds=dict(sigma='positive', sensitivity='positive'), then=lambda m: m(np.zeros(3), seed=0)),
    Case(A.GaussianMechanism.from_noise_multiplier, dict(noise_multiplier=1.5, sensitivity=2.0), kinds=dict(noise_multiplier='positive', sensitivity='positive'),
         then=lambda m: m.sigma, id='GaussianMechanism.from_noise_multiplier'),
    Case(_G.__call__, dict(x=np.zeros(3), seed=0), kinds=_SEED, legal=_LEGAL_X, id='GaussianMechanism.__call__'),
    Case(_G.guarantee, dict(delta=1e-5, method='pld', neighboring='add_remove'), kinds=dict(delta='prob'), id='Mechanism.guarantee'),
    Case(A.LaplaceMechanism, dict(scale=2.0, sensitivity=1.0), kinds=dict(scale='positive', sensitivity='positive'), then=lambda m: m(np.zeros(3), seed=0)),
    Case(_LAP.__call__, dict(x=np.zeros(3), seed=0), kinds=_SEED, legal=_LEGAL_X, id='LaplaceMechanism.__call__'),
    Case(A.Accountant, dict(method='pld', neighboring='add_remove', discretization=1e-2, max_grid_points=100_000), kinds=dict(discretization='positive', max_grid_points='count'),
         then=lambda a: a.step(_G, 0.1, 3).get_epsilon(1e-5)),
    Case(A.Accountant, dict(method='rdp', neighboring='replace', orders=np.array([2., 4., 8.])), then=lambda a: a.step(_G, 1.0, 3).get_epsilon(1e-5),
         id='Accountant(rdp, orders)'),
    Case(_step, dict(mechanism=_G, sampling_rate=0.1, count=3), kinds=dict(sampling_rate='prob', count='count'), id='Accountant.step'),
    Case(_ACC.get_epsilon, dict(delta=1e-5), kinds=dict(delta='prob'), id='Accountant.get_epsilon'),
    Case(_ACC.get_delta, dict(epsilon=1.0), kinds=dict(epsilon='positive'), id='Accountant.get_delta'),
    Case(A.epsilon_poisson_gaussian, dict(noise_multiplier=1.0, sampling_rate=0.1, steps=5, delta=1e-5, method='pld', neighboring='add_remove', discretization=1e-2),
         kinds=dict(noise_multiplier='positive', sampling_rate='prob', steps='count', delta='prob', discretization='positive')),
    Case(A.gaussian_noise_multiplier, dict(epsilon=1.0, delta=1e-5, steps=1, sampling_rate=1.0, accountant='pld', tol=1e-3),
         kinds=dict(epsilon='positive', delta='prob', steps='count', sampling_rate='prob', tol='positive')),
    Case(A.rdp_poisson_gaussian, dict(noise_multiplier=1.0, sampling_rate=0.01, orders=np.array([2., 4.])),
         kinds=dict(noise_multiplier='positive', sampling_rate='prob')),
    Case(A.rdp_to_epsilon, dict(orders=np.array([2., 4.]), rdp=np.array([0.1, 0.3]), delta=1e-5), kinds=dict(delta='prob')),
    Case(A.delta_poisson_gaussian_1step, dict(noise_multiplier=1.0, sampling_rate=0.1, epsilon=1.0),
         kinds=dict(noise_multiplier='positive', sampling_rate='prob', epsilon='positive')),
    Case(A.epsilon_from_delta_fn, dict(delta_fn=lambda e: A.delta_poisson_gaussian_1step(1.0, 0.1, e), delta=1e-5, hi=100.0),
         kinds=dict(delta='prob', hi='positive')),
    Case(A.delta_poisson_gaussian_mc, dict(noise_multiplier=1.0, sampling_rate=0.1, steps=2, epsilon=1.0, n_mc=200, seed=0),
         kinds=dict(noise_multiplier='positive', sampling_rate='prob', steps='count', epsilon='positive', n_mc='count', **_SEED)),
    Case(A.parity_claim, dict(seed=0, sham=False, n_settings=1, delta=1e-5, discretization=1e-2),
         kinds=dict(seed='nonneg', n_settings='count', delta='prob', discretization='positive')),
]
ESTIMATORS = []
EXEMPT = {'trustnb.privacy.accounting.Mechanism': 'abstract base class (interface only); every concrete mechanism (Gaussian, Laplace, label RR) is covered'}

# --- label DP -----------------------------------------------------------------------------------------------------
_XL = _rng.normal(size=(60, 2)); _XD = np.c_[np.ones(60), _XL]; _B = np.array([-0.5, 1.0, -1.0])
_yL = (_rng.random(60) < 1 / (1 + np.exp(-_XD @ _B))).astype(int)
_RR = L.LabelRandomizedResponse(epsilon=2.0); _yT = _RR(_yL, seed=1)
_FIT = L.RRBinaryRegression(mechanism=_RR).fit(_XL, _yT)
CASES += [
    Case(L.rr_epsilon, dict(p0=0.2, p1=0.8, delta=0.0), kinds=dict(p0='prob', p1='prob', delta='prob')),
    Case(L.rr_vertex, dict(epsilon=1.0, delta=0.0), kinds=dict(epsilon='positive', delta='prob')),
    Case(L.rr_corners, dict(epsilon=1.0, delta=0.05), kinds=dict(epsilon='positive', delta='prob')),
    Case(L.fisher_information, dict(X=_XD, beta=_B, p0=0.2, p1=0.8, link='logit'), kinds=dict(p0='prob', p1='prob')),
    Case(L.optimal_rr_probs, dict(X=_XD, beta_pilot=_B, epsilon=1.0, delta=0.05, link='logit'), kinds=dict(epsilon='positive', delta='prob')),
    Case(L.LabelRandomizedResponse, dict(epsilon=1.0, delta=0.01), kinds=dict(epsilon='positive', delta='prob'), then=lambda m: m(_yL, seed=0)),
    Case(L.LabelRandomizedResponse, dict(p0=0.2, p1=0.8, delta=0.0), kinds=dict(p0='prob', p1='prob', delta='prob'), then=lambda m: m.guarantee(1e-6),
         id='LabelRandomizedResponse(p0, p1)'),
    Case(_RR.__call__, dict(y=_yL, seed=0), kinds=dict(y='labels', **_SEED), id='LabelRandomizedResponse.__call__'),
    Case(L.RRBinaryRegression, dict(mechanism=_RR, link='logit', fit_intercept=True, max_iter=50, tol=1e-8),
         kinds=dict(max_iter='count', tol='positive'), then=lambda m: m.fit(_XL, _yT).predict_proba(_XL)),
    Case(L.RRBinaryRegression().fit, dict(X=_XL, y_tilde=_yT), kinds=dict(y_tilde='labels'), then=lambda m: m.params_, id='RRBinaryRegression.fit'),
    Case(_FIT.predict_proba, dict(X=_XL), id='RRBinaryRegression.predict_proba'),
    Case(_FIT.conf_int, dict(alpha=0.05), kinds=dict(alpha='prob'), id='RRBinaryRegression.conf_int'),
    Case(L.simulate_binary, dict(n=20, beta=_B, link='logit', seed=0), kinds=dict(n='count', **_SEED)),
    Case(L.coverage_experiment, dict(n=60, reps=2, epsilon=1.0, delta=0.0, beta=_B, link='logit', alpha=0.05, seed=0),
         kinds=dict(n='count', reps='count', epsilon='positive', delta='prob', alpha='prob', **_SEED)),
    Case(L.label_dp_claim, dict(seed=0, sham=False, reps=2, n=60, epsilon=1.0), kinds=dict(reps='count', n='count', epsilon='positive', **_SEED)),
    Case(L.credit_experiment, dict(epsilon=1.0, reps=1, seed=0), kinds=dict(epsilon='positive', reps='count', **_SEED)),
]
ESTIMATORS += [Est(make=lambda: L.RRBinaryRegression(mechanism=_RR), fit_args=lambda: ((_XL, _yT), {}), methods=('predict', 'predict_proba'),
                   compare='predict_proba')]

# --- balanced iteration subsampling --------------------------------------------------------------------------------
_BA = B.BalancedAccountant(n_mc=200).step(A.GaussianMechanism(2.0), T=4, k=1, count=1)
def _bstep(mechanism, T, k, count, sampling_rate): return B.BalancedAccountant(n_mc=200).step(mechanism, T, k, count, sampling_rate).get_epsilon(0.05)
CASES += [
    Case(B.balanced_schedule, dict(n=10, T=5, k=2, seed=0), kinds=dict(n='count', T='count', k='count', **_SEED)),
    Case(B.BalancedIterationSampler, dict(n=10, T=5, k=2, seed=0), kinds=dict(n='count', T='count', k='count', **_SEED), then=lambda s: list(s)),
    Case(B.PoissonSampler, dict(n=10, sampling_rate=0.3, T=5, seed=0), kinds=dict(n='count', sampling_rate='prob', T='count', **_SEED), then=lambda s: list(s)),
    Case(B.BalancedAccountant, dict(n_mc=200, seed=0, z=2.0), kinds=dict(n_mc='count', z='nonneg', **_SEED),
         then=lambda a: a.step(A.GaussianMechanism(2.0), T=4).get_epsilon(0.05)),
    Case(_bstep, dict(mechanism=A.GaussianMechanism(2.0), T=4, k=1, count=1, sampling_rate=0.5),
         kinds=dict(T='count', k='count', count='count', sampling_rate='prob'), id='BalancedAccountant.step'),
    Case(_BA.get_epsilon, dict(delta=0.05), kinds=dict(delta='prob'), id='BalancedAccountant.get_epsilon'),
    Case(_BA.get_delta, dict(epsilon=2.0), kinds=dict(epsilon='positive'), id='BalancedAccountant.get_delta'),
    Case(B.epsilon_balanced, dict(noise_multiplier=2.0, T=4, k=1, delta=0.05, epochs=1, n_mc=200, seed=0, z=2.0),
         kinds=dict(noise_multiplier='positive', T='count', k='count', delta='prob', epochs='count', n_mc='count', z='nonneg', **_SEED)),
    Case(B.epsilon_model_partition, dict(noise_multiplier=2.0, m=4, rounds=2, delta=0.05, sampling_rate=0.5, n_mc=200, seed=0, z=2.0),
         kinds=dict(noise_multiplier='positive', m='count', rounds='count', delta='prob', sampling_rate='prob', n_mc='count', z='nonneg', **_SEED)),
    Case(B.balanced_vs_poisson, dict(noise_multipliers=np.array([1.0, 2.0]), T=4, k=1, epochs=1, delta=0.05, n_mc=200, seed=0),
         kinds=dict(T='count', k='count', epochs='count', delta='prob', n_mc='count', **_SEED)),
    Case(B.dp_sgd_digits, dict(sampler='balanced', noise_multiplier=0.8, epochs=1, steps_per_epoch=2, lr=2.0, clip=1.0, seed=0),
         kinds=dict(noise_multiplier='positive', epochs='count', steps_per_epoch='count', lr='positive', clip='positive', **_SEED)),
]
EXEMPT['trustnb.privacy.balanced_subsampling.balanced_claim'] = 'the registered reproduction: epsilon_balanced and epsilon_poisson_gaussian (covered) at a drawn T and three drawn noise levels; seed/n_mc validated up front'

# --- DP federated learning -----------------------------------------------------------------------------------------
_P = D.make_federated_logreg(n_clients=2, n_per_client=20, d=3, seed=0)
CASES += [
    Case(D.chain_sensitivity, dict(beta=0.5, K=3), kinds=dict(beta='prob', K='count')),
    Case(D.chain_variance, dict(beta=0.5, K=3), kinds=dict(beta='prob', K='count')),
    Case(D.optimal_beta, dict(K=3, grid=11), kinds=dict(K='count', grid='count')),
    Case(D.dp_fl_epsilon, dict(sigma=1.0, sensitivity=0.2, delta=1e-5, method='pld', discretization=1e-3),
         kinds=dict(sigma='positive', sensitivity='positive', delta='prob', discretization='positive')),
    Case(D.FederatedProblem, dict(Xs=_P.Xs, ys=_P.ys, weight_decay=1e-3, F_star=0.5), kinds=dict(weight_decay='nonneg'), then=lambda p: p.loss(np.zeros(3))),
    Case(_P.loss, dict(w=np.zeros(3)), id='FederatedProblem.loss'),
    Case(D.make_federated_logreg, dict(n_clients=2, n_per_client=20, d=3, het=1.0, weight_decay=1e-3, seed=0),
         kinds=dict(n_clients='count', n_per_client='count', d='count', het='nonneg', weight_decay='nonneg', **_SEED)),
    Case(D.run_dp_fl, dict(problem=_P, method='nc', T=3, sampling_rate=0.5, epsilon=1.0, delta=1e-5, lr=0.1, batch_size=2, clip=1.0, beta=0.5, seed=0),
         kinds=dict(T='count', sampling_rate='prob', epsilon='positive', delta='prob', lr='positive', batch_size='count', clip='positive', beta='prob', **_SEED)),
]
EXEMPT.update({
    'trustnb.privacy.dp_fl.calibrate_sigma': 'deprecated alias (one release) of gaussian_noise_multiplier(epsilon, delta) * sensitivity, both covered; it warns',
    'trustnb.privacy.dp_fl.dp_fl_claim': 'the registered reproduction: run_dp_fl (covered above) over 4 schemes x 5 runs x 300 rounds on a drawn problem; its seed/epsilon/T/n_runs are validated up front',
})
