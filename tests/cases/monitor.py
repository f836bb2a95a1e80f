"Contract cases for chapter 7, reliability and monitoring (trustnb.monitor.*): every export with one tiny valid call."
import numpy as np
import torch
from torch import nn
from contract import Case, Est
from trustnb.core import local_seed

_rng = np.random.default_rng(0)

# --- CAPA -------------------------------------------------------------------------------------------------------------
from trustnb.monitor import capa as K
_PA = _rng.dirichlet(np.ones(3), 12); _PB = _rng.dirichlet(np.ones(3), 12); _YK = _rng.integers(0, 3, 12)
_PROBS = {'a': _PA, 'b': _PB}
CASES = [
    Case(K.capa_terms, dict(probs_a=_PA, probs_b=_PB, y_true=_YK, discrete=False), kinds=dict(y_true='labels')),
    Case(K.capa, dict(probs_a=_PA, probs_b=_PB, y_true=_YK), kinds=dict(y_true='labels')),
    Case(K.error_consistency, dict(probs_a=_PA, probs_b=_PB, y_true=_YK), kinds=dict(y_true='labels')),
    Case(K.similarity_matrix, dict(probs=_PROBS, y_true=_YK, metric='capa'), kinds=dict(y_true='labels')),
    Case(K.capa_bootstrap, dict(probs_a=_PA, probs_b=_PB, y_true=_YK, n_boot=20, level=0.9, method='percentile', seed=0),
         kinds=dict(y_true='labels', n_boot='count', level='prob')),
    Case(K.simulate_pair, dict(n=30, k=4, acc=0.8, conf=0.9, kind='shared', shared=0.5, seed=0),
         kinds=dict(n='count', k='count', acc='prob', conf='prob', shared='prob')),
    Case(K.capa_claim, dict(n=500, seed=0), kinds=dict(n='count')),
]
ESTIMATORS = []
EXEMPT = {'trustnb.monitor.capa.capa_claim': 'the registered reproduction; also covered by a Case'}

# --- suitability filter -----------------------------------------------------------------------------------------------
from trustnb.monitor import suitability as S
_L = _rng.normal(0, 2, (80, 3)); _Y = np.where(_rng.random(80) < 0.7, _L.argmax(1), _rng.integers(0, 3, 80))
_LT, _LU = _rng.normal(0, 2, (40, 3)), _rng.normal(0, 2, (30, 3))
_FILT = S.SuitabilityFilter(cv=2).fit(_L, _Y, _LT)
CASES += [
    Case(S.suitability_signals, dict(logits=_L, signals='all')),
    Case(S.non_inferiority_welch, dict(test=_rng.random(20), user=_rng.random(15), margin=0.05, alpha=0.05), kinds=dict(margin='nonneg', alpha='prob')),
    Case(S.SuitabilityFilter, dict(margin=0.05, alpha=0.05, signals='all', calibrated=True, cv=2), kinds=dict(margin='nonneg', alpha='prob', cv='count'),
         then=lambda f: f.fit(_L, _Y, _LT).test(_LU)),
    Case(_FILT.fit, dict(logits_sf=_L, y_sf=_Y, logits_test=_LT, y_test=_Y[:40]), kinds=dict(y_sf='labels', y_test='labels'), id='SuitabilityFilter.fit'),
    Case(_FILT.test, dict(logits_user=_LU, margin=0.05, alpha=0.05), kinds=dict(margin='nonneg', alpha='prob'), id='SuitabilityFilter.test'),
    Case(_FILT.test_correctness, dict(pc_user=_rng.random(30), margin=0.05, alpha=0.05), kinds=dict(pc_user='prob', margin='nonneg', alpha='prob'),
         id='SuitabilityFilter.test_correctness'),
    Case(S.ks_confidence_drift, dict(logits_test=_LT, logits_user=_LU, alpha=0.05), kinds=dict(alpha='prob')),
    Case(S.shift_experiment, dict(name='credit', margin=0.05, alpha=0.05, n_user=50, draws=2, seed=0),
         kinds=dict(margin='nonneg', alpha='prob', n_user='count', draws='count')),  # memoized: the valid call trains once
]
ESTIMATORS += [Est(make=lambda: S.SuitabilityFilter(cv=2), fit_args=lambda: ((_L, _Y, _LT), {}), methods=('correctness', 'test'), compare='correctness')]
EXEMPT.update({'trustnb.monitor.suitability.suitability_claim': 'the registered reproduction (runs `shift_experiment`, which is covered)'})
