"""Bad input at every entry point of the env, through ``granujas_env.env()`` and ``raw_env``: a
clear error naming what was wrong (and, for a step, the pending decision and the legal ids), and
the state left unchanged (same snapshot digest, same seed stream) -- or, for an in-range illegal id
through ``env()``, PettingZoo's illegal-move termination."""

from __future__ import annotations

import math
import random
import re

import numpy as np
import pytest

import granujas_env
from granujas_env.engine import actions as A
from granujas_env.engine.game import GameOverError, IllegalActionError
from granujas_env.engine.snapshot import digest

MAKERS = {"env": granujas_env.env, "raw_env": granujas_env.raw_env}


def started(kind: str, players: int = 3, seed: int = 4):
    environment = MAKERS[kind](num_players=players)
    environment.reset(seed=seed)
    return environment


def play_to_the_end(environment, seed: int = 0) -> None:
    """Random legal actions until the game is over (no dead step taken yet)."""
    rng = random.Random(seed)
    game = environment.unwrapped.game
    while not game.game_over:
        environment.step(rng.choice(game.legal_actions()))


def pending_text(environment) -> str:
    game = environment.unwrapped.game
    legal = ", ".join(f"{a} ({A.describe(a)})" for a in game.legal_actions())
    return f"pending decision {game.decision.kind!r} of {environment.unwrapped.agent_selection}; legal ids: {legal}"


@pytest.mark.parametrize("kind", MAKERS)
@pytest.mark.parametrize(
    "action,wrong",
    [
        (None, "must act: None is the step of an agent that is done"),
        (1.0, "action must be an integer id, got 1.0 (float)"),
        (np.float32(2), "action must be an integer id, got np.float32(2.0) (float32)"),
        ("3", "action must be an integer id, got '3' (str)"),
        (b"3", "action must be an integer id, got b'3' (bytes)"),
        ([3], "action must be an integer id, got [3] (list)"),
        (np.array([3]), "action must be an integer id, got array([3]) (ndarray)"),
        (True, "action must be an integer id, got True (bool)"),
        (np.bool_(False), "action must be an integer id, got np.False_ (bool)"),
        (A.NUM_ACTIONS, f"action {A.NUM_ACTIONS} is out of range (ids are 0..{A.NUM_ACTIONS - 1})"),
        (-1, f"action -1 is out of range (ids are 0..{A.NUM_ACTIONS - 1})"),
        (10**30, f"action {10**30} is out of range"),
        pytest.param(10**5000, "action <int too long to show> is out of range", id="huge"),
        pytest.param([10**5000], "action must be an integer id, got <list too long to show> (list)", id="[huge]"),
    ],
)
def test_a_bad_action_raises_the_same_clear_error_and_changes_nothing(kind, action, wrong) -> None:
    environment = started(kind)
    before = digest(environment.unwrapped.game)
    agent = environment.agent_selection
    expected = re.escape(wrong) + ".*" + re.escape(pending_text(environment))
    with pytest.raises(IllegalActionError, match=expected):
        environment.step(action)
    assert digest(environment.unwrapped.game) == before
    assert environment.agent_selection == agent
    assert not any(environment.terminations.values())
    environment.step(environment.unwrapped.game.legal_actions()[0])  # still playable


@pytest.mark.parametrize("kind", MAKERS)
@pytest.mark.parametrize("convert", [np.int64, np.uint8, np.array], ids=["int64", "uint8", "0-d"])
def test_numpy_integer_ids_are_actions(kind, convert) -> None:
    a, b = started(kind), started(kind)
    legal = a.unwrapped.game.legal_actions()[-1]
    a.step(convert(legal))
    b.step(legal)
    assert digest(a.unwrapped.game) == digest(b.unwrapped.game)


def test_an_illegal_id_raises_on_raw_env_and_ends_the_game_through_env(caplog) -> None:
    raw = started("raw_env")
    illegal = int(np.flatnonzero(raw.observe(raw.agent_selection)["action_mask"] == 0)[0])
    before = digest(raw.game)
    with pytest.raises(IllegalActionError, match=f"action {illegal} .*is not legal for the pending decision 'plan_card'"):
        raw.step(illegal)
    assert digest(raw.game) == before

    wrapped = started("env")
    offender = wrapped.agent_selection
    wrapped.step(illegal)
    assert "Illegal move made" in caplog.text  # PettingZoo logs it
    assert all(wrapped.terminations.values()) and all(wrapped.truncations.values())
    assert wrapped._cumulative_rewards == {
        a: (-1.0 if a == offender else 0.0) for a in wrapped.possible_agents
    }
    with pytest.raises(GameOverError, match=r"is done and its only step is step\(None\)"):
        wrapped.step(0)
    for _ in wrapped.possible_agents:  # PettingZoo's dead steps
        wrapped.step(None)
    assert wrapped.agents == []
    with pytest.raises(GameOverError, match="every agent has taken its last step"):
        wrapped.step(None)


@pytest.mark.parametrize("kind", MAKERS)
def test_steps_after_the_end(kind) -> None:
    environment = started(kind, players=2, seed=1)
    play_to_the_end(environment)
    assert all(environment.terminations.values())
    final = digest(environment.unwrapped.game)
    with pytest.raises(GameOverError, match=r"the game is over: player_\d is done and its only step is step\(None\).*got 3"):
        environment.step(3)
    done = []
    for _ in range(2):  # each agent's dead step, with None, as the API requires
        done.append(environment.agent_selection)
        environment.step(None)
    assert sorted(done) == environment.possible_agents and environment.agents == []
    for action in (None, 0):
        with pytest.raises(GameOverError, match=r"every agent has taken its last step: call reset\(\)"):
            environment.step(action)
    assert digest(environment.unwrapped.game) == final
    environment.reset(seed=2)  # and a new game starts as usual
    assert environment.agents == environment.possible_agents


@pytest.mark.parametrize("kind", MAKERS)
def test_step_before_reset(kind) -> None:
    environment = MAKERS[kind](num_players=2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
        environment.step(0)


@pytest.mark.parametrize("kind", MAKERS)
@pytest.mark.parametrize("chosen", ["someone_else", "nobody", "player_7"])
def test_agent_selection_set_by_hand(kind, chosen) -> None:
    environment = started(kind)
    raw = environment.unwrapped
    deciding = raw.agent_selection
    other = next(a for a in raw.possible_agents if a != deciding)
    before = digest(raw.game)
    action = raw.game.legal_actions()[0]
    raw.agent_selection = other if chosen == "someone_else" else chosen
    if chosen == "someone_else":
        message = f"agent_selection is {other} but the pending decision 'plan_card' is {deciding}'s"
    else:
        message = f"agent_selection is '{chosen}', not one of the agents in the game"
    with pytest.raises(RuntimeError, match=re.escape(message) + ".*do not assign it"):
        environment.step(action)
    assert digest(raw.game) == before and not any(raw.terminations.values())
    raw.agent_selection = deciding
    environment.step(action)


@pytest.mark.parametrize("kind", MAKERS)
@pytest.mark.parametrize(
    "agent", ["player_9", "", None, 0, pytest.param(10**5000, id="huge"), ("player_0",), ["player_0"]]
)
def test_unknown_agent(kind, agent) -> None:
    environment = started(kind)
    raw = environment.unwrapped
    before = digest(raw.game)
    calls = [environment.observe, raw.seat_view, raw.render_seat, raw.observation_space, raw.action_space]
    for call in calls:
        with pytest.raises(ValueError, match=r"unknown agent .*; the agents are \['player_0', 'player_1', 'player_2'\]"):
            call(agent)
    assert digest(raw.game) == before


@pytest.mark.parametrize("kind", MAKERS)
@pytest.mark.parametrize(
    "seed",
    [math.nan, 1.5, 2.0, np.float64(3), "3", b"3", True, np.bool_(True), [1], 1 + 0j],
    ids=repr,
)
def test_reset_accepts_only_integer_seeds_and_changes_nothing_on_refusal(kind, seed) -> None:
    environment, twin = started(kind), started(kind)
    environment.step(environment.unwrapped.game.legal_actions()[0])
    twin.step(twin.unwrapped.game.legal_actions()[0])
    before = digest(environment.unwrapped.game)
    with pytest.raises(TypeError, match=r"seed must be an int \(or a numpy int\) or None, got .*\("):
        environment.reset(seed=seed)
    assert digest(environment.unwrapped.game) == before
    environment.reset()  # the seed stream was left alone too
    twin.reset()
    assert digest(environment.unwrapped.game) == digest(twin.unwrapped.game)


def test_integer_seeds_numpy_too_and_negative_ones_have_their_own_stream() -> None:
    a, b = granujas_env.raw_env(num_players=2), granujas_env.raw_env(num_players=2)
    a.reset(seed=np.int64(7))
    b.reset(seed=7)
    assert digest(a.game) == digest(b.game)
    games = []
    for seed in (7, -7, 10**40, -(10**40)):
        a.reset(seed=seed)
        games.append(digest(a.game))
        a.reset()  # the next game of the seed's stream
        games.append(digest(a.game))
    assert len(set(games)) == 8


@pytest.mark.parametrize("kind", MAKERS)
def test_observe_and_last_before_reset_name_reset(kind) -> None:
    environment = MAKERS[kind](num_players=2)
    with pytest.raises(RuntimeError, match=r"call reset\(\) before using the environment"):
        environment.observe("player_0")
    if kind == "env":  # raw_env.last() is PettingZoo's AECEnv.last()
        with pytest.raises(RuntimeError, match=r"last\(\) before reset\(\): call reset\(\)"):
            environment.last()
    environment.reset(seed=1)
    assert environment.last()[0]["action_mask"].any()


def test_agent_selection_assigned_through_env_reaches_the_unwrapped_env() -> None:
    """Kept on the wrapper, the assignment would hide the env's own, and the next step would be
    scored as an illegal move of the real agent (-1, game over, no error)."""
    environment = started("env")
    raw = environment.unwrapped
    deciding = raw.agent_selection
    other = next(a for a in raw.possible_agents if a != deciding)
    before = digest(raw.game)
    action = raw.game.legal_actions()[0]
    environment.agent_selection = other
    assert raw.agent_selection == environment.agent_selection == other
    assert not environment.last()[0]["action_mask"].any()  # what the assigned agent sees
    with pytest.raises(RuntimeError, match=f"agent_selection is {other} but .*do not assign it"):
        environment.step(action)
    assert digest(raw.game) == before and not any(raw.terminations.values())
    environment.agent_selection = deciding
    environment.step(action)
    assert raw.rewards == dict.fromkeys(raw.agents, 0.0) and not any(raw.terminations.values())
