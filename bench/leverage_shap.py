"""Leverage SHAP vs shap.KernelExplainer vs shapiq, in one run (benchmark, not a test).

Gradient-boosted trees (100 trees, depth 6) on the first n standardized breast_cancer features; exact Shapley
values by enumeration; for each (n, m) the median over explained points of the per-point error ratio (each a
median over seeds), and the wall-time ratio. Goal: error <= 0.5x shap's at n >= 16, time <= 1x at m = 10n.
Run: python bench/leverage_shap.py [--points 8] [--seeds 10]"""
import argparse, time, warnings
import numpy as np
import pandas as pd
from trustnb.explain.leverage_shap import LeverageSHAP, exact_shapley, _gbm_problem

def timed(fn):
    t = time.perf_counter(); out = fn(); return out, time.perf_counter() - t

def run_shap(f, x, bg, m, seed):
    import shap
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return np.ravel(shap.KernelExplainer(f, bg).shap_values(x[None], nsamples=m, l1_reg=False, silent=True))

def shapiq_runners():
    "shapiq approximators that exist in the installed version: name -> callable(f, x, bg, m, seed)."
    try: import shapiq
    except ImportError: return {}
    out = {}
    for name in ['KernelSHAP', 'LeverageSHAP']:
        cls = getattr(shapiq, name, None) or getattr(getattr(shapiq, 'approximator', None), name, None)
        if cls is None: continue
        def run(f, x, bg, m, seed, cls=cls):
            n = len(x)
            def game(coal):  # coalitions (k, n) bool -> values
                return f(np.where(coal, x[None], bg[0][None]))
            approx = cls(n=n, random_state=seed)
            iv = approx.approximate(budget=m + 2, game=game)
            return np.array([iv[(i,)] for i in range(n)])
        out[f'shapiq.{name}'] = run
    return out

def main(points=8, seeds=10, ns=(8, 12, 16, 20), mults=(5, 10, 20)):
    rows = []
    extra = shapiq_runners()
    print('shapiq approximators found:', list(extra) or 'none (pip install shapiq)')
    for n in ns:
        for mult in mults:
            m = mult * n; errs = {k: [] for k in ['trustnb', 'shap', *extra]}; secs = {k: 0.0 for k in errs}
            for p in range(points):
                f, x, bg = _gbm_problem(n, p); ex = exact_shapley(f, x, bg).values
                per = {k: [] for k in errs}
                for s in range(seeds):
                    runs = {'trustnb': lambda: LeverageSHAP(f, bg, seed=s, n_boot=0).attribute(x, m + 2).values,
                            'shap': lambda: run_shap(f, x, bg, m, s)}
                    runs.update({k: (lambda r=r: r(f, x, bg, m, s)) for k, r in extra.items()})
                    for k, fn in runs.items():
                        v, dt = timed(fn); per[k].append(((v - ex) ** 2).sum()); secs[k] += dt
                for k in errs: errs[k].append(np.median(per[k]))
            base = np.array(errs['shap'])
            row = dict(n=n, m=m)
            for k in errs:
                row[f'err_ratio[{k}/shap]'] = float(np.median(np.array(errs[k]) / base))
                row[f'time_ratio[{k}/shap]'] = secs[k] / secs['shap']
            rows.append(row); print(pd.DataFrame([row]).to_string(index=False, float_format='%.3g'), flush=True)
    tab = pd.DataFrame(rows)
    print('\n' + tab.to_string(index=False, float_format='%.3g'))
    return tab

if __name__ == '__main__':
    a = argparse.ArgumentParser(); a.add_argument('--points', type=int, default=8); a.add_argument('--seeds', type=int, default=10)
    a.add_argument('--ns', default='8,12,16,20'); args = a.parse_args()
    main(args.points, args.seeds, tuple(int(v) for v in args.ns.split(',')))
