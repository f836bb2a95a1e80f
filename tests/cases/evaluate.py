"Contract cases for chapter 8 (trustnb.evaluate)."
import numpy as np
from contract import Case
from trustnb.evaluate import ranking as R

_J = np.array([[0, 1, 1], [1, 2, 1], [2, 0, 0], [0, 3, 1], [3, 1, 0.5], [2, 3, 1], [1, 0, 1], [3, 0, 1], [3, 2, 0]] * 2, dtype=float)
_S = np.array([1.0, 0.3, -0.2, -1.0])

CASES = [
    Case(R.pairwise, dict(comparisons=_J, n_items=4), kinds=dict(n_items='count'), legal=dict(n_items=())),
    Case(R.elo, dict(comparisons=_J, k_factor=32.0, passes=2, initial=1500.0, seed=0), kinds=dict(k_factor='positive', passes='count'),
         legal=dict(initial=('negative', 'zero'))),
    Case(R.bradley_terry, dict(comparisons=_J, prior_strength=0.0, max_iter=500, tol=1e-8),
         kinds=dict(prior_strength='nonneg', max_iter='count', tol='positive')),
    Case(R.rank_centrality, dict(comparisons=_J, prior_strength=0.0), kinds=dict(prior_strength='nonneg')),
    Case(R.hodgerank, dict(comparisons=_J, flow='logit')),
    Case(R.aggregate, dict(comparisons=_J, method='hodgerank')),
    Case(R.rank_intervals, dict(comparisons=_J, method='elo', n_boot=10, confidence=0.9, seed=0),
         kinds=dict(n_boot='count', confidence='prob')),
    Case(R.simulate_judgments, dict(strengths=_S, n_comparisons=20, adversarial=0.1, tie_margin=0.0, seed=0),
         kinds=dict(n_comparisons='count', adversarial='prob', tie_margin='nonneg')),
    Case(R.recovery, dict(n_items=5, n_comparisons=60, seeds=1, adversarial=0.0, seed=0, shuffle_outcomes=False),
         kinds=dict(n_items='count', n_comparisons='count', seeds='count', adversarial='prob')),
]
EXEMPT = {
    'trustnb.evaluate.ranking.ranking_claim': 'the registered reproduction (runs `recovery`, which is covered)',
    'trustnb.evaluate.ranking.Comparisons': 'built only by `pairwise`, which validates it',
}

from trustnb.evaluate import improvement_feedback as IF
_P = np.array([[0, 1, 2, 3], [1, 0, 2, 3], [2, 3, 1, 0], [3, 0, 1, 2]])
CASES += [
    Case(IF.check_profile, dict(profile=_P), skip=('name',)),
    Case(IF.feedback_distribution, dict(profile=_P, t=2, weights='linear'), kinds=dict(t='count')),
    Case(IF.improvement_feedback, dict(ranking=np.array([2, 0, 1, 3]), candidate=1, t=1, weights='uniform', seed=0), kinds=dict(t='count', candidate='nonneg')),
    Case(IF.winners, dict(profile=_P, rule='borda')),
    Case(IF.plurality_from_feedback, dict(F=IF.feedback_distribution(_P, 1))),
    Case(IF.indistinguishable, dict(profile_a=_P, profile_b=_P[::-1], t=1, atol=1e-12), kinds=dict(t='count', atol='nonneg')),
    Case(IF.find_indistinguishable, dict(m=3, n=3, t=1, rule='condorcet', max_profiles=1000), kinds=dict(m='count', n='count', t='count', max_profiles='count')),
    Case(IF.sample_profile, dict(n=5, m=4, model='mallows', phi=0.5, seed=0), kinds=dict(n='count', m='count', phi='prob'), legal=dict(phi=())),
    Case(IF.elicitation_accuracy, dict(n=10, m=4, rule='borda', feedback='improvement', model='mallows', phi=0.5, t=1, n_trials=3, seed=0),
         kinds=dict(n='count', m='count', t='count', n_trials='count', phi='prob')),
    Case(IF.plurality_recovery, dict(n_profiles=2, n=11, m=4, phi=0.5, model='mallows', n_queries=50, seed=0),
         kinds=dict(n_profiles='count', n='count', m='count', n_queries='count', phi='prob')),
    Case(IF.pairwise_distribution, dict(profile=_P)),
    Case(IF.s_star, dict(m=4, t=2, weights='linear'), kinds=dict(m='count', t='count')),
    Case(IF.computable_rules, dict(m=4, t=1, weights='uniform', feedback='improvement'), kinds=dict(m='count', t='count')),
    Case(IF.is_computable, dict(scores=np.array([3., 2, 1, 0]), t=1, weights='uniform', feedback='improvement'), kinds=dict(t='count')),
    Case(IF.scoring_winners, dict(profile=_P, scores=np.array([3., 2, 1, 0]))),
    Case(IF.scores_from_feedback, dict(F=IF.feedback_distribution(_P, 1), scores=np.array([2., 1, 1, 0]), t=1, weights='uniform'), kinds=dict(t='count')),
    Case(IF.indistinguishable_pair, dict(scores=np.array([3., 2, 1, 0]), t=1, weights='uniform', feedback='improvement', seed=0, max_tries=20),
         kinds=dict(t='count', max_tries='count')),
    Case(IF.characterisation_check, dict(m=4, t=1, weights='uniform', n_random=1, n_profiles=1, seed=0),
         kinds=dict(m='count', t='count', n_random='count', n_profiles='count'), skip=('star',)),
]
EXEMPT['trustnb.evaluate.improvement_feedback.improvement_feedback_claim'] = 'the registered reproduction (runs characterisation_check, covered)'
EXEMPT['trustnb.evaluate.improvement_feedback.WEIGHTS'] = 'a constant: the answer laws'

import torch
from trustnb.evaluate import win_rate as WR
_T = WR.make_tabular_task(n_prompts=3, n_responses=4, n_pairs=30, n_seen=3, seed=0)
_LP = torch.log(torch.as_tensor(_T.reference))
CASES += [
    Case(WR.make_tabular_task, dict(n_prompts=3, n_responses=4, n_pairs=30, n_seen=3, seed=0), kinds=dict(n_prompts='count', n_responses='count', n_pairs='count', n_seen='count')),
    Case(WR.win_rate, dict(policy=_T.reference, anchor=_T.reference, pref=_T.pref), skip=('h', 'prompt_weights')),
    Case(WR.dpo_loss, dict(logp=_LP, ref_logp=_LP, data=_T.data, beta=0.1), kinds=dict(beta='positive'), skip=('logp', 'ref_logp'), legal=dict(beta=('zero', 'negative'))),
    Case(WR.sft_loss, dict(logp=_LP, data=_T.data), skip=('logp',)),
    Case(WR.wro_loss, dict(logp=_LP, anchor=torch.as_tensor(_T.reference), pref_hat=torch.as_tensor(_T.pref)), skip=('logp', 'anchor', 'pref_hat')),
    Case(WR.fit_bt_reward, dict(data=_T.data, n_prompts=3, n_responses=4, l2_coeff=0.01, steps=5, lr=0.1),
         kinds=dict(n_prompts='count', n_responses='count', l2_coeff='nonneg', steps='count', lr='positive')),
    Case(WR.train_tabular_policy, dict(task=_T, objective='dpo', beta=0.1, steps=5, lr=0.05, n_checkpoints=2, l2_coeff=0.01),
         kinds=dict(beta='positive', steps='count', lr='positive', n_checkpoints='count', l2_coeff='nonneg')),
    Case(WR.checkpoint_correlation, dict(history=WR.train_tabular_policy(_T, 'sft', steps=4, n_checkpoints=2))),
    Case(WR.pooled_correspondence, dict(task=_T, policies=WR.train_tabular_policy(_T, 'dpo', steps=6, n_checkpoints=3).checkpoints,
                                        pref_hat=_T.pref, beta=0.1), kinds=dict(beta='positive')),
]
EXEMPT.update({
    'trustnb.evaluate.win_rate.win_rate_claim': 'the registered reproduction (trains with the covered functions)',
    'trustnb.evaluate.win_rate.PreferenceData': 'a plain record of labelled pairs; validated where it is used (fit_bt_reward, the losses)',
    'trustnb.evaluate.win_rate.TabularTask': 'built by make_tabular_task, which validates its arguments',
})

from trustnb.evaluate import curation_loops as CL
_S = CL.ring_of_gaussians(24, seed=0).reshape(6, 4, 2)
CASES += [
    Case(CL.ring_of_gaussians, dict(n=10, n_modes=8, radius=2.0, std=0.25, seed=0), kinds=dict(n='count', n_modes='count', radius='positive', std='positive')),
    Case(CL.target_reward, dict(x=_S[:, 0]), skip=('target',)),
    Case(CL.bt_curate, dict(samples=_S, reward=CL.target_reward, malicious=0.0, seed=0), kinds=dict(malicious='prob'), skip=('reward', 'adv_reward')),
    Case(CL.flip_attack, dict(samples=_S, picks=_S[:, 0], budget=0.5, reward=CL.target_reward, strategy='targeted', seed=0), kinds=dict(budget='prob'), skip=('reward',)),
    Case(CL.expected_reward, dict(model=CL.curated_retraining(n_rounds=1, n_samples=60, n_components=2, seed=0).models[-1], reward=CL.target_reward, n=50),
         kinds=dict(n='count'), skip=('reward',)),
    Case(CL.curated_retraining, dict(n_rounds=1, real_share=0.5, malicious=0.0, attack='random', attack_budget=0.2, n_samples=60, k=3, n_components=2, seed=0),
         kinds=dict(n_rounds='count', real_share='prob', malicious='prob', attack_budget='prob', n_samples='count', k='count', n_components='count'), skip=('adv_reward', 'reward')),
    Case(CL.curation_experiment, dict(seed=0, n_rounds=1, sham=False), kinds=dict(n_rounds='count')),
]
EXEMPT['trustnb.evaluate.curation_loops.curation_claim'] = 'the registered reproduction (runs curation_experiment, covered)'

from trustnb.evaluate import encoding_models as EM
_r = np.random.default_rng(0); _F = _r.standard_normal((40, 5)); _y = _F @ _r.standard_normal(5) + 0.3 * _r.standard_normal(40)
_reps = np.stack([_y + 0.3 * _r.standard_normal(40) for _ in range(2)])
_tr, _te = np.arange(30), np.arange(30, 40)
def _bench(alphas=np.logspace(-2, 3, 4), features=_F, targets={'t': _reps}, train_idx=_tr, test_idx=_te):
    return EM.EncodingBenchmark(alphas=alphas).add_model('m', features).fit_score(targets, train_idx, test_idx)
_bench.__module__, _bench.__qualname__ = 'trustnb.evaluate.encoding_models', 'EncodingBenchmark'
CASES += [
    Case(EM.split_half_noise_ceiling, dict(repeats=_reps, n_splits=5, seed=0), kinds=dict(n_splits='count')),
    Case(EM.fit_encoding_model, dict(features=_F, targets=_y, train_idx=_tr, test_idx=_te)),
    Case(EM.rdm, dict(X=_F)), Case(EM.rsa, dict(features=_F, responses=_F[:, :3])),
    Case(_bench, dict(alphas=np.logspace(-2, 3, 4), features=_F, train_idx=_tr, test_idx=_te), skip=('targets',)),
    Case(EM.harness_check, dict(seed=0, n=60, sham=False), kinds=dict(n='count')),
]
COVERS = globals().get('COVERS', set()) | {EM.EncodingBenchmark}
EXEMPT['trustnb.evaluate.encoding_models.encoding_claim'] = 'the registered reproduction (runs harness_check, covered)'

from trustnb.evaluate import checks_and_balances as CB
from contract import Est
_df = CB.make_emotion_corpus(2, seed=0); _E, _ = CB.embed_corpus(_df.text.tolist(), 'bow')
CASES += [
    Case(CB.behavior_of, dict(emotion='anger', intensity=1), kinds=dict(intensity='nonneg')),
    Case(CB.make_emotion_corpus, dict(n_per_class=1, seed=0), kinds=dict(n_per_class='count')),
    Case(CB.embed_corpus, dict(texts=['good day', 'bad day'], embedding='bow')),
    Case(CB.dike_flags, dict(emotion=np.array(['anger', 'joy']), intensity=np.array([1, 2])), kinds=dict(intensity='labels'), skip=('rules', 'emotion')),
    Case(CB.adversarial_review, dict(flagged=np.array([True, False]), reviewer_flags=np.array([False, False])), skip=('truth',),
         legal=dict(flagged=('nan', 'inf'), reviewer_flags=('nan', 'inf'))),  # bool arrays: NaN/inf cast to True
    Case(CB.dike_experiment, dict(n_train=2, splits=1, embedding='bow', seed=0, sham=False), kinds=dict(n_train='count', splits='count')),
]
ESTIMATORS = globals().get('ESTIMATORS', []) + [
    Est(make=lambda: CB.EmotionMediatedClassifier(C=1.0), fit_args=lambda: ((_E, _df.behavior.values), dict(emotion=_df.emotion.values, intensity=_df.intensity.values)),
        methods=('predict', 'predict_emotion'), compare='predict'),
]
EXEMPT['trustnb.evaluate.checks_and_balances.checks_and_balances_claim'] = 'the registered reproduction (runs dike_experiment, covered)'
