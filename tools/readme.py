"""README.md is generated from nbs/index.ipynb (nbdev_readme needs Quarto; this does the same offline).
`python tools/readme.py` writes it; `python tools/readme.py --check` exits 1 if README.md is out of date."""
import json, re, sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
HEADER = '<!-- Generated from nbs/index.ipynb by tools/readme.py (make readme). Do not edit by hand. -->\n\n'

def render(nb_path=ROOT / 'nbs' / 'index.ipynb') -> str:
    nb = json.loads(Path(nb_path).read_text(encoding='utf-8'))
    parts = []
    for c in nb['cells']:
        src = ''.join(c['source']).strip('\n')
        if c['cell_type'] == 'markdown': parts.append(src)
        elif c['cell_type'] == 'code' and not re.match(r'^\s*#\s*\|\s*(hide|export)', src):
            src = re.sub(r'\A(?:\s*#\s*\|[^\n]*\n)+', '', src)  # directives (`#| exec_doc`) are not code to copy
            parts.append('```python\n' + src + '\n```')
    return HEADER + '\n\n'.join(parts) + '\n'

if __name__ == '__main__':
    text, readme = render(), ROOT / 'README.md'
    if '--check' in sys.argv:
        ok = readme.exists() and readme.read_text(encoding='utf-8') == text
        print('README.md is up to date' if ok else 'README.md differs from nbs/index.ipynb: run `make readme`')
        sys.exit(0 if ok else 1)
    readme.write_text(text, encoding='utf-8'); print('wrote README.md')
