"Contract cases for trustnb.fairness.coresets and trustnb.fairness.collective_action (notebooks 62 and 64)."
import numpy as np
from contract import Case, Est
from trustnb.fairness import coresets as CS, collective_action as CA, fdgen as FD
from trustnb.graphs import make_homophilous_graph

_X, _c = CS.make_fair_blobs(n=40, k=2, seed=0)
_o = CS.WeakStrongOracle(_X, seed=0)
_C = _X[:2].copy()
_B = CS.proportional_bounds(_c, 0.2)
_D = np.abs(np.random.default_rng(0).standard_normal((40, 2)))
_w = np.random.default_rng(1).uniform(0.5, 2.0, 40)
_T = CA.make_rating_task(n_attrs=2, n_levels=3, n_labels=3, signal_freq=0.05, seed=0)
_g, _g2 = _T.signal_map((0,)), _T.signal_map((0, 1))
_x, _y = CA.sample_users(_T, 30, seed=0)
_Gr = make_homophilous_graph(n_per_group=10, p_in=0.5, p_out=0.1, d_features=4, seed=0)
_P = np.clip(_Gr.A * 0.6 + 0.05, 0, 1); np.fill_diagonal(_P, 0)
_FD_KW = dict(base='vgae', struct_coeff=1.0, feat_coeff=0.1, hidden=8, n_latents=4, epochs=3, lr=0.01, seed=0)

CASES = [
    Case(CS.proportional_bounds, dict(colors=_c, slack=0.1), kinds=dict(colors='labels', slack='prob')),
    Case(CS.fair_assignment_cost, dict(dist=_D, colors=_c, bounds=_B, weights=_w), kinds=dict(colors='labels', weights='positive')),
    Case(CS.fair_kmedian_cost, dict(X=_X, colors=_c, centers=_C, bounds=_B, weights=_w), kinds=dict(colors='labels', weights='positive')),
    Case(CS.WeakStrongOracle, dict(X=_X, corrupt_rate=0.1, low=0.1, high=10.0, seed=0), kinds=dict(corrupt_rate='prob', low='positive', high='positive'),
         then=lambda o: (o.weak(np.arange(3), _C), o.strong(np.arange(3), _C))),
    Case(CS.make_fair_blobs, dict(n=30, k=2, d=2, seed=0), kinds=dict(n='count', k='count', d='count')),
    Case(CS.fair_kmedian_coreset, dict(X=_X, colors=_c, k=2, oracle=_o, size=10, n_pilot=5, distances='strong', seed=0),
         kinds=dict(colors='labels', k='count', size='count', n_pilot='count'), then=lambda S: S.cost(_C, _B, _o)),
    Case(CS.uniform_coreset, dict(X=_X, colors=_c, size=10, seed=0), kinds=dict(colors='labels', size='count'), then=lambda S: S.cost(_C, _B, _o)),
    Case(CS.coreset_experiment, dict(sizes=(10,), seeds=(0,), n=40, k=2, n_centers=2, slack=0.2, corrupt_rate=0.1, n_pilot=5, n_uniform=1),
         kinds=dict(n='count', k='count', n_centers='count', slack='prob', corrupt_rate='prob', n_pilot='count', n_uniform='count')),
    Case(CA.make_rating_task, dict(n_attrs=2, n_levels=3, n_labels=3, signal_freq=0.05, seed=0),
         kinds=dict(n_attrs='count', n_levels='count', n_labels='count', signal_freq='prob')),
    Case(CA.sample_users, dict(task=_T, n=20, seed=0), kinds=dict(n='count')),
    Case(CA.simulate_planting, dict(task=_T, n=20, N=200, N_test=50, g=_g, y_star=0, seed=0),
         kinds=dict(n='count', N='count', N_test='count', y_star='count'), legal=dict(y_star=('zero',))),
    Case(CA.planting_lower_bound, dict(x=_x, y=_y, N=300, N_test=50, g=_g, y_star=0, n_labels=3, delta=0.05),
         kinds=dict(x='labels', y='labels', N='count', N_test='count', n_labels='count', delta='prob')),
    Case(CA.choose_strategy, dict(x=_x, y=_y, N=300, N_test=50, candidates=[_g, _g2], y_star=0, n_labels=3, delta=0.05),
         kinds=dict(x='labels', y='labels', N='count', N_test='count', n_labels='count', delta='prob')),
    Case(CA.collective_experiment, dict(alphas=(0.1,), task_seeds=(0,), trials=2, N=200, N_test=50, delta=0.05, seed=0, plug_in=False),
         kinds=dict(trials='count', N='count', N_test='count', delta='prob')),
    Case(FD.structural_bias, dict(A=_Gr.A, s=_Gr.s)),
    Case(FD.feature_bias, dict(X=_Gr.X, s=_Gr.s)),
    Case(FD.posthoc_reweight, dict(P=_P, s=_Gr.s)),
    Case(FD.posthoc_center_features, dict(X=_Gr.X, s=_Gr.s)),
    Case(FD.feature_mmd, dict(X_gen=_Gr.X[::-1].copy(), X=_Gr.X)),
    Case(FD.feature_utility, dict(X_gen=_Gr.X + 0.1, X=_Gr.X, s=_Gr.s)),
    # fit's own arguments (the Case above varies the constructor's): a 0/1 adjacency, features and groups of one length
    Case(FD.FairGraphGenerator(**_FD_KW).fit, dict(A=_Gr.A, X=_Gr.X, s=_Gr.s), id='trustnb.fairness.fdgen.FairGraphGenerator.fit'),
    Case(FD.FairGraphGenerator, dict(_FD_KW), then=lambda m: m.fit(_Gr.A, _Gr.X, _Gr.s).sample(seed=0),
         kinds=dict(struct_coeff='nonneg', feat_coeff='nonneg', hidden='count', n_latents='count', epochs='count', lr='positive')),
    Case(FD.fdgen_experiment, dict(graph='latent', seed=0, struct_coeff=1.0, feat_coeff=0.1, epochs=2, n_per_group=10),
         kinds=dict(struct_coeff='nonneg', feat_coeff='nonneg', epochs='count', n_per_group='count')),
]
ESTIMATORS = [
    Est(make=lambda: FD.FairGraphGenerator(**_FD_KW), fit_args=lambda: ((_Gr.A, _Gr.X, _Gr.s), {}), methods=('transform',), compare='transform'),
]
EXEMPT = {
    'trustnb.fairness.fdgen.fdgen_claim': 'the registered reproduction (two 300-node generators trained for 200 epochs, ~10 s); its computation is the fdgen_experiment Case',
    'trustnb.fairness.collective_action.collective_claim': 'the registered reproduction (3 tasks x 5 sizes x 100 trials, ~10 s); its computation is the collective_experiment Case',
    'trustnb.fairness.coresets.coreset_claim': 'the registered reproduction (3 data sets x 20 LPs on n=2000 and 8 samples, ~10 s); its computation is the coreset_experiment Case',
}
