"Every notebook's default path (cells flagged with `tst_flags` are skipped), one test per notebook."
import os, pytest
from pathlib import Path
from nbdev.config import get_config
from nbdev import test as nbt  # not `from nbdev.test import test_nb`: pytest would collect it
ROOT = Path(__file__).resolve().parents[1]
NBS = sorted(p for p in (ROOT / 'nbs').glob('*.ipynb') if not p.name.startswith(('_', '.')))

@pytest.mark.timeout(600)
@pytest.mark.parametrize('nb', NBS, ids=[p.name for p in NBS])
def test_notebook(nb):
    cfg = get_config(path=ROOT)
    ok, secs = nbt.test_nb(nb, skip_flags=cfg.tst_flags.split(), force_flags=os.environ.get('NB_FLAGS', '').split(),
                           basepath=cfg.config_path)
    assert ok, f'{nb.name} failed (traceback above)'
