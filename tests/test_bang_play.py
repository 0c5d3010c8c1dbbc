"""`python -m granujas_env.play --game bang-dice`: a narrated game between bots ending with the roles
revealed and the winners; a person plays a seat in the terminal seeing only that seat's
information, answering a plain-word menu (bad answers asked again); `--record` saves a record that
`record show` replays."""

from __future__ import annotations

import io
import random
import re

import pytest
from test_play_human import (
    BAD_ANSWERS,
    SEPARATOR,
    ScriptedPerson,
    ask_person,
    assert_bad_answers_asked_again,
    play_as_person,
)

from granujas_env import record
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.data import CHARACTERS
from granujas_env.bang_dice.engine.game import DECISION_KINDS, BangConfig, BangGame
from granujas_env.bang_dice.prompts import TEXT
from granujas_env.bang_dice.view import seat_view
from granujas_env.core.textio import menu_names, parse_action
from granujas_env.play import main, seat_names

ROLE_WORDS = ("Outlaw", "Renegade", "Deputy")


def test_bots_only_game_is_narrated_to_the_end_with_roles_and_winners(capsys) -> None:
    assert main(["--game", "bang-dice", "--players", "5", "--seed", "0"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[:2] == ["Bang! The Dice Game, 5 players, seed 0",
                         "p0: heuristic, p1: heuristic, p2: heuristic, p3: heuristic, p4: heuristic"]
    assert lines[3] == "--- the Sheriff is p2 (Slab the Killer); the other roles are secret ---"
    assert lines[4] == "-- turn 1: p2"
    assert "p2 rolls: " in out and "takes an arrow" in out and "is eliminated by" in out
    # every role revealed and the winners, after the game-over line
    assert re.search(r"^game over: p\d(, p\d)* win$", out, re.M)
    assert lines[-1].startswith("Roles: p0 outlaw (Willy the Kid")
    assert lines[-1].endswith("Winners: the Sheriff and his Deputies (p2, p3).")


def test_three_players_open_roles_and_any_bot(capsys) -> None:
    assert main(["--game", "bang-dice", "--players", "3", "--agents", "random", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "--- roles open at 3 players: p0 (" in out and "Winners: the " in out


def test_a_person_plays_a_whole_game_seeing_only_its_seat(tmp_path, capsys) -> None:
    long_answer = " ".join(["shoot"] * 40)
    path = tmp_path / "bang.json"
    status, out, person = play_as_person(["--game", "bang-dice", "--human", "0", "--players", "5",
                                          "--seed", "3"], [long_answer, *BAD_ANSWERS], path)
    assert status == 0
    assert out.startswith("Bang! The Dice Game, 5 players, seed 3\n"
                          "p0: human, p1: heuristic, p2: heuristic, p3: heuristic, p4: heuristic\n")
    # bad answers asked again with the reason; a long one cut in the echo
    assert_bad_answers_asked_again(out, 4)
    assert f"Not a legal action: {long_answer[:80]!r}… (239 characters)" in out
    assert "Dice are numbered 1-5 from the left" in out  # the help
    game = BangGame(None, 3)  # the same deal: the roles p0 may not know
    hidden = {s: game.roles[s] for s in range(1, 5) if s != game.sheriff}
    screens = out.split(SEPARATOR)[1:]
    assert len(screens) == len(person.chosen) + 1  # one per decision, one at the end
    revealed: set[int] = set()  # seats eliminated in the events shown so far
    for block in screens[:-1]:
        assert block.lstrip().startswith(f"You are p0 ({_name(game, 0)}) in a 5-player game of "
                                         f"Bang! The Dice Game. Your role: {game.roles[0].capitalize()}")
        assert f"The Sheriff is p{game.sheriff} ({_name(game, game.sheriff)})." in block
        assert "Legal actions (id, name, meaning):" in block
        revealed |= {int(s) for s in re.findall(r"^p(\d) is eliminated by", block, re.M)}
        for seat, role in hidden.items():  # a hidden role shows once its player is eliminated
            row = re.search(rf"^[ >] p{seat} \(.*$", block, re.M).group(0)
            assert ("role hidden" in row) == (seat not in revealed)
            assert (role.capitalize() in row) == (seat in revealed)
    assert revealed  # the check saw both cases
    assert re.search(r"The game is over: .* win \(p\d(, p\d)*\); you (win|lose)\. Roles: ",
                     screens[-1])
    assert out.rstrip().splitlines()[-1].startswith("Roles: p0 ")
    # the record replays and holds the person's answers
    saved = record.load(path)
    assert saved.meta == {"tool": "granujas_env.play", "agents": ["human"] + ["heuristic"] * 4,
                          "finished": True}
    assert [s.action for s in saved.steps if s.player == 0] == person.chosen
    assert "game record saved to" in capsys.readouterr().err
    assert record.main(["show", str(path)]) == 0


def _name(game: BangGame, seat: int) -> str:
    return CHARACTERS[game.characters[seat]].name


def test_end_of_input_abandons_and_keeps_a_partial_record(tmp_path, capsys) -> None:
    screen = io.StringIO()
    path = tmp_path / "part.json"
    status = main(["--game", "bang-dice", "--human", "2", "--seed", "4", "--record", str(path)],
                  stdin=ScriptedPerson(screen, [], answers=2), stdout=screen)
    assert status == 130
    assert "the input ended: game abandoned after" in capsys.readouterr().err
    saved = record.load(path)
    assert saved.meta["finished"] is False and len(saved.config.__dict__) == 1
    assert [s.player for s in saved.steps].count(2) == 2


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "bang-dice", "--players", "2"], "--players must be 3 to 8, got 2"),
        (["--game", "bang-dice", "--length", "long"], "--length: options of granujas, not of bang-dice"),
        (["--game", "bang-dice", "--agents", "heuristic,nosuch,random"], "unknown Bang! bot 'nosuch'"),
        (["--game", "bang-dice", "--agents", "heuristic,random"],
         "bang-dice is played by 3 to 8 players; --agents name 2 seats"),
        (["--game", "bang-dice", "--human", "5"], "--human must be a seat 0..4 of the 5 players"),
        (["--game", "chess"], "invalid choice: 'chess'"),
    ],
)
def test_bad_arguments_exit_2_with_a_message(argv: list[str], message: str, capsys) -> None:
    if argv[:2] == ["--game", "chess"]:
        with pytest.raises(SystemExit) as stop:
            main(argv)
        assert stop.value.code == 2
    else:
        assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_seat_names_default_to_the_games_bot() -> None:
    assert seat_names(None, None, None, game="bang-dice") == ["heuristic"] * 5
    assert seat_names(3, "random", 1, game="bang-dice") == ["random", "human", "random"]
    assert seat_names(None, "random,heuristic,random", None, game="bang-dice") == [
        "random", "heuristic", "random"]


# ------------------------------------------------------------------------------------ answers
def _at(position: dict) -> BangGame:
    return BangGame.from_position({"roles": ["sheriff", "renegade", "outlaw", "outlaw", "deputy"],
                                   "characters": ["black_jack", "lucky_duke", "bart_cassidy",
                                                  "kit_carlson", "paul_regret"], **position})


def _ask(game: BangGame, answers: str) -> tuple[int, str]:
    return ask_person(game, answers, view=seat_view, num_actions=A.NUM_ACTIONS)


def test_the_reroll_screen_names_the_dice_and_which_are_locked() -> None:
    game = _at({"turn": 1, "dice": ["1", "beer", "dynamite", "gatling", "arrow"]})
    action, screen = _ask(game, "reroll 2 4\n")
    assert action == 0b01010  # dice 2 and 4 (the mask of their bits)
    assert ("Dice of p1: 1 ONE, 2 BEER, 3 DYNAMITE (locked), 4 GATLING, 5 ARROW; roll 1, "
            "3 rerolls left.") in screen  # Lucky Duke: one more reroll
    assert "  10) reroll:2,4" in screen and "reroll dice 2, 4 (BEER, GATLING)" in screen
    assert "   0) resolve                keep all and resolve (ONE, BEER, DYNAMITE, GATLING, ARROW)" in screen
    assert "reroll:3" not in screen  # the dynamite is locked
    assert _ask(game, "keep all\n")[0] == A.STOP
    assert _ask(game, "reroll:1,2,4,5\n")[0] == 0b11011
    # Black Jack may reroll dynamite: nothing locked
    jack = _at({"turn": 0, "dice": ["1", "beer", "dynamite", "gatling", "arrow"]})
    assert "(locked)" not in TEXT.observation(seat_view(jack, 0))


def test_targets_by_seat_character_and_yes_no_words() -> None:
    game = _at({"turn": 0, "dice": ["1", "arrow", "arrow", "gatling", "beer"], "rolls": []})
    game.apply(_ask(game, "0\n")[0])  # keep all: the 1 is aimed first
    assert game.decision.kind == "shoot"
    items = {item.name: item.meaning for item in TEXT.menu(seat_view(game, 0))}
    assert items == {"p1": "shoot p1 (Lucky Duke, role hidden, life 8/8, 0 arrows)",
                     "p4": "shoot p4 (Paul Regret, role hidden, life 9/9, 0 arrows)"}
    assert _ask(game, "Paul Regret\n")[0] == A.target_action(0, 4, 5)
    assert _ask(game, "p1\n")[0] == A.target_action(0, 1, 5)
    action, screen = _ask(game, "p2\np4\n")  # p2 is out of reach: asked again
    assert "Not a legal action: 'p2' is not a legal action" in screen
    assert "Your decision: Your ONE (die 1) hits one player: choose whom." in screen
    # Bart Cassidy, hit off-turn: yes/no
    bart = _at({"turn": 3, "dice": ["1", "beer", "beer", "beer", "beer"], "rolls": []})
    bart.apply(_ask(bart, "resolve\n")[0])
    while bart.decision.kind != "bart_cassidy":
        bart.apply(bart.target_action(2) if bart.decision.kind == "shoot" else bart.legal_actions()[0])
    action, screen = _ask(bart, "yes\n")
    assert action == A.YES and "take an arrow instead of losing the life point" in screen
    assert _ask(bart, "no\n")[0] == A.NO


def test_every_menu_line_reads_back_as_its_action_in_random_games() -> None:
    """Every decision kind of random games (3-8 players) gets a menu whose names are distinct
    and whose every name and meaning, given as the answer, is that line's action."""
    kinds: set[str] = set()
    for seed in range(40):
        n = 3 + seed % 6
        game, rng = BangGame(BangConfig(n), seed), random.Random(seed)
        while not game.game_over:
            view = TEXT.seat_view(game, game.decision.player)
            items = TEXT.menu(view)
            legal = game.legal_actions()
            assert sorted(item.id for item in items) == legal
            assert len({item.name for item in items}) == len(items)
            names = menu_names(items)
            if view.decision not in kinds or rng.random() < 0.05:
                for item in items:
                    for answer in (item.name, item.meaning):
                        assert parse_action(answer, legal, names, yes_no=TEXT.yes_no) == item.id
            kinds.add(view.decision)
            game.apply(rng.choice(legal))
    assert kinds == set(DECISION_KINDS)
