"Contract cases for chapter 5, unlearning (trustnb.unlearn.*): every export with one tiny valid call."
import numpy as np
from contract import Case, Est
from trustnb.core import local_seed
from trustnb.zoo import MLP
from trustnb.unlearn import certified as C, erase as E

_rng = np.random.default_rng(0)
_SEED = dict(seed='nonneg')

# --- certified unlearning by noisy fine-tuning ---------------------------------------------------------------------
_X = _rng.normal(size=(40, 5)).astype(np.float32); _y = (_X[:, 0] > 0).astype(int) + (_X[:, 1] > 0).astype(int)
def _net():
    with local_seed(0): return MLP(5, 3, (8,))
_NET = C.train_full_batch(_net(), _X, _y, steps=20)
_UKW = dict(T=2, finetune_steps=2, device='cpu')
_U = C.NoisyFinetuneUnlearner(**_UKW).fit(_X, _y, model=_NET)
def _unlearn(ids): return C.NoisyFinetuneUnlearner(**_UKW).fit(_X, _y, model=_NET).unlearn(ids).certificate
_ID_OK = dict(ids=('unknown_label',))  # record ids are arbitrary non-negative integers: a large id is a valid id
CASES = [
    Case(C.shift_budget, dict(C0=1.0, C1=1.0, lr=0.01, weight_decay=50.0, T=5),
         kinds=dict(C0='positive', C1='nonneg', lr='positive', weight_decay='nonneg', T='count')),
    Case(C.unlearning_certificate, dict(sigma=0.1, delta=1e-5, C0=1.0, C1=1.0, lr=0.01, weight_decay=50.0, T=5, accountant='pld'),
         kinds=dict(sigma='positive', delta='prob', C0='positive', C1='nonneg', lr='positive', weight_decay='nonneg', T='count')),
    Case(C.clip_params, dict(model=_net(), C=1.0), kinds=dict(C='positive'), then=lambda m: m[0].weight.detach().numpy()),
    Case(C.train_full_batch, dict(model=_net(), X=_X, y=_y, steps=2, lr=1e-2, seed=0),
         kinds=dict(y='labels', steps='nonneg', lr='positive', **_SEED), then=lambda m: m[0].weight.detach().numpy()),
    Case(C.NoisyFinetuneUnlearner, dict(epsilon=1.0, delta=1e-5, C0=1.0, C1=1.0, lr=0.01, weight_decay=50.0, T=2, finetune_steps=2,
                                        finetune_lr=1e-2, train_steps=0, seed=0),
         kinds=dict(epsilon='positive', delta='prob', C0='positive', C1='nonneg', lr='positive', weight_decay='nonneg', T='count',
                    finetune_steps='nonneg', finetune_lr='positive', train_steps='nonneg', **_SEED),
         then=lambda u: u.fit(_X, _y, model=_NET).unlearn([0, 1]).certificate),
    Case(C.NoisyFinetuneUnlearner(**_UKW).fit, dict(X=_X, y=_y, model=_NET, ids=np.arange(40)), kinds=dict(y='labels', ids='labels'),
         legal=_ID_OK, then=lambda u: u.predict_proba(_X), id='NoisyFinetuneUnlearner.fit'),
    Case(_unlearn, dict(ids=np.array([0, 1])), kinds=dict(ids='labels'), id='NoisyFinetuneUnlearner.unlearn'),
    Case(_U.predict_proba, dict(X=_X), id='NoisyFinetuneUnlearner.predict_proba'),
    Case(C.output_perturbation, dict(model=_NET, epsilon=1.0, delta=1e-5, C0=1.0, X_retain=_X, y_retain=_y, finetune_steps=2, finetune_lr=1e-2, seed=0),
         kinds=dict(epsilon='positive', delta='prob', C0='positive', y_retain='labels', finetune_steps='nonneg', finetune_lr='positive', **_SEED),
         then=lambda m: m[0].weight.detach().numpy()),
    Case(C.mia_auc, dict(model=_NET, X_forget=_X[:10], y_forget=_y[:10], X_test=_X[10:], y_test=_y[10:]), kinds=dict(y_forget='labels', y_test='labels')),
    Case(C.accuracy_vs_epsilon, dict(epsilons=(16.0,), seed=0, finetune_steps=1), kinds=dict(finetune_steps='nonneg', **_SEED)),
]
ESTIMATORS = [Est(make=lambda: C.NoisyFinetuneUnlearner(T=2, finetune_steps=2, train_steps=3, device='cpu'), fit_args=lambda: ((_X, _y), dict(model=_net())),
                  methods=('predict', 'predict_proba'), compare='predict_proba')]
EXEMPT = {
    'trustnb.unlearn.certified.calibrate_sigma': 'deprecated alias (one release) of NoisyFinetuneUnlearner.noise_scale / gaussian_noise_multiplier, both covered; it warns',
    'trustnb.unlearn.certified.certified_claim': 'the registered reproduction: NoisyFinetuneUnlearner, output_perturbation, mia_auc (covered) on 3 drawn digit splits; seed/epsilon/delta/n_runs validated up front',
}

# --- ERASE ---------------------------------------------------------------------------------------------------------
_Z = np.concatenate([_rng.normal(c, 0.3, size=(15, 2)) for c in [(0, 0), (3, 0)]]); _yz = np.repeat([0, 1], 15)
def _qkm_unlearn(ids): return E.QuantizedKMeans(n_clusters=2, lattice_spacing=0.5).fit(_Z).unlearn(ids).points_processed
def _sel_unlearn(ids): return E.ERASESelector(k=2, lattice_spacing=0.5).fit(_Z, _yz).unlearn(ids).points_processed
def _lr():
    from sklearn.linear_model import LogisticRegression
    return LogisticRegression(max_iter=200)
def _sisa_unlearn(ids): return E.SISA(make_estimator=_lr, n_shards=2).fit(_Z, _yz).unlearn(ids).points_processed
_SEL = E.ERASESelector(k=2, lattice_spacing=0.5).fit(_Z, _yz)
CASES += [
    Case(E.QuantizedKMeans, dict(n_clusters=2, lattice_spacing=0.5, n_iter=3, seed=0), kinds=dict(n_clusters='count', lattice_spacing='positive', n_iter='count', **_SEED),
         then=lambda q: q.fit(_Z).unlearn(0).points_processed),
    Case(E.QuantizedKMeans(n_clusters=2).fit, dict(Z=_Z, ids=np.arange(30)), kinds=dict(ids='labels'), legal=_ID_OK, then=lambda q: q.predict(_Z), id='QuantizedKMeans.fit'),
    Case(_qkm_unlearn, dict(ids=np.array([0, 3])), kinds=dict(ids='labels'), id='QuantizedKMeans.unlearn'),
    Case(E.ERASESelector, dict(k=2, lattice_spacing=0.5, n_iter=3, seed=0), kinds=dict(k='count', lattice_spacing='positive', n_iter='count', **_SEED),
         then=lambda s: s.fit(_Z, _yz).predict(_Z)),
    Case(E.ERASESelector(k=2).fit, dict(X=_Z, y=_yz, ids=np.arange(30)), kinds=dict(y='labels', ids='labels'), legal=_ID_OK, then=lambda s: s.predict(_Z), id='ERASESelector.fit'),
    Case(_sel_unlearn, dict(ids=np.array([0, 20])), kinds=dict(ids='labels'), id='ERASESelector.unlearn'),
    Case(_SEL.predict, dict(X=_Z), id='ERASESelector.predict'),
    Case(E.state_hash, dict(state={'a': np.arange(3)})),
    Case(E.icl_predict, dict(demo_X=_Z[:4], demo_y=_yz[:4], Xq=_Z)),
    Case(E.build_icl_prompt, dict(demos=[('2 + 2', '4')], query='1 + 6', template='Input: {x}\nOutput: {y}\n\n'),
         legal=dict(demos=('empty',), query=('unknown_option',))),  # a zero-shot prompt and any query text are valid
    Case(E.SISA, dict(make_estimator=_lr, n_shards=2, seed=0), kinds=dict(n_shards='count', **_SEED), then=lambda s: s.fit(_Z, _yz).predict(_Z)),
    Case(E.SISA(make_estimator=_lr, n_shards=2).fit, dict(X=_Z, y=_yz, ids=np.arange(30)), kinds=dict(y='labels', ids='labels'),
         legal=dict(y=('unknown_label',), **_ID_OK),  # SISA's classes are whatever labels `y` holds (10**6 is one more class)
         then=lambda s: s.predict(_Z), id='SISA.fit'),
    Case(_sisa_unlearn, dict(ids=np.array([0, 20])), kinds=dict(ids='labels'), id='SISA.unlearn'),
    Case(E.stability_curve, dict(lattice_spacings=(1.0,), k=2, n_deletions=2, seed=0), kinds=dict(k='count', n_deletions='count', **_SEED)),
]
ESTIMATORS += [
    Est(make=lambda: E.QuantizedKMeans(n_clusters=2, lattice_spacing=0.5), fit_args=lambda: ((_Z,), {}), methods=('predict', 'unlearn'), compare='predict'),
    Est(make=lambda: E.ERASESelector(k=2, lattice_spacing=0.5), fit_args=lambda: ((_Z, _yz), {}), methods=('predict', 'unlearn'), compare='predict'),
    Est(make=lambda: E.SISA(make_estimator=_lr, n_shards=2), fit_args=lambda: ((_Z, _yz), {}), methods=('predict', 'unlearn'), compare='predict'),
]
EXEMPT['trustnb.unlearn.erase.erase_claim'] = 'the registered reproduction: ERASESelector and SISA (covered) on digits with 50 sequential deletions, each checked against a rerun; its arguments are validated up front'
