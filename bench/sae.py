"""TopK SAE training head to head: trustnb vs overcomplete's TopKSAE vs SAELens's TopK training SAE.

Same activations, latent count, k, batch size, steps and learning rate; reports steps/s, held-out FVU and peak memory,
and the ratios trustnb / anchor (goal: throughput ratio >= 1, FVU ratio <= 1). An anchor that is not installed is
reported as missing and skipped; trustnb is always timed.

    python bench/sae.py                      # CPU-sized defaults
    python bench/sae.py --device cuda --d 768 --n-latents 16384 --k 64 --batch 4096 --steps 2000

On a shared CPU the timings swing by 2x between runs: compare rows of one run only, and prefer a GPU.
Anchors: `pip install overcomplete` (its top-level package imports torchvision for vision backbones; we import only
`overcomplete.sae`, which does not need it) and `pip install sae-lens` (pulls transformer-lens).
"""
from __future__ import annotations
import argparse, importlib, importlib.util, os, sys, time, types, resource
import numpy as np
import torch

from trustnb.data import make_sparse_dictionary
from trustnb.sae.core import TopKSAE, train_sae, fvu


def _sync(dev):
    if dev.type == 'cuda': torch.cuda.synchronize()

def _mem_reset(dev):
    if dev.type == 'cuda': torch.cuda.reset_peak_memory_stats()

def _mem_peak(dev, rss0):
    "Peak CUDA memory (MiB) on GPU; on CPU the growth of the process's max RSS (MiB, a coarse upper bound)."
    if dev.type == 'cuda': return torch.cuda.max_memory_allocated() / 2**20
    return max(0.0, (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - rss0) / 1024)

def _batches(X, steps, bs, seed):
    g = torch.Generator().manual_seed(seed)
    for _ in range(steps): yield X[torch.randint(len(X), (bs,), generator=g)]


def run_trustnb(X, Xte, a, dev, aux_coeff=1/32):
    torch.manual_seed(a.seed); sae = TopKSAE(X.shape[1], a.n_latents, k=a.k, seed=a.seed).to(dev)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; _mem_reset(dev); _sync(dev); t = time.time()
    train_sae(sae, X, steps=a.steps, lr=a.lr, batch_size=a.batch, seed=a.seed, aux_coeff=aux_coeff, progress_bar=False)
    _sync(dev); dt = time.time() - t
    with torch.no_grad(): f = fvu(Xte, sae(Xte).x_hat)
    return dict(steps_per_s=a.steps / dt, fvu=f, peak_mib=_mem_peak(dev, rss0))


def _import_overcomplete_sae():
    "Import `overcomplete.sae` without running overcomplete/__init__.py (which needs torchvision)."
    if 'overcomplete.sae' in sys.modules: return sys.modules['overcomplete.sae']
    spec = importlib.util.find_spec('overcomplete')
    if spec is None: raise ImportError('overcomplete is not installed (pip install overcomplete)')
    if 'overcomplete' not in sys.modules:
        pkg = types.ModuleType('overcomplete'); pkg.__path__ = list(spec.submodule_search_locations); sys.modules['overcomplete'] = pkg
    return importlib.import_module('overcomplete.sae')


def run_overcomplete(X, Xte, a, dev):
    oc = _import_overcomplete_sae()
    torch.manual_seed(a.seed); sae = oc.TopKSAE(X.shape[1], a.n_latents, top_k=a.k, device=str(dev))
    opt = torch.optim.Adam(sae.parameters(), lr=a.lr)
    crit = lambda x, x_hat, *_: ((x - x_hat) ** 2).mean()
    data = list(_batches(X, a.steps, a.batch, a.seed)) # pre-drawn batches: their loop pays no sampling cost
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; _mem_reset(dev); _sync(dev); t = time.time()
    oc.train_sae(sae, data, crit, opt, nb_epochs=1, monitoring=0, device=str(dev))
    _sync(dev); dt = time.time() - t
    sae.eval()
    with torch.no_grad(): f = fvu(Xte, sae(Xte)[2])
    return dict(steps_per_s=a.steps / dt, fvu=f, peak_mib=_mem_peak(dev, rss0))


def run_saelens(X, Xte, a, dev):
    try:
        from sae_lens.saes.topk_sae import TopKTrainingSAE, TopKTrainingSAEConfig
        from sae_lens.saes.sae import TrainStepInput
    except ImportError as e: raise ImportError(f'sae-lens is not installed or incomplete (pip install sae-lens): {e}')
    torch.manual_seed(a.seed)
    sae = TopKTrainingSAE(TopKTrainingSAEConfig(d_in=X.shape[1], d_sae=a.n_latents, k=a.k, device=str(dev)))
    opt = torch.optim.Adam(sae.parameters(), lr=a.lr)
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss; _mem_reset(dev); _sync(dev); t = time.time()
    dead = torch.zeros(a.n_latents, dtype=torch.bool, device=dev)
    for i, xb in enumerate(_batches(X, a.steps, a.batch, a.seed)):
        out = sae.training_forward_pass(TrainStepInput(sae_in=xb.to(dev), coefficients={}, dead_neuron_mask=dead,
                                                       n_training_steps=i, is_logging_step=False))
        opt.zero_grad(); out.loss.backward(); opt.step()
    _sync(dev); dt = time.time() - t
    with torch.no_grad(): f = fvu(Xte, sae.decode(sae.encode(Xte)))
    return dict(steps_per_s=a.steps / dt, fvu=f, peak_mib=_mem_peak(dev, rss0))


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    p.add_argument('--d', type=int, default=64); p.add_argument('--n-latents', type=int, default=1024)
    p.add_argument('--k', type=int, default=16); p.add_argument('--batch', type=int, default=512)
    p.add_argument('--steps', type=int, default=500); p.add_argument('--n', type=int, default=65536)
    p.add_argument('--lr', type=float, default=1e-3); p.add_argument('--seed', type=int, default=0)
    a = p.parse_args(argv); dev = torch.device(a.device)
    D = make_sparse_dictionary(n=a.n + 8192, d=a.d, n_atoms=4 * a.d, k=max(1, a.k // 2), seed=a.seed)
    X = torch.as_tensor(D.X[:a.n], device=dev); Xte = torch.as_tensor(D.X[a.n:], device=dev)
    print(f'device={dev} d={a.d} n_latents={a.n_latents} k={a.k} batch={a.batch} steps={a.steps} lr={a.lr}')
    res = {}
    runs = [('trustnb', run_trustnb), ('trustnb-noAuxK', lambda *z: run_trustnb(*z, aux_coeff=0.0)),
            ('overcomplete', run_overcomplete), ('sae-lens', run_saelens)] # overcomplete's TopK has no AuxK
    warm = argparse.Namespace(**{**vars(a), 'steps': min(10, a.steps)})
    for name, fn in runs: # warm-up (allocator, thread pools, lazy imports), so the first library timed is not penalised
        try: fn(X, Xte, warm, dev)
        except Exception: pass
    for name, fn in runs:
        try: res[name] = fn(X, Xte, a, dev)
        except Exception as e: res[name] = None; print(f'  {name}: MISSING/FAILED — {type(e).__name__}: {e}')
    ours = res['trustnb']
    print(f"\n{'library':14s}{'steps/s':>10s}{'FVU':>9s}{'peak MiB':>10s}{'thru ×':>9s}{'FVU ×':>8s}")
    for name, r in res.items():
        if r is None: print(f'{name:14s}{"missing":>10s}'); continue
        thr = ours['steps_per_s'] / r['steps_per_s']; fr = ours['fvu'] / max(r['fvu'], 1e-12)
        print(f"{name:14s}{r['steps_per_s']:10.1f}{r['fvu']:9.4f}{r['peak_mib']:10.1f}{thr:9.2f}{fr:8.2f}")
    print('\nthru × = trustnb steps/s / anchor steps/s (goal ≥ 1); FVU × = trustnb FVU / anchor FVU (goal ≤ 1)')
    return res


if __name__ == '__main__': main()
