"Contract cases for trustnb.internals.icl_circuit (chapter 2: the ICL inference circuit)."
import numpy as np
import torch
from contract import Case
from trustnb.core import local_seed
from trustnb.internals import icl_circuit as IC

def _gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel
    with local_seed(0):
        return GPT2LMHeadModel(GPT2Config(vocab_size=12, n_embd=8, n_layer=2, n_head=2, n_positions=16, resid_pdrop=0, embd_pdrop=0, attn_pdrop=0)).eval()

_m = _gpt2()
# prompts over a 12-token vocabulary: forerunner 4, labels 5-7, text tokens 8-11; two demos and a query
_ids = torch.tensor([[1, 8, 4, 5, 9, 4, 6, 10, 4], [1, 9, 4, 6, 11, 4, 7, 8, 4], [1, 10, 4, 7, 8, 4, 5, 9, 4], [1, 11, 4, 5, 10, 4, 6, 11, 4]])
_mask = torch.ones_like(_ids)
_tg = torch.tensor([5, 6, 7, 5])
_cls = np.array([[0, 1, 0], [1, 2, 1], [2, 0, 2], [0, 1, 1]])
_P = IC.ICLCircuitProbe(_m, 4, [5, 6, 7], layers=(0, 1), batch_size=2)
_E = _P.step_edges(_ids, 'retrieval')
_lang = IC.ICLClassification(n_demos=4, n_classes=4, tokens_per_class=2, text_len=3, p_pure=0.5, p_fixed=0.5)
_lm = IC.train_icl_lm(_lang, n_layer=1, d_model=8, n_head=2, steps=1, batch_size=2, seed=0, cache=False)

def _enter(cm):
    with cm: return _m(_ids).logits.detach()

CASES = [
    Case(IC.remove_edges, dict(model=_m, edges={1: _E[1]}), then=_enter),
    Case(IC.ICLClassification, dict(n_demos=4, n_classes=4, tokens_per_class=2, text_len=3, p_pure=0.5, p_fixed=0.5),
         kinds=dict(n_demos='count', n_classes='count', tokens_per_class='count', text_len='count', p_pure='prob', p_fixed='prob'),
         then=lambda l: l.sample(2, 0)[0].prompt),
    Case(_lang.sample, dict(n=3, seed=0, p_fixed=0.0), kinds=dict(n='count', seed='nonneg', p_fixed='prob'), id='trustnb.internals.icl_circuit.ICLClassification.sample',
         then=lambda ex: [e.prompt for e in ex]),
    Case(IC.train_icl_lm, dict(language=_lang, n_layer=1, d_model=8, n_head=2, steps=2, batch_size=2, lr=1e-3, seed=0, cache=False),
         kinds=dict(n_layer='count', d_model='count', n_head='count', steps='count', batch_size='count', lr='positive', seed='nonneg'),
         then=lambda lm: lm.model.transformer.wte.weight.detach()),
    Case(IC.ICLCircuitProbe, dict(model=_m, forerunner_token_id=4, label_token_ids=[5, 6, 7], layers=(0,), batch_size=2),
         kinds=dict(forerunner_token_id='nonneg', batch_size='count'), then=lambda p: p.accuracy(_ids, _tg)),
    Case(_P.positions, dict(input_ids=_ids, attention_mask=_mask), id='trustnb.internals.icl_circuit.ICLCircuitProbe.positions', then=lambda p: (p.s, p.y, p.q)),
    Case(_P.step_edges, dict(input_ids=_ids, step='merge', layers=(1,), attention_mask=_mask), id='trustnb.internals.icl_circuit.ICLCircuitProbe.step_edges',
         then=lambda e: e[1]),
    Case(IC.random_edges, dict(edges=_E, attention_mask=_mask, control='matched', seed=0), kinds=dict(seed='nonneg'), then=lambda e: e[0]),
    Case(_P.accuracy, dict(input_ids=_ids, targets=_tg, attention_mask=_mask, edges=_E), id='trustnb.internals.icl_circuit.ICLCircuitProbe.accuracy'),
    Case(_P.ablate, dict(input_ids=_ids, targets=_tg, step='retrieval', layers=(0, 1), control='uniform', seed=0, attention_mask=_mask),
         kinds=dict(seed='nonneg'), id='trustnb.internals.icl_circuit.ICLCircuitProbe.ablate'),
    Case(IC.attention_patterns, dict(model=_m, input_ids=_ids, attention_mask=_mask, edges=_E)),
    Case(_P.encode_scores, dict(input_ids=_ids, classes=_cls, attention_mask=_mask, reference=np.eye(3)[_cls.ravel()] + 0.1, fit_share=0.5, n_neighbors=2),
         kinds=dict(fit_share='prob', n_neighbors='count'), id='trustnb.internals.icl_circuit.ICLCircuitProbe.encode_scores',
         then=lambda s: (s.centroid_accuracy, s.kernel_alignment, s.cka)),
    Case(_P.merge_scores, dict(input_ids=_ids, attention_mask=_mask), id='trustnb.internals.icl_circuit.ICLCircuitProbe.merge_scores'),
    Case(_P.retrieval_scores, dict(input_ids=_ids, classes=_cls, attention_mask=_mask), id='trustnb.internals.icl_circuit.ICLCircuitProbe.retrieval_scores',
         then=lambda s: (s.attention, s.correct, s.similarity_corr)),
    Case(IC.icl_batch, dict(lm=_lm, n=3, seed=0), kinds=dict(n='count', seed='nonneg')),
    Case(IC.icl_probe, dict(lm=_lm), then=lambda p: p.label_ids),
]
EXEMPT = {
    'trustnb.internals.icl_circuit.EDGE_ATTENTION': 'a constant: the name registered with AttentionInterface',
    'trustnb.internals.icl_circuit.STEPS': 'a constant: the circuit steps',
    'trustnb.internals.icl_circuit.CONTROLS': 'a constant: the random-control kinds',
    'trustnb.internals.icl_circuit.ICL_LANGUAGE': "a constant: the reproduction's language settings",
    'trustnb.internals.icl_circuit.ICL_LM': "a constant: the reproduction's model settings",
    'trustnb.internals.icl_circuit.ICLPositions': 'the record ICLCircuitProbe.positions returns (covered through it)',
    'trustnb.internals.icl_circuit.EncodeScores': 'the record encode_scores returns (covered through it)',
    'trustnb.internals.icl_circuit.RetrievalScores': 'the record retrieval_scores returns (covered through it)',
    'trustnb.internals.icl_circuit.icl_lm': 'trains the reproduction model (2000 steps, ~60 s uncached); its seed is checked by check_int, train_icl_lm has a Case',
    'trustnb.internals.icl_circuit.icl_circuit_experiment': 'trains icl_lm(seed) (~60 s uncached) before measuring; its arguments are checked first (check_int); run by the notebook',
    'trustnb.internals.icl_circuit.icl_circuit_claim': 'the registered reproduction (runs icl_circuit_experiment at its defaults)',
}

# bad inputs that are wrong only in relation to another argument (issue 24): (id, a call that must raise, what the message names)
def _bloom_cut():
    import transformers as T
    with local_seed(0): b = T.BloomForCausalLM(T.BloomConfig(vocab_size=12, hidden_size=8, n_layer=2, n_head=2)).eval()
    with IC.remove_edges(b, {0: _E[0]}): b(_ids)
def _wide_cut():
    with IC.remove_edges(_m, {0: torch.zeros(4, 12, 12, dtype=torch.bool)}): _m(_ids)
RELATIONAL = [
    ('remove_edges: a model whose attention bypasses AttentionInterface', _bloom_cut, "does not compute its attention through transformers' AttentionInterface"),
    ('remove_edges: edges of another sequence length', _wide_cut, '`edges` of layer 0 have shape'),
    ('accuracy: targets of another length', lambda: _P.accuracy(_ids, _tg[:2]), '`targets`'),
]
