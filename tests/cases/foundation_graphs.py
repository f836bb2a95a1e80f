"Contract cases for trustnb.graphs (notebook 02a; family 'foundation' since it is a top-level module)."
import numpy as np
import torch
from contract import Case
from trustnb import graphs as GR

_G = GR.make_homophilous_graph(n_per_group=10, p_in=0.5, p_out=0.1, d_features=4, seed=0)
_sp = GR.split_edges(_G.A, 0.2, seed=0)
_S = np.random.default_rng(0).standard_normal((20, 20))

CASES = [
    Case(GR.check_adjacency, dict(A=_G.A, name='A'), skip=('name',)),
    Case(GR.normalize_adjacency, dict(A=_G.A, self_loops=True)),
    Case(GR.DenseGCN, dict(d_in=4, d_out=3, bias=True, seed=0), kinds=dict(d_in='count', d_out='count'),
         then=lambda m: m(torch.eye(20), torch.ones(20, 4)).detach()),
    Case(GR.make_homophilous_graph, dict(n_per_group=10, p_in=0.3, p_out=0.05, d_features=4, feature_shift=1.0, length_scale=0.5, seed=0),
         kinds=dict(n_per_group='count', p_in='prob', p_out='prob', d_features='count', feature_shift='nonneg', length_scale='positive')),
    Case(GR.split_edges, dict(A=_G.A, test_frac=0.2, seed=0), kinds=dict(test_frac='prob')),
    Case(GR.link_auc, dict(scores=_S, pos_edges=_sp.test_pos, neg_edges=_sp.test_neg)),
]
