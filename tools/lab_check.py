"""JupyterLab, as a reader uses it, checked in headless Chromium: open a notebook, Run All (Shift+Enter through every
cell), then move a widget's slider. Reports the figures per widget and whether the figure followed the slider, the
output of a `#| slow` cell, and keeps screenshots. `python tools/lab_check.py [--shots=_build/screenshots]`;
tests/test_lab.py runs it where Chromium is installed."""
import json, os, shutil, socket, subprocess, sys, tempfile, time, urllib.request
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from browser_check import Chromium

CELLS = ["import ipywidgets as W, matplotlib.pyplot as plt\nfrom trustnb.viz import set_style, interact_figure\nset_style()\n"
         "def sine(n=12):\n    import numpy as np; t = np.linspace(0, 1, 200)\n"
         "    plt.plot(t, np.sin(2 * np.pi * n * t / 4)); plt.title(f'n = {n}'); plt.xlabel('time (s)')",
         "ui = interact_figure(sine, n=W.IntSlider(12, 4, 20, description='n'))",
         "#| slow\nimport time; time.sleep(120); print('slow cell ran')",
         "print('last cell ran')"]

STATE = r"""(() => {
  const cells = [...document.querySelectorAll('.jp-Notebook .jp-Cell.jp-CodeCell')];
  return JSON.stringify(cells.map(c => ({
    prompt: (c.querySelector('.jp-InputPrompt') || {}).textContent || '',
    imgs: [...c.querySelectorAll('.jp-OutputArea img')].map(i => i.src.length + ':' + i.src.slice(-40)),
    widget: c.querySelectorAll('.widget-interact').length, sliders: c.querySelectorAll('.widget-slider').length,
    text: [...c.querySelectorAll('.jp-OutputArea-output pre')].map(p => p.textContent).join('\n').slice(0, 300),
    errors: [...c.querySelectorAll('.jp-OutputArea-output')].map(o => o.textContent).filter(t => /Error displaying widget/.test(t)),
  })));
})()"""

def _port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def key(br, key, code, vk, modifiers=0, text=None):
    for t in ('rawKeyDown', 'keyUp'):
        br.send('Input.dispatchKeyEvent', type=t, key=key, code=code, windowsVirtualKeyCode=vk, nativeVirtualKeyCode=vk, modifiers=modifiers)

def run(shots=None, timeout=240):
    import nbformat
    work = Path(tempfile.mkdtemp(prefix='tnb-lab-'))
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(s) for s in CELLS])
    nb.metadata['kernelspec'] = {'name': 'python3', 'display_name': 'python3', 'language': 'python'}
    nbformat.write(nb, work / 'check.ipynb')
    port, token = _port(), 'tnb-lab-check'
    env = {k: v for k, v in os.environ.items() if k not in ('IN_TEST', 'PYTEST_CURRENT_TEST', 'TRUSTNB_FLAGS')}
    env['PYTHONPATH'] = os.environ.get('PYTHONPATH') or str(ROOT)  # this checkout's trustnb
    lab = subprocess.Popen([str(Path(sys.executable).parent / 'jupyter'), 'lab', '--no-browser', f'--port={port}', '--allow-root',
                            f'--IdentityProvider.token={token}', f'--ServerApp.root_dir={work}', '--LabApp.news_url=',
                            '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'],
                           cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    br, out = None, {}
    try:
        for _ in range(120):
            try: urllib.request.urlopen(f'http://127.0.0.1:{port}/api/status?token={token}'); break
            except OSError: time.sleep(0.5)
        br = Chromium()
        br.open(f'http://127.0.0.1:{port}/lab/tree/check.ipynb?token={token}', settle=None)
        t0 = time.time()
        while time.time() - t0 < 90:  # the notebook and its kernel are ready
            if br.eval("!!document.querySelector('.jp-Notebook .jp-CodeCell') && "
                       "/Idle/.test((document.querySelector('.jp-Notebook-ExecutionIndicator, [data-status]') || {}).outerHTML || '')"): break
            time.sleep(0.5)
        time.sleep(2)
        br.eval("document.querySelector('.jp-Notebook .jp-Cell').click()")
        t_run = time.time()
        for _ in CELLS: key(br, 'Enter', 'Enter', 13, modifiers=8); time.sleep(0.3)  # Shift+Enter, cell by cell: Run All
        while time.time() - t_run < timeout:
            st = json.loads(br.eval(STATE))
            if st and '*' not in ''.join(c['prompt'] for c in st) and any('last cell ran' in c['text'] for c in st): break
            time.sleep(0.5)
        out['run_all_s'] = round(time.time() - t_run, 1)
        time.sleep(2)
        out['after_run'] = st = json.loads(br.eval(STATE))
        if shots: Path(shots).mkdir(parents=True, exist_ok=True); br.screenshot(Path(shots) / 'lab-run-all.png')
        # move the slider: focus its handle, press End (to max = 20)
        br.eval("document.querySelector('.widget-slider .noUi-handle, .widget-slider .ui-slider-handle').focus()")
        key(br, 'End', 'End', 35)
        t_move = time.time()
        before = st[1]['imgs']
        while time.time() - t_move < 30:
            now = json.loads(br.eval(STATE))[1]
            if now['imgs'] and now['imgs'] != before: break
            time.sleep(0.3)
        out['slider_redraw_s'] = round(time.time() - t_move, 1)
        out['after_slider'] = json.loads(br.eval(STATE))
        out['slider_value'] = br.eval("(document.querySelector('.widget-readout') || {}).textContent")
        if shots: br.screenshot(Path(shots) / 'lab-slider-moved.png')
    finally:
        if br: br.close()
        lab.terminate()
        try: lab.wait(15)
        except subprocess.TimeoutExpired: lab.kill()
        shutil.rmtree(work, ignore_errors=True)
    return out

if __name__ == '__main__':
    shots = [a.split('=', 1)[1] for a in sys.argv if a.startswith('--shots=')]
    r = run(shots[0] if shots else str(ROOT / '_build' / 'screenshots'))
    brief = lambda st: [(c['prompt'], len(c['imgs']), c['widget'], c['text'][:90]) for c in st]
    print('Run All:', r['run_all_s'], 's'); [print('  ', c) for c in brief(r['after_run'])]
    print('slider moved to', r['slider_value'], '- figure redrawn in', r['slider_redraw_s'], 's; figure changed:',
          r['after_run'][1]['imgs'] != r['after_slider'][1]['imgs']); [print('  ', c) for c in brief(r['after_slider'])]

def save_check(nb_name='index.ipynb', cells=3, timeout=120, config=ROOT / 'tools' / 'jupyter_server_config.py'):
    """Open nbs/`nb_name` in JupyterLab started as `make lab` starts it (tools/jupyter_server_config.py, an empty HOME so
    no global Jupyter config exists), run its first `cells` cells, save with Ctrl+S; returns (before bytes, after bytes, info).
    `config=None` starts JupyterLab without the project config (the control: then the save rewrites the notebook)."""
    work = Path(tempfile.mkdtemp(prefix='tnb-lab-save-'))
    (work / 'nbs').mkdir(); (work / 'home').mkdir()
    shutil.copy(ROOT / 'settings.ini', work / 'settings.ini'); shutil.copy(ROOT / 'nbs' / nb_name, work / 'nbs' / nb_name)
    before = (work / 'nbs' / nb_name).read_bytes()
    port, token = _port(), 'tnb-lab-save'
    env = {k: v for k, v in os.environ.items() if k not in ('IN_TEST', 'PYTEST_CURRENT_TEST', 'TRUSTNB_FLAGS', 'JUPYTER_CONFIG_DIR')}
    env.update(HOME=str(work / 'home'), PYTHONPATH=os.environ.get('PYTHONPATH') or str(ROOT))
    lab = subprocess.Popen([str(Path(sys.executable).parent / 'jupyter'), 'lab'] + ([f'--config={config}'] if config else []) + [
                            '--no-browser', f'--port={port}', '--allow-root', f'--IdentityProvider.token={token}',
                            f'--ServerApp.root_dir={work / "nbs"}', '--LabApp.news_url=', '--LabApp.check_for_updates_class=jupyterlab.NeverCheckForUpdate'],
                           cwd=work, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    br, info = None, {}
    try:
        for _ in range(120):
            try: urllib.request.urlopen(f'http://127.0.0.1:{port}/api/status?token={token}'); break
            except OSError: time.sleep(0.5)
        br = Chromium()
        br.open(f'http://127.0.0.1:{port}/lab/tree/{nb_name}?token={token}', settle=None)
        t0 = time.time()
        while time.time() - t0 < 90:
            if br.eval("!!document.querySelector('.jp-Notebook .jp-CodeCell') && "
                       "/Idle/.test((document.querySelector('.jp-Notebook-ExecutionIndicator, [data-status]') || {}).outerHTML || '')"): break
            time.sleep(0.5)
        time.sleep(2)
        br.eval("document.querySelector('.jp-Notebook .jp-Cell').click()")
        for _ in range(cells): key(br, 'Enter', 'Enter', 13, modifiers=8); time.sleep(0.5)  # Shift+Enter
        t1 = time.time()
        while time.time() - t1 < timeout and '*' in br.eval("[...document.querySelectorAll('.jp-InputPrompt')].map(p => p.textContent).join('')"):
            time.sleep(0.5)
        info['outputs_shown'] = br.eval("document.querySelectorAll('.jp-OutputArea-output').length")
        mtime = (work / 'nbs' / nb_name).stat().st_mtime
        key(br, 's', 'KeyS', 83, modifiers=2)  # Ctrl+S
        t2 = time.time()
        while time.time() - t2 < 30 and (work / 'nbs' / nb_name).stat().st_mtime == mtime: time.sleep(0.3)
        info['saved'] = (work / 'nbs' / nb_name).stat().st_mtime != mtime
        time.sleep(1)
        after = (work / 'nbs' / nb_name).read_bytes()
        info['home_written'] = sorted(str(p.relative_to(work / 'home')) for p in (work / 'home').rglob('*config*'))
    finally:
        if br: br.close()
        lab.terminate()
        try: lab.wait(15)
        except subprocess.TimeoutExpired: lab.kill()
        shutil.rmtree(work, ignore_errors=True)
    return before, after, info
