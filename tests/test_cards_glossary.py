"""Glossary rulings on the Granujas that use, hire or swap other Granujas, the timing-text and
Response Traits, Honesto, and the Strategy cards: one scripted scenario per ruling of
docs/catalog_reconstruction.md §4 (R.., X.., C..) on the cards not covered by test_cards_extra.py.

Conventions: three players P0, P1, P2 clockwise, P0 plays the first turn of a short game (day 1).
Every game starts with an empty Saloon (its cards back in the box) so that each scenario chooses
the physical copies it needs; a scenario that needs Saloon Granujas sets them. Every action goes
through ``Game.apply`` with its legality asserted (``scenario.play``).

Rulings the engine does not follow are ``xfail(strict=True)`` with the reason.
"""

from __future__ import annotations

import pytest
from scenario import (
    advance_to,
    advance_to_day,
    board_action,
    board_action_of,
    board_safe,
    decisions_until,
    expect,
    finish_turn,
    give_safe,
    make_granuja,
    new_game,
    play,
    play_card,
    play_plain_turns,
    play_turn,
    put_on_sheet,
    restart_turn,
    set_hand,
    set_henchmen,
    set_money,
    set_reputation,
    set_saloon,
)

from granujas_env.engine import Game, GameConfig, verbs_extra
from granujas_env.engine import actions as A
from granujas_env.engine.state import Granuja

EST, FIN, LAB = 0, 1, 2
S = A.SHEET  # S + i: sheet position i
SAL = A.SALOON  # SAL + i: Saloon position i (0 = leftmost, 2 = rightmost)


# --------------------------------------------------------------------------- helpers


def new(players: int = 3, first: int = 0) -> Game:
    """A fresh game (seed 0) whose first turn is P``first``'s, with an empty Saloon."""
    game = new_game(players, seed=0, first=first)
    set_saloon(game, [None] * len(game.saloon))
    return game


def new_with_strategies(picks: dict[int, int], first: int = 0, players: int = 3) -> Game:
    """A game with the Strategy cards rule: seat s picks card ``picks[s]`` (0 or 1, default 0) of
    its leader (seat i plays leader i: Preston Cain, Doc Zimmer, Lilith Boone, Milton Goff)."""
    game = Game(GameConfig(players, "short", strategy_cards=True), seed=0)
    while game.decision.kind == "choose_strategy":
        play(game, A.STRATEGY + picks.get(game.decision.player, 0))
    if game.first_player != first:
        game.first_player = first
        restart_turn(game)
    set_saloon(game, [None] * len(game.saloon))
    return game


def G(game: Game, occ: str, trait: str, **kw) -> Granuja:
    return make_granuja(game, occ, trait, **kw)


def on_sheet(game: Game, seat: int, pos: int, occ: str, trait: str, **kw) -> Granuja:
    return put_on_sheet(game, seat, pos, make_granuja(game, occ, trait, **kw))


def to_discard(game: Game, *granujas: Granuja) -> None:
    """Setup: put Granujas on the discard pile, the last one on top."""
    game.discard.extend(granujas)
    game._legal_cache = None


def to_abilities(game: Game, card: int, slot: int, challengers=()) -> None:
    """The current player plays ``card`` in ``slot``; stop at its step-2 ability decision."""
    seat = game.current
    play_card(game, card, slot)
    advance_to(game, "ability", seat, challengers)


def money(game: Game, seat: int = 0) -> int:
    return game.players[seat].money


def names(game: Game, g: Granuja) -> tuple[str, str]:
    """(Occupation id, Trait id) of a Granuja."""
    return (
        game.catalog.occupation_cards[g.occ].occupation.id,
        game.catalog.trait_cards[g.trait].trait.id,
    )


def next_new(game: Game) -> Granuja:
    """The Granuja the next Saloon refill creates (the tops of both decks)."""
    return Granuja(uid=game.next_uid, occ=game.occ_deck[-1], trait=game.trait_deck[-1])


def cost_of(game: Game, g: Granuja) -> int:
    """Dollar icons of the Trait copy not covered by the Occupation copy's bullet holes."""
    trait, occ = game.catalog.trait_cards[g.trait], game.catalog.occupation_cards[g.occ]
    return max(0, trait.cost - occ.bullet_holes)


def henchmen(game: Game, seat: int) -> tuple[int, int]:
    """(free, jailed) henchmen of a seat."""
    p = game.players[seat]
    return p.free_henchmen, p.jailed_henchmen


def kinds_until(game: Game, kind: str, player: int | None = None) -> list[str]:
    """Default choices until a ``kind`` decision (of ``player``); the decision kinds met."""
    frames = decisions_until(
        game,
        lambda g: g.decision.kind == kind and (player is None or g.decision.player == player),
    )
    return [f.kind for f in frames]


def full_sheet(game: Game, seat: int = 0, keep: dict[int, Granuja] | None = None) -> list:
    """Fill every empty sheet position with a plain Granuja (no slot icon 3, no timing text)."""
    fillers = [
        ("impresor", "mugrienta", {"slots": [2, 5]}),
        ("banquero", "cibernetico", {"slots": [1, 2]}),
        ("chef", "legendario", {"slots": [2, 6]}),
        ("consejero", "mugrienta", {"slots": [5, 6]}),
        ("perro", "cibernetico", {"slots": [4, 6]}),
    ]
    sheet = game.players[seat].sheet
    for pos in range(len(sheet)):
        if sheet[pos] is None:
            occ, trait, kw = fillers[pos]
            on_sheet(game, seat, pos, occ, trait, **kw)
    return list(sheet)


# =========================================================================== Alazán/a


def test_alazan_r02_the_self_discarding_granuja_used_is_discarded() -> None:
    """R02: a Res used through Alazán/a discards the Res, not the Alazán/a."""
    game = new()
    horse = on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[2, 5])
    steer = on_sheet(game, 0, 1, "res", "divertido", slots=[1, 3])
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    expect(game, "another_target", 0, [S + 1])
    play(game, S + 1)
    assert money(game) == 4 + 6
    assert game.players[0].sheet == [horse, None, None, None, None]
    assert game.discard == [steer]
    assert {horse.uid, steer.uid} <= game.used
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_alazan_r03_use_twice_uses_two_different_granujas() -> None:
    """R03 (a): Alazán/a Arrebatadora uses two different Granujas, not the same one twice."""
    game = new()
    on_sheet(game, 0, 0, "alazan", "arrebatadora", slots=[6])
    on_sheet(game, 0, 1, "banquero", "divertido", slots=[1, 3])
    on_sheet(game, 0, 2, "buscador_de_oro", "mugrienta", slots=[2, 5])
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    expect(game, "ability", 0, [A.PASS, S + 0])
    play(game, S + 0)
    expect(game, "another_target", 0, [S + 1, S + 2])
    play(game, S + 1)
    assert money(game) == 8
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    expect(game, "another_target", 0, [S + 2])  # the Banquero/a was used by the first use
    play(game, S + 2)
    assert money(game) == 4 + 4 + 3
    expect(game, "challenge", 1)  # nothing left to use on slot 6


def test_alazan_r03_hired_with_temerario_uses_two_different_granujas() -> None:
    """R03 (b): a hired Alazán/a Temerario uses two different sheet Granujas, then it is
    discarded (an «Al contratar» Granuja never reaches the sheet)."""
    game = new()
    banker = on_sheet(game, 0, 1, "banquero", "divertido", slots=[1, 3])
    digger = on_sheet(game, 0, 2, "buscador_de_oro", "mugrienta", slots=[2, 5])
    horse = G(game, "alazan", "temerario", bullet_holes=0)  # 2 $
    set_saloon(game, [None, None, horse])
    set_hand(game, 0, [1, 2, 3, 6])
    play_card(game, 6, 6)
    advance_to(game, "hire", 0)
    expect(game, "hire", 0, [SAL + 2, A.SHERIFF])
    play(game, SAL + 2)
    expect(game, "on_hire", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    expect(game, "another_target", 0, [S + 1, S + 2])
    play(game, S + 1)
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    expect(game, "another_target", 0, [S + 2])
    play(game, S + 2)
    assert money(game) == 4 - 2 + 4 + 3
    expect(game, "rearrange", 0)
    play(game, A.PASS)
    assert game.discard == [horse]
    assert game.players[0].sheet == [None, banker, digger, None, None]


def _alazan_and_innkeeper(game: Game) -> Granuja:
    on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[2, 5])
    on_sheet(game, 0, 1, "posadero", "mugrienta", slots=[5, 6])
    digger = G(game, "buscador_de_oro", "legendario", slots=[5, 6])
    set_saloon(game, [G(game, "banquero", "nervioso"), G(game, "chef", "compasiva"), digger])
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    return digger


def test_alazan_r04_chain_alazan_posadero_saloon() -> None:
    """R04: Alazán/a → your Posadero/a → a Saloon Granuja."""
    game = new()
    digger = _alazan_and_innkeeper(game)
    saloon = list(game.saloon)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0, S + 1])
    play(game, S + 0)
    expect(game, "another_target", 0, [S + 1])
    play(game, S + 1)
    expect(game, "another_target", 0, [SAL + 0, SAL + 1, SAL + 2])
    play(game, SAL + 2)
    assert money(game) == 4 + 3
    assert digger.uid in game.used and game.saloon == saloon
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # the Posadero/a was used through Alazán/a


def test_alazan_r04_not_a_granuja_already_used_this_turn() -> None:
    """R04: the chained Granuja must not have been used this turn: a Posadero/a used by its own
    slot icon is no longer a target of Alazán/a."""
    game = new()
    on_sheet(game, 0, 2, "impresor", "nervioso")
    _alazan_and_innkeeper(game)
    play(game, S + 1)  # Posadero/a by its slot-5 icon
    play(game, SAL + 2)
    assert money(game) == 7
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    expect(game, "another_target", 0, [S + 2])
    play(game, S + 2)
    assert money(game) == 10


def test_alazan_x01_timing_sections_are_ignored() -> None:
    """X01 (rule 0.4-4): the target's slot icons do not matter."""
    game = new()
    on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[5, 6])
    on_sheet(game, 0, 1, "buscador_de_oro", "mugrienta", slots=[2, 6])  # no slot-5 icon
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    expect(game, "another_target", 0, [S + 1])
    play(game, S + 1)
    assert money(game) == 7


@pytest.mark.parametrize("free", [0, 1])
def test_alazan_x01_the_target_trait_cost_is_paid(free: int) -> None:
    """X01: «Para usarlo, mete a 1 de tus Esbirros en la cárcel» (Cruel) still applies: with no
    available henchman the Cruel Granuja is not a target; with one, it is jailed."""
    game = new()
    on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[5, 6])
    on_sheet(game, 0, 1, "buscador_de_oro", "cruel", slots=[1, 3, 6])
    on_sheet(game, 0, 2, "banquero", "nervioso")
    set_henchmen(game, 0, free=free, jailed=3 - free)
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, S + 0)
    if free == 0:
        expect(game, "another_target", 0, [S + 2])
        return
    expect(game, "another_target", 0, [S + 1, S + 2])
    play(game, S + 1)
    assert money(game) == 7
    assert henchmen(game, 0) == (0, 3)


@pytest.mark.parametrize(
    ("occ", "trait", "slots"),
    [("impresor", "corrupto", [3, 4]), ("buscador_de_oro", "arrebatadora", [4])],
)
def test_alazan_x01_the_target_modifier_icons_are_not_used(occ, trait, slots) -> None:
    """X01 (rule 0.4-4/5): used through another Granuja, a Corrupto gives no +1 $ and an
    Arrebatadora is used once."""
    game = new()
    on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[5, 6])
    target = on_sheet(game, 0, 1, occ, trait, slots=slots)
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, S + 0, S + 1)
    assert money(game) == 4 + 3
    assert target.uid in game.used
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # no "use again"


# =========================================================================== Alguacil


def _marshal(game: Game) -> list[Granuja]:
    on_sheet(game, 0, 0, "alguacil", "divertido", slots=[3, 6])
    saloon = [
        G(game, "banquero", "nervioso"),
        G(game, "impresor", "compasiva"),
        G(game, "chef", "energetica"),
    ]
    set_saloon(game, saloon)
    set_money(game, 0, 0)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    assert money(game) == 4
    expect(game, "sheriff_option", 0, [A.SELL_INFORMATION, A.PAY_BAIL])
    play(game, A.SELL_INFORMATION)
    return saloon


def test_alguacil_r05_sheriff_through_alguacil_then_sheriff_in_step3() -> None:
    """R05: the Sheriff's Office through Alguacil (no Saloon discard) does not stop the
    Sheriff's Office in step 3 (which discards the rightmost Saloon Granuja first)."""
    game = new()
    saloon = _marshal(game)
    assert money(game) == 6
    assert game.saloon == saloon and game.discard == []  # no discard, no refill
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.PASS)
    advance_to(game, "hire", 0)
    expect(game, "hire", 0, [SAL + 0, SAL + 1, SAL + 2, A.SHERIFF])
    new_one = next_new(game)
    play(game, A.SHERIFF)
    assert game.discard == [saloon[2]]
    assert game.saloon == [new_one, saloon[0], saloon[1]]
    expect(game, "sheriff_option", 0, [A.SELL_INFORMATION, A.PAY_BAIL])


def test_alguacil_r06_the_same_sheriff_option_twice() -> None:
    """R06: the same Sheriff's Office option again in step 3: 0 + 4 + 2 + 2 $."""
    game = new()
    _marshal(game)
    play(game, A.PASS)
    advance_to(game, "hire", 0)
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    assert money(game) == 0 + 4 + 2 + 2


# =========================================================================== Anciana


def test_anciana_r07_ability_resolves_then_one_discard() -> None:
    """R07: Res Anciana at the start of the turn: +6 $, then discarded once."""
    game = new()
    elder = on_sheet(game, 0, 0, "res", "anciana")
    restart_turn(game)
    expect(game, "start_ability", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 10
    assert game.players[0].sheet[0] is None and game.discard == [elder]
    expect(game, "plan_card", 0)


def test_anciana_r07_peek_and_mark_before_the_discard() -> None:
    """R07: Perro/a Anciana: peek and mark fully resolved while it is still on the sheet; then
    exactly one discard."""
    game = new()
    dog = on_sheet(game, 0, 0, "perro", "anciana")
    restart_turn(game)
    play(game, S + 0)
    expect(game, "peek_target", 0)
    assert game.players[0].sheet[0] is dog and game.discard == []
    sid = game.board[LAB][0]
    play(game, board_action(LAB, 0))
    expect(game, "mark_face", 0)
    assert game.players[0].sheet[0] is dog
    play(game, A.MARK_FACE + 5)
    assert game.safes[sid].marks == [(0, 5)]
    assert game.players[0].sheet[0] is None and game.discard == [dog]
    expect(game, "plan_card", 0)


def _elder_and_generous(game: Game) -> None:
    on_sheet(game, 0, 0, "banquero", "anciana")
    on_sheet(game, 0, 1, "buscador_de_oro", "generosa")
    set_money(game, 0, 0)
    restart_turn(game)
    expect(game, "start_ability", 0, [A.PASS, S + 0, S + 1])


def test_anciana_r08_its_money_then_generosa_is_masked() -> None:
    """R08: start-of-turn abilities in any order, each requirement checked at its use: Anciana's
    4 $ first makes Generosa (0 $ only) unusable."""
    game = new()
    _elder_and_generous(game)
    play(game, S + 0)
    assert money(game) == 4
    expect(game, "plan_card", 0)  # Generosa masked: the start-of-turn step ends by itself


def test_anciana_c07_used_through_alazan_timing_ignored_discard_kept() -> None:
    """C07 (printed callout): Alazán/a uses Banquero/a Anciana in step 2: +4 $ and the Banquero/a
    Anciana is discarded."""
    game = new()
    horse = on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[2, 5])
    elder = on_sheet(game, 0, 1, "banquero", "anciana")
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, S + 0, S + 1)
    assert money(game) == 8
    assert game.players[0].sheet[:2] == [horse, None] and game.discard == [elder]


# =========================================================================== Arrebatadora


def test_arrebatadora_r10_used_twice_then_no_third_use() -> None:
    """R10: twice in a turn (+3, +3); afterwards not even Alazán/a can use it again."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "arrebatadora", slots=[6])
    on_sheet(game, 0, 1, "alazan", "mugrienta", slots=[2, 6])
    on_sheet(game, 0, 2, "banquero", "nervioso")
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    expect(game, "ability", 0, [A.PASS, S + 0, S + 1])
    play(game, S + 0)
    assert money(game) == 7
    play(game, A.CONFIRM)
    assert money(game) == 10
    expect(game, "ability", 0, [A.PASS, S + 1])
    play(game, S + 1)
    expect(game, "another_target", 0, [S + 2])


def test_arrebatadora_r11_discarded_after_both_uses() -> None:
    """R11: a Res Arrebatadora is used twice (+6, +6), then discarded once."""
    game = new()
    steer = on_sheet(game, 0, 0, "res", "arrebatadora", slots=[6])
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)
    assert money(game) == 10
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    assert game.players[0].sheet[0] is steer and game.discard == []
    play(game, A.CONFIRM)
    assert money(game) == 16
    assert game.players[0].sheet[0] is None and game.discard == [steer]


def test_arrebatadora_r12_may_stop_after_one_use() -> None:
    """R12: "stop" after the first use: +3 only, and no second use later this turn."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "arrebatadora", slots=[6])
    on_sheet(game, 0, 1, "alazan", "mugrienta", slots=[2, 6])
    on_sheet(game, 0, 2, "banquero", "nervioso")
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.PASS)
    assert money(game) == 7
    expect(game, "ability", 0, [A.PASS, S + 1])
    play(game, S + 1)
    expect(game, "another_target", 0, [S + 2])


def test_arrebatadora_r13_second_use_follows_the_swapped_occupation() -> None:
    """R13: As del disfraz Arrebatadora swaps its Occupation with s2's Banquero/a on the first
    use; the second use is the Banquero/a's (+4). s2 now holds a used half: not usable."""
    game = new()
    me = on_sheet(game, 0, 0, "as_del_disfraz", "arrebatadora", slots=[6])
    other = on_sheet(game, 0, 2, "banquero", "nervioso")
    disguise, banker = me.occ, other.occ
    set_saloon(
        game,
        [
            G(game, "impresor", "compasiva"),
            G(game, "chef", "energetica"),
            G(game, "res", "servicial"),
        ],
    )
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)
    expect(game, "swap_second", 0, [S + 2, SAL + 0, SAL + 1, SAL + 2])
    play(game, S + 2)
    assert (me.occ, other.occ) == (banker, disguise)
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    assert money(game) == 8
    assert other.uid in game.used


def test_arrebatadora_r14_use_another_twice_two_different_targets() -> None:
    """R14: Posadero/a Arrebatadora: the second use cannot pick the same Saloon Granuja."""
    game = new()
    on_sheet(game, 0, 0, "posadero", "arrebatadora", slots=[6])
    set_saloon(
        game,
        [
            G(game, "banquero", "nervioso"),
            G(game, "chef", "compasiva"),
            G(game, "buscador_de_oro", "energetica"),
        ],
    )
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)
    expect(game, "another_target", 0, [SAL + 0, SAL + 1, SAL + 2])
    play(game, SAL + 2)
    assert money(game) == 7
    play(game, A.CONFIRM)
    expect(game, "another_target", 0, [SAL + 0, SAL + 1])
    play(game, SAL + 0)
    assert money(game) == 11


def _twice_with_helper(game: Game) -> None:
    on_sheet(game, 0, 0, "buscador_de_oro", "arrebatadora", slots=[6])
    on_sheet(game, 0, 1, "banquero", "servicial")
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)


def test_arrebatadora_r15_both_uses_before_any_other_granuja() -> None:
    """R15: after the first use the only choice is "use again" or "stop", Response included."""
    game = new()
    _twice_with_helper(game)
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.PASS)
    expect(game, "response", 0, [A.PASS, S + 1])  # the Response only after that


def test_arrebatadora_r16_connected_response_used_once() -> None:
    """R16: used twice, its Servicial neighbour responds once (+4)."""
    game = new()
    _twice_with_helper(game)
    play(game, A.CONFIRM)
    expect(game, "response", 0, [A.PASS, S + 1])
    play(game, S + 1)
    assert money(game) == 4 + 3 + 3 + 4
    expect(game, "challenge", 1)  # no second response, nothing else on slot 6


# =========================================================================== Atrevida


def test_atrevida_r19_once_per_turn_even_after_two_losses() -> None:
    """R19: two reputation losses in a turn (two Estafador/a uses): Atrevida once."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "atrevida")
    on_sheet(game, 0, 1, "estafador", "mugrienta", slots=[2, 6])
    on_sheet(game, 0, 2, "estafador", "divertido", slots=[3, 6])
    set_reputation(game, 0, 1)
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    expect(game, "ability", 0, [A.PASS, S + 1, S + 2])
    play(game, S + 1)
    expect(game, "steal_money_target", 0, [A.SEAT + 1, A.SEAT + 2])
    play(game, A.SEAT + 1)
    assert (money(game), game.players[0].reputation, money(game, 1)) == (7, 0, 1)
    expect(game, "trigger", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 10
    expect(game, "ability", 0, [A.PASS, S + 2])
    play(game, S + 2, A.SEAT + 2)
    assert (money(game), game.players[0].reputation, money(game, 2)) == (13, -1, 1)
    expect(game, "challenge", 1)  # Atrevida not offered again this turn


def test_atrevida_r19_once_at_end_of_day() -> None:
    """R19: two bluffs caught at the end of the day (two losses): Atrevida offered once."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "atrevida")
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 5, challengers=[1])  # bluff
    play_plain_turns(game, 2)
    play_turn(game, 1, 6, challengers=[1])  # bluff
    advance_to(game, "trigger", 0)
    assert verbs_extra.at_end_of_day(game)
    assert (game.players[0].reputation, game.players[1].reputation) == (-2, 2)
    before = money(game)
    expect(game, "trigger", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == before + 3
    expect(game, "first_player", 1)  # no second Atrevida; P1 has the most reputation


# =========================================================================== Chef


def test_chef_r27_not_usable_at_0_then_usable_after_the_leader_money() -> None:
    """R27: Chef masked at 0 $; after the leader's 3 $: 3 − 1 + 5 = 7 $."""
    game = new()
    on_sheet(game, 0, 0, "chef", "divertido", slots=[3, 6])
    set_money(game, 0, 0)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.LEADER)
    expect(game, "ability", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 7


def test_chef_r27_corrupto_pays_the_ingredients_at_0() -> None:
    """R27 / A-06: a Chef Corrupto at 0 $ is usable: +1 $, spend 1 $, +5 $."""
    game = new()
    on_sheet(game, 0, 0, "chef", "corrupto", slots=[3, 4])
    set_money(game, 0, 0)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    assert money(game) == 5


# =========================================================================== Codicioso


def test_codicioso_r28_money_from_another_granuja() -> None:
    """R28: Banquero/a +4 → Codicioso offered (+3); its own money does not offer it again."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "codicioso")
    on_sheet(game, 0, 1, "banquero", "divertido", slots=[3, 6])
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 1)
    assert money(game) == 8
    expect(game, "trigger", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 11
    expect(game, "challenge", 1)


def test_codicioso_r29_not_leader_or_sheriff_money() -> None:
    """R29: the leader's «Obtén 3 $» and Vender información do not offer Codicioso."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "codicioso")
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.LEADER)
    assert money(game) == 7
    assert "trigger" not in kinds_until(game, "hire", 0)
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    assert money(game) == 9
    expect(game, "challenge", 1)  # the last challenge window: no Codicioso


def test_codicioso_r55_hired_after_the_money_is_not_offered() -> None:
    """R55: Matasanos Corrupto: +1 $ before the hire of a Buscador/a Codicioso into s1: the
    Codicioso was not on the sheet when the money came, so it is not offered."""
    game = new()
    on_sheet(game, 0, 0, "matasanos", "corrupto", slots=[5, 6])
    greedy = G(game, "buscador_de_oro", "codicioso", bullet_holes=1)  # 0 $
    to_discard(game, greedy)
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, S + 0)
    assert money(game) == 5
    expect(game, "place", 0, [S + 1, S + 2, S + 3, S + 4])
    play(game, S + 1, A.PASS)
    assert game.players[0].sheet[1] is greedy
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_codicioso_r55_extra_money_offers_a_codicioso_already_on_the_sheet() -> None:
    """R55 (converse): the Corrupto's +1 $ is money gained by using a Granuja: a Codicioso
    already on the sheet is offered (Perro/a Corrupto: the +1 $ is its only money)."""
    game = new()
    on_sheet(game, 0, 0, "perro", "corrupto", slots=[5, 6])
    on_sheet(game, 0, 1, "buscador_de_oro", "codicioso")
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, S + 0, board_action(LAB, 0), A.MARK_FACE + 5)
    assert money(game) == 5
    expect(game, "trigger", 0, [A.PASS, S + 1])


# =========================================================================== Cruel


@pytest.mark.parametrize("free", [0, 1])
def test_cruel_r30_needs_an_available_henchman(free: int) -> None:
    """R30: no available henchman → masked; one → it goes to jail and the ability resolves."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "cruel", slots=[1, 3, 6])
    set_henchmen(game, 0, free=free, jailed=3 - free)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    if free == 0:
        expect(game, "ability", 0, [A.PASS, A.LEADER])
        return
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    assert money(game) == 7 and henchmen(game, 0) == (0, 3)


# =========================================================================== Egoísta


def test_egoista_r31_used_right_after_step3() -> None:
    """R31: not offered in step 2; offered right after the Sheriff's Office resolved (the
    Saloon already refilled)."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "egoista")
    saloon = [
        G(game, "banquero", "nervioso"),
        G(game, "impresor", "compasiva"),
        G(game, "chef", "energetica"),
    ]
    set_saloon(game, saloon)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.PASS)
    assert set(kinds_until(game, "hire", 0)) == {"challenge"}
    new_one = next_new(game)
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    assert money(game) == 6
    expect(game, "trigger", 0, [A.PASS, S + 0])
    assert game.saloon == [new_one, saloon[0], saloon[1]] and game.discard == [saloon[2]]
    play(game, S + 0)
    assert money(game) == 9


def test_egoista_r32_rivals_get_a_last_chance_to_challenge() -> None:
    """R32: after Egoísta, P1 then P2 may still put a henchman on P0's card."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "egoista")
    set_hand(game, 0, [1, 2, 3, 4])
    play_card(game, 3, 3)
    advance_to(game, "hire", 0)
    play(game, A.SHERIFF, A.SELL_INFORMATION, S + 0)
    expect(game, "challenge", 1, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    expect(game, "challenge", 2, [A.PASS, A.CONFIRM])
    play(game, A.PASS)
    assert game.players[0].card_in_slot(3).henchmen == [1]
    expect(game, "plan_card", 1)  # only then P1's turn


# =========================================================================== Encantador, Rápida


def _hire_on_hire_granuja(game: Game, trait: str, **kw) -> tuple[list, Granuja]:
    sheet = full_sheet(game)
    charm = G(game, "buscador_de_oro", trait, bullet_holes=0, **kw)
    set_saloon(game, [G(game, "banquero", "nervioso"), charm, G(game, "impresor", "compasiva")])
    set_hand(game, 0, [1, 2, 3, 6])
    play_card(game, 6, 6)
    advance_to(game, "hire", 0)
    play(game, SAL + 1)
    expect(game, "on_hire", 0, [A.PASS, A.CONFIRM])  # no "discard from the full sheet" first
    return sheet, charm


def test_encantador_r33_full_sheet_no_discard_needed() -> None:
    """R33: sheet full; hiring a Buscador/a Encantador (1 $): no discard decision, +3 $, then
    it is on the discard pile and the sheet is unchanged."""
    game = new()
    sheet, charm = _hire_on_hire_granuja(game, "encantador")
    play(game, A.CONFIRM)
    assert money(game) == 4 - 1 + 3
    expect(game, "rearrange", 0)
    assert game.players[0].sheet == sheet and game.discard == [charm] and game.limbo is None


def test_encantador_x06_declined_still_discarded() -> None:
    """X06: the «Al contratar» ability declined: still discarded, never on the sheet."""
    game = new()
    sheet, charm = _hire_on_hire_granuja(game, "encantador")
    play(game, A.PASS)
    assert money(game) == 4 - 1
    expect(game, "rearrange", 0)
    assert game.players[0].sheet == sheet and game.discard == [charm]


def test_rapida_x10_as_encantador() -> None:
    """X10 (= R33 with Rápida, 0 $): no discard from the full sheet, +3 $, discarded."""
    game = new()
    sheet, charm = _hire_on_hire_granuja(game, "rapida")
    play(game, A.CONFIRM)
    assert money(game) == 4 + 3
    assert game.players[0].sheet == sheet and game.discard == [charm]


# =========================================================================== Generosa


def test_generosa_r35_money_cannot_be_declined() -> None:
    """R35: money cannot be declined to enable Generosa: at 0 $ P0 keeps its Generosa, but the
    Sheriff's Office then offers only Vender información (+2 $), so Generosa is masked at the
    start of P0's next turn."""
    game = new()
    on_sheet(game, 0, 0, "banquero", "generosa")
    set_money(game, 0, 0)
    restart_turn(game)
    expect(game, "start_ability", 0, [A.PASS, S + 0])
    play(game, A.PASS)
    set_hand(game, 0, [1, 2, 3, 6])
    play_card(game, 6, 6)
    advance_to(game, "hire", 0)
    expect(game, "hire", 0, [A.SHERIFF])
    play(game, A.SHERIFF)
    expect(game, "sheriff_option", 0, [A.SELL_INFORMATION])  # no option that gives nothing
    play(game, A.SELL_INFORMATION)
    finish_turn(game)
    play_plain_turns(game, 2)
    assert money(game) == 2
    expect(game, "plan_card", 0)  # Generosa not offered at the start of P0's next turn


def test_generosa_x07_its_requirement_when_used_first() -> None:
    """X07 / R08: at 0 $ Generosa first (+3), then Anciana (+4, discarded): 7 $."""
    game = new()
    _elder_and_generous(game)
    play(game, S + 1)
    assert money(game) == 3
    expect(game, "start_ability", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 7
    expect(game, "plan_card", 0)


def test_generosa_a04_requirement_kept_through_another_granuja() -> None:
    """A-04: Generosa's 0 $ requirement is checked when Alazán/a uses it."""
    game = new()
    on_sheet(game, 0, 0, "alazan", "mugrienta", slots=[2, 5])
    on_sheet(game, 0, 1, "buscador_de_oro", "generosa")
    on_sheet(game, 0, 2, "banquero", "nervioso")
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, S + 0)
    expect(game, "another_target", 0, [S + 2])  # 4 $: the Generosa Granuja is not a target


# =========================================================================== Honesto


def _honest_zero(game: Game, hand=(0, 1, 2, 3)) -> None:
    on_sheet(game, 0, 0, "banquero", "honesto")
    set_hand(game, 0, list(hand))
    advance_to(game, "plan_card", 0)
    play(game, A.CARD + 0)
    expect(game, "plan_slot", 0, [*(A.SLOT + s for s in range(1, 7)), A.FACE_UP])


def test_honesto_r36_zero_face_up_no_slot() -> None:
    """R36: the 0 played face up beside the sheet: no slot filled, Honesto used (+4), no
    leader ability or slot-icon Granuja; on to step 3."""
    game = new()
    on_sheet(game, 0, 1, "impresor", "mugrienta", slots=[2, 6])
    _honest_zero(game)
    play(game, A.FACE_UP)
    assert money(game) == 8
    assert [(c.value, c.slot) for c in game.players[0].played] == [(0, 0)]
    assert all(game.players[0].card_in_slot(s) is None for s in range(1, 7))
    expect(game, "hire", 0)


def test_honesto_r37_face_up_zero_goes_under_the_deck() -> None:
    """R37: at the end of the day the face-up 0 is shuffled under the deck with the other
    played cards."""
    game = new()
    _honest_zero(game, hand=(0, 1, 2, 3))
    old_deck = list(game.players[0].deck)
    play(game, A.FACE_UP)
    advance_to_day(game, 2)
    player = game.players[0]
    assert player.played == []
    drawn = set(player.hand) - set(old_deck)
    assert set(old_deck) < set(player.hand) and len(drawn) == 1
    assert set(player.deck) | drawn == {0, 1, 2, 3}  # the 4 played cards, the 0 included


def test_honesto_r38_no_henchmen_on_a_face_up_card() -> None:
    """R38: P1 and P2 never get a challenge decision on P0's face-up 0."""
    game = new()
    _honest_zero(game)
    play(game, A.FACE_UP)
    expect(game, "hire", 0)  # no challenge window after the plan
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    expect(game, "plan_card", 1)  # no last window either
    assert game.players[0].played[0].henchmen == []


def test_honesto_r39_optional_zero_face_down_bluff() -> None:
    """R39: the 0 may be played face down in any free slot; then Honesto is not offered."""
    game = new()
    _honest_zero(game)
    play(game, A.SLOT + 3)
    advance_to(game, "ability", 0)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert game.players[0].card_in_slot(3).value == 0


def test_honesto_r40_face_up_zero_counts_as_played() -> None:
    """R40: turn 1 face-up 0, turn 2 slot 4: Inversionista counts 2 cards (+2 $)."""
    game = new()
    on_sheet(game, 0, 1, "inversionista", "cibernetico", slots=[4, 6])
    _honest_zero(game, hand=(0, 1, 2, 4))
    play(game, A.FACE_UP)
    finish_turn(game)
    play_plain_turns(game, 2)
    to_abilities(game, 4, 4)
    before = money(game)
    play(game, S + 1)
    assert money(game) == before + 2


# =========================================================================== Irritante


def test_irritante_r48_response_hired_next_to_it_fires_after_it() -> None:
    """R48: step 3 hires a Banquero/a Servicial into s1, next to the Irritante at s0:
    Irritante (+3), then the Servicial (+4)."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "irritante")
    helper = G(game, "banquero", "servicial", cost=0)
    set_saloon(game, [G(game, "impresor", "nervioso"), G(game, "chef", "compasiva"), helper])
    set_hand(game, 0, [1, 2, 3, 6])
    play_card(game, 6, 6)
    advance_to(game, "hire", 0)
    play(game, SAL + 2)
    expect(game, "place", 0, [S + 1, S + 2, S + 3, S + 4])
    play(game, S + 1, A.PASS)
    expect(game, "trigger", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 7
    expect(game, "response", 0, [A.PASS, S + 1])
    play(game, S + 1)
    assert money(game) == 11


# =========================================================================== Matasanos, Correo


def _quack(game: Game, top: Granuja, slot: int = 3, trait: str = "divertido", **kw) -> Granuja:
    quack = on_sheet(game, 0, 0, "matasanos", trait, **kw)
    to_discard(game, G(game, "res", "energetica"), top)
    set_hand(game, 0, sorted({1, 2, 3, slot}) + ([4] if slot in (1, 2, 3) else []))
    to_abilities(game, slot, slot)
    return quack


@pytest.mark.parametrize("cash", [1, 2])
def test_matasanos_r53_pays_the_full_cost(cash: int) -> None:
    """R53: the discard top Banquero/a Corrupto costs 2 $: with 1 $ nothing is hired; with 2 $
    it is hired for 2 $."""
    game = new()
    set_money(game, 0, cash)
    top = G(game, "banquero", "corrupto", bullet_holes=0, cost=2)
    _quack(game, top, slots=[3, 6])
    bottom = game.discard[0]
    play(game, S + 0)
    if cash == 1:
        expect(game, "ability", 0, [A.PASS, A.LEADER])
        assert money(game) == 1 and game.discard == [bottom, top]
        return
    expect(game, "place", 0, [S + 1, S + 2, S + 3, S + 4])
    assert money(game) == 0
    play(game, S + 1, A.PASS)
    assert game.players[0].sheet[1] is top and game.discard == [bottom]


def test_matasanos_r54_response_hired_next_to_it_fires() -> None:
    """R54: a Buscador/a Servicial hired into s1 (arrow to s0 Matasanos) is offered (+3)."""
    game = new()
    helper = G(game, "buscador_de_oro", "servicial", bullet_holes=0, cost=0)
    _quack(game, helper, slots=[3, 6])
    play(game, S + 0, S + 1, A.PASS)
    expect(game, "response", 0, [A.PASS, S + 1])
    play(game, S + 1)
    assert money(game) == 7


def test_matasanos_r56_full_sheet_may_replace_itself() -> None:
    """R56: with a full sheet the Matasanos itself (s0) may make room for the hired one."""
    game = new()
    quack = on_sheet(game, 0, 0, "matasanos", "divertido", slots=[3, 6])
    full_sheet(game)
    hired = G(game, "buscador_de_oro", "nervioso", bullet_holes=0, cost=0)
    to_discard(game, hired)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    expect(game, "place", 0, [S + 0, S + 1, S + 2, S + 3, S + 4, A.DISCARD_NEW])
    play(game, S + 0)
    assert game.players[0].sheet[0] is hired and game.discard == [quack]


def test_matasanos_r57_responses_of_the_replaced_enabler_do_not_fire() -> None:
    """R57: as R56 with s1 Buscador/a Servicial: the discarded Matasanos's Response does not
    fire."""
    game = new()
    on_sheet(game, 0, 0, "matasanos", "divertido", slots=[3, 6])
    helper = on_sheet(game, 0, 1, "buscador_de_oro", "servicial")
    full_sheet(game)
    hired = G(game, "impresor", "nervioso", cost=0)
    to_discard(game, hired)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    quack = game.players[0].sheet[0]
    play(game, S + 0, S + 0, A.PASS)
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # no response decision
    assert game.players[0].sheet[:2] == [hired, helper] and game.discard == [quack]
    assert money(game) == 4 and helper.uid not in game.used


def test_matasanos_r58_x14_used_from_the_discard_pile_hires_itself() -> None:
    """R58 / X14: Sepulturero/a uses the Matasanos on top of the discard pile; it hires the top
    of the pile, i.e. itself: P0 pays its cost (1 $) and places it."""
    game = new()
    on_sheet(game, 0, 0, "sepulturero", "divertido", slots=[3, 6])
    quack = G(game, "matasanos", "compasiva", bullet_holes=0)  # 1 $
    to_discard(game, G(game, "res", "energetica"), quack)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    expect(game, "another_target", 0, [A.DISCARD_TOP])
    play(game, A.DISCARD_TOP)
    expect(game, "place", 0, [S + 1, S + 2, S + 3, S + 4])
    play(game, S + 1, A.PASS)
    assert money(game) == 3
    assert game.players[0].sheet[1] is quack and quack not in game.discard


def test_matasanos_r59_on_hire_top_is_used_and_stays_on_top() -> None:
    """R59: the discard top Buscador/a Encantador: pay 1 $, its ability (+3 $), it stays on
    top of the discard pile."""
    game = new()
    charm = G(game, "buscador_de_oro", "encantador", bullet_holes=0)
    _quack(game, charm, slots=[3, 6])
    bottom = game.discard[0]
    play(game, S + 0)
    expect(game, "on_hire", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    assert money(game) == 4 - 1 + 3
    assert game.discard == [bottom, charm]
    assert game.players[0].sheet[1:] == [None] * 4


def test_matasanos_r60_twice_not_the_same_discard_card() -> None:
    """R60: Matasanos Arrebatadora: first use as R59; the second use finds the same card on top
    and cannot hire it again."""
    game = new()
    charm = G(game, "buscador_de_oro", "encantador", bullet_holes=0)
    _quack(game, charm, slot=6, trait="arrebatadora", slots=[6])
    bottom = game.discard[0]
    play(game, S + 0, A.CONFIRM)
    assert money(game) == 6
    play(game, A.PASS)  # rearrange
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    assert game.decision.kind != "on_hire"
    assert money(game) == 6 and game.discard == [bottom, charm]


def _courier_saloon(game: Game) -> list[Granuja]:
    saloon = [
        G(game, "impresor", "legendario", bullet_holes=0, cost=3),  # 3 $
        G(game, "banquero", "servicial", cost=0),  # 0 $
        G(game, "delincuente", "cibernetico", bullet_holes=0, slots=[1, 2]),  # 2 $
    ]
    set_saloon(game, saloon)
    return saloon


def test_correo_x05_full_cost_from_the_saloon_then_step3() -> None:
    """X05: Correo hires from the Saloon at full cost (R53) and the step-3 hire still follows."""
    game = new()
    on_sheet(game, 0, 0, "correo", "divertido", slots=[3, 6])
    saloon = _courier_saloon(game)
    set_money(game, 0, 2)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    expect(game, "hire_target", 0, [SAL + 1, SAL + 2])  # the 3 $ Granuja is unaffordable
    new_one = next_new(game)
    play(game, SAL + 2)
    assert money(game) == 0
    play(game, S + 1, A.PASS)
    assert game.players[0].sheet[1] is saloon[2]
    assert game.saloon == [new_one, saloon[0], saloon[1]]
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    play(game, A.PASS)
    advance_to(game, "hire", 0)
    free = [SAL + i for i, g in enumerate(game.saloon) if cost_of(game, g) == 0]
    expect(game, "hire", 0, [*free, A.SHERIFF])


def test_correo_x05_response_hired_next_to_it_fires() -> None:
    """X05 (R54): the Banquero/a Servicial hired into s1 responds to the Correo at s0 (+4)."""
    game = new()
    on_sheet(game, 0, 0, "correo", "divertido", slots=[3, 6])
    _courier_saloon(game)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0, SAL + 1, S + 1, A.PASS)
    expect(game, "response", 0, [A.PASS, S + 1])
    play(game, S + 1)
    assert money(game) == 8


def test_correo_x05_full_sheet_replaces_the_correo_no_response() -> None:
    """X05 (R56, R57): full sheet: the Correo makes room for the hired one; its Servicial
    neighbour does not respond."""
    game = new()
    courier = on_sheet(game, 0, 0, "correo", "divertido", slots=[3, 6])
    on_sheet(game, 0, 1, "buscador_de_oro", "servicial")
    full_sheet(game)
    saloon = _courier_saloon(game)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0, SAL + 1)
    expect(game, "place", 0, [S + 0, S + 1, S + 2, S + 3, S + 4, A.DISCARD_NEW])
    play(game, S + 0, A.PASS)
    assert game.players[0].sheet[0] is saloon[1] and game.discard == [courier]
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert money(game) == 4


# =========================================================================== Mentiroso


@pytest.mark.parametrize(
    ("loc", "face", "offered"),
    [
        (LAB, 2, True),
        (LAB, 3, True),
        (LAB, 4, False),
        (FIN, 7, True),
        (FIN, 6, False),
        (EST, 5, True),
        (EST, 7, True),
        (EST, 4, False),
    ],
)
def test_mentiroso_r61_after_an_impossible_mark(loc: int, face: int, offered: bool) -> None:
    """R61: offered after a Mark whose number no Safe of that location has (Estación 2-4,
    Finca 2-6, Laboratorio 4-7)."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "mentiroso")
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 2, 2)
    play(game, A.LEADER, board_action(loc, 0), A.MARK_FACE + face)
    if offered:
        expect(game, "trigger", 0, [A.PASS, S + 0])
        play(game, S + 0)
        assert money(game) == 7
    else:
        expect(game, "challenge", 1)
        assert money(game) == 4


# =========================================================================== Nervioso & Response


def _nervous_pair(game: Game, occ: str, trait: str, **kw) -> None:
    """s0 Buscador/a Nervioso (its right arrow points at s1), s1 the given Granuja."""
    on_sheet(game, 0, 0, "buscador_de_oro", "nervioso")
    on_sheet(game, 0, 1, occ, trait, **kw)


def test_nervioso_r62_not_if_the_connected_one_is_declined() -> None:
    """R62: P0 declines s1 (Delincuente) and uses the leader instead: Nervioso never offered."""
    game = new()
    _nervous_pair(game, "delincuente", "mugrienta", slots=[2, 5])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 2, 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 1])
    play(game, A.LEADER, board_action(EST, 0), A.MARK_FACE + 2)
    expect(game, "ability", 0, [A.PASS, S + 1])
    play(game, A.PASS)
    expect(game, "challenge", 1)
    assert money(game) == 4


def test_nervioso_r63_not_if_the_connected_ability_cannot_be_used() -> None:
    """R63: at 0 $ the Delincuente («Gasta 2 $ ...») is masked, so is its Nervioso."""
    game = new()
    _nervous_pair(game, "delincuente", "divertido", slots=[3, 6])
    set_money(game, 0, 0)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_nervioso_r64_declined_optional_part_still_counts() -> None:
    """R64: Abominación used, its optional shuffle declined: Nervioso offered (+3)."""
    game = new()
    _nervous_pair(game, "abominacion", "divertido", slots=[3, 6])
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    to_abilities(game, 3, 3)
    play(game, S + 1)
    expect(game, "deck_top_card", 0)
    play(game, A.CARD + 6)  # the 6 just drawn goes back on top
    expect(game, "shuffle_deck", 0, [A.PASS, A.CONFIRM])
    play(game, A.PASS)
    expect(game, "response", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 7 and game.players[0].deck == [0, 5, 6]


def test_nervioso_r65_response_hired_by_an_ability_fires_at_once() -> None:
    """R65: Correo (s1) hires a Banquero/a Nervioso into s0: offered right after the Correo."""
    game = new()
    on_sheet(game, 0, 1, "correo", "divertido", slots=[3, 6])
    nervous = G(game, "banquero", "nervioso", bullet_holes=0)
    set_saloon(game, [None, None, nervous])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 1, SAL + 2)
    expect(game, "place", 0, [S + 0, S + 2, S + 3, S + 4])
    play(game, S + 0, A.PASS)
    expect(game, "response", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == 8


def _response_direction(trait: str, pos: int, used: int) -> Game:
    """A Buscador/a with ``trait`` at ``pos``; the Banquero/a at ``used`` is used on slot 3."""
    game = new()
    on_sheet(game, 0, pos, "buscador_de_oro", trait)
    on_sheet(game, 0, used, "banquero", "divertido", slots=[3, 6])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + used)
    return game


def _responds(game: Game, pos: int) -> None:
    expect(game, "response", 0, [A.PASS, S + pos])
    play(game, S + pos)
    assert money(game) == 4 + 4 + 3


def _does_not_respond(game: Game) -> None:
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert money(game) == 4 + 4


def test_servicial_x04_responds_to_its_left_neighbour() -> None:
    """X04: Servicial (left arrow) at s1 responds to s0."""
    _responds(_response_direction("servicial", 1, 0), 1)


def test_servicial_x04_left_arrow_at_s0_never_fires() -> None:
    """X04: a left arrow at s0 has no neighbour: not offered after s1 is used."""
    _does_not_respond(_response_direction("servicial", 0, 1))


def test_compasiva_x04_responds_to_its_left_neighbour_only() -> None:
    """X04: Compasiva (left arrow) at s1 responds to s0, not to s2."""
    _responds(_response_direction("compasiva", 1, 0), 1)
    _does_not_respond(_response_direction("compasiva", 1, 2))


def test_energetica_x04_responds_to_its_right_neighbour_only() -> None:
    """X04: Energética (right arrow) at s0 responds to s1; at s1 not to s0."""
    _responds(_response_direction("energetica", 0, 1), 0)
    _does_not_respond(_response_direction("energetica", 1, 0))


def test_nervioso_x04_responds_to_its_right_neighbour_only() -> None:
    """X04: Nervioso (right arrow) at s1 responds to s2, not to s0."""
    _responds(_response_direction("nervioso", 1, 2), 1)
    _does_not_respond(_response_direction("nervioso", 1, 0))


@pytest.mark.parametrize("used", [0, 2])
def test_incansable_x04_responds_to_both_neighbours(used: int) -> None:
    """X04: Incansable (both arrows) at s1 responds to s0 and to s2."""
    _responds(_response_direction("incansable", 1, used), 1)


def test_incansable_x04_once_per_turn_in_total() -> None:
    """X04: Incansable at s2 after s1 is used; when s3 is used later it is not offered again."""
    game = new()
    on_sheet(game, 0, 1, "banquero", "divertido", slots=[3, 6])
    on_sheet(game, 0, 2, "buscador_de_oro", "incansable")
    on_sheet(game, 0, 3, "impresor", "divertido", slots=[1, 3])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 1)
    expect(game, "response", 0, [A.PASS, S + 2])
    play(game, S + 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 3])
    play(game, S + 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert money(game) == 4 + 4 + 3 + 3


def test_servicial_x04_chain_of_responses() -> None:
    """X04: s1 used → s2 Servicial responds → s3 Compasiva responds to s2."""
    game = new()
    on_sheet(game, 0, 1, "banquero", "divertido", slots=[3, 6])
    on_sheet(game, 0, 2, "buscador_de_oro", "servicial")
    on_sheet(game, 0, 3, "impresor", "compasiva")
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 1)
    expect(game, "response", 0, [A.PASS, S + 2])
    play(game, S + 2)
    expect(game, "response", 0, [A.PASS, S + 3])
    play(game, S + 3)
    assert money(game) == 4 + 4 + 3 + 3


def test_nervioso_x15_no_response_to_leader_or_sheriff() -> None:
    """X15: the leader ability and the Sheriff's Office are not Granujas: no Response."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "nervioso")
    on_sheet(game, 0, 1, "buscador_de_oro", "servicial")
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, A.LEADER)
    assert "response" not in kinds_until(game, "hire", 0)
    play(game, A.SHERIFF, A.SELL_INFORMATION)
    expect(game, "challenge", 1)
    assert money(game) == 4 + 3 + 2


# =========================================================================== Parlanchina


def _bluff_caught_by_p0(game: Game, reputation: int, bluffers=(1,)) -> None:
    on_sheet(game, 0, 0, "buscador_de_oro", "parlanchina")
    set_reputation(game, 0, reputation)
    play_plain_turns(game, 1)  # P0
    for seat in (1, 2):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
        if seat in bluffers:
            play_turn(game, 0, 5, challengers=[0])
        else:
            play_plain_turns(game, 1)


def test_parlanchina_r66_no_gain_at_6_no_use() -> None:
    """R66: P0 at 6 catches a bluff: stays at 6, henchman back, Parlanchina not offered."""
    game = new()
    _bluff_caught_by_p0(game, 6)
    assert henchmen(game, 0) == (1, 1)
    assert "trigger" not in kinds_until(game, "first_player")
    assert game.players[0].reputation == 6 and henchmen(game, 0) == (2, 1)
    expect(game, "first_player", 0)


def test_parlanchina_r66_gain_from_5_to_6_is_offered() -> None:
    """R66: from 5 the gain to 6 happens and Parlanchina is offered (+3)."""
    game = new()
    _bluff_caught_by_p0(game, 5)
    advance_to(game, "trigger", 0)
    assert verbs_extra.at_end_of_day(game) and game.players[0].reputation == 6
    before = money(game)
    expect(game, "trigger", 0, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game) == before + 3


def test_parlanchina_r67_once_at_end_of_day() -> None:
    """R67: two bluffs caught by P0 (two gains) at the end of the day: offered once."""
    game = new()
    _bluff_caught_by_p0(game, 0, bluffers=(1, 2))
    advance_to(game, "trigger", 0)
    assert game.players[0].reputation == 2
    play(game, S + 0)
    expect(game, "first_player", 0)  # not offered a second time


def test_parlanchina_r67_once_per_turn() -> None:
    """R67: two reputation gains in P0's turn (two Consejero/a uses): offered after the first
    only."""
    game = new()
    on_sheet(game, 0, 0, "consejero", "divertido", slots=[3, 6])
    on_sheet(game, 0, 1, "buscador_de_oro", "parlanchina")
    on_sheet(game, 0, 2, "consejero", "divertido", slots=[1, 3])
    set_money(game, 0, 6)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    expect(game, "trigger", 0, [A.PASS, S + 1])
    play(game, S + 1, S + 2)
    assert (money(game), game.players[0].reputation) == (6 - 3 + 3 - 3, 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER])


# =========================================================================== Posadero/a


def test_posadero_r71_self_discarding_saloon_granuja_then_refill() -> None:
    """R71: Posadero/a uses the Saloon's Res (+6): the Res is discarded and the Saloon refilled
    at once (shift right, a new Granuja on the left)."""
    game = new()
    on_sheet(game, 0, 0, "posadero", "divertido", slots=[3, 6])
    left, steer, right = (
        G(game, "banquero", "nervioso"),
        G(game, "res", "compasiva"),
        G(game, "chef", "energetica"),
    )
    set_saloon(game, [left, steer, right])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    new_one = next_new(game)
    play(game, SAL + 1)
    assert money(game) == 10
    assert game.discard == [steer] and game.saloon == [new_one, left, right]
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_posadero_x08_chain_to_a_saloon_alazan() -> None:
    """X08: Posadero/a → a Saloon Alazán/a → one of P0's sheet Granujas not used yet."""
    game = new()
    on_sheet(game, 0, 0, "posadero", "divertido", slots=[3, 6])
    on_sheet(game, 0, 1, "banquero", "nervioso")
    set_saloon(game, [None, G(game, "impresor", "compasiva"), G(game, "alazan", "energetica")])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    expect(game, "another_target", 0, [SAL + 1, SAL + 2])
    play(game, SAL + 2)
    expect(game, "another_target", 0, [S + 1])
    play(game, S + 1)
    assert money(game) == 8


def test_posadero_a12_on_hire_saloon_granuja_stays_in_the_saloon() -> None:
    """A-12: an «Al contratar» Saloon Granuja used through Posadero/a resolves and stays."""
    game = new()
    on_sheet(game, 0, 0, "posadero", "divertido", slots=[3, 6])
    saloon = [None, G(game, "impresor", "nervioso"), G(game, "buscador_de_oro", "encantador")]
    set_saloon(game, saloon)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0, SAL + 2)
    assert money(game) == 7 and game.saloon == saloon and game.discard == []


# =========================================================================== Rebelde


def test_rebelde_r74_needs_a_rival_with_more_safes() -> None:
    """R74: nobody holds a Safe → masked; P1 holds one → P0 may steal."""
    game = new()
    on_sheet(game, 0, 0, "rebelde", "divertido", slots=[3, 6])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    give_safe(game, 1, board_safe(game, EST))
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    sid = board_safe(game, LAB)
    play(game, board_action_of(game, sid))
    assert game.players[0].safes == [sid]


# =========================================================================== Sastre, As del disfraz


def _tailor(game: Game, trait: str = "corrupto", slots=(5, 6), card: int = 5) -> list:
    on_sheet(game, 0, 0, "sastre", trait, slots=list(slots))
    saloon = [
        G(game, "impresor", "nervioso"),
        G(game, "chef", "compasiva"),
        G(game, "delincuente", "legendario", slots=[5, 6]),
    ]
    set_saloon(game, saloon)
    set_hand(game, 0, sorted({1, 2, 3, card}) + ([4] if card <= 3 else []))
    to_abilities(game, card, card)
    return saloon


def test_sastre_r75_swap_exchanges_the_two_occupations() -> None:
    """R75: s1 Banquero/a Mugrienta ↔ Saloon R Delincuente Legendario, Occupations: s1 =
    Delincuente Mugrienta, R = Banquero/a Legendario; nothing else changes."""
    game = new()
    banker = on_sheet(game, 0, 1, "banquero", "mugrienta", slots=[2, 5])
    saloon = _tailor(game)
    before = (banker.occ, banker.trait, saloon[2].occ, saloon[2].trait)
    play(game, S + 0)
    assert money(game) == 5  # Corrupto's +1 $
    expect(game, "swap_first", 0, [S + 1])
    play(game, S + 1)
    expect(game, "swap_half", 0, [A.HALF, A.HALF + 1])
    play(game, A.HALF)
    expect(game, "swap_second", 0, [SAL + 0, SAL + 1, SAL + 2])
    play(game, SAL + 2)
    assert (banker.occ, banker.trait, saloon[2].occ, saloon[2].trait) == (
        before[2],
        before[1],
        before[0],
        before[3],
    )
    assert names(game, banker) == ("delincuente", "mugrienta")
    assert game.saloon == saloon and game.players[0].sheet[1] is banker


def test_sastre_r76_a_used_half_keeps_the_granuja_used() -> None:
    """R76: s1 used (+4) then swapped: neither Granuja holding one of its halves is usable."""
    game = new()
    banker = on_sheet(game, 0, 1, "banquero", "mugrienta", slots=[2, 5])
    saloon = _tailor(game)
    play(game, S + 1)
    assert money(game) == 8
    play(game, S + 0, S + 1, A.HALF, SAL + 2)
    assert {banker.uid, saloon[2].uid} <= game.used
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # s1 Delincuente Mugrienta {2,5}: used


def test_sastre_r77_unused_halves_usable_at_once() -> None:
    """R77: slot 5, Sastre gives the unused s1 (Mugrienta {2,5}) a Delincuente: usable now
    (spend 2 $, steal a Safe)."""
    game = new()
    on_sheet(game, 0, 1, "banquero", "mugrienta", slots=[2, 5])
    _tailor(game)
    play(game, S + 0, S + 1, A.HALF, SAL + 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 1])
    play(game, S + 1)
    sid = board_safe(game, FIN)
    play(game, board_action_of(game, sid))
    assert money(game) == 4 + 1 - 2 and game.players[0].safes == [sid]


def test_sastre_r78_swapping_is_not_hiring() -> None:
    """R78: after the swap no rearrange decision, positions unchanged, Irritante not offered."""
    game = new()
    banker = on_sheet(game, 0, 1, "banquero", "mugrienta", slots=[2, 5])
    angry = on_sheet(game, 0, 2, "impresor", "irritante")
    _tailor(game)
    sheet = list(game.players[0].sheet)
    play(game, S + 0, S + 1, A.HALF, SAL + 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 1])
    assert game.players[0].sheet == sheet and sheet[1:3] == [banker, angry]


@pytest.mark.parametrize(("trait", "offered"), [("nervioso", False), ("compasiva", True)])
def test_sastre_r79_responses_follow_the_new_ability(trait: str, offered: bool) -> None:
    """R79: the Sastre swaps s1 Servicial's Trait with a Saloon Nervioso (right arrow: not
    connected to the Sastre) or Compasiva (left arrow: responds to the Sastre)."""
    game = new()
    helper = on_sheet(game, 0, 1, "buscador_de_oro", "servicial")
    on_sheet(game, 0, 0, "sastre", "divertido", slots=[3, 6])
    swapped = G(game, "banquero", trait)
    set_saloon(game, [None, G(game, "impresor", "energetica"), swapped])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0, S + 1, A.HALF + 1, SAL + 2)
    assert names(game, helper) == ("buscador_de_oro", trait)
    if offered:
        expect(game, "response", 0, [A.PASS, S + 1])
        play(game, S + 1)
        assert money(game) == 7
    else:
        expect(game, "ability", 0, [A.PASS, A.LEADER])
        assert money(game) == 4


def test_sastre_r80_never_its_own_occupation() -> None:
    """R80: the Sastre is not among the Granujas giving a half, and an Occupation swap never
    lists it as the partner."""
    game = new()
    on_sheet(game, 0, 1, "banquero", "mugrienta", slots=[2, 5])
    on_sheet(game, 0, 2, "impresor", "nervioso")
    _tailor(game)
    play(game, S + 0)
    expect(game, "swap_first", 0, [S + 1, S + 2])
    play(game, S + 1, A.HALF)
    expect(game, "swap_second", 0, [S + 2, SAL + 0, SAL + 1, SAL + 2])


def test_sastre_r80_its_own_trait_may_be_swapped() -> None:
    """R80: a Trait swap lists the Sastre itself as the partner."""
    game = new()
    on_sheet(game, 0, 1, "banquero", "mugrienta", slots=[2, 5])
    on_sheet(game, 0, 2, "impresor", "nervioso")
    _tailor(game)
    play(game, S + 0, S + 1, A.HALF + 1)
    expect(game, "swap_second", 0, [S + 0, S + 2, SAL + 0, SAL + 1, SAL + 2])


def test_as_del_disfraz_r18_new_occupation_not_used_this_turn() -> None:
    """R18: As del disfraz swaps its Occupation with Saloon R's Delincuente: s0 = Delincuente
    Mugrienta is used (not even Alazán/a may use it); next turn on slot 2 it is usable."""
    game = new()
    me = on_sheet(game, 0, 0, "as_del_disfraz", "mugrienta", slots=[2, 5])
    on_sheet(game, 0, 1, "alazan", "mugrienta", slots=[5, 6])
    on_sheet(game, 0, 2, "banquero", "nervioso")
    thief = G(game, "delincuente", "divertido", slots=[3, 6])
    set_saloon(game, [None, G(game, "impresor", "compasiva"), thief])
    set_hand(game, 0, [1, 2, 3, 5], [0, 4, 6])
    to_abilities(game, 5, 5)
    play(game, S + 0)
    expect(game, "swap_second", 0, [S + 1, S + 2, SAL + 1, SAL + 2])
    play(game, SAL + 2)
    assert names(game, me) == ("delincuente", "mugrienta")
    assert names(game, thief) == ("as_del_disfraz", "divertido")
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 1])
    play(game, S + 1)
    expect(game, "another_target", 0, [S + 2])  # not s0
    play(game, S + 2)
    finish_turn(game)
    play_plain_turns(game, 2)
    to_abilities(game, 2, 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    before = money(game)
    play(game, S + 0)
    play(game, board_action(FIN, 0))
    assert money(game) == before - 2 and len(game.players[0].safes) == 1


def test_as_del_disfraz_x02_partner_on_the_sheet_becomes_used() -> None:
    """X02 (R76, R78 with As del disfraz): swapping with the unused s1: both Granujas now hold
    a used half (not usable), no rearrangement, positions unchanged."""
    game = new()
    me = on_sheet(game, 0, 0, "as_del_disfraz", "mugrienta", slots=[2, 5])
    other = on_sheet(game, 0, 1, "banquero", "legendario", slots=[5, 6])
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0, S + 1])
    play(game, S + 0, S + 1)
    assert names(game, me) == ("banquero", "mugrienta")
    assert names(game, other) == ("as_del_disfraz", "legendario")
    assert game.players[0].sheet[:2] == [me, other]
    expect(game, "ability", 0, [A.PASS, A.LEADER])


# =========================================================================== Sepulturero/a


def _gravedigger(game: Game, *pile: Granuja, slot: int = 5) -> None:
    on_sheet(game, 0, 0, "sepulturero", "mugrienta", slots=[2, 5])
    to_discard(game, *pile)
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, slot, slot)


def test_sepulturero_r81_self_discarding_goes_under_the_pile() -> None:
    """R81: the discard top Res: +6 $, then it goes to the bottom of the discard pile."""
    game = new()
    chef, steer = G(game, "chef", "nervioso"), G(game, "res", "divertido")
    _gravedigger(game, chef, steer)
    play(game, S + 0)
    expect(game, "another_target", 0, [A.DISCARD_TOP])
    play(game, A.DISCARD_TOP)
    assert money(game) == 10
    assert game.discard == [steer, chef]


def test_sepulturero_r82_on_hire_granuja_goes_under_the_pile() -> None:
    """R82: the discard top Buscador/a Encantador: usable (+3 $), then to the bottom."""
    game = new()
    chef, charm = G(game, "chef", "nervioso"), G(game, "buscador_de_oro", "encantador")
    _gravedigger(game, chef, charm)
    play(game, S + 0, A.DISCARD_TOP)
    assert money(game) == 7
    assert game.discard == [charm, chef]


def test_sepulturero_r83_not_a_top_used_this_turn() -> None:
    """R83: the Res used this turn (+6) is on top of the pile: the Sepulturero/a cannot use it
    again (its use resolves nothing)."""
    game = new()
    on_sheet(game, 0, 0, "sepulturero", "mugrienta", slots=[2, 5])
    steer = on_sheet(game, 0, 1, "res", "mugrienta", slots=[2, 6])
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 2, 2)
    play(game, S + 1)
    assert money(game) == 10 and game.discard == [steer]
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # no target decision: nothing happened
    assert money(game) == 10 and game.discard == [steer]


def test_sepulturero_r84_a_sepulturero_on_top_has_no_effect() -> None:
    """R84: a Sepulturero/a on top of the pile: nothing happens, the pile is unchanged."""
    game = new()
    chef, digger = G(game, "chef", "nervioso"), G(game, "sepulturero", "divertido")
    _gravedigger(game, chef, digger)
    play(game, S + 0)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert money(game) == 4 and game.discard == [chef, digger]
    assert digger.uid not in game.used


# =========================================================================== Sujeto de pruebas


def test_sujeto_de_pruebas_r85_unused_safes_only_no_mark_after_peek() -> None:
    """R85: targets are the unused piles only (a Safe on a sheet is not unused); no Mark; the
    value becomes known; «Después de que ojees una Caja fuerte» (Curioso/a) is offered."""
    game = new()
    on_sheet(game, 0, 0, "sujeto_de_pruebas", "divertido", slots=[3, 6])
    on_sheet(game, 0, 1, "buscador_de_oro", "curioso")
    give_safe(game, 1, game.unused[FIN][0])  # the Finca pile is now empty
    sid = game.unused[LAB][-1]
    marks = list(game.players[0].marks)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    expect(game, "unused_location", 0, [A.LOCATION + EST, A.LOCATION + LAB])
    assert sid not in game.players[0].known_safes
    play(game, A.LOCATION + LAB)
    assert sid in game.players[0].known_safes
    assert game.players[0].marks == marks and game.safes[sid].marks == []
    expect(game, "trigger", 0, [A.PASS, S + 1])
    play(game, S + 1)
    assert money(game) == 7


def test_sujeto_de_pruebas_x11_a_safe_abandoned_to_the_pile_is_unused() -> None:
    """X11 (R45): a Safe abandoned to the unused pile (its location full) is a target."""
    game = new()
    on_sheet(game, 0, 0, "sujeto_de_pruebas", "mugrienta", slots=[5, 6])
    held = game.unused[LAB][0]
    give_safe(game, 0, held)  # the Laboratorio pile is empty, its board full
    set_hand(game, 0, [1, 2, 3, 5])
    to_abilities(game, 5, 5)
    play(game, A.LEADER, board_action(FIN, 0))
    expect(game, "abandon", 0, [A.HELD_SAFE + 0, A.HELD_SAFE + 1])
    play(game, A.HELD_SAFE + 0)
    assert game.unused[LAB] == [held]
    play(game, S + 0)
    expect(game, "unused_location", 0, [A.LOCATION + EST, A.LOCATION + FIN, A.LOCATION + LAB])


# =========================================================================== Temerario


@pytest.mark.parametrize("twice", [True, False])
def test_temerario_x12_on_hire_used_twice_then_discarded(twice: bool) -> None:
    """X12: hiring a Buscador/a Temerario (2 $): +3, +3 (or stop after one), then discarded."""
    game = new()
    reckless = G(game, "buscador_de_oro", "temerario", bullet_holes=0)
    set_saloon(game, [None, None, reckless])
    set_hand(game, 0, [1, 2, 3, 6])
    play_card(game, 6, 6)
    advance_to(game, "hire", 0)
    play(game, SAL + 2, A.CONFIRM)
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM if twice else A.PASS)
    assert money(game) == 4 - 2 + (6 if twice else 3)
    assert game.discard == [reckless] and game.players[0].sheet == [None] * 5


# =========================================================================== Strategy cards


def test_transformar_aliados_r86_on_hire_trait_makes_it_unusable() -> None:
    """R86: P1 (Doc Zimmer) swaps s0 Banquero/a Divertido's Trait with the Saloon's Buscador/a
    Encantador: s0 Banquero/a Encantador is never offered; the Saloon's Buscador/a Divertido is
    hired normally."""
    game = new_with_strategies({1: 0}, first=1)
    assert game.strategy_of(1).id == "transformar_aliados"
    banker = on_sheet(game, 1, 0, "banquero", "divertido", slots=[3, 6])
    charm = G(game, "buscador_de_oro", "encantador", bullet_holes=0)
    set_saloon(game, [None, G(game, "impresor", "nervioso"), charm])
    set_hand(game, 1, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 1, [A.PASS, A.LEADER, S + 0, A.STRATEGY])
    play(game, A.STRATEGY)
    expect(game, "swap_first", 1, [S + 0])
    play(game, S + 0)
    expect(game, "swap_second", 1, [SAL + 1, SAL + 2])
    play(game, SAL + 2)
    assert names(game, banker) == ("banquero", "encantador")
    assert names(game, charm) == ("buscador_de_oro", "divertido")
    expect(game, "ability", 1, [A.PASS, A.LEADER])
    play(game, A.PASS)
    advance_to(game, "hire", 1)
    assert charm is game.saloon[2]
    play(game, SAL + 2)  # 1 $: an ordinary hire, placed on the sheet
    expect(game, "place", 1, [S + 1, S + 2, S + 3, S + 4])
    play(game, S + 1, A.PASS)
    assert game.players[1].sheet[:2] == [banker, charm] and money(game, 1) == 3
    # P1's next turn, slot 6: the hired Buscador/a Divertido {3,6} is usable, the Banquero/a
    # Encantador is not (no slot icon; nothing ever hires a Granuja of the sheet)
    finish_turn(game)
    play_plain_turns(game, 2)
    to_abilities(game, 2, 6)
    expect(game, "ability", 1, [A.PASS, S + 1, A.STRATEGY])


def test_transformar_aliados_x13_used_flags_travel_no_rearrangement() -> None:
    """X13 (R76/R78): P1 uses s0 Banquero/a Divertido (+4), then swaps its Trait with a Saloon
    Granuja's: both count as used; no rearrange decision."""
    game = new_with_strategies({1: 0}, first=1)
    banker = on_sheet(game, 1, 0, "banquero", "divertido", slots=[3, 6])
    other = G(game, "impresor", "mugrienta", slots=[2, 5])
    set_saloon(game, [None, None, other])
    set_hand(game, 1, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, S + 0)
    assert money(game, 1) == 8
    play(game, A.STRATEGY, S + 0, SAL + 2)
    assert {banker.uid, other.uid} <= game.used
    expect(game, "ability", 1, [A.PASS, A.LEADER])


def test_transformar_aliados_x13_new_trait_usable_at_once() -> None:
    """X13 (R77): s0 Banquero/a Nervioso (unused) gets a Saloon Divertido {3,6}: usable now."""
    game = new_with_strategies({1: 0}, first=1)
    on_sheet(game, 1, 0, "banquero", "nervioso")
    set_saloon(game, [None, None, G(game, "impresor", "divertido", slots=[3, 6])])
    set_hand(game, 1, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 1, [A.PASS, A.LEADER, A.STRATEGY])
    play(game, A.STRATEGY, S + 0, SAL + 2)
    expect(game, "ability", 1, [A.PASS, A.LEADER, S + 0])
    play(game, S + 0)
    assert money(game, 1) == 8


def test_robar_el_banco_jail_a_henchman_for_6() -> None:
    """Robar el banco (C13): jail 1 of your henchmen, +6 $; once per turn; again next turn."""
    game = new_with_strategies({0: 0})
    assert game.strategy_of(0).id == "robar_el_banco"
    set_hand(game, 0, [1, 2, 3, 4], [0, 5, 6])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.STRATEGY])
    play(game, A.STRATEGY)
    assert money(game) == 10 and henchmen(game, 0) == (1, 2)
    expect(game, "ability", 0, [A.PASS, A.LEADER])  # once per turn
    finish_turn(game)
    play_plain_turns(game, 2)
    to_abilities(game, 4, 4)
    expect(game, "ability", 0, [A.PASS, A.LEADER, A.STRATEGY])


def test_robar_el_banco_needs_an_available_henchman() -> None:
    """Robar el banco (as R17/R30): no available henchman → not usable."""
    game = new_with_strategies({0: 0})
    set_henchmen(game, 0, free=0, jailed=3)
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    expect(game, "ability", 0, [A.PASS, A.LEADER])


def test_robar_el_banco_r29_money_does_not_offer_codicioso() -> None:
    """R29 / C13: Strategy money is not money from using a Granuja: no Codicioso."""
    game = new_with_strategies({0: 0})
    on_sheet(game, 0, 0, "buscador_de_oro", "codicioso")
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, A.STRATEGY)
    expect(game, "ability", 0, [A.PASS, A.LEADER])
    assert money(game) == 10


def test_strategy_c13_not_a_granuja_no_response() -> None:
    """C13 / X15: a Strategy card is not a Granuja: Response Granujas never answer its use, and
    no Granuja ability lists it (Alazán/a's targets are sheet Granujas)."""
    game = new_with_strategies({0: 0})
    on_sheet(game, 0, 0, "buscador_de_oro", "nervioso")
    on_sheet(game, 0, 1, "alazan", "servicial")
    on_sheet(game, 0, 2, "alazan", "divertido", slots=[3, 6])
    set_hand(game, 0, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, A.STRATEGY)
    expect(game, "ability", 0, [A.PASS, A.LEADER, S + 2])
    play(game, S + 2)
    expect(game, "another_target", 0, [S + 0, S + 1])


def test_strategy_c14_peek_offers_after_peek_granujas() -> None:
    """C14: Investigación (P1, Doc Zimmer) peeks at a Safe: Curioso/a is offered."""
    game = new_with_strategies({1: 1}, first=1)
    assert game.strategy_of(1).id == "investigacion"
    on_sheet(game, 1, 0, "buscador_de_oro", "curioso")
    set_hand(game, 1, [1, 2, 3, 4])
    to_abilities(game, 3, 3)
    play(game, A.STRATEGY, board_action(FIN, 0), A.MARK_FACE + 4)
    assert money(game, 1) == 2
    expect(game, "trigger", 1, [A.PASS, S + 0])
    play(game, S + 0)
    assert money(game, 1) == 5


def test_reclutar_marginados_rightmost_saloon_granuja_costs_3_less() -> None:
    """Reclutar marginados (P2, Lilith Boone): the rightmost Saloon Granuja costs 3 $ less (to
    0 at least); the others, and anyone else's hires, cost in full."""
    game = new_with_strategies({2: 0}, first=2)
    assert game.strategy_of(2).id == "reclutar_marginados"
    legend = G(game, "buscador_de_oro", "legendario", bullet_holes=0, cost=3)
    cyber = G(game, "impresor", "cibernetico", bullet_holes=0, slots=[1, 2])
    set_saloon(game, [None, cyber, legend])
    assert (game.hire_cost(legend, 2), game.hire_cost(legend, 0)) == (0, 3)
    assert game.hire_cost(cyber, 2) == 2
    set_money(game, 2, 0)
    set_hand(game, 2, [1, 2, 3, 6])
    play_card(game, 6, 6)
    advance_to(game, "hire", 2)
    expect(game, "hire", 2, [SAL + 2, A.SHERIFF])
    play(game, SAL + 2, S + 0, A.PASS)
    assert money(game, 2) == 0 and game.players[2].sheet[0] is legend


def test_reclutar_marginados_a09_applies_to_correo() -> None:
    """A-09: the discount applies to a Correo hire from the rightmost Saloon space."""
    game = new_with_strategies({2: 0}, first=2)
    on_sheet(game, 2, 0, "correo", "divertido", slots=[3, 6])
    legend = G(game, "buscador_de_oro", "legendario", bullet_holes=0, cost=3)
    set_saloon(game, [None, G(game, "impresor", "cibernetico", bullet_holes=0), legend])
    set_money(game, 2, 0)
    set_hand(game, 2, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)
    expect(game, "hire_target", 2, [SAL + 2])
    play(game, SAL + 2, S + 1, A.PASS)
    assert money(game, 2) == 0 and game.players[2].sheet[1] is legend


def test_reclutar_marginados_not_for_the_discard_pile() -> None:
    """Reclutar marginados: a Matasanos hire from the discard pile costs in full."""
    game = new_with_strategies({2: 0}, first=2)
    on_sheet(game, 2, 0, "matasanos", "divertido", slots=[3, 6])
    top = G(game, "banquero", "corrupto", bullet_holes=0, cost=2)
    to_discard(game, top)
    set_money(game, 2, 1)
    set_hand(game, 2, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0)
    assert money(game, 2) == 1 and game.discard == [top]


# =========================================================================== once a turn, in order
# Rulings a rules audit (2026-11-28) found the engine breaking: each scenario failed before the fix.


def test_arrebatadora_second_use_needs_the_requirement_in_the_new_state() -> None:
    """«vuelve a usarlo según el nuevo estado de la partida»: a Rebelde Arrebatadora whose first
    steal evened the Safe count («No puedes usar este Granuja si ningún rival tiene más Cajas
    fuertes robadas que tú») is not offered a second use."""
    game = new_game(2)
    put_on_sheet(game, 0, 0, make_granuja(game, "rebelde", "arrebatadora", slots=[6]))
    give_safe(game, 1, board_safe(game, 0))
    set_hand(game, 0, [0, 1, 2, 6])
    play_card(game, 6, 6)
    play(game, A.PASS)
    play(game, S + 0)
    expect(game, "steal_target", 0)
    play(game, game.legal_actions()[0])
    assert [len(p.safes) for p in game.players] == [1, 1]
    expect(game, "challenge", 1)  # no use_again: the turn goes on to the rival's window


def _recruiter_with_correo() -> tuple[Game, Granuja, Granuja]:
    """P2 (Reclutar marginados, 2 $) at step 2 with a Correo; Saloon: a cost-2 Granuja, then a
    cost-3 one in the rightmost space."""
    game = new_with_strategies({2: 0}, first=2)
    on_sheet(game, 2, 0, "correo", "divertido", slots=[3, 6])
    cyber = G(game, "impresor", "cibernetico", bullet_holes=0, slots=[1, 2])
    legend = G(game, "buscador_de_oro", "legendario", bullet_holes=0, cost=3)
    set_saloon(game, [None, cyber, legend])
    set_money(game, 2, 2)
    set_hand(game, 2, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    return game, cyber, legend


def test_reclutar_marginados_once_a_turn() -> None:
    """«Cada carta de Estrategia solo se puede usar una vez durante el turno»: after a Correo hire
    took the discount, the step-3 hire of the new rightmost Granuja costs in full."""
    game, cyber, legend = _recruiter_with_correo()
    play(game, S + 0, SAL + 2, S + 1, A.PASS)  # legend for 3 - 3 = 0 $
    assert money(game, 2) == 2 and game.saloon[-1] is cyber
    advance_to(game, "hire", 2)
    assert game.hire_cost(cyber, 2) == cost_of(game, cyber) == 2
    play(game, SAL + 2)
    assert money(game, 2) == 0


def test_reclutar_marginados_a_discount_not_taken_stays_for_a_later_hire() -> None:
    """The discount is used by the first hire of the rightmost Granuja, not by any hire: a
    Correo hire of another Saloon Granuja leaves it for step 3."""
    game, cyber, legend = _recruiter_with_correo()
    play(game, S + 0, SAL + 1, S + 1, A.PASS)  # cyber, not rightmost: 2 $
    assert money(game, 2) == 0 and game.saloon[-1] is legend
    advance_to(game, "hire", 2)
    assert game.hire_cost(legend, 2) == 0


def test_on_hire_granuja_used_through_posadero_is_not_used_again_when_hired() -> None:
    """«Cada Granuja se puede usar solo una vez durante el turno»: an «Al contratar» Saloon
    Granuja used through Posadero/a (A-12: it stays in the Saloon) and hired in step 3 is hired
    without a second use."""
    game = new(2)
    on_sheet(game, 0, 0, "posadero", "divertido", slots=[3, 6])
    charming = G(game, "banquero", "encantador")  # «Al contratar este Granuja: Obtén 4 $»
    set_saloon(game, [None, None, charming])
    set_money(game, 0, 1 + cost_of(game, charming))
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0, SAL + 2)
    assert money(game) == 5 + cost_of(game, charming) and charming in game.saloon
    advance_to(game, "hire", 0)
    play(game, SAL + game.saloon.index(charming))
    assert money(game) == 5
    assert game.decision.kind == "rearrange"  # the on_hire decision had only "pass"


def test_honesto_face_up_zero_still_has_a_step_2_for_the_strategy_card() -> None:
    """A-08: a Strategy card without timing text is used in step 2 of its owner's turn; a turn
    whose 0 was played face up (Honesto) still has a step 2."""
    game = new_with_strategies({0: 0})
    assert game.strategy_of(0).id == "robar_el_banco"
    on_sheet(game, 0, 0, "buscador_de_oro", "honesto")
    set_hand(game, 0, [0, 1, 2, 3])
    advance_to(game, "plan_card", 0)
    play(game, A.CARD + 0, A.FACE_UP)
    expect(game, "ability", 0, [A.PASS, A.STRATEGY])
    money_before = money(game)
    play(game, A.STRATEGY)
    assert money(game) == money_before + 6 and henchmen(game, 0)[1] == 2


def test_honesto_face_up_zero_without_a_strategy_card_goes_to_step_3() -> None:
    """Without anything to use in step 2 the face-up turn asks nothing there."""
    game = new()
    on_sheet(game, 0, 0, "buscador_de_oro", "honesto")
    set_hand(game, 0, [0, 1, 2, 3])
    advance_to(game, "plan_card", 0)
    play(game, A.CARD + 0, A.FACE_UP)
    expect(game, "hire", 0)


def _correo_hires_a_servicial(game: Game) -> tuple[Granuja, Granuja]:
    """P0's Correo (at 0) hires a Servicial (answers its left neighbour) and places it at 4."""
    correo = on_sheet(game, 0, 0, "correo", "divertido", slots=[3, 6])
    helper = G(game, "buscador_de_oro", "servicial", cost=0)
    set_saloon(game, [None, None, helper])
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0, SAL + 2, S + 4)
    return correo, helper


def test_nervioso_response_follows_the_hirer_moved_by_the_rearrangement() -> None:
    """Nervioso ruling: a Response Granuja hired by an ability and placed connected to the Granuja
    that hired it may be used at once; the hire's rearrangement may move the hirer next to it."""
    game = new(2)
    correo, helper = _correo_hires_a_servicial(game)
    play(game, A.SWAP + A.SWAP_PAIRS.index((0, 3)), A.PASS)
    assert game.players[0].sheet[3] is correo and game.players[0].sheet[4] is helper
    expect(game, "response", 0, [A.PASS, S + 4])


def test_nervioso_no_response_when_the_hirer_is_not_connected() -> None:
    game = new(2)
    _correo_hires_a_servicial(game)
    play(game, A.PASS)  # Correo at 0, Servicial at 4
    expect(game, "challenge", 1)


def _alazan_twice(game: Game) -> None:
    """P0: Alazán Arrebatadora at 0, a Buscador at 2 answered by the Servicial at 3, a Banquero at 1
    (answered by nothing); the Alazán (slot 6) is used and uses the Buscador first."""
    on_sheet(game, 0, 0, "alazan", "arrebatadora", slots=[6])
    on_sheet(game, 0, 1, "banquero", "cibernetico", slots=[1, 2])
    on_sheet(game, 0, 2, "buscador_de_oro", "mugrienta", slots=[2, 5])
    on_sheet(game, 0, 3, "banquero", "servicial")
    set_hand(game, 0, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, S + 0, S + 2)


def test_alazan_a16_responses_wait_for_both_uses_of_a_use_twice_alazan() -> None:
    """«Usa el Granuja dos veces antes de usar cualquier otro Granuja (incluidos aquellos con
    Respuesta)» and A-16: the Buscador's Response neighbour is offered after the Alazán's second
    use, not between its uses."""
    game = new()
    _alazan_twice(game)
    expect(game, "use_again", 0, [A.PASS, A.CONFIRM])
    play(game, A.CONFIRM)
    expect(game, "another_target", 0, [S + 1, S + 3])  # the Buscador is used already
    play(game, S + 1)
    expect(game, "response", 0, [A.PASS, S + 3])
    before = money(game)
    play(game, S + 3)
    assert money(game) == before + 4
    expect(game, "challenge", 1)


def test_alazan_a16_a_single_use_offers_the_queued_response_after_it() -> None:
    game = new()
    _alazan_twice(game)
    play(game, A.PASS)  # no second use
    expect(game, "response", 0, [A.PASS, S + 3])


def test_transformar_aliados_r86_not_even_through_alazan() -> None:
    """R86 «no podrás usar ese Granuja»: a sheet Granuja given an «Al contratar» Trait is not a
    target of Alazán/a either (the general "timing is ignored" of using another gives way)."""
    game = new_with_strategies({1: 0}, first=1)
    gold = on_sheet(game, 1, 0, "buscador_de_oro", "mugrienta", slots=[2, 5])
    on_sheet(game, 1, 1, "alazan", "divertido", slots=[3, 6])
    on_sheet(game, 1, 2, "banquero", "cibernetico", slots=[1, 2])
    set_saloon(game, [None, None, G(game, "impresor", "encantador")])
    set_hand(game, 1, [1, 2, 3, 6])
    to_abilities(game, 6, 6)
    play(game, A.STRATEGY, S + 0, SAL + 2)
    assert names(game, gold) == ("buscador_de_oro", "encantador")
    play(game, S + 1)
    expect(game, "another_target", 1, [S + 2])
