"""Instruction steering head to head: trustnb.internals.steering vs steering-vectors and repeng (benchmark, not a test).

On the toy copy model `toy_lm('copy_transform')` (2-layer GPT-2, d = 64), from ONE run:
- parity: the SAME <UP> vector applied with trustnb's `Steerer`, with steering-vectors' `SteeringVector.apply` and with repeng's
  `ControlModel.set_raw_control`, in the add mode and in the paper's project mode (each library's custom operator), at every layer and two
  strengths: max |logit difference| over real tokens, and whether greedy generations are identical;
- extraction parity: steering-vectors' `train_steering_vector` (mean aggregator, last token) vs `instruction_vector`;
- calibration vs the libraries' fixed-layer defaults, on fresh prompts without the instruction: upper-case compliance and content accuracy.

Anchors (each configuration is printed with the results, see ANCHORS):
    pip install steering-vectors repeng
    (repeng 0.4 pins numpy<2 and steering-vectors 0.12 pins transformers<5 in their metadata; both run on numpy 2 / transformers 5
    for what is used here, so `pip install --no-deps steering-vectors repeng` keeps the environment as it is. repeng 0.4's
    module uses `np.float_`, removed in numpy 2; this script aliases it before importing repeng.)

    python bench/internals.py            # about a minute on one CPU thread
    python bench/internals.py --seed 1 --n-test 512
"""
from __future__ import annotations
import argparse, contextlib, importlib.util, sys, time
import numpy as np
import torch

from trustnb.internals.toylm import toy_lm, generate
from trustnb.internals.steering import (instruction_vector, Steerer, calibrate, prompt_pairs, instruction_scores, SteeringVector)

ANCHORS = {
    'trustnb': 'trustnb Steerer(model, vector.configure(mode, strength, layers)): one trustnb.hooks.intervene_site hook per layer '
               '(block output = residual stream), every position, calibrated by calibrate(...) over every layer x strengths (0.5..4) '
               'with the guard content accuracy >= 0.9 on 128 held-out prompts',
    'steering-vectors': 'steering_vectors.SteeringVector({layer: s*u}, "decoder_block").apply(model, min_token_index=0) (add); '
                        'project through operator=lambda h, v: (c - h.u_hat) u_hat; its default recipe: train_steering_vector(model, '
                        'tokenizer, pairs) = mean of last-token differences at ALL layers, applied at all layers with multiplier 1.0',
    'repeng': 'repeng.ControlModel(model, [layer]).set_raw_control({layer: s*u}) (add; its mask skips left padding via position_ids); '
              'project through operator=lambda cur, ctl: cur + (c - cur.u_hat) u_hat; repeng has no layer search: the README picks a '
              'fixed band of middle layers, here the middle layer n_layer // 2 with coefficient 1.0',
}

def _need(mod, pip):
    if importlib.util.find_spec(mod) is None: sys.exit(f"missing anchor `{mod}`: pip install --no-deps {pip}")

class _Tok:
    "The minimal tokenizer steering-vectors needs: space-separated toy tokens, right padding (so GPT-2 positions stay correct)."
    def __init__(self, vocab): self.vocab, self.pad_token_id, self.pad_token = vocab, vocab.pad_id, '<pad>'
    def __call__(self, texts, return_tensors='pt', padding=True):
        from transformers import BatchEncoding
        ids = [self.vocab.encode(t.split()) for t in ([texts] if isinstance(texts, str) else texts)]; T = max(map(len, ids))
        x = torch.tensor([s + [self.vocab.pad_id] * (T - len(s)) for s in ids]); m = torch.tensor([[1] * len(s) + [0] * (T - len(s)) for s in ids])
        return BatchEncoding(dict(input_ids=x, attention_mask=m))

def _logits(lm, ids, mask):
    pos = (mask.cumsum(-1) - 1).clamp(min=0)
    with torch.no_grad(): return lm.model(ids, attention_mask=mask, position_ids=pos).logits

def _repeng():
    if not hasattr(np, 'float_'): np.float_ = np.float64  # repeng 0.4 annotates with np.float_ (removed in numpy 2)
    import repeng; return repeng

def _sv_ctx(u, layer, s, mode, c, lm):
    import steering_vectors as SV
    uh = u / u.norm()
    if mode == 'add': return SV.SteeringVector({layer: s * u}, 'decoder_block').apply(lm.model, min_token_index=0)
    return SV.SteeringVector({layer: uh}, 'decoder_block').apply(lm.model, min_token_index=0,
                                                                 operator=lambda h, v: (s * c - h @ uh.to(h)).unsqueeze(-1) * uh.to(h))

@contextlib.contextmanager
def _rp_ctx(u, layer, s, mode, c, lm):
    repeng = _repeng(); cm = repeng.ControlModel(lm.model, [layer]); uh = u / u.norm()
    try:
        if mode == 'add': cm.set_raw_control({layer: s * u})
        else: cm.set_raw_control({layer: uh}, operator=lambda cur, ctl: cur + (s * c - cur @ uh.to(cur)).unsqueeze(-1) * uh.to(cur))
        yield
    finally: cm.reset(); cm.unwrap()

def parity(lm, v, examples):
    ids, mask = lm.encode(examples); real = mask.bool(); rows = []; base = _logits(lm, ids, mask)
    for layer in sorted(v.directions):
        for mode in ('add', 'project'):
            for s in (1.0, 3.0):
                u, c = v.directions[layer], v.targets[layer]
                with Steerer(lm.model, v.configure(mode=mode, strength=s, layers=(layer,))):
                    ours = _logits(lm, ids, mask); g_ours = generate(lm, examples, max_new_tokens=8)
                row = dict(layer=layer, mode=mode, strength=s, effect=float((ours - base)[real].abs().max()))
                for name, ctx in (('steering-vectors', _sv_ctx), ('repeng', _rp_ctx)):
                    with ctx(u, layer, s, mode, c, lm):
                        theirs = _logits(lm, ids, mask); g = generate(lm, examples, max_new_tokens=8)
                    row[name] = float((ours - theirs)[real].abs().max()); row[name + ' same gen'] = float(np.mean([a == b for a, b in zip(g, g_ours)]))
                rows.append(row)
    return rows

def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument('--seed', type=int, default=0); p.add_argument('--n-test', type=int, default=256); p.add_argument('--n-extract', type=int, default=256)
    a = p.parse_args(argv)
    _need('steering_vectors', 'steering-vectors'); _need('repeng', 'repeng')
    import steering_vectors as SV
    lm = toy_lm('copy_transform'); lang = lm.language; mnt = lang.max_len + 2; t0 = time.time()
    P = prompt_pairs(lang, ('<UP>',), a.n_extract, seed=a.seed); cal = prompt_pairs(lang, ('<UP>',), 128, seed=a.seed + 2)
    T = prompt_pairs(lang, ('<UP>',), a.n_test, seed=a.seed + 3)
    v = instruction_vector(lm.model, lm.encode(P.with_instruction), lm.encode(P.without_instruction), name='<UP>')
    for k, d in ANCHORS.items(): print(f'[{k}] {d}')
    print('\n== parity: the same vector applied by each library (max |logit diff| over real tokens; share of identical greedy generations)')
    rows = parity(lm, v, T.without_instruction[:64])
    print(f"{'layer':>5} {'mode':>8} {'s':>4} {'steering effect':>15} {'steering-vectors':>17} {'same gen':>8} {'repeng':>10} {'same gen':>8}")
    for r in rows: print(f"{r['layer']:5d} {r['mode']:>8} {r['strength']:4.1f} {r['effect']:15.2f} {r['steering-vectors']:17.2e} {r['steering-vectors same gen']:8.2f} {r['repeng']:10.2e} {r['repeng same gen']:8.2f}")
    worst = max(max(r['steering-vectors'], r['repeng']) for r in rows); print(f'worst parity error: {worst:.2e}')
    tok = _Tok(lm.vocab); pairs = [(' '.join(w.prompt), ' '.join(o.prompt)) for w, o in zip(P.with_instruction, P.without_instruction)]
    sv_def = SV.train_steering_vector(lm.model, tok, pairs)
    ext = max(float((sv_def.layer_activations[l] - v.directions[l]).abs().max()) for l in v.directions)
    print(f'extraction parity (steering-vectors train_steering_vector vs instruction_vector, max |diff| over layers): {ext:.2e}')
    def ev(model):
        s = instruction_scores(lang, generate(lm, cal.without_instruction, max_new_tokens=mnt), cal.contents, ('<UP>',)); return s['upper'], 1 - s['content']
    t1 = time.time(); c = calibrate(lm.model, v, ev, max_damage=0.1, strengths=(0.5, 1.0, 2.0, 3.0, 4.0)); t_cal = time.time() - t1
    def score(ctx):
        with ctx: out = generate(lm, T.without_instruction, max_new_tokens=mnt)
        return instruction_scores(lang, out, T.contents, ('<UP>',))
    mid = lm.model.config.n_layer // 2; u = v.directions[mid]
    res = {'no steering': score(contextlib.nullcontext()),
           f'trustnb calibrated (layer {c.layer}, s={c.strength})': score(Steerer(lm.model, c.vector)),
           'steering-vectors default (all layers, x1.0)': score(sv_def.apply(lm.model, min_token_index=0)),
           f'repeng fixed layer (layer {mid}, coeff 1.0)': score(_rp_ctx(u, mid, 1.0, 'add', v.targets[mid], lm)),
           f'trustnb at the fixed layer (layer {mid}, s=1)': score(Steerer(lm.model, v.configure(layers=(mid,), strength=1.0)))}
    print(f'\n== calibration vs fixed-layer defaults ({a.n_test} fresh prompts without <UP>; calibration took {t_cal:.1f} s)')
    print(f"{'configuration':48} {'upper-case':>10} {'content':>8} {'exact':>6}")
    for k, s in res.items(): print(f"{k:48} {s['upper']:10.3f} {s['content']:8.3f} {s['compliance']:6.3f}")
    print('\ncalibration grid (compliance / content), rows = layers, columns = strengths', [float(x) for x in c.strengths])
    for i, l in enumerate(c.layers): print(f'layer {l}: ' + '  '.join(f'{c.compliance[i, j]:.2f}/{1 - c.damage[i, j]:.2f}' for j in range(len(c.strengths))))
    print(f'total {time.time() - t0:.1f} s')
    return 0

if __name__ == '__main__': sys.exit(main())
