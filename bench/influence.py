"""Influence functions: trustnb's exact / CG / LiSSA inverse-HVPs vs pyDVL and captum on the same model.

Model: multinomial logistic regression on digits (650 parameters, float64), 1,200 training images with 20% label
noise, 300 clean validation images, L2 = 1e-3, trained to its minimum. Quantity compared: the influence of every
training point on the mean validation loss, g_valᵀ (H + λI)⁻¹ g_i. Reference: trustnb's exact solver
(eigendecomposition of the exact Hessian). For each method we report the time, the Pearson and Spearman correlation
with the reference, the relative L2 error after the best scalar rescaling (libraries differ in whether H is the
Hessian of the mean or the sum of the losses) and the solver's own convergence diagnostics.

    python bench/influence.py [--json out.json] [--lissa-depth 20000]

pyDVL and captum are optional: a library that does not import is reported as missing, never silently skipped.
"""
from __future__ import annotations
import argparse, json, os, resource, tempfile, time, warnings
import numpy as np
import torch
from torch import nn
import torch.nn.functional as F
from scipy.stats import spearmanr
from trustnb.monitor.influence import InfluenceFunction, fit_minimum, _noisy_digits

L2, SEED = 1e-3, 0


def agreement(v, ref):
    "Pearson, Spearman and relative error after the best scalar fit of `v` to `ref`."
    v, ref = np.asarray(v, float).ravel(), np.asarray(ref, float).ravel()
    a = (v @ ref) / max(v @ v, 1e-300)
    return dict(pearson=float(np.corrcoef(v, ref)[0, 1]), spearman=float(spearmanr(v, ref)[0]),
                rel_err_scaled=float(np.linalg.norm(a * v - ref) / np.linalg.norm(ref)), scale=float(a))


def timed(fn):
    t = time.perf_counter(); out = fn(); return out, time.perf_counter() - t


def ours(m, Xt, yt, Xv, yv, lissa_depth):
    rows = {}
    for name, kw in [('trustnb exact', dict(ihvp='exact')), ('trustnb cg', dict(ihvp='cg', tol=1e-8, max_iter=2000)),
                     ('trustnb lissa (auto scale)', dict(ihvp='lissa', tol=1e-6, lissa_depth=lissa_depth))]:
        with warnings.catch_warnings(record=True):
            warnings.simplefilter('always')
            r, dt = timed(lambda: InfluenceFunction(weight_decay=L2, **kw).fit(m, Xt, yt, Xv, yv).result_)
        rows[name] = dict(values=r.values * len(Xt), seconds=dt, iterations=r.solver.iterations,
                          residual=r.solver.residual, converged=r.converged, damping=r.curvature.damping)
    return rows


def captum_rows(m, Xt, yt, Xv, yv):
    try:
        from captum.influence import NaiveInfluenceFunction
    except Exception as e:  # not installed, or incompatible
        return {'captum': dict(missing=f'{type(e).__name__}: {e}')}
    from torch.utils.data import TensorDataset
    # captum's Hessian is that of the *sum* of the training losses, without our L2 term: hessian_reg = N·λ makes it
    # N·(H_mean + λI), i.e. the same matrix up to the factor N that the scalar fit in `agreement` absorbs.
    rows, p = {}, sum(q.numel() for q in m.parameters())
    with tempfile.TemporaryDirectory() as d:
        ck = os.path.join(d, 'model.pt'); torch.save(m.state_dict(), ck)
        for k in (50, p):
            def run():
                inf = NaiveInfluenceFunction(m, TensorDataset(Xt, yt), ck, loss_fn=nn.CrossEntropyLoss(reduction='none'),
                                             batch_size=len(Xt), projection_dim=k, hessian_reg=L2 * len(Xt))
                return inf.influence((Xv, yv)).mean(0)
            try:
                v, dt = timed(run)
                rows[f'captum NaiveInfluenceFunction (projection_dim={k})'] = dict(values=v.detach().numpy(), seconds=dt)
            except Exception as e:
                rows[f'captum NaiveInfluenceFunction (projection_dim={k})'] = dict(missing=f'failed: {type(e).__name__}: {e}')
    return rows


def pydvl_rows(m, Xt, yt, Xv, yv):
    try:
        from pydvl.influence.torch import CgInfluence, LissaInfluence
    except Exception as e:
        return {'pyDVL': dict(missing=f'{type(e).__name__}: {e}')}
    from torch.utils.data import DataLoader, TensorDataset
    rows, loader = {}, DataLoader(TensorDataset(Xt, yt), batch_size=len(Xt))
    for name, cls, kw in [('pyDVL CgInfluence', CgInfluence, dict(rtol=1e-8, atol=1e-10)), ('pyDVL LissaInfluence', LissaInfluence, {})]:
        def run():
            inf = cls(m, F.cross_entropy, regularization=L2, **kw).fit(loader)
            return inf.influences(Xv, yv, Xt, yt).mean(0)
        try:
            v, dt = timed(run); rows[name] = dict(values=v.detach().numpy(), seconds=dt)
        except Exception as e:
            rows[name] = dict(missing=f'failed: {type(e).__name__}: {e}')
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0]); ap.add_argument('--json'); ap.add_argument('--lissa-depth', type=int, default=20000)
    a = ap.parse_args(argv)
    Xt, yt, Xv, yv, _ = _noisy_digits(SEED)
    torch.manual_seed(SEED); m = fit_minimum(nn.Linear(64, 10).double(), Xt, yt, weight_decay=L2)
    rows = ours(m, Xt, yt, Xv, yv, a.lissa_depth)
    rows |= pydvl_rows(m, Xt, yt, Xv, yv) | captum_rows(m, Xt, yt, Xv, yv)
    ref = rows['trustnb exact']
    print(f"{'method':52s} {'time s':>8s} {'×exact':>7s} {'pearson':>8s} {'spearman':>8s} {'rel.err':>8s}  diagnostics")
    for k, r in rows.items():
        if 'missing' in r: print(f'{k:52s} MISSING  {r["missing"][:110]}'); continue
        r.update(agreement(r['values'], ref['values']))
        diag = f"iters={r['iterations']} residual={r['residual']:.1e} converged={r['converged']}" if 'iterations' in r else f"scale={r['scale']:.3g}"
        print(f"{k:52s} {r['seconds']:8.2f} {r['seconds'] / ref['seconds']:7.2f} {r['pearson']:8.5f} {r['spearman']:8.5f} {r['rel_err_scaled']:8.1e}  {diag}")
    print(f"peak RSS {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB; seed {SEED}; torch threads {torch.get_num_threads()}")
    if a.json:
        with open(a.json, 'w') as f: json.dump({k: {kk: vv for kk, vv in r.items() if kk != 'values'} for k, r in rows.items()}, f, indent=1, default=float)
    return rows


if __name__ == '__main__':
    main()
