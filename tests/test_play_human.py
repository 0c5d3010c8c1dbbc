"""`python -m granujas_env.play --human SEAT`: a person plays a whole game in the terminal against
bots and shipped models, seeing only its seat's information; bad answers are asked again; quitting
leaves cleanly; `--record` saves a record that `record show` replays."""

from __future__ import annotations

import io
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import scenario

import agents
from agents.human import HumanAgent, order_matters
from granujas_env import play, record
from granujas_env.engine import actions as A
from granujas_env.play import main, seat_names
from granujas_env.text import text_observation
from granujas_env.view import seat_view

SEPARATOR = "=" * 100
ROOT = Path(__file__).resolve().parent.parent


class ScriptedPerson(io.StringIO):
    """Reads the menu last printed on ``screen`` and answers it: first the ``bad`` answers, then
    the i-th decision's item ``i % len(menu)``, by id, name and meaning in turn. After
    ``answers`` legal answers the input ends (EOF)."""

    def __init__(self, screen: io.StringIO, bad: list[str], answers: int | None = None) -> None:
        super().__init__()
        self.screen, self.bad, self.answers = screen, list(bad), answers
        self.chosen: list[int] = []

    def readline(self, size: int | None = -1) -> str:
        if self.bad:
            return self.bad.pop(0) + "\n"
        if self.answers is not None and len(self.chosen) >= self.answers:
            return ""
        shown = self.screen.getvalue()
        menu = re.findall(r"^ *(\d+)\) (\S+) +(.*)$",
                          shown[shown.rindex("Legal actions (id, name, meaning):"):], re.M)
        k = len(self.chosen)
        action, name, meaning = menu[k % len(menu)]
        self.chosen.append(int(action))
        return (action, name, meaning)[k % 3] + "\n"


BAD_ANSWERS = ["banana", "99", "", "?", "table"]  # three wrong answers, the help, the table


def assert_bad_answers_asked_again(out: str, wrong: int) -> None:
    """``out`` shows ``wrong`` wrong answers asked again, among them those of BAD_ANSWERS with
    their reasons."""
    assert out.count("Not a legal action: ") == wrong
    assert "Not a legal action: 'banana' is not a legal action; legal options: " in out
    assert "Not a legal action: '99': 99 is not a legal action id now" in out
    assert "Not a legal action: empty answer; legal options: " in out


def play_as_person(argv: list[str], bad: list[str], path: Path) -> tuple[int, str, ScriptedPerson]:
    """Run the play command with ``argv`` and ``--record path``, a ScriptedPerson answering
    (first the ``bad`` answers); the exit status, the screen and the person."""
    screen = io.StringIO()
    person = ScriptedPerson(screen, bad)
    status = main([*argv, "--record", str(path)], stdin=person, stdout=screen)
    return status, screen.getvalue(), person


def test_a_person_plays_a_whole_game_with_bad_answers_and_a_record(tmp_path, capsys) -> None:
    path = tmp_path / "game.json"
    status, out, person = play_as_person(["--human", "1", "--agents", "heuristic,random",
                                          "--seed", "2"], BAD_ANSWERS, path)
    assert status == 0
    assert out.startswith("3000 Granujas, 3 players, short game, seed 2\n"
                          "p0: heuristic, p1: human, p2: random\n")
    assert_bad_answers_asked_again(out, 3)
    assert "Answer with the id before ')'" in out  # the help
    # narrated after every action: each change tied to its cause, none summed
    assert "reputation" in out and "since the last update" not in out
    assert "=== game over after day 2: p" in out
    assert "<- winner" in out
    screens = out.split(SEPARATOR)[1:]
    assert len(screens) == len(person.chosen) + 1  # one per decision, one at the end
    for block in screens[:-1]:
        assert "You are p1 in a 3-player game" in block
        # its own hand only: one hand line per table shown ("table" shows it twice)
        assert block.count("    hand: ") == block.count("p1 (you):") >= 1
    assert "The game is over; p" in screens[-1]
    # the record replays, and holds the person's answers
    saved = record.load(path)
    assert saved.meta == {"tool": "granujas_env.play",
                          "agents": ["heuristic", "human", "random"], "finished": True}
    mine = [s.action for s in saved.steps if s.player == 1]
    automatic = re.findall(r"^\(p1: .*played for you: ", out, re.M)
    assert len(mine) == len(person.chosen) + len(automatic)
    remaining = iter(mine)  # the person's answers, in order, among the automatic ones
    assert all(any(a == c for a in remaining) for c in person.chosen)
    assert "game record saved to" in capsys.readouterr().err
    assert record.main(["show", str(path)]) == 0
    assert "<- winner" in capsys.readouterr().out


def test_end_of_input_abandons_the_game_and_keeps_a_partial_record(tmp_path, capsys) -> None:
    screen = io.StringIO()
    person = ScriptedPerson(screen, [], answers=3)
    path = tmp_path / "part.json"
    status = main(["--human", "0", "--players", "2", "--agents", "random", "--seed", "4",
                   "--record", str(path)], stdin=person, stdout=screen)
    assert status == 130
    err = capsys.readouterr().err
    steps = len(record.load(path).steps)
    assert f"the input ended: game abandoned after {steps} actions" in err
    assert record.load(path).meta["finished"] is False
    assert "<- winner" not in screen.getvalue()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--human", "3", "--agents", "random,random"], "--human must be a seat 0..2 of the 3"),
        (["--human", "0", "--players", "4", "--agents", "random,random"],
         "with --human, --agents names the other 3 seats: 1 or 3 names, got 2"),
        (["--agents", "random,nosuchbot"], "unknown agent 'nosuchbot'"),
        (["--agents", "random,,random"], "--agents has an empty name"),
        (["--players", "5"], "--players must be 2, 3 or 4, got 5"),
        (["--agents", "random", "--record", "."], "is a folder; name a file"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv: list[str], message: str, capsys) -> None:
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_seat_names() -> None:
    assert seat_names(None, None, None) == ["heuristic", "honest", "random", "heuristic"]
    assert seat_names(2, None, None) == ["heuristic", "honest"]
    assert seat_names(None, "a,b,c", None) == ["a", "b", "c"]
    assert seat_names(3, "a", None) == ["a", "a", "a"]
    assert seat_names(None, "a,b,c", 0) == ["human", "a", "b", "c"]
    assert seat_names(None, None, 2) == ["heuristic", "heuristic", "human", "heuristic"]
    assert seat_names(2, "a", 1) == ["a", "human"]


def test_bots_only_game_resolves_models_through_make_bot(tmp_path, capsys, monkeypatch) -> None:
    """Names go to agents.policy.make_bot, which resolves shipped models (full, bluffer,
    safecracker) and model paths like the tournament does; loading one needs torch, so here a
    spy stands in for it."""
    asked = []

    def spy(spec: str, seed: int | None = None) -> object:
        asked.append((spec, seed))
        return agents.make("random", seed=seed)

    monkeypatch.setattr(play, "make_bot", spy)
    path = tmp_path / "bots.json"
    assert main(["--agents", "full,random", "--seed", "1", "--record", str(path)]) == 0
    assert asked == [("full", 1), ("random", 2)]
    out = capsys.readouterr().out
    assert "p0: full, p1: random" in out and "plays a card face down" in out
    assert "<- winner" in out
    assert record.load(path).meta["agents"] == ["full", "random"]


def test_a_model_without_the_train_extra_is_a_one_line_error(capsys, monkeypatch) -> None:
    def no_torch(spec: str, seed: int | None = None) -> object:
        raise ImportError("PolicyAgent needs torch and sb3-contrib: pip install torch==2.13.0 "
                          "&& pip install -e '.[train]'")

    monkeypatch.setattr(play, "make_bot", no_torch)
    assert main(["--agents", "full,random"]) == 2
    err = capsys.readouterr().err
    assert err == ("error: PolicyAgent needs torch and sb3-contrib: pip install torch==2.13.0 "
                   "&& pip install -e '.[train]'\n")


def _default_sigint() -> None:
    # as at a terminal: a test run launched in the background (nohup ... &) ignores SIGINT, and
    # a child would inherit that and never see the Ctrl-C this file sends
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(*args: str) -> subprocess.Popen:
    return subprocess.Popen(
        [sys.executable, "-m", "granujas_env.play", *args],
        cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, env={**os.environ, "PYTHONUNBUFFERED": "1"},
        preexec_fn=None if sys.platform == "win32" else _default_sigint,
    )


def test_quit_in_a_real_process_leaves_without_traceback() -> None:
    process = _start("--human", "0", "--players", "2", "--agents", "random")
    out, err = process.communicate("banana\nquit\n", timeout=60)
    assert process.returncode == 130
    assert "your choice" in out and "Not a legal action: 'banana'" in out
    assert "p0 quit: game abandoned after" in err and "Traceback" not in err


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT to a child process")
def test_ctrl_c_in_a_real_process_leaves_without_traceback() -> None:
    process = _start("--human", "1", "--players", "2", "--agents", "random")
    shown = ""
    deadline = time.monotonic() + 60
    while "your choice" not in shown and time.monotonic() < deadline:
        shown += process.stdout.read(1)
    assert "your choice" in shown
    process.send_signal(signal.SIGINT)
    _, err = process.communicate(timeout=60)
    assert process.returncode == 130
    assert "interrupted: game abandoned after" in err and "Traceback" not in err


# ------------------------------------------------------------------------------------ the terminal's answers
def ask_person(game, answers: str, *, view=seat_view, num_actions: int = A.NUM_ACTIONS
               ) -> tuple[int, str]:
    """The human agent's action at ``game``'s pending decision, given ``answers`` (lines), and
    its screen; ``view(game, seat)`` is the game's seat view (default granujas')."""
    mask = np.zeros(num_actions, dtype=np.int8)
    mask[game.legal_actions()] = 1
    screen = io.StringIO()
    person = HumanAgent(input=io.StringIO(answers), output=screen)
    return person.act({"action_mask": mask}, view(game, game.decision.player)), screen.getvalue()


_ask = ask_person


def _at_challenge():
    game = scenario.new_game(2, seed=0, first=0)
    scenario.advance_to(game, "plan_card", 0)
    scenario.play(game, game.legal_actions()[0], A.SLOT + 5)
    scenario.advance_to(game, "challenge", 1)
    return game


@pytest.mark.parametrize(
    ("answer", "expected"),
    [("challenge", A.CONFIRM), ("yes", A.CONFIRM), ("pass", A.PASS), ("no", A.PASS),
     ("do not challenge", A.PASS), ("1", A.CONFIRM)],
)
def test_the_common_words_are_unambiguous(answer: str, expected: int) -> None:
    action, screen = _ask(_at_challenge(), answer + "\n")
    assert action == expected
    assert "Your decision: Challenge p0's card in slot 5?" in screen
    assert "Not a legal action" not in screen


def test_a_long_wrong_answer_is_cut_in_the_echo() -> None:
    action, screen = _ask(_at_challenge(), "x" * 3000 + "\npass\n")
    assert action == A.PASS
    assert ("Not a legal action: '" + "x" * 80 + "'… (3000 characters) is not a legal action; "
            "legal options: ") in screen
    assert "x" * 81 not in screen


def test_saloon_spaces_are_labelled_apart_from_the_action_ids() -> None:
    game = scenario.new_game(2, seed=0, first=0)
    scenario.advance_to(game, "hire", 0)
    screen = text_observation(seat_view(game, 0))
    table, menu = screen.split("Legal actions (id, name, meaning):")
    assert re.findall(r"^  S(\d): ", table, re.M) == ["1", "2", "3"]
    assert not re.findall(r"^ *\d+\) ", table, re.M)  # "12) ..." lines only in the menu
    assert "hire from Saloon space S1 for" in menu


def test_decisions_without_a_real_choice_are_played_and_said() -> None:
    game = scenario.new_game(2, seed=0, first=0)
    scenario.advance_to(game, "hire", 0)
    hire = next(a for a in game.legal_actions() if A.SALOON <= a < A.SHERIFF)
    scenario.play(game, hire)
    scenario.advance_to(game, "place", 0)
    scenario.play(game, A.SHEET)  # one Granuja on the sheet: its order changes nothing
    scenario.expect(game, "rearrange", 0)
    action, screen = _ask(game, "")  # no input: asking would end the game
    assert action == A.PASS
    assert ("(p0: one Granuja on your sheet, so the order changes nothing; played for you: "
            "finish: keep the sheet in this order)") in screen
    assert "your choice" not in screen
    # a single legal action
    game = scenario.new_game(2, seed=0, first=0)
    scenario.advance_to(game, "plan_card", 0)
    scenario.set_hand(game, 0, [4])
    action, screen = _ask(game, "")
    assert action == A.CARD + 4
    assert "(p0: the only legal choice, played for you: play the 4 (you choose its slot next))" \
        in screen


def test_a_rearrangement_that_can_matter_is_asked() -> None:
    game = scenario.new_game(2, seed=0, first=0)
    answerer = scenario.make_granuja(game, "banquero", "servicial")  # answers on its left
    scenario.put_on_sheet(game, 0, 1, answerer)
    scenario.advance_to(game, "hire", 0)
    hire = next(a for a in game.legal_actions() if A.SALOON <= a < A.SHERIFF)
    scenario.play(game, hire)
    scenario.advance_to(game, "place", 0)
    scenario.play(game, A.SHEET)
    scenario.expect(game, "rearrange", 0)
    action, screen = _ask(game, "pass\n")
    assert action == A.PASS and "your choice" in screen


def test_the_sheet_order_matters_only_with_a_neighbour_to_answer() -> None:
    game = scenario.new_game(2, seed=0, first=0)
    scenario.put_on_sheet(game, 0, 0, scenario.make_granuja(game, "buscador_de_oro", "parlanchina"))
    assert not order_matters(seat_view(game, 0))  # one Granuja
    scenario.put_on_sheet(game, 0, 2, scenario.make_granuja(game, "banquero", "codicioso"))
    assert not order_matters(seat_view(game, 0))  # two, neither answers a neighbour
    scenario.put_on_sheet(game, 0, 4, scenario.make_granuja(game, "banquero", "servicial"))
    assert order_matters(seat_view(game, 0))


def test_auto_pass_never_asks_about_a_challenge() -> None:
    game = _at_challenge()
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[game.legal_actions()] = 1
    screen = io.StringIO()
    person = HumanAgent(input=io.StringIO(""), output=screen, auto_pass=True)
    assert person.act({"action_mask": mask}, seat_view(game, 1)) == A.PASS
    assert screen.getvalue().endswith(
        "(p1: challenge windows pass automatically (--auto-pass): do not challenge p0's card in "
        "slot 5)\n")
    screen = io.StringIO()
    status = main(["--human", "0", "--players", "2", "--agents", "random", "--seed", "3",
                   "--auto-pass"], stdin=ScriptedPerson(screen, []), stdout=screen)
    assert status == 0
    out = screen.getvalue()
    assert "(p0: challenge windows pass automatically" in out
    assert "Your decision: Challenge" not in out


def test_the_search_bot_plays_through_agents_registry_ask(capsys) -> None:
    """ISMCTS needs the live game (it samples what its seat cannot know): play asks every bot
    through agents.registry.ask, which hands it the game, as the tournament and the web do."""
    assert main(["--agents", "ismcts:simulations=4,random", "--players", "2", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "p0: ismcts:simulations=4, p1: random" in out and "<- winner" in out
