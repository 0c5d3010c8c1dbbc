"""The tournament's ``--game bang-dice``: ratings by role through train.roles (one shared rating
module, train.ratings), text agents' invalid-answer rates by agent, granujas-only flags refused."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import pytest

from train import ratings, roles, tournament
from train.tournament import main

TEXT_BOTS = '''
from agents.base import Agent, legal_ids

BUILT = []


class Typist(Agent):
    """Answers every decision with its first legal action; one answer in three "invalid"."""

    name = "typist"
    wants_view = False

    def __init__(self, seed=None):
        self.calls = self.invalid = 0
        BUILT.append(self)

    def reset(self, seed=None):
        pass

    def act(self, observation, view=None):
        self.calls += 1
        self.invalid += self.calls % 3 == 0
        return legal_ids(observation)[0]

    def counters(self):
        return {"calls": self.calls, "answers": self.calls, "invalid_answers": self.invalid}
'''


@pytest.fixture
def text_bots(tmp_path, monkeypatch):
    (tmp_path / "my_bang_text_bots.py").write_text(TEXT_BOTS, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    yield importlib.import_module("my_bang_text_bots")
    monkeypatch.delitem(sys.modules, "my_bang_text_bots")


def test_the_shared_helpers_are_the_tournaments() -> None:
    assert tournament.wilson_interval is ratings.wilson_interval
    assert tournament.mean_interval is ratings.mean_interval
    assert ratings.difference_interval(30, 100, 20, 100)["points"] == pytest.approx(10.0)
    assert ratings.difference_interval(1, 0, 1, 2) == {"points": None, "ci95": None}
    assert ratings.invalid_answer_rate(None) is None
    assert ratings.invalid_answer_rate({"answers": 0, "invalid_answers": 0}) is None
    assert ratings.invalid_answer_rate({"answers": 8, "invalid_answers": 2}) == 0.25
    assert ratings.add_counters(None, None) is None
    assert ratings.add_counters({"a": 1}, {"a": 2, "b": 1}) == {"a": 3, "b": 1}


def test_bang_dice_is_rated_by_role_as_train_roles_rates_it(tmp_path, capsys) -> None:
    out = tmp_path / "bang.json"
    argv = ["--game", "bang-dice", "--agents", "heuristic,random", "--players", "5", "--games", "6",
            "--seed", "11", "--json", str(out)]
    assert main(argv) == 0
    summary = json.loads(out.read_text())
    expected = roles.summarize(["heuristic", "random"],
                               roles.run_roles("bang-dice", ["heuristic", "random"], 5, 6, 11), "bang-dice")
    assert summary["by_agent"] == json.loads(json.dumps(expected["by_agent"]))
    assert summary["difference"] == json.loads(json.dumps(expected["difference"]))
    assert summary["games"] == 6 and summary["players"] == 5 and summary["first_seed"] == 11
    assert summary["command"] == "python -m train.tournament " + " ".join(argv)
    heuristic = summary["by_agent"]["heuristic"]
    assert sorted(heuristic["by_role"]) == ["deputy", "outlaw", "renegade", "sheriff"]
    # 6 games x 5 seats, three seats for heuristic in even games, two in odd ones
    assert heuristic["overall"]["games"] == 15 and summary["by_agent"]["random"]["overall"]["games"] == 15
    assert sum(r["games"] for r in heuristic["by_role"].values()) == 15
    assert heuristic["text_counters"] is None and heuristic["invalid_answer_rate"] is None
    printed = capsys.readouterr().out
    assert printed.startswith("bang-dice, 5 players, 6 games\n") and "belief on true roles" in printed


def test_text_agents_invalid_answer_rate_by_agent(text_bots, tmp_path, capsys) -> None:
    out = tmp_path / "bang.json"
    agent = "my_bang_text_bots:Typist"
    assert main(["--game", "bang-dice", "--agents", f"{agent},heuristic,random", "--players", "4",
                 "--games", "3", "--seed", "5", "--json", str(out)]) == 0
    row = json.loads(out.read_text())["by_agent"][agent]
    played = [bot for bot in text_bots.BUILT if bot.calls]  # the bot built to check the name plays none
    assert len(played) == 4  # seats 0 and 3 of game 0, seat 2 of game 1, seat 1 of game 2
    calls = sum(bot.calls for bot in played)
    invalid = sum(bot.invalid for bot in played)
    assert row["text_counters"] == {"calls": calls, "answers": calls, "invalid_answers": invalid}
    assert row["invalid_answer_rate"] == invalid / calls > 0
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("invalid answers"))
    assert line == (f"invalid answers (text agents, over real answers): {agent} "
                    f"{100 * invalid / calls:.1f}% ({invalid}/{calls} answers; calls {calls})")


@pytest.mark.parametrize(
    ("extra", "message"),
    [
        (["--workers", "2"], "--workers: granujas only, not for --game bang-dice"),
        (["--length", "long", "--plot", "x.png"], "--length, --plot: granujas only"),
        (["--players", "9"], "--players must be in 3..8 for bang-dice"),
    ],
)
def test_granujas_only_flags_and_bad_players_are_refused(extra, message, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--game", "bang-dice", "--agents", "heuristic", "--players", "5", "--games", "1", *extra])
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err


def test_a_bad_agent_fails_before_any_game(capsys) -> None:
    assert main(["--game", "bang-dice", "--agents", "heuristic,nosuch", "--players", "5", "--games", "1"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: unknown agent 'nosuch'") and "heuristic" in err


def test_an_unknown_game_is_refused(capsys) -> None:
    with pytest.raises(SystemExit):
        main(["--game", "chess", "--agents", "heuristic"])
    assert "invalid choice: 'chess'" in capsys.readouterr().err


def test_a_trained_bang_model_takes_part_by_path_and_a_granujas_model_is_refused(tmp_path, capsys) -> None:
    """A saved Bang! model (what train.rllib and train.train --game bang-dice export: a
    MaskablePPO model.zip whose card says bang-dice) is an agent by path or shipped name."""
    pytest.importorskip("sb3_contrib")
    out = tmp_path / "bang.json"
    path = str(Path(__file__).resolve().parents[1] / "agents" / "models" / "bang-dice-ppo" / "model.zip")
    assert main(["--game", "bang-dice", "--agents", f"{path},bang-dice-ppo,random", "--players", "3",
                 "--games", "3", "--seed", "2", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())["by_agent"]
    assert [rows[a]["overall"]["games"] for a in (path, "bang-dice-ppo", "random")] == [3, 3, 3]
    assert main(["--game", "bang-dice", "--agents", "full,heuristic", "--players", "5", "--games", "1"]) == 2
    assert "model 'full' plays granujas, not bang-dice" in capsys.readouterr().err
