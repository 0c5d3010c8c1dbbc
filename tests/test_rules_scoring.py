"""Scoring (Safes, matching Marks of anyone, reputation square, tech icons) and the tie-breaks."""

from __future__ import annotations

import pytest
from scenario import (
    advance_to,
    advance_to_day,
    finish_game,
    give_safe,
    make_granuja,
    new_game,
    place_mark,
    play,
    put_on_sheet,
    set_money,
    set_reputation,
)

from granujas_env.engine import actions as A


def test_score_is_safes_plus_matching_marks_plus_reputation_plus_tech_icons() -> None:
    game = new_game()
    advance_to_day(game, 2)
    s1, s2 = game.board[2][0], game.board[1][0]
    v1, v2 = game.safes[s1].value, game.safes[s2].value
    give_safe(game, 0, s1)
    give_safe(game, 0, s2)
    place_mark(game, 1, s1, v1)  # a rival's matching Mark counts for the holder
    place_mark(game, 0, s2, v2)
    place_mark(game, 0, s2, 2 if v2 != 2 else 3)  # not matching
    set_reputation(game, 0, 3)
    put_on_sheet(game, 0, 0, make_granuja(game, "sujeto_de_pruebas", "cibernetico", occ_tech=1))
    put_on_sheet(game, 0, 4, make_granuja(game, "banquero", "legendario", occ_tech=0, cost=3))
    expected = {
        "safes": v1 + v2,
        "marks": 2,
        "reputation": game.rules.reputation_tech[3],
        "granujas": 1 + 1 + 0 + 1,  # Sujeto de pruebas 1, Cibernético 1, Banquero 0, Legendario 1
    }
    expected["total"] = sum(expected.values())
    assert game.score_breakdown(0) == expected
    finish_game(game)
    assert game.scores[0] == expected["total"]
    assert game.score_breakdown(1) == {
        "safes": 0,
        "marks": 0,
        "reputation": 0,
        "granujas": 0,
        "total": 0,
    }


@pytest.mark.parametrize("rep", range(-2, 7))
def test_reputation_square_bonus(rep: int) -> None:
    game = new_game()
    set_reputation(game, 1, rep)
    assert game.score_breakdown(1)["reputation"] == game.rules.reputation_tech[rep]
    assert game.score_breakdown(1)["total"] == game.rules.reputation_tech[rep]


def test_reputation_track_is_monotone_and_zero_at_zero() -> None:
    tech = new_game().rules.reputation_tech
    assert tech[0] == 0
    values = [tech[r] for r in range(-2, 7)]
    assert values == sorted(values) and values[0] < 0 < values[-1]


def _to_final_hire(players: int):
    """A default game up to the hire step of the very last turn."""
    game = new_game(players)
    advance_to_day(game, 2)
    last = (game.first_player - 1) % players
    while not (game.turn == 4 * players - 1 and game.decision.kind == "hire"):
        advance_to(game, "hire")
        if game.turn != 4 * players - 1:
            advance_to(game, "plan_card")
    assert game.current == last
    return game


def test_tie_on_score_and_money_goes_to_the_player_of_the_last_turn() -> None:
    game = _to_final_hire(2)
    assert game.current == 1
    finish_game(game)
    assert game.scores == [0, 0]
    assert game.players[0].money == game.players[1].money
    assert game.winner == 1
    assert game.history[-1] == ("end", 2, (0, 0), 1)


def test_tie_on_score_more_money_wins() -> None:
    game = _to_final_hire(2)
    game.players[0].money += 3  # seat 1 still sells information (+2 $) in the last turn
    finish_game(game)
    assert game.scores == [0, 0]
    assert game.winner == 0


def test_score_beats_money() -> None:
    game = _to_final_hire(2)
    set_reputation(game, 0, 1)
    game.players[1].money += 100
    finish_game(game)
    assert game.scores == [game.rules.reputation_tech[1], 0]
    assert game.winner == 0


def test_last_turn_tiebreak_among_the_tied_players_only() -> None:
    game = _to_final_hire(3)
    assert game.current == 2  # seat 2 plays the last turn...
    set_reputation(game, 2, -1)  # ...but is not tied for the lead
    game.players[2].money += 50
    finish_game(game)
    assert game.scores == [0, 0, -1]
    assert game.players[0].money == game.players[1].money
    assert game.winner == 1  # seat 1 played after seat 0


def test_returns_are_zero_sum() -> None:
    for players in (2, 3, 4):
        game = new_game(players)
        assert game.returns() == [0.0] * players
        finish_game(game)
        returns = game.returns()
        assert returns[game.winner] == 1.0
        assert sum(returns) == pytest.approx(0.0)
        assert all(
            r == pytest.approx(-1 / (players - 1))
            for s, r in enumerate(returns)
            if s != game.winner
        )


def test_bribe_steal_on_the_last_turn_counts_for_the_score() -> None:
    game = _to_final_hire(2)
    seat = game.current
    set_money(game, seat, 12)
    sid = game.board[2][3]
    play(game, A.SHERIFF, A.BRIBE_SHERIFF, A.BOARD_SAFE + 13)
    finish_game(game)
    assert game.scores[seat] == game.safes[sid].value
