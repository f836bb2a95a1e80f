"""Chapter 8 head to head, each anchor in its documented default configuration, in ONE run:

- ranking: trustnb Bradley-Terry (MM) and Rank Centrality vs choix (`mm_pairwise`, `ilsr_pairwise`, `rank_centrality`)
  on the same judgments — max |difference| of the centred log-strengths (also with `prior_strength` = choix's `alpha`
  > 0) and wall-time ratios;
- voting: trustnb `winners` (plurality, Borda, Condorcet) vs pref-voting's Profile methods on the same profiles;
- encoding models: trustnb `fit_encoding_model` (sklearn RidgeCV, leave-one-out alpha per target) vs himalaya's
  RidgeCV (5-fold CV, SVD solver) on the same split — held-out r and wall time.

Anchors: pip install choix pref-voting himalaya   (choix and pref-voting are in trustnb[bench])
    python bench/evaluate.py
"""
from __future__ import annotations
import time, sys
import numpy as np

def _time(fn, reps=5):
    best = np.inf
    for _ in range(reps):
        t = time.perf_counter(); out = fn(); best = min(best, time.perf_counter() - t)
    return out, best

def ranking(n_items=200, n_comparisons=20_000):
    import choix
    from trustnb.evaluate.ranking import simulate_judgments, bradley_terry, rank_centrality
    s = np.random.default_rng(0).standard_normal(n_items); J = simulate_judgments(s, n_comparisons, seed=1)
    wl = [(int(a), int(b)) if o == 1 else (int(b), int(a)) for a, b, o in J]
    print(f'== ranking: {n_items} items, {n_comparisons} judgments (choix {getattr(choix, "__version__", "?")}, defaults except tol=1e-10)')
    ours, t_ours = _time(lambda: bradley_terry(J, n_items=n_items, tol=1e-10).scores)
    for name, fn in [('choix.mm_pairwise', lambda: choix.mm_pairwise(n_items, wl, tol=1e-10, max_iter=100_000)),
                     ('choix.ilsr_pairwise', lambda: choix.ilsr_pairwise(n_items, wl, tol=1e-10))]:
        ref, t_ref = _time(fn, reps=3)
        print(f'  bradley_terry vs {name:22s} max|diff| {np.abs(ours - ref).max():.1e}   time ratio trustnb/anchor {t_ours / t_ref:.2f} ({t_ours * 1e3:.1f} ms vs {t_ref * 1e3:.1f} ms)')
    for a in (0.1, 1.0, 5.0):  # prior_strength is choix's alpha (pseudo-counts on wins and MM denominators, strengths at mean 1)
        ours_a = bradley_terry(J, n_items=n_items, prior_strength=a, tol=1e-10).scores; ref_a = choix.mm_pairwise(n_items, wl, alpha=a, tol=1e-10, max_iter=100_000)
        print(f'  bradley_terry(prior_strength={a}) vs choix.mm_pairwise(alpha={a})  max|diff| {np.abs(ours_a - ref_a).max():.1e}')
    ours, t_ours = _time(lambda: rank_centrality(J, n_items=n_items).scores)
    ref, t_ref = _time(lambda: choix.rank_centrality(n_items, wl))
    print(f'  rank_centrality vs choix.rank_centrality  max|diff| {np.abs(ours - ref).max():.1e}   time ratio {t_ours / t_ref:.2f} ({t_ours * 1e3:.1f} ms vs {t_ref * 1e3:.1f} ms)')

def voting(n=1001, m=6, n_profiles=20):
    from pref_voting.profiles import Profile
    from trustnb.evaluate.improvement_feedback import sample_profile, winners
    rng = np.random.default_rng(0); agree = {r: 0 for r in ('plurality', 'borda', 'condorcet')}; t_o = t_a = 0.0
    for _ in range(n_profiles):
        P = sample_profile(n, m, 'impartial', seed=rng); prof = Profile(P.tolist())
        for rule in agree:
            t = time.perf_counter(); ours = winners(P, rule); t_o += time.perf_counter() - t
            t = time.perf_counter()
            if rule == 'condorcet': cw = prof.condorcet_winner(); ref = [] if cw is None else [cw]
            else:
                sc = prof.plurality_scores() if rule == 'plurality' else prof.borda_scores(); best = max(sc.values()); ref = sorted(c for c, v in sc.items() if v == best)
            t_a += time.perf_counter() - t; agree[rule] += ours == ref
    print(f'== voting: {n_profiles} impartial-culture profiles, n={n}, m={m} (pref-voting Profile methods)')
    print(f'  winners agree: {agree} of {n_profiles} each;  time ratio trustnb/pref-voting {t_o / t_a:.2f}')

def encoding(n=600, d=200, k=50):
    from himalaya.ridge import RidgeCV as HRidgeCV
    from trustnb.evaluate.encoding_models import fit_encoding_model
    from sklearn.preprocessing import StandardScaler
    rng = np.random.default_rng(0); F = rng.standard_normal((n, d)); Y = F @ rng.standard_normal((d, k)) * 0.1 + rng.standard_normal((n, k))
    tr, te = np.arange(int(0.8 * n)), np.arange(int(0.8 * n), n); alphas = np.logspace(-2, 5, 8)
    ours, t_ours = _time(lambda: fit_encoding_model(F, Y, tr, te, alphas)['test_r'], reps=3)
    def him():
        sc = StandardScaler().fit(F[tr]); Yc = Y[tr] - Y[tr].mean(0)
        m = HRidgeCV(alphas=alphas, cv=5).fit(sc.transform(F[tr]), Yc); P = m.predict(sc.transform(F[te])) + Y[tr].mean(0)
        a, b = P - P.mean(0), Y[te] - Y[te].mean(0); return (a * b).sum(0) / np.sqrt((a ** 2).sum(0) * (b ** 2).sum(0))
    ref, t_ref = _time(him, reps=3)
    print(f'== encoding models: n={n}, d={d}, {k} targets (himalaya RidgeCV, 5-fold CV, svd solver; trustnb: sklearn RidgeCV, LOO)')
    print(f'  mean held-out r: trustnb {ours.mean():.4f}, himalaya {np.mean(ref):.4f} (max |diff| per target {np.abs(ours - ref).max():.3f});  time ratio {t_ours / t_ref:.2f} ({t_ours:.3f} s vs {t_ref:.3f} s)')

if __name__ == '__main__':
    missing = []
    for mod, fn in [('choix', ranking), ('pref_voting', voting), ('himalaya', encoding)]:
        try: __import__(mod)
        except ImportError: missing.append(mod); print(f'== skipped: {mod} is not installed (pip install {mod.replace("_", "-")})'); continue
        fn()
    sys.exit(0)
