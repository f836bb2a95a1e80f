"""Issue 26.2: HCFL/HCFL+ and DP-FL run by Flower's own runtime — a SuperLink and one SuperNode per client as real processes
on 127.0.0.1 (insecure mode), runs submitted with `flwr run` — against the in-process loops (`ClusteredFL.fit`, `run_dp_fl`).

- parity: the same federation, seeds and rounds give the same parameters under Flower (to 1e-6; in fact bit for bit);
- a SuperNode killed mid-round: the round completes with the others and the result records the drop;
- without flwr: an ImportError naming `pip install 'trustnb[scale]'`;
- every process a federation starts is gone after `stop()` (also when the body raises).
"""
import os, subprocess, sys, threading, time
from pathlib import Path
import numpy as np
import pytest
from sklearn.base import clone

pytestmark = pytest.mark.xdist_group('subprocess-heavy')  # many processes: never beside the other subprocess-heavy tests
ROOT = Path(__file__).resolve().parents[1]

def _max_diff(a, b): return max(float(np.max(np.abs(np.asarray(x) - np.asarray(y)))) for x, y in zip(a, b))

def test_missing_flwr_names_the_extra():
    "The module imports without Flower; every entry point raises an ImportError naming the extra."
    code = ("import sys; sys.modules['flwr'] = None\n"            # `import flwr` now fails, as when it is not installed
            "import trustnb.learn.flower as F\n"
            "for f in (lambda: F.LocalFederation(2), F.client_app, F.server_app, lambda: F.HCFLFlowerStrategy(), lambda: F.DPFLFlowerStrategy()):\n"
            "    try: f(); print('NO ERROR')\n"
            "    except ImportError as e: print('ERR', e)\n")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300, cwd=ROOT,
                       env={**os.environ, 'OMP_NUM_THREADS': '1'})
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 5 and all(l.startswith('ERR') and "pip install 'trustnb[scale]'" in l for l in lines), r.stdout

def test_client_stream_sends_no_seed():
    "With noise_stream='client' the server's messages carry no seed; only the replay test mode sends the run seed."
    pytest.importorskip('flwr')
    from flwr.app import ArrayRecord, ConfigRecord
    from trustnb.learn.flower import DPFLFlowerStrategy
    def msgs(stream):
        st = DPFLFlowerStrategy(T=2, sampling_rate=1.0, seed=0, noise_stream=stream)
        st.info, st.node_of = {i: {'n': 30, 'd_in': 3, 'max_label': 1} for i in range(3)}, {0: 5, 1: 6, 2: 7}
        st._setup(3); return st._payloads(1, ArrayRecord([np.zeros(3)]), ConfigRecord())
    assert [i for i, _ in msgs('client')] == [0, 1, 2]
    assert not any('seed' in c['config'] for _, c in msgs('client'))
    assert all(c['config']['seed'] == 0 for _, c in msgs('replay'))

@pytest.fixture(scope='module')
def fed3():
    pytest.importorskip('flwr')
    from trustnb.learn.flower import LocalFederation
    fl = LocalFederation(3)
    t = time.time(); fl.start(); print(f'\nSuperLink + 3 SuperNodes up in {time.time() - t:.1f} s')
    try: yield fl
    finally:
        fl.stop()
        assert not fl._ours(), f'processes left after stop: {fl._ours()}'

@pytest.mark.timeout(900)
def test_hcfl_parity(fed3):
    "HCFL+ from one cluster, three concepts, two rounds (K: 1 -> 2 -> 3): Flower's parameters are ClusteredFL.fit's."
    from trustnb.learn.hcfl import ClusteredFL, make_federation
    from trustnb.learn.flower import hcfl_flower
    fed = make_federation(n_clients=3, n_concepts=3, n_train=80, n_test=100, d_in=8, n_classes=5, seed=0)
    model = ClusteredFL.preset('hcfl+', rounds=2, seed=0)
    ref = clone(model).fit(fed.clients)
    run = hcfl_flower(model, fed.clients, fed3)
    d = {'params': _max_diff(run.result.params_, ref.params_), 'omega': _max_diff([run.result.cluster_weights_], [ref.cluster_weights_])}
    print(f'hcfl+ parity {d}, run {run.wall_s:.1f} s, rounds {np.round(run.round_s, 1).tolist()}')
    assert all(v <= 1e-6 for v in d.values()), d
    assert run.result.history_.events == ref.history_.events == [(0, 'split', 0), (1, 'split', 1)]
    assert run.result.history_.n_clusters == ref.history_.n_clusters == [2, 3]
    np.testing.assert_allclose(run.result.history_.loss, ref.history_.loss, rtol=0, atol=1e-12)
    np.testing.assert_allclose(run.result.score_clients(fed.tests), ref.score_clients(fed.tests), atol=1e-12)
    assert run.dropped == {} and run.info['adapt_skipped'] == []

@pytest.mark.timeout(900)
def test_dp_fl_parity(fed3):
    "DP-FL: `nc` with the replayed stream and `nonprivate` with the clients' own stream give run_dp_fl's w and epsilon."
    from trustnb.privacy.dp_fl import make_federated_logreg, run_dp_fl
    from trustnb.learn.flower import dp_fl_flower
    problem = make_federated_logreg(n_clients=3, n_per_client=60, d=4, seed=0)
    kw = dict(T=2, sampling_rate=0.6, lr=0.5, batch_size=10, seed=3)   # clients 0, 1 take part twice (their noise cancels), client 2 once
    for method, stream in (('nc', 'replay'), ('nonprivate', 'client')):
        ref = run_dp_fl(problem, method=method, **kw)
        run = dp_fl_flower(problem, fed3, method=method, noise_stream=stream, **kw)
        d = _max_diff([run.result.w], [ref.w])
        print(f'dp_fl {method}/{stream}: max |w diff| {d:.1e}, eps {run.result.epsilon}, run {run.wall_s:.1f} s')
        assert d <= 1e-6
        np.testing.assert_allclose(run.result.excess, ref.excess, rtol=0, atol=1e-9)
        assert run.result.epsilon == ref.epsilon and run.result.sigma == ref.sigma and run.result.K == ref.K and run.dropped == {}
    assert ref.sigma == 0 and np.isinf(ref.epsilon)

@pytest.mark.timeout(900)
def test_killed_supernode_mid_round():
    "SuperNode 2 is SIGKILLed after receiving its round-2 message: round 2 completes with clients 0 and 1, the drop is recorded."
    pytest.importorskip('flwr')
    from trustnb.learn.hcfl import ClusteredFL, make_federation
    from trustnb.learn.flower import LocalFederation, hcfl_flower
    fed = make_federation(n_clients=3, n_concepts=3, n_train=80, n_test=100, d_in=8, n_classes=5, seed=0)
    model = ClusteredFL.preset('hcfl+', rounds=2, seed=0)
    t = time.time(); box = {}
    with LocalFederation(3) as fl:
        th = threading.Thread(target=lambda: box.update(run=hcfl_flower(model, fed.clients, fl, round_timeout=40)), daemon=True)
        th.start()
        fl.wait_for_message(2, 2, timeout=400)          # its round-2 message has arrived: its ClientApp process is starting
        fl.kill_node(2); log = (fl.workdir / 'logs' / 'node2.log').read_text()
        th.join(timeout=600)
        assert not th.is_alive(), 'the run did not finish'
        replies_sent = log.count('Sending: train')
        left_inside = [p for p in fl._ours() if p in {q.pid for q in fl.nodes[2:3]}]
    left = fl._ours()
    run = box['run']
    print(f'kill test: {time.time() - t:.1f} s; dropped {run.dropped}; reasons {run.reasons}; rounds {np.round(run.round_s, 1).tolist()}')
    assert replies_sent <= 1, 'node 2 had already answered round 2 when it was killed'
    assert run.dropped == {2: [2]} and run.reasons[2][2] == 'no reply within the round timeout'
    assert run.info['adapt_skipped'] == [2] and run.result.history_.n_clusters[-1] == run.result.n_clusters_
    assert run.round_s[1] >= 40 - 1                      # round 2 waited for the dead client, then completed with the others
    assert all(np.isfinite(p).all() for p in run.result.params_)
    assert not left_inside and not left, f'processes left: {left}'

def test_stop_on_failure():
    "A body that raises still stops every process the federation started, and removes its temporary workdir."
    pytest.importorskip('flwr')
    from trustnb.learn.flower import LocalFederation
    fl = LocalFederation(2)
    with pytest.raises(RuntimeError, match='boom'):
        with fl:
            assert len(fl._ours()) >= 3          # the SuperLink and two SuperNodes (and their SuperExecs)
            raise RuntimeError('boom')
    assert fl._ours() == [] and not fl.workdir.exists()
