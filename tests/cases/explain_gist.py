"Contract cases for trustnb.explain.gist (chapter 3): graph counterfactuals by spectral style transfer."
import numpy as np
import torch
from contract import Case
from trustnb.explain import gist as GI

_gs = GI.make_cycle_graphs(12, 5, seed=0)  # 5-node trees and unicyclic graphs
_oracle = GI.train_graph_classifier(_gs, epochs=2, d_hidden=4, seed=0)
_A, _At = _gs.A[:2], _gs.A[2:]
_P = np.array([[0, 1, 1, 0, 0], [1, 0, 1, 0, 0], [1, 1, 0, 1, 0], [0, 0, 1, 0, 1], [0, 0, 0, 1, 0]], float)

CASES = [
    # extra_dim turns one (n, n) graph into a (1, n, n) batch of one graph: legal by design
    Case(GI.normalized_laplacian, dict(A=torch.tensor(_P)), legal=dict(A=('extra_dim',))),
    Case(GI.spectrum, dict(A=_P, k=3, kind='laplacian'), kinds=dict(k='count'), legal=dict(A=('extra_dim',))),
    Case(GI.spectral_distance, dict(G=_P, H=_A[0], k=3, kind='adjacency'), kinds=dict(k='count'), legal=dict(G=('extra_dim',), H=('extra_dim',))),
    Case(GI.make_cycle_graphs, dict(n_graphs=6, n_nodes=5, seed=0), kinds=dict(n_graphs='count', n_nodes='count')),
    Case(GI.GraphClassifier, dict(d_hidden=4, n_classes=2, seed=0), kinds=dict(d_hidden='count', n_classes='count'),
         then=lambda m: m(torch.tensor(_A)).detach()),
    Case(GI.train_graph_classifier, dict(graphs=_gs, epochs=1, lr=1e-2, d_hidden=4, seed=0),
         kinds=dict(epochs='count', lr='positive', d_hidden='count'), then=lambda m: GI.predict_graphs(m, _A)),
    Case(GI.predict_graphs, dict(oracle=_oracle, A=_A)),
    Case(GI.DCE, dict(oracle=_oracle, A_train=_At), then=lambda d: d.counterfactual(_A, 1)),
    Case(GI.GreedyFlip, dict(oracle=_oracle, max_flips=2, select='spectral', k=3), kinds=dict(max_flips='count', k='count'),
         then=lambda g: g.counterfactual(_A, 1)),
    Case(GI.GIST, dict(oracle=_oracle, A_train=_At, alpha=0.5, k=3, cf_coeff=1.0, margin=0.5, max_iter=3, lr=0.3, backtrack=False),
         kinds=dict(alpha='prob', k='count', cf_coeff='nonneg', margin='positive', max_iter='count', lr='positive'),
         then=lambda g: g.counterfactual(_A, 1)),
    Case(GI.GIST, dict(oracle=_oracle, A_train=_At, max_iter=2), id='GIST.counterfactual(target=array)',
         then=lambda g: g.counterfactual(_A, np.array([1, 0]))),
]
EXEMPT = {
    'trustnb.explain.gist.GraphSet': 'a record returned by make_cycle_graphs (covered through it)',
    'trustnb.explain.gist.GraphCFResult': 'the result record every counterfactual call returns (covered through them)',
    'trustnb.explain.gist.gist_task': 'a full experiment (trains an oracle, explains 60 graphs with seven methods); run by the notebook and the claim',
    'trustnb.explain.gist.gist_claim': 'the registered reproduction (runs gist_task, covered by the notebook)',
}
