"Every public parameter of every exported callable has a docments comment (CONVENTIONS §3): the count must be zero."
import importlib, inspect, pkgutil
import pytest
from fastcore.docments import docments
import trustnb
from trustnb.viz import _var_comment

def _modules():
    for mi in pkgutil.walk_packages(trustnb.__path__, 'trustnb.'):
        if not mi.ispkg and not mi.name.endswith('_modidx'): yield mi.name

def _callables(m):
    for n in getattr(m, '__all__', []):
        o = getattr(m, n, None)
        if getattr(o, '__module__', None) != m.__name__: continue
        if inspect.isfunction(o): yield n, o
        elif inspect.isclass(o):
            if hasattr(o, '__dataclass_fields__'):
                yield n, o  # fields are documented by comments too
                init = vars(o).get('__init__')
                if init is not None and not getattr(init, '__qualname__', '').endswith('__create_fn__.<locals>.__init__') \
                        and inspect.getsourcefile(init) == inspect.getsourcefile(o): yield f'{n}.__init__', init  # a hand-written __init__
            elif '__init__' in vars(o): yield n, o.__init__
            for k, f in vars(o).items():
                if inspect.isfunction(f) and not k.startswith('_'): yield f'{n}.{k}', f

def undocumented(modname):
    try: m = importlib.import_module(modname)
    except ImportError: return None
    out = []
    for n, f in _callables(m):
        try: docs = docments(f, full=False)
        except Exception: continue  # builtins / C extensions
        skip = {'self', 'cls', 'return', 'args', 'kwargs'}
        params = inspect.signature(f).parameters if not inspect.isclass(f) else docs.keys()
        for p in params:
            if p in skip: continue
            if p in params and not inspect.isclass(f) and params[p].kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                if not _var_comment(f, p): out.append(f'{n}(*{p})')  # fastcore's docments skips them: read the comment from the source
                continue
            if not docs.get(p): out.append(f'{n}({p})')
    return out

@pytest.mark.parametrize('modname', sorted(_modules()))
def test_every_public_parameter_documented(modname):
    u = undocumented(modname)
    if u is None: pytest.skip(f'{modname}: optional dependency missing')
    assert not u, f'{modname}: {len(u)} undocumented public parameter(s):\n  ' + '\n  '.join(u)
