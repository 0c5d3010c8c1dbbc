"""End of day: reveals, reputation, henchmen, the poker deck and who starts the next day."""

from __future__ import annotations

import pytest
from scenario import (
    advance_to_day,
    board_action,
    decisions_until,
    default_action,
    expect,
    make_granuja,
    new_game,
    play,
    play_plain_turns,
    play_turn,
    put_on_sheet,
    set_hand,
    set_henchmen,
)

from granujas_env.engine import Catalog, Game, load_catalog
from granujas_env.engine import actions as A
from granujas_env.engine.data import DATA_DIR


def _scripted_day() -> object:
    """Day 1 of a 2-player game (seat 0 first), every player starting with hand 0-3 / deck 4,5,6."""
    game = new_game(2)
    for seat in (0, 1):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 4, challengers=[1])  # seat 0 bluffs, caught
    play_turn(game, 1, 1, challengers=[0])  # seat 1 honest, challenged
    play_turn(game, 1, 5, challengers=[1])  # seat 0 bluffs, caught
    play_turn(game, 2, 2, challengers=[0])  # seat 1 honest, challenged
    play_turn(game, 2, 2)  # honest, unchallenged (seat 1 has no free henchman left)
    play_turn(game, 0, 6)  # bluff, unchallenged (seat 0 has no free henchman left)
    play_turn(game, 3, 6)  # bluff, unchallenged
    play_turn(game, 3, 3)  # honest, unchallenged: the day ends
    return game


def test_end_of_day_reveals_only_challenged_cards_in_turn_order() -> None:
    game = _scripted_day()
    reveals = [h for h in game.history if h[0] == "reveal"]
    assert reveals == [
        ("reveal", 1, 0, 4, 0, True, (1,)),
        ("reveal", 1, 0, 5, 1, True, (1,)),
        ("reveal", 1, 1, 1, 1, False, (0,)),
        ("reveal", 1, 1, 2, 2, False, (0,)),
    ]
    # unchallenged cards (seat 0's 2 in slot 2 and 3 in slot 6, seat 1's 0 in 6 and 3 in 3) are
    # not revealed: no public entry carries their values
    assert all(h[0] != "reveal" or h[6] for h in game.history)


def test_caught_bluffs_cost_the_bluffer_and_reward_the_challenger() -> None:
    game = _scripted_day()
    p0, p1 = game.players
    assert p0.reputation == -2  # two caught bluffs
    assert p1.reputation == 2  # +1 per caught bluff it had a henchman on
    # seat 1's henchmen came back from the caught bluffs
    assert (p1.free_henchmen, p1.jailed_henchmen) == (2, 1)
    # seat 0's henchmen on honest cards went to jail
    assert (p0.free_henchmen, p0.jailed_henchmen) == (0, 3)


def test_highest_reputation_chooses_the_first_player_with_seat_ids() -> None:
    game = _scripted_day()
    expect(game, "first_player", 1, [A.SEAT + 0, A.SEAT + 1])
    assert game.day == 1
    play(game, A.SEAT + 1)  # relative seat 1 of seat 1 = seat 0
    assert game.day == 2 and game.first_player == 0
    assert game.history[-1] == ("day", 2, 0)
    expect(game, "plan_card", 0)


def test_the_chooser_may_start_itself() -> None:
    game = _scripted_day()
    play(game, A.SEAT + 0)
    assert game.first_player == 1
    expect(game, "plan_card", 1)
    play_plain_turns(game, 1)
    assert game.current == 0


def test_played_cards_go_under_the_deck_unplayed_cards_are_drawn_first() -> None:
    game = _scripted_day()
    for player in game.players:
        assert player.played == []
        assert len(player.hand) == 4
        # 4, 5, 6 were in the deck all day: drawn first; then one of the played cards
        assert {4, 5, 6} <= set(player.hand)
        (drawn,) = set(player.hand) - {4, 5, 6}
        assert drawn in {0, 1, 2, 3}
        assert sorted(player.deck) == sorted({0, 1, 2, 3} - {drawn})
        assert player.hand == sorted(player.hand)


def test_played_cards_are_shuffled_before_going_under() -> None:
    orders = set()
    for seed in range(12):
        game = new_game(2, seed=seed)
        set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
        for card in (0, 1, 2, 3):
            play_turn(game, card, card if card else 6)
            play_plain_turns(game, 1)
        played_order = tuple(game.players[0].deck)
        orders.add(played_order + tuple(game.players[0].hand))
    assert len(orders) > 1  # not always the same order


def test_a_caught_bluff_costs_one_reputation_however_many_henchmen() -> None:
    game = new_game(3)
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=[1, 2])
    assert game.players[0].played[0].henchmen == [1, 2]
    play_plain_turns(game, 11)
    assert [h for h in game.history if h[0] == "reveal"] == [("reveal", 1, 0, 3, 0, True, (1, 2))]
    assert [p.reputation for p in game.players] == [-1, 1, 1]
    assert [(p.free_henchmen, p.jailed_henchmen) for p in game.players] == [(2, 1)] * 3


def test_a_wrong_challenge_only_sends_the_henchman_to_jail() -> None:
    game = new_game(3)
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 3, 3, challengers=[2])
    play_plain_turns(game, 11)
    assert [h for h in game.history if h[0] == "reveal"] == [("reveal", 1, 0, 3, 3, False, (2,))]
    assert [p.reputation for p in game.players] == [0, 0, 0]
    assert (game.players[2].free_henchmen, game.players[2].jailed_henchmen) == (1, 2)
    assert game.decision.kind == "plan_card"  # all tied at 0: nobody chooses
    assert game.first_player == 0


def test_a_tie_for_the_highest_reputation_keeps_the_order() -> None:
    game = new_game(3, first=1)
    # seats 1 and 2 each catch one bluff of seat 0: 1 and 2 tie at reputation 1
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_plain_turns(game, 2)  # seats 1, 2
    play_turn(game, 0, 4, challengers=[1])  # seat 0
    play_plain_turns(game, 2)
    play_turn(game, 1, 5, challengers=[2])
    play_plain_turns(game, 6)
    assert [p.reputation for p in game.players] == [-2, 1, 1]
    assert game.day == 2
    assert all(h[0] != "first_player" for h in game.history)
    # the player left of the last-turn player (seat 0) starts: seat 1, as on day 1
    assert game.first_player == 1
    assert game.history[-1] == ("day", 2, 1)
    expect(game, "plan_card", 1)


def test_hands_refill_only_up_to_four() -> None:
    game = new_game(2)
    set_hand(game, 0, [0, 1, 2, 3, 4, 5, 6], [])  # e.g. after an ability that draws cards
    play_plain_turns(game, 8)
    player = game.players[0]
    # 3 cards were still in hand: only 1 card is drawn (from the played ones, now under)
    assert len(player.hand) == 4 and len(player.deck) == 3
    assert sorted(player.hand + player.deck) == list(range(7))


def test_the_game_ends_after_the_reveals_of_the_last_day() -> None:
    game = new_game(2)
    play_plain_turns(game, 8)
    assert game.day == 2
    play_plain_turns(game, 7)
    assert game.decision is not None
    play_plain_turns(game, 1)
    assert game.decision is None and game.winner is not None
    assert game.history[-1][0] == "end"
    # the last day's played cards are not put back under the deck
    assert all(len(p.played) == 4 for p in game.players)


def test_reveals_follow_the_turn_order_of_the_day_not_the_seat_numbers() -> None:
    game = new_game(3, first=2)
    for seat in range(3):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 5, challengers=[0])  # seat 2
    play_turn(game, 0, 4, challengers=[1])  # seat 0
    play_turn(game, 0, 3, challengers=[2])  # seat 1
    play_plain_turns(game, 9)
    reveals = [h[:6] for h in game.history if h[0] == "reveal"]
    assert reveals == [
        ("reveal", 1, 2, 5, 0, True),
        ("reveal", 1, 0, 4, 0, True),
        ("reveal", 1, 1, 3, 0, True),
    ]
    assert [p.reputation for p in game.players] == [0, 0, 0]  # each -1 +1
    assert game.first_player == 2


# --------------------------------------------------------------------------- end-of-day abilities
# The shipped catalog has one «Al final del día» Trait card (Noctámbulo/a); these scenarios need
# several players holding one, so they play with a copy of the catalog that has four.


@pytest.fixture(scope="module")
def night_owls(tmp_path_factory) -> Catalog:
    text = (DATA_DIR / "cards.toml").read_text(encoding="utf-8")
    one = 'id = "noctambulo"'
    start = text.index(one)
    copies = text.index("count = 1", start)
    assert text.index("[[trait]]", start) > copies  # the count of Noctámbulo's own card row
    path = tmp_path_factory.mktemp("catalog") / "cards.toml"
    path.write_text(text[:copies] + "count = 4" + text[copies + len("count = 1") :], encoding="utf-8")
    catalog = load_catalog(path)
    assert sum(c.trait.id == "noctambulo" for c in catalog.trait_cards) == 4
    return catalog


def night_owl(game: Game, seat: int, occupation: str, pos: int = 0) -> int:
    """Put a Noctámbulo/a Granuja with ``occupation`` on seat's sheet; its sheet action id."""
    put_on_sheet(game, seat, pos, make_granuja(game, occupation, "noctambulo"))
    return A.SHEET + pos


def to_end_of_day(game: Game) -> None:
    """Play day 1 with plain honest turns (nobody challenges, so reputations stay at 0) up to the
    first end-of-day decision, or to day 2 when there is none."""
    play_plain_turns(game, game.rules.turns_per_day * game.num_players)
    assert game.last_turn_player == (game.first_player - 1) % game.num_players


def use_all(order: list[int] = ()):
    """A chooser for ``decisions_until``: the seats of ``order`` (absolute) are chosen in turn at
    each end_of_day_order; every offered end-of-day Granuja is used; otherwise the default."""
    order = list(order)

    def choose(game: Game) -> int:
        frame = game.decision
        if frame.kind == "end_of_day_order":
            return A.SEAT + (order.pop(0) - frame.player) % game.num_players
        if frame.kind == "trigger" and frame.data["timing"] == "end_of_day":
            return max(game.legal_actions())  # a Granuja rather than pass
        return default_action(game)

    return choose


def asked(game: Game, choose) -> list[tuple[str, int]]:
    """(kind, player) of every decision until day 2 begins."""
    frames = decisions_until(game, lambda g: g.day == 2, choose)
    return [(f.kind, f.player) for f in frames]


def test_reputation_from_an_end_of_day_ability_makes_its_user_the_chooser(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    sheet = night_owl(game, 0, "consejero")  # spend 3 $: gain 1 reputation
    to_end_of_day(game)
    assert [p.reputation for p in game.players] == [0, 0, 0]  # a tie: nobody would choose
    money = game.players[0].money
    # one player can act: its turn comes without an order decision, before the first-player choice
    expect(game, "trigger", 0, [A.PASS, sheet])
    play(game, sheet)
    assert game.players[0].money == money - 3
    assert [p.reputation for p in game.players] == [1, 0, 0]
    expect(game, "first_player", 0, [A.SEAT, A.SEAT + 1, A.SEAT + 2])
    play(game, A.SEAT + 1)  # relative seat 1 of seat 0
    assert game.day == 2 and game.first_player == 1
    expect(game, "plan_card", 1)


def test_gain_reputation_triggers_resolve_before_the_first_player_choice(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    sheet = night_owl(game, 0, "consejero")
    put_on_sheet(game, 0, 1, make_granuja(game, "buscador_de_oro", "parlanchina"))
    to_end_of_day(game)
    money = game.players[0].money
    play(game, sheet)
    # «Después de que obtengas reputación» is offered at the next safe point: still before the
    # highest reputation chooses
    expect(game, "trigger", 0, [A.PASS, A.SHEET + 1])
    assert game.decision.data["timing"] == "after_gain_reputation"
    play(game, A.SHEET + 1)
    assert game.players[0].money == money - 3 + 3
    expect(game, "first_player", 0)


def test_the_last_turn_player_orders_two_players_who_can_act(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "buscador_de_oro")  # +3 $
    night_owl(game, 1, "banquero")  # +4 $
    to_end_of_day(game)
    # seat 2 played the last turn: it orders seats 0 and 1 (ids relative to seat 2); it has no
    # end-of-day Granuja itself, so it is not among them
    expect(game, "end_of_day_order", 2, [A.SEAT + 1, A.SEAT + 2])
    assert game.decision.data["seats"] == [0, 1]


@pytest.mark.parametrize("order", [[0, 1], [1, 0]])
def test_the_chosen_order_is_the_order_of_resolution(night_owls, order) -> None:
    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "buscador_de_oro")
    night_owl(game, 1, "banquero")
    to_end_of_day(game)
    money = [p.money for p in game.players]
    # one choice: the one left then acts without a second order decision
    assert asked(game, use_all(order[:1])) == [
        ("end_of_day_order", 2), ("trigger", order[0]), ("trigger", order[1]),
    ]
    assert [p.money for p in game.players] == [money[0] + 3, money[1] + 4, money[2]]
    # gain_money raises no reputation: all tied at 0, the order is kept
    assert game.first_player == 0


def test_the_order_is_asked_again_among_those_left(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "buscador_de_oro")
    night_owl(game, 1, "banquero")
    night_owl(game, 2, "impresor")
    to_end_of_day(game)
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 1, A.SEAT + 2])
    play(game, A.SEAT + 2)  # seat 1 first
    expect(game, "trigger", 1)
    play(game, max(game.legal_actions()))
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 1])  # seats 2 and 0 left
    assert asked(game, use_all([2])) == [("end_of_day_order", 2), ("trigger", 2), ("trigger", 0)]


def test_passing_ends_that_players_end_of_day_turn(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "buscador_de_oro")
    night_owl(game, 1, "banquero")
    to_end_of_day(game)
    money = [p.money for p in game.players]
    play(game, A.SEAT + 1)  # seat 0 first: it passes
    play(game, A.PASS)
    expect(game, "trigger", 1)  # then seat 1, and seat 0 is not offered again
    play(game, A.SHEET)
    assert game.day == 2 and [p.money for p in game.players] == [money[0], money[1] + 4, money[2]]


def test_a_player_that_cannot_pay_does_not_count(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "asaltante_de_bancos")  # costs a free henchman: seat 0 has none
    set_henchmen(game, 0, free=0, jailed=3)
    night_owl(game, 1, "banquero")
    to_end_of_day(game)
    # only seat 1 can act: no order decision, seat 0 is never asked
    assert asked(game, use_all()) == [("trigger", 1)]
    assert game.players[0].free_henchmen == 0 and game.players[0].safes == []


def test_nobody_able_to_act_means_no_end_of_day_decision(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "asaltante_de_bancos")
    set_henchmen(game, 0, free=0, jailed=3)
    to_end_of_day(game)
    assert game.day == 2
    expect(game, "plan_card", 0)


def test_a_waiting_player_acts_once_an_earlier_ability_made_it_able(night_owls) -> None:
    game = new_game(3, catalog=night_owls)
    rebel = night_owl(game, 0, "rebelde")  # needs a rival holding more Safes
    thief = night_owl(game, 1, "delincuente")  # spend 2 $: steal a board Safe
    to_end_of_day(game)
    expect(game, "trigger", 1, [A.PASS, thief])  # seat 0 cannot act yet: no order decision
    play(game, thief)
    expect(game, "steal_target", 1)
    play(game, game.legal_actions()[0])
    assert len(game.players[1].safes) == 1
    expect(game, "trigger", 0, [A.PASS, rebel])  # now seat 0's Rebelde can steal one too
    play(game, rebel)
    play(game, game.legal_actions()[0])
    assert len(game.players[0].safes) == 1 and game.day == 2


@pytest.mark.parametrize(("owls", "choice"), [((0, 1, 2), 2), ((0, 1), 0)])
def test_the_honest_bot_orders_itself_first_else_the_next_seat(night_owls, owls, choice) -> None:
    import numpy as np

    from agents.honest import HonestAgent
    from granujas_env.view import seat_view

    game = new_game(3, catalog=night_owls)
    for seat in owls:
        night_owl(game, seat, ("buscador_de_oro", "banquero", "impresor")[seat])
    to_end_of_day(game)
    expect(game, "end_of_day_order", 2)
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[game.legal_actions()] = 1
    action = HonestAgent(seed=0).act({"action_mask": mask}, view=seat_view(game, 2))
    play(game, action)
    expect(game, "trigger", choice)


def test_a_pending_end_of_day_order_survives_snapshots_and_clones(night_owls) -> None:
    from granujas_env.engine.snapshot import digest, from_dict, to_dict

    game = new_game(3, catalog=night_owls)
    night_owl(game, 0, "buscador_de_oro")
    night_owl(game, 1, "banquero")
    night_owl(game, 2, "impresor")
    to_end_of_day(game)
    play(game, A.SEAT + 2, A.SHEET)  # seat 1 first, and it uses its Granuja
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 1])
    copies = [from_dict(to_dict(game), catalog=night_owls), game.clone()]
    for other in (game, *copies):
        play(other, A.SEAT + 1, A.SHEET, A.SHEET)  # seat 0, then seat 2
        assert other.day == 2
    assert digest(copies[0]) == digest(copies[1]) == digest(game)


# --------------------------------------------------------------------------- simultaneous triggers
# «Si varios jugadores desean usar capacidades al mismo tiempo durante el final del día, el que
# haya jugado el último turno decide el orden.» Timing texts («Después de que obtengas / pierdas
# reputación»...) triggered together at the end of day (the reveals; one player's end-of-day turn)
# are ordered by the last-turn player when two or more players can use one. Deal 16 has none of
# the Traits used below in its Saloon, so every one is free to sleeve.

TRIGGER_DEAL = 16


def _bluff_caught_by(game: Game, challengers: list[int]) -> None:
    """Day 1 of a 3-player game (seat 0 first, so seat 2 plays the last turn): seat 0 bluffs a 0
    in slot 3 and ``challengers`` catch it; every other turn is plain. Stops at the first
    end-of-day decision (or day 2)."""
    set_hand(game, 0, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=challengers)
    play_plain_turns(game, 11)
    assert game.last_turn_player == 2


def use_triggers(order: list[int] = ()):
    """A chooser for ``decisions_until``: the seats of ``order`` (absolute) are chosen in turn at
    each end_of_day_order; every offered timing Granuja is used; otherwise the default."""
    order = list(order)

    def choose(game: Game) -> int:
        frame = game.decision
        if frame.kind == "end_of_day_order":
            return A.SEAT + (order.pop(0) - frame.player) % game.num_players
        if frame.kind == "trigger":
            return max(game.legal_actions())
        return default_action(game)

    return choose


def test_two_challengers_gaining_reputation_together_are_ordered_by_the_last_turn_player() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))  # +3 $
    put_on_sheet(game, 2, 0, make_granuja(game, "banquero", "parlanchina"))  # +4 $
    _bluff_caught_by(game, [1, 2])
    assert [p.reputation for p in game.players] == [-1, 1, 1]
    # both gained at the same moment: seat 2 (last turn) orders seats 1 and 2 (ids relative to
    # seat 2: itself = SEAT + 0, seat 1 = SEAT + 2), although seat 1 placed its henchman first
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 2])
    assert game.decision.data["seats"] == [1, 2]
    assert game.day == 1


@pytest.mark.parametrize("order", [[1, 2], [2, 1]])
def test_the_chosen_seat_answers_its_trigger_first(order) -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    put_on_sheet(game, 2, 0, make_granuja(game, "banquero", "parlanchina"))
    _bluff_caught_by(game, [1, 2])
    money = [p.money for p in game.players]
    frames = decisions_until(game, lambda g: g.day == 2, use_triggers(order[:1]))
    # one choice: the other seat follows without a second order decision
    assert [(f.kind, f.player) for f in frames] == [
        ("end_of_day_order", 2), ("trigger", order[0]), ("trigger", order[1]),
    ]
    assert [f.data["timing"] for f in frames[1:]] == ["after_gain_reputation"] * 2
    assert [p.money for p in game.players] == [money[0], money[1] + 3, money[2] + 4]
    assert [p.reputation for p in game.players] == [-1, 1, 1]
    # 1 and 2 tie for the highest reputation: the order is kept
    assert game.first_player == 0
    expect(game, "plan_card", 0)


@pytest.mark.parametrize("first", [1, 2])
def test_the_order_decides_who_steals_the_safe_first(first) -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "delincuente", "parlanchina"))  # 2 $: steal
    put_on_sheet(game, 2, 0, make_granuja(game, "delincuente", "parlanchina"))
    _bluff_caught_by(game, [1, 2])
    second = 3 - first
    money = [p.money for p in game.players]
    target = board_action(0, 0)
    sid = game.board[0][0]
    play(game, A.SEAT + (first - 2) % 3)
    expect(game, "trigger", first, [A.PASS, A.SHEET])
    play(game, A.SHEET)
    expect(game, "steal_target", first)
    play(game, target)
    # the second seat answers next; the Safe the first one took is gone from its choices
    expect(game, "trigger", second, [A.PASS, A.SHEET])
    play(game, A.SHEET)
    expect(game, "steal_target", second)
    assert target not in game.legal_actions()
    play(game, board_action(0, 1))
    assert game.players[first].safes == [sid]
    assert game.safes[sid].holder == first
    assert len(game.players[second].safes) == 1
    assert [p.money for p in game.players] == [money[0], money[1] - 2, money[2] - 2]
    assert game.day == 2


def test_the_bluffers_loss_and_a_challengers_gain_are_ordered_together() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 0, 0, make_granuja(game, "impresor", "atrevida"))  # after losing: +3 $
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    _bluff_caught_by(game, [1, 2])  # seat 2 challenges too, with no Granuja to use
    money = [p.money for p in game.players]
    # seats in the order of their events (the challengers' gains, then the bluffer's loss)
    expect(game, "end_of_day_order", 2, [A.SEAT + 1, A.SEAT + 2])
    assert game.decision.data["seats"] == [1, 0]
    frames = decisions_until(game, lambda g: g.day == 2, use_triggers([0]))
    assert [(f.kind, f.player, f.data.get("timing")) for f in frames] == [
        ("end_of_day_order", 2, None),
        ("trigger", 0, "after_lose_reputation"),
        ("trigger", 1, "after_gain_reputation"),
    ]
    assert [p.money for p in game.players] == [money[0] + 3, money[1] + 3, money[2]]


def test_a_single_trigger_is_offered_without_an_order_decision() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    _bluff_caught_by(game, [1, 2])
    money = game.players[1].money
    assert asked(game, use_triggers()) == [("trigger", 1)]
    assert game.players[1].money == money + 3


def test_one_owners_triggers_keep_their_order_and_are_never_ordered() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    put_on_sheet(game, 1, 1, make_granuja(game, "impresor", "atrevida"))
    # seat 1 catches seat 0's bluff and has its own bluff caught by seat 0: it gains and loses
    # reputation at the same moment, with a Granuja for each; nobody else can act
    for seat in (0, 1):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=[1])
    play_turn(game, 0, 4, challengers=[0])
    play_plain_turns(game, 10)
    money = game.players[1].money
    frames = decisions_until(game, lambda g: g.day == 2, use_triggers())
    assert [(f.kind, f.player, f.data["timing"]) for f in frames] == [
        ("trigger", 1, "after_gain_reputation"),
        ("trigger", 1, "after_lose_reputation"),
    ]
    assert game.players[1].money == money + 3 + 3
    assert [p.reputation for p in game.players] == [0, 0, 0]


def test_two_caught_bluffs_offer_a_challengers_granuja_once() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    for seat in (0, 2):
        set_hand(game, seat, [0, 1, 2, 3], [4, 5, 6])
    play_turn(game, 0, 3, challengers=[1])  # seat 0 bluffs
    play_plain_turns(game, 1)  # seat 1
    play_turn(game, 0, 5, challengers=[1])  # seat 2 bluffs
    play_plain_turns(game, 9)
    money = game.players[1].money
    # two gains for seat 1 only: no order decision, and Parlanchina is used once per end of day
    assert asked(game, use_triggers()) == [("trigger", 1), ("first_player", 1)]
    assert game.players[1].money == money + 3
    assert [p.reputation for p in game.players] == [-1, 2, -1]


def test_a_player_made_able_by_the_other_trigger_is_offered_without_an_order() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "delincuente", "parlanchina"))
    # Rebelde needs a rival holding more Safes: nobody holds one when the bluff is revealed
    put_on_sheet(game, 2, 0, make_granuja(game, "rebelde", "parlanchina"))
    _bluff_caught_by(game, [1, 2])
    expect(game, "trigger", 1, [A.PASS, A.SHEET])  # only seat 1 can act: nobody orders
    play(game, A.SHEET, board_action(0, 0))
    assert len(game.players[1].safes) == 1
    expect(game, "trigger", 2, [A.PASS, A.SHEET])  # now seat 2's Rebelde can steal one too
    play(game, A.SHEET, board_action(0, 1))
    assert len(game.players[2].safes) == 1 and game.day == 2


def test_rivals_losing_reputation_to_an_end_of_day_ability_are_ordered() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    owl = night_owl(game, 0, "presidiario")  # each rival jails a henchman or loses 1 reputation
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "atrevida"))
    put_on_sheet(game, 2, 0, make_granuja(game, "impresor", "atrevida"))
    for seat in (1, 2):  # no free henchman: each must lose reputation
        set_henchmen(game, seat, free=0, jailed=3)
    to_end_of_day(game)
    money = [p.money for p in game.players]
    expect(game, "trigger", 0, [A.PASS, owl])
    play(game, owl)
    assert [p.reputation for p in game.players] == [0, -1, -1]
    # both rivals lost reputation during seat 0's end-of-day turn: seat 2 orders them
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 2])
    frames = decisions_until(game, lambda g: g.day == 2, use_triggers([2]))
    assert [(f.kind, f.player) for f in frames] == [
        ("end_of_day_order", 2), ("trigger", 2), ("trigger", 1), ("first_player", 0),
    ]
    assert [f.data["timing"] for f in frames[1:3]] == ["after_lose_reputation"] * 2
    assert [p.money for p in game.players] == [money[0], money[1] + 3, money[2] + 3]
    assert game.first_player == 0  # seat 0, alone at the highest reputation, kept the start


def test_the_order_is_asked_on_the_last_day_before_the_game_ends() -> None:
    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    put_on_sheet(game, 2, 0, make_granuja(game, "banquero", "parlanchina"))
    advance_to_day(game, 2)
    assert game.first_player == 0 and game.day == game.last_day
    _bluff_caught_by(game, [1, 2])
    money = [p.money for p in game.players]
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 2])
    play(game, A.SEAT, A.SHEET, A.SHEET)  # seat 2 first, then seat 1
    assert game.decision is None
    assert [p.money for p in game.players] == [money[0], money[1] + 3, money[2] + 4]


def test_a_pending_trigger_order_survives_snapshots_and_clones() -> None:
    from granujas_env.engine.snapshot import digest, from_dict, to_dict

    game = new_game(3, seed=TRIGGER_DEAL)
    put_on_sheet(game, 0, 0, make_granuja(game, "impresor", "atrevida"))
    put_on_sheet(game, 1, 0, make_granuja(game, "buscador_de_oro", "parlanchina"))
    put_on_sheet(game, 2, 0, make_granuja(game, "banquero", "parlanchina"))
    _bluff_caught_by(game, [1, 2])
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 1, A.SEAT + 2])
    play(game, A.SEAT + 1, A.SHEET)  # seat 0 first, and it uses its Granuja
    expect(game, "end_of_day_order", 2, [A.SEAT, A.SEAT + 2])  # seats 1 and 2 left
    copies = [from_dict(to_dict(game)), game.clone()]
    for other in (game, *copies):
        play(other, A.SEAT + 2, A.SHEET, A.SHEET)  # seat 1, then seat 2
        assert other.day == 2
    assert digest(copies[0]) == digest(copies[1]) == digest(game)


def test_no_end_of_day_granuja_window_on_the_final_day() -> None:
    """«Después de cazar todos los faroles durante el último día, la partida termina»: the «Al
    final del día» window follows step 3, so on the final day (step 1 only) a Noctámbulo/a
    Granuja is not offered; on day 1 it is."""
    game = new_game(2)
    night_owl(game, 0, "buscador_de_oro")

    def night_owl_offers(day: int) -> list[int]:
        frames = decisions_until(game, lambda g: g.game_over or g.day > day)
        return [f.player for f in frames if f.kind == "trigger" and f.data["timing"] == "end_of_day"]

    assert night_owl_offers(1) == [0]
    assert game.day == 2 == game.last_day
    assert night_owl_offers(2) == [] and game.game_over
