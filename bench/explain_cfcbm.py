"""CF-CBM vs post-hoc counterfactual search on the same concept bottleneck: time per counterfactual and validity.

Run:  python bench/explain_cfcbm.py [--n-dice 50] [--seed 0]

Baselines, all on the *same* trained task head f(c) of a CF-CBM trained on the digits-concept data:
  * dice-ml (`method="random"`, 1 counterfactual, concepts as categorical features), one query at a time -- needs
    `pip install dice-ml` (its wheel declares xgboost and lightgbm as hard requirements; `dice-ml raiutils` with
    `--no-deps` is enough for the random method);
  * trustnb's post-hoc Wachter-style gradient search in concept space (100 Adam steps, batched over all queries);
  * exhaustive enumeration of the 2^k concept vectors (exact minimum Hamming; only possible for small k).
CF-CBM itself produces every counterfactual in one batched forward pass.
"""
import argparse, time, warnings
import numpy as np
import pandas as pd
import torch
from trustnb.explain.cf_cbm import (DIGIT_CONCEPTS, digits_cfcbm, posthoc_counterfactual, exact_counterfactual)


def best_of(fn, repeats):
    "The result with the smallest `.seconds` over `repeats` calls."
    return min((fn() for _ in range(repeats)), key=lambda r: r.seconds)


def run_dice(model, train, c, y_prime, n):
    "DiCE random search on the CBM head, one query at a time: (validity, hamming, seconds per query) over `n` queries."
    import dice_ml

    class Head:  # the sklearn-style interface DiCE calls
        def predict_proba(self, df):
            x = torch.as_tensor(df[DIGIT_CONCEPTS].to_numpy().astype(np.float32))
            with torch.no_grad(): return model.net_.head(x).softmax(1).numpy()
        def predict(self, df): return self.predict_proba(df).argmax(1)

    frame = pd.DataFrame(train.C.astype(int).astype(str), columns=DIGIT_CONCEPTS).assign(digit=train.y)
    data = dice_ml.Data(dataframe=frame, continuous_features=[], outcome_name='digit')
    dice = dice_ml.Dice(data, dice_ml.Model(model=Head(), backend='sklearn', model_type='classifier'), method='random')
    valid, ham, t0 = [], [], time.perf_counter()
    for i in range(n):
        q = pd.DataFrame(c[i:i + 1].astype(int).astype(str), columns=DIGIT_CONCEPTS)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            try:
                cfs = dice.generate_counterfactuals(q, total_CFs=1, desired_class=int(y_prime[i]), verbose=False).cf_examples_list[0].final_cfs_df
            except Exception: cfs = None  # DiCE raises when it finds nothing ("No counterfactuals found")
        if cfs is None or len(cfs) == 0: valid.append(False); continue
        cp = cfs[DIGIT_CONCEPTS].to_numpy().astype(np.float32)[:1]
        with torch.no_grad(): valid.append(int(model.net_.head(torch.as_tensor(cp)).argmax(1)[0]) == int(y_prime[i]))
        ham.append(float((cp[0] != c[i]).sum()))
    secs = (time.perf_counter() - t0) / n
    return float(np.mean(valid)), float(np.mean(ham)) if ham else float('nan'), secs


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--seed', type=int, default=0); p.add_argument('--n-dice', type=int, default=50)
    a = p.parse_args(argv)
    t0 = time.time(); model, train, test = digits_cfcbm(a.seed); print(f'CF-CBM trained in {time.time() - t0:.1f} s')
    yp = (test.y + np.random.default_rng(a.seed + 100).integers(1, 10, len(test.y))) % 10
    n = len(yp)
    cf = best_of(lambda: model.counterfactual(test.X, yp), 5)
    ph = best_of(lambda: posthoc_counterfactual(model.net_.head, cf.c, yp), 3)
    ex = best_of(lambda: exact_counterfactual(model.net_.head, cf.c, yp), 3)
    rows = [('CF-CBM, one forward pass (batched)', cf.validity, cf.hamming.mean(), cf.seconds / n),
            ('post-hoc gradient search, 100 steps (batched)', ph.validity, ph.hamming.mean(), ph.seconds / n),
            ('exhaustive 2^6 enumeration (batched)', ex.validity, ex.hamming.mean(), ex.seconds / n)]
    try:
        import dice_ml  # noqa: F401
        v, h, s = run_dice(model, train, cf.c, yp, min(a.n_dice, n))
        rows.append((f'dice-ml random, 1 CF (per query, {min(a.n_dice, n)} queries)', v, h, s))
    except ImportError:
        print('dice-ml is not installed: its row is skipped (pip install dice-ml)')
    df = pd.DataFrame(rows, columns=['method', 'validity', 'hamming', 'seconds_per_cf'])
    df['us_per_cf'] = 1e6 * df.pop('seconds_per_cf'); df['slower_than_cfcbm'] = df.us_per_cf / df.us_per_cf[0]
    with pd.option_context('display.width', 160, 'display.float_format', '{:.3f}'.format): print(df.to_string(index=False))
    return df


if __name__ == '__main__': main()
