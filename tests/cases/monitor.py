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
EXEMPT = {}
