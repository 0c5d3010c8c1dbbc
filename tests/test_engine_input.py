"""Engine input handling: illegal and malformed actions, game over, bad configs, determinism."""

from __future__ import annotations

import copy
import dataclasses
import pickle
import random

import numpy as np
import pytest

from granujas_env.engine import (
    Game,
    GameConfig,
    GameOverError,
    IllegalActionError,
    load_catalog,
)
from granujas_env.engine import actions as A


def snapshot(game: Game) -> bytes:
    """Everything that makes up the game state (not the legal-ids cache)."""
    state = {
        k: v for k, v in game.__dict__.items() if k not in ("_legal_cache", "rules", "catalog")
    }
    return pickle.dumps(state)


def mid_game(seed: int = 3, steps: int = 60, players: int = 3) -> Game:
    game = Game(GameConfig(players, "short"), seed=seed)
    rng = random.Random(seed)
    for _ in range(steps):
        game.apply(rng.choice(game.legal_actions()))
    return game


def random_actions(game: Game, seed: int, limit: int = 10_000) -> list[int]:
    rng = random.Random(seed)
    out = []
    while game.decision is not None and len(out) < limit:
        action = rng.choice(game.legal_actions())
        out.append(action)
        game.apply(action)
    return out


def _illegal_ids(game: Game) -> list[int]:
    legal = set(game.legal_actions())
    return [a for a in range(A.NUM_ACTIONS) if a not in legal]


@pytest.mark.parametrize("seed", range(4))
def test_not_legal_now_raises_and_leaves_the_state_unchanged(seed: int) -> None:
    game = mid_game(seed)
    kind = game.decision.kind
    legal = game.legal_actions()
    before = snapshot(game)
    for action in _illegal_ids(game)[:: 7 if seed else 1]:
        with pytest.raises(IllegalActionError) as info:
            game.apply(action)
        message = str(info.value)
        assert repr(kind) in message
        assert all(str(a) in message for a in legal)
        assert f"player {game.current_player}" in message
        assert snapshot(game) == before
        assert game.legal_actions() == legal


@pytest.mark.parametrize("action", [-1, A.NUM_ACTIONS, A.NUM_ACTIONS + 100, 10**12])
def test_out_of_range_raises(action: int) -> None:
    game = Game(GameConfig(2), seed=0)
    before = snapshot(game)
    with pytest.raises(IllegalActionError, match="out of range") as info:
        game.apply(action)
    assert repr(game.decision.kind) in str(info.value)
    assert snapshot(game) == before


@pytest.mark.parametrize("action", [2.0, 2.5, "2", None, True, False, [2], b"\x02", 2 + 0j])
def test_malformed_actions_raise(action) -> None:
    game = Game(GameConfig(2), seed=0)
    legal = game.legal_actions()
    before = snapshot(game)
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    message = str(info.value)
    assert "integer" in message
    assert repr(game.decision.kind) in message
    assert str(legal) in message
    assert snapshot(game) == before


def test_illegal_action_error_is_a_value_error() -> None:
    assert issubclass(IllegalActionError, ValueError)
    assert issubclass(GameOverError, IllegalActionError)


@pytest.mark.parametrize("np_type", [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint64])
def test_numpy_integers_are_accepted(np_type) -> None:
    a, b = Game(GameConfig(2), seed=5), Game(GameConfig(2), seed=5)
    rng = random.Random(5)
    for _ in range(40):
        action = rng.choice(a.legal_actions())
        a.apply(action)
        b.apply(np_type(action))
    assert snapshot(a) == snapshot(b)


def test_numpy_float_is_rejected() -> None:
    game = Game(GameConfig(2), seed=0)
    with pytest.raises(IllegalActionError):
        game.apply(np.float64(game.legal_actions()[0]))


def test_apply_after_game_over_raises() -> None:
    game = Game(GameConfig(2), seed=1)
    random_actions(game, seed=1)
    assert game.decision is None and game.legal_actions() == []
    assert game.current_player == -1
    before = snapshot(game)
    for action in (A.PASS, A.CONFIRM, -1, "x", None):
        with pytest.raises(GameOverError, match="over"):
            game.apply(action)
    assert snapshot(game) == before


@pytest.mark.parametrize(
    ("kwargs", "match"),
    [
        ({"num_players": 5}, "num_players"),
        ({"num_players": 1}, "num_players"),
        ({"num_players": 0}, "num_players"),
        ({"num_players": "2"}, "num_players"),
        ({"num_players": 2.0}, "num_players"),
        ({"num_players": True}, "num_players"),
        ({"game_length": "medium"}, "game_length"),
        ({"game_length": "SHORT"}, "game_length"),
        ({"game_length": None}, "game_length"),
        ({"strategy_cards": "yes"}, "strategy_cards"),
        ({"strategy_cards": 1}, "strategy_cards"),
        ({"strategy_cards": None}, "strategy_cards"),
    ],
)
def test_bad_configs_raise_value_error(kwargs: dict, match: str) -> None:
    with pytest.raises(ValueError, match=match) as info:
        GameConfig(**kwargs)
    assert repr(next(iter(kwargs.values()))) in str(info.value) or "got" in str(info.value)


def test_strategy_cards_rule_starts_with_a_secret_choice() -> None:
    game = Game(GameConfig(3, "short", strategy_cards=True), seed=0)
    first = game.first_player
    assert not game.strategies_revealed
    for k in range(3):  # in turn order, each seat picks one of its leader's two cards
        seat = (first + k) % 3
        assert (game.decision.kind, game.decision.player) == ("choose_strategy", seat)
        assert game.legal_actions() == [A.STRATEGY, A.STRATEGY + 1]
        game.apply(A.STRATEGY + k % 2)
    assert game.strategies_revealed
    for k in range(3):
        seat = (first + k) % 3
        options = game.catalog.leader_strategies(seat % len(game.catalog.leaders))
        assert game.strategy_of(seat) == options[k % 2]
    assert game.decision.kind in ("start_ability", "plan_card")
    assert game.decision.player == first
    assert game.history[0] == ("strategies", tuple(p.strategy for p in game.players))


def test_strategy_cards_rule_needs_a_catalog_with_strategy_cards() -> None:
    catalog = dataclasses.replace(load_catalog(), strategies=())
    with pytest.raises(ValueError, match="Strategy cards"):
        Game(GameConfig(2, strategy_cards=True), seed=0, catalog=catalog)
    Game(GameConfig(2, strategy_cards=False), seed=0, catalog=catalog)  # without the rule: fine


def test_good_configs() -> None:
    for n in (2, 3, 4):
        for length in ("short", "long"):
            game = Game(GameConfig(n, length), seed=0)
            assert game.num_players == n
            assert game.last_day == {"short": 2, "long": 3}[length]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_same_seed_same_actions_same_game(players: int) -> None:
    a = Game(GameConfig(players, "long"), seed=42)
    actions = random_actions(a, seed=9)
    b = Game(GameConfig(players, "long"), seed=42)
    for action in actions:
        b.apply(action)
    assert a.history == b.history
    assert snapshot(a) == snapshot(b)
    assert (a.scores, a.winner) == (b.scores, b.winner)


def test_different_seeds_deal_differently() -> None:
    deals = set()
    for seed in range(10):
        game = Game(GameConfig(4), seed=seed)
        deals.add((tuple(tuple(p.hand) for p in game.players), tuple(s.value for s in game.safes)))
    assert len(deals) == 10


@pytest.mark.parametrize("steps", [0, 25, 120, 250])
def test_deepcopy_mid_game_continues_identically(steps: int) -> None:
    game = mid_game(seed=11, steps=steps, players=4)
    clone = copy.deepcopy(game)
    assert snapshot(clone) == snapshot(game)
    assert clone.rules is game.rules and clone.catalog is game.catalog
    rng = random.Random(2)
    while game.decision is not None:
        assert clone.legal_actions() == game.legal_actions()
        action = rng.choice(game.legal_actions())
        game.apply(action)
        clone.apply(action)
    assert clone.decision is None
    assert clone.history == game.history
    assert (clone.scores, clone.winner) == (game.scores, game.winner)


def test_deepcopy_is_independent() -> None:
    game = mid_game(seed=4, steps=30)
    before = snapshot(game)
    clone = copy.deepcopy(game)
    random_actions(clone, seed=5)
    assert clone.decision is None
    assert snapshot(game) == before


def test_pickle_round_trip_continues_identically() -> None:
    game = mid_game(seed=8, steps=70)
    clone = pickle.loads(pickle.dumps(game))
    rng = random.Random(1)
    while game.decision is not None:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        clone.apply(action)
    assert clone.history == game.history
