"""Shapley value estimation at n >= 16: trustnb (Leverage SHAP, the paper's estimator; RegressionAdjustedSHAP with tree, Hamming-kernel or Gaussian-process surrogates, shrunk or not, ours)
vs shap and shapiq, in one run (benchmark, not a test).

Model families (one background row, as the paper's benchmark): gradient-boosted trees on the first n standardized
breast_cancer features (100 trees, depth 6 or 4; exact values by trustnb's `tree_shapley`, checked against
`shap.TreeExplainer(model, bg)` on every point) and a smooth random tanh MLP (32 hidden units; exact values by
enumeration of the 2^n coalitions). For each (family, n, m) and estimator: per explained point the median over seeds of
the squared error ||phi_hat - phi||^2; printed: the median over points of the per-point ratio to shap's KernelExplainer
(l1_reg=False) and the ratio of the summed errors. Goal (issue 27): <= 0.5x shap at n = 20 and <= 0.25x at n = 16,
m = 10n, on tree ensembles and smooth models alike.

Every anchor runs in its best documented configuration with the same budget: m coalition evaluations plus v(empty) and
v(full) (shap's nsamples=m; shapiq budget=m+2; trustnb budget=m+2). Configurations are printed with the results.
Needs: pip install shap shapiq (the `bench` extra).
Run: python bench/leverage_shap.py [--points 6] [--seeds 4] [--ns 16,20] [--mults 10] [--families gbm6,gbm4,mlp]"""
import argparse, importlib.util, time, warnings
import numpy as np
import pandas as pd
from trustnb.explain.leverage_shap import LeverageSHAP, RegressionAdjustedSHAP, exact_shapley, tree_shapley, _gbm_problem, _GBM

def timed(fn):
    t = time.perf_counter(); out = fn(); return out, time.perf_counter() - t

ANCHORS = {
    'leverage_shap': "trustnb LeverageSHAP(paired=True, replacement=False, n_boot=0), budget=m+2 -- the paper's estimator",
    'ra[auto]': "trustnb RegressionAdjustedSHAP(surrogate='auto', n_folds=10, n_boot=0), budget=m+2 -- ours (default; 10 folds for the tree candidate, one pair out for kernel/gp; gp shrunk, shrink=True)",
    'ra[tree]': "trustnb RegressionAdjustedSHAP(surrogate='tree', n_folds=10, n_boot=0), budget=m+2",
    'ra[kernel]': "trustnb RegressionAdjustedSHAP(surrogate='kernel', n_boot=0), budget=m+2 -- Hamming-kernel ridge, cross-fitted one pair out (closed form); not shrunk",
    'ra[gp]': "trustnb RegressionAdjustedSHAP(surrogate='gp', n_boot=0), budget=m+2 -- ARD Gaussian-process surrogate, hyperparameters by marginal likelihood, cross-fitted one pair out (closed form), shrunk toward the full-sample GP (shrink=True, the default)",
    'ra[gp,noshrink]': "trustnb RegressionAdjustedSHAP(surrogate='gp', n_boot=0, shrink=False), budget=m+2 -- the same, unshrunk (the plain regression-adjusted estimate)",
    'ra[gp,active=0.3]': "trustnb RegressionAdjustedSHAP(surrogate='gp', n_boot=0, active=0.3), budget=m+2 -- 30% of the coalitions chosen to minimize the GP's posterior variance of phi, the full GP's phi kept within 2 standard errors of the leverage part's estimate",
    'ra[gp,active=0.5]': "trustnb RegressionAdjustedSHAP(surrogate='gp', n_boot=0, active=0.5), budget=m+2 -- the same with half the coalitions chosen",
    'shap.Kernel': "shap.KernelExplainer(f, bg).shap_values(x, nsamples=m, l1_reg=False) -- the paper's official baseline call; "
                   "l1_reg=False (the default feature selection zeroes features for n > 10); seeded through np.random.seed",
    'shap.Permutation': "shap.PermutationExplainer(f, bg)(x, max_evals=m+2) -- shap's other model-agnostic sampler (antithetic "
                        "permutations); max_evals counts model evaluations like our budget",
}

def run_shap_kernel(f, x, bg, m, seed):
    import shap
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return np.ravel(shap.KernelExplainer(f, bg).shap_values(x[None], nsamples=m, l1_reg=False, silent=True))

def run_shap_perm(f, x, bg, m, seed):
    import shap
    np.random.seed(seed)
    with warnings.catch_warnings():
        warnings.simplefilter('ignore')
        return np.ravel(shap.PermutationExplainer(f, bg, seed=seed)(x[None], max_evals=m + 2, silent=True).values)

def shapiq_runners():
    "shapiq approximators in their best documented settings (pairing on): name -> callable(f, x, bg, m, seed)."
    try: import shapiq
    except ImportError: return {}
    specs = {'shapiq.KernelSHAP': (shapiq.KernelSHAP, {}),
             'shapiq.KernelSHAP[leverage]': (shapiq.KernelSHAP, {'sampling_weights': 'uniform'}),  # the official Leverage SHAP code's sampler
             'shapiq.SVARM': (shapiq.SVARM, {}),
             'shapiq.UnbiasedKernelSHAP': (shapiq.UnbiasedKernelSHAP, {})}
    out = {}
    for name, (cls, extra) in specs.items():
        def run(f, x, bg, m, seed, cls=cls, extra=extra):
            n = len(x); kw = dict(extra)
            if kw.get('sampling_weights') == 'uniform': kw['sampling_weights'] = np.ones(n + 1)
            def game(coal):  # coalitions (k, n) bool -> v(S) = mean over background rows, as for the others
                coal = np.asarray(coal, bool)
                rows = np.where(coal[:, None, :], x[None, None, :], bg[None, :, :]).reshape(-1, n)
                return np.asarray(f(rows), float).reshape(len(coal), len(bg)).mean(1)
            iv = cls(n=n, pairing_trick=True, random_state=seed, **kw).approximate(budget=m + 2, game=game)
            return np.array([iv[(i,)] for i in range(n)])
        out[name] = run
        ANCHORS[name] = f"shapiq.{cls.__name__}(n, pairing_trick=True{', sampling_weights=ones(n+1)' if extra else ''}, random_state=seed).approximate(budget=m+2, game)"
    return out

def problem(family, n, i):
    "(f, x, bg, exact phi, max |tree_shapley - shap.TreeExplainer| or None) of point i."
    if family.startswith('gbm'):
        d = int(family[3:]); f, x, bg = _gbm_problem(n, i, depth=d); model = _GBM[n, d, 100]
        ex = tree_shapley(model, x, bg).values; dev = None
        if importlib.util.find_spec('shap'):
            import shap
            te = shap.TreeExplainer(model, data=bg, feature_perturbation='interventional').shap_values(x[None])[0]
            dev = float(np.abs(te - ex).max())
        return f, x, bg, ex, dev
    rng = np.random.default_rng(1000 + i); Wa = rng.standard_normal((n, 32)) / np.sqrt(n) * 2; wb = rng.standard_normal(32)
    f = lambda X: np.tanh(X @ Wa) @ wb
    x, bg = rng.standard_normal(n), rng.standard_normal((1, n))
    return f, x, bg, exact_shapley(f, x, bg, batch_size=1 << 16).values, None

def main(points=6, seeds=4, ns=(16, 20), mults=(10,), families=('gbm6', 'gbm4', 'mlp')):
    import importlib.metadata as md
    ours = {'leverage_shap': lambda f, x, bg, m, s: LeverageSHAP(f, bg, seed=s, n_boot=0).attribute(x, m + 2).values,
            **{f'ra[{g}]': (lambda f, x, bg, m, s, g=g: RegressionAdjustedSHAP(f, bg, surrogate=g, seed=s, n_boot=0).attribute(x, m + 2).values)
               for g in ('auto', 'tree', 'kernel', 'gp')},
            'ra[gp,noshrink]': lambda f, x, bg, m, s: RegressionAdjustedSHAP(f, bg, surrogate='gp', seed=s, n_boot=0, shrink=False).attribute(x, m + 2).values,
            **{f'ra[gp,active={a}]': (lambda f, x, bg, m, s, a=a: RegressionAdjustedSHAP(f, bg, surrogate='gp', seed=s, n_boot=0, active=a).attribute(x, m + 2).values)
               for a in (0.3, 0.5)}}
    runners = {**ours, 'shap.Kernel': run_shap_kernel, 'shap.Permutation': run_shap_perm, **shapiq_runners()}
    print('anchor configurations (same budget for all):')
    for k in runners: print(f'  {k}: {ANCHORS[k]}')
    print('  versions:', {p: md.version(p) for p in ('shap', 'shapiq', 'scikit-learn', 'numpy') if importlib.util.find_spec(p.replace('scikit-learn', 'sklearn'))})
    rows = []
    for fam in families:
        for n in ns:
            for mult in mults:
                m = mult * n; errs = {k: [] for k in runners}; secs = {k: 0.0 for k in runners}; devs = []
                for p in range(points):
                    f, x, bg, ex, dev = problem(fam, n, p); devs.append(dev)
                    per = {k: [] for k in runners}
                    for s in range(seeds):
                        for k, run in runners.items():
                            v, dt = timed(lambda: run(f, x, bg, m, s)); per[k].append(((v - ex) ** 2).sum()); secs[k] += dt
                    for k in runners: errs[k].append(np.median(per[k]))
                base = np.array(errs['shap.Kernel'])
                row = dict(family=fam, n=n, m=m)
                for k in runners:
                    e = np.array(errs[k]); row[f'{k}'] = float(np.median(e / base)); row[f'{k}:summed'] = float(e.sum() / base.sum())
                    row[f'{k}:sec'] = secs[k] / (points * seeds)
                sq = [k for k in runners if k.startswith('shapiq')]
                if sq:
                    best = min(sq, key=lambda k: row[k]); row['best_shapiq'] = best
                    row['ra[auto]/best_shapiq'] = float(np.median(np.array(errs['ra[auto]']) / np.array(errs[best])))
                row['ra[auto]/leverage_shap'] = float(np.median(np.array(errs['ra[auto]']) / np.array(errs['leverage_shap'])))
                row['tree_explainer_maxdev'] = None if devs[0] is None else max(devs)
                rows.append(row)
                print(f'\n{fam} n={n} m={m}: median per-point error ratio to shap.Kernel (summed-error ratio) [seconds per call]')
                for k in runners: print(f'  {k:30s} {row[k]:7.3f} ({row[k + ":summed"]:.3f}) [{row[k + ":sec"]:.3f}s]')
                print(f"  ra[auto]/leverage_shap {row['ra[auto]/leverage_shap']:.3f}" + (f"; ra[auto]/{row['best_shapiq']} {row['ra[auto]/best_shapiq']:.3f}" if sq else '')
                      + (f"; tree_shapley vs shap.TreeExplainer max |diff| {row['tree_explainer_maxdev']:.1e}" if row['tree_explainer_maxdev'] is not None else ''), flush=True)
    tab = pd.DataFrame(rows)
    cols = ['family', 'n', 'm', *runners]
    print('\nmedian per-point error ratio to shap.KernelExplainer(l1_reg=False):\n' + tab[cols].to_string(index=False, float_format='%.3g'))
    return tab

if __name__ == '__main__':
    a = argparse.ArgumentParser(); a.add_argument('--points', type=int, default=6); a.add_argument('--seeds', type=int, default=4)
    a.add_argument('--ns', default='16,20'); a.add_argument('--mults', default='10'); a.add_argument('--families', default='gbm6,gbm4,mlp')
    args = a.parse_args()
    main(args.points, args.seeds, tuple(int(v) for v in args.ns.split(',')), tuple(int(v) for v in args.mults.split(',')), tuple(args.families.split(',')))
