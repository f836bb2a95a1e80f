"""`make docs`: execute every notebook's default path, then render the site into _docs/.
With Quarto on PATH this is nbdev_docs over the executed notebooks; without it, an HTML preview of every
executed notebook with an index page, chapter navigation and the reproduction table."""
import os, re, sys, json, html, shutil, subprocess, time
from pathlib import Path
from concurrent.futures import ProcessPoolExecutor
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))
from nbexec import execute_into  # a module-level function: IPython replaces __main__ in the workers
BUILD, DOCS, NBS = ROOT / '_build', ROOT / '_docs', ROOT / 'nbs'
QUARTO_HINT = ("Quarto is not on PATH, so this is the HTML preview. For the full site install Quarto "
               "(https://quarto.org/docs/get-started/, e.g. the .deb or tarball for your OS) and run `make docs` again.")


def execute_all(workers=2):
    nbs = sorted(p for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.')))
    shutil.rmtree(BUILD, ignore_errors=True); (BUILD / 'nbs').mkdir(parents=True)
    failed = []
    os.environ['TRUSTNB_REPRO_LOG'] = str(BUILD / 'repro.jsonl')
    os.environ.setdefault('OMP_NUM_THREADS', '1')  # one thread per worker: oversubscribed OpenMP threads crawl
    with ProcessPoolExecutor(workers) as ex:
        for name, ok, secs, err in ex.map(execute_into, nbs, [BUILD / 'nbs'] * len(nbs)):
            print(f'{"ok  " if ok else "FAIL"} {secs:6.1f} s  {name}', flush=True)
            if not ok: failed.append((name, err))
    for name, err in failed: print(f'\n--- {name} failed ---\n{err}')
    return nbs, failed

def page_name(nb_name): return re.sub(r'^\d+[a-zA-Z0-9]*_', '', Path(nb_name).stem.lower()) + '.html'

def sidebar():
    "[(section, [(title, notebook file)])] from nbs/sidebar.yml (hand-written, grouped by chapter)."
    import yaml
    items = yaml.safe_load((NBS / 'sidebar.yml').read_text())['website']['sidebar']['contents']
    out = [('', [('Home', 'index.ipynb')])]
    for it in items:
        if isinstance(it, dict) and 'section' in it:
            out.append((it['section'], [(e['text'], e['href']) for e in it['contents']]))
    out.append(('', [('Reproductions', 'repro_table')]))
    return out

def nav_html(current):
    parts = ['<nav class="tnb-nav"><div class="tnb-brand"><a href="index.html">trustnb</a></div>']
    for sec, entries in sidebar():
        if sec: parts.append(f'<div class="tnb-sec">{html.escape(sec)}</div>')
        for title, href in entries:
            page = 'repro_table.html' if href == 'repro_table' else page_name(href)
            cls = ' class="cur"' if page == current else ''
            parts.append(f'<a{cls} href="{page}">{html.escape(title)}</a>')
    return '\n'.join(parts) + '</nav>'

CSS = """<style>.tnb-nav{position:fixed;top:0;left:0;bottom:0;width:230px;overflow:auto;background:#f6f7f9;border-right:1px solid #ddd;
padding:12px;font:14px system-ui,sans-serif;z-index:10}.tnb-nav a{display:block;padding:2px 6px;color:#234;text-decoration:none}
.tnb-nav a.cur{background:#dde7f3;border-radius:4px}.tnb-sec{margin-top:10px;font-weight:600;color:#555}
.tnb-brand a{font-size:18px;font-weight:700}.jp-InputPrompt,.jp-OutputPrompt{display:none!important}body{margin-left:250px!important}
.tnb-banner{background:#fff8e1;border:1px solid #f0d98a;padding:6px 10px;margin:8px 0;font:13px system-ui}</style>"""

def strip_directives(nb):
    "Drop `#| hide` cells and the export-only noise; remove directive lines from shown code (like nbdev's docs)."
    import yaml
    keep = []
    for c in nb.cells:
        src = c.source
        if c.cell_type == 'raw' and src.lstrip().startswith('---'):  # nbdev's frontmatter: back to a title
            fm = yaml.safe_load(src.strip().strip('-')) or {}
            c.cell_type, c.source = 'markdown', f"# {fm.get('title', '')}" + (f"\n\n> {fm['description']}" if fm.get('description') else '')
            keep.append(c); continue
        if re.search(r'^\s*#\s*\|\s*hide\b', src, re.M) or 'nbdev_export' + '(' in src: continue
        if re.search(r'^\s*#\s*\|\s*default_exp\b', src, re.M): continue
        if c.cell_type == 'code': c.source = re.sub(r'^\s*#\s*\|.*\n?', '', src, flags=re.M)
        keep.append(c)
    nb.cells = keep
    return nb

def repro_rows():
    log = BUILD / 'repro.jsonl'
    rows = {}
    if log.exists():
        for line in log.read_text().splitlines():
            r = json.loads(line); rows[r['key']] = r  # last run of each claim wins
    from trustnb import repro  # only claims the library registers (notebooks may demo throwaway ones)
    repro.discover()
    return [rows[k] for k in sorted(rows) if k in repro.REGISTRY]

def repro_html(rows):
    head = ('<h1>Reproductions</h1><p>Each method registers its paper\'s headline claim with the reproduction registry '
            '(<code>trustnb.repro</code>). These numbers were measured while this site was built, by the notebooks\' '
            'default paths. Rerun them from a plain install with <code>python -m trustnb.repro</code>.</p>')
    if not rows: return head + '<p>No claims were run.</p>'
    cols = ['key', 'paper', 'claim', 'metric', 'baseline', 'method_value', 'baseline_value', 'holds', 'seconds']
    fmt = lambda v: f'{v:.4g}' if isinstance(v, float) else html.escape(str(v))
    trs = ''.join('<tr>' + ''.join(f'<td>{fmt(r[c])}</td>' for c in cols) + '</tr>' for r in rows)
    return head + '<table class="dataframe"><tr>' + ''.join(f'<th>{c}</th>' for c in cols) + f'</tr>{trs}</table>'

def preview(nbs):
    "HTML preview without Quarto: nbconvert each executed notebook, add navigation."
    from nbconvert import HTMLExporter
    from execnb.nbio import read_nb
    import nbformat
    shutil.rmtree(DOCS, ignore_errors=True); DOCS.mkdir()
    ex = HTMLExporter(template_name='lab')
    for nb in nbs:
        src = BUILD / 'nbs' / nb.name
        if not src.exists(): continue
        d = strip_directives(read_nb(src))
        body, _ = ex.from_notebook_node(nbformat.reads(json.dumps(d), as_version=4))
        page = page_name(nb.name)
        body = body.replace('<body', '<body', 1)
        body = re.sub(r'(<body[^>]*>)', lambda m: m.group(1) + CSS + nav_html(page) +
                      f'<div class="tnb-banner">HTML preview (no Quarto). {html.escape(QUARTO_HINT)}</div>', body, count=1)
        (DOCS / page).write_text(body, encoding='utf-8')
    page = ('<!doctype html><html><head><meta charset="utf-8"><title>trustnb — reproductions</title>'
            '<style>body{font:14px system-ui,sans-serif;padding:16px}table{border-collapse:collapse}'
            'td,th{border:1px solid #ccc;padding:4px 6px;vertical-align:top}</style></head><body>'
            + CSS + nav_html('repro_table.html') + repro_html(repro_rows()) + '</body></html>')
    (DOCS / 'repro_table.html').write_text(page, encoding='utf-8')

def quarto_site():
    "Full site: nbdev_docs over a copy of the project whose notebooks carry the executed outputs."
    site = BUILD / 'site'
    shutil.copytree(NBS, site / 'nbs', symlinks=False)
    for f in BUILD.glob('nbs/*.ipynb'): shutil.copy(f, site / 'nbs' / f.name)
    for f in ['settings.ini', 'setup.py', 'README.md', '_quarto.yml']: shutil.copy(ROOT / f, site / f)
    shutil.copytree(ROOT / 'trustnb', site / 'trustnb')
    (site / 'nbs' / 'repro_table.qmd').write_text('---\ntitle: Reproductions\n---\n\n```{=html}\n' + repro_html(repro_rows()) + '\n```\n')
    subprocess.run([str(Path(sys.executable).parent / 'nbdev_docs')], cwd=site, check=True)
    shutil.rmtree(DOCS, ignore_errors=True); shutil.copytree(site / '_docs', DOCS)

if __name__ == '__main__':
    t0 = time.time()
    if '--render-only' in sys.argv and (BUILD / 'nbs').exists():  # re-render the last executed notebooks
        nbs, failed = sorted(p for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.'))), []
    else: nbs, failed = execute_all()
    if shutil.which('quarto'): quarto_site()
    else: preview(nbs); print('\n' + QUARTO_HINT)
    print(f'\ndocs built in {time.time() - t0:.0f} s; {len(failed)} notebook(s) failed' + (': ' + ', '.join(n for n, _ in failed) if failed else ''))
    print(f'Open: {DOCS / "index.html"}')
    sys.exit(1 if failed else 0)
