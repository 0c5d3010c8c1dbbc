"""Clients nobody here wrote drive the env unchanged: PettingZoo's turn-based AEC-to-parallel
conversion with its parallel API test, and Tianshou's ``PettingZooEnv`` collecting and training
a masked DQN seat against a masked random seat. (``api_test``/``seed_test``: tests/test_env.py;
sb3-contrib's MaskablePPO: tests/test_training.py; the README's snippets:
tests/test_readme_clients.py.)"""

from __future__ import annotations

import numpy as np
import pytest
from pettingzoo.test import parallel_api_test
from pettingzoo.utils.conversions import turn_based_aec_to_parallel

import granujas_env


@pytest.mark.parametrize("players", [2, 3, 4])
def test_parallel_conversion_passes_pettingzoo_parallel_api_test(players: int) -> None:
    parallel_api_test(
        turn_based_aec_to_parallel(granujas_env.env(num_players=players)), num_cycles=2000
    )


@pytest.mark.parametrize("players", [2, 4])
def test_parallel_conversion_plays_the_aec_game(players: int) -> None:
    """Through the parallel API exactly one seat has a non-zero mask at a time, the converter
    names it ``active_agent``, and the same actions give the AEC env's game and rewards."""
    par = turn_based_aec_to_parallel(granujas_env.env(num_players=players))
    rng = np.random.default_rng(players)
    observations, _ = par.reset(seed=players)
    played = []
    while par.agents:
        acting = [a for a in par.agents if observations[a]["action_mask"].any()]
        assert len(acting) == 1, acting
        action = int(rng.choice(np.flatnonzero(observations[acting[0]]["action_mask"])))
        actions = dict.fromkeys(par.agents, 0)  # ignored for the seats that are not acting
        actions[acting[0]] = action
        played.append((acting[0], action))
        observations, rewards, terminations, truncations, infos = par.step(actions)
        if par.agents:
            assert not any(terminations.values()) and not any(truncations.values())
            assert {infos[a]["active_agent"] for a in par.agents} == {par.unwrapped.agent_selection}
    assert terminations == dict.fromkeys(par.possible_agents, True)
    assert sorted(rewards.values())[-1] == 1.0

    aec = granujas_env.env(num_players=players)
    aec.reset(seed=players)
    for agent, action in played:
        assert aec.agent_selection == agent
        aec.step(action)
    assert aec.unwrapped.game.game_over
    assert aec.unwrapped.game.scores == par.unwrapped.game.scores
    assert aec.rewards == rewards


def test_tianshou_pettingzoo_env_collects_and_trains_a_masked_dqn_seat() -> None:
    """One short off-policy epoch: DQN at seat 0, Tianshou's masked random policy at seat 1.
    The replay buffer holds whole games (terminal steps and their ``info`` included), every
    stored action was legal, and every finished game paid +1/-1."""
    pytest.importorskip("torch")
    pytest.importorskip("tianshou")
    import torch
    from tianshou.algorithm import (
        DQN,
        MARLRandomDiscreteMaskedOffPolicyAlgorithm,
        MultiAgentOffPolicyAlgorithm,
    )
    from tianshou.algorithm.modelfree.dqn import DiscreteQLearningPolicy
    from tianshou.algorithm.optim import AdamOptimizerFactory
    from tianshou.data import Collector, CollectStats, ReplayBuffer
    from tianshou.env import DummyVectorEnv, PettingZooEnv
    from tianshou.trainer import OffPolicyTrainerParams
    from tianshou.utils.net.common import Net

    def make_env() -> PettingZooEnv:
        return PettingZooEnv(granujas_env.env(num_players=2))

    np.random.seed(0)  # Tianshou's exploration and random policy draw from numpy's global RNG
    torch.manual_seed(0)
    env = make_env()
    net = Net(
        state_shape=env.observation_space["observation"].shape,
        action_shape=env.action_space.n,
        hidden_sizes=[64],
    )
    learner = DQN(
        policy=DiscreteQLearningPolicy(
            model=net, action_space=env.action_space, eps_training=0.2, eps_inference=0.0
        ),
        optim=AdamOptimizerFactory(lr=1e-3),
        gamma=0.99,
        target_update_freq=20,
    )
    opponent = MARLRandomDiscreteMaskedOffPolicyAlgorithm(action_space=env.action_space)
    algorithm = MultiAgentOffPolicyAlgorithm(algorithms=[learner, opponent], env=env)
    envs = DummyVectorEnv([make_env])
    envs.seed(0)
    buffer = ReplayBuffer(2000)  # one env: a VectorReplayBuffer would add ~5 s of numba compiling
    collector = Collector[CollectStats](algorithm, envs, buffer, exploration_noise=True)
    result = algorithm.run_training(
        OffPolicyTrainerParams(
            training_collector=collector,
            max_epochs=1,
            epoch_num_steps=320,  # one whole game at least (2-player games take < 200 steps)
            collection_step_num_env_steps=64,
            batch_size=32,
            update_step_num_gradient_steps_per_sample=1 / 32,  # 2 gradient steps per 64 env steps
            multi_agent_return_reduction=lambda returns: returns[:, 0],
            show_progress=False,
        )
    )
    assert result.train_step == 320 and result.update_step == 5
    data = buffer[: len(buffer)]
    assert len(buffer) == 320 and not data.hasnull()
    legal = np.asarray(data.obs.mask, dtype=bool)
    assert legal[np.arange(len(data)), data.act].all()
    assert set(data.obs.agent_id) == {"player_0", "player_1"}
    ended = np.flatnonzero(data.terminated)
    assert len(ended) == result.train_episode >= 1 and not data.truncated.any()
    assert {tuple(r) for r in data.rew[ended]} <= {(1.0, -1.0), (-1.0, 1.0)}
    assert (data.rew[~data.terminated] == 0).all()
