"Contract cases for trustnb.internals.safety_neurons (chapter 2: SN-Tune / RSN-Tune)."
import numpy as np
import torch
from contract import Case
from trustnb.internals import safety_neurons as SN

def _gpt2():
    from transformers import GPT2Config, GPT2LMHeadModel
    g = torch.Generator().manual_seed(0)
    m = GPT2LMHeadModel(GPT2Config(vocab_size=12, n_embd=8, n_layer=1, n_head=2, n_positions=8, resid_pdrop=0, embd_pdrop=0, attn_pdrop=0)).eval()
    with torch.no_grad():
        for p in m.parameters(): p.copy_(torch.randn(p.shape, generator=g) * 0.2)
    return m

_m = _gpt2()
_ids = torch.randint(0, 12, (4, 5), generator=torch.Generator().manual_seed(1))
_mask = torch.ones(4, 5, dtype=torch.long)
_loss = torch.zeros(4, 5, dtype=torch.bool); _loss[:, 3:] = True
_imp = SN.neuron_importance(_m, _ids, _mask)
_ref = SN.neuron_importance(_m, _ids.flip(1), _mask)
_S = SN.detect_neurons(_imp, n_neurons=3)
_lm = SN.toy_lm('requests')
_H, _N = _lm.language.sample(3, 0, kind='harmful'), _lm.language.sample(3, 1, kind='harmless')

CASES = [
    Case(SN.neuron_importance, dict(model=_m, input_ids=_ids, attention_mask=_mask, layers=(0,), kinds=('mlp', 'attn'), positions='all', batch_size=2),
         kinds=dict(batch_size='count'), then=lambda r: r.scores),
    Case(SN.detect_neurons, dict(importance=_imp, n_neurons=3, quantile=0.0, reference=_ref), kinds=dict(n_neurons='count', quantile='prob'),
         then=lambda s: s.index, id='trustnb.internals.safety_neurons.detect_neurons[n_neurons]'),
    Case(SN.detect_neurons, dict(importance=_imp, eps=0.05, quantile=0.5), kinds=dict(eps='nonneg', quantile='prob'),
         then=lambda s: s.index, id='trustnb.internals.safety_neurons.detect_neurons[eps]'),
    Case(SN.random_neurons, dict(like=_S, seed=0), kinds=dict(seed='nonneg'), then=lambda s: s.index),
    Case(_S.difference, dict(other=SN.random_neurons(_S, seed=1)), id='trustnb.internals.safety_neurons.NeuronSet.difference', then=lambda s: s.index),
    Case(_S.intersection, dict(other=SN.random_neurons(_S, seed=1)), id='trustnb.internals.safety_neurons.NeuronSet.intersection', then=lambda s: s.index),
    Case(SN.neuron_masks, dict(model=_m, neurons=_S, inputs=True)),
    Case(SN.masked_finetune, dict(model=_m, input_ids=_ids, attention_mask=_mask, loss_mask=_loss, trainable=_S, frozen=None, inputs=False,
                                  steps=2, lr=1e-2, batch_size=2, seed=0),
         kinds=dict(steps='count', lr='positive', batch_size='count', seed='nonneg'), then=lambda r: r.losses),
    Case(SN.answer_batch, dict(lm=_lm, examples=_H + _N)),
    Case(SN.tune_lm, dict(lm=_lm, examples=_H + _N, trainable=None, frozen=None, steps=1, lr=1e-3, batch_size=2, seed=0),
         kinds=dict(steps='count', lr='positive', batch_size='count', seed='nonneg'), then=lambda lm: lm.model.transformer.wte.weight.detach()),
    Case(SN.safety_report, dict(lm=_lm, harmful=_H, harmless=_N), then=lambda r: (r.refusal, r.over_refusal, r.harmless_accuracy, r.margin)),
    Case(SN.safety_neuron_experiment, dict(n_neurons=4, n_foundation=8, weaken_steps=1, tune_steps=1, lr=1e-2, downstream_steps=1,
                                           downstream_lr=1e-3, n_train=8, n_test=4, seed=0, cache=False),
         kinds=dict(n_neurons='count', n_foundation='count', weaken_steps='count', tune_steps='count', lr='positive', downstream_steps='count',
                    downstream_lr='positive', n_train='count', n_test='count', seed='nonneg'),
         then=lambda r: {k: v['report']['refusal'] for k, v in r['rows'].items()}),
]
EXEMPT = {
    'trustnb.internals.safety_neurons.NeuronImportance': 'the record neuron_importance returns (covered through it)',
    'trustnb.internals.safety_neurons.NeuronSet': 'the record detect_neurons / random_neurons return (covered through them; difference and intersection have Cases)',
    'trustnb.internals.safety_neurons.FinetuneResult': 'the record masked_finetune returns (covered through it)',
    'trustnb.internals.safety_neurons.SafetyReport': 'the record safety_report returns (covered through it)',
    'trustnb.internals.safety_neurons.safety_neurons_claim': 'the registered reproduction (runs safety_neuron_experiment at its defaults, ~60 s uncached; covered)',
    'trustnb.internals.safety_neurons.KINDS': 'a constant: the neuron kinds',
}

# bad inputs that are wrong only in relation to another argument (issue 24): (id, a call that must raise, what the message names)
def _other():
    import transformers as T
    from trustnb.core import local_seed
    with local_seed(1): return T.GPT2LMHeadModel(T.GPT2Config(vocab_size=12, n_embd=16, n_layer=2, n_head=2, n_positions=8)).eval()
def _big(): return SN.detect_neurons(SN.neuron_importance(_other(), _ids, _mask), n_neurons=3)
RELATIONAL = [
    ('neuron_masks: a NeuronSet detected on another model', lambda: SN.neuron_masks(_m, _big()), 'detected on another model'),
    ('detect_neurons: reference importance of another model', lambda: SN.detect_neurons(_imp, n_neurons=3, reference=SN.neuron_importance(_other(), _ids, _mask)),
     '`reference` must cover the same groups and widths'),
    ('neuron_importance: attention mask not 0/1', lambda: SN.neuron_importance(_m, _ids, _mask * 2), '`attention_mask` must hold only 0 and 1'),
]
