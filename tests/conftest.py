import os, sys, time
from pathlib import Path
import pytest
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / 'tools'))

_times = {}
@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_call(item):
    t0 = time.time(); yield
    if 'nb' in getattr(item, 'callspec', type('', (), {'params': {}})()).params: _times[item.callspec.id] = time.time() - t0

def pytest_terminal_summary(terminalreporter):
    if _times:
        terminalreporter.section('notebook timings (default path)')
        for k, v in sorted(_times.items(), key=lambda kv: -kv[1]): terminalreporter.write_line(f'{v:7.1f} s  {k}')
