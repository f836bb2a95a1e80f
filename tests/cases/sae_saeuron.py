"Contract cases for trustnb.sae.saeuron (concept scores, feature selection, the SAE edit, edited sampling, the SAE cache, the benchmark)."
import numpy as np
import torch
from contract import Case, Est
from trustnb.core import local_seed
from trustnb.sae.core import TopKSAE
from trustnb.sae import saeuron as S

_rng = np.random.default_rng(0)
_ACTS = {c: np.abs(_rng.standard_normal((5, 3, 4))).astype(np.float32) for c in range(3)}
_SAE = TopKSAE(4, 8, k=2, seed=0)
_SC = S.ConceptScorer(sae=_SAE).fit(_ACTS)
_F = np.zeros((3, 8), bool); _F[:, 1] = True
_H = torch.as_tensor(_rng.standard_normal((6, 4)).astype(np.float32))
_AB = S.SAEAblation(_SAE, _F, -2.0, scale=np.ones((3, 8)), gate=np.zeros(8))

def _ddpm():
    from trustnb.diffusion import DDPM
    with local_seed(0): return DDPM(hidden=8, T=6)
_M = _ddpm()
_SAE8 = TopKSAE(8, 16, k=2, seed=0)  # an SAE for the tiny DDPM's 8-wide `mid` block

CASES = [
    Case(S.ConceptScorer, dict(sae=None, eps=1e-8, batch_size=16), then=lambda s: s.fit(_ACTS), kinds=dict(eps='prob', batch_size='count')),
    Case(S.ConceptScorer, dict(sae=_SAE, eps=1e-8, batch_size=4), then=lambda s: s.fit(_ACTS), id='ConceptScorer[sae]'),
    Case(_SC.scores, dict(concept=1, t=2)),
    Case(_SC.ablation, dict(concept=2, percentile=90.0, multiplier=-3.0, keep_error=True)),
    Case(S.select_features, dict(scores=_SC.scores(0), percentile=75.0)),
    Case(S.SAEAblation, dict(sae=_SAE, features=_F, multiplier=-2.0, scale=np.ones((3, 8)), gate=np.zeros(8), keep_error=True), then=lambda e: e.apply(_H, 1),
         legal=dict(gate=('extra_dim',), scale=('n_latents_disagrees_axis0',))),  # (1, n_latents): one row for every timestep, as documented; a scale of
         # fewer rows than `features` is cut to 1 or 2 rows here: 1 row broadcasts over the timesteps, 2 rows (neither 1 nor T=3) raise naming `scale`
    Case(S.SAEAblation, dict(sae=None, features=np.array([True, False, False, True]), multiplier=-1.0, scale=None, gate=None, keep_error=True),
         then=lambda e: e.apply(_H.abs()), legal=dict(features=('extra_dim',)), id='SAEAblation[neurons]'),  # (1, n_units): one row for every timestep
    Case(_AB.apply, dict(h=_H, t=2), legal=dict(h=('extra_dim',))),  # (1, n, d): a leading axis of positions is edited like any other
    Case(S.generate, dict(model=_M, y=np.array([0, 3]), edit=None, path='net.mid', n_steps=2, record=True, seed=0), kinds=dict(y='labels', n_steps='count')),
    Case(S.class_accuracy, dict(model=_M, edit=None, n_per_class=1, n_steps=2, path='net.mid', seed=0), kinds=dict(n_per_class='count', n_steps='count')),
    Case(S.diffusion_sae, dict(model=_M, n_latents=8, k=2, n_per_class=1, n_steps=2, path='net.mid', train_steps=2, seed=0),
         kinds=dict(n_latents='count', k='count', n_per_class='count', n_steps='count', train_steps='count')),
    Case(S.saeuron_benchmark, dict(targets=(3,), percentiles=(50.0,), neuron_percentiles=(50.0,), multipliers=(-1.0,), max_target=0.1, n_score=1, n_tune=1,
                                   n_test=1, n_steps=2, seed=0, model=_M, sae=_SAE8, sham=False),
         kinds=dict(max_target='prob', n_score='count', n_tune='count', n_test='count', n_steps='count')),
]
ESTIMATORS = [Est(lambda: S.ConceptScorer(sae=_SAE), lambda: ((_ACTS,), {}), methods=('scores',))]
EXEMPT = {'trustnb.sae.saeuron.saeuron_claim': 'the registered reproduction (runs saeuron_benchmark on the zoo DDPM at full size; covered by the notebook)'}
