"""Issue 26.1: DP training through opacus' real `PrivacyEngine` with trustnb's accountants and samplers (tiny, on digits).

- the ε opacus reports (its accountant = our adapter) is trustnb's ledger for the same events, bit for bit, and dp-accounting's
  `PLDAccountant` called directly; against opacus' own accountants listening to the same step hook: RDP on opacus' orders equal
  to 1e-9 relative (measured 4e-16), PRV's upper bound above our PLD by at most its `eps_error` + 1e-3 (measured 1.2e-3 at 1e-3);
- the balanced sampler's passes (every record once per pass) and their Monte Carlo ε, below the Poisson ε;
- label-DP training: RR ⊕ DP-SGD composed by PLD; certified unlearning's certificate through opacus equals the native one;
- `make_private_with_epsilon` and checkpoints work through the registered 'trustnb_pld';
- without opacus: an ImportError naming `pip install 'trustnb[scale]'`.
"""
import os, subprocess, sys, warnings
from pathlib import Path
import numpy as np
import pytest
import torch
import torch.nn.functional as F
from torch import nn
from torch.utils.data import TensorDataset

ROOT = Path(__file__).resolve().parents[1]
warnings.filterwarnings('ignore', message='Secure RNG turned off')

def test_missing_opacus_names_the_extra():
    "The module imports without opacus; every entry point raises an ImportError naming the extra."
    code = ("import sys; sys.modules['opacus'] = None\n"          # `import opacus` now fails, as when it is not installed
            "import numpy as np, torch\n"
            "import trustnb.privacy.opacus as O\n"
            "from trustnb.privacy.balanced_subsampling import PoissonSampler\n"
            "from trustnb.privacy.label_dp import LabelRandomizedResponse\n"
            "ds = torch.utils.data.TensorDataset(torch.zeros(4, 2), torch.zeros(4))\n"
            "m = torch.nn.Linear(2, 2); net = torch.nn.Sequential(torch.nn.Linear(2, 2))\n"
            "X, y = np.zeros((6, 2), np.float32), np.array([0, 1] * 3)\n"
            "for f in (O.require_opacus, O.OpacusAccountant, lambda: O.BalancedOpacusAccountant(4), lambda: O.UnlearningOpacusAccountant(1, 1, 0.01, 50, 4),\n"
            "          lambda: O.sampler_loader(ds, PoissonSampler(4, 0.5, 2)), lambda: O.make_private(m, torch.optim.SGD(m.parameters(), lr=0.1), None, 1.0, 1.0),\n"
            "          lambda: O.label_dp_sgd(X, y, LabelRandomizedResponse(1.0)),\n"
            "          lambda: O.OpacusNoisyFinetuneUnlearner(T=2, finetune_steps=1, device='cpu').fit(X, y, model=net).unlearn([0])):\n"
            "    try: f(); print('NO ERROR')\n"
            "    except ImportError as e: print('ERR', e)\n")
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=300, cwd=ROOT, env={**os.environ, 'OMP_NUM_THREADS': '1'})
    assert r.returncode == 0, r.stderr[-2000:]
    lines = r.stdout.strip().splitlines()
    assert len(lines) == 8 and all(l.startswith('ERR') and "pip install 'trustnb[scale]'" in l for l in lines), r.stdout

@pytest.fixture(scope='module')
def digits():
    pytest.importorskip('opacus')
    from trustnb.data import load_digits
    d = load_digits(); return d, TensorDataset(torch.as_tensor(d.X), torch.as_tensor(d.y))

def _train(digits, accountant, sampler, epochs=3, z=1.0, listeners=()):
    "Softmax regression by opacus DP-SGD; `listeners` (opacus accountants) see the same step hook as ours."
    from trustnb.privacy.opacus import make_private, sampler_loader
    d, ds = digits
    with torch.random.fork_rng(): torch.manual_seed(0); m = nn.Linear(64, 10)
    run = make_private(m, torch.optim.SGD(m.parameters(), lr=1.0), sampler_loader(ds, sampler), z, 1.0, accountant, noise_generator=torch.Generator().manual_seed(0))
    hooks = [a.get_optimizer_hook_fn(1 / len(sampler)) for a in (run.accountant, *listeners)]
    run.optimizer.attach_step_hook(lambda o: [h(o) for h in hooks])
    for _ in range(epochs):
        for xb, yb in run.data_loader:
            run.optimizer.zero_grad(); F.cross_entropy(run.module(xb), yb).backward(); run.optimizer.step()
    with torch.no_grad(): acc = float((run.module(ds.tensors[0]).argmax(1) == ds.tensors[1]).float().mean())
    return run, acc

def test_pld_rdp_parity_with_ledger_and_opacus(digits):
    import dp_accounting as dpa
    from opacus.accountants import PRVAccountant, RDPAccountant
    from trustnb.privacy.accounting import Accountant, GaussianMechanism
    from trustnb.privacy.balanced_subsampling import PoissonSampler
    from trustnb.privacy.opacus import OpacusAccountant
    n, T = len(digits[1]), 20
    prv, rdp = PRVAccountant(), RDPAccountant()
    run, acc = _train(digits, 'pld', PoissonSampler(n, 1 / T, T, seed=0), listeners=(prv, rdp))
    assert run.accountant.history == prv.history == rdp.history == [(1.0, 1 / T, 60)] and len(run.accountant) == 60
    eps = run.epsilon(1e-5)
    assert eps == Accountant().step(GaussianMechanism(1.0), 1 / T, 60).get_epsilon(1e-5)
    a = dpa.pld.PLDAccountant(dpa.NeighboringRelation.ADD_OR_REMOVE_ONE, 1e-4); a.compose(dpa.PoissonSampledDpEvent(1 / T, dpa.GaussianDpEvent(1.0)), 60)
    assert eps == a.get_epsilon(1e-5)
    for err in (1e-2, 1e-3):
        e_prv = prv.get_epsilon(1e-5, eps_error=err); print(f'PLD {eps:.6f} PRV(eps_error={err:g}) {e_prv:.6f} diff {e_prv - eps:.2e}')
        assert eps <= e_prv <= eps + err + 1e-3
    ours_rdp = OpacusAccountant('rdp', orders=RDPAccountant.DEFAULT_ALPHAS); ours_rdp.history = list(run.accountant.history)
    r_ours, r_op = ours_rdp.get_epsilon(1e-5), rdp.get_epsilon(1e-5); print(f'RDP ours {r_ours!r} opacus {r_op!r}')
    assert abs(r_ours / r_op - 1) <= 1e-9
    assert acc > 0.8, acc

def test_balanced_sampler_and_accountant(digits):
    from trustnb.privacy.accounting import epsilon_poisson_gaussian, GaussianMechanism
    from trustnb.privacy.balanced_subsampling import BalancedAccountant, BalancedIterationSampler
    from trustnb.privacy.opacus import BalancedOpacusAccountant, sampler_loader
    n, T = len(digits[1]), 20
    sampler = BalancedIterationSampler(n, T, 2, seed=0)
    counts = np.bincount(np.concatenate([np.asarray(b) for b in sampler]), minlength=n); assert (counts == 2).all()   # k=2 of T, every record
    run, acc = _train(digits, BalancedOpacusAccountant(T, 2, n_mc=20_000), BalancedIterationSampler(n, T, 2, seed=0), epochs=2)
    eps = run.epsilon(1e-5)
    assert eps == BalancedAccountant(20_000, 0, 2.0).step(GaussianMechanism(1.0), T, 2, count=2).get_epsilon(1e-5)
    assert eps < epsilon_poisson_gaussian(1.0, 2 / T, 2 * T, 1e-5) and acc > 0.8, (eps, acc)

def test_label_dp_composes_rr_with_dp_sgd(digits):
    from trustnb.privacy.accounting import Accountant, GaussianMechanism
    from trustnb.privacy.label_dp import LabelRandomizedResponse
    from trustnb.privacy.opacus import label_dp_sgd
    d, _ = digits; yb = (d.y >= 5).astype(np.int64); rr = LabelRandomizedResponse(1.0)
    r = label_dp_sgd(d.X, yb, rr, noise_multiplier=1.0, epochs=3, seed=0)
    assert r.steps == 60 and r.label_epsilon == rr.epsilon
    assert r.epsilon == Accountant().step(rr).step(GaussianMechanism(1.0), 1 / 20, 60).get_epsilon(1e-5)
    assert r.epsilon > Accountant().step(GaussianMechanism(1.0), 1 / 20, 60).get_epsilon(1e-5)
    with torch.no_grad(): acc = float(((r.model(torch.as_tensor(d.X)).reshape(-1) > 0).numpy() == yb).mean())
    assert acc > 0.75, acc
    assert not any(hasattr(p, 'grad_sample') for p in r.model.parameters())   # opacus' state is gone from the returned model

def test_unlearning_certificate_through_opacus():
    pytest.importorskip('opacus')
    from trustnb.unlearn.certified import NoisyFinetuneUnlearner, _setup, _acc
    from trustnb.privacy.opacus import OpacusNoisyFinetuneUnlearner
    X, y, y_true, tr, f, r, te, tf, orig = _setup(1)
    kw = dict(epsilon=1.0, seed=1, device='cpu', T=20, finetune_steps=50)
    native = NoisyFinetuneUnlearner(**kw).fit(X[tr], y[tr], model=orig, ids=tr).unlearn(f)
    u = OpacusNoisyFinetuneUnlearner(**kw).fit(X[tr], y[tr], model=orig, ids=tr); via = u.unlearn(f)
    assert abs(via.certificate.epsilon - native.certificate.epsilon) <= 1e-9 and abs(via.certificate.sigma - native.certificate.sigma) <= 1e-12
    assert via.n_retained == native.n_retained and len(u.ids_) == len(tr) - len(f)
    a_n, a_o = _acc(native.model, X[te], y_true[te]), _acc(via.model, X[te], y_true[te]); print(f'accuracy native {a_n:.3f} opacus {a_o:.3f}')
    assert abs(a_n - a_o) <= 0.05

def test_registered_name_epsilon_calibration_and_checkpoint(digits, tmp_path):
    from opacus import PrivacyEngine
    from trustnb.privacy.accounting import Accountant, GaussianMechanism
    from trustnb.privacy.opacus import OpacusAccountant
    _, ds = digits
    # re-run the module's code in a fresh namespace, as an in-process notebook runner (nbdev's test_nb) does with the
    # notebook's cells: opacus' registry is process-wide, and must still build the library's class afterwards
    import trustnb.privacy.opacus as mod
    import types
    copy_ = types.ModuleType('notebook_copy'); copy_.__package__ = 'trustnb.privacy'; sys.modules['notebook_copy'] = copy_
    try: exec(compile(Path(mod.__file__).read_text(), 'notebook_copy', 'exec'), copy_.__dict__)
    finally: del sys.modules['notebook_copy']
    assert copy_.OpacusAccountant is not OpacusAccountant
    pe = PrivacyEngine(accountant='trustnb_pld'); assert isinstance(pe.accountant, OpacusAccountant), type(pe.accountant).__module__
    with torch.random.fork_rng(): torch.manual_seed(0); m = nn.Linear(64, 10)
    opt = torch.optim.SGD(m.parameters(), lr=0.5)
    m2, o2, dl = pe.make_private_with_epsilon(module=m, optimizer=opt, data_loader=torch.utils.data.DataLoader(ds, batch_size=180),
                                              target_epsilon=3.0, target_delta=1e-5, epochs=2, max_grad_norm=1.0)
    z = o2.noise_multiplier; q = 1 / len(dl)
    e = Accountant().step(GaussianMechanism(z), q, int(2 / q)).get_epsilon(1e-5)
    assert 3.0 - 0.011 <= e <= 3.0, (z, e)   # opacus' bisection tolerance (0.01) on our ε
    pe.accountant.history = [(z, q, 7)]; pe.save_checkpoint(path=tmp_path / 'ck.pt', module=m2, optimizer=o2)
    pe2 = PrivacyEngine(accountant='trustnb_pld')
    pe2.load_checkpoint(path=tmp_path / 'ck.pt', module=m2, optimizer=o2)
    assert pe2.accountant.history == [(z, q, 7)] and pe2.get_epsilon(1e-5) == pe.get_epsilon(1e-5)
