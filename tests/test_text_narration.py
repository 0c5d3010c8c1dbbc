"""The narration (granujas_env.text.Narrator / history_lines): every change of money,
reputation, henchmen and Safes comes with its cause, the game ends with a line and each score's
sources, and the lines read only public information."""

from __future__ import annotations

import random

import pytest
from scenario import advance_to, default_action, new_game, play, set_reputation

from granujas_env import text
from granujas_env.engine import actions as A
from granujas_env.engine.game import Game, GameConfig
from granujas_env.view import seat_view

UNNAMED = "the event log does not name"


class Narrated:
    """A game stepped through ``scenario.play`` with a narrator fed after every action."""

    def __init__(self, game: Game, seat: int = 0) -> None:
        self.game, self.seat = game, seat
        self.narrator = text.Narrator(game.catalog, game.rules)
        self.lines = self.narrator.update(seat_view(game, seat))

    def play(self, *actions: int) -> None:
        for action in actions:
            play(self.game, action)
            self.lines += self.narrator.update(seat_view(self.game, self.seat))

    def default_until(self, stop, challengers: tuple[int, ...] = ()) -> None:
        for _ in range(3000):
            if self.game.decision is None or stop(self.game):
                return
            self.play(default_action(self.game, challengers))
        raise AssertionError("stop never met")


def _bluff_day(reputation: int | None = None) -> Narrated:
    """Day 1 of a 2-player game: p0 bluffs a 3 in slot 5, p1 challenges it; default play after
    (abilities passed, information sold at the Sheriff's Office) to the start of day 2."""
    game = new_game(2, seed=0, first=0)
    if reputation is not None:
        set_reputation(game, 0, reputation)
    game.players[0].hand[0] = 3  # scenario: the card p0 bluffs with
    advance_to(game, "plan_card", 0)
    narrated = Narrated(game)
    narrated.play(A.CARD + 3, A.SLOT + 5)
    narrated.default_until(lambda g: g.decision.kind == "challenge")
    narrated.play(A.CONFIRM)
    narrated.default_until(lambda g: g.day == 2)
    return narrated


def test_a_caught_bluff_says_who_loses_and_gains_reputation_and_why() -> None:
    lines = _bluff_day().lines
    expected = [
        "p0 plays a card face down in slot 5",
        "    p1 challenges p0's card in slot 5: puts a henchman on it (revealed at the end of "
        "the day)",
        "    p0 uses the Sheriff's Office instead of hiring (the rightmost Saloon Granuja is "
        "discarded) and sells information: gains 2 $",
        "  end of day: p0's challenged card in slot 5 is a 3 (a BLUFF)",
        "    p1 gains 1 reputation (now +1): caught p0's bluff in slot 5; its henchman comes back",
        "    p0 loses 1 reputation (now -1): bluff caught (played a 3 in slot 5)",
    ]
    positions = [lines.index(line) for line in expected]
    assert positions == sorted(positions)
    assert lines[-2:] == ["", f"--- day 2 begins; p{_bluff_day().game.first_player} plays first ---"]
    # every change of the day is explained by an event: nothing left unnamed
    assert not [line for line in lines if UNNAMED in line]


def test_a_loss_at_the_bottom_of_the_track_says_so() -> None:
    lines = _bluff_day(reputation=-2).lines
    assert ("    p0 would lose 1 reputation (bluff caught (played a 3 in slot 5)) but is on the "
            "track's lowest square (now -2)") in lines


def test_a_leader_ability_names_itself_as_the_cause_of_the_money() -> None:
    game = new_game(2, seed=0, first=0)
    game.players[0].hand[0] = 3
    advance_to(game, "plan_card", 0)
    narrated = Narrated(game)
    narrated.play(A.CARD + 3, A.SLOT + 3)
    narrated.default_until(lambda g: g.decision.kind == "ability")
    money = game.players[0].money
    narrated.play(A.LEADER)
    gained = game.players[0].money - money
    assert gained > 0
    assert narrated.lines[-1] == f"    p0 gains {gained} $ (p0's leader ability of slot 3)"


def test_a_narrator_fed_only_now_and_then_sums_what_it_cannot_tie_to_an_action() -> None:
    game = new_game(2, seed=0, first=0)
    game.players[0].hand[0] = 3
    advance_to(game, "plan_card", 0)
    narrator = text.Narrator(game.catalog, game.rules, every_action=False)
    narrator.update(seat_view(game, 1))
    money = game.players[0].money
    play(game, A.CARD + 3, A.SLOT + 3)
    advance_to(game, "ability", 0)
    play(game, A.LEADER)
    advance_to(game, "plan_card", 1)
    lines = narrator.update(seat_view(game, 1))
    assert "    p0 uses the Sheriff's Office instead of hiring (the rightmost Saloon Granuja is " \
           "discarded) and sells information: gains 2 $" in lines
    gained = game.players[0].money - money - 2  # the leader's money: no event tells it
    assert (f"    p0 gains {gained} $ (abilities and effects since the last update, which the "
            f"event log does not name)") in lines


def test_the_game_ends_with_a_line_and_each_score_by_source() -> None:
    game = new_game(3, seed=4, first=0)
    narrated = Narrated(game, seat=2)
    rng = random.Random(4)
    while game.decision is not None:
        narrated.play(rng.choice(game.legal_actions()))
    scores, winner = game.scores, game.winner
    head = narrated.lines.index(
        f"=== game over after day 2: p{winner} wins with {scores[winner]} tech "
        f"({', '.join(f'p{s}: {v}' for s, v in enumerate(scores))}) ===")
    for seat, line in enumerate(narrated.lines[head + 1:head + 4]):
        b = game.score_breakdown(seat)
        rep = game.players[seat].reputation
        sign = "-" if b["reputation"] < 0 else "+"
        assert line == (
            f"    p{seat}: {b['total']} tech = {b['safes'] + b['marks']} (its "
            f"{len(game.players[seat].safes)} Safe(s) and their matching Marks) {sign} "
            f"{abs(b['reputation'])} (reputation square {rep:+d}) + {b['granujas']} (Granujas' "
            f"tech); {game.players[seat].money} $ (breaks a tie)")


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_seat_reads_the_same_narration(seed: int) -> None:
    """The narration uses only public information: fed the views of different seats, the
    narrators say the same lines, which history_lines gives too for the logged events."""
    game = Game(new_game(3, seed=seed).config, seed=seed)
    narrators = [text.Narrator(game.catalog, game.rules) for _ in range(3)]
    said: list[list[str]] = [[] for _ in range(3)]
    rng = random.Random(seed)
    while game.decision is not None:
        game.apply(rng.choice(game.legal_actions()))
        for seat in range(3):
            said[seat] += narrators[seat].update(seat_view(game, seat))
    assert said[0] == said[1] == said[2]
    view = seat_view(game, 1)
    logged = [line for lines in text.history_lines(view) if lines for line in lines.split("\n")]
    assert len(text.history_lines(view)) == len(view.history)

    def headlines(lines: list[str]) -> list[str]:
        return [line for line in lines if line.startswith(("  end of day:", "p", "---", "==="))]

    assert headlines(logged) == headlines(said[0])


def test_single_events_make_sense_alone() -> None:
    catalog = new_game().catalog
    assert text.narrate(("jail_or_reputation", 1, 2, "reputation"), catalog) == (
        "    p2 loses 1 reputation: chose it over jailing a henchman (a rival's Presidiario/a)")
    assert text.narrate(("jail_or_reputation", 1, 2, "jail"), catalog) == (
        "    p2 puts one of its free henchmen in jail rather than lose reputation (a rival's "
        "Presidiario/a)")
    assert text.narrate(("reveal", 1, 2, 5, 3, True, (0,)), catalog) == (
        "  end of day: p2's challenged card in slot 5 is a 3 (a BLUFF)\n"
        "    p0 gains 1 reputation: caught p2's bluff in slot 5; its henchman comes back\n"
        "    p2 loses 1 reputation: bluff caught (played a 3 in slot 5)")
    assert text.narrate(("steal_money", 1, 0, 1, 3), catalog) == "    p0 takes 3 $ from p1"


@pytest.mark.parametrize("seed", [1, 4, 8])
def test_fed_after_every_action_no_change_is_left_without_a_cause(seed: int) -> None:
    """Random 4-player games with the Strategy cards: every change of money, reputation and
    henchmen is tied to an event or to the ability that made it."""
    game = Game(GameConfig(4, strategy_cards=True), seed=seed)
    narrated = Narrated(game, seat=seed % 4)
    rng = random.Random(seed)
    while game.decision is not None:
        narrated.play(rng.choice(game.legal_actions()))
    assert not [line for line in narrated.lines if UNNAMED in line]
    assert any("(p" in line and " $ (" in line for line in narrated.lines)  # ability money
