"Contract cases for trustnb.monitor.stay_positive (chapter 7): every export with one tiny valid call."
import numpy as np
import torch
from contract import Case, Est
from trustnb.core import local_seed
from trustnb.monitor import stay_positive as SP

_rng = np.random.default_rng(0)
_X = _rng.random((40, 64)).astype(np.float32)
_y = np.r_[np.zeros(20), np.ones(20)].astype(np.int64)
with local_seed(0):
    _DET = SP.TinyDetector(channels=2, n_features=3)
_EST = SP.StayPositiveDetector(channels=2, n_features=3, epochs=1, retrain_epochs=2).fit(_X, _y)
_S = _rng.random(30); _L = np.r_[np.zeros(15), np.ones(15)].astype(np.int64)

CASES = [
    Case(SP.compress, dict(X=_X, levels=4, block=2), kinds=dict(levels='count', block='count')),
    Case(SP.add_trace, dict(X=_X, trace_strength=0.05, trace_noise=0.02, mask=SP.QUADRANT, seed=0),
         kinds=dict(trace_strength='nonneg', trace_noise='nonneg', seed='nonneg')),
    Case(SP.make_fake_image_data, dict(trace_strength=0.05, trace_noise=0.02, compression_rate=0.9, fake_compression_rate=0.1, levels=4, n_train=40, seed=0),
         kinds=dict(trace_strength='positive', trace_noise='nonneg', compression_rate='prob', fake_compression_rate='prob', levels='count', n_train='count', seed='nonneg')),
    Case(SP.TinyDetector, dict(channels=2, n_features=3), kinds=dict(channels='count', n_features='count'), then=lambda m: m(torch.zeros(2, 64)).detach(),
         rng_free=False),  # nn.Module init draws from torch's global RNG by design (StayPositiveDetector builds it under core.local_seed)
    Case(SP.NonNegativeLinear, dict(d_in=3, d_out=1), kinds=dict(d_in='count', d_out='count'), then=lambda m: m.project_().weight.detach(),
         rng_free=False),  # nn.Module init, as nn.Linear (stay_positive_retrain builds it under core.local_seed)
    Case(SP.train_detector, dict(model=_DET, X=_X, y=_y, epochs=1, lr=1e-3, batch_size=16, seed=0),
         kinds=dict(y='labels', epochs='count', lr='positive', batch_size='count', seed='nonneg'), then=lambda m: m(torch.as_tensor(_X[:3])).detach()),
    Case(SP.stay_positive_retrain, dict(model=_DET, X=_X, y=_y, head='fc', epochs=1, lr=1e-2, batch_size=16, constrain=True, freeze_backbone=True, seed=0),
         kinds=dict(y='labels', epochs='count', lr='positive', batch_size='count', seed='nonneg'), then=lambda m: m.fc.weight.detach()),
    Case(SP.detection_metrics, dict(scores=_S, labels=_L, threshold=0.5), kinds=dict(labels='labels')),
    Case(SP.StayPositiveDetector, dict(head='stay_positive', channels=2, n_features=3, epochs=1, lr=3e-3, retrain_epochs=1, retrain_lr=1e-2, batch_size=16, seed=0),
         kinds=dict(channels='count', n_features='count', epochs='count', lr='positive', retrain_epochs='count', retrain_lr='positive', batch_size='count', seed='nonneg'),
         then=lambda e: e.fit(_X, _y).predict_proba(_X[:4])),
    Case(_EST.fit, dict(X=_X, y=_y), kinds=dict(y='labels'), id='StayPositiveDetector.fit'),
    Case(_EST.predict_proba, dict(X=_X[:5]), id='StayPositiveDetector.predict_proba'),
    Case(_EST.decision_function, dict(X=_X[:5]), id='StayPositiveDetector.decision_function'),
    Case(_EST.predict, dict(X=_X[:5]), id='StayPositiveDetector.predict'),
    Case(_EST.transform, dict(X=_X[:5]), id='StayPositiveDetector.transform'),
    Case(SP.staypos_setting, dict(seed=3), kinds=dict(seed='nonneg')),
    Case(SP.pretrained_detector, dict(trace_strength=0.05, compression_rate=0.9, seed=0, epochs=1),
         kinds=dict(trace_strength='positive', compression_rate='prob', seed='nonneg', epochs='count'), then=lambda m: m.fc.weight.detach()),
]
ESTIMATORS = [Est(make=lambda: SP.StayPositiveDetector(channels=2, n_features=3, epochs=1, retrain_epochs=2), fit_args=lambda: ((_X, _y), {}),
                  methods=('predict_proba', 'decision_function', 'predict', 'transform'), compare='decision_function')]
EXEMPT = {
    'trustnb.monitor.stay_positive.compare_heads': 'one seed of the reproduction (3 detectors + LogisticRegression on a full data set); '
                                                  'its parts (make_fake_image_data, pretrained_detector, StayPositiveDetector, detection_metrics) are covered',
    'trustnb.monitor.stay_positive.staypos_claim': 'the registered reproduction (runs compare_heads at a setting drawn by staypos_setting; both covered or exempted)',
}
