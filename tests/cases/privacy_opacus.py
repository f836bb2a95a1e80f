"Contract cases for trustnb.privacy.opacus (chapter 4, issue 26.1): the accountants, the loader and the loss; the training runs are in tests/test_scale_opacus.py."
import numpy as np
import torch
from torch.utils.data import TensorDataset
from contract import Case, Est
from trustnb.privacy import opacus as OP
from trustnb.privacy.balanced_subsampling import PoissonSampler
from trustnb.privacy.label_dp import LabelRandomizedResponse

OP.require_opacus()  # without the `scale` extra this raises "pip install 'trustnb[scale]'" and the family's cases are skipped

_ds = TensorDataset(torch.zeros(20, 3), torch.zeros(20, dtype=torch.long))
_X = np.random.default_rng(0).normal(size=(20, 3)); _y = (np.arange(20) % 2).astype(np.int64)
CASES = [
    Case(OP.OpacusAccountant, dict(method='pld', neighboring='add_remove', discretization=1e-3), kinds=dict(discretization='positive'),
         then=lambda a: (a.step(noise_multiplier=1.0, sample_rate=0.1), a.get_epsilon(1e-5))[1]),
    Case(OP.BalancedOpacusAccountant, dict(T=4, k=1, n_mc=200, seed=0, z=2.0), kinds=dict(T='count', k='count', n_mc='count', seed='nonneg', z='nonneg')),
    Case(OP.UnlearningOpacusAccountant, dict(C0=1.0, C1=1.0, lr=0.01, weight_decay=50.0, batch_size=10),
         kinds=dict(C0='positive', C1='positive', lr='positive', weight_decay='nonneg', batch_size='count')),
    Case(OP.sampler_loader, dict(dataset=_ds, sampler=PoissonSampler(20, 0.25, 4), seed=0), kinds=dict(seed='nonneg'), skip=('dataset',)),  # any map-style dataset
    Case(OP.rr_nll, dict(logits=torch.zeros(4), y_tilde=torch.tensor([0., 1., 1., 0.]), mechanism=LabelRandomizedResponse(1.0))),
    Case(OP.label_dp_sgd, dict(X=_X, y=_y, mechanism=LabelRandomizedResponse(1.0), noise_multiplier=1.0, max_grad_norm=1.0, epochs=1,
                               steps_per_epoch=2, lr=1.0, delta=1e-5, seed=0),
         kinds=dict(noise_multiplier='positive', max_grad_norm='positive', epochs='count', steps_per_epoch='count', lr='positive', delta='prob', seed='nonneg')),
]
def _net():
    with torch.random.fork_rng(): torch.manual_seed(0); return torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.ReLU(), torch.nn.Linear(8, 2))
ESTIMATORS = [Est(make=lambda: OP.OpacusNoisyFinetuneUnlearner(T=2, finetune_steps=2, train_steps=3, device='cpu'),
                  fit_args=lambda: ((_X.astype(np.float32), _y), dict(model=_net())), methods=('predict', 'predict_proba'), compare='predict_proba')]
EXEMPT = {
    'trustnb.privacy.opacus.require_opacus': 'no arguments (raises the extra-naming ImportError; tested in tests/test_scale_opacus.py)',
    'trustnb.privacy.opacus.make_private': 'wraps a live model/optimizer/loader triple in opacus (stateful: a second call on the same module fails in opacus); bad inputs are test_fail cases in the notebook, runs in tests/test_scale_opacus.py',
    'trustnb.privacy.opacus.PrivateTraining': 'result dataclass built by make_private',
    'trustnb.privacy.opacus.LabelDPRun': 'result dataclass built by label_dp_sgd',
}
