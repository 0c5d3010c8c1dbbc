"""The shared protocol: Outcome, the games registry, the specs, and the generic AEC base that
granujas' env is built on (its digests and streams are pinned by test_determinism and
test_env_state)."""

from __future__ import annotations

import random

import numpy as np
import pytest

import granujas_env
from granujas_env import games
from granujas_env.core import textio
from granujas_env.core.aec import GameAECEnv, wrap
from granujas_env.engine import actions as A
from granujas_env.engine.game import (
    IllegalActionError,
)
from granujas_env.env import raw_env as granujas_raw_env
from granujas_env.protocol import GameState, Outcome


def test_outcome_validates_and_gives_team_returns():
    out = Outcome(frozenset({0, 2}), (0, 1, 0))
    assert out.returns() == [1.0, -1.0, 1.0]
    with pytest.raises(ValueError, match="non-empty set of seats 0..2"):
        Outcome(frozenset({3}), (0, 1, 2))
    with pytest.raises(ValueError, match="non-empty"):
        Outcome(frozenset(), (0, 1))
    with pytest.raises(ValueError, match="one entry per seat"):
        Outcome(frozenset({0}), (0, 1), (3,))


def test_registry_names_and_errors():
    assert games.available() == ["bang-dice", "granujas"]
    assert games.DEFAULT_GAME == "granujas"
    assert games.get().name == "granujas"
    assert games.get("granujas") is games.get("granujas")
    with pytest.raises(ValueError, match="unknown game 'chess'; the games are: bang-dice, granujas"):
        games.get("chess")
    assert games.by_env_id("granujas/granujas-v1") is games.get("granujas")
    with pytest.raises(ValueError, match="no game has the env id"):
        games.by_env_id("granujas/nope-v0")


def test_granujas_spec_outcome_follows_the_winner():
    spec = games.get("granujas")
    game = spec.new_game(spec.make_config(3), seed=5)
    assert isinstance(game, GameState)
    assert spec.outcome(game) is None
    rng = random.Random(0)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    out = spec.outcome(game)
    assert out.winners == frozenset({game.winner})
    assert out.team_of == (0, 1, 2)
    assert out.scores == tuple(game.scores)


def test_granujas_env_is_the_shared_base_with_its_hooks():
    """granujas' raw_env plays on core.aec: the AEC machinery is the base's, not a copy."""
    assert issubclass(granujas_raw_env, GameAECEnv)
    for name in ("reset", "step", "observe", "check_action", "state", "render", "__deepcopy__"):
        assert getattr(granujas_raw_env, name) is getattr(GameAECEnv, name), name
    environment = granujas_raw_env(num_players=3)
    assert type(wrap(environment)) is type(granujas_env.env(num_players=3))
    environment.reset(seed=0)
    assert repr(environment.state()) == (
        f"EnvState(3 players, reward='win', {environment.game.decision.kind!r} of seat "
        f"{environment.game.decision.player})"
    )


def test_core_base_refuses_bad_steps_with_the_state_unchanged():
    environment = granujas_raw_env(num_players=2)
    with pytest.raises(RuntimeError, match="call reset"):
        environment.observe("player_0")
    environment.reset(seed=3)
    before = environment.state()
    legal = environment.game.legal_actions()
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
    for bad, error, words in [
        (illegal, IllegalActionError, "legal"),
        (A.NUM_ACTIONS, IllegalActionError, "out of range"),
        ("1", IllegalActionError, "integer id"),
        (True, IllegalActionError, "integer id"),
        (None, IllegalActionError, "must act"),
    ]:
        with pytest.raises(error, match=words):
            environment.step(bad)
        assert environment.game.history == before._game.history
        assert environment.agent_selection == before._book["agent_selection"]
    with pytest.raises(ValueError, match="unknown agent"):
        environment.observe("player_9")


def test_wrap_ends_the_game_on_an_illegal_in_range_id():
    environment = wrap(granujas_raw_env(num_players=2))
    environment.reset(seed=4)
    mover = environment.agent_selection
    mask = environment.observe(mover)["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[0]))
    assert environment.rewards[mover] == -1
    assert all(environment.terminations.values())


@pytest.mark.parametrize("name", ["granujas", "bang-dice"])
def test_each_spec_names_its_text_interface_and_state_type(name):
    spec = games.get(name)
    text = textio.text_game(name)
    assert text is games.load(spec.tools["text"]) and text.name == name
    game = spec.new_game(spec.make_config(4), seed=1)
    assert games.of_state(game) is spec
    assert textio.text_for(spec.seat_view(game, 0)) is text
    assert games.of_view(spec.seat_view(game, 0)) is spec
    with pytest.raises(ValueError, match="unknown game 'chess'; the games are: bang-dice, granujas"):
        textio.text_game("chess")
