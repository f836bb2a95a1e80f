"""Execute notebooks the way `nbdev_test` does (skipping `tst_flags` cells, `eval: false` cells and the final
`nbdev_export()` cell), but keep the outputs, so the docs can show them. Used by tools/build_docs.py."""
import os, sys, time, traceback
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

def execute(src, dst, flags=None):
    "Execute notebook `src` (default path) and write it with outputs to `dst`; returns (ok, seconds, error)."
    src, dst = Path(src).resolve(), Path(dst)
    flags = set(flags if flags is not None else get_config().tst_flags.split())
    os.environ['IN_TEST'] = '1'  # same default path as the tests: quiet progress bars
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
    dst.parent.mkdir(parents=True, exist_ok=True)
    write_nb(orig, dst)
    return err is None, time.time() - t0, err

def execute_into(src, out_dir):
    "Execute `src` into `out_dir/<name>`; returns (name, ok, seconds, error). Picklable for process pools."
    return (Path(src).name, *execute(src, Path(out_dir) / Path(src).name))

if __name__ == '__main__':
    ok, secs, err = execute(sys.argv[1], sys.argv[2])
    print(f'{sys.argv[1]}: {"ok" if ok else "FAILED"} in {secs:.1f} s'); sys.exit(0 if ok else (print(err) or 1))
