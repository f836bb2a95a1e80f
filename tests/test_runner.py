"""The test runner itself: `make test` relies on `--dist loadgroup` sending every test marked
`xdist_group('subprocess-heavy')` (the docs build, kernels, Chromium, Flower) to one worker. Under pytest 9 with
pytest-xdist 3.8 the mark is silently ignored (xdist sets `item._nodeid`, which pytest 9 no longer reads): both workers
then built the browser test's docs site at once, 795 s each, and CI ran 35 min instead of < 30. settings.ini pins
`pytest>=8,<9`; this test fails if the grouping breaks again, whatever the cause."""
import re, subprocess, sys, textwrap

def test_loadgroup_sends_a_group_to_one_worker(tmp_path):
    (tmp_path / 'test_heavy_a.py').write_text(textwrap.dedent('''
        import os, time, pytest
        pytestmark = pytest.mark.xdist_group('heavy')
        @pytest.mark.parametrize('i', range(4))
        def test_a(i): time.sleep(0.05); print('WORKER', os.environ['PYTEST_XDIST_WORKER'])
    '''))
    (tmp_path / 'test_heavy_b.py').write_text(textwrap.dedent('''
        import os, time, pytest
        pytestmark = pytest.mark.xdist_group('heavy')
        @pytest.mark.parametrize('i', range(4))
        def test_b(i): time.sleep(0.05)
    '''))
    (tmp_path / 'test_light.py').write_text('import pytest, time\n@pytest.mark.parametrize("i", range(8))\ndef test_c(i): time.sleep(0.05)\n')
    r = subprocess.run([sys.executable, '-m', 'pytest', '-n', '2', '--dist', 'loadgroup', '-v', '-p', 'no:cacheprovider', str(tmp_path)],
                       capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert r.returncode == 0, r.stdout[-3000:] + r.stderr[-3000:]
    rows = re.findall(r'\[(gw\d+)\].*?PASSED .*?(test_\w+)\.py::(\S+)', r.stdout)
    heavy = {w for w, f, _ in rows if f.startswith('test_heavy')}
    assert len([1 for _, f, _ in rows if f.startswith('test_heavy')]) == 8, r.stdout[-3000:]
    assert len(heavy) == 1, f'the xdist_group tests ran on {sorted(heavy)}: --dist loadgroup is not grouping\n' + r.stdout[-3000:]
    # negative control: without loadgroup the same 16 tests spread over both workers (so the check above can fail)
    r2 = subprocess.run([sys.executable, '-m', 'pytest', '-n', '2', '--dist', 'load', '-v', '-p', 'no:cacheprovider', str(tmp_path)],
                        capture_output=True, text=True, cwd=tmp_path, timeout=300)
    rows2 = re.findall(r'\[(gw\d+)\].*?PASSED .*?(test_\w+)\.py::(\S+)', r2.stdout)
    assert len({w for w, _, _ in rows2}) == 2, r2.stdout[-3000:]
