"""Benchmark: trustnb.privacy accountants vs dp-accounting (and pld-accounting, if installed).

Run: `python bench/privacy.py [--quick] [--json out.json]`. Needs the `privacy` extra (dp-accounting).
1. Poisson-subsampled Gaussian over a (noise multiplier z, sampling rate, T) grid: our `Accountant` (PLD and RDP) and our independent integer-order
   RDP expansion vs direct dp-accounting calls — ε agreement (max relative difference) and time ratio.
2. PLD parity at the requested discretization (issue 27 §2): our `Accountant` against dp-accounting's `PLDAccountant` at the same
   discretization, over (z, q, T) with small q and large T — ε relative difference (goal <= 1e-6) and time ratio (goal <= 2x), interleaved.
3. The balanced-vs-Poisson ε table (T=100, k=1, δ=1e-5) from `BalancedAccountant` vs dp-accounting PLD, plus
   pld-accounting's random-allocation bounds when `PLD_accounting` is importable.
"""
import argparse, json, logging, time
import numpy as np

logging.getLogger('absl').setLevel(logging.ERROR)
import dp_accounting as dpa
from trustnb.privacy.accounting import Accountant, GaussianMechanism, rdp_poisson_gaussian, rdp_to_epsilon, epsilon_poisson_gaussian
from trustnb.privacy.balanced_subsampling import epsilon_balanced

def _timed(f):
    t = time.perf_counter(); v = f(); return v, time.perf_counter() - t

def theirs(method, noise_multiplier, sampling_rate, T, delta, orders=None, discretization=1e-4):
    ev = dpa.PoissonSampledDpEvent(sampling_rate, dpa.GaussianDpEvent(noise_multiplier))
    a = dpa.pld.PLDAccountant(dpa.NeighboringRelation.ADD_OR_REMOVE_ONE, discretization) if method == 'pld' else dpa.rdp.RdpAccountant(orders)
    a.compose(ev, T); return a.get_epsilon(delta)

def accounting_grid(quick=False, delta=1e-5):
    sigmas, qs, Ts = ((0.8, 2.0), (0.01, 0.1), (100, 1000)) if quick else ((0.6, 0.8, 1.0, 1.5, 2.0, 4.0), (0.001, 0.01, 0.1), (100, 1000, 10000))
    orders = list(range(2, 65)); rows = []
    for s in sigmas:
        for q in qs:
            for T in Ts:
                row = dict(noise_multiplier=s, sampling_rate=q, T=T)
                for m in ('pld', 'rdp'):
                    ours, t_o = _timed(lambda: Accountant(m).step(GaussianMechanism(s), q, T).get_epsilon(delta))
                    ref, t_r = _timed(lambda: theirs(m, s, q, T, delta))
                    row.update({f'{m}_ours': ours, f'{m}_dpa': ref, f'{m}_rel': abs(ours / ref - 1), f'{m}_time_ratio': t_o / t_r})
                own, t_o = _timed(lambda: rdp_to_epsilon(orders, T * rdp_poisson_gaussian(s, q, orders), delta))
                ref, t_r = _timed(lambda: theirs('rdp', s, q, T, delta, orders))
                row.update(rdp_int_own=own, rdp_int_dpa=ref, rdp_int_rel=abs(own / ref - 1), rdp_int_time_ratio=t_o / t_r)
                rows.append(row); print({k: (round(v, 5) if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    return rows

def pld_parity(quick=False, delta=1e-5, discretization=1e-4):
    "Our PLD ε vs dp-accounting's PLDAccountant at the same discretization; each pair timed back to back, in alternating order."
    zs, qs, Ts = ((0.8, 2.0), (1e-4, 1e-2), (1000, 100_000)) if quick else ((0.6, 1.0, 2.0), (1e-4, 1e-3, 1e-2, 0.1), (100, 1000, 10_000, 100_000))
    rows = []
    for i, (z, q, T) in enumerate((z, q, T) for z in zs for q in qs for T in Ts):
        if q * T ** 0.5 > 10: continue  # composed grids beyond ~1e7 points: minutes per call on either side
        ours = lambda: Accountant(discretization=discretization).step(GaussianMechanism(z), q, T).get_epsilon(delta)
        ref = lambda: theirs('pld', z, q, T, delta, discretization=discretization)
        if i % 2: (e_r, t_r), (e_o, t_o) = _timed(ref), _timed(ours)
        else: (e_o, t_o), (e_r, t_r) = _timed(ours), _timed(ref)
        row = dict(noise_multiplier=z, sampling_rate=q, T=T, eps_ours=e_o, eps_dpa=e_r, rel=abs(e_o / e_r - 1), t_ours=t_o, t_dpa=t_r, time_ratio=t_o / t_r)
        rows.append(row); print({k: (float(f'{v:.6g}') if isinstance(v, float) else v) for k, v in row.items()}, flush=True)
    return rows

def balanced_table(quick=False, delta=1e-5):
    try:
        from PLD_accounting.random_allocation_api import gaussian_allocation_epsilon_range
    except ImportError:
        gaussian_allocation_epsilon_range = None
    rows = []
    for s in ((0.8, 2.0) if quick else (0.6, 0.8, 1.0, 1.5, 2.0)):
        (eb, tb) = _timed(lambda: epsilon_balanced(s, 100, 1, delta, n_mc=30_000 if quick else 200_000))
        (ep, tp) = _timed(lambda: epsilon_poisson_gaussian(s, 0.01, 100, delta))
        row = dict(noise_multiplier=s, eps_balanced=eb, eps_poisson=ep, ratio=eb / ep, time_balanced=tb, time_poisson=tp)
        if gaussian_allocation_epsilon_range is not None:
            (up, lo), tr = _timed(lambda: gaussian_allocation_epsilon_range(delta=delta, sigma=s, num_steps=100, num_selected=1))
            row.update(pld_accounting_upper=up, pld_accounting_lower=lo, time_pld_accounting=tr)
        rows.append(row); print({k: round(v, 4) for k, v in row.items()}, flush=True)
    return rows

def main(argv=None):
    p = argparse.ArgumentParser(); p.add_argument('--quick', action='store_true'); p.add_argument('--json')
    p.add_argument('--only', choices=['grid', 'pld', 'balanced'], nargs='+', default=['grid', 'pld', 'balanced'])
    a = p.parse_args(argv)
    g = accounting_grid(a.quick) if 'grid' in a.only else []; pp = pld_parity(a.quick) if 'pld' in a.only else []
    b = balanced_table(a.quick) if 'balanced' in a.only else []
    print('\n== summary ==')
    for m in ('pld', 'rdp', 'rdp_int') if g else ():
        print(f"{m:8s} max rel. ε diff vs dp-accounting: {max(r[f'{m}_rel'] for r in g):.2e}   "
              f"median time ratio ours/dp-accounting: {np.median([r[f'{m}_time_ratio'] for r in g]):.2f}")
    if pp:
        print(f"PLD at the same discretization ({len(pp)} settings, q down to {min(r['sampling_rate'] for r in pp):g}, T up to {max(r['T'] for r in pp)}): "
              f"max rel. ε diff {max(r['rel'] for r in pp):.1e} (goal <= 1e-6); time ratio ours/dp-accounting median {np.median([r['time_ratio'] for r in pp]):.2f}, "
              f"max {max(r['time_ratio'] for r in pp):.2f} (goal <= 2)")
    if b: print('balanced vs Poisson (T=100, k=1, δ=1e-5): ' + ', '.join(f"z={r['noise_multiplier']}: {r['ratio']:.3f}" for r in b))
    if a.json:
        with open(a.json, 'w') as f: json.dump(dict(grid=g, pld_parity=pp, balanced=b), f, indent=1)

if __name__ == '__main__': main()
