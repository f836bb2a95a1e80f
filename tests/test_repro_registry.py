"""Issue 23: every registered claim can be drawn, has a negative control, and has a current verdict stored in the
package (`make repro` writes them; CI never runs the draws). A changed claim lands with fresh verdicts."""
import inspect
import pytest
import trustnb.repro as R

R.discover()
KEYS = sorted(R.REGISTRY)
STORED = R.load_verdicts()
# hashed once, at collection, before any test runs: a notebook test elsewhere must not be able to race the reads
CURRENT = {k: R.source_hash(k) for k in KEYS}

def test_registry_is_populated():
    assert len(KEYS) >= 57, f'{len(KEYS)} claims registered; modules that did not import: {R.discover()}'

@pytest.mark.parametrize('key', KEYS)
def test_claim_is_drawable(key):
    c = R.REGISTRY[key]; p = c.params
    assert 'seed' in p and p['seed'].default is not inspect.Parameter.empty, f'{key}: the claim function takes `seed` with the page seed as default'
    assert 'sham' in p and p['sham'].default is False, f'{key}: the claim function takes `sham: bool = False` (the negative control)'
    assert c.control.strip(), f'{key}: `@claim(..., control=...)` says what the sham is'

@pytest.mark.parametrize('key', KEYS)
def test_verdict_is_stored_and_current(key):
    v = STORED.get(key)
    assert v is not None, f'{key}: no stored verdict; run `make repro ONLY={key}` and commit trustnb/verdicts.json'
    assert v['source_hash'] == CURRENT[key], (f'{key}: the stored verdict is stale (the claim or a module it imports changed '
                                                   f'since {v["date"]}); run `make repro ONLY={key}` and commit trustnb/verdicts.json')
    assert len(v['seeds']) >= 5 and v['seeds'] == R.draw_seeds(key, len(v['seeds'])), f'{key}: at least 5 drawn seeds (draw_seeds)'
    assert v['verdict'] == R.verdict(v['n_holds'], len(v['seeds'])) and v['n_holds'] == sum(v['holds'])

@pytest.mark.parametrize('key', KEYS)
def test_control_fails_on_every_draw(key):
    v = STORED.get(key)
    if v is None: pytest.fail(f'{key}: no stored verdict')
    assert len(v['control_holds']) == len(v['seeds']), f'{key}: the control ran on every draw'
    assert not any(v['control_holds']), (f'{key}: the negative control ({R.REGISTRY[key].control}) passed the holds-logic on '
                                         f'{sum(v["control_holds"])} of {len(v["seeds"])} draws: the claim cannot fail; rewrite it')
    assert not v['errors'], f'{key}: draws raised: {v["errors"][:2]}'

def test_no_verdicts_for_unknown_claims():
    assert not set(STORED) - set(KEYS), f'verdicts for claims that no longer exist: {sorted(set(STORED) - set(KEYS))}'

def test_a_control_that_passes_is_caught():
    "The mechanics, on a claim whose holds-logic is too weak (its sham passes about half the time)."
    import numpy as np
    @R.claim('_weak_probe', paper='-', claim='-', metric='-', baseline='-', control='a single draw')
    def _weak(seed: int = 0, sham: bool = False):
        x = np.random.default_rng(seed).normal(size=(50, 200)); est = x[:, -1] if sham else x.mean(1)
        m, b = np.sqrt((est ** 2).mean()), np.sqrt((x[:, 0] ** 2).mean())
        return dict(method=m, baseline=b, holds=m <= b * 1.05)
    try:
        rep = R.run_draws('_weak_probe', n=8, verbose=False)
        assert rep.verdict == 'holds' and not rep.control_fails
    finally: del R.REGISTRY['_weak_probe']
