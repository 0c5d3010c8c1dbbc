"""What a game is a copy of: ``Game.clone`` against ``copy.deepcopy``, and what a seed deals."""

from __future__ import annotations

import copy
import dataclasses
import random
import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from granujas_env.bench import clone_line, measure_clone
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.game import _mt_init_by_array
from granujas_env.engine.snapshot import digest, to_dict
from granujas_env.engine.state import Frame

SHARED = ("rules", "catalog", "config")  # immutable: clone and original share them
# Digests are compared after each of the first WATCHED_STEPS steps past the copy, then after every
# SPARSE_STEPS-th and at the end: a digest costs milliseconds, and every step of whole games would
# take this test past 10 s (a divergence persists, so the sparse checks still catch a late one).
WATCHED_STEPS = 40
SPARSE_STEPS = 25


def mutable_ids(game: Game) -> dict[int, str]:
    """id -> path of every mutable object the game's state holds (rules, catalog, config aside)."""
    out: dict[int, str] = {}
    todo = [(value, key) for key, value in vars(game).items() if key not in SHARED]
    while todo:
        value, path = todo.pop()
        if isinstance(value, (int, str, float, type(None))):
            continue
        if isinstance(value, random.Random):
            out[id(value)] = path
        elif isinstance(value, Frame):
            out[id(value)] = path
            todo.append((value.data, f"{path}.data"))
        elif dataclasses.is_dataclass(value):
            if not type(value).__dataclass_params__.frozen:  # a frozen Step is immutable
                out[id(value)] = path
                todo += [(v, f"{path}.{k}") for k, v in vars(value).items()]
        elif isinstance(value, dict):
            out[id(value)] = path
            todo += [(v, f"{path}[{k!r}]") for k, v in value.items()]
        elif isinstance(value, (list, set)):
            out[id(value)] = path
            todo += [(v, f"{path}[{i}]") for i, v in enumerate(value)]
        elif isinstance(value, tuple):
            todo += [(v, f"{path}[{i}]") for i, v in enumerate(value)]
        else:
            raise AssertionError(f"{path}: unexpected {type(value).__name__} in the game state")
    return out


def assert_independent(game: Game, copied: Game) -> None:
    ours, theirs = mutable_ids(game), mutable_ids(copied)
    shared = sorted(ours[i] for i in ours.keys() & theirs.keys())
    assert not shared, f"the copy shares mutable state with the original: {shared[:5]}"
    for key in SHARED:
        assert getattr(copied, key) is getattr(game, key)


@settings(max_examples=12, deadline=None)
@given(
    players=st.sampled_from([2, 3, 4]),
    length=st.sampled_from(["short", "long"]),
    strategy=st.booleans(),
    seed=st.integers(0, 2**31),
    cut=st.floats(0, 1),
    policy=st.integers(0, 2**31),
)
def test_clone_plays_on_exactly_as_deepcopy(players, length, strategy, seed, cut, policy) -> None:
    config = GameConfig(players, length, strategy)
    rng = random.Random(policy)
    full = Game(config, seed)
    moves = []
    while not full.game_over:
        moves.append(rng.choice(full.legal_actions()))
        full.apply(moves[-1])
    game = Game(config, seed)
    for action in moves[: int(cut * len(moves))]:  # to a random point of the game (its end too)
        game.apply(action)
    before = digest(game)

    clone = game.clone()
    reference = copy.deepcopy([game])[0]  # inside a list: deepcopy's generic, field-by-field path
    plain = copy.deepcopy(game)  # the game alone: deepcopy takes the clone's path
    for copied in (clone, reference, plain):
        assert digest(copied) == before
        assert_independent(game, copied)

    # the same random legal actions on both copies (not the moves above: a new future)
    rng = random.Random(policy + 1)
    played = []
    while not clone.game_over:
        assert clone.legal_actions() == reference.legal_actions()
        played.append(rng.choice(clone.legal_actions()))
        clone.apply(played[-1])
        reference.apply(played[-1])
        if len(played) <= WATCHED_STEPS or len(played) % SPARSE_STEPS == 0 or clone.game_over:
            assert digest(clone) == digest(reference), f"diverged after {len(played)} steps"
    assert reference.game_over and clone.scores == reference.scores
    assert digest(game) == before  # playing on the copies left the original alone
    for action in played:  # and the original, played the same way, ends the same
        game.apply(action)
    assert digest(game) == digest(clone)


def test_clone_copies_the_random_generator_state() -> None:
    game = Game(GameConfig(3), seed=7)
    clone = game.clone()
    assert clone.rng is not game.rng
    assert [clone.rng.random() for _ in range(5)] == [game.rng.random() for _ in range(5)]


def test_clone_is_much_faster_than_deepcopy() -> None:
    result = measure_clone(4, "long", seed=1, rounds=5, number=5)
    assert result["decision"] == result["decisions_in_game"] // 2 > 0
    # granujas_env.bench --clone measures the full figure (at least 10x on a quiet machine); a
    # loaded test machine leaves it lower, but never near deepcopy's own speed
    assert result["ratio"] >= 5, result
    line = clone_line(result)
    assert re.fullmatch(r"Game\.clone: \d+ us, copy\.deepcopy: \d+ us, ratio \d+\.\d", line), line


# --------------------------------------------------------------------------- seeds
def deal(game: Game) -> dict:
    """The whole state but the seed that made it."""
    state = to_dict(game)
    del state["seed"]
    return state


# digests of fresh games recorded before negative seeds got their own games: unchanged
RECORDED = {
    (GameConfig(), 0): "95c8a21819170c695f389914439e4c746e1a22659a3b84871218c376a2fa2f1d",
    (GameConfig(), 5): "2c0a6c7bdc4b26b9d176c1e300e213b1261ce0de069787a4ec71e6775f627499",
    (GameConfig(2, "long", True), 0): "7398ba64f0392687be296abdcda848c6403e31aaf63df40e6c135a2e36284086",
    (GameConfig(3), 2**70 + 3): "6a6cb5764d29badab73bda541e8b08f6b417a855601cbd3d9a205369e36efef2",
}


@pytest.mark.parametrize(("config", "seed"), list(RECORDED))
def test_non_negative_seeds_deal_as_before(config, seed) -> None:
    assert digest(Game(config, seed)) == RECORDED[(config, seed)]


def test_a_negative_seed_deals_its_own_game() -> None:
    assert deal(Game(GameConfig(), -5)) != deal(Game(GameConfig(), 5))
    assert deal(Game(GameConfig(), -1)) != deal(Game(GameConfig(), 1))
    assert deal(Game(GameConfig(), -5)) == deal(Game(GameConfig(), -5))
    assert len({repr(deal(Game(GameConfig(2), seed))) for seed in range(-40, 40)}) == 80


@pytest.mark.parametrize("n", [0, 1, 5, 2**32 - 1, 2**32, 2**70 + 3])
def test_the_seeding_reimplemented_for_negative_seeds_is_cpythons(n) -> None:
    # non-negative n keys the generator with its 32-bit words (no zero word on top); a negative
    # seed appends zero words (engine.game.new_rng): a key no non-negative seed gives
    key = [(n >> s) & 0xFFFFFFFF for s in range(0, max(n.bit_length(), 1), 32)]
    assert (3, (*_mt_init_by_array(key), 624), None) == random.Random(n).getstate()


def test_numpy_integer_seeds_are_ints() -> None:
    game = Game(GameConfig(), np.int64(5))
    assert type(game.seed) is int and game.seed == 5
    assert digest(game) == RECORDED[(GameConfig(), 5)]
    assert Game(GameConfig(), None).seed is None


@pytest.mark.parametrize("seed", [True, False, 5.0, float("nan"), "5", b"5", [5], np.float64(5)])
def test_seeds_other_than_none_or_an_integer_are_refused(seed) -> None:
    with pytest.raises(TypeError, match=r"seed must be None or an integer .*, got "
                       + re.escape(type(seed).__name__)):
        Game(GameConfig(), seed)
