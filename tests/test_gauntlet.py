"""Gauntlet styles (agents/styles.py) and the gauntlet command (train/gauntlet.py)."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

import agents
from agents.heuristic import HeuristicAgent
from agents.styles import (
    STYLES,
    AlwaysBluff,
    AlwaysChallenge,
    ChallengeAfterPlan,
    ChallengeLastWindow,
    FirstCardOfDay,
    Hoarder,
    HonestPlan,
    NeverChallenge,
    RandomChallenge,
)
from granujas_env.engine import actions as A
from granujas_env.view import seat_view
from tests.scenario import new_game, play, play_card, set_hand
from train import gauntlet


def _observation(game) -> dict[str, np.ndarray]:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[list(game.legal_actions())] = 1
    return {"action_mask": mask}


def _decide(bot, game) -> int:
    seat = game.decision.player
    return bot.act(_observation(game), view=seat_view(game, seat))


def _play_out(game, bots, stop=None) -> list[tuple]:
    """Let the bots play; log (seat, kind, window, legal ids, context, action) of every decision."""
    log = []
    while game.decision is not None and not (stop and stop(game)):
        frame = game.decision
        view = seat_view(game, frame.player)
        action = bots[frame.player].act(_observation(game), view=view)
        log.append((frame.player, frame.kind, view.window, tuple(view.legal_actions),
                    view.context, action))
        play(game, action)
    return log


def _first_turn_challenges(style) -> list[tuple[int, int]]:
    """(window, answer) of seat 1 (the style) on seat 0's first card (a 3 in slot 3)."""
    game = new_game(players=2, seed=3, first=0)
    set_hand(game, 0, [1, 3, 4, 6])
    play_card(game, 3, 3)
    bots = [HeuristicAgent(seed=0), style]
    log = _play_out(game, bots, stop=lambda g: g.turn > 0)
    return [(w, a) for seat, kind, w, *_, a in log if seat == 1 and kind == "challenge"]


def test_every_style_is_registered_and_builds():
    assert set(STYLES) <= set(agents.available())
    for name, cls in STYLES.items():
        assert name.startswith("style_")
        bot = agents.make(name, seed=1)
        assert type(bot) is cls and isinstance(bot, HeuristicAgent)


@pytest.mark.parametrize(
    "style,expected",
    [
        (AlwaysChallenge, [(1, A.CONFIRM)]),
        (NeverChallenge, [(1, A.PASS), (2, A.PASS), (3, A.PASS)]),
        (ChallengeLastWindow, [(1, A.PASS), (2, A.PASS), (3, A.CONFIRM)]),
        (FirstCardOfDay, [(1, A.CONFIRM)]),
    ],
)
def test_challenge_styles_answer_by_window(style, expected):
    assert _first_turn_challenges(style(seed=0)) == expected


def test_first_card_of_day_leaves_later_cards_to_the_heuristic():
    game = new_game(players=2, seed=3, first=0)
    log = _play_out(game, [HeuristicAgent(seed=0), FirstCardOfDay(seed=0)],
                    stop=lambda g: g.day > 1)
    answers = [(w, a) for s, k, w, *_, a in log if s == 1 and k == "challenge"]
    assert answers[0] == (1, A.CONFIRM)  # seat 0's first card of the day
    # seat 0's later cards: the heuristic's rule, which passes outside the last window
    assert len(answers) > 1
    assert all(a == A.PASS for w, a in answers[1:] if w in (1, 2))


def test_challenge_after_plan_judges_in_the_first_window_only():
    style, heuristic = ChallengeAfterPlan(seed=0), HeuristicAgent(seed=0)
    game = new_game(players=2, seed=3, first=0)
    bots = [HeuristicAgent(seed=0), style]
    while game.decision is not None and game.day == 1:
        frame = game.decision
        view = seat_view(game, frame.player)
        if frame.player == 1 and frame.kind == "challenge":
            action = style.act(_observation(game), view=view)
            if view.window == 1:
                # the heuristic's judgement, as it would make it at the last window
                last = _AtLast(view)
                assert action == heuristic.act(_observation(game), view=last)
            else:
                assert action == A.PASS
        else:
            action = bots[frame.player].act(_observation(game), view=view)
        play(game, action)
    assert game.day == 2


class _AtLast:
    """The test's own reading of a view as the last window (independent of agents.styles)."""

    window = 3

    def __init__(self, view):
        self._view = view

    def __getattr__(self, name):
        return getattr(self._view, name)


def test_always_bluff_never_plays_a_card_in_its_slot_when_avoidable():
    game = new_game(players=2, seed=5, first=0)
    log = _play_out(game, [AlwaysBluff(seed=0), HeuristicAgent(seed=1)])
    slots = [(legal, ctx["card"], a) for s, k, _w, legal, ctx, a in log
             if s == 0 and k == "plan_slot"]
    assert len(slots) >= 8
    for legal, card, action in slots:
        assert action != A.FACE_UP
        free = {x - A.SLOT for x in legal if A.SLOT < x <= A.SLOT + 6}
        if free - {card}:
            assert action - A.SLOT != card, (card, free, action)


def test_honest_style_plays_each_card_in_its_own_slot_when_free():
    game = new_game(players=2, seed=5, first=0)
    log = _play_out(game, [HonestPlan(seed=0), HeuristicAgent(seed=1)])
    slots = [(legal, ctx["card"], a) for s, k, _w, legal, ctx, a in log
             if s == 0 and k == "plan_slot"]
    assert len(slots) >= 8
    for legal, card, action in slots:
        if A.SLOT + card in legal:
            assert action == A.SLOT + card, (card, legal, action)


def test_hoarder_always_goes_to_the_sheriff():
    game = new_game(players=2, seed=5, first=0)
    log = _play_out(game, [Hoarder(seed=0), HeuristicAgent(seed=1)])
    hires = [(legal, a) for s, k, _w, legal, _c, a in log if s == 0 and k == "hire"]
    assert len(hires) >= 8
    assert all(a == A.SHERIFF for legal, a in hires if A.SHERIFF in legal)
    assert not any(e[0] == "hire" and e[2] == 0 for e in game.history if len(e) > 2)


def test_random_challenge_answers_from_its_own_seeded_stream():
    game = new_game(players=2, seed=7, first=0)
    log = _play_out(game, [HeuristicAgent(seed=1), RandomChallenge(seed=5)])
    answers = [a for s, k, *_, a in log if s == 1 and k == "challenge"]
    stream = random.Random(5)
    assert answers == [A.CONFIRM if stream.random() < 0.5 else A.PASS for _ in answers]
    assert set(answers) == {A.PASS, A.CONFIRM}


# ------------------------------------------------------------------------- the command


def test_targets_and_pass_rule():
    assert gauntlet.TARGETS == {2: (0.60, 0.50), 4: (0.35, 0.25)}
    assert gauntlet.meets_target(2, 0.62, 0.51) is True
    assert gauntlet.meets_target(2, 0.62, 0.50) is False  # the lower bound must exceed 50%
    assert gauntlet.meets_target(2, 0.59, 0.55) is False
    assert gauntlet.meets_target(4, 0.35, 0.26) is True
    assert gauntlet.meets_target(4, 0.34, 0.26) is False
    assert gauntlet.meets_target(3, 0.99, 0.98) is None  # no target in 3 players


def test_default_opponents():
    names = gauntlet.default_opponents()
    assert names[: len(STYLES)] == list(STYLES)
    assert "heuristic" in names
    assert ("ismcts" in names) == ("ismcts" in agents.available())


def test_rate_row_matches_the_tournament():
    row = gauntlet.rate("random", "style_never_challenge", 2, 3, seed=2)
    assert row["games"] == 4  # rounded up to a multiple of the seats
    assert row["opponent"] == "style_never_challenge" and row["players"] == 2
    assert row["win_rate"] == row["wins"] / 4
    assert row["wilson_low"] <= row["win_rate"] <= row["wilson_high"]
    assert row["passed"] == gauntlet.meets_target(2, row["win_rate"], row["wilson_low"])
    with pytest.raises(ValueError, match="players must be 2, 3 or 4"):
        gauntlet.rate("random", "random", 5, 2)


def test_main_writes_json_and_plot(tmp_path, capsys):
    out, png = tmp_path / "g.json", tmp_path / "g.png"
    code = gauntlet.main([
        "--agent", "random", "--opponents", "random,style_hoarder", "--players", "2,3",
        "--games", "2", "--seed", "1", "--json", str(out), "--plot", str(png), "--quiet",
    ])
    assert code == 0
    rows = json.loads(out.read_text())
    assert [(r["opponent"], r["players"]) for r in rows] == [
        ("random", 2), ("style_hoarder", 2), ("random", 3), ("style_hoarder", 3)
    ]
    for r in rows:
        assert {"opponent", "players", "games", "win_rate", "wilson_low", "wilson_high",
                "passed"} <= set(r)
    assert [r["games"] for r in rows] == [2, 2, 3, 3]
    assert rows[2]["passed"] is None and rows[0]["passed"] is not None
    assert png.stat().st_size > 0
    assert "style_hoarder" in capsys.readouterr().out


def test_main_rejects_bad_arguments(tmp_path, capsys):
    with pytest.raises(SystemExit) as exc:
        gauntlet.main(["--agent", "random", "--players", "2,5"])
    assert exc.value.code == 2
    assert "--players must be a comma list of 2, 3 or 4" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        gauntlet.main(["--agent", "random", "--json", str(tmp_path / "no" / "x.json")])
    assert gauntlet.main(["--agent", "random", "--opponents", "nobody", "--games", "2",
                          "--quiet"]) == 2
    assert "unknown agent 'nobody'" in capsys.readouterr().err
