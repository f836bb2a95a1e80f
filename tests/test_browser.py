"""The docs site in a real browser: every generated page opened in headless Chromium, failing on a JavaScript error,
a broken internal link or anchor, a missing image, or an equation left untypeset. Screenshots of three pages are kept
under _build/screenshots/ for review. Skipped, with a message, where Chromium is absent (.ci/run installs it).
To keep CI short the site is built with every page processed by nbdev but only a few notebooks executed (figures,
equations, a widget's static figure, the reproduction table); `python tools/browser_check.py _docs` checks a full build."""
import fcntl, json, os, re, subprocess, sys, time
from pathlib import Path
import pytest
# Subprocess-heavy tests (kernels, the docs build, Chromium) share one xdist worker (make test: --dist loadgroup), so they never
# run beside each other: beside the docs build, Run All of a notebook in a kernel once took 331 s instead of ~40 s.
pytestmark = pytest.mark.xdist_group('subprocess-heavy')
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from browser_check import find_chromium, check_site, Chromium
NBS = sorted(p for p in (ROOT / 'nbs').glob('*.ipynb') if not p.name.startswith(('_', '.')))
SHOTS = ROOT / '_build' / 'screenshots'
# executed: a widget's static figure (viz), a registered claim for the reproduction table (ranking, ~3 s); the accounting
# page is processed unexecuted (its equations, headings and exported names are in its markdown and show_doc cells): executing
# it cost 98-175 s of the CI's slowest worker
RUN = 'index,04_viz,80_evaluate.ranking'

def _page(nb_name): return re.sub(r'^\d+[a-zA-Z0-9]*_', '', Path(nb_name).stem.lower()) + '.html'

@pytest.fixture(scope='session')
def quick_site():
    """Every notebook processed by nbdev, three executed; built once per test session, in a folder of this xdist worker's
    own (a build replaces its `_docs`: a shared folder let one worker's rebuild delete pages under another's Chromium),
    cached between runs."""
    out = ROOT / '_build' / 'browser-site' / os.environ.get('PYTEST_XDIST_WORKER', 'main')
    out.mkdir(parents=True, exist_ok=True)
    with open(out / '.lock', 'w') as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        t0 = time.time()
        r = subprocess.run([sys.executable, ROOT / 'tools' / 'build_docs.py', '--preview', f'--out={out}', f'--run={RUN}'],
                           capture_output=True, text=True, cwd=ROOT, env={**os.environ, 'OMP_NUM_THREADS': '1'})
        print(r.stdout[-1500:], f'\nquick site built in {time.time() - t0:.0f} s')
    assert (out / '_docs' / 'index.html').exists(), r.stdout[-4000:] + r.stderr[-4000:]
    fails = json.loads((out / '_build' / 'failed.json').read_text())
    return out / '_docs', fails

@pytest.mark.timeout(1800)
def test_every_notebook_is_processed_by_nbdev(quick_site):
    "What `nbdev_docs` runs before Quarto must succeed on every notebook (else its page has no API reference)."
    _, fails = quick_site
    bad = {n: e for n, e in fails.items() if 'cannot process' in e}
    assert not bad, '\n\n'.join(f'{n}: {e}' for n, e in bad.items())
    ran = {n: e for n, e in fails.items() if any(n.startswith(r) for r in RUN.split(','))}
    assert not ran, ran

@pytest.fixture(scope='session')
def site(quick_site):
    if not find_chromium(): pytest.skip('Chromium is not installed (Debian: apt-get install -y chromium; .ci/run does this)')
    return quick_site

@pytest.mark.timeout(1800)
def test_every_page_in_chromium(site):
    docs, fails = site
    problems, reports = check_site(docs, shots=SHOTS)
    assert len(reports) == len(NBS) + 1, sorted(reports)  # every notebook, plus the reproduction table
    # pages nbdev could not process lack their API anchors: test_every_notebook_is_processed_by_nbdev names them
    unprocessed = {_page(n) for n, e in fails.items() if 'cannot process' in e}
    problems = [p for p in problems if p.split(':')[0] not in unprocessed]
    assert not problems, '\n'.join(problems[:40])
    assert reports['privacy.accounting.html']['katex'] > 10, 'the equations of the accounting page are typeset'
    assert any(i['ok'] for i in reports['viz.html']['images']), "viz shows interact_figure's static figure"
    for name in ('index', 'privacy.accounting', 'viz'): assert (SHOTS / f'{name}.png').stat().st_size > 10_000
    assert re.search(r'seed \d+, holds', (docs / 'repro_table.html').read_text()), 'the executed claim has its page-seed run in the table'

@pytest.mark.timeout(1800)
def test_search_finds_pages_headings_and_exported_names(site):
    site, _ = site
    br = Chromium()
    try:
        assert not br.open((site / 'index.html').as_uri())
        def search(q):
            return json.loads(br.eval(f"""(() => {{ const q = document.getElementById('tnb-q'); q.value = {json.dumps(q)};
                q.dispatchEvent(new Event('input')); return JSON.stringify([...document.querySelectorAll('#tnb-res a')]
                .map(a => [a.firstChild.textContent, a.getAttribute('href')])); }})()"""))
        assert ['Privacy accounting', 'privacy.accounting.html'] in search('privacy acc')      # a page title
        assert ['GaussianMechanism', 'privacy.accounting.html#gaussianmechanism'] in search('GaussianMech')  # an exported name
        assert any(h.startswith('privacy.accounting.html#') and 'accountant' in t.lower() for t, h in search('The accountant'))  # a heading
        assert search('zzzz-no-such-thing') == []
    finally: br.close()
