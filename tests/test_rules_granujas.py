"""Granuja timings and modifiers: start of turn (Anciana), responses (Servicial), «Después de que
obtengas reputación» (Parlanchina), use twice (Arrebatadora), extra money (Corrupto), self-discard."""

from __future__ import annotations

import pytest
from scenario import (
    advance_to,
    expect,
    make_granuja,
    new_game,
    play,
    play_card,
    play_plain_turns,
    play_turn,
    put_on_sheet,
    restart_turn,
    set_hand,
    set_money,
    set_reputation,
    set_saloon,
)

from granujas_env.engine import actions as A

# --------------------------------------------------------------------------- Anciana


def test_anciana_is_used_at_the_start_of_the_turn_then_discarded() -> None:
    game = new_game()
    elder = put_on_sheet(game, 0, 2, make_granuja(game, "banquero", "anciana"))
    restart_turn(game)
    expect(game, "start_ability", 0, [A.PASS, A.SHEET + 2])
    assert game.players[0].played == []  # before playing a card
    play(game, A.SHEET + 2)
    assert game.players[0].money == 8
    assert game.players[0].sheet[2] is None
    assert game.discard == [elder]
    expect(game, "plan_card", 0)


def test_anciana_may_be_kept_for_a_later_turn() -> None:
    game = new_game()
    elder = put_on_sheet(game, 0, 0, make_granuja(game, "banquero", "anciana"))
    restart_turn(game)
    play(game, A.PASS)
    expect(game, "plan_card", 0)
    assert game.players[0].sheet[0] is elder and game.players[0].money == 4
    # it is a start-of-turn card: never offered in step 2
    play_card(game, game.players[0].hand[0], 3)
    play(game, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    advance_to(game, "start_ability", 0)  # offered again at the start of the next turn
    assert game.turn == 2
    expect(game, "start_ability", 0, [A.PASS, A.SHEET + 0])


def test_start_of_turn_is_skipped_without_such_a_granuja() -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "banquero", "divertido"))
    restart_turn(game)
    expect(game, "plan_card", 0)


# --------------------------------------------------------------------------- Servicial


def _dog_and_helper(
    game, helper_occ: str = "buscador_de_oro", dog_pos: int = 0, helper_pos: int = 1
):
    dog = put_on_sheet(game, 0, dog_pos, make_granuja(game, "perro", "mugrienta", slots=[2, 6]))
    helper = put_on_sheet(game, 0, helper_pos, make_granuja(game, helper_occ, "servicial"))
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    play_card(game, 2, 2)
    play(game, A.PASS)
    return dog, helper


def test_servicial_responds_after_the_granuja_on_its_left_was_used() -> None:
    game = new_game()
    dog, helper = _dog_and_helper(game)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 0])  # Servicial has no slot icon
    play(game, A.SHEET + 0, A.BOARD_SAFE + 0, A.MARK_FACE + 2)
    # the dog is discarded after its ability; its right neighbour may respond
    assert game.players[0].sheet[0] is None and game.discard == [dog]
    expect(game, "response", 0, [A.PASS, A.SHEET + 1])
    play(game, A.SHEET + 1)
    assert game.players[0].money == 7
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # back to step 2


def test_servicial_may_decline_to_respond() -> None:
    game = new_game()
    _dog_and_helper(game)
    play(game, A.SHEET + 0, A.BOARD_SAFE + 0, A.MARK_FACE + 2, A.PASS)
    assert game.players[0].money == 4
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_servicial_not_offered_when_its_neighbour_was_not_used() -> None:
    game = new_game()
    _dog_and_helper(game)
    play(game, A.LEADER, A.BOARD_SAFE + 0, A.MARK_FACE + 2)  # the leader is not a Granuja
    expect(game, "ability", 0, [A.PASS, A.SHEET + 0])
    play(game, A.PASS)  # the dog is not used: no response either
    expect(game, "challenge", 1)
    assert game.players[0].money == 4


def test_servicial_arrow_points_one_way_only() -> None:
    game = new_game()
    # Servicial left of the dog: its arrow points away from it
    _dog_and_helper(game, dog_pos=1, helper_pos=0)
    play(game, A.SHEET + 1, A.BOARD_SAFE + 0, A.MARK_FACE + 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert game.players[0].money == 4


def test_servicial_not_offered_when_it_cannot_pay_its_cost() -> None:
    game = new_game()
    set_money(game, 0, 2)
    _dog_and_helper(game, helper_occ="consejero")  # «Gasta 3 $ para obtener 1 de reputación»
    play(game, A.SHEET + 0, A.BOARD_SAFE + 0, A.MARK_FACE + 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert game.players[0].reputation == 0


# --------------------------------------------------------------------------- Parlanchina


def _advisor_turn(game, advisors: int = 1) -> list:
    # both Consejero/a cards are needed for two advisors: a Saloon without any
    set_saloon(
        game,
        [
            make_granuja(game, "banquero", "mugrienta"),
            make_granuja(game, "impresor", "nervioso"),
            make_granuja(game, "res", "generosa"),
        ],
    )
    slots = ([3, 6], [1, 3])  # both Divertido copies show slot 3
    advisor = [
        put_on_sheet(game, 0, 2 * i, make_granuja(game, "consejero", "divertido", slots=slots[i]))
        for i in range(advisors)
    ]
    chatty = put_on_sheet(game, 0, 1, make_granuja(game, "chef", "parlanchina"))
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    play_card(game, 3, 3)
    play(game, A.PASS)
    return [*advisor, chatty]


def test_parlanchina_offered_after_gaining_reputation() -> None:
    game = new_game()
    _advisor_turn(game)
    play(game, A.SHEET + 0)  # spend 3 $, +1 reputation
    assert (game.players[0].money, game.players[0].reputation) == (1, 1)
    expect(game, "trigger", 0, [A.PASS, A.SHEET + 1])
    play(game, A.SHEET + 1)  # Chef: spend 1 $ to get 5 $
    assert game.players[0].money == 5
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_parlanchina_not_offered_at_reputation_6() -> None:
    game = new_game()
    set_reputation(game, 0, 6)
    _advisor_turn(game)
    play(game, A.SHEET + 0)
    assert (game.players[0].money, game.players[0].reputation) == (1, 6)
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_parlanchina_once_per_turn_even_after_two_gains() -> None:
    game = new_game()
    set_money(game, 0, 10)
    _advisor_turn(game, advisors=2)
    play(game, A.SHEET + 0)
    expect(game, "trigger", 0, [A.PASS, A.SHEET + 1])
    play(game, A.SHEET + 1)
    assert game.players[0].money == 11
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 2])
    play(game, A.SHEET + 2)
    assert (game.players[0].money, game.players[0].reputation) == (8, 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # no second trigger


def test_parlanchina_declined_then_offered_again_on_the_next_gain() -> None:
    game = new_game()
    set_money(game, 0, 10)
    _advisor_turn(game, advisors=2)
    play(game, A.SHEET + 0, A.PASS, A.SHEET + 2)
    expect(game, "trigger", 0, [A.PASS, A.SHEET + 1])


def test_parlanchina_at_the_end_of_the_day() -> None:
    game = new_game()
    chatty = put_on_sheet(game, 1, 4, make_granuja(game, "chef", "parlanchina"))
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=[1])
    play_plain_turns(game, 7)
    # seat 1 caught a bluff: +1 reputation at the end of the day, then its Parlanchina
    assert game.players[1].reputation == 1
    money = game.players[1].money
    expect(game, "trigger", 1, [A.PASS, A.SHEET + 4])
    play(game, A.SHEET + 4)
    assert game.players[1].money == money + 4
    assert game.players[1].sheet[4] is chatty
    expect(game, "first_player", 1)  # then the highest reputation chooses


# --------------------------------------------------------------------------- use twice


def _ravishing(game, occ: str = "buscador_de_oro", helper: bool = True):
    g = put_on_sheet(game, 0, 0, make_granuja(game, occ, "arrebatadora", slots=[6]))  # use twice
    if helper:
        put_on_sheet(game, 0, 1, make_granuja(game, "buscador_de_oro", "servicial"))
    set_hand(game, 0, [1, 2, 3, 6], [0, 4, 5])
    play_card(game, 6, 6)
    play(game, A.PASS)
    return g


def test_use_twice_then_the_response() -> None:
    game = new_game()
    _ravishing(game)
    play(game, A.SHEET + 0)
    assert game.players[0].money == 7
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])  # before any response
    play(game, A.CONFIRM)
    assert game.players[0].money == 10
    expect(game, "response", 0, [A.PASS, A.SHEET + 1])  # the response once, after both uses
    play(game, A.SHEET + 1)
    assert game.players[0].money == 13
    assert game.decision.kind != "response"


def test_the_second_use_is_optional() -> None:
    game = new_game()
    _ravishing(game)
    play(game, A.SHEET + 0, A.PASS)
    assert game.players[0].money == 7
    expect(game, "response", 0, [A.PASS, A.SHEET + 1])


def test_use_twice_before_discarding() -> None:
    game = new_game()
    dog = _ravishing(game, occ="perro", helper=False)
    play(game, A.SHEET + 0, A.BOARD_SAFE + 0, A.MARK_FACE + 2)
    expect(game, "use_again", 0)
    assert game.players[0].sheet[0] is dog  # still there between the two uses
    play(game, A.CONFIRM, A.BOARD_SAFE + 1, A.MARK_FACE + 3)
    assert game.safes[game.board[0][0]].marks == [(0, 2)]
    assert game.safes[game.board[0][1]].marks == [(0, 3)]
    assert game.players[0].sheet[0] is None and game.discard == [dog]


def test_second_use_must_be_payable() -> None:
    game = new_game()
    _ravishing(game, occ="consejero", helper=False)
    play(game, A.SHEET + 0)  # 4 $ -> 1 $, +1 reputation: a second use cannot be paid
    assert (game.players[0].money, game.players[0].reputation) == (1, 1)
    assert game.decision.kind != "use_again"


# --------------------------------------------------------------------------- extra money


@pytest.mark.parametrize(("occ", "money", "after"), [("impresor", 4, 8), ("chef", 1, 6)])
def test_extra_money_comes_before_the_ability(occ: str, money: int, after: int) -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, occ, "corrupto", slots=[3, 4]))  # +1 $
    set_money(game, 0, money)
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    play_card(game, 4, 4)
    play(game, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 0])
    play(game, A.SHEET + 0)
    assert game.players[0].money == after


def test_extra_money_not_given_when_the_granuja_is_not_used() -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "impresor", "corrupto", slots=[3, 4]))
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    play_card(game, 4, 4)
    play(game, A.PASS, A.LEADER, A.PASS)
    assert game.players[0].money == 8  # the leader's 4 $ only


# --------------------------------------------------------------------------- self-discard


def test_discard_self_granuja_leaves_the_sheet_after_use() -> None:
    game = new_game()
    dog = put_on_sheet(game, 0, 3, make_granuja(game, "perro", "mugrienta", slots=[5, 6]))
    set_hand(game, 0, [1, 2, 3, 5], [0, 4, 6])
    play_card(game, 5, 5)
    play(game, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 3])
    play(game, A.SHEET + 3)
    expect(game, "peek_target", 0)
    assert game.players[0].sheet[3] is dog  # the ability resolves fully first
    play(game, A.BOARD_SAFE + 14, A.MARK_FACE + 7)
    assert game.players[0].sheet[3] is None and game.discard == [dog]


def test_extra_money_pays_for_the_ability_it_precedes() -> None:
    # Chef Corrupto at 0 $: the +1 $ icon pays out first, so «Gasta 1 $ para obtener 5 $» works
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "chef", "corrupto", slots=[3, 4]))
    set_money(game, 0, 0)
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    play_card(game, 4, 4)
    play(game, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.SHEET + 0])
    play(game, A.SHEET + 0)
    assert game.players[0].money == 5  # 0 + 1 - 1 + 5
