"""Train the zoo models the notebooks' default paths need, and ship them in the package (issue 25).

Every notebook's default path runs (as `make docs` runs it) with an empty zoo cache and the shipped weights switched off
(`TRUSTNB_SHIPPED=0`), so each model is trained by our own code from its seed; every entry the runs left in that
cache is then copied into `trustnb/weights/` (safetensors + config.json with its sha256), replacing what was there.
`python tools/train_zoo.py [--only=20_,21_] [--keep]`; `--keep` adds to `trustnb/weights` instead of replacing it.
`tests/test_zoo_shipped.py` checks that retraining reproduces shipped entries."""
import os, sys, json, shutil, tempfile, time
from pathlib import Path
from concurrent.futures import ProcessPoolExecutor, as_completed
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from nbexec import execute

if __name__ == '__main__':
    only = [a.split('=', 1)[1].split(',') for a in sys.argv if a.startswith('--only=')]
    nbs = sorted(p for p in (ROOT / 'nbs').glob('*.ipynb') if not p.name.startswith(('_', '.')))
    if only: nbs = [p for p in nbs if any(p.stem.startswith(o) for o in only[0])]
    cache, out = Path(tempfile.mkdtemp(prefix='tnb-zoo-')), Path(tempfile.mkdtemp(prefix='tnb-zoo-nbs-'))
    os.environ.update(TRUSTNB_CACHE=str(cache), TRUSTNB_SHIPPED='0', OMP_NUM_THREADS='1')
    t0, failed = time.time(), []
    with ProcessPoolExecutor(2) as ex:
        # submit nbexec.execute itself: a notebook run in a worker replaces its `__main__` (IPython's shell does), so a
        # function of this script could not be unpickled there for the next notebook
        futs = {ex.submit(execute, nb, out / nb.name): nb.name for nb in nbs}
        for k, f in enumerate(as_completed(futs), 1):
            name = futs[f]; ok, secs, err = f.result()
            print(f'[{k}/{len(nbs)}] {name:44s} {"ok  " if ok else "FAIL"} {secs:6.1f} s; elapsed {time.time() - t0:.0f} s', flush=True)
            if not ok: failed.append((name, err))
    entries = sorted(p for p in cache.iterdir() if p.is_dir() and (p / 'model.safetensors').exists() and (p / 'config.json').exists())
    dest = ROOT / 'trustnb' / 'weights'
    if '--keep' not in sys.argv: shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True, exist_ok=True)
    for e in entries: shutil.rmtree(dest / e.name, ignore_errors=True); shutil.copytree(e, dest / e.name)
    import torch, platform
    (dest / 'trained_with.json').write_text(json.dumps(dict(torch=torch.__version__, python=platform.python_version(),
                                                            date=time.strftime('%Y-%m-%d', time.gmtime())), indent=1))
    size = sum(f.stat().st_size for f in dest.rglob('*') if f.is_file())
    print(f'{len(entries)} trained models shipped in {dest.relative_to(ROOT)} ({size / 1e6:.1f} MB) after {time.time() - t0:.0f} s')
    for e in entries: print(f'  {e.name:48s} {(e / "model.safetensors").stat().st_size / 1e3:8.0f} kB')
    for name, err in failed: print(f'\n--- {name} failed ---\n{err[-2000:]}')
    shutil.rmtree(cache, ignore_errors=True); shutil.rmtree(out, ignore_errors=True)
    sys.exit(1 if failed else 0)
