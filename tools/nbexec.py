"""Execute notebooks the way `nbdev_test` does (skipping `tst_flags` cells, `eval: false` cells and the final
`nbdev_export()` cell), but keep the outputs, so the docs can show them. Used by tools/build_docs.py.
A skipped heavy cell (`#| slow`, `#| gpu`) keeps its source and gets one small note as its output, the same on the
Quarto site and the preview: what the flag means and how to run the cell."""
import os, sys, time, shutil, traceback
from pathlib import Path
from execnb.nbio import read_nb, write_nb
from execnb.shell import CaptureShell
from fastcore.basics import str2bool
from nbdev.config import get_config
from nbdev.process import NBProcessor
from nbdev.frontmatter import FrontmatterProc

def _skip(flags):
    def no_eval(cell):
        if cell.cell_type != 'code': return True
        if 'nbdev_export' + '(' in cell.source: return True
        direc = getattr(cell, 'directives_', {}) or {}
        if direc.get('eval:', [''])[0].lower() == 'false': return True
        return bool(flags & direc.keys())
    return no_eval

HEAVY_NOTES = {'slow': 'minutes of CPU', 'gpu': 'paper scale, meant for a GPU'}

def heavy_note(flag):
    "The output a skipped heavy cell shows in the docs."
    md = (f'<div class="tnb-skipped">Not run for this page: this cell is flagged <code>#| {flag}</code> '
          f'({HEAVY_NOTES.get(flag, "heavy")}). In Jupyter, run it after <code>trustnb.core.enable_flags({flag!r})</code>; '
          f'<code>nbdev_test --flags {flag}</code> runs it under test.</div>')
    return {'output_type': 'display_data', 'metadata': {}, 'data': {'text/html': md, 'text/plain': f'Not run for this page (#| {flag}).'}}

def execute(src, dst, flags=None, repro_log=None):
    "Execute notebook `src` (default path) and write it with outputs to `dst`; returns (ok, seconds, error)."
    src, dst = Path(src).resolve(), Path(dst)
    flags = set(flags if flags is not None else get_config().tst_flags.split())
    os.environ['IN_TEST'] = '1'  # same default path as the tests: quiet progress bars
    if repro_log: os.environ['TRUSTNB_REPRO_LOG'] = str(repro_log)  # this notebook's claims, cached with its run
    root = str(get_config().config_path)
    if root not in sys.path: sys.path.insert(0, root)  # this checkout's trustnb, like nbdev_test's basepath
    nb = read_nb(src)
    NBProcessor(src, procs=[FrontmatterProc], nb=nb).process()  # parses directives_ like nbdev's test runner
    t0, err = time.time(), None
    cwd = os.getcwd()
    try:
        os.chdir(src.parent)
        sh = CaptureShell(src)
        sh.run_all(nb, exc_stop=True, preproc=_skip(flags))
    except Exception: err = traceback.format_exc()
    finally: os.chdir(cwd)
    # write the *unprocessed* notebook (directives and title cell intact, as nbdev_docs expects) with the outputs
    orig, outs = read_nb(src), {c.get('id'): c for c in nb.cells if c.cell_type == 'code'}
    for c in orig.cells:
        if c.cell_type == 'code' and c.get('id') in outs:
            c.outputs, c.execution_count = outs[c['id']].get('outputs', []), outs[c['id']].get('execution_count')
            heavy = sorted((getattr(outs[c['id']], 'directives_', None) or {}).keys() & flags & HEAVY_NOTES.keys())
            if heavy and not c.outputs and err is None: c.outputs = [heavy_note(heavy[0])]
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_nb(orig, dst)
    return err is None, time.time() - t0, err

def execute_into(src, out_dir):
    "Execute `src` into `out_dir/<name>`; returns (name, ok, seconds, error). Picklable for process pools."
    return (Path(src).name, *execute(src, Path(out_dir) / Path(src).name))

def process(src, dst):
    """nbdev's docs processors (what `nbdev_docs` runs before Quarto): show_doc cells with signatures and docments
    tables, export source hidden, `#| hide` cells dropped, doc links between symbols. `src` keeps its notebook name.
    Returns None, or nbdev's error; then `dst` is processed without executing show_doc (a page without API tables)."""
    from nbdev.serve_drv import exec_nb
    from nbdev.processors import FilterDefaults
    class NoShowDocExec(FilterDefaults):
        def base_procs(self): return [p for p in super().base_procs() if p.__name__ != 'exec_show_docs']
    old = os.environ.get('IN_TEST'); os.environ['IN_TEST'] = '1'
    import warnings
    try:
        with warnings.catch_warnings():
            warnings.filterwarnings('ignore', message='Found cells containing imports')  # reported below when it breaks
            try: exec_nb(Path(src), Path(dst), FilterDefaults); return None
            except Exception as e:
                cause = e.__cause__ or e
                err = (f'nbdev_docs cannot process this notebook: {str(e).splitlines()[0]}\n{type(cause).__name__}: {cause}\n'
                       'nbdev executes every cell that holds an import (to run show_doc); keep imports in cells of their own '
                       '(CONVENTIONS §4), so that such a cell needs nothing defined by earlier cells.')
                exec_nb(Path(src), Path(dst), NoShowDocExec)
                return err
    finally:
        if old is None: os.environ.pop('IN_TEST', None)

def build_one(src, key, cache, work, fresh=False, run=True):
    """Executed + processed notebook `src` for the docs, from `cache` when `key` (a hash of the notebook, the library
    and the installed packages) has been built before; returns (name, status, seconds, error), status 'cached'|'ran'|'FAIL'.
    A failure is never cached: the next build runs the notebook again. Its outputs stay in `work` for the failed page."""
    src, cache, work = Path(src), Path(cache), Path(work)
    stem, name = src.stem, src.name
    exe, proc, log = (cache / f'{stem}-{key}{suf}' for suf in ('.ipynb', '.proc.ipynb', '.repro.jsonl'))
    if not fresh and exe.exists() and proc.exists(): return name, 'cached', 0.0, None
    for old in cache.glob(f'{stem}-*'): old.unlink()  # this notebook's stale runs (stems hold no '-')
    (work / 'exec').mkdir(parents=True, exist_ok=True); (work / 'proc').mkdir(parents=True, exist_ok=True)
    run_log = work / 'exec' / f'{stem}.repro.jsonl'; run_log.unlink(missing_ok=True)
    if run: ok, secs, err = execute(src, work / 'exec' / name, repro_log=run_log)
    else: ok, secs, err = True, 0.0, None; shutil.copy(src, work / 'exec' / name)  # processed, not executed (quick checks)
    try: perr = process(work / 'exec' / name, work / 'proc' / name)
    except Exception: perr = 'nbdev processing failed:\n' + traceback.format_exc()
    if perr: ok, err = False, (err + '\n' if err else '') + perr
    if not ok: return name, 'FAIL', secs, err  # left in `work` (shown with a banner), never cached
    cache.mkdir(parents=True, exist_ok=True)
    for a, b in [(work / 'exec' / name, exe), (work / 'proc' / name, proc)]: os.replace(a, b)
    if run_log.exists(): os.replace(run_log, log)
    return name, 'ran', secs, err

if __name__ == '__main__':
    ok, secs, err = execute(sys.argv[1], sys.argv[2])
    print(f'{sys.argv[1]}: {"ok" if ok else "FAILED"} in {secs:.1f} s'); sys.exit(0 if ok else (print(err) or 1))
