"Contract cases for trustnb.privacy.rediffuse (chapter 4)."
import numpy as np
from contract import Case, Est
from trustnb import diffusion as D
from trustnb.privacy import rediffuse as RD

_m = D.DDPM(hidden=8, T=20)
_api = RD.DDIMVariation(_m, n_steps=3)
_x = np.random.default_rng(0).uniform(-1, 1, (6, 64)).astype(np.float32)
_lab = np.array([1, 1, 1, 0, 0, 0])
_rng = np.random.default_rng(1)

CASES = [
    Case(RD.DDIMVariation, dict(model=_m, n_steps=3), kinds=dict(n_steps='count'), then=lambda a: a(_x, 5, seed=0)),
    Case(_api, dict(x=_x, t=5, seed=0), kinds=dict(t='count', seed='nonneg'), id='trustnb.privacy.rediffuse.DDIMVariation.__call__'),
    Case(RD.rediffuse_scores, dict(api=_api, x=_x, t=5, n=2, distance='l2', seed=0), kinds=dict(t='count', n='count', seed='nonneg')),
    Case(RD.mia_metrics, dict(scores=_rng.normal(size=6), is_member=_lab, greater_is_member=False), kinds=dict(is_member='labels'),
         then=lambda r: (r.auc, r.asr, r.tpr_at_1fpr)),
    Case(RD.loss_attack_scores, dict(model=_m, x=_x, t=5, n_draws=2, seed=0), kinds=dict(t='nonneg', n_draws='count', seed='nonneg')),
    Case(RD.member_ddpm, dict(n_members=10, steps=2, seed=0), kinds=dict(n_members='count', steps='count', seed='nonneg'), then=lambda m: m(_x, 3)),
    Case(RD.rediffuse_experiment, dict(n_members=10, n_nonmembers=10, t=5, ns=(1, 2), steps=2, seed=0),
         kinds=dict(n_members='count', n_nonmembers='count', t='count', steps='count', seed='nonneg'), then=lambda r: r.table().values),
]
ESTIMATORS = [
    Est(make=lambda: RD.ReDiffuseMIA(api=_api, t=5, n=2, seed=0), fit_args=lambda: ((_x, _lab), {}), methods=('predict', 'decision_function'),
        compare='decision_function'),
]
EXEMPT = {
    'trustnb.privacy.rediffuse.rediffuse_claim': 'the registered reproduction (runs rediffuse_experiment on the cached 200-member model, covered)',
    'trustnb.privacy.rediffuse.ReDiffuseResult': 'result record returned by rediffuse_experiment (covered through it)',
}
