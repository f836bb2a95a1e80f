"""Benchmark: trustnb.monitor (chapter 7) against the anchor libraries, in one run.

Run: `python bench/monitor.py [--quick] [--json out.json]`.
1. OOD (DCC), `bench_ood_anchors`: DCC (the released update, and 'psd') and the static metric against pytorch-ood's
   `Mahalanobis` (raw and l2-normalized features) and `ViM` (d = D/2, the trained head) on the *same* features: the
   claim's tasks (`ood_splits`: digits 0-4 vs 5-9 / uniform noise, credit_data Job subgroups / permuted columns) in the
   claim's geometry (32-d features, k=16) and the paper's smallest (WRN: 128-d, k=50). AUROC, ratios DCC/anchor, parity
   with the released per-sample-inverse algorithm (re-implemented here) and with our own Mahalanobis/ViM.
   `bench_ood_timing`: time per 1,000 inputs on synthetic 512-d features, and time ratios.
2. CAPA: trustnb's vectorised `capa` vs `lm-sim`'s reference loop (10 models, 1e5 four-option questions): max |diff|,
   time for the 10x10 matrix and the ratio.

pytorch-ood is optional. Its package imports torchvision for its model zoo only; when torchvision is missing or does not
match the installed torch (a CPU torch with a CUDA torchvision wheel fails on `torchvision::nms`), we stub torchvision
so that the pure-torch detectors import, and say so. lm-sim is optional too.
"""
import argparse, json, sys, time, types, warnings, importlib.abc, importlib.machinery
import numpy as np
import torch
from trustnb.monitor.ood_dcc import DynamicCovarianceOOD, Mahalanobis, ViM, ood_auroc, ood_splits, _l2n
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

def load_pytorch_ood_vim():
    "pytorch-ood's ViM class (after `load_pytorch_ood` succeeded), or None."
    try:
        from pytorch_ood.detector import ViM as V; return V
    except Exception as e:
        print(f'pytorch-ood ViM could not be imported ({e!r})'); return None

GEOMETRIES = (('claim: 32-d features, k=16', (64, 32), 16), ('paper WRN: 128-d features, k=50', (256, 128), 50))

def bench_ood_anchors(quick=False, n_tasks=(5, 3), geometries=GEOMETRIES):
    """AUROC of DCC (the released update and 'psd') and the static metric against pytorch-ood's Mahalanobis and ViM on the same
    features, as ratios. Tasks are the claim's (`ood_splits(name, i)`, i < n_tasks: the page seed's tasks) in the claim's geometry
    (32-d, k=16) and in the paper's smallest one (WRN: 128-d features, residual dim 50). pytorch-ood's Mahalanobis runs on the raw
    features (Lee et al.) and on the l2-normalized features DCC sees; its ViM uses d = D/2 (ViM's rule for small D, and
    pytorch-ood's fallback), with the trained head. Parity columns: |AUROC| difference to our Mahalanobis / static / ViM."""
    import pandas as pd
    PM, pm_name = load_pytorch_ood(); PV = load_pytorch_ood_vim() if PM is not None else None
    T = lambda a: torch.as_tensor(np.asarray(a), dtype=torch.float32)
    rows = []
    for (label, hidden, k), nt in zip(geometries, n_tasks):
        for name in ('digits', 'credit'):
            for s in range(1 if quick else nt):
                sp = ood_splits(name, s, hidden=hidden); ftr, y = sp['ftr'], sp['ytr']; D = ftr.shape[1]
                dcc = DynamicCovarianceOOD(residual_dim=k).fit(ftr, y)
                sc = {'DCC (released update)': dcc.score_samples, 'DCC (released algorithm)': lambda f, det=dcc: official_dcc(det, f),
                      "DCC ('psd')": DynamicCovarianceOOD(residual_dim=k, update='psd').fit(ftr, y).score_samples,
                      'static (ours, l2)': DynamicCovarianceOOD(residual_dim=k, update='none').fit(ftr, y).score_samples,
                      'Mahalanobis (ours, raw)': Mahalanobis().fit(ftr, y).score_samples,
                      'ViM (ours, d=D/2)': ViM(principal_dim=D // 2).fit(ftr, W=sp['W'], b=sp['b']).score_samples}
                if PM is not None:
                    m_raw = PM(None).fit_features(T(ftr), torch.as_tensor(y)); m_l2 = PM(None).fit_features(T(_l2n(ftr)), torch.as_tensor(y))
                    sc['pytorch-ood Mahalanobis (raw)'] = lambda f, m=m_raw: -m.predict_features(T(f)).numpy()
                    sc['pytorch-ood Mahalanobis (l2)'] = lambda f, m=m_l2: -m.predict_features(T(_l2n(f))).numpy()
                if PV is not None:
                    v = PV(None, d=D // 2, w=T(sp['W']), b=T(sp['b'])).fit_features(T(ftr), torch.as_tensor(y))
                    sc['pytorch-ood ViM (d=D/2)'] = lambda f, v=v: -v.predict_features(T(f)).numpy()
                with warnings.catch_warnings():
                    warnings.simplefilter('ignore')
                    for det, f in sc.items():
                        si = np.asarray(f(sp['fid']), np.float64)
                        for o, fo in sp['ood'].items():
                            so = np.asarray(f(fo), np.float64); nan = int(np.isnan(si).sum() + np.isnan(so).sum())
                            rows.append(dict(geometry=label, split=f'{name}/{o}', task=s, detector=det, nan=nan,
                                             auroc=ood_auroc(np.nan_to_num(si, nan=-np.inf), np.nan_to_num(so, nan=-np.inf))))
    raw = pd.DataFrame(rows); n_nan = raw.groupby('detector').nan.sum(); n_nan = n_nan[n_nan > 0]
    df = raw.groupby(['geometry', 'split', 'detector']).auroc.mean().unstack('detector')
    for g in df.index.get_level_values(0).unique(): df.loc[(g, 'mean'), :] = df.loc[g].mean()
    df = df.sort_index()
    dcc = df['DCC (released update)']; out = df.copy()
    refs = [c for c in df.columns if c.startswith('pytorch-ood')] or ['Mahalanobis (ours, raw)', 'ViM (ours, d=D/2)']
    for c in ['static (ours, l2)', *refs]: out[f'DCC / {c}'] = dcc / df[c]
    out["'psd' / static"] = df["DCC ('psd')"] / df['static (ours, l2)']
    out['parity |d| released algorithm'] = (df['DCC (released update)'] - df['DCC (released algorithm)']).abs()
    if PM is not None:
        par = {'Mahalanobis raw': ('Mahalanobis (ours, raw)', 'pytorch-ood Mahalanobis (raw)'), 'l2': ('static (ours, l2)', 'pytorch-ood Mahalanobis (l2)')}
        if PV is not None: par['ViM'] = ('ViM (ours, d=D/2)', 'pytorch-ood ViM (d=D/2)')
        for k2, (a, b) in par.items(): out[f'parity |d| {k2}'] = (df[a] - df[b]).abs()
    pd.set_option('display.width', 250)
    print('AUROC (mean over tasks; higher is better)'); print(df.round(4).to_string())
    print('\nRatios (DCC = the released update) and parity with pytorch-ood'); print(out[[c for c in out.columns if c not in df.columns]].round(4).to_string())
    print('NaN scores (counted as most out-of-distribution):', n_nan.to_dict() or 'none')
    return dict(auroc=df.round(4).reset_index().to_dict('records'), ratios=out.drop(columns=df.columns).round(4).reset_index().to_dict('records'),
                anchor=pm_name, n_tasks=dict(zip([g[0] for g in geometries], n_tasks)))

def bench_ood_timing(quick=False):
    "Time per 1,000 inputs on synthetic 512-d features: ours (Sherman-Morrison), the released per-sample inverse, pytorch-ood's Mahalanobis."
    PM, pm_name = load_pytorch_ood()
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
    return dict(times_per_1k_s=times)

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
    p.add_argument('--only', choices=['ood_anchors', 'ood_timing', 'capa'], help='run one part')
    a = p.parse_args(); warnings.simplefilter('ignore')
    import os; print(f'load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores; torch threads {torch.get_num_threads()}')
    parts = dict(ood_anchors=bench_ood_anchors, ood_timing=bench_ood_timing, capa=bench_capa)
    res = {k: f(a.quick) for k, f in parts.items() if a.only in (None, k)}
    if a.json: json.dump(res, open(a.json, 'w'), indent=1, default=float)
