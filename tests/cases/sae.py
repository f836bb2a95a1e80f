"Contract cases for chapter 1, sparse dictionaries (trustnb.sae.*): every export with one tiny valid call."
import tempfile
import numpy as np
import torch
from torch import nn
from contract import Case, Est
from trustnb.core import local_seed
from trustnb.sae import core as C, matryoshka as M, universal as U, jacobian as J, hypothesaes as H

_rng = np.random.default_rng(0)
_X = _rng.standard_normal((32, 4)).astype(np.float32)
_Xt = torch.as_tensor(_X)
_Z = np.abs(_rng.standard_normal((6, 8))).astype(np.float32)
_ACTS = {'a': _rng.standard_normal((32, 3)).astype(np.float32), 'b': _rng.standard_normal((32, 2)).astype(np.float32)}
_PATH = ('path',)  # any string is a valid path: the battery's 'unknown_option' string would write into the working directory

def _topk(): return C.TopKSAE(4, 8, k=2, seed=0)
_SAE = _topk()
with local_seed(0): _MLP = nn.Sequential(nn.Linear(3, 6), nn.GELU(), nn.Linear(6, 2))
_JS = J.JacobianSAE(_MLP, 3, 2, n_latents=8, k=2, seed=0).eval()
_DIR = tempfile.mkdtemp(prefix='trustnb_sae_cases_')
C.save_sae(_SAE, f'{_DIR}/ours'); C.save_saelens(_SAE, f'{_DIR}/saelens')
_HD = H.make_headlines(40, seed=0); _E = _rng.standard_normal((40, 8)).astype(np.float32)

class _Fresh:
    "Call `fn(fresh_model, **kw)` (the battery calls a training function many times; each call gets an untrained model)."
    def __init__(self, fn, make, qualname):
        self.fn, self.make, self.__module__, self.__qualname__ = fn, make, fn.__module__, qualname
    def __call__(self, **kw): return self.fn(self.make(), **kw)

class _Method:
    "A method of a fixed model, as a Case (its arguments get the battery)."
    def __init__(self, obj, name, qualname):
        self.obj, self.name, self.__module__, self.__qualname__ = obj, name, type(obj).__module__, qualname
    def __call__(self, **kw): return getattr(self.obj, self.name)(**kw)

_enc = lambda s: s.encode(_Xt[:, :s.d_in] if s.d_in <= 4 else torch.zeros(2, s.d_in))
_MS = M.MatryoshkaSAE(4, 16, ks=(1, 2), seed=0)
_U = U.UniversalSAE({'a': 3, 'b': 2}, 8, 2, seed=0)
_IND = {n: C.TopKSAE(_ACTS[n].shape[1], 8, 2, seed=i) for i, n in enumerate(_ACTS)}
_PERMS = U.match_latents(_IND, _ACTS)

CASES = [
    # core: registry and classes (each constructor, then a real encode)
    Case(C.register_sae, dict(name='my_arch'), legal=dict(name=('unknown_option',))),  # any new name may be registered
    Case(C.make_sae, dict(arch='topk', d_in=4, n_latents=8, k=2), kinds=dict(d_in='count', n_latents='count', k='count'), then=_enc),
    Case(C.SAE, dict(d_in=4, n_latents=8, seed=0), kinds=dict(d_in='count', n_latents='count'), then=_enc),
    Case(C.ReluSAE, dict(d_in=4, n_latents=8, l1_coeff=0.1, seed=0), kinds=dict(d_in='count', n_latents='count', l1_coeff='nonneg'), then=_enc),
    Case(C.TopKSAE, dict(d_in=4, n_latents=8, k=2, seed=0), kinds=dict(d_in='count', n_latents='count', k='count'), then=_enc),
    Case(C.BatchTopKSAE, dict(d_in=4, n_latents=8, k=2, momentum=0.9, seed=0), kinds=dict(k='count', momentum='prob'), then=_enc),
    Case(C.JumpReLUSAE, dict(d_in=4, n_latents=8, l0_coeff=0.1, bandwidth=0.05, threshold=0.05, seed=0),
         kinds=dict(l0_coeff='nonneg', bandwidth='positive', threshold='positive'), then=_enc),
    Case(_Method(_SAE, 'encode', 'SAE.encode'), dict(x=_X)),
    Case(_Method(_SAE, 'encode', 'SAE.encode[torch]'), dict(x=_Xt)),
    Case(_Method(_SAE, 'decode', 'SAE.decode'), dict(z=_Z)),
    Case(C.aux_k_loss, dict(sae=_SAE, x=_Xt, x_hat=_Xt * 0.5, pre=torch.randn(32, 8, generator=torch.Generator().manual_seed(0)),
                            dead_mask=torch.tensor([True, False] * 4), k_aux=2), kinds=dict(k_aux='count')),
    Case(C.topk_codes, dict(pre=_Z, k=2), kinds=dict(k='count')),
    Case(C.fvu, dict(x=_X, x_hat=_X * 0.9)), Case(C.cosine_sim, dict(x=_X, x_hat=_X * 0.9)),
    Case(C.l0, dict(z=_Z)), Case(C.dead_fraction, dict(z=_Z)),
    Case(C.recovery, dict(learned=_Z[:, :4], atoms=_X[:3])),
    Case(_Fresh(C.train_sae, _topk, 'train_sae'),
         dict(acts=_X, steps=3, lr=1e-3, batch_size=8, seed=0, warmup=0.1, decay=0.2, aux_coeff=0.03, log_every=1),
         kinds=dict(steps='count', lr='positive', batch_size='count', warmup='prob', decay='prob', aux_coeff='nonneg', log_every='count')),
    Case(C.save_sae, dict(sae=_SAE, path=f'{_DIR}/save'), skip=_PATH),
    Case(C.load_sae, dict(path=f'{_DIR}/ours'), then=_enc),
    Case(C.load_saelens, dict(path=f'{_DIR}/saelens'), then=_enc),
    Case(C.save_saelens, dict(sae=_SAE, path=f'{_DIR}/save_sl', metadata={'hook_name': 'h'}), skip=_PATH),
    Case(C.sae_core_claim, dict(seed=0, sham=False, n_runs=1, steps=2, l1_coeffs=(1.0,)), kinds=dict(seed='nonneg', n_runs='count', steps='count')),
    # matryoshka
    Case(M.level_weights, dict(m=3, weighting='reverse'), kinds=dict(m='count')),
    Case(M.default_ks, dict(d_in=16, n_latents=64), kinds=dict(d_in='count', n_latents='count')),
    Case(M.MatryoshkaSAE, dict(d_in=4, n_latents=16, ks=(1, 2), weighting='uniform', balance=True, seed=0),
         kinds=dict(d_in='count', n_latents='count'), then=_enc),
    Case(_Method(_MS, 'encode', 'MatryoshkaSAE.encode'), dict(x=_X, k=2), kinds=dict(k='count')),
    Case(M.PrefixMatryoshkaSAE, dict(d_in=4, n_latents=16, k=2, prefixes=[8, 16], momentum=0.9, seed=0),
         kinds=dict(k='count', momentum='prob'), then=_enc),
    Case(M.frontier, dict(X=_X, n_latents=8, ks=(1, 2), l1_coeffs=(0.5,), steps=2, lr=1e-3, batch_size=8, seed=0),
         kinds=dict(n_latents='count', steps='count', lr='positive', batch_size='count'), legal=dict(l1_coeffs=('empty',))),  # no ReLU-L1 baseline is a valid sweep
    # universal
    Case(U.UniversalSAE, dict(d_in={'a': 3, 'b': 2}, n_latents=8, k=2, seed=0), kinds=dict(n_latents='count', k='count'),
         then=lambda u: u.encode(_ACTS['a'], name='a')),
    Case(_Method(_U, 'encode', 'UniversalSAE.encode'), dict(x=_ACTS['a'], name='a')),
    Case(_Method(_U, 'decode', 'UniversalSAE.decode'), dict(z=_Z, name='b')),
    Case(_Fresh(U.train_usae, lambda: U.UniversalSAE({'a': 3, 'b': 2}, 8, 2, seed=0), 'train_usae'),
         dict(acts=_ACTS, steps=3, lr=1e-3, batch_size=8, seed=0, step_all_decoders=True), kinds=dict(steps='count', lr='positive', batch_size='count')),
    Case(U.cross_r2_matrix, dict(model=_U, acts=_ACTS)),
    Case(U.match_latents, dict(saes=_IND, acts=_ACTS)),
    Case(U.cofiring, dict(model=_IND, acts=_ACTS, perms=_PERMS, min_freq=0.01), kinds=dict(min_freq='prob')),
    # jacobian
    Case(J.JacobianSAE, dict(mlp=_MLP, d_in=3, d_out=2, n_latents=8, k=2, jacobian_coeff=1.0, at='input', dead_after=100, seed=0),
         kinds=dict(d_in='count', d_out='count', n_latents='count', k='count', jacobian_coeff='nonneg', dead_after='count'),
         then=lambda js: js.eval()(_ACTS['a']).J),
    Case(J.jacrev_jacobian, dict(jsae=_JS, x=_ACTS['a'][0])),
    Case(_Fresh(J.train_jsae, lambda: J.JacobianSAE(_MLP, 3, 2, n_latents=8, k=2, seed=0), 'train_jsae'),
         dict(acts=_ACTS['a'], steps=3, lr=1e-3, batch_size=8, seed=0), kinds=dict(steps='count', lr='positive', batch_size='count')),
    Case(J.jacobian_sparsity, dict(J=_JS(_ACTS['a']).J.detach(), thresh=0.01), kinds=dict(thresh='nonneg')),
    Case(J.reinit_mlp, dict(mlp=_MLP, seed=0)),
    # hypothesaes
    Case(H.select_features, dict(A=_E, y=_HD.y, n=2, method='lasso'), kinds=dict(n='count')),
    Case(H.NgramInterpreter, dict(n_terms=2, ngram_range=(1, 2), stop_words=H.STOP_WORDS), kinds=dict(n_terms='count'),
         legal=dict(stop_words=('empty',)), then=lambda ng: ng(['a loyal dog'], ['a young boy'])),
    Case(H.interpret_features, dict(texts=_HD.texts, A=np.abs(_E), idx=np.array([0, 3]), n_examples=3, dense=False, seed=0),
         kinds=dict(n_examples='count')),
    Case(H.recovery_f1, dict(annotations=_HD.concepts[:, :3], reference=_HD.concepts[:, 1:4], thresh=0.5), kinds=dict(thresh='prob')),
    Case(H.make_headlines, dict(n=20, weights={'dogs': 1.0}, noise=0.5, seed=0, per_text=2),
         kinds=dict(n='count', noise='nonneg', per_text='count')),
    Case(H.headline_task, dict(seed=0, n=20, n_drivers=2, noise=0.5), kinds=dict(seed='nonneg', n='count', n_drivers='count', noise='nonneg')),
    Case(H.HypothesisPipeline, dict(n_latents=16, k=2, n_select=2, steps=5, lr=1e-3, batch_size=8, n_examples=3, holdout=0.25, merge_corr=0.5, merge_cos=0.2, seed=0),
         kinds=dict(n_latents='count', k='count', n_select='count', steps='count', lr='positive', batch_size='count', n_examples='count', holdout='prob',
                    merge_corr='prob', merge_cos='prob'), then=lambda p: p.fit(_HD.texts, _HD.y, embeddings=_E).hypotheses_.score.values),
]

ESTIMATORS = [
    Est(make=lambda: H.HypothesisPipeline(n_latents=16, k=2, n_select=2, steps=10, batch_size=8, seed=0),
        fit_args=lambda: ((_HD.texts, _HD.y), dict(embeddings=_E)), methods=('transform',)),
]

COVERS = {J.active_jacobian,  # a method of JacobianSAE (JacobianSAE.active_jacobian), run by every JacobianSAE forward above
          C.train_sae, U.train_usae, J.train_jsae}  # run through `_Fresh` (a new untrained model per call)

EXEMPT = {
    'trustnb.sae.core.CheckpointNotFoundError': 'an exception type raised by load_sae/load_saelens; it takes no user input',
    'trustnb.sae.core.SAEOutput': 'the result every SAE forward returns; its __post_init__ validates nothing, it only defers building the dense codes from `active` (10_sae.core checks them against topk_codes)',
    'trustnb.sae.matryoshka.matryoshka_claim': 'registered reproduction claim: trains ten SAEs on a dictionary drawn from its seed (run by trustnb.repro); its sizes are validated by frontier',
    'trustnb.sae.matryoshka.plot_frontier': 'draws a figure from a fitted Frontier result; no numeric input of its own',
    'trustnb.sae.universal.universal_sae_claim': 'registered reproduction claim: needs the zoo digits classifiers and minutes of training (run by trustnb.repro)',
    'trustnb.sae.jacobian.jacobian_sae_claim': 'registered reproduction claim: needs the MiniLM weights and minutes of training (run by trustnb.repro)',
    'trustnb.sae.jacobian.minilm_mlp': 'needs a Hugging Face BERT model (MiniLM weights); `layer` is validated with check_int',
    'trustnb.sae.jacobian.mlp_io': 'needs a Hugging Face tokenizer and BERT model (MiniLM weights); `texts` is validated',
    'trustnb.sae.hypothesaes.hypothesaes_claim': 'registered reproduction claim: needs the MiniLM weights and trains three SAEs (run by trustnb.repro)',
}

# trustnb.sae.store (issue 26.3): every entry point writes or streams an on-disk store, or starts processes; each is run
# with real data and real processes in tests/test_scale_sae.py, and its bad inputs are checked in 10a_sae.at_scale ("Bad input").
_STORE = 'on-disk activation store (shards, memmaps)'
EXEMPT.update({
    'trustnb.sae.store.StoreWriter': f'writes an {_STORE}; `shard_rows`, dtype and widths validated (10a "Bad input"; tests/test_scale_sae.py)',
    'trustnb.sae.store.write_activation_store': f'runs an HF model over tokens into an {_STORE}; tested with a random GPT-2 in tests/test_scale_sae.py',
    'trustnb.sae.store.ActivationStore': f'opens an {_STORE} (a missing or corrupt folder is refused: 10a "Bad input")',
    'trustnb.sae.store.ActivationStream': 'built by ActivationStore.stream only (batch size, rank, world size, buffer validated there; property-tested in tests/test_scale_sae.py)',
    'trustnb.sae.store.latest_checkpoint': 'reads a checkpoint folder; tested in tests/test_scale_sae.py',
    'trustnb.sae.store.train_on_store': 'trains an SAE from a store (seconds); parity with train_sae and refusals of mismatched checkpoints in tests/test_scale_sae.py',
    'trustnb.sae.store.main': 'the command line a training process runs (torchrun ranks); run by tests/test_scale_sae.py',
    'trustnb.sae.store.start_training': 'starts a training process (or torchrun with ranks); tested with real processes in tests/test_scale_sae.py',
    'trustnb.sae.store.stop_training': 'stops a process tree from start_training; tested in tests/test_scale_sae.py',
    'trustnb.sae.store.finish_training': 'waits for a process from start_training and reads its result; timeouts tested in tests/test_scale_sae.py',
    'trustnb.sae.store.train_in_processes': 'start_training + finish_training; failures report the log (tests/test_scale_sae.py)',
})
