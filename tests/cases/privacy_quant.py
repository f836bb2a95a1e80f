"Contract cases for trustnb.privacy.quant_gap (chapter 4)."
import numpy as np
import torch
from torch import nn
from contract import Case
from trustnb.privacy import quant_gap as QG

_w = np.random.default_rng(0).normal(size=(2, 64)).astype(np.float32)
_m = nn.Sequential(nn.Linear(64, 32), nn.ReLU(), nn.Linear(32, 3))
_X = np.random.default_rng(1).normal(size=(8, 64)).astype(np.float32)
CASES = [
    Case(QG.quantize_dequantize, dict(w=_w, qtype='Q4_0')),
    Case(QG.pack_gguf, dict(w=np.random.default_rng(2).normal(size=(2, 256)).astype(np.float32), qtype='Q4_K')),
    Case(QG.quantization_box, dict(w=_w, qtype='Q8_0', shrink=0.9), kinds=dict(shrink='prob')),
    Case(QG.quantize_model, dict(model=_m, qtype='Q8_0'), skip=('model',)),  # model: any torch module
    Case(QG.quant_gap_audit, dict(model=_m, X=_X, qtypes=['Q8_0', 'Q4_0'], threshold=0.05), kinds=dict(threshold='prob'), skip=('model',)),
    Case(QG.quant_gap_attack, dict(steps=2, qtype='Q4_0', source=3, target=8, seed=0), kinds=dict(steps='count')),
]
EXEMPT = {
    'trustnb.privacy.quant_gap.AttackResult': 'result record returned by `quant_gap_attack` (covered through it)',
    'trustnb.privacy.quant_gap.QuantBox': 'result record returned by `quantization_box` (covered through it)',
    'trustnb.privacy.quant_gap.AuditResult': 'result record returned by `quant_gap_audit` (covered through it)',
    'trustnb.privacy.quant_gap.quant_gap_claim': 'the registered reproduction (runs quant_gap_attack and quant_gap_audit, covered)',
}
