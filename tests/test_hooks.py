"""Contributors' saves stay clean: after `make hooks` (nbdev_install_hooks), saving a run notebook through a Jupyter
server (what JupyterLab's save does) leaves `git status` clean. Runs in a throwaway git repo and HOME."""
import configparser, json, os, shutil, socket, subprocess, sys, time, urllib.request
from pathlib import Path
import pytest
ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent

def _port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

def _git(*a, cwd):
    return subprocess.run(['git', '-c', 'user.name=t', '-c', 'user.email=t@t', *a], cwd=cwd, check=True, capture_output=True, text=True).stdout

def test_settings_enable_jupyter_hooks():
    cfg = configparser.ConfigParser(delimiters=['=']); cfg.read(ROOT / 'settings.ini')
    assert cfg['DEFAULT'].getboolean('jupyter_hooks'), \
        'settings.ini needs `jupyter_hooks = True`: nbdev.clean.clean_jupyter (the save hook) does nothing otherwise'

@pytest.mark.timeout(300)
def test_save_in_jupyter_leaves_git_clean(tmp_path):
    repo, home = tmp_path / 'repo', tmp_path / 'home'
    home.mkdir(); (repo / 'nbs').mkdir(parents=True)
    for f in ['settings.ini', '.gitignore', '.gitattributes', '.gitconfig']:
        if (ROOT / f).exists(): shutil.copy(ROOT / f, repo / f)
    shutil.copy(ROOT / 'nbs' / '04_viz.ipynb', repo / 'nbs' / '04_viz.ipynb')
    _git('init', '-q', cwd=repo); _git('add', '.', cwd=repo); _git('commit', '-q', '-m', 'clean', cwd=repo)
    env = {k: v for k, v in os.environ.items() if not k.startswith('JUPYTER_')} | {'HOME': str(home), 'PATH': f"{BIN}{os.pathsep}{os.environ['PATH']}"}
    # what `make hooks` runs
    subprocess.run([BIN / 'nbdev_install_hooks'], cwd=repo, env=env, check=True, capture_output=True)
    assert 'pre_save_hook' in (home / '.jupyter' / 'jupyter_server_config.py').read_text()
    assert not _git('status', '--porcelain', cwd=repo), 'the committed .gitattributes/.gitconfig are what nbdev_install_hooks writes'
    port, token = _port(), 'trustnb-test'
    srv = subprocess.Popen([BIN / 'jupyter', 'server', '--no-browser', f'--port={port}', f'--IdentityProvider.token={token}',
                            f'--ServerApp.root_dir={repo}', '--allow-root'], cwd=repo, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        url = f'http://127.0.0.1:{port}/api/contents/nbs/04_viz.ipynb'
        hdr = {'Authorization': f'token {token}', 'Content-Type': 'application/json'}
        for _ in range(120):
            try: model = json.load(urllib.request.urlopen(urllib.request.Request(url, headers=hdr))); break
            except OSError:
                if srv.poll() is not None: break
                time.sleep(0.5)
        else: pytest.fail('jupyter server did not start: ' + srv.stderr.read1().decode())
        nb = model['content']
        # what a JupyterLab session leaves in a notebook: outputs, counts, cell metadata, kernel and language info
        for i, c in enumerate(nb['cells']):
            if c['cell_type'] == 'code':
                c['execution_count'] = i + 1; c['metadata'] = {'scrolled': True, 'execution': {'iopub.status.idle': '2026-01-01T00:00:00Z'}}
                c['outputs'] = [{'output_type': 'stream', 'name': 'stdout', 'text': 'ran\n'}]
        nb['metadata'] = {'kernelspec': {'display_name': 'Python 3 (ipykernel)', 'language': 'python', 'name': 'python3'},
                          'language_info': {'name': 'python', 'version': '3.11.2'}}
        before = (repo / 'nbs' / '04_viz.ipynb').stat().st_mtime_ns
        body = json.dumps({'type': 'notebook', 'format': 'json', 'content': nb}).encode()
        urllib.request.urlopen(urllib.request.Request(url, data=body, headers=hdr, method='PUT')).read()
        assert (repo / 'nbs' / '04_viz.ipynb').stat().st_mtime_ns != before, 'the save did not happen'
        assert not _git('status', '--porcelain', cwd=repo), _git('diff', '--stat', cwd=repo)
    finally:
        srv.terminate(); srv.wait(10)
