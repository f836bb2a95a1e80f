"""Every notebook's default path, one test per notebook, with its `#| gpu` cells forced on at the scale preset
`TRUSTNB_SCALE` (default 'tiny': the paper-scale GPU code runs on CPU at toy sizes, so it is never dead code).
`make test-gpu` runs the same cells at 'paper' scale on a CUDA machine. Extra flags: `NB_FLAGS="slow"`."""
import json, os, pytest
from pathlib import Path
from nbdev.config import get_config
from nbdev import test as nbt  # not `from nbdev.test import test_nb`: pytest would collect it
ROOT = Path(__file__).resolve().parents[1]
NBS = sorted(p for p in (ROOT / 'nbs').glob('*.ipynb') if not p.name.startswith(('_', '.')))
# notebooks with a heavy kernel (issue 15 §5): each has a `#| gpu` cell with the paper-scale version
HEAVY = ['10_sae.core', '12_sae.universal', '13_sae.jacobian', '42_privacy.balanced_subsampling',
         '50_unlearn.certified', '72_monitor.influence']

def gpu_cells(nb):
    from trustnb.core import cell_flags
    return [''.join(c['source']) for c in json.loads(Path(nb).read_text())['cells']
            if c['cell_type'] == 'code' and 'gpu' in cell_flags(''.join(c['source']))]

@pytest.mark.timeout(int(os.environ.get('NB_TIMEOUT', 600)))
@pytest.mark.parametrize('nb', NBS, ids=[p.name for p in NBS])
def test_notebook(nb, monkeypatch):
    cfg = get_config(path=ROOT)
    monkeypatch.setenv('TRUSTNB_SCALE', os.environ.get('TRUSTNB_SCALE', 'tiny'))
    force = ['gpu'] + os.environ.get('NB_FLAGS', '').split()
    # Each notebook ends with `nbdev.nbdev_export()`, which rewrites every module of trustnb/; under pytest-xdist another
    # worker may be reading those files meanwhile (tests/test_repro_registry.py hashes them). The tree is already what
    # the notebooks export (tests/test_sync.py::test_export_in_sync), so the notebooks' own export is a no-op here.
    import nbdev
    monkeypatch.setattr(nbdev, 'nbdev_export', lambda *a, **k: None)
    ok, secs = nbt.test_nb(nb, skip_flags=cfg.tst_flags.split(), force_flags=force, basepath=cfg.config_path)
    assert ok, f'{nb.name} failed (traceback above)'

@pytest.mark.parametrize('name', HEAVY)
def test_heavy_notebook_has_a_gpu_cell(name):
    nb = ROOT / 'nbs' / f'{name}.ipynb'
    cells = gpu_cells(nb)
    assert cells, f'{nb.name}: add a `#| gpu` cell with the paper-scale version (sizes from trustnb.core.scale)'
    assert any('scale(' in s for s in cells), f'{nb.name}: `#| gpu` cells take their sizes from trustnb.core.scale(tiny=..., paper=...)'
