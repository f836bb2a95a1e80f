"""`make docs`: execute every notebook's default path, then render the site into _docs/.

1. Execute (tools/nbexec.py) and process each notebook with nbdev's docs processors (what `nbdev_docs` runs before
   Quarto: show_doc signatures with docments tables, export source hidden, doc links). Both are cached under
   _build/cache/, keyed by a hash of the notebook, the library source and the installed package versions (Quarto's
   `freeze` idea): an unchanged notebook is not executed again. `--fresh` (`make docs FRESH=1`) runs them all.
2. With Quarto on PATH: `nbdev_docs` over the executed notebooks. Without it: an HTML preview rendered from the
   same processed notebooks, so the two differ only in styling; one sidebar source (nbs/sidebar.yml), equations
   typeset by a KaTeX fetched from the npm registry over HTTPS (no npm needed; checked before any notebook runs) and
   copied into the site (pages work offline), and a client-side search over page titles, headings and exported names.
"""
import os, re, sys, json, html, shutil, subprocess, time, hashlib, importlib.metadata
from pathlib import Path
from concurrent.futures import ProcessPoolExecutor
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools')); sys.path.insert(1, str(ROOT))  # this checkout's trustnb (repro table, search)
from nbexec import build_one  # a module-level function: IPython replaces __main__ in the workers
BUILD, DOCS, NBS = ROOT / '_build', ROOT / '_docs', ROOT / 'nbs'
CACHE, WORK = BUILD / 'cache', BUILD / 'work'
KATEX = '0.16.47'  # pinned: the vendored math renderer (npm package `katex`)
QUARTO_HINT = ("Quarto is not on PATH, so this is the HTML preview. For the full site install Quarto "
               "(https://quarto.org/docs/get-started/, e.g. the .deb or tarball for your OS) and run `make docs` again.")

def notebooks(): return sorted(p for p in NBS.glob('*.ipynb') if not p.name.startswith(('_', '.')))

# ---------------------------------------------------------------- 1. execute and process, with a cache
def env_hash():
    "Hash of what every notebook's run depends on besides itself: library source, the installed versions of its dependencies, the runner."
    h = hashlib.sha256()
    for p in sorted((ROOT / 'trustnb').rglob('*.py')):
        if '__pycache__' not in p.parts: h.update(str(p.relative_to(ROOT)).encode() + b'\0' + p.read_bytes())
    h.update('\n'.join(dep_versions()).encode())
    for f in ['tools/nbexec.py']: h.update((ROOT / f).read_bytes())
    from nbdev.config import get_config
    h.update((get_config(path=ROOT).tst_flags + sys.version).encode())
    return h.hexdigest()

def dep_versions(root='trustnb'):
    "name==version of every installed package trustnb can reach through its requirements (all extras, transitively)."
    from packaging.requirements import Requirement
    from packaging.utils import canonicalize_name
    seen, todo = {}, [root]
    while todo:
        n = canonicalize_name(todo.pop())
        if n in seen: continue
        try: d = importlib.metadata.distribution(n)
        except importlib.metadata.PackageNotFoundError: seen[n] = None; continue
        seen[n] = d.version
        for r in d.requires or []:
            try: todo.append(Requirement(r).name)
            except Exception: pass
    return sorted(f'{k}=={v}' for k, v in seen.items() if v)

def nb_key(nb, env): return hashlib.sha256(Path(nb).read_bytes() + env.encode()).hexdigest()[:16]

def _fmt_t(secs):
    secs = int(round(secs)); return f'{secs // 60}m{secs % 60:02d}s' if secs >= 60 else f'{secs}s'

def execute_all(nbs, fresh=False, workers=2, run=None):
    """Executed and processed notebooks into _build/nbs and _build/proc (from the cache where possible), printing
    `[k/n] notebook  status  seconds; elapsed, estimated remaining` as each finishes.
    `run`: names of the notebooks to execute (default all); the others are processed without executing (quick checks)."""
    global CACHE
    if run is not None: CACHE = CACHE / 'partial'  # never mixed with full runs
    env = env_hash()
    keys = {nb.name: nb_key(nb, env) + ('' if run is None or nb.name in run else 'n') for nb in nbs}
    shutil.rmtree(WORK, ignore_errors=True)
    for d in ('nbs', 'proc'): shutil.rmtree(BUILD / d, ignore_errors=True); (BUILD / d).mkdir(parents=True)
    CACHE.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault('OMP_NUM_THREADS', '1')  # one thread per worker: oversubscribed OpenMP threads crawl
    failed, n_ran = [], 0
    todo = [nb for nb in nbs if fresh or not all((CACHE / f'{nb.stem}-{keys[nb.name]}{s}').exists() for s in ('.ipynb', '.proc.ipynb'))]
    print(f'{len(nbs) - len(todo)} of {len(nbs)} notebooks unchanged (cached in {os.path.relpath(CACHE, ROOT)}); executing {len(todo)}'
          + (' (FRESH)' if fresh else '') + (f' with {min(workers, len(todo))} workers' if todo else ''), flush=True)
    # the estimate of what is left: each notebook's time in the last build (where known), else the mean so far
    tfile = BUILD / 'timings.json'
    last = json.loads(tfile.read_text()) if tfile.exists() else {}
    if todo:
        from concurrent.futures import as_completed
        t0, times = time.time(), dict(last)
        todo.sort(key=lambda nb: -last.get(nb.name, 60))  # longest first: the pool finishes together
        with ProcessPoolExecutor(min(workers, len(todo))) as ex:
            futs = {ex.submit(build_one, nb, keys[nb.name], CACHE, WORK, fresh, run is None or nb.name in run): nb for nb in todo}
            for f in as_completed(futs):
                name, status, secs, err = f.result()
                n_ran += 1; times[name] = round(secs, 1)
                left = [nb.name for nb in todo if nb.name not in {futs[g].name for g in futs if g.done()}]
                mean = (time.time() - t0) * min(workers, len(todo)) / n_ran
                eta = sum(last.get(n, mean) for n in left) / min(workers, len(todo))
                print(f'[{n_ran}/{len(todo)}] {name:44s} {"ok  " if status != "FAIL" else "FAIL"} {secs:6.1f} s; '
                      f'elapsed {_fmt_t(time.time() - t0)}, ~{_fmt_t(eta)} remaining', flush=True)
                if status == 'FAIL': failed.append((name, err))
        tfile.write_text(json.dumps(times, indent=1))
    for nb in nbs:
        stem, key = nb.stem, keys[nb.name]
        exe, proc = CACHE / f'{stem}-{key}.ipynb', CACHE / f'{stem}-{key}.proc.ipynb'
        if not exe.exists(): exe, proc = WORK / 'exec' / nb.name, WORK / 'proc' / nb.name  # a failed run: show what it got
        if exe.exists(): shutil.copy(exe, BUILD / 'nbs' / nb.name)
        if proc.exists(): shutil.copy(proc, BUILD / 'proc' / nb.name)
    fails = dict(failed)
    for nb in nbs:
        for d in ('nbs', 'proc'):
            if (BUILD / d / nb.name).exists(): annotate(BUILD / d / nb.name, fails.get(nb.name))
    for name, err in failed: print(f'\n--- {name} failed ---\n{err}')
    (BUILD / 'failed.json').write_text(json.dumps(dict(failed), indent=1))
    (BUILD / 'keys.json').write_text(json.dumps(keys, indent=1))
    return failed, n_ran

GPU_NOTE = ('<div class="tnb-skipped"><b>GPU path untested.</b> The <code>#| gpu</code> cells of this page have not run on a GPU: '
            'none was available to the developers. In CI they run on CPU at tiny scale (<code>TRUSTNB_SCALE=tiny</code>), so the '
            'code is exercised, but paper-scale times and results on CUDA are not measured. <code>make test-gpu</code> runs them.</div>')

def annotate(path, error=None):
    "Insert the page's notes after its title cell: a failed build (short banner, traceback folded) and an untested GPU path."
    nb = json.loads(Path(path).read_text()); notes = []
    if error:
        last = [l for l in _ANSI.sub('', error).strip().splitlines() if l.strip()][-1:] or ['']
        notes.append(f'<div class="tnb-failed"><b>This page did not build cleanly</b>: <code>{html.escape(last[0][:300])}</code>. '
                     'The outputs below stop where the run stopped; <code>make docs</code> runs this notebook again next time.'
                     f'<details><summary>traceback</summary><pre>{html.escape(_ANSI.sub("", error)[-6000:])}</pre></details></div>')
    if any(c['cell_type'] == 'code' and re.search(r'^\s*#\|\s*gpu\b', ''.join(c['source']), re.M) for c in nb['cells']):
        notes.append(GPU_NOTE)
    if not notes: return
    at = next((i + 1 for i, c in enumerate(nb['cells']) if c['cell_type'] in ('markdown', 'raw')), 0)
    nb['cells'][at:at] = [{'cell_type': 'markdown', 'id': f'tnbnote{i}', 'metadata': {}, 'source': [n]} for i, n in enumerate(notes)]
    Path(path).write_text(json.dumps(nb, indent=1))

def repro_rows():
    "The last logged page-seed run (not a control) of each claim the library registers, from the cached runs of the current notebooks."
    keys = json.loads((BUILD / 'keys.json').read_text()) if (BUILD / 'keys.json').exists() else {}
    rows = {}
    for name, key in sorted(keys.items()):
        log = CACHE / f'{Path(name).stem}-{key}.repro.jsonl'
        if log.exists():
            for line in log.read_text().splitlines():
                r = json.loads(line)
                if not r.get('control'): rows[r['key']] = r
    return rows

def claim_pages():
    "{module: (page file, sidebar title)} from each notebook's `#| default_exp` and nbs/sidebar.yml."
    titles = {href: t for _, entries in sidebar() for t, href in entries}
    out = {}
    for nb in notebooks():
        m = re.search(r'#\|\s*default_exp\s+([\w.]+)', nb.read_text())
        if m: out['trustnb.' + m.group(1)] = (page_name(nb.name), titles.get(nb.name, nb.stem))
    return out

BADGE = {'holds': '#2e7d32', 'fragile': '#b26a00', 'does not reproduce': '#b71c1c'}

def _ratio_figure(items):
    "PNG (base64) of each claim's page-seed method/baseline ratio, oriented so right = method better, coloured by verdict."
    import base64, io, math
    import matplotlib; matplotlib.use('Agg'); import matplotlib.pyplot as plt
    pts = [(k, (1 if d == 'higher' else -1) * math.log10(m / b), v) for k, m, b, d, v in items
           if d and m is not None and b is not None and m > 0 and b > 0]
    if not pts: return '', 0
    pts.sort(key=lambda t: t[1])
    fig, ax = plt.subplots(figsize=(7, 0.19 * len(pts) + 1.1))
    ax.barh(range(len(pts)), [x for _, x, _ in pts], color=[BADGE.get(v, '#777') for _, _, v in pts])
    ax.set_yticks(range(len(pts)), [k for k, _, _ in pts], fontsize=7); ax.axvline(0, color='k', lw=0.8)
    ax.set_xlabel('log10(method / baseline), sign set so that right = method better (page seed)')
    ax.set_title('Method vs baseline per claim (colour: verdict of the draws)', fontsize=10); fig.tight_layout()
    buf = io.BytesIO(); fig.savefig(buf, format='png', dpi=110); plt.close(fig)
    return base64.b64encode(buf.getvalue()).decode(), len(pts)

def repro_html(rows):
    "The Reproductions page: verdicts of the draws (summary, figure, one compact row per claim), page-seed numbers beside them."
    import trustnb.repro as R
    R.discover(); stored = R.load_verdicts(ROOT / 'trustnb' / 'verdicts.json'); pages = claim_pages()
    fmt = lambda v: '–' if v is None else f'{v:.3g}'
    items, trs, counts = [], [], {}
    for k, c in sorted(R.REGISTRY.items()):
        v = stored.get(k); r = rows.get(k, {})
        state = 'missing' if v is None else 'stale' if v['source_hash'] != R.source_hash(k) else 'current'
        verdict = v['verdict'] if v else 'no verdict'
        counts[verdict] = counts.get(verdict, 0) + 1; counts[state] = counts.get(state, 0) + 1
        d = R._direction(c.metric); arrow = {'lower': ' ↓', 'higher': ' ↑'}.get(d, '')
        m, b = r.get('method_value'), r.get('baseline_value')
        items.append((k, m, b, d, verdict))
        page, title = pages.get(c.module, ('', k))
        badge = (f'<span class="tnb-badge" style="background:{BADGE.get(verdict, "#777")}">{html.escape(verdict)}</span> '
                 + (f'{v["n_holds"]}/{len(v["seeds"])} <small>[{v["ci"][0]:.2f}, {v["ci"][1]:.2f}]</small>' if v else ''))
        ctl = '–' if not v else ('fails ✓' if v['control_fails'] else f'<b>passes {sum(v["control_holds"])}/{len(v["seeds"])}</b>')
        if state != 'current': badge += f' <span class="tnb-stale">{state}</span>'
        seed = r.get('seed')
        detail = (f'<details><summary>claim</summary><p>{html.escape(c.claim)}</p><p><b>Paper</b>: {html.escape(c.paper)}</p>'
                  f'<p><b>Metric</b>: {html.escape(c.metric)}</p><p><b>Baseline</b>: {html.escape(c.baseline)}</p>'
                  f'<p><b>Negative control</b>: {html.escape(c.control or "none registered")}</p>'
                  + (f'<p><b>Drawn seeds</b>: {v["seeds"]} ({v["date"]}, torch {v["env"].get("torch", "?")})</p>' if v else '') + '</details>')
        trs.append(f'<tr><td><a href="{page}">{html.escape(title)}</a><br><small><code>{k}</code></small></td><td>{badge}</td><td>{ctl}</td>'
                   f'<td>{fmt(m)} vs {fmt(b)}{arrow}<br><small>seed {seed if seed is not None else "–"}, '
                   f'{"holds" if r.get("holds") else "does not hold" if r else "not run"}</small></td><td>{detail}</td></tr>')
    png, n_fig = _ratio_figure(items)
    summary = ' '.join(f'<span class="tnb-badge" style="background:{BADGE.get(x, "#777")}">{html.escape(x)}: {counts[x]}</span>'
                       for x in [*BADGE, 'no verdict'] if counts.get(x))
    stale = counts.get('stale', 0) + counts.get('missing', 0)
    head = ('<h1 id="reproductions">Reproductions</h1><p>Each method registers its paper\'s headline claim, with a negative '
            'control (the same test on a sham without the method\'s mechanism), in the reproduction registry '
            '(<code>trustnb.repro</code>). The <b>verdict</b> comes from running the claim on 5 seeds nobody chose '
            '(<code>make repro</code>): <i>holds</i> on at least 4 of 5, <i>fragile</i> on 1–3, <i>does not reproduce</i> on none, '
            'with a 95% interval on the rate; the control must fail on every draw. The <b>page seed</b> column is the run the '
            'notebook shows. Rerun from a plain install with <code>python -m trustnb.repro --draws 5</code>.</p>'
            f'<p class="tnb-summary">{len(R.REGISTRY)} claims: {summary}'
            + (f' · <span class="tnb-stale">{stale} stale or missing</span>' if stale else ' · every verdict current') + '</p>')
    fig = (f'<p><img alt="method vs baseline per claim" src="data:image/png;base64,{png}"></p>'
           f'<p><small>{n_fig} claims whose metric states its direction and whose values are positive.</small></p>') if png else ''
    table = ('<table class="tnb-repro"><tr><th>method</th><th>verdict (draws)</th><th>control</th><th>page seed: method vs baseline</th>'
             '<th>claim</th></tr>' + ''.join(trs) + '</table>')
    return head + fig + table

# ---------------------------------------------------------------- 2a. the preview: rendering processed notebooks
def page_name(nb_name): return re.sub(r'^\d+[a-zA-Z0-9]*_', '', Path(nb_name).stem.lower()) + '.html'

def sidebar():
    "[(section, [(title, notebook file)])] from nbs/sidebar.yml (hand-written, grouped by chapter): the one sidebar source."
    import yaml
    items = yaml.safe_load((NBS / 'sidebar.yml').read_text())['website']['sidebar']['contents']
    out = [('', [('Home', 'index.ipynb')])]
    for it in items:
        if isinstance(it, dict) and 'section' in it:
            out.append((it['section'], [(e['text'], e['href']) for e in it['contents']]))
    out.append(('', [('Reproductions', 'repro_table')]))
    return out

def nav_html(current):
    parts = ['<nav class="tnb-nav"><div class="tnb-brand"><a href="index.html">trustnb</a></div>',
             '<input id="tnb-q" type="search" placeholder="Search titles, headings, API" autocomplete="off">'
             '<div id="tnb-res"></div>']
    for sec, entries in sidebar():
        if sec: parts.append(f'<div class="tnb-sec">{html.escape(sec)}</div>')
        for title, href in entries:
            page = 'repro_table.html' if href == 'repro_table' else page_name(href)
            cls = ' class="cur"' if page == current else ''
            parts.append(f'<a{cls} href="{page}">{html.escape(title)}</a>')
    return '\n'.join(parts) + '</nav>'

def site_css():
    from pygments.formatters import HtmlFormatter
    return ("""body{margin:0;font:15px/1.55 system-ui,-apple-system,'Segoe UI',sans-serif;color:#212529}
.tnb-nav{position:fixed;top:0;left:0;bottom:0;width:240px;overflow:auto;background:#f6f7f9;border-right:1px solid #ddd;padding:12px;font-size:14px;box-sizing:border-box}
.tnb-nav a{display:block;padding:2px 6px;color:#234;text-decoration:none}.tnb-nav a.cur{background:#dde7f3;border-radius:4px}
.tnb-sec{margin-top:10px;font-weight:600;color:#555}.tnb-brand a{font-size:19px;font-weight:700;padding:0 6px 6px}
#tnb-q{width:100%;box-sizing:border-box;margin:4px 0;padding:4px 6px;border:1px solid #bbb;border-radius:4px}
#tnb-res a{font-size:13px;border-bottom:1px solid #eee}#tnb-res small{color:#777;display:block}
main{margin-left:260px;max-width:980px;padding:8px 24px 60px}
.tnb-banner{background:#fff8e1;border:1px solid #f0d98a;padding:6px 10px;margin:8px 0;font-size:13px}
.description{font-style:italic;font-size:125%;opacity:.7;margin-top:-8px}
.cell{margin:0 0 1rem}.highlight{background:#f8f8f8;border-radius:4px}.highlight pre{padding:8px 10px;margin:0;overflow:auto;font-size:13px}
.out{margin-left:.8rem;border-left:2px solid lightsalmon;padding-left:8px;overflow:auto}
.out pre{margin:0;font-size:13px;white-space:pre-wrap}.out img{max-width:100%}.err pre{color:#a00}
.tnb-src{float:right;font-size:smaller;margin:12px 0 0}.tnb-failed{background:#fdecea;border:1px solid #f5c2c0;padding:6px 10px;margin:8px 0;font-size:13px}.tnb-failed pre{white-space:pre-wrap;font-size:12px}.tnb-skipped{font-size:13px;color:#555;background:#f4f4f4;padding:4px 8px;border-radius:4px}
table{border-collapse:collapse;margin:.5rem 0}td,th{border:1px solid #ddd;padding:3px 6px;vertical-align:top;font-size:13px}
h1,h2,h3{line-height:1.25}h3{border-top:1px solid #eee;padding-top:10px}.katex-display{overflow-x:auto;overflow-y:hidden}
.anchor-link{margin-left:6px;color:#bbb;text-decoration:none;visibility:hidden}h1:hover .anchor-link,h2:hover .anchor-link,h3:hover .anchor-link,h4:hover .anchor-link{visibility:visible}
""" + HtmlFormatter(style='default').get_style_defs('.highlight') + '\n' + (NBS / 'styles.css').read_text())

SITE_JS = r"""document.addEventListener('DOMContentLoaded', function () {
  var main = document.querySelector('main');
  if (window.renderMathInElement) {
    renderMathInElement(main, {delimiters: [{left: '$$', right: '$$', display: true}, {left: '\\[', right: '\\]', display: true},
      {left: '$', right: '$', display: false}, {left: '\\(', right: '\\)', display: false}],
      ignoredTags: ['script', 'noscript', 'style', 'textarea', 'pre', 'code', 'option'], throwOnError: false});
    document.body.setAttribute('data-math', 'katex');
  } else document.body.setAttribute('data-math', 'missing');
  var q = document.getElementById('tnb-q'), res = document.getElementById('tnb-res'), idx = window.TNB_INDEX || [];
  function esc(s) { return s.replace(/[&<>"]/g, function (c) { return {'&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;'}[c]; }); }
  q.addEventListener('input', function () {
    var t = q.value.trim().toLowerCase(); res.innerHTML = '';
    if (t.length < 2) return;
    var hits = [];
    idx.forEach(function (e) {
      var s = e.t.toLowerCase(), i = s.indexOf(t);
      if (i >= 0) hits.push([(s === t ? 0 : i === 0 ? 1 : 2) * 10 + (e.k === 'page' ? 0 : e.k === 'api' ? 1 : 2), e]);
    });
    hits.sort(function (a, b) { return a[0] - b[0] || a[1].t.length - b[1].t.length; });
    res.innerHTML = hits.slice(0, 25).map(function (h) { var e = h[1];
      return '<a href="' + e.u + '">' + esc(e.t) + '<small>' + esc(e.k + ' · ' + e.p) + '</small></a>'; }).join('')
      || '<small>no match</small>';
  });
});
"""

def _opts(src):
    "Quarto cell options from leading `#| key: value` lines (what Quarto reads after nbdev's processing)."
    opts = {}
    for ln in src.splitlines():
        m = re.match(r'\s*#\|\s*([\w-]+)\s*:\s*(.*)$', ln)
        if m: opts[m.group(1)] = m.group(2).strip().lower()
        elif not re.match(r'\s*#\|', ln): break
    return opts

def _code(src):
    from pygments import highlight
    from pygments.lexers import PythonLexer
    from pygments.formatters import HtmlFormatter
    src = re.sub(r'^\s*#\|.*\n?', '', src, flags=re.M).strip('\n')
    return highlight(src, PythonLexer(), HtmlFormatter(cssclass='highlight')) if src else ''

_ANSI = re.compile(r'\x1b\[[0-9;?]*[A-Za-z]|\r')
def _md(text):
    from nbconvert.filters.markdown_mistune import markdown2html_mistune
    text = re.sub(r'\)\{[^}\n]*\}', ')', text)  # pandoc link attributes ({target="_blank" ...}) that Quarto reads
    out = markdown2html_mistune(text)
    out = re.sub(r'<p>(<a href="[^"]*/blob/[^"]*">source</a>)</p>', r'<p class="tnb-src">\1</p>', out)  # show_doc's source link
    return re.sub(r'href="https://trustnb\.github\.io/trustnb/([\w.\-]+\.html(#[^"]*)?)"', r'href="\1"', out)  # doc links stay local

def _output(o, opts):
    t = o.get('output_type')
    if t == 'stream':
        txt = _ANSI.sub('', ''.join(o.get('text', '')))
        return f'<div class="out"><pre>{html.escape(txt)}</pre></div>' if txt.strip() else ''
    if t == 'error': return f'<div class="out err"><pre>{html.escape(_ANSI.sub("", chr(10).join(o.get("traceback", []))))}</pre></div>'
    d = o.get('data', {})
    j = lambda k: ''.join(d[k]) if isinstance(d[k], list) else d[k]
    if 'text/markdown' in d and opts.get('output') == 'asis': return _md(j('text/markdown'))  # show_doc
    if 'text/html' in d: return f'<div class="out">{j("text/html")}</div>'
    if 'image/png' in d: return f'<div class="out"><img alt="figure" src="data:image/png;base64,{j("image/png").strip()}"></div>'
    if 'image/svg+xml' in d: return f'<div class="out">{j("image/svg+xml")}</div>'
    if 'text/markdown' in d: return f'<div class="out">{_md(j("text/markdown"))}</div>'
    if 'text/latex' in d: return f'<div class="out">{html.escape(j("text/latex"))}</div>'
    if 'text/plain' in d: return f'<div class="out"><pre>{html.escape(_ANSI.sub("", j("text/plain")))}</pre></div>'
    return ''

def _slug(s): return re.sub(r'[^\w.\-]+', '-', re.sub(r'<[^>]+>', '', html.unescape(s)).strip().lower()).strip('-')

def _anchor_headings(body):
    "Give h1-h4 ids (Quarto's: lower-case text) so doc links and search results can point at them."
    seen = set()
    def sub(m):
        tag, attrs, inner = m.groups()
        attrs = re.sub(r'\s*id="[^"]*"', '', attrs)  # mistune's ids keep case; Quarto's (and nbdev's doc links) are lower-case
        inner = re.sub(r'<a class="anchor-link"[^>]*>.*?</a>', '', inner, flags=re.S)
        i = base = _slug(inner) or 'section'; n = 1
        while i in seen: n += 1; i = f'{base}-{n}'
        seen.add(i)
        return f'<{tag}{attrs} id="{i}">{inner}<a class="anchor-link" href="#{i}">¶</a></{tag}>'
    return re.sub(r'<(h[1-4])([^>]*)>(.*?)</\1>', sub, body, flags=re.S)

def render_nb(path):
    "(title, description, body html) of a processed notebook."
    import yaml
    nb = json.loads(Path(path).read_text())
    title, desc, parts = '', '', []
    for c in nb['cells']:
        src = ''.join(c['source'])
        if c['cell_type'] == 'raw':
            if src.lstrip().startswith('---'):
                fm = yaml.safe_load(src.strip().strip('-')) or {}
                title, desc = fm.get('title', title), fm.get('description', desc)
            continue
        if c['cell_type'] == 'markdown':
            if 'AUTOGENERATED! DO NOT EDIT' in src: continue
            if not title and src.startswith('# '):  # index.ipynb: title cell without frontmatter
                lines = src.splitlines(); title = lines[0][2:].strip()
                desc = ' '.join(l[2:] for l in lines[1:] if l.startswith('> ')); rest = '\n'.join(l for l in lines[1:] if not l.startswith('> '))
                if rest.strip(): parts.append(_md(rest))
                continue
            parts.append(_md(src)); continue
        opts = _opts(src)
        if opts.get('include') == 'false': continue
        cell = [] if opts.get('echo') == 'false' else [_code(src)]
        if opts.get('output') != 'false': cell += [_output(o, opts) for o in c.get('outputs', [])]
        cell = ''.join(cell)
        if cell.strip(): parts.append(f'<div class="cell">{cell}</div>')
    head = f'<h1 class="title">{html.escape(title)}</h1>' + (f'<p class="description">{_md(desc)[3:-5]}</p>' if desc else '')
    return title, desc, _anchor_headings(head + '\n'.join(parts))

def render_cached(src):
    "`render_nb`, cached beside the processed notebook by a hash of it and of this renderer."
    key = hashlib.sha256(Path(src).read_bytes() + Path(__file__).read_bytes()).hexdigest()[:16]
    f = BUILD / 'cache' / 'pages' / f'{Path(src).stem}-{key}.json'
    if f.exists(): return tuple(json.loads(f.read_text()))
    out = render_nb(src)
    f.parent.mkdir(parents=True, exist_ok=True)
    for old in f.parent.glob(f'{Path(src).stem}-*.json'): old.unlink()
    f.write_text(json.dumps(out)); return out

def page(title, current, body, banner):
    return (f'<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">'
            f'<title>{html.escape(title)} – trustnb</title><link rel="stylesheet" href="site.css">'
            '<link rel="stylesheet" href="vendor/katex/katex.min.css"><script defer src="vendor/katex/katex.min.js"></script>'
            '<script defer src="vendor/katex/contrib/auto-render.min.js"></script><script defer src="search.js"></script>'
            '<script defer src="site.js"></script></head><body>'
            + nav_html(current) + '<main>' + (f'<div class="tnb-banner">{html.escape(banner)}</div>' if banner else '')
            + body + '</main></body></html>')

def fetch_katex():
    """KaTeX (pinned) from the npm registry over HTTPS, checked against the registry's sha512 and unpacked once into
    _build/vendor: no npm or Node.js needed. Returns the folder, or None (with a message) when it cannot be had —
    then pages show equations as TeX source. Called before any notebook runs, so a missing piece shows at once."""
    src = BUILD / 'vendor' / f'katex-{KATEX}'
    if (src / 'katex.min.js').exists(): return src
    import base64, io, tarfile, urllib.request
    try:
        meta = json.load(urllib.request.urlopen(f'https://registry.npmjs.org/katex/{KATEX}', timeout=60))
        data = urllib.request.urlopen(meta['dist']['tarball'], timeout=120).read()
        algo, _, want = meta['dist']['integrity'].partition('-')
        if base64.b64encode(hashlib.new(algo, data).digest()).decode() != want: raise ValueError('checksum mismatch')
    except Exception as e:
        print(f'KaTeX {KATEX} could not be fetched from the npm registry ({type(e).__name__}: {e}); equations will show as TeX '
              'source. Run `make docs` again once registry.npmjs.org is reachable.', flush=True)
        return None
    tmp = BUILD / 'vendor' / 'tmp'; shutil.rmtree(tmp, ignore_errors=True); tmp.mkdir(parents=True)
    with tarfile.open(fileobj=io.BytesIO(data)) as tf: tf.extractall(tmp, filter='data')
    shutil.rmtree(src, ignore_errors=True); shutil.copytree(tmp / 'package' / 'dist', src); shutil.rmtree(tmp)
    return src

def vendor_katex(dest):
    "Copy the fetched KaTeX into the site (`fetch_katex`); False when it is not available."
    src = fetch_katex()
    if src is None: return False
    shutil.copytree(src, dest, dirs_exist_ok=True, ignore=shutil.ignore_patterns('*.mjs', '*.ttf', '*.woff', 'katex.js', 'katex.css'))
    return True

def search_index(pages):
    "Entries {t: text, k: page|section|api, p: page title, u: url} over page titles, headings and exported names."
    idx = []
    for fname, title, desc, body in pages:
        idx.append(dict(t=title, k='page', p=desc[:80] if desc else title, u=fname))
        for hid, inner in re.findall(r'<h[2-4][^>]* id="([^"]+)">(.*?)</h[2-4]>', body, flags=re.S):
            inner = re.sub(r'<a class="anchor-link"[^>]*>.*?</a>', '', inner, flags=re.S)  # the heading's ¶ link
            t = html.unescape(re.sub(r'<[^>]+>', '', inner)).strip()
            if t: idx.append(dict(t=t, k='section', p=title, u=f'{fname}#{hid}'))
    names = {p[0] for p in pages}
    try:
        from trustnb._modidx import d
        titles = {p[0]: p[1] for p in pages}
        for mod, syms in d['syms'].items():
            for full, (url, _) in syms.items():
                short = full[len(mod) + 1:]
                if '.' in short and short.split('.')[-1].startswith('_'): continue  # dunder / private methods
                if url.split('#')[0] in names: idx.append(dict(t=short, k='api', p=f'{mod} · {titles.get(url.split("#")[0], "")}', u=url))
    except ImportError: pass
    # one entry per (text, target): an API name is also its show_doc heading; keep the API entry
    rank = {'api': 0, 'page': 1, 'section': 2}
    best = {}
    for e in idx:
        k = (e['t'].lower(), e['u'].split('#')[0], e['u'].split('#')[1].lower() if '#' in e['u'] else '')
        if k not in best or rank[e['k']] < rank[best[k]['k']]: best[k] = e
    return list(best.values())

def preview(nbs):
    "HTML preview without Quarto, rendered from nbdev's processed notebooks in _build/proc."
    shutil.rmtree(DOCS, ignore_errors=True); DOCS.mkdir()
    banner = ('HTML preview (Quarto is not on PATH): the same processed notebooks as the Quarto site, simpler styling. '
              'For the full site install Quarto (https://quarto.org/docs/get-started/) and run `make docs` again.')
    pages = []
    fails = json.loads((BUILD / 'failed.json').read_text()) if (BUILD / 'failed.json').exists() else {}
    for nb in nbs:
        src = BUILD / 'proc' / nb.name
        if not src.exists(): continue
        title, desc, body = render_cached(src)
        pages.append((page_name(nb.name), title or nb.stem, desc, body))
    pages.append(('repro_table.html', 'Reproductions', 'headline claims', repro_html(repro_rows())))
    for fname, title, desc, body in pages: (DOCS / fname).write_text(page(title, fname, body, banner), encoding='utf-8')
    (DOCS / 'site.css').write_text(site_css()); (DOCS / 'site.js').write_text(SITE_JS)
    (DOCS / 'search.js').write_text('window.TNB_INDEX = ' + json.dumps(search_index(pages), ensure_ascii=False) + ';\n')
    vendor_katex(DOCS / 'vendor' / 'katex')
    return pages

# ---------------------------------------------------------------- 2b. the Quarto site
def quarto_site():
    "Full site: nbdev_docs over a copy of the project whose notebooks carry the executed outputs."
    site = BUILD / 'site'
    shutil.rmtree(site, ignore_errors=True)
    shutil.copytree(NBS, site / 'nbs', symlinks=False)
    for f in BUILD.glob('nbs/*.ipynb'): shutil.copy(f, site / 'nbs' / f.name)
    for f in ['settings.ini', 'setup.py', 'README.md', '_quarto.yml']: shutil.copy(ROOT / f, site / f)
    shutil.copytree(ROOT / 'trustnb', site / 'trustnb')
    (site / 'nbs' / 'repro_table.qmd').write_text('---\ntitle: Reproductions\n---\n\n```{=html}\n' + repro_html(repro_rows()) + '\n```\n')
    vendor_katex(site / 'nbs' / 'vendor' / 'katex')
    subprocess.run([str(Path(sys.executable).parent / 'nbdev_docs')], cwd=site, check=True)
    shutil.rmtree(DOCS, ignore_errors=True); shutil.copytree(site / '_docs', DOCS)

def _arg(name):
    v = [a.split('=', 1)[1] for a in sys.argv if a.startswith(f'--{name}=')]
    return v[0] if v else None

if __name__ == '__main__':
    # --fresh: execute every notebook again; --preview: the preview even where Quarto is installed; --only=index,04_viz: build those pages only; --run=04_viz,40_privacy:
    # execute only those, process the rest unexecuted (the browser test's quick site); --out=DIR: _build/_docs under DIR
    t0 = time.time()
    if _arg('out'): BUILD, DOCS = Path(_arg('out')) / '_build', Path(_arg('out')) / '_docs'; CACHE, WORK = BUILD / 'cache', BUILD / 'work'
    nbs = notebooks()
    if _arg('only'): nbs = [nb for nb in nbs if any(nb.stem.startswith(o) for o in _arg('only').split(','))]
    run = None if _arg('run') is None else {nb.name for nb in nbs if any(nb.stem.startswith(o) for o in _arg('run').split(','))}
    quarto = shutil.which('quarto') and '--preview' not in sys.argv
    print('Quarto found: building the full site with nbdev_docs' if quarto else QUARTO_HINT, flush=True)
    katex = fetch_katex()  # before any notebook runs: a missing piece shows at once, not after the build
    failed, n_ran = execute_all(nbs, fresh='--fresh' in sys.argv, run=run)
    if quarto: quarto_site()
    else: preview(nbs)
    n_failed = len(failed)
    print(f'\ndocs built in {time.time() - t0:.0f} s ({n_ran} notebook(s) executed, {len(nbs) - n_ran} from the cache); '
          f'{n_failed} notebook(s) failed' + (': ' + ', '.join(n for n, _ in failed) if failed else ''))
    print(f'summary: {len(nbs) - n_failed} of {len(nbs)} pages built ({n_ran - n_failed} executed now, {len(nbs) - n_ran} cached), '
          f'{n_failed} failed' + ('' if katex else '; equations shown as TeX (KaTeX not fetched)')
          + ('; failed notebooks run again on the next `make docs`' if failed else ''))
    print(f'Open: {DOCS / "index.html"}')
    sys.exit(1 if failed else 0)
