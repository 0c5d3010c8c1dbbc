"""RandomAgent and the agent registry, on hand-made masks (no game env needed)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import agents
from agents import Agent, RandomAgent, legal_actions


def _obs(mask: list[int] | np.ndarray) -> dict[str, np.ndarray]:
    mask = np.asarray(mask, dtype=np.int8)
    return {"observation": np.zeros(3, dtype=np.float32), "action_mask": mask}


masks = st.lists(st.sampled_from([0, 1]), min_size=1, max_size=64).filter(any)


@settings(deadline=None, max_examples=200)
@given(mask=masks, seed=st.integers(min_value=0, max_value=2**32 - 1))
def test_random_agent_always_legal(mask: list[int], seed: int) -> None:
    agent = RandomAgent(seed=seed)
    obs = _obs(mask)
    for _ in range(10):
        action = agent.act(obs)
        assert type(action) is int
        assert obs["action_mask"][action] == 1


def test_single_legal_action_is_chosen() -> None:
    agent = RandomAgent(seed=3)
    mask = np.zeros(50, dtype=np.int8)
    mask[37] = 1
    assert {agent.act(_obs(mask)) for _ in range(20)} == {37}


def test_same_seed_same_choices_and_reset_replays() -> None:
    obs = _obs([1, 0, 1, 1, 0, 1, 1, 1])
    a, b = RandomAgent(seed=7), RandomAgent(seed=7)
    first = [a.act(obs) for _ in range(100)]
    assert first == [b.act(obs) for _ in range(100)]
    a.reset(seed=7)
    assert [a.act(obs) for _ in range(100)] == first
    # reset() without a seed keeps the stream going instead of replaying
    a.reset()
    assert [a.act(obs) for _ in range(100)] != first


def test_different_seeds_differ() -> None:
    obs = _obs([1] * 10)
    seqs = set()
    for seed in range(5):
        agent = RandomAgent(seed=seed)
        seqs.add(tuple(agent.act(obs) for _ in range(50)))
    assert len(seqs) == 5


def test_roughly_uniform_over_legal_ids() -> None:
    mask = [0, 1, 0, 1, 1, 0, 1]
    agent = RandomAgent(seed=0)
    counts = np.bincount([agent.act(_obs(mask)) for _ in range(4000)], minlength=len(mask))
    assert counts[[0, 2, 5]].sum() == 0
    legal_counts = counts[[1, 3, 4, 6]]
    assert legal_counts.min() > 850 and legal_counts.max() < 1150  # expected 1000 each


def test_view_is_ignored() -> None:
    obs = _obs([0, 1, 1])
    a, b = RandomAgent(seed=1), RandomAgent(seed=1)
    assert [a.act(obs) for _ in range(20)] == [b.act(obs, view={"anything": 1}) for _ in range(20)]


@pytest.mark.parametrize("mask", [[0, 0, 0], np.zeros(0, dtype=np.int8)])
def test_no_legal_action_raises_value_error(mask) -> None:
    with pytest.raises(ValueError, match="no legal action"):
        RandomAgent(seed=0).act(_obs(mask))


def test_malformed_observation_raises_value_error() -> None:
    with pytest.raises(ValueError, match="action_mask"):
        RandomAgent(seed=0).act({"observation": np.zeros(2, dtype=np.float32)})
    with pytest.raises(ValueError, match="1-D"):
        legal_actions({"action_mask": np.ones((2, 2), dtype=np.int8)})


def test_agent_is_abstract() -> None:
    with pytest.raises(TypeError):
        Agent()  # type: ignore[abstract]


def test_registry_make_and_unknown_name() -> None:
    agent = agents.make("random", seed=5)
    assert isinstance(agent, RandomAgent) and agent.name == "random"
    assert agent.act(_obs([0, 1])) == 1
    assert "random" in agents.available()
    with pytest.raises(ValueError, match=r"unknown agent 'nope'; known agents: .*random"):
        agents.make("nope")


def test_registry_register_refuses_duplicates() -> None:
    with pytest.raises(ValueError, match="already registered"):
        agents.register("random", RandomAgent)
    name = "test-only-random"
    try:
        agents.register(name, RandomAgent)
        assert isinstance(agents.make(name, seed=0), RandomAgent)
    finally:
        agents.REGISTRY.pop(name, None)
