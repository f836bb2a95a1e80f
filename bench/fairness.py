"""Benchmark: trustnb.fairness (notebooks 60 and 61) against fairlearn, in one run.

Run: `python bench/fairness.py [--quick] [--json out.json]` (needs the `bench` extra: fairlearn).
1. Mitigation. FairICP (trustnb) vs fairlearn's ExponentiatedGradient (EqualizedOdds, fairlearn's default 50
   iterations, difference bounds 0.02/0.05/0.1) and ThresholdOptimizer (equalized_odds), each on logistic regression
   and on scikit-learn's MLPClassifier with FairICP's predictor (same widths, epochs, batch size, Adam lr, L2), on the
   *same* 60/40 stratified splits of (a) loanapp with race, sex and marital
   status and (b) the synthetic multi-attribute set (2 binary + 3 continuous attributes; fairlearn sees the binary
   ones, as their intersection). Reports test accuracy, EO violation (`equalized_odds_violation`: the sum over
   attributes of the EO difference, plus the probe R^2 gain of continuous attributes), and fit time, averaged over
   splits. "Matched" rows pair each fairlearn setting with the FairICP penalty whose accuracy is closest at or above
   it, and give the EO-violation and fit-time ratios (FairICP / fairlearn).
2. Metrics speed. `equalized_odds_difference` and `group_metrics` (selection rate, TPR, FPR per group) vs fairlearn's
   `equalized_odds_difference` and a `MetricFrame` of the same three metrics, on 1e6 rows with 6 intersectional
   groups and sample weights; max |diff| and time ratios.
"""
import argparse, json, time, warnings
import numpy as np
import pandas as pd

def _timed(f):
    t = time.perf_counter(); v = f(); return v, time.perf_counter() - t

def mitigation(seeds, quick):
    from trustnb.data import load_loanapp
    from trustnb.fairness.fair_icp import fair_icp_frontier, fairlearn_baselines, make_multi_attribute, _LOAN_PARAMS
    loan, syn = load_loanapp(), make_multi_attribute()
    mus = (0.0, 0.5, 0.7) if quick else (0.0, 0.3, 0.5, 0.7, 0.85)
    out = []
    for name, d, params in (('loanapp', loan, _LOAN_PARAMS), ('synthetic', syn, {})):
        fr = fair_icp_frontier(d.X, d.y, d.sensitive, fairness_coeffs=mus, seeds=seeds, **params)
        bl = pd.concat([fairlearn_baselines(d.X, d.y, d.sensitive, seed=s, eps=(0.02, 0.05, 0.1), **params) for s in seeds])
        bl = bl.dropna(subset=['accuracy']).groupby(['method', 'model', 'setting']).filter(lambda g: g.seed.nunique() == len(seeds))  # applied on every split
        rows = pd.concat([fr.assign(model='MLP (FairICP)'), bl]).groupby(['method', 'model', 'setting'], sort=False)[['accuracy', 'eo_violation', 'fit_seconds']].mean().reset_index()
        out.append(rows.assign(dataset=name))
    return pd.concat(out, ignore_index=True)

def matched(tab):
    rows = []
    for ds, g in tab.groupby('dataset', sort=False):
        icp = g[g.method == 'FairICP']
        for _, b in g[g.method.isin(['ExponentiatedGradient', 'ThresholdOptimizer'])].iterrows():
            ok = icp[icp.accuracy >= b.accuracy - 1e-9]
            if not len(ok): rows.append(dict(dataset=ds, fairlearn=f'{b.method}({b.model}, {b.setting})', fairicp_mu=None, note='no FairICP setting as accurate')); continue
            m = ok.loc[(ok.accuracy - b.accuracy).idxmin()]
            rows.append(dict(dataset=ds, fairlearn=f'{b.method}({b.model}, {b.setting})', fairicp_mu=m.setting, acc_fairlearn=b.accuracy, acc_fairicp=m.accuracy,
                             eo_fairlearn=b.eo_violation, eo_fairicp=m.eo_violation, eo_ratio=m.eo_violation / b.eo_violation,
                             time_ratio=m.fit_seconds / b.fit_seconds))
    return pd.DataFrame(rows)

def metrics_speed(n):
    import fairlearn.metrics as flm
    from trustnb.fairness import metrics as M
    r = np.random.default_rng(0)
    yt, yp, w = r.integers(0, 2, n), r.integers(0, 2, n), r.uniform(0.1, 3, n)
    sf = pd.DataFrame({'race': r.choice(['white', 'black', 'hispanic'], n), 'sex': r.integers(0, 2, n)})
    a, t_ours = _timed(lambda: M.equalized_odds_difference(yt, yp, sensitive_features=sf, sample_weight=w))
    b, t_fl = _timed(lambda: flm.equalized_odds_difference(yt, yp, sensitive_features=sf, sample_weight=w))
    gm, t_gm = _timed(lambda: M.group_metrics(yt, yp, sensitive_features=sf, sample_weight=w))
    fns = {'selection_rate': flm.selection_rate, 'tpr': flm.true_positive_rate, 'fpr': flm.false_positive_rate}
    mf, t_mf = _timed(lambda: flm.MetricFrame(metrics=fns, y_true=yt, y_pred=yp, sensitive_features=sf,
                                              sample_params={k: {'sample_weight': w} for k in fns}))
    ours = gm.by_group[['selection_rate', 'tpr', 'fpr']]
    diff = float((ours - mf.by_group.reindex(ours.index)).abs().to_numpy().max())
    return pd.DataFrame([dict(task='equalized_odds_difference', rows=n, ours_s=t_ours, fairlearn_s=t_fl, speedup=t_fl / t_ours, max_abs_diff=abs(a - b)),
                         dict(task='per-group rates (group_metrics vs MetricFrame)', rows=n, ours_s=t_gm, fairlearn_s=t_mf, speedup=t_mf / t_gm, max_abs_diff=diff)])

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--quick', action='store_true', help='one split, fewer penalties, 1e5 rows'); p.add_argument('--json', help='write the tables here')
    a = p.parse_args(argv)
    warnings.filterwarnings('ignore')
    import os; os.environ.setdefault('IN_TEST', '1')  # silence progress bars
    import fairlearn, sklearn, torch, trustnb
    seeds = (0,) if a.quick else (0, 1, 2); n = 100_000 if a.quick else 1_000_000
    print(f"versions: trustnb {trustnb.__version__}, fairlearn {fairlearn.__version__}, scikit-learn {sklearn.__version__}, torch {torch.__version__}; "
          f"torch threads {torch.get_num_threads()}")
    print("anchors: FairICPClassifier(hidden=(64,), disc_hidden=(64,64,64), epochs=40, batch_size=256, lr=1e-3, disc_lr=3e-3, disc_steps=2, "
          "weight_decay=1e-3, n_steps=50; loanapp: hidden=(32,), weight_decay=1e-2); ExponentiatedGradient(est, EqualizedOdds(difference_bound=eps), "
          "max_iter=50) and ThresholdOptimizer(est, 'equalized_odds', predict_method='predict_proba') with est = LogisticRegression(max_iter=1000) "
          "or MLPClassifier(FairICP's hidden, alpha=weight_decay*batch_size, batch_size=256, learning_rate_init=1e-3, max_iter=40) on "
          f"standardised X; fairlearn's sensitive feature = intersection of the categorical attributes; splits {seeds}")
    tab = mitigation(seeds, a.quick)
    with pd.option_context('display.width', 200, 'display.max_columns', 20):
        print('\n1. Mitigation (test split means):'); print(tab.round(3).to_string(index=False))
        m = matched(tab); print('\n   Matched accuracy (FairICP penalty with the closest accuracy >= fairlearn\'s):'); print(m.round(3).to_string(index=False))
        s = metrics_speed(n); print(f'\n2. Metrics on {n:,} rows, 6 groups, sample weights:'); print(s.to_string(index=False, float_format=lambda v: f'{v:.3g}'))
    if a.json:
        with open(a.json, 'w') as f: json.dump(dict(mitigation=tab.to_dict('records'), matched=m.to_dict('records'), metrics=s.to_dict('records')), f, indent=1, default=str)

if __name__ == '__main__': main()
