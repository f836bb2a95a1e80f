"""Cost of one delete request: ERASE (exact, in-context) vs SISA (5 shards) vs retraining from scratch.

Run: `python bench/unlearn.py [--n-deletions 50] [--seed 0]`. Prints wall time and work per delete, and the ratios
to full retraining, in one run. Retraining = refitting the method on the data without the record (ERASE's own
retrain is a fresh quantized-k-means selection; the fine-tuning retrain is one logistic regression on all data).
"""
import argparse, time
import numpy as np
from sklearn.linear_model import LogisticRegression
from trustnb.unlearn.erase import ERASESelector, SISA, _digits_task, state_hash


def main(n_deletions:int=50, seed:int=0):
    embed, X, y, ids, Xt, yt = _digits_task(seed)
    sel = ERASESelector(k=4, lattice_spacing=0.5, embed_fn=embed, seed=seed).fit(X, y, ids)
    sisa = SISA(make_estimator=lambda: LogisticRegression(max_iter=300), n_shards=5, seed=seed).fit(X, y, ids)
    dels = np.random.default_rng(seed + 1).choice(ids, n_deletions, replace=False)
    t = dict(erase=[], erase_retrain=[], sisa=[], retrain=[]); identical = True
    for i in dels:
        rep = sel.unlearn(int(i)); t['erase'].append(rep.seconds)
        t0 = time.perf_counter(); fresh = ERASESelector(k=4, lattice_spacing=0.5, embed_fn=embed, seed=seed).fit(sel.X_, sel.y_, sel.ids_)
        t['erase_retrain'].append(time.perf_counter() - t0)
        identical &= state_hash(fresh.state_dict()) == state_hash(sel.state_dict())
        t['sisa'].append(sisa.unlearn(int(i)).seconds)
        t0 = time.perf_counter(); LogisticRegression(max_iter=300).fit(sisa.X_, sisa.y_); t['retrain'].append(time.perf_counter() - t0)
    m = {k: float(np.mean(v)) for k, v in t.items()}
    print(f"{n_deletions} sequential deletes on digits (1,000 adaptation records); all ERASE states bit-identical to a rerun: {identical}")
    print(f"{'method':34s}{'mean s/delete':>14s}{'ratio to retrain':>18s}")
    for k, name in [('erase', 'ERASE delete'), ('erase_retrain', 'ERASE rerun from scratch'),
                    ('sisa', 'SISA (5 shards) delete'), ('retrain', 'retrain logistic regression')]:
        print(f"{name:34s}{m[k]:14.5f}{m[k] / m['retrain']:18.4f}")
    print(f"ERASE delete / SISA delete = {m['erase'] / m['sisa']:.4f}")
    return m


if __name__ == '__main__':
    p = argparse.ArgumentParser(); p.add_argument('--n-deletions', type=int, default=50); p.add_argument('--seed', type=int, default=0)
    a = p.parse_args(); main(a.n_deletions, a.seed)
