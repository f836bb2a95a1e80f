"""Print a pytest `-k` expression selecting the notebooks that have `#| gpu` cells (for `make test-gpu`)."""
import json, sys
from pathlib import Path
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from trustnb.core import cell_flags

def gpu_notebooks():
    out = []
    for p in sorted((ROOT / 'nbs').glob('*.ipynb')):
        cells = json.loads(p.read_text())['cells']
        if any(c['cell_type'] == 'code' and 'gpu' in cell_flags(''.join(c['source'])) for c in cells): out.append(p.name)
    return out

if __name__ == '__main__':
    names = gpu_notebooks()
    print(' or '.join(f'test_notebook and {n}' for n in names) if names else 'no_gpu_notebooks')
