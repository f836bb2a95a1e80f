"Contract cases for trustnb.learn.hcfl (chapter 9)."
import numpy as np
from contract import Case, Est
from trustnb.learn import hcfl as H

_FED = H.make_federation(n_clients=4, n_concepts=2, n_train=12, n_test=8, d_in=3, n_classes=4, seed=0)
_CLIENTS, _TESTS = _FED.clients, _FED.tests
_X, _y = _CLIENTS[0]
_P = H._init_params(2, 1, 3, 4, 4, np.random.default_rng(0))
_CFG = dict(omega=np.array([0.5, 0.5]), assignment='soft', weight_level='sample', lr=0.1, local_steps=2, batch_size=4, proto_space='feature', seed=0)
_FITTED = H.ClusteredFL(rounds=2, hidden=4, seed=0).fit(_CLIENTS)
_PR = np.arange(12.0).reshape(4, 3) ** 1.5

def _one_round(st):
    params = st.initialize_parameters(); cl = [H.FLClient(X, y, n_classes=4) for X, y in _CLIENTS]
    res = [(i, *cl[i].fit(params, cfg)) for i, cfg in st.configure_fit(0)]
    out = st.aggregate_fit(0, res)
    return out, cl[0].evaluate(out, dict(omega=st.omega[0]))

_ST = dict(n_clients=4, d_in=3, n_classes=4, n_clusters=2, assignment='soft', weight_level='sample', shared_body=True, adaptive=True, hidden=4,
           lr=0.1, local_steps=2, batch_size=4, split_thresh=0.6, merge_thresh=0.3, remove_thresh=0.02, seed=0)
_EST = dict(n_clusters=1, assignment='soft', weight_level='sample', shared_body=True, adaptive=True, hidden=4, rounds=2, local_steps=2, lr=0.1,
            batch_size=4, split_thresh=0.6, merge_thresh=0.3, remove_thresh=0.02, seed=0)
_COUNTS = dict(n_clients='count', d_in='count', n_classes='count', n_clusters='count', hidden='count', local_steps='count', batch_size='count',
               lr='positive', remove_thresh='prob', split_thresh='nonneg', merge_thresh='nonneg', seed='nonneg')
CASES = [
    Case(H.make_federation, dict(n_clients=4, n_concepts=2, n_train=5, n_test=5, d_in=3, n_classes=4, class_sep=1.0, label_alpha=1.0, feature_shift=0.1, seed=0),
         kinds=dict(n_clients='count', n_concepts='count', n_train='count', n_test='count', d_in='count', n_classes='count', class_sep='positive',
                    label_alpha='positive', feature_shift='nonneg', seed='nonneg')),
    Case(H.FLClient, dict(X=_X, y=_y, n_classes=4), kinds=dict(y='labels', n_classes='count'), then=lambda c: (c.fit(_P, _CFG)[2]['loss'], c.evaluate(_P, _CFG))),
    Case(H.proto_distance, dict(Pa=_PR, ca=np.ones(4), Pb=_PR[::-1].copy(), cb=np.ones(4))),
    Case(H.HCFLStrategy, _ST, kinds={k: v for k, v in _COUNTS.items() if k in _ST}, then=_one_round),
    Case(H.ClusteredFL, _EST, kinds={k: v for k, v in _COUNTS.items() if k in _EST} | dict(rounds='count'), then=lambda e: e.fit(_CLIENTS).score_clients(_TESTS)),
    Case(H.ClusteredFL(rounds=1, hidden=4, seed=0).fit, dict(clients=_CLIENTS), id='trustnb.learn.hcfl.ClusteredFL.fit'),
    Case(_FITTED.predict_proba, dict(X=_TESTS[0][0], client=1), kinds=dict(client='nonneg'), id='trustnb.learn.hcfl.ClusteredFL.predict_proba'),
    Case(_FITTED.predict, dict(X=_TESTS[0][0], client=1), kinds=dict(client='nonneg'), id='trustnb.learn.hcfl.ClusteredFL.predict'),
    Case(_FITTED.score_clients, dict(clients=_TESTS), id='trustnb.learn.hcfl.ClusteredFL.score_clients'),
    Case(H.compare_methods, dict(fed=_FED, methods=('fedavg', 'hcfl+'), rounds=1, seed=0, overrides={'hcfl+': dict(proto_shuffle=True)}), kinds=dict(rounds='count', seed='nonneg'), skip=('overrides',)),  # overrides: free-form parameters
]
ESTIMATORS = [
    Est(make=lambda: H.ClusteredFL(rounds=2, hidden=4, seed=0), fit_args=lambda: ((_CLIENTS,), {}), methods=('score_clients',), compare='score_clients'),
    Est(make=lambda: H.ClusteredFL.preset('ifca', n_clusters=2, rounds=2, hidden=4, seed=0), fit_args=lambda: ((_CLIENTS,), {}), methods=('score_clients',),
        compare='score_clients', id='trustnb.learn.hcfl.ClusteredFL[ifca]'),
]
EXEMPT = {
    'trustnb.learn.hcfl.FLClient': "a federated client with flwr's NumPyClient verbs (fit(parameters, config) -> (parameters, n, metrics)), not a scikit-learn estimator; its Case runs fit and evaluate under the battery",
    'trustnb.learn.hcfl.hcfl_claim': 'the registered reproduction (runs compare_methods at full size, covered in the notebook)',
}
