"""Chapter 9 head to head, in ONE run: trustnb `f_softargmax` vs `entmax.entmax_bisect` (the anchor users pick for
alpha-entmax), each in its documented default configuration (both: 50 bisection iterations, float32 input, the
unit reference measure), on the same logits. Reports max |difference| of the outputs and of the gradients, and
the wall-time ratio trustnb/anchor for the forward pass and for forward+backward (best of `--reps`).

Anchor: pip install entmax   (in trustnb[bench])
    python bench/learn.py                      # (4096, 32768) logits, alpha in 1.25, 1.5, 2
    python bench/learn.py --rows 512 --cols 4096
    python bench/learn.py --masked 0.5           # half of the logits masked with -inf (entmax's masking convention)
"""
from __future__ import annotations
import argparse, time
import torch

def _best(fn, reps):
    best, out = float('inf'), None
    for _ in range(reps):
        t = time.perf_counter(); out = fn(); best = min(best, time.perf_counter() - t)
    return out, best

def softargmax_vs_entmax(rows=4096, cols=32768, alphas=(1.25, 1.5, 2.0), reps=3, seed=0, masked=0.0):
    from entmax import entmax_bisect
    from trustnb.learn.f_divergence import f_softargmax, Alpha
    g = torch.Generator().manual_seed(seed)
    X = torch.randn(rows, cols, generator=g) * 2; G = torch.randn(rows, cols, generator=g)
    if masked:  # a share of the logits masked with -inf (at least one class kept per row)
        M = torch.rand(rows, cols, generator=g) < masked; M[:, 0] = False; X = X.masked_fill(M, float('-inf'))
    print(f'== f_softargmax vs entmax.entmax_bisect: ({rows}, {cols}) float32 logits{f", {masked:.0%} masked (-inf)" if masked else ""}, {torch.get_num_threads()} torch threads, '
          f'both n_iter=50 (their default and ours), best of {reps}')
    print(f'  {"alpha":>5} {"max|dp|":>9} {"max|dgrad|":>10} {"fwd ours":>9} {"fwd entmax":>10} {"ratio":>6} {"f+b ours":>9} {"f+b entmax":>10} {"ratio":>6}')
    ratios = []
    for a in alphas:
        ours = lambda x: f_softargmax(x, Alpha(a), n_iter=50)
        ref = lambda x: entmax_bisect(x, alpha=a, dim=-1, n_iter=50)
        with torch.no_grad():
            p, t_o = _best(lambda: ours(X), reps); r, t_r = _best(lambda: ref(X), reps)
        dp = float((p - r).abs().max()); del p, r
        def fb(fn):
            x = X.clone().requires_grad_(True); (fn(x) * G).sum().backward(); return x.grad
        go, tb_o = _best(lambda: fb(ours), reps); gr, tb_r = _best(lambda: fb(ref), reps)
        dg = float((go - gr).abs().max()); del go, gr
        ratios.append((t_r / t_o, tb_r / tb_o))
        print(f'  {a:5.2f} {dp:9.1e} {dg:10.1e} {t_o:8.2f}s {t_r:9.2f}s {t_r / t_o:5.2f}x {tb_o:8.2f}s {tb_r:9.2f}s {tb_r / tb_o:5.2f}x')
    print('  ratio = entmax time / trustnb time (> 1: trustnb is faster; the goal is >= 1)')
    return ratios

if __name__ == '__main__':
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument('--rows', type=int, default=4096); ap.add_argument('--cols', type=int, default=32768)
    ap.add_argument('--reps', type=int, default=3); ap.add_argument('--masked', type=float, default=0.0, help='share of logits set to -inf')
    a = ap.parse_args()
    softargmax_vs_entmax(a.rows, a.cols, reps=a.reps, masked=a.masked)
