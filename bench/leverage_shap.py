"""Leverage SHAP vs shap.KernelExplainer vs shapiq, in one run (benchmark, not a test).

Gradient-boosted trees (100 trees, depth 6) on the first n standardized breast_cancer features; exact Shapley
values by enumeration; for each (n, m) the median over explained points of the per-point error ratio (each a
median over seeds), and the wall-time ratio. Goal: error <= 0.5x shap's at n >= 16, time <= 1x at m = 10n.

Every anchor runs in its best documented configuration and with the same budget of m coalition evaluations
(plus v(empty) and v(full)); the configurations are printed with the results (see ANCHORS).
Needs: pip install shap shapiq (the `bench` extra).
Run: python bench/leverage_shap.py [--points 8] [--seeds 10] [--ns 8,12,16,20] [--mults 5,10,20]"""
import argparse, importlib.util, time, warnings
import numpy as np
import pandas as pd
from trustnb.explain.leverage_shap import LeverageSHAP, exact_shapley, _gbm_problem

def timed(fn):
    t = time.perf_counter(); out = fn(); return out, time.perf_counter() - t

ANCHORS = {
    'trustnb': 'trustnb LeverageSHAP(paired=True, replacement=False, n_boot=0), budget=m+2',
    'shap': 'shap.KernelExplainer(f, bg).shap_values(x, nsamples=m, l1_reg=False) -- the paper\'s official baseline call; '
            'l1_reg=False (the default feature selection zeroes features for n > 10); shap pairs sizes by construction; '
            'seeded through np.random.seed (shap draws from the global numpy RNG)',
    'shapiq.KernelSHAP': 'shapiq.KernelSHAP(n, pairing_trick=True, random_state=seed).approximate(budget=m+2, game) -- pairing on '
                         '(its best documented setting; the default pairing_trick=False is 2-9x worse), default sampling weights',
}

def run_shap(f, x, bg, m, seed):
    import shap
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return np.ravel(shap.KernelExplainer(f, bg).shap_values(x[None], nsamples=m, l1_reg=False, silent=True))

def shapiq_runners():
    "shapiq approximators (pairing on, as documented best): name -> callable(f, x, bg, m, seed)."
    try: import shapiq
    except ImportError: return {}
    out = {}
    for name in ['KernelSHAP', 'LeverageSHAP']:
        cls = getattr(shapiq, name, None) or getattr(getattr(shapiq, 'approximator', None), name, None)
        if cls is None: continue
        def run(f, x, bg, m, seed, cls=cls):
            n = len(x)
            def game(coal):  # coalitions (k, n) bool -> v(S) = mean over background rows, as for the other two
                coal = np.asarray(coal, bool)
                rows = np.where(coal[:, None, :], x[None, None, :], bg[None, :, :]).reshape(-1, n)
                return np.asarray(f(rows), float).reshape(len(coal), len(bg)).mean(1)
            approx = cls(n=n, pairing_trick=True, random_state=seed)
            iv = approx.approximate(budget=m + 2, game=game)
            return np.array([iv[(i,)] for i in range(n)])
        out[f'shapiq.{name}'] = run
        ANCHORS.setdefault(f'shapiq.{name}', f'shapiq.{name}(n, pairing_trick=True, random_state=seed).approximate(budget=m+2, game)')
    return out

def main(points=8, seeds=10, ns=(8, 12, 16, 20), mults=(5, 10, 20)):
    rows = []
    extra = shapiq_runners()
    print('shapiq approximators found:', list(extra) or 'none (pip install shapiq)')
    import shap, importlib.metadata as md
    print('anchor configurations (same budget m for all):')
    for k in ['trustnb', 'shap', *extra]: print(f'  {k}: {ANCHORS[k]}')
    print('  versions:', {p: md.version(p) for p in ('shap', 'shapiq') if importlib.util.find_spec(p)})
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
            for k in extra:  # Leverage SHAP against each shapiq anchor directly (median over points of the per-point ratio)
                row[f'err_ratio[trustnb/{k}]'] = float(np.median(np.array(errs['trustnb']) / np.array(errs[k])))
            rows.append(row); print(pd.DataFrame([row]).to_string(index=False, float_format='%.3g'), flush=True)
    tab = pd.DataFrame(rows)
    print('\n' + tab.to_string(index=False, float_format='%.3g'))
    return tab

if __name__ == '__main__':
    a = argparse.ArgumentParser(); a.add_argument('--points', type=int, default=8); a.add_argument('--seeds', type=int, default=10)
    a.add_argument('--ns', default='8,12,16,20'); a.add_argument('--mults', default='5,10,20'); args = a.parse_args()
    main(args.points, args.seeds, tuple(int(v) for v in args.ns.split(',')), tuple(int(v) for v in args.mults.split(',')))
