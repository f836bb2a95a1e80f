"Contract cases for chapter 3, part b: explain.cf_cbm, explain.interpretcc, explain.bndl."
import warnings
import numpy as np
import torch
from contract import Case, Est
from trustnb.core import torch_generator
from trustnb.explain import cf_cbm as CF, interpretcc as IC, bndl as BN

# --- a tiny concept task: 3 binary concepts, 4 classes from an XOR and a bit, noisy 6-d inputs ----------------------
_r = np.random.default_rng(0)
_C = _r.integers(0, 2, (48, 3)).astype(np.float32)
_y = (_C[:, 0].astype(int) ^ _C[:, 1].astype(int)) + 2 * _C[:, 2].astype(int)
_X = ((2 * _C - 1) @ _r.standard_normal((3, 6)) + 0.3 * _r.standard_normal((48, 6))).astype(np.float32)
_TINY = dict(emb=8, z_dim=4, head_hidden=8, max_iter=2, max_cf_iter=0, batch_size=16, seed=0)
with warnings.catch_warnings():
    warnings.simplefilter('ignore')  # two epochs: the "not converged" RuntimeWarning is expected
    _cfm = CF.CFCBM(**_TINY).fit(_X, _C, _y)
_head = _cfm.net_.head
_cbin = _C[:4]
_net = CF.CFCBMNet(6, 3, 4, 8, 4, 8)
with torch.no_grad(): _out = _net(torch.as_tensor(_X[:4]), torch.tensor([1, 2, 3, 0]))

def _cf_fit(X, C, y):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning); return CF.CFCBM(**_TINY).fit(X, C, y)

# --- interpretcc: a binary task on 6 features -------------------------------------------------------------------------
_yb = (_X[:, 0] + _X[:, 3] > 0).astype(int)
_ICC = dict(hidden=8, max_iter=2, batch_size=16, seed=0)
_icc = IC.InterpretCCClassifier(**_ICC).fit(_X, _yb)
_groups = [[0, 1], [2, 3], [4, 5]]

# --- bndl -------------------------------------------------------------------------------------------------------------
_k, _lam = torch.tensor([0.7, 1.5, 4.0]), torch.tensor([0.5, 2.0, 1.0])
_BN = dict(hidden=(8,), max_iter=2, batch_size=16, n_samples=3, seed=0)
with torch.random.fork_rng(): _bnet = BN.BNDLNet(6, 4, (8,))
_probs = np.array([[0.9, 0.1], [0.6, 0.4], [0.2, 0.8]])
_WDBC = ['mean radius', 'mean texture', 'radius error', 'texture error', 'worst radius', 'worst texture']
_CREDIT = ['Age', 'Income', 'Home=rent', 'Records=no', 'Time']

_NN = 'builds a torch module: its initialisation draws from torch\'s global RNG, like every nn.Module'
CASES = [
    # cf_cbm
    Case(CF.digit_concepts, dict(digits=np.array([0, 3, 9])), kinds=dict(digits='labels'), legal=dict(digits=('empty',))),
    Case(CF.load_digit_concepts, dict()),
    Case(CF.CFCBMLossWeights, dict(task_coeff=0.7, concept_coeff=10.0, cf_coeff=2.0, kl_coeff=1.2, prior_coeff=1.0, dist_coeff=0.6),
         kinds={k: 'nonneg' for k in ('task_coeff', 'concept_coeff', 'cf_coeff', 'kl_coeff', 'prior_coeff', 'dist_coeff')}),
    Case(CF.CFCBMNet, dict(d_in=6, n_concepts=3, n_classes=4, emb=8, z_dim=4, head_hidden=8),
         kinds=dict(d_in='count', n_concepts='count', n_classes='count', emb='count', z_dim='count', head_hidden='count'),
         then=lambda n: n(torch.zeros(2, 6)), rng_free=False),  # _NN
    Case(CF.cfcbm_loss, dict(out=_out, C=torch.as_tensor(_C[:4]), y=torch.as_tensor(_y[:4]), w=CF.CFCBMLossWeights(), cf_scale=1.0),
         kinds=dict(y='labels', cf_scale='nonneg'), skip=('out',)),  # `out` is a dataclass of tensors (type-checked; the battery has no mutation for it)
    Case(CF.CFCBM, dict(**_TINY, task_coeff=0.7, concept_coeff=10.0, cf_coeff=2.0, kl_coeff=1.2, prior_coeff=1.0, dist_coeff=0.6, lr=3e-3, cf_target=0.9),
         kinds=dict(emb='count', z_dim='count', head_hidden='count', max_iter='count', max_cf_iter='nonneg', batch_size='count', seed='nonneg',
                    lr='positive', cf_target='prob', **{k: 'nonneg' for k in ('task_coeff', 'concept_coeff', 'cf_coeff', 'kl_coeff', 'prior_coeff', 'dist_coeff')}),
         legal=dict(max_cf_iter=('zero',)), then=lambda e: _quiet(lambda: e.fit(_X, _C, _y)).predict(_X)),
    Case(_cf_fit, dict(X=_X, C=_C, y=_y), kinds=dict(y='labels'), legal=dict(y=('unknown_label', 'negative_label')), id='CFCBM.fit'),  # any label values are classes (np.unique), also -1
    Case(_cfm.counterfactual, dict(x=_X[:4], target=np.array([1, 2, 3, 0]), fixed=[0]), kinds=dict(target='labels'),
         legal=dict(fixed=('empty',)), id='CFCBM.counterfactual'),
    Case(_cfm.intervene, dict(x=_X[:4], concept_idx=[0], values=[1.0]), id='CFCBM.intervene'),
    Case(_cfm.predict_proba, dict(X=_X[:4]), id='CFCBM.predict_proba'),
    Case(_cfm.forward, dict(x=_X[:4], target=np.array([1, 2, 3, 0]), seed=0), kinds=dict(target='labels'), id='CFCBM.forward'),
    Case(CF.digit_concept_split, dict(seed=0, n_train=1300), kinds=dict(n_train='count', seed='nonneg')),
    Case(CF.all_binary, dict(k=3), kinds=dict(k='count')),
    Case(CF.reachable, dict(head=_head, c=_cbin, target=np.array([0, 1, 2, 3]), fixed=[0]), kinds=dict(target='labels'), legal=dict(fixed=('empty',))),
    Case(CF.posthoc_counterfactual, dict(head=_head, c=_cbin, target=np.array([0, 1, 2, 3]), max_iter=5, lr=0.1, l1_coeff=0.05, fixed=[0]),
         kinds=dict(target='labels', max_iter='count', lr='positive', l1_coeff='nonneg'), legal=dict(fixed=('empty',), l1_coeff=('zero',))),
    Case(CF.exact_counterfactual, dict(head=_head, c=_cbin, target=np.array([0, 1, 2, 3]), fixed=[0], plausible=_C[:8]),
         kinds=dict(target='labels'), legal=dict(fixed=('empty',))),
    Case(CF.make_concept_task, dict(n=20, k=4, rule='xor_or', d=6, noise=0.5, seed=0),
         kinds=dict(n='count', k='count', d='count', noise='nonneg', seed='nonneg'), legal=dict(noise=('zero',))),
    Case(CF.digits_cfcbm, dict(seed=0, max_iter=1), kinds=dict(seed='nonneg', max_iter='count')),
    # interpretcc
    Case(IC.gumbel_sigmoid, dict(logits=torch.tensor([[-1.0, 0.5, 2.0]]), temperature=1.0, noise=True, generator=torch_generator(0)),
         kinds=dict(temperature='positive'), legal=dict(logits=('empty', 'extra_dim')), skip=('generator',)),  # any shape is legal; the generator is a torch object
    Case(IC.FeatureGatingNet, dict(d_in=6, n_classes=4, hidden=8, temperature=1.0, gate_features=[0, 1]),
         kinds=dict(d_in='count', n_classes='count', hidden='count', temperature='positive'), then=lambda n: n.eval()(torch.zeros(2, 6)), rng_free=False),  # _NN
    Case(IC.GroupRoutingNet, dict(d_in=6, groups=_groups, n_classes=4, hidden=8, expert_hidden=4, top_k=1, temperature=1.0),
         kinds=dict(d_in='count', n_classes='count', hidden='count', expert_hidden='count', top_k='count', temperature='positive'),
         then=lambda n: n.eval()(torch.zeros(2, 6)), rng_free=False),  # _NN
    Case(IC.InterpretCCClassifier, dict(**_ICC, kind='gating', temperature=1.0, l1_coeff=0.5, lr=1e-2),
         kinds=dict(hidden='count', max_iter='count', batch_size='count', seed='nonneg', temperature='positive', l1_coeff='nonneg', lr='positive'),
         legal=dict(l1_coeff=('zero',)), then=lambda e: e.fit(_X, _yb).predict_proba(_X)),
    Case(IC.InterpretCCClassifier, dict(**_ICC, kind='routing', groups=_groups, group_names=['a', 'b', 'c'], expert_hidden=4, top_k=2),
         kinds=dict(expert_hidden='count', top_k='count'), legal=dict(group_names=('empty',)),  # names are labels for display only
         skip=('hidden', 'max_iter', 'batch_size', 'seed'), then=lambda e: e.fit(_X, _yb).explain(_X), id='InterpretCCClassifier(routing)'),  # the gating case covers those
    Case(lambda X, y: IC.InterpretCCClassifier(**_ICC).fit(X, y), dict(X=_X, y=_yb), kinds=dict(y='labels'), legal=dict(y=('unknown_label', 'negative_label')), id='InterpretCCClassifier.fit'),
    Case(_icc.predict_with_mask, dict(X=_X[:4], explanation=_icc.explain(_X[:4])), id='InterpretCCClassifier.predict_with_mask'),
    Case(IC.breast_cancer_groups, dict(feature_names=_WDBC)),
    Case(IC.credit_groups, dict(feature_names=_CREDIT)),
    Case(IC.faithfulness_check, dict(model=_icc, X=_X[:8], seed=0), kinds=dict(seed='nonneg')),
    # bndl
    Case(BN.sample_weibull, dict(scale=_lam, shape=_k, generator=torch_generator(0)), skip=('generator',),  # a torch object
         legal=dict(scale=('extra_dim',), shape=('extra_dim',))),  # (1, 3) broadcasts with (3,)
    Case(BN.weibull_gamma_kl, dict(shape=_k, scale=_lam, prior_shape=1.0, prior_rate=2.0), kinds=dict(prior_shape='positive', prior_rate='positive'),
         legal=dict(scale=('extra_dim',), shape=('extra_dim',))),  # elementwise with broadcasting
    Case(BN.BNDLHead, dict(d_in=8, n_classes=3, shift=1.0, prior_shape=1.0, prior_rate=1.0, phi_kl_scale=1e-3, top_k=2),
         kinds=dict(d_in='count', n_classes='count', shift='nonneg', prior_shape='positive', prior_rate='positive', phi_kl_scale='nonneg', top_k='count'),
         legal=dict(shift=('zero',), phi_kl_scale=('zero',)), then=lambda h: h(torch.ones(2, 8), sample=False), rng_free=False),  # _NN
    Case(BN.SoftmaxNet, dict(d_in=6, n_classes=3, hidden=(8,)), kinds=dict(d_in='count', n_classes='count'), then=lambda n: n(torch.zeros(2, 6)), rng_free=False),  # _NN
    Case(BN.BNDLNet, dict(d_in=6, n_classes=3, hidden=(8,)), kinds=dict(d_in='count', n_classes='count'), then=lambda n: n.eval()(torch.zeros(2, 6)), rng_free=False),  # _NN
    Case(BN.train_net, dict(net=_bnet, X=_X, y=_y, max_iter=1, lr=3e-3, batch_size=16, kl_coeff=1e-3, seed=0),
         kinds=dict(y='labels', max_iter='count', lr='positive', batch_size='count', kl_coeff='nonneg', seed='nonneg'), legal=dict(kl_coeff=('zero',))),
    Case(BN.mc_predict, dict(model=_bnet, X=_X[:4], n_samples=3, seed=0), kinds=dict(n_samples='count', seed='nonneg')),
    Case(BN.reliability_curve, dict(probs=_probs, y=np.array([0, 1, 1]), n_bins=5), kinds=dict(y='labels', n_bins='count'), then=lambda r: r[2]),  # bins' counts (empty bins' means are NaN by design)
    Case(BN.expected_calibration_error, dict(probs=_probs, y=np.array([0, 1, 1]), n_bins=5), kinds=dict(y='labels', n_bins='count')),
    Case(BN.digits_split, dict(seed=0, n_train=1300), kinds=dict(seed='nonneg', n_train='count')),
    Case(BN.add_pixel_noise, dict(X=_X[:4].clip(0, 1), sigma=0.3, seed=0), kinds=dict(sigma='nonneg', seed='nonneg'), legal=dict(sigma=('zero',))),
    Case(BN.digits_heads, dict(seed=0, max_iter=1), kinds=dict(seed='nonneg', max_iter='count')),
    Case(BN.BNDLClassifier, dict(**_BN, shift=1.0, prior_shape=1.0, prior_rate=1.0, phi_kl_scale=1e-3, kl_coeff=1e-3, lr=3e-3),
         kinds=dict(max_iter='count', batch_size='count', n_samples='count', seed='nonneg', shift='nonneg', prior_shape='positive', prior_rate='positive',
                    phi_kl_scale='nonneg', kl_coeff='nonneg', lr='positive'), legal=dict(shift=('zero',), phi_kl_scale=('zero',), kl_coeff=('zero',)),
         then=lambda e: e.fit(_X, _y).predict_proba(_X)),
    Case(lambda X, y: BN.BNDLClassifier(**_BN).fit(X, y), dict(X=_X, y=_y), kinds=dict(y='labels'), legal=dict(y=('unknown_label', 'negative_label')), id='BNDLClassifier.fit'),
]

def _quiet(f):
    with warnings.catch_warnings():
        warnings.simplefilter('ignore', RuntimeWarning); return f()

ESTIMATORS = [
    Est(make=lambda: CF.CFCBM(**_TINY), fit_args=lambda: ((_X, _C, _y), {}), methods=('predict', 'predict_proba', 'predict_concepts'), compare='predict'),
    Est(make=lambda: IC.InterpretCCClassifier(**_ICC), fit_args=lambda: ((_X, _yb), {}), methods=('predict', 'predict_proba', 'explain'), compare='predict_proba'),
    Est(make=lambda: IC.InterpretCCClassifier(kind='routing', groups=_groups, **_ICC), fit_args=lambda: ((_X, _yb), {}), methods=('predict',), compare='predict_proba',
        id='InterpretCCClassifier(routing)'),
    Est(make=lambda: BN.BNDLClassifier(**_BN), fit_args=lambda: ((_X, _y), {}), methods=('predict', 'predict_proba'), compare='predict_proba'),
]

EXEMPT = {
    'trustnb.explain.cf_cbm.cf_cbm_experiment': 'trains a CF-CBM and a plain CBM on 1,300 digits and times three searches (~10 s); run by the cf_cbm claim and the notebook; its arguments go through digits_cfcbm, which has a Case',
    'trustnb.explain.cf_cbm.cf_cbm_claim': 'the registered reproduction (three seeds, ~30 s); run by `python -m trustnb.repro --only cf_cbm`',
    'trustnb.explain.interpretcc.interpretcc_experiment': '5-fold cross-validation of three models on two datasets (~20 s); run by the interpretcc claim and the notebook',
    'trustnb.explain.interpretcc.interpretcc_claim': 'the registered reproduction; run by `python -m trustnb.repro --only interpretcc`',
    'trustnb.explain.bndl.bndl_experiment': 'trains two 40-epoch digit classifiers (~10 s); run by the bndl claim and the notebook; its training goes through digits_heads, which has a Case',
    'trustnb.explain.bndl.bndl_claim': 'the registered reproduction (three seeds); run by `python -m trustnb.repro --only bndl`',
}
