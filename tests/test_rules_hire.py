"""Step 3: hiring (cost, placing, rearranging, discarding, «Al contratar») and the Sheriff's Office."""

from __future__ import annotations

import pytest
from scenario import (
    advance_to,
    advance_to_day,
    expect,
    finish_turn,
    make_granuja,
    new_game,
    play,
    play_card,
    put_on_sheet,
    set_hand,
    set_money,
    set_saloon,
)

from granujas_env.engine import actions as A
from granujas_env.engine.state import Granuja


def _to_hire(game, seat: int = 0) -> None:
    advance_to(game, "hire", seat)


FIVE = [
    ("perro", "mugrienta"),
    ("buscador_de_oro", "divertido"),
    ("chef", "corrupto"),
    ("banquero", "legendario"),
    ("consejero", "servicial"),
]


def _full_sheet(game, seat: int = 0) -> list[Granuja]:
    return [put_on_sheet(game, seat, i, make_granuja(game, *pair)) for i, pair in enumerate(FIVE)]


def _next_new(game) -> Granuja:
    """The Granuja the next Saloon refill will create (tops of both decks)."""
    return Granuja(uid=game.next_uid, occ=game.occ_deck[-1], trait=game.trait_deck[-1])


@pytest.mark.parametrize(
    ("occ", "trait", "occ_kw", "trait_kw", "cost"),
    [
        ("banquero", "arrebatadora", {"bullet_holes": 1}, {"cost": 3}, 2),  # 3 icons, 1 covered
        ("impresor", "cibernetico", {"bullet_holes": 1}, {}, 1),  # 2 icons, 1 covered
        ("chef", "anciana", {"bullet_holes": 1}, {}, 0),  # a hole over no icon: 0, not -1
        ("buscador_de_oro", "legendario", {}, {"cost": 3}, 3),  # no holes
        ("chef", "legendario", {"bullet_holes": 2}, {"cost": 3}, 1),  # 3 icons, 2 covered
        ("buscador_de_oro", "nervioso", {"bullet_holes": 0}, {"cost": 0}, 0),  # nothing at all
    ],
)
def test_hire_cost_is_trait_icons_not_covered_by_bullet_holes(occ, trait, occ_kw, trait_kw, cost):
    game = new_game()
    g = make_granuja(game, occ, trait, **occ_kw, **trait_kw)
    assert game.hire_cost(g) == cost
    set_saloon(game, [g, *game.saloon[1:]])
    set_money(game, 0, cost)
    _to_hire(game)
    play(game, A.SALOON + 0)
    assert game.players[0].money == 0
    assert game.history[-1] == ("hire", 1, 0, g.occ, g.trait)


def test_cannot_hire_what_you_cannot_afford_and_saloon_refills() -> None:
    game = new_game()
    expensive = make_granuja(game, "buscador_de_oro", "legendario", bullet_holes=0, cost=3)  # 3 $
    middle = make_granuja(game, "banquero", "arrebatadora", bullet_holes=1, cost=3)  # 2 $
    free = make_granuja(game, "perro", "mugrienta", bullet_holes=1, cost=1)  # 0 $
    set_saloon(game, [expensive, middle, free])
    _to_hire(game)
    set_money(game, 0, 2)
    expect(game, "hire", 0, [A.SALOON + 1, A.SALOON + 2, A.SHERIFF])
    new = _next_new(game)
    play(game, A.SALOON + 1)
    assert game.players[0].money == 0
    # the rest shift right and a new Granuja enters on the left
    assert game.saloon == [new, expensive, free]


def test_place_only_in_an_empty_position_then_rearrange() -> None:
    game = new_game()
    a = put_on_sheet(game, 0, 0, make_granuja(game, "buscador_de_oro", "divertido"))
    b = put_on_sheet(game, 0, 2, make_granuja(game, "chef", "mugrienta"))
    hired = game.saloon[2]
    set_money(game, 0, 10)
    _to_hire(game)
    play(game, A.SALOON + 2)
    expect(game, "place", 0, [A.SHEET + 1, A.SHEET + 3, A.SHEET + 4])
    play(game, A.SHEET + 1)
    assert game.players[0].sheet == [a, hired, b, None, None]
    # rearranging: any swap that moves at least one Granuja, or stop
    swaps = [A.SWAP + k for k, (i, j) in enumerate(A.SWAP_PAIRS) if (i, j) != (3, 4)]
    expect(game, "rearrange", 0, [A.PASS, *swaps])
    play(game, A.SWAP + A.SWAP_PAIRS.index((0, 4)))
    assert game.players[0].sheet == [None, hired, b, None, a]
    play(game, A.SWAP + A.SWAP_PAIRS.index((1, 2)))
    assert game.players[0].sheet == [None, b, hired, None, a]
    play(game, A.PASS)
    expect(game, "challenge", 1)  # the last challenge window of the turn


def test_rearranging_is_bounded() -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "buscador_de_oro", "divertido"))
    set_money(game, 0, 10)
    _to_hire(game)
    play(game, A.SALOON + 0, A.SHEET + 1)
    for _ in range(3):
        play(game, A.SWAP + 0)
    assert game.decision.kind == "rearrange"
    play(game, A.SWAP + 0)
    # 4 swaps reach any order of 5 positions: no fifth is offered, the step ends by itself
    assert game.decision.kind != "rearrange"
    assert [g is not None for g in game.players[0].sheet] == [True, True, False, False, False]


def test_rearranging_happens_only_after_a_hire() -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "buscador_de_oro", "divertido"))
    put_on_sheet(game, 0, 1, make_granuja(game, "chef", "mugrienta"))
    set_hand(game, 0, [3, 4, 5, 6], [0, 1, 2])
    play_card(game, 3, 3)
    start = (game.day, game.turn)
    swap_ids = set(range(A.SWAP, A.SWAP + len(A.SWAP_PAIRS)))
    kinds = []
    while (game.day, game.turn) == start:
        kinds.append(game.decision.kind)
        assert not swap_ids & set(game.legal_actions())
        play(game, A.SHERIFF if game.decision.kind == "hire" else game.legal_actions()[0])
    assert "rearrange" not in kinds and "sheriff_option" in kinds


def test_full_sheet_discard_one_of_the_sheet() -> None:
    game = new_game()
    sheet = _full_sheet(game)
    hired = game.saloon[1]
    set_money(game, 0, 10)
    _to_hire(game)
    play(game, A.SALOON + 1)
    expect(game, "place", 0, [*(A.SHEET + i for i in range(5)), A.DISCARD_NEW])
    play(game, A.SHEET + 2)
    assert game.players[0].sheet == [sheet[0], sheet[1], hired, sheet[3], sheet[4]]
    assert game.discard[-1] is sheet[2]
    expect(game, "rearrange", 0)


def test_full_sheet_discard_the_new_one() -> None:
    game = new_game()
    sheet = _full_sheet(game)
    hired = game.saloon[0]
    set_money(game, 0, 10)
    _to_hire(game)
    play(game, A.SALOON + 0, A.DISCARD_NEW)
    assert game.players[0].sheet == sheet
    assert game.discard == [hired]


@pytest.mark.parametrize("use", [True, False])
def test_on_hire_granuja_resolves_and_goes_to_the_discard_pile(use: bool) -> None:
    game = new_game()
    sheet = _full_sheet(game)
    charming = make_granuja(game, "buscador_de_oro", "encantador")  # 0 $, «Al contratar»
    set_saloon(game, [game.saloon[0], charming, game.saloon[2]])
    _to_hire(game)
    money = game.players[0].money
    play(game, A.SALOON + 1)
    expect(game, "on_hire", 0, [A.PASS, A.CONFIRM])
    # already on the discard pile while its ability resolves (it never reaches the sheet)
    assert game.discard == [charming] and game.limbo is None
    play(game, A.CONFIRM if use else A.PASS)
    assert game.players[0].money == money + (3 if use else 0)
    # never on the sheet (even a full one: no place / discard decision), always discarded
    assert game.players[0].sheet == sheet
    assert game.discard == [charming] and game.limbo is None
    assert game.decision.kind != "place"


def test_on_hire_ability_that_cannot_be_paid_is_not_offered() -> None:
    game = new_game()
    # 1 icon, 1 hole: 0 $; «Gasta 1 $ para obtener 5 $»
    charming = make_granuja(game, "chef", "encantador", bullet_holes=1)
    set_saloon(game, [charming, *game.saloon[1:]])
    _to_hire(game)
    set_money(game, 0, 0)
    play(game, A.SALOON + 0)
    # nothing to choose: the on-hire question is skipped and the Granuja is discarded at once
    assert game.decision.kind not in ("on_hire", "place")
    assert game.discard == [charming] and game.players[0].money == 0


def test_sheriff_discards_the_rightmost_and_refills_before_the_option() -> None:
    game = new_game()
    a, b, c = game.saloon
    new = _next_new(game)
    _to_hire(game)
    play(game, A.SHERIFF)
    expect(game, "sheriff_option", 0, [A.SELL_INFORMATION, A.PAY_BAIL])
    assert game.discard == [c]
    assert game.saloon == [new, a, b]
    play(game, A.SELL_INFORMATION)
    assert game.players[0].money == 6
    assert game.history[-1] == ("sheriff", 1, 0, 0)


def test_bail_frees_up_to_two_henchmen_of_anyone_for_2_each() -> None:
    game = new_game(3)
    _to_hire(game)
    set_money(game, 0, 5)
    play(game, A.SHERIFF, A.PAY_BAIL)
    # the first one is compulsory once bail is chosen
    expect(game, "bail", 0, [A.SEAT + 0, A.SEAT + 1, A.SEAT + 2])
    play(game, A.SEAT + 2)
    assert (game.players[2].free_henchmen, game.players[2].jailed_henchmen) == (3, 0)
    assert game.players[0].money == 3
    expect(game, "bail", 0, [A.PASS, A.SEAT + 0, A.SEAT + 1])
    play(game, A.SEAT + 0)
    assert (game.players[0].free_henchmen, game.players[0].jailed_henchmen) == (3, 0)
    assert game.players[0].money == 1
    assert [h for h in game.history if h[0] == "bail"] == [("bail", 1, 0, 2), ("bail", 1, 0, 0)]
    assert game.decision.kind != "bail"  # at most two


def test_bail_needs_money_and_a_jailed_henchman() -> None:
    game = new_game()
    _to_hire(game)
    set_money(game, 0, 1)
    play(game, A.SHERIFF)
    expect(game, "sheriff_option", 0, [A.SELL_INFORMATION])
    game2 = new_game()
    for p in game2.players:
        p.free_henchmen, p.jailed_henchmen = 3, 0
    _to_hire(game2)
    play(game2, A.SHERIFF)
    expect(game2, "sheriff_option", 0, [A.SELL_INFORMATION])


def test_bail_stops_when_the_second_cannot_be_paid() -> None:
    game = new_game()
    _to_hire(game)
    set_money(game, 0, 3)
    play(game, A.SHERIFF, A.PAY_BAIL, A.SEAT + 1)
    assert game.players[0].money == 1
    assert game.decision.kind != "bail"  # a second bail cannot be paid: not asked
    assert game.players[0].jailed_henchmen == 1


def test_no_bribe_before_the_last_day() -> None:
    game = new_game()
    _to_hire(game)
    set_money(game, 0, 30)
    play(game, A.SHERIFF)
    assert A.BRIBE_SHERIFF not in game.legal_actions()


@pytest.mark.parametrize(("length", "last"), [("short", 2), ("long", 3)])
def test_bribe_the_sheriff_on_the_last_day_for_12(length: str, last: int) -> None:
    game = new_game(2, length)
    if last == 3:
        advance_to_day(game, 2)
        _to_hire(game, game.current)
        set_money(game, game.current, 12)
        play(game, A.SHERIFF)
        assert A.BRIBE_SHERIFF not in game.legal_actions()
        finish_turn(game)
    advance_to_day(game, last)
    seat = game.current
    _to_hire(game, seat)
    set_money(game, seat, 11)
    play(game, A.SHERIFF)
    assert A.BRIBE_SHERIFF not in game.legal_actions()
    finish_turn(game)
    seat = game.current
    _to_hire(game, seat)
    set_money(game, seat, 12)
    play(game, A.SHERIFF)
    assert A.BRIBE_SHERIFF in game.legal_actions()
    play(game, A.BRIBE_SHERIFF)
    assert game.players[seat].money == 0
    expect(game, "steal_target", seat, [A.BOARD_SAFE + i for i in range(15)])
    sid = game.board[1][4]
    play(game, A.BOARD_SAFE + 9)
    assert game.players[seat].safes == [sid]


def test_alguacil_uses_an_office_option_without_touching_the_saloon() -> None:
    game = new_game()
    put_on_sheet(game, 0, 0, make_granuja(game, "alguacil", "divertido"))
    set_hand(game, 0, [3, 4, 5, 6], [0, 1, 2])
    saloon = list(game.saloon)
    play_card(game, 6, 6)
    play(game, A.PASS, A.SHEET + 0)
    assert game.players[0].money == 8
    expect(game, "sheriff_option", 0, [A.SELL_INFORMATION, A.PAY_BAIL])
    play(game, A.SELL_INFORMATION)
    assert game.players[0].money == 10
    assert game.saloon == saloon and game.discard == []
    # the Office may still be used in step 3, even the same option
    _to_hire(game)
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    assert game.players[0].money == 12
