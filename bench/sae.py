"""TopK SAE training head to head: trustnb vs overcomplete's TopKSAE (and SAELens's TopK training SAE when installed).

Same activations, latent count, k, batch size and steps for every library. Reports, from ONE run:
- throughput: steps/s, timed in interleaved rounds (trustnb, anchor, trustnb, anchor, ...) so that a busy machine
  slows both alike; the ratio is the median over rounds of trustnb steps/s / anchor steps/s (goal >= 1);
- quality: held-out FVU, each library at its best learning rate from the same grid (`--lrs`, same steps), and the
  ratio trustnb / anchor (goal <= 1);
- the floor: trustnb's step time over the bare operations a TopK step needs (encoder matmul, top-k, sparse decode and
  their backward, no optimizer; `run_floor`), timed in the same rounds (goal <= 1.3).

Anchors (required; the script stops with the install line when one is missing, unless `--skip-missing`):
    pip install --no-deps overcomplete einops   # overcomplete.sae needs einops only; its top-level package pulls torchvision,
                                                # opencv and timm for vision backbones, which this benchmark does not use
    pip install sae-lens                        # optional anchor (pulls transformer-lens); skipped with --skip-missing
or `python bench/sae.py --install` to run the first line.

    python bench/sae.py                      # CPU-sized defaults (about 2 minutes on one thread)
    python bench/sae.py --device cuda --d 768 --n-latents 16384 --k 64 --batch 4096 --steps 2000
"""
from __future__ import annotations
import argparse, importlib, importlib.util, subprocess, sys, time, types
import numpy as np
import torch

from trustnb.data import make_sparse_dictionary
from trustnb.sae.core import TopKSAE, train_sae, fvu

INSTALL = {'overcomplete': [sys.executable, '-m', 'pip', 'install', '--no-deps', 'overcomplete', 'einops'],
           'sae-lens': [sys.executable, '-m', 'pip', 'install', 'sae-lens']}

def _sync(dev):
    if dev.type == 'cuda': torch.cuda.synchronize()

def _adam(params, lr):
    "Adam for the anchors' loops, fused where the torch build and device have the kernel (as trustnb's `train_sae` uses)."
    params = list(params)
    try: return torch.optim.Adam(params, lr=lr, fused=True)
    except (RuntimeError, TypeError, ValueError): return torch.optim.Adam(params, lr=lr)

def _batches(X, steps, bs, seed):
    g = torch.Generator().manual_seed(seed)
    return [X[torch.randint(len(X), (bs,), generator=g)] for _ in range(steps)]


def run_trustnb(X, Xte, a, dev, lr):
    "trustnb: `train_sae` with its defaults (warm-up, final LR decay, unit-norm decoder, AuxK, per-step history)."
    sae = TopKSAE(X.shape[1], a.n_latents, k=a.k, seed=a.seed).to(dev)
    _sync(dev); t = time.perf_counter()
    train_sae(sae, X, steps=a.steps, lr=lr, batch_size=a.batch, seed=a.seed, progress_bar=False)
    _sync(dev); dt = time.perf_counter() - t
    with torch.no_grad(): f = fvu(Xte, sae(Xte).x_hat)
    return dict(steps_per_s=a.steps / dt, fvu=f)

TRUSTNB_CONFIG = ('TopKSAE(d, n_latents, k) (Gao et al.: tied init, b_dec subtracted, unit-norm decoder, AuxK 1/32); train_sae defaults: '
                  'Adam (fused where available), 5% warm-up, linear decay over the last 20%, batches by reshuffled permutation, per-step loss/FVU/L0 history')


def _import_overcomplete_sae():
    "Import `overcomplete.sae` without running overcomplete/__init__.py (which imports torchvision)."
    if 'overcomplete.sae' in sys.modules: return sys.modules['overcomplete.sae']
    spec = importlib.util.find_spec('overcomplete')
    if spec is None: raise ImportError('overcomplete is not installed: ' + ' '.join(INSTALL['overcomplete'][2:]))
    if 'overcomplete' not in sys.modules:
        pkg = types.ModuleType('overcomplete'); pkg.__path__ = list(spec.submodule_search_locations); sys.modules['overcomplete'] = pkg
    return importlib.import_module('overcomplete.sae')


def run_overcomplete(X, Xte, a, dev, lr):
    "overcomplete: TopKSAE with its default encoder and dictionary, its own `train_sae` loop, MSE criterion."
    oc = _import_overcomplete_sae()
    torch.manual_seed(a.seed); sae = oc.TopKSAE(X.shape[1], a.n_latents, top_k=a.k, device=str(dev))
    opt = _adam(sae.parameters(), lr)
    crit = lambda x, x_hat, *_: ((x - x_hat) ** 2).mean()
    data = _batches(X, a.steps, a.batch, a.seed)  # pre-drawn batches: its loop pays no sampling cost
    _sync(dev); t = time.perf_counter()
    oc.train_sae(sae, data, crit, opt, nb_epochs=1, monitoring=0, device=str(dev))
    _sync(dev); dt = time.perf_counter() - t
    sae.eval()
    with torch.no_grad(): f = fvu(Xte, sae(Xte)[2])
    return dict(steps_per_s=a.steps / dt, fvu=f)

OVERCOMPLETE_CONFIG = ('overcomplete.sae.TopKSAE(d, nb_concepts=n_latents, top_k=k) with its defaults (Linear+BatchNorm encoder, '
                       'l2-normalised dictionary, xavier init); overcomplete.sae.train_sae(nb_epochs=1, monitoring=0, clip_grad=1.0 default), '
                       'Adam (fused where available, as trustnb), MSE criterion, batches pre-drawn (not timed)')


def run_saelens(X, Xte, a, dev, lr):
    "SAELens: TopKTrainingSAE.training_forward_pass, plain Adam loop."
    try:
        from sae_lens.saes.topk_sae import TopKTrainingSAE, TopKTrainingSAEConfig
        from sae_lens.saes.sae import TrainStepInput
    except ImportError as e: raise ImportError(f'sae-lens is not installed or incomplete ({e}): ' + ' '.join(INSTALL['sae-lens'][2:]))
    torch.manual_seed(a.seed)
    sae = TopKTrainingSAE(TopKTrainingSAEConfig(d_in=X.shape[1], d_sae=a.n_latents, k=a.k, device=str(dev)))
    opt = _adam(sae.parameters(), lr); data = _batches(X, a.steps, a.batch, a.seed)
    dead = torch.zeros(a.n_latents, dtype=torch.bool, device=dev)
    _sync(dev); t = time.perf_counter()
    for i, xb in enumerate(data):
        out = sae.training_forward_pass(TrainStepInput(sae_in=xb.to(dev), coefficients={}, dead_neuron_mask=dead,
                                                       n_training_steps=i, is_logging_step=False))
        opt.zero_grad(); out.loss.backward(); opt.step()
    _sync(dev); dt = time.perf_counter() - t
    with torch.no_grad(): f = fvu(Xte, sae.decode(sae.encode(Xte)))
    return dict(steps_per_s=a.steps / dt, fvu=f)

SAELENS_CONFIG = 'sae_lens TopKTrainingSAE(TopKTrainingSAEConfig(d_in, d_sae=n_latents, k)) defaults, training_forward_pass + Adam (fused where available)'

def run_floor(X, Xte, a, dev, lr=None):
    """The floor: the bare operations one TopK SAE step needs, on pre-drawn batches: encoder matmul, top-k, sparse decode
    (embedding_bag), squared error, and their backward; no optimizer, validation, AuxK, decoder normalisation or logging."""
    g = torch.Generator().manual_seed(a.seed); d, m = X.shape[1], a.n_latents
    W_enc = (torch.randn(d, m, generator=g) / d ** 0.5).to(dev).requires_grad_(); b_enc = torch.zeros(m, device=dev, requires_grad=True)
    W_dec = W_enc.detach().T.contiguous().requires_grad_(); b_dec = torch.zeros(d, device=dev, requires_grad=True)
    data = _batches(X, a.steps, a.batch, a.seed)
    _sync(dev); t = time.perf_counter()
    for xb in data:
        pre = (xb - b_dec) @ W_enc + b_enc; v, i = pre.topk(a.k, dim=-1, sorted=False)
        x_hat = torch.nn.functional.embedding_bag(i, W_dec, per_sample_weights=torch.relu(v), mode='sum') + b_dec
        ((x_hat - xb) ** 2).sum(-1).mean().backward()
        for w in (W_enc, b_enc, W_dec, b_dec): w.grad = None
    _sync(dev); dt = time.perf_counter() - t
    return dict(steps_per_s=a.steps / dt)

ANCHORS = {'overcomplete': (run_overcomplete, OVERCOMPLETE_CONFIG), 'sae-lens': (run_saelens, SAELENS_CONFIG)}


def _available(name):
    try:
        if name == 'overcomplete': _import_overcomplete_sae()
        else: importlib.import_module('sae_lens.saes.topk_sae')
        return True
    except Exception: return False


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--device', default='cuda' if torch.cuda.is_available() else 'cpu')
    p.add_argument('--d', type=int, default=64); p.add_argument('--n-latents', type=int, default=1024)
    p.add_argument('--k', type=int, default=16); p.add_argument('--batch', type=int, default=512)
    p.add_argument('--steps', type=int, default=500); p.add_argument('--n', type=int, default=65536)
    p.add_argument('--lrs', type=float, nargs='+', default=[1e-3, 3e-3, 1e-2, 3e-2], help='learning-rate grid; each library is scored at its best (said when that is at an end of the grid)')
    p.add_argument('--rounds', type=int, default=3, help='interleaved timing rounds')
    p.add_argument('--seed', type=int, default=0)
    p.add_argument('--install', action='store_true', help='pip install the overcomplete anchor, then run')
    p.add_argument('--skip-missing', action='store_true', help='run without the anchors that are not installed')
    a = p.parse_args(argv); dev = torch.device(a.device)
    if a.install: subprocess.check_call(INSTALL['overcomplete'])
    anchors = {n: v for n, v in ANCHORS.items() if _available(n)}
    missing = [n for n in ANCHORS if n not in anchors]
    for n in missing: print(f'anchor {n} is not installed: {" ".join(INSTALL[n][2:])}')
    if 'overcomplete' in missing and not a.skip_missing: sys.exit('overcomplete is required (see above), or pass --skip-missing')
    D = make_sparse_dictionary(n=a.n + 8192, d=a.d, n_atoms=4 * a.d, k=max(1, a.k // 2), seed=a.seed)
    X = torch.as_tensor(D.X[:a.n], device=dev); Xte = torch.as_tensor(D.X[a.n:], device=dev)
    print(f'data: make_sparse_dictionary(n={a.n}+8192 held out, d={a.d}, n_atoms={4 * a.d}, k={max(1, a.k // 2)}, seed={a.seed})')
    print(f'every library: device={dev} n_latents={a.n_latents} k={a.k} batch={a.batch} steps={a.steps}; threads={torch.get_num_threads()}')
    print(f'  trustnb: {TRUSTNB_CONFIG}')
    for n, (_, cfg) in anchors.items(): print(f'  {n}: {cfg}')
    libs = {'trustnb': run_trustnb, **{n: fn for n, (fn, _) in anchors.items()}}
    warm = argparse.Namespace(**{**vars(a), 'steps': min(20, a.steps)})
    for fn in libs.values(): fn(X, Xte, warm, dev, a.lrs[0])  # allocator, thread pools, lazy imports
    # quality: each library at its best lr of the grid
    fv = {n: {lr: fn(X, Xte, a, dev, lr)['fvu'] for lr in a.lrs} for n, fn in libs.items()}
    best = {n: min(v.items(), key=lambda t: t[1]) for n, v in fv.items()}
    # throughput: interleaved rounds at the first lr of the grid
    sps = {n: [] for n in libs}
    floor = []  # the bare step (run_floor), timed in the same rounds
    run_floor(X, Xte, warm, dev)
    for _ in range(a.rounds):
        for n, fn in libs.items(): sps[n].append(fn(X, Xte, a, dev, a.lrs[0])['steps_per_s'])
        floor.append(run_floor(X, Xte, a, dev)['steps_per_s'])
    print(f"\n{'library':14s}{'steps/s (median)':>18s}{'thru × (median of rounds)':>28s}{'best lr':>9s}{'FVU':>9s}{'FVU ×':>8s}")
    for n in libs:
        thr = float(np.median([t / o for t, o in zip(sps['trustnb'], sps[n])]))
        print(f"{n:14s}{np.median(sps[n]):18.1f}{thr:28.2f}{best[n][0]:9.0e}{best[n][1]:9.4f}{best['trustnb'][1] / max(best[n][1], 1e-12):8.2f}")
    for n in libs:
        if best[n][0] in (min(a.lrs), max(a.lrs)): print(f'note: {n} is best at an end of the lr grid ({best[n][0]:g}): widen --lrs to be sure it is at its best')
    print('\nFVU at every lr of the grid:', {n: {f'{lr:g}': round(f, 4) for lr, f in v.items()} for n, v in fv.items()})
    print('thru × = trustnb steps/s / library steps/s, per interleaved round (goal >= 1); FVU × = trustnb best FVU / library best FVU (goal <= 1)')
    fl = float(np.median([f / t for t, f in zip(sps['trustnb'], floor)]))
    print(f'floor (encoder matmul, top-k, embedding_bag decode, squared error and their backward; no optimizer): {np.median(floor):.1f} steps/s; '
          f'trustnb step time / floor step time = {fl:.2f} (median of rounds; goal <= 1.3)')
    return dict(steps_per_s=sps, fvu=fv, best=best, floor=floor)


if __name__ == '__main__': main()
