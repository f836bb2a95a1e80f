"Contract cases for chapter 9 (trustnb.learn)."
import numpy as np
import torch
from contract import Case
from trustnb.learn import f_divergence as FD

_T = torch.randn(4, 6, generator=torch.Generator().manual_seed(0), dtype=torch.float64)
CASES = [
    Case(FD.Alpha, dict(alpha=1.5), kinds=dict(alpha='positive')),
    Case(FD.f_softargmax, dict(logits=np.array([[1.0, 2.0, 0.5], [0.0, 0.0, 1.0]]), f=FD.Alpha(1.5), n_iter=30, dim=-1), kinds=dict(n_iter='count'), skip=('q',), legal=dict(logits=('extra_dim',))),  # (..., n): any leading shape
    Case(FD.f_softmax, dict(logits=np.array([[1.0, 2.0, 0.5], [0.0, 0.0, 1.0]]), f=FD.Alpha(1.5), n_iter=30, dim=-1), kinds=dict(n_iter='count'), skip=('q',), legal=dict(logits=('extra_dim',))),
    Case(FD.divergence, dict(p=np.array([0.2, 0.8]), q=np.array([0.5, 0.5]), f=FD.KL()), legal=dict(p=('extra_dim',), q=('extra_dim',))),  # (..., n): batches broadcast
    Case(FD.FDivergenceLoss, dict(f=FD.Alpha(1.5), reduction='mean', n_iter=30), kinds=dict(n_iter='count'), skip=('q',),
         then=lambda m: m(_T, torch.tensor([0, 1, 2, 5])).detach()),
    Case(FD.f_distill_loss, dict(student_logits=_T, teacher_probs=torch.softmax(_T.flip(0), -1), f=FD.Alpha(1.5), n_iter=30, reduction='mean'), kinds=dict(n_iter='count'), skip=('q',)),
    Case(FD.f_divergence_loss, dict(logits=_T, target=torch.tensor([0, 1, 2, 5]), f=FD.Alpha(1.5), n_iter=30, reduction='mean'), kinds=dict(n_iter='count'), skip=('q',)),
    Case(FD.lm_loss_comparison, dict(losses={'kl': FD.KL()}, mode='pretrain', steps=2, n_layer=1, d_model=8, n_ctx=8, batch_size=2, lr=1e-3, seed=0),
         kinds=dict(steps='count', n_layer='count', d_model='count', n_ctx='count', batch_size='count', lr='positive', seed='nonneg'), skip=('losses',)),  # losses: a dict of generators
    Case(FD.digits_experiment, dict(f=FD.Alpha(1.5), epochs=1, seed=0), kinds=dict(epochs='count')),
]
EXEMPT = {
    'trustnb.learn.f_divergence.char_corpus': 'no arguments (returns the offline text corpus)',
    'trustnb.learn.f_divergence.KL': 'no arguments (a generator record)',
    'trustnb.learn.f_divergence.ReverseKL': 'no arguments (a generator record)',
    'trustnb.learn.f_divergence.ChiSquare': 'no arguments (a generator record)',
    'trustnb.learn.f_divergence.Hellinger': 'no arguments (a generator record)',
    'trustnb.learn.f_divergence.JensenShannon': 'no arguments (a generator record)',
    'trustnb.learn.f_divergence.FDivergence': 'a user-supplied generator; checked for convexity, f(1)=0 and inverse consistency where it is used (f_softargmax)',
    'trustnb.learn.f_divergence.f_divergence_claim': 'the registered reproduction (runs digits_experiment, covered)',
}
