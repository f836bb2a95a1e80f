"The committed tree is what the tools produce: clean notebooks, exported library, README, one _quarto.yml, sidebar."
import filecmp, shutil, subprocess, sys, json, re
from pathlib import Path
import pytest
ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
NBS = sorted(p for p in (ROOT / 'nbs').glob('*.ipynb') if not p.name.startswith(('_', '.')))

def _copy_project(tmp):
    for f in ['settings.ini', 'setup.py', 'README.md', '_quarto.yml']: shutil.copy(ROOT / f, tmp / f)
    shutil.copytree(ROOT / 'nbs', tmp / 'nbs', symlinks=True); shutil.copytree(ROOT / 'trustnb', tmp / 'trustnb')

def _diff(a, b):
    c = filecmp.dircmp(a, b, ignore=['__pycache__'])
    out = [str(Path(a) / f) for f in c.diff_files + c.left_only + c.right_only]
    for sub in c.common_dirs: out += _diff(Path(a) / sub, Path(b) / sub)
    return out

def test_notebooks_are_clean(tmp_path):
    _copy_project(tmp_path)
    subprocess.run([BIN / 'nbdev_clean'], cwd=tmp_path, check=True)
    changed = [p.name for p in NBS if (tmp_path / 'nbs' / p.name).read_bytes() != p.read_bytes()]
    assert not changed, f'run nbdev_clean and commit: {changed}'

def test_export_in_sync(tmp_path):
    _copy_project(tmp_path)
    subprocess.run([BIN / 'nbdev_export'], cwd=tmp_path, check=True)
    diff = _diff(ROOT / 'trustnb', tmp_path / 'trustnb')
    assert not diff, f'trustnb/ is not what nbdev_export makes from nbs/ (never edit trustnb/ by hand): {diff}'

def test_readme_from_index():
    r = subprocess.run([sys.executable, ROOT / 'tools' / 'readme.py', '--check'], capture_output=True, text=True)
    assert r.returncode == 0, r.stdout

def test_readme_quick_start_is_two_commands():
    text = (ROOT / 'README.md').read_text()
    block = text.split('## Quick start')[1].split('```sh')[1].split('```')[0]
    cmds = [l.split('#')[0].strip() for l in block.strip().splitlines()]
    assert cmds == ["make docs", "make test", "make lab"]

def test_one_quarto_yml():
    link = ROOT / 'nbs' / '_quarto.yml'
    assert link.is_symlink() and link.resolve() == (ROOT / '_quarto.yml').resolve()

def test_sidebar_lists_every_notebook():
    import yaml
    side = yaml.safe_load((ROOT / 'nbs' / 'sidebar.yml').read_text())['website']['sidebar']['contents']
    hrefs = {e if isinstance(e, str) else None for e in side} | {x['href'] for e in side if isinstance(e, dict) for x in e.get('contents', [])}
    missing = [p.name for p in NBS if p.name not in hrefs]
    assert not missing, f'add to nbs/sidebar.yml: {missing}'
    assert all((ROOT / 'nbs' / h).exists() for h in hrefs if h), 'sidebar.yml names a notebook that does not exist'

def test_notebooks_open_with_title_and_end_with_export():
    for p in NBS:
        if p.name == 'index.ipynb': continue
        cells = json.loads(p.read_text())['cells']
        first = ''.join(cells[0]['source'])
        assert cells[0]['cell_type'] == 'markdown' and first.startswith('# ') and '\n> ' in first, f'{p.name}: title + subtitle'
        # nbdev turns the title cell into frontmatter and drops the rest of it: prose belongs in the next cell
        extra = [l for l in first.splitlines()[1:] if l.strip() and not l.startswith('> ') and not re.match(r'^- [\w-]+: ', l)]
        assert not extra, f'{p.name}: the title cell holds only title, subtitle and frontmatter items; move {extra[:1]} to the next cell'
        assert 'nbdev_export()' in ''.join(cells[-1]['source']), f'{p.name}: last cell must export'
