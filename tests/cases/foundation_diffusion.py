"Contract cases for trustnb.diffusion (foundations: the tiny digits DDPM)."
import numpy as np
import torch
from contract import Case
from trustnb import diffusion as D

_s = D.make_schedule(20, 'cosine')
_x = np.random.default_rng(0).uniform(-1, 1, (3, 64)).astype(np.float32)
_z = np.random.default_rng(1).normal(size=(3, 64)).astype(np.float32)
_m = D.DDPM(hidden=8, T=20)
_y = np.array([0, 3, 9])

CASES = [
    Case(D.make_schedule, dict(T=10, kind='linear', beta_start=1e-4, beta_end=0.02), kinds=dict(T='count', beta_start='prob', beta_end='prob'),
         then=lambda s: s.alphas_cumprod),
    Case(D.make_schedule, dict(betas=np.linspace(1e-3, 0.1, 5)), id='trustnb.diffusion.make_schedule[betas]', then=lambda s: s.alphas_cumprod),
    Case(D.add_noise, dict(schedule=_s, x0=_x, noise=_z, t=5)),
    Case(D.add_noise, dict(schedule=_s, x0=_x, noise=_z, t=np.array([0, 5, 19])), id='trustnb.diffusion.add_noise[t array]'),
    Case(D.ddpm_posterior, dict(schedule=_s, eps=_z, t=5, x_t=_x), then=lambda p: (p.mean, p.variance, p.x0_pred)),
    Case(D.ddpm_step, dict(schedule=_s, eps=_z, t=5, x_t=_x, noise=_z, seed=0), kinds=dict(seed='nonneg')),
    Case(D.ddim_step, dict(schedule=_s, eps=_z, t=5, t_prev=2, x_t=_x)),
    Case(D.timestep_embedding, dict(t=torch.tensor([0, 5, 9]), dim=8), kinds=dict(dim='count')),
    Case(D.Block, dict(d=4), kinds=dict(d='count'), then=lambda b: b(torch.zeros(2, 4), torch.zeros(2, 4)).detach(), rng_free=False),  # nn.Module init draws from torch's global RNG, as torch modules do
    Case(D.EpsNet, dict(d_in=6, n_classes=3, hidden=4, t_dim=4), kinds=dict(d_in='count', n_classes='count', hidden='count', t_dim='count'),
         then=lambda n: n(torch.zeros(2, 6), torch.tensor([0, 1]), torch.tensor([0, 3])).detach(), rng_free=False),  # nn.Module init
    Case(D.DDPM, dict(d_in=6, n_classes=3, hidden=4, T=10, kind='linear'), kinds=dict(d_in='count', n_classes='count', hidden='count', T='count'),
         then=lambda m: m(np.zeros((2, 6), np.float32), 3).copy(), rng_free=False),  # nn.Module init
    Case(_m, dict(x=_x, t=5, y=_y), kinds=dict(y='labels'), legal=dict(y=('negative_label',)), id='trustnb.diffusion.DDPM.forward'),  # -1: unconditional
    Case(D.to_pm1, dict(X=_x)),
    Case(D.from_pm1, dict(X=_x)),
    Case(D.train_ddpm, dict(model=D.DDPM(hidden=8, T=20), X=_x, y=_y, steps=2, batch_size=4, lr=1e-3, p_uncond=0.1, weight_decay=0.0, seed=0),
         kinds=dict(y='labels', steps='count', batch_size='count', lr='positive', p_uncond='prob', weight_decay='nonneg', seed='nonneg'),
         legal=dict(y=('negative_label',)), then=lambda m: m.train_losses_),  # y = -1: an unconditional row
    Case(D.ddpm_sample, dict(model=_m, y=_y, guidance_scale=1.5, seed=0), kinds=dict(y='labels', guidance_scale='nonneg', seed='nonneg'),
         legal=dict(y=('negative_label',))),
    Case(D.ddim_timesteps, dict(t=10, n_steps=4), kinds=dict(t='nonneg', n_steps='count')),
    Case(D.ddim_denoise, dict(model=_m, x_t=_x, t=10, y=_y, n_steps=4, guidance_scale=2.0), kinds=dict(y='labels', n_steps='count', guidance_scale='nonneg'),
         legal=dict(y=('negative_label',))),
    Case(D.ddim_sample, dict(model=_m, y=_y, n_steps=4, guidance_scale=1.0, seed=0), kinds=dict(y='labels', n_steps='count', guidance_scale='nonneg', seed='nonneg'),
         legal=dict(y=('negative_label',))),
    Case(D.eps_loss, dict(model=_m, X=_x, y=_y, t=5, n_draws=2, seed=0), kinds=dict(y='labels', t='nonneg', n_draws='count', seed='nonneg'),
         legal=dict(y=('negative_label',))),
    Case(D.hidden_activations, dict(model=_m, X=_x, ts=np.array([0, 10]), y=_y, path='net.mid', seed=0), kinds=dict(y='labels', seed='nonneg'),
         legal=dict(y=('negative_label',))),
    Case(D.digits_split, dict(n_train=10, seed=0), kinds=dict(n_train='count', seed='nonneg')),
    Case(D.digits_ddpm, dict(hidden=8, steps=2, seed=0), kinds=dict(hidden='count', steps='count', seed='nonneg'), then=lambda m: m(_x, 3)),
]
EXEMPT = {
    'trustnb.diffusion.diffusers_parity': 'parity check against the optional diffusers package (run in the notebook); its inputs go through make_schedule/add_noise/ddpm_step/ddim_step Cases',
    'trustnb.diffusion.sample_accuracy': 'trains/loads the zoo digits CNN and samples 200 images (seconds); run in the notebook, its sampling is the ddim_sample Case',
}
