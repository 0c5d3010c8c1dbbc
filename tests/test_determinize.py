"""sample_hidden: a clone in which only what one seat may not know is redrawn.

The seat's observation, legal ids and seat view are unchanged in every sample; hidden values do
change; samples are valid games that play on to the end; and a sample depends only on what the
seat knows (sampling a game or a copy with other hidden values gives the same sample).
"""

from __future__ import annotations

import random
from collections import Counter

import numpy as np
import pytest
from hidden import hide_shuffle, random_midgame
from hypothesis import given, settings
from hypothesis import strategies as st

from granujas_env.codecs import ObservationLayout
from granujas_env.determinize import resample_hidden, sample_hidden
from granujas_env.engine import Game, GameConfig
from granujas_env.engine.game import default_data
from granujas_env.engine.snapshot import digest, to_dict
from granujas_env.invariants import check_invariants
from granujas_env.render import render_text
from granujas_env.view import seat_view

LAYOUT = ObservationLayout(*reversed(default_data()))

midgames = {
    "seed": st.integers(0, 2**31),
    "players": st.sampled_from([2, 3, 4]),
    "length": st.sampled_from(["short", "long"]),
    "strategy": st.booleans(),
}


@settings(max_examples=40, deadline=None)
@given(**midgames)
def test_the_seat_sees_the_same_game_in_every_sample(
    seed: int, players: int, length: str, strategy: bool
) -> None:
    game = random_midgame(seed, players, length, strategy)
    before = digest(game)
    for seat in range(players):
        sample = sample_hidden(game, seat, random.Random(seed + seat))
        assert np.array_equal(LAYOUT.encode(game, seat), LAYOUT.encode(sample, seat))
        assert seat_view(game, seat) == seat_view(sample, seat)
        assert render_text(game, seat) == render_text(sample, seat)
        assert sample.current_player == game.current_player
        if game.current_player == seat:
            assert sample.legal_actions() == game.legal_actions()
        check_invariants(sample)
    assert digest(game) == before  # the game itself is untouched


@settings(max_examples=40, deadline=None)
@given(**midgames)
def test_the_sample_depends_only_on_what_the_seat_knows(
    seed: int, players: int, length: str, strategy: bool
) -> None:
    game = random_midgame(seed, players, length, strategy)
    for seat in range(players):
        changed = hide_shuffle(game, seat, random.Random(seed))
        a = sample_hidden(game, seat, random.Random(7))
        b = sample_hidden(changed, seat, random.Random(7))
        if game.game_over:  # nothing is hidden at the end: the sample is a plain clone
            assert digest(a) == digest(game)
        else:
            assert to_dict(a) == to_dict(b)


def _midgame_with_secrets() -> Game:
    """A 3-player day-2 game in which every rival has hidden face-down cards and unseen Safes."""
    for seed in range(200):
        game = random_midgame(seed, 3, "long")
        if (
            not game.game_over
            and game.day >= 2
            and all(any(c.slot > 0 for c in p.played) for p in game.players[1:])
            and game.players[0].known_safes
        ):
            return game
    raise AssertionError("no suitable game")


@pytest.fixture(scope="module")
def secrets() -> Game:
    return _midgame_with_secrets()


def test_hidden_values_differ_between_samples_and_known_ones_do_not(secrets: Game) -> None:
    game, seat = secrets, 0
    known = game.players[seat].known_safes
    known_cards = {(d, s, slot) for d, s, slot, _ in game.known_card_values(seat)}
    today = len(game.played_log) - 1
    seen: dict[str, set] = {k: set() for k in ("hands", "face_down", "safes", "decks", "own", "rng", "log")}
    for k in range(30):
        sample = sample_hidden(game, seat, random.Random(k))
        seen["hands"].add(tuple(tuple(p.hand) for p in sample.players[1:]))
        seen["face_down"].add(
            tuple(
                c.value
                for p in sample.players[1:]
                for c in p.played
                if (today, p.seat, c.slot) not in known_cards
            )
        )
        seen["safes"].add(tuple(s.value for s in sample.safes if s.id not in known))
        seen["decks"].add((tuple(sample.occ_deck), tuple(sample.trait_deck)))
        seen["own"].add(tuple(sample.players[seat].deck))
        seen["rng"].add(sample.rng.random())
        seen["log"].add(repr([day[1:] for day in sample.played_log[:today]]))
        # what the seat knows is kept
        assert sample.players[seat].hand == game.players[seat].hand
        assert [s.value for s in sample.safes if s.id in known] == [
            s.value for s in game.safes if s.id in known
        ]
        assert sample.known_card_values(seat) == game.known_card_values(seat)
        assert sample.seed is None  # the seed would give the true deal back
    assert all(len(values) > 1 for values in seen.values()), {k: len(v) for k, v in seen.items()}
    assert game.rng.random() not in seen["rng"]  # future chance is not the true one


def test_samples_play_on_to_the_end_with_every_invariant(secrets: Game) -> None:
    for k in range(3):
        sample = sample_hidden(secrets, k % 3, random.Random(k))
        rng = random.Random(k)
        while not sample.game_over:
            sample.apply(rng.choice(sample.legal_actions()))
            check_invariants(sample)
        assert sample.winner is not None


def test_rival_hands_are_uniform_over_the_unknown_values() -> None:
    game = Game(GameConfig(num_players=2), seed=3)  # nothing played yet: 7 values, 4 in hand
    counts: Counter[int] = Counter()
    draws = 700
    for k in range(draws):
        counts.update(sample_hidden(game, game.current_player, random.Random(k)).players[
            1 - game.current_player
        ].hand)
    for value in range(7):
        assert abs(counts[value] / draws - 4 / 7) < 0.07, counts


def test_a_rivals_chosen_plan_card_comes_from_its_new_hand() -> None:
    game = Game(GameConfig(num_players=2), seed=1)
    rival = game.current_player
    game.apply(game.legal_actions()[0])  # the rival picks a card: plan_slot pending
    assert game.decision is not None and game.decision.kind == "plan_slot"
    before = digest(game)
    chosen = set()
    for k in range(30):
        sample = sample_hidden(game, 1 - rival, random.Random(k))
        card = sample.decision.data["card"]
        assert card in sample.players[rival].hand
        chosen.add(card)
        sample.apply(sample.legal_actions()[0])  # the rival can play it
        assert card in [c.value for c in sample.players[rival].played]
    assert len(chosen) > 1
    assert digest(game) == before  # the true choice stays in the true game


def test_rival_strategy_is_resampled_until_the_reveal() -> None:
    game = Game(GameConfig(num_players=2, strategy_cards=True), seed=4)
    first = game.current_player
    game.apply(game.legal_actions()[0])  # the first player chooses in secret
    observer = game.current_player
    choices = {sample_hidden(game, observer, random.Random(k)).players[first].strategy for k in range(20)}
    assert len(choices) == 2
    assert game.players[first].strategy in choices
    game.apply(game.legal_actions()[1])  # everyone has chosen: revealed
    assert game.strategies_revealed
    kept = {sample_hidden(game, observer, random.Random(k)).players[first].strategy for k in range(5)}
    assert kept == {game.players[first].strategy}


def test_resample_hidden_works_in_place_and_checks_its_input(secrets: Game) -> None:
    game = secrets.clone()
    before = digest(game)
    with pytest.raises(ValueError, match=r"seat must be an int in 0\.\.2, got 3"):
        resample_hidden(game, 3, random.Random(0))
    with pytest.raises(ValueError, match="seat must be an int"):
        sample_hidden(game, True, random.Random(0))  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="rng must be a random.Random, got int"):
        resample_hidden(game, 0, 5)  # type: ignore[arg-type]
    assert digest(game) == before  # bad input leaves the game unchanged
    resample_hidden(game, 0, random.Random(1))
    assert digest(game) != before
    assert to_dict(game) == to_dict(sample_hidden(secrets, 0, random.Random(1)))
