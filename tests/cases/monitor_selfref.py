"Contract cases for trustnb.monitor.self_ref (chapter 7: Self-REF confidence tokens, routing and rejection)."
import numpy as np
import torch
from contract import Case
from trustnb.core import local_seed
from trustnb.internals.toylm import ToyLM, Vocab, Example, _gpt2
from trustnb.monitor import self_ref as SR

_LANG = SR.SkillsAndFacts(n_known=8)
_V = Vocab(_LANG.symbols())
with local_seed(0): _M = _gpt2(len(_V), 1, 16, 2, 16).eval()   # a tiny random model, rigged to answer '<eos>' at once (an empty answer)
with torch.no_grad():
    _M.transformer.wte.weight[_V.eos_id] *= 3; _M.transformer.ln_f.weight.zero_(); _M.transformer.ln_f.bias.copy_(_M.transformer.wte.weight[_V.eos_id])
_LM = ToyLM(_M, _V, _LANG, {})
_EX = _LANG.sample(6, 0, split='eval')
_EXR = [Example(e.prompt, ['<eos>'], e.meta) for e in _EX[:3]] + _EX[3:]   # three answered right (the empty answer) by construction
_D = SR.build_selfref_dataset(_LM, _EXR, seed=0)
_LMC = SR.add_confidence_tokens(_LM)
_ANS = [SR._target(e) for e in _EX]
_rng = np.random.default_rng(0)
_C, _S, _L = _rng.random(20), _rng.random(20) < 0.6, _rng.random(20) < 0.9
_RC = SR.routing_curve(_C, _S, _L)

def _fresh_gpt2():
    with local_seed(1): return _gpt2(12, 1, 8, 2, 8).eval()

CASES = [
    Case(SR.extend_embeddings, dict(model=_fresh_gpt2(), n_new=2), kinds=dict(n_new='count'), then=lambda m: m.get_input_embeddings().weight.detach()),
    Case(SR.add_confidence_tokens, dict(lm=_LM), then=lambda lm: lm.model.get_input_embeddings().weight.detach()),
    Case(SR.SkillsAndFacts, dict(n_known=8, p_mod=0.6, digit_noise=0.25, p_known=0.5, known_seed=0),
         kinds=dict(n_known='count', p_mod='prob', digit_noise='prob', p_known='prob', known_seed='nonneg'), then=lambda L: [e.answer for e in L.sample(3, 0)]),
    Case(_LANG.make, dict(task='mod', x=407), id='SkillsAndFacts.make', then=lambda e: e.answer),
    Case(_LANG.sample, dict(n=4, seed=0, split='eval'), kinds=dict(n='count', seed='nonneg'), id='SkillsAndFacts.sample', then=lambda xs: [e.answer for e in xs]),
    Case(SR.answers_and_correct, dict(lm=_LM, examples=_EX), then=lambda r: r[1]),
    Case(SR.build_selfref_dataset, dict(lm=_LM, examples=_EXR, unconfident_ratio=1.0, seed=0), kinds=dict(unconfident_ratio='positive', seed='nonneg'),
         then=lambda d: d.confident),
    Case(SR.selfref_batch, dict(lm=_LMC, data=_D, mask_unconfident=True)),
    Case(SR.selfref_finetune, dict(lm=_LM, data=_D, steps=2, lr=1e-3, batch_size=4, trainable='last', mask_unconfident=True, seed=0),
         kinds=dict(steps='count', lr='positive', batch_size='count', seed='nonneg'), then=lambda f: f.losses),
    Case(SR.confidence_score, dict(lm=_LMC, prompts=_EX, answers=_ANS)),
    Case(SR.confidence_score, dict(lm=_LMC, prompts=_EX), id='trustnb.monitor.self_ref.confidence_score[greedy answers]'),
    Case(SR.answer_token_probability, dict(lm=_LM, prompts=_EX, answers=_ANS, reduce='min')),
    Case(SR.routing_curve, dict(confidence=_C, small_correct=_S, large_correct=_L), kinds=dict(small_correct='labels', large_correct='labels'),
         then=lambda r: (r.accuracy, r.auroc)),
    Case(SR.rejection_curve, dict(confidence=_C, correct=_S), kinds=dict(correct='labels'), then=lambda r: (r.accuracy, r.auroc)),
    Case(_RC.at, dict(rate=0.3), kinds=dict(rate='prob'), id='RoutingCurve.at'),
    Case(SR.simulate_large_model, dict(n=10, accuracy=0.95, seed=0), kinds=dict(n='count', accuracy='prob', seed='nonneg')),
]
EXEMPT = {
    'trustnb.monitor.self_ref.CONFIDENCE_TOKENS': "a constant: the tokens '<CN>' and '<UN>'",
    'trustnb.monitor.self_ref.SelfRefData': 'the record build_selfref_dataset returns (covered through it)',
    'trustnb.monitor.self_ref.SelfRefFit': 'the record selfref_finetune returns (covered through it)',
    'trustnb.monitor.self_ref.RoutingCurve': 'the record routing_curve / rejection_curve return (covered through them; its `at` has a Case)',
    'trustnb.monitor.self_ref.selfref_toy_lm': "trains (or loads) the reproduction's base model (500 steps); its parts, SkillsAndFacts and toylm.train_toy_lm, are covered",
    'trustnb.monitor.self_ref.selfref_experiment': 'one seed of the reproduction (trains the base model; ~15 s); its parts are covered',
    'trustnb.monitor.self_ref.selfref_claim': 'the registered reproduction (trains the base model of its seed and runs selfref_experiment on it)',
}
