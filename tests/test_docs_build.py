"""`make docs` executes a notebook only when it, the library or an installed package changed (Quarto's freeze idea):
run in a copy of the project on two quick notebooks."""
import re, shutil, subprocess, sys, json, os
from pathlib import Path
import pytest
# Subprocess-heavy tests (kernels, the docs build, Chromium) share one xdist worker (make test: --dist loadgroup), so they never
# run beside each other: beside the docs build, Run All of a notebook in a kernel once took 331 s instead of ~40 s.
pytestmark = pytest.mark.xdist_group('subprocess-heavy')
ROOT = Path(__file__).resolve().parents[1]
PAGES = 'index,04_viz'

def _build(proj, *args):
    r = subprocess.run([sys.executable, proj / 'tools' / 'build_docs.py', '--preview', f'--only={PAGES}', *args], cwd=proj,
                       capture_output=True, text=True, env={**os.environ, 'OMP_NUM_THREADS': '1'})
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    m = re.search(r'docs built in (\d+) s \((\d+) notebook\(s\) executed, (\d+) from the cache\)', r.stdout)
    assert m, r.stdout[-2000:]
    return dict(secs=int(m[1]), ran=int(m[2]), cached=int(m[3]), out=r.stdout)

@pytest.mark.timeout(900)
def test_docs_cache(tmp_path):
    proj = tmp_path / 'p'
    for d in ['nbs', 'trustnb', 'tools']: shutil.copytree(ROOT / d, proj / d, symlinks=True, ignore=shutil.ignore_patterns('__pycache__'))
    for f in ['settings.ini', 'setup.py', 'README.md', '_quarto.yml']: shutil.copy(ROOT / f, proj / f)
    vendor = ROOT / '_build' / 'vendor'  # KaTeX from npm, fetched once per checkout
    if vendor.exists(): shutil.copytree(vendor, proj / '_build' / 'vendor')
    first = _build(proj)
    assert (first['ran'], first['cached']) == (2, 0)
    assert (proj / '_docs' / 'viz.html').exists() and (proj / '_docs' / 'vendor' / 'katex' / 'katex.min.js').exists()
    again = _build(proj)
    assert (again['ran'], again['cached']) == (0, 2), again['out']
    assert again['secs'] < 60
    nb = json.loads((proj / 'nbs' / '04_viz.ipynb').read_text())  # one notebook changes: only it runs again
    nb['cells'].insert(2, {'cell_type': 'markdown', 'id': 'c0ffee00', 'metadata': {}, 'source': ['An added sentence.']})
    (proj / 'nbs' / '04_viz.ipynb').write_text(json.dumps(nb, indent=1))
    one = _build(proj)
    assert (one['ran'], one['cached']) == (1, 1) and 'ok' in one['out'] and '04_viz.ipynb' in one['out']
    assert 'An added sentence.' in (proj / '_docs' / 'viz.html').read_text()
    assert len(list((proj / '_build' / 'cache').glob('04_viz-*.ipynb'))) == 2  # its stale run was replaced (.ipynb + .proc.ipynb)
    lib = proj / 'trustnb' / 'viz.py'; lib.write_text(lib.read_text() + '\n# a library change\n')  # library changes: all run
    assert _build(proj)['ran'] == 2
    assert _build(proj, '--fresh')['ran'] == 2  # make docs FRESH=1
