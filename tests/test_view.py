"""The semantic per-seat view holds exactly what the seat may know.

Changing only what a seat may not know (opponents' hands and face-down values, deck orders, Safe
values it has not seen, the Granuja decks) must leave its view equal; changing public or own
information must change it. The pending decision's context and legal ids go to the acting seat only.
"""

from __future__ import annotations

import copy
import random

import pytest
from hidden import hide_shuffle, random_midgame

from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.view import SeatView, seat_view


@pytest.mark.parametrize("seed", range(30))
def test_hidden_changes_leave_the_view_equal(seed: int) -> None:
    players = 2 + seed % 3
    game = random_midgame(seed, players, "long" if seed % 2 else "short")
    rng = random.Random(seed)
    for seat in range(players):
        view = seat_view(game, seat)
        for _ in range(2):
            assert seat_view(hide_shuffle(game, seat, rng), seat) == view, seat


def test_the_hidden_shuffle_really_changes_hidden_state() -> None:
    changed = 0
    for seed in range(10):
        game = random_midgame(seed, 3)
        other = hide_shuffle(game, 0, random.Random(seed))
        hands = [p.hand for p in game.players[1:]] != [p.hand for p in other.players[1:]]
        values = [s.value for s in game.safes] != [s.value for s in other.safes]
        changed += hands or values
    assert changed >= 8


@pytest.mark.parametrize("seed", range(8))
def test_visible_changes_change_the_view(seed: int) -> None:
    game = random_midgame(seed, 3)
    for seat in range(3):
        base = seat_view(game, seat)
        for target in range(3):
            changed = copy.deepcopy(game)
            changed.players[target].money += 1
            assert seat_view(changed, seat) != base
        board = [sid for row in game.board for sid in row if sid is not None]
        if board:
            changed = copy.deepcopy(game)
            changed.safes[board[0]].marks.append(((seat + 1) % 3, 7))
            assert seat_view(changed, seat) != base
        me = game.players[seat]
        if me.hand and me.deck and me.deck[0] not in me.hand:
            own = copy.deepcopy(game)
            own.players[seat].hand[0], own.players[seat].deck[0] = me.deck[0], me.hand[0]
            assert seat_view(own, seat) != base


def test_view_content_matches_the_game() -> None:
    for seed in range(12):
        game = random_midgame(seed, 4)
        for seat in range(4):
            view = seat_view(game, seat)
            assert isinstance(view, SeatView)
            me = game.players[seat]
            assert view.hand == tuple(sorted(me.hand))
            for player, pv in zip(game.players, view.players):
                assert pv.money == player.money and pv.reputation == player.reputation
                assert pv.hand_size == len(player.hand) and pv.safes == tuple(player.safes)
                assert pv.free_henchmen == player.free_henchmen
                for card, played in zip(player.played, pv.played):
                    assert played.slot == card.slot
                    if player.seat == seat:
                        assert played.value == card.value
                    elif played.value is not None:  # peeked at, or a 0 face up
                        assert played.value == card.value
            # declared slots are the public half of the played log
            for day, by_seat in enumerate(game.played_log):
                for s, cards in enumerate(by_seat):
                    assert view.declared[day][s] == tuple(slot for slot, _ in cards)
            assert view.own_values == tuple(tuple(by[seat]) for by in game.played_log)
            assert view.reveals == tuple(game.reveals)
            # Safes: every board / held Safe, value only when seen, Marks with owner and face
            on_table = {s.id for s in game.safes if s.board_pos >= 0 or s.holder >= 0}
            assert set(view.safes) == on_table
            for sid, sv in view.safes.items():
                safe = game.safes[sid]
                assert sv.marks == tuple(safe.marks) and sv.holder == safe.holder
                assert sv.value == (safe.value if sid in me.known_safes else None)
            assert view.unused_counts == tuple(len(p) for p in game.unused)
            # the decision: kind public, context and legal ids to the acting seat only
            acting = not game.game_over and game.current_player == seat
            assert view.acting == acting
            assert view.decision == (None if game.game_over else game.decision.kind)
            if acting:
                assert view.legal_actions == tuple(game.legal_actions())
                assert view.context == dict(game.decision.data)
            else:
                assert view.legal_actions == () and view.context is None


def test_view_is_a_snapshot() -> None:
    game = random_midgame(3, 2, "short")
    seat = game.current_player
    view = seat_view(game, seat)
    before = copy.deepcopy(view)
    game.apply(game.legal_actions()[0])
    assert view == before  # nothing in the view aliases the game's mutable state


def test_finished_game_view() -> None:
    rng = random.Random(0)
    game = Game(GameConfig(num_players=2, game_length="short"), seed=5)
    while not game.game_over:
        game.apply(rng.choice(game.legal_actions()))
    view = seat_view(game, 0)
    assert view.game_over and view.decision is None and view.legal_actions == ()
    assert view.scores == tuple(game.scores) and view.winner == game.winner


def test_bad_seat() -> None:
    game = Game(GameConfig(num_players=2), seed=0)
    with pytest.raises(ValueError, match="seat"):
        seat_view(game, 2)


def test_strategy_cards_stay_secret_until_revealed() -> None:
    game = Game(GameConfig(num_players=3, strategy_cards=True), seed=1)
    assert game.decision.kind == "choose_strategy"
    chooser = game.current_player
    game.apply(game.legal_actions()[0])
    if game.decision.kind != "choose_strategy":  # pragma: no cover - setup order changed
        pytest.skip("no second secret choice to observe")
    other = copy.deepcopy(game)
    other.players[chooser].strategy = game.players[chooser].strategy + 1  # another secret choice
    for seat in range(3):
        if seat != chooser:
            assert seat_view(game, seat) == seat_view(other, seat)
            assert seat_view(game, seat).players[chooser].strategy == -1
    assert seat_view(game, chooser).players[chooser].strategy == game.players[chooser].strategy
    while game.decision.kind == "choose_strategy":
        game.apply(game.legal_actions()[0])
    assert all(p.strategy >= 0 for p in seat_view(game, (chooser + 1) % 3).players)


def test_free_slots_are_the_slots_the_engine_offers() -> None:
    checked = 0
    for seed in range(6):
        rng = random.Random(seed)
        game = Game(GameConfig(num_players=3), seed=seed)
        while not game.game_over:
            if game.stack[-1].kind == "plan_slot":
                view = seat_view(game, game.current_player)
                assert [A.SLOT + s for s in view.free_slots] == sorted(
                    a for a in game.legal_actions() if A.SLOT < a <= A.SLOT + 6
                )
                checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked >= 100  # every Plan of six random games
