"Contract cases for trustnb.explain.fr_geometry (chapter 3): attribute dependence and invariance of embedding models."
import numpy as np
import torch
from contract import Case
from trustnb.explain import fr_geometry as FG
from trustnb.data import load_digits

_d = load_digits()
_X, _y = _d.X[:40], _d.y[:40]
_m = FG.EmbeddingNet(d_emb=4, channels=2, seed=0)
_rng = np.random.default_rng(0)
_P = _rng.normal(size=(12, 3)); _V = _rng.normal(size=(12, 3))
_E = _rng.normal(size=(16, 3)); _g = np.arange(16) % 2
_ids = np.repeat([0, 1, 2, 3], 10)  # 10 images per identity for the report
_Xr = np.concatenate([_d.X[_d.y == k][:10] for k in range(4)])

CASES = [
    # value: a number or one value per image; extra_dim/empty of an array value are caught, a scalar has no such mutations
    Case(FG.transform_images, dict(X=_X[:3], attribute='contrast', value=np.array([0.5, 1.0, 1.5]))),
    Case(FG.transform_images, dict(X=_X[:3], attribute='blur', value=0.5), kinds=dict(value='nonneg'), id='transform_images(blur)'),
    Case(FG.EmbeddingNet, dict(d_emb=4, channels=2, seed=0), kinds=dict(d_emb='count', channels='count'),
         then=lambda m: m(torch.tensor(_X[:3])).detach()),
    Case(FG.train_embedder, dict(model=FG.EmbeddingNet(d_emb=4, channels=2, seed=0), X=_X, y=_y, epochs=1, lr=1e-3, margin=0.2,
                                 batch_size=16, augment='contrast', seed=0),
         kinds=dict(epochs='count', lr='positive', margin='positive', batch_size='count', y='labels'),
         legal=dict(y=('unknown_label',)),  # identities are any labels >= 0
         then=lambda m: m(torch.tensor(_X[:3])).detach()),
    Case(FG.toy_embedder, dict(seed=0, epochs=1, finetune_epochs=1, augment='contrast', lr_finetune=1e-3),
         kinds=dict(epochs='count', finetune_epochs='nonneg', lr_finetune='positive'),
         then=lambda m: m(torch.tensor(_X[:3])).detach()),
    Case(FG.attribute_vector_field, dict(embed_fn=_m, X=_X[:6], attribute='rotation', h=5.0, base=0.0), kinds=dict(h='positive')),
    Case(FG.attribute_vector_field, dict(embed_fn=lambda X: X[:, :3] * 2.0, X=_P, attribute=lambda X, t: X + t, h=0.5, base=0.0),
         kinds=dict(h='positive'), skip=('embed_fn', 'attribute'), id='attribute_vector_field(custom transform)'),  # callables: checked by the case above
    Case(FG.field_energy, dict(points=_P, field=_V, n_neighbors=3, metric='cosine', rtol=1e-6, atol=1e-10),
         kinds=dict(n_neighbors='count', rtol='nonneg', atol='nonneg')),
    Case(FG.field_gravity, dict(points=_P, field=_V, groups=np.arange(12) % 3)),
    Case(FG.attribute_ks, dict(emb=_E, groups=_g, metric='euclidean', max_per_group=6, seed=0), kinds=dict(max_per_group='count')),
    Case(FG.linear_cka, dict(X=_P, Y=_V)),
    Case(FG.invariance_report, dict(embed_fn=_m, X=_Xr, ids=_ids, attributes=('contrast',), n_neighbors=3, seed=0),
         kinds=dict(n_neighbors='count'),
         then=lambda r: r.table[['mean_norm', 'energy', 'gravity', 'ks', 'cka']].to_numpy(float)),
]
EXEMPT = {
    'trustnb.explain.fr_geometry.VectorField': 'the record attribute_vector_field returns (covered through it)',
    'trustnb.explain.fr_geometry.FieldEnergy': 'the record field_energy returns (covered through it)',
    'trustnb.explain.fr_geometry.FieldGravity': 'the record field_gravity returns (covered through it)',
    'trustnb.explain.fr_geometry.KSResult': 'the record attribute_ks returns (covered through it)',
    'trustnb.explain.fr_geometry.InvarianceReport': 'the record invariance_report returns (covered through it)',
    'trustnb.explain.fr_geometry.frgeom_task': 'a full experiment (three 40-epoch embedders and their reports); run by the notebook and the claim',
    'trustnb.explain.fr_geometry.fr_geometry_claim': 'the registered reproduction (runs frgeom_task at one seed, covered by the notebook and the stored draws)',
}
