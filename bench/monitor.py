"""Benchmark: trustnb.monitor (chapter 7) against the anchor libraries, in one run.

Run: `python bench/monitor.py [--quick] [--json out.json]`.
1. OOD (DCC): trustnb's `DynamicCovarianceOOD` (Sherman–Morrison, guarded) vs pytorch-ood's `Mahalanobis`
   (`fit_features`/`predict_features`) on the *same* features, plus our static-covariance ablation, our Mahalanobis and
   the released DCC algorithm (a per-sample explicit inverse, re-implemented here). Reports AUROC on digits splits
   (ID 0-4; near OOD 5-9; far OOD uniform noise; 128-d penultimate features of a wider MLP), NaN counts, time per
   1,000 inputs on synthetic 512-d features, and time ratios.
2. CAPA: trustnb's vectorised `capa` vs `lm-sim`'s reference loop (10 models, 1e5 four-option questions): max |diff|,
   time for the 10x10 matrix and the ratio.

pytorch-ood is optional. Its package imports torchvision for its model zoo only; when torchvision is missing or does not
match the installed torch (a CPU torch with a CUDA torchvision wheel fails on `torchvision::nms`), we stub torchvision
so that the pure-torch detectors import, and say so. lm-sim is optional too.
"""
import argparse, json, sys, time, types, warnings, importlib.abc, importlib.machinery
import numpy as np
import torch
from trustnb.monitor.ood_dcc import DynamicCovarianceOOD, Mahalanobis, ood_auroc, _mlp_features, _l2n
from trustnb.monitor.capa import capa, simulate_pair

def _timed(f):
    t = time.perf_counter(); v = f(); return v, time.perf_counter() - t

class _Stub(types.ModuleType):
    def __getattr__(self, k):
        if k.startswith('__'): raise AttributeError(k)
        if k[:1].isupper():
            c = type(k, (object,), {'__init__': lambda self, *a, **kw: None}); setattr(self, k, c); return c
        return _Stub(f'{self.__name__}.{k}')
    def __call__(self, *a, **kw): return self

class _StubFinder(importlib.abc.MetaPathFinder, importlib.abc.Loader):
    def find_spec(self, name, path, target=None):
        if name == 'torchvision' or name.startswith('torchvision.'): return importlib.machinery.ModuleSpec(name, self, is_package=True)
    def create_module(self, spec): return _Stub(spec.name)
    def exec_module(self, m): m.__path__ = []

def load_pytorch_ood():
    "pytorch-ood's Mahalanobis class, or None; stubs torchvision if only that is broken."
    try:
        from pytorch_ood.detector import Mahalanobis as M; return M, 'pytorch-ood'
    except ImportError as e:
        if 'pytorch_ood' in str(e) and 'torchvision' not in str(e): print('pytorch-ood is not installed: its column is skipped'); return None, None
    except RuntimeError: pass
    for k in [k for k in sys.modules if k.startswith(('torchvision', 'pytorch_ood'))]: del sys.modules[k]
    sys.meta_path.insert(0, _StubFinder())
    try:
        from pytorch_ood.detector import Mahalanobis as M
        print('note: torchvision is missing or broken; stubbed so that pytorch-ood imports (its detectors are pure torch)')
        return M, 'pytorch-ood (torchvision stubbed)'
    except Exception as e:
        print(f'pytorch-ood could not be imported ({e!r}): its column is skipped'); return None, None

def official_dcc(det, feats):
    "The released DCC algorithm: per-sample explicit inverse of Sigma - B^T a^T a B (NaN where sqrt of a negative)."
    cov = torch.as_tensor(np.linalg.inv(det.W_ @ det.W_.T)); basis = torch.as_tensor(det.B_.T); mu = torch.as_tensor(det.mu_); out = []
    for f in torch.as_tensor(_l2n(feats)):
        a = (basis @ f)[None]; pm = torch.linalg.inv(cov - basis.T @ a.T @ a @ basis); d = f - mu
        out.append(-torch.sqrt(torch.einsum('bi,ij,bj->b', d, pm, d)).min().item())
    return np.array(out)

def bench_ood(quick=False, seeds=3, residual_dim=64):
    "AUROC of every detector on wider digits features, and time per 1,000 inputs on synthetic 512-d features."
    PM, pm_name = load_pytorch_ood(); rows = []
    for s in range(1 if quick else seeds):
        from trustnb import data
        d = data.load_digits(); rng = np.random.default_rng(s); idx = rng.permutation(len(d.X)); ids = idx[d.y[idx] < 5]
        tr, te = ids[:int(.7 * len(ids))], ids[int(.7 * len(ids)):]
        feat, _, _ = _mlp_features(d.X, d.y, tr, s, hidden=(256, 128), epochs=25)
        ftr, fid = feat(d.X[tr]), feat(d.X[te]); ood = {'near': feat(d.X[idx[d.y[idx] >= 5]]), 'far': feat(rng.uniform(0, 1, (500, 64)))}
        dets = {'DCC (ours)': DynamicCovarianceOOD(residual_dim=residual_dim).fit(ftr, d.y[tr]),
                'static covariance (ours)': DynamicCovarianceOOD(residual_dim=residual_dim, update='none').fit(ftr, d.y[tr]),
                'Mahalanobis (ours)': Mahalanobis().fit(ftr, d.y[tr])}
        scorers = {k: v.score_samples for k, v in dets.items()}
        scorers['DCC (released algorithm)'] = lambda f, det=dets['DCC (ours)']: official_dcc(det, f)
        if PM is not None:
            pm = PM(None); pm.fit_features(torch.as_tensor(ftr, dtype=torch.float32), torch.as_tensor(d.y[tr]))
            scorers[f'Mahalanobis ({pm_name})'] = lambda f, pm=pm: -pm.predict_features(torch.as_tensor(f, dtype=torch.float32)).numpy()
        for k, sc in scorers.items():
            si = sc(fid)
            for o, fo in ood.items():
                so = sc(fo); nan = int(np.isnan(si).sum() + np.isnan(so).sum())
                rows.append(dict(seed=s, detector=k, ood=o, auroc=ood_auroc(np.nan_to_num(si, nan=-1e9), np.nan_to_num(so, nan=-1e9)), nan=nan))
    import pandas as pd
    auc = pd.DataFrame(rows).groupby(['detector', 'ood']).agg(auroc=('auroc', 'mean'), nan=('nan', 'sum')).unstack('ood')
    print(auc.round(4).to_string())
    # timing on synthetic features of backbone size
    rng = np.random.default_rng(0); n, dim, C = (4000 if quick else 20000), 512, 10
    X = rng.normal(size=(n, dim)) @ rng.normal(size=(dim, dim)) / np.sqrt(dim) + np.repeat(rng.normal(size=(C, dim)), n // C, 0); y = np.repeat(np.arange(C), n // C)
    Xt = rng.normal(size=(1000, dim)) @ rng.normal(size=(dim, dim)) / np.sqrt(dim)
    det = DynamicCovarianceOOD(residual_dim=256).fit(X, y)
    times = {'DCC (ours)': _timed(lambda: det.score_samples(Xt))[1],
             'DCC (released algorithm, 100 inputs x10)': 10 * _timed(lambda: official_dcc(det, Xt[:100]))[1]}
    if PM is not None:
        pm = PM(None); pm.fit_features(torch.as_tensor(X, dtype=torch.float32), torch.as_tensor(y))
        times[f'Mahalanobis ({pm_name})'] = _timed(lambda: pm.predict_features(torch.as_tensor(Xt, dtype=torch.float32)))[1]
    mo = Mahalanobis().fit(X, y); times['Mahalanobis (ours)'] = _timed(lambda: mo.score_samples(Xt))[1]
    base = times['DCC (ours)']
    for k, t in times.items(): print(f'{k:45s} {1000 * t:9.1f} ms per 1k inputs   ratio to DCC (ours): {t / base:7.2f}')
    return dict(auroc=auc.round(4).to_string(), times_per_1k_s=times)

def bench_capa(quick=False, n_models=10):
    "10x10 CAPA matrix on simulated models: trustnb vs lm-sim (if installed)."
    n = 10_000 if quick else 100_000
    models = [simulate_pair(n, kind='shared', shared=i / n_models, seed=0)[1] for i in range(n_models)]
    y = simulate_pair(n, seed=0)[2]
    ours, t_o = _timed(lambda: np.array([[capa(a, b, y) for b in models] for a in models]))
    out = dict(n_questions=n, n_models=n_models, trustnb_s=t_o)
    try:
        import lmsim.metrics as lms
    except ImportError:
        print('lm-sim is not installed: CAPA parity skipped'); return out
    pairs = [(0, 1), (0, n_models - 1), (3, 7)] if not quick else [(0, 1)]
    ref, t_r = _timed(lambda: [lms.CAPA().compute_k(list(models[i]), list(models[j]), list(y)) for i, j in pairs])
    diff = max(abs(ours[i, j] - r) for (i, j), r in zip(pairs, ref))
    t_r_full = t_r / len(pairs) * n_models ** 2
    print(f'CAPA {n_models}x{n_models} on {n} questions: trustnb {t_o:.2f}s, lm-sim {t_r_full:.1f}s (extrapolated from {len(pairs)} pairs), '
          f'ratio {t_r_full / t_o:.0f}x, max |diff| {diff:.1e}')
    out.update(lmsim_s_extrapolated=t_r_full, max_abs_diff=diff); return out

if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--quick', action='store_true'); p.add_argument('--json')
    a = p.parse_args(); warnings.simplefilter('ignore')
    res = dict(ood=bench_ood(a.quick), capa=bench_capa(a.quick))
    if a.json: json.dump(res, open(a.json, 'w'), indent=1, default=float)
