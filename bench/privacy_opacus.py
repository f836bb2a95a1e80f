"""Benchmark (issue 26.1): per-step time of DP-SGD through opacus' per-sample gradients vs a torch.func vmap path.

Run: `OMP_NUM_THREADS=1 python bench/privacy_opacus.py [--quick] [--batch 256] [--hidden 128] [--rounds 15] [--json out.json]`.
Needs the `scale` extra (opacus). One DP-SGD step = per-sample gradients, flat clipping to C, Gaussian noise on the sum,
SGD update, on the same model (digits MLP 64 -> hidden -> 10, float32) and the same batch:

- opacus: `GradSampleModule` (hooks) + `DPOptimizer` (what `trustnb.privacy.opacus.make_private` builds);
- vmap: `torch.func.vmap(torch.func.grad(...))` over `functional_call`, clip, noise, update (the per-sample-gradient path
  trustnb already uses in `trustnb.monitor.influence.Objective.grads`, here in float32 with the DP-SGD step around it);
- influence_grads: `Objective.grads` itself (float64, per-sample gradients only, no clip/noise/update) for reference.

Rounds are interleaved (opacus, vmap, influence, then the next round), after warm-up; we report medians and the ratio.
"""
import argparse, json, statistics, time, warnings
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn
from torch.func import functional_call, grad, vmap

warnings.filterwarnings('ignore')

def mlp(hidden, seed=0):
    with torch.random.fork_rng():
        torch.manual_seed(seed); return nn.Sequential(nn.Linear(64, hidden), nn.ReLU(), nn.Linear(hidden, 10))

def opacus_step_fn(model, X, y, z, C, lr):
    from opacus import GradSampleModule
    from opacus.optimizers import DPOptimizer
    gsm = GradSampleModule(model)
    opt = DPOptimizer(torch.optim.SGD(gsm.parameters(), lr=lr), noise_multiplier=z, max_grad_norm=C, expected_batch_size=len(X),
                      generator=torch.Generator().manual_seed(0))
    def step():
        opt.zero_grad(); F.cross_entropy(gsm(X), y).backward(); opt.step()
    return step

def vmap_step_fn(model, X, y, z, C, lr):
    params = {k: v.detach().clone() for k, v in model.named_parameters()}; gen = torch.Generator().manual_seed(0)
    def loss(p, x, t): return F.cross_entropy(functional_call(model, p, (x[None],)), t[None])
    per_sample = vmap(grad(loss), in_dims=(None, 0, 0))
    def step():
        g = per_sample(params, X, y)                                              # {name: (B, *shape)}
        norms = torch.sqrt(sum(v.reshape(len(X), -1).pow(2).sum(1) for v in g.values()))
        scale = (C / (norms + 1e-6)).clamp(max=1.0)
        with torch.no_grad():
            for k, v in g.items():
                s = torch.einsum('b,b...->...', scale, v) + z * C * torch.randn(v.shape[1:], generator=gen)
                params[k] -= lr * s / len(X)
    step.params = params
    return step

def influence_grads_fn(model, X, y):
    from trustnb.monitor.influence import Objective
    o = Objective(model); Xd = X.double()
    return lambda: o.grads(o.theta, Xd, y)

def parity(batch=64, hidden=128, C=1.0, lr=0.5):
    "Both steps without noise from the same weights: the max |difference| of the updated parameters (the two paths compute the same step)."
    from trustnb.data import load_digits
    d = load_digits(); X, y = torch.as_tensor(d.X[:batch]), torch.as_tensor(d.y[:batch])
    a, b = mlp(hidden), mlp(hidden); sa = opacus_step_fn(a, X, y, 0.0, C, lr); sb = vmap_step_fn(b, X, y, 0.0, C, lr)
    sa(); sb()
    return max(float((pa.detach() - sb.params[k]).abs().max()) for k, pa in a.named_parameters())

def bench(batch=256, hidden=128, rounds=15, warmup=3, z=1.0, C=1.0, lr=0.5):
    from trustnb.data import load_digits
    d = load_digits(); idx = np.random.default_rng(0).choice(len(d.X), batch, replace=batch > len(d.X))
    X, y = torch.as_tensor(d.X[idx]), torch.as_tensor(d.y[idx])
    fns = {'opacus': opacus_step_fn(mlp(hidden), X, y, z, C, lr), 'vmap': vmap_step_fn(mlp(hidden), X, y, z, C, lr),
           'influence_grads': influence_grads_fn(mlp(hidden), X, y)}
    times = {k: [] for k in fns}
    for r in range(warmup + rounds):
        for k, f in fns.items():
            t = time.perf_counter(); f(); dt = time.perf_counter() - t
            if r >= warmup: times[k].append(dt)
    med = {k: statistics.median(v) for k, v in times.items()}
    out = dict(torch_threads=torch.get_num_threads(), torch=torch.__version__, batch=batch, hidden=hidden, rounds=rounds,
               n_params=sum(p.numel() for p in mlp(hidden).parameters()),
               median_s=med, iqr_s={k: [float(np.percentile(v, 25)), float(np.percentile(v, 75))] for k, v in times.items()},
               ratio_opacus_over_vmap=med['opacus'] / med['vmap'])
    return out

if __name__ == '__main__':
    ap = argparse.ArgumentParser()
    ap.add_argument('--quick', action='store_true'); ap.add_argument('--batch', type=int, default=256)
    ap.add_argument('--hidden', type=int, default=128); ap.add_argument('--rounds', type=int, default=15); ap.add_argument('--json')
    a = ap.parse_args()
    import opacus
    print(f'torch {torch.__version__}, opacus {opacus.__version__}, torch threads {torch.get_num_threads()}', flush=True)
    print(f'parity (z=0, one step, batch 64): max |opacus - vmap| over the updated parameters = {parity():.2e}', flush=True)
    rows = []
    for b in ((64,) if a.quick else (64, a.batch, 1024)):
        r = bench(batch=b, hidden=a.hidden, rounds=5 if a.quick else a.rounds); rows.append(r)
        print(f"batch {b:5d}, {r['n_params']} params: per step opacus {r['median_s']['opacus'] * 1e3:.2f} ms, vmap {r['median_s']['vmap'] * 1e3:.2f} ms, "
              f"influence grads (float64, grads only) {r['median_s']['influence_grads'] * 1e3:.2f} ms; opacus/vmap = {r['ratio_opacus_over_vmap']:.2f}", flush=True)
    if a.json: json.dump(rows, open(a.json, 'w'), indent=1)
