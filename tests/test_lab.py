"""JupyterLab as a reader uses it (issue 17), in headless Chromium: Run All shows one figure per widget, the figure
follows its slider, and a `#| slow` cell prints its one-line skip note instead of running. Screenshots go to
_build/screenshots/lab-*.png. Skipped, with a message, where Chromium is absent (.ci/run installs it)."""
import sys
from pathlib import Path
import pytest
# Subprocess-heavy tests (kernels, the docs build, Chromium) share one xdist worker (make test: --dist loadgroup), so they never
# run beside each other: beside the docs build, Run All of a notebook in a kernel once took 331 s instead of ~40 s.
pytestmark = pytest.mark.xdist_group('subprocess-heavy')
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from browser_check import find_chromium

@pytest.mark.skipif(not find_chromium(), reason='Chromium is not installed (Debian: apt-get install -y chromium; .ci/run does this)')
@pytest.mark.timeout(600)
def test_jupyterlab_run_all_and_slider():
    import lab_check
    r = lab_check.run(shots=ROOT / '_build' / 'screenshots', timeout=180)
    setup, widget, slow, last = r['after_run'][:4]
    assert widget['widget'] == 1 and len(widget['imgs']) == 1, f'one figure per widget, got {widget}'
    assert slow['text'].startswith('Skipped: this cell is flagged `#| slow`') and 'ran' not in slow['text'], slow
    assert 'last cell ran' in last['text'], 'Run All went on past the skipped cell'
    assert r['run_all_s'] < 60, f"Run All took {r['run_all_s']} s (the slow cell sleeps 120 s if it runs)"
    moved = r['after_slider'][1]
    assert r['slider_value'] == '20' and len(moved['imgs']) == 1 and moved['imgs'] != widget['imgs'], 'the figure follows the slider'
    assert not moved['errors']

@pytest.mark.skipif(not find_chromium(), reason='Chromium is not installed (Debian: apt-get install -y chromium; .ci/run does this)')
@pytest.mark.timeout(900)
def test_make_lab_saves_clean_notebooks():
    "`make lab` (tools/jupyter_server_config.py, no global Jupyter config): open, run and save a notebook, and it is byte-identical."
    import lab_check
    before, after, info = lab_check.save_check('04_viz.ipynb', cells=12)
    assert info['saved'] and info['outputs_shown'] >= 1, info
    assert after == before, 'saving from `make lab` changed the notebook (outputs or metadata written into nbs/)'
    assert not any('jupyter' in p for p in info['home_written']), f"the user's global Jupyter config was written: {info}"
    # the control: the same steps without the project config rewrite the notebook (outputs saved into it)
    before, after, info = lab_check.save_check('04_viz.ipynb', cells=12, config=None)
    assert info['saved'] and after != before
