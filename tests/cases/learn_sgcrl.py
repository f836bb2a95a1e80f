"Contract cases for trustnb.learn.sgcrl (chapter 9)."
import numpy as np
import torch
from contract import Case, Est
from trustnb.learn import sgcrl as SG

_env = lambda: SG.GridMaze(4, wall_density=0.0, maze_seed=0, max_steps=6)
_fitted = SG.SGCRLAgent(repr_dim=4, hidden=8, batch_size=8, updates_per_episode=1, n_random_episodes=1, seed=0).fit(_env(), 2)
CASES = [
    Case(SG.GridMaze, dict(size=4, wall_density=0.2, maze_seed=0, max_steps=6), kinds=dict(size='count', wall_density='prob', maze_seed='nonneg', max_steps='count'),
         then=lambda e: (e.reset(seed=0), e.step(3))),
    Case(SG.future_offsets, dict(m=np.array([1, 3, 5]), gamma=0.9, seed=0), kinds=dict(gamma='prob')),
    Case(SG.ContrastiveCritic, dict(d_in=2, n_actions=4, hidden=8, repr_dim=3, seed=0), kinds=dict(d_in='count', n_actions='count', hidden='count', repr_dim='count'),
         then=lambda c: c(torch.linspace(0, 1, 6).view(3, 2), torch.ones(2, 2)).detach()),
    Case(SG.infonce_loss, dict(logits=torch.randn(4, 4, generator=torch.Generator().manual_seed(0)), logsumexp_coeff=0.01), kinds=dict(logsumexp_coeff='nonneg'),
         skip=('logits',)),  # logits: an internal (B, B) tensor of the training step; shape-checked
    Case(SG.SGCRLAgent, dict(repr_dim=4, hidden=8, gamma=0.9, lr=1e-3, batch_size=8, updates_per_episode=1, explore_prob=0.2, logsumexp_coeff=0.01,
                             n_random_episodes=1, seed=0),
         kinds=dict(repr_dim='count', hidden='count', gamma='prob', lr='positive', batch_size='count', explore_prob='prob', logsumexp_coeff='nonneg',
                    n_random_episodes='nonneg', seed='nonneg', updates_per_episode='nonneg'),
         then=lambda a: a.fit(_env(), 2).history_.successes),
    Case(SG.TabularQAgent, dict(lr=0.5, gamma=0.9, explore_prob=0.1, q_init=0.0, seed=0), kinds=dict(lr='positive', gamma='prob', explore_prob='prob'),
         legal=dict(q_init=()), then=lambda a: a.fit(_env(), 2).history_.successes),
    Case(SG.success_rate, dict(agent=_fitted, env=_env(), n_episodes=2, explore_prob=0.5, seed=0), kinds=dict(n_episodes='count', explore_prob='prob')),
    Case(SG.maze_experiment, dict(size=4, n_mazes=1, n_episodes=2, wall_density=0.1, seed=0, agents=dict(q=lambda s: SG.TabularQAgent(q_init=1.0, seed=s))),
         kinds=dict(size='count', n_mazes='count', n_episodes='count', wall_density='prob', seed='nonneg'), skip=('agents',), then=lambda r: r['shortest_paths']),  # agents: factories
]
ESTIMATORS = [
    Est(lambda: SG.SGCRLAgent(repr_dim=4, hidden=8, batch_size=8, updates_per_episode=1, n_random_episodes=1, seed=0), lambda: ((_env(),), dict(n_episodes=2)),
        methods=('score',), compare='score'),
    Est(lambda: SG.TabularQAgent(seed=0), lambda: ((_env(),), dict(n_episodes=2)), methods=('act',)),
]
EXEMPT = {
    'trustnb.learn.sgcrl.sgcrl_claim': 'the registered reproduction (runs maze_experiment, covered)',
}
