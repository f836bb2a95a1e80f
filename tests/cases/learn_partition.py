"Contract cases for trustnb.learn.partition_embed (chapter 9)."
import numpy as np
from contract import Case, Est
from trustnb.learn import partition_embed as PE

_d = PE.make_partitioned_manifolds(40, (3, 3), ('circle', 'line'), seed=0)
_X = _d.X
_W = PE.perplexity_affinity(_X, 5.0).toarray()
_th = _d.latents[:, 0]
_E = np.c_[np.cos(_th), np.sin(_th)] + 0.1
_FAST = dict(n_partitions=2, n_components=2, perplexity=5.0, n_delta=2, max_iter=3, tol=1e-4, n_init=1, embedding='diffusion', n_neighbors=5, seed=0)
CASES = [
    Case(PE.make_partitioned_manifolds, dict(n_samples=20, group_sizes=(2, 3), kinds=('circle', 'line'), noise=0.05, max_freq=3, shuffle=True, seed=0),
         kinds=dict(n_samples='count', max_freq='count', noise='nonneg'), legal=dict(noise=('zero',))),
    Case(PE.perplexity_affinity, dict(X=_X, perplexity=5.0, weights=np.ones(6)), kinds=dict(perplexity='positive'), then=lambda W: W.toarray()),
    Case(PE.laplacian_scores, dict(X=_X, W=_W)),
    Case(PE.diffusion_map, dict(X=_X, n_components=2, n_neighbors=5, density_power=1.0), kinds=dict(n_components='count', n_neighbors='count', density_power='prob')),
    Case(PE.partition_ari, dict(labels_true=_d.feature_labels, labels_pred=np.array([0, 0, 0, 1, 1, 1])), kinds=dict(labels_true='labels', labels_pred='labels'),
         legal=dict(labels_true=('unknown_label',), labels_pred=('unknown_label',))),  # any non-negative integer is a valid group name
    Case(PE.circular_correlation, dict(a=_th, b=_th + 0.3)),
    Case(PE.circle_recovery, dict(embedding=_E, theta=_th)),
    Case(PE.PartitionFirstEmbedding, _FAST, kinds=dict(n_partitions='count', n_components='count', perplexity='positive', n_delta='nonneg', max_iter='count',
         tol='prob', n_init='count', n_neighbors='count'), legal=dict(n_delta=('zero',), tol=('zero',)), then=lambda e: e.fit_transform(_X)),
]
ESTIMATORS = [
    Est(make=lambda: PE.PartitionFirstEmbedding(**_FAST), fit_args=lambda: ((_X,), {}), methods=('split',), compare='split'),
]
EXEMPT = {
    'trustnb.learn.partition_embed.partition_embed_claim': 'the registered reproduction (runs the estimator with umap-learn / openTSNE baselines; covered by the notebook)',
}
