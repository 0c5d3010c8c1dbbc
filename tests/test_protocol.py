"""The shared protocol: Outcome, the games registry, the specs, and the generic AEC base
(granujas played through a GameAECEnv subclass must equal granujas' own env, step for step)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from granujas_env import games
from granujas_env.codecs import ObservationLayout
from granujas_env.core import textio
from granujas_env.core.aec import GameAECEnv, wrap
from granujas_env.engine import actions as A
from granujas_env.engine.game import (
    Game,
    GameConfig,
    GameOverError,
    IllegalActionError,
    default_data,
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


class _GranujasOnCore(GameAECEnv):
    """Granujas on the shared base: what env.raw_env would become."""

    illegal_error = IllegalActionError
    game_over_error = GameOverError

    def __init__(self, num_players: int = 3) -> None:
        super().__init__()
        self.config = GameConfig(num_players)
        self.reward_mode = "win"
        rules, catalog = default_data()
        self.catalog = catalog
        self.layout = ObservationLayout(catalog, rules)
        self._init_env(num_players, self.layout.low, self.layout.high, A.NUM_ACTIONS, None)

    def _new_game(self, seed: int) -> Game:
        return Game(self.config, seed, catalog=self.catalog)

    def _encode(self, game: Game, seat: int) -> np.ndarray:
        return self.layout.encode(game, seat)

    def _final_rewards(self, game: Game) -> list[float]:
        return game.returns()

    def _info_keys(self, game: Game) -> dict:
        n = game.num_players
        if game.game_over:
            return {"winner": game.winner, "scores": np.array(game.scores, dtype=np.int64)}
        return {"winner": -1, "scores": np.zeros(n, dtype=np.int64)}

    def describe(self, action: int) -> str:
        return A.describe(action)


@pytest.mark.parametrize("seed", [0, 1])
def test_core_base_plays_granujas_exactly_like_its_env(seed):
    ours, theirs = _GranujasOnCore(3), granujas_raw_env(num_players=3)
    ours.reset(seed=seed)
    theirs.reset(seed=seed)
    rng = random.Random(seed)
    for agent in theirs.agent_iter():
        assert ours.agent_selection == agent
        obs_t, rew_t, term_t, trunc_t, info_t = theirs.last()
        obs_o, rew_o, term_o, trunc_o, info_o = ours.last()
        np.testing.assert_array_equal(obs_o["observation"], obs_t["observation"])
        np.testing.assert_array_equal(obs_o["action_mask"], obs_t["action_mask"])
        assert (rew_o, term_o, trunc_o) == (rew_t, term_t, trunc_t)
        assert info_o.keys() == info_t.keys()
        for key in info_t:
            np.testing.assert_array_equal(info_o[key], info_t[key])
        action = None if term_t else int(rng.choice(np.flatnonzero(obs_t["action_mask"])))
        ours.step(action)
        theirs.step(action)
    assert not ours.agents


def test_core_base_refuses_bad_steps_with_the_state_unchanged():
    environment = _GranujasOnCore(2)
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
    environment = wrap(_GranujasOnCore(2))
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
    with pytest.raises(ValueError, match="unknown game 'chess'; the games are: bang-dice, granujas"):
        textio.text_game("chess")
