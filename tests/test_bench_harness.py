"""granujas_env.bench's measuring loop, on PettingZoo's reference envs with a tiny budget."""

from __future__ import annotations

import json
import statistics

import pytest

from granujas_env import bench

KEYS = {
    "seconds",
    "elapsed_s",
    "warmup_s",
    "setup_s",
    "seed",
    "agent_steps",
    "decisions",
    "games",
    "steps_per_s",
    "decisions_per_s",
    "games_per_s",
    "steps_per_game",
}


def test_measure_leduc() -> None:
    result = bench.measure(bench.leduc_factory, seconds=0.2, seed=0)
    assert set(result) == KEYS
    assert result["agent_steps"] > 0 and result["steps_per_s"] > 0
    assert 0 < result["decisions"] <= result["agent_steps"]
    assert result["games"] > 0 and result["games_per_s"] > 0
    # a leduc game is at least 2 decisions plus one final None step per player
    assert result["steps_per_game"] >= 4
    assert result["elapsed_s"] >= 0.2


def test_measure_connect_four_no_warmup() -> None:
    result = bench.measure(bench.connect_four_factory, seconds=0.1, seed=1, warmup=0)
    assert result["warmup_s"] == 0
    assert result["agent_steps"] > 0 and result["games"] > 0


def test_measure_rejects_nonpositive_seconds() -> None:
    with pytest.raises(ValueError):
        bench.measure(bench.leduc_factory, seconds=0)


def test_cli_only_reference_envs_writes_json(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    argv = ["--only", "leduc,connect_four", "--seconds", "0.1", "--warmup", "0"]
    assert bench.main([*argv, "--json", str(out)]) == 0
    printed = capsys.readouterr().out
    assert "leduc_holdem_v4" in printed and "connect_four_v3" in printed
    data = json.loads(out.read_text())
    assert set(data["results"]) == {"leduc", "connect_four"}
    assert set(data["results"]["leduc"]) == KEYS
    assert data["ratios"] == {}


def test_cli_rejects_unknown_env() -> None:
    with pytest.raises(SystemExit):
        bench.main(["--only", "chess"])


# ------------------------------------------------------------------------------ --game, --rounds
def test_measure_bang_dice() -> None:
    result = bench.measure(bench.game_factory("bang-dice", 5), seconds=0.2, seed=0, warmup=0)
    assert set(result) == KEYS
    assert 0 < result["decisions"] <= result["agent_steps"] and result["games"] > 0
    # a Bang! game is many decisions, then one final None step per player
    assert result["steps_per_game"] > 10


def test_cli_bang_dice_rounds_write_the_median_decision_ratio(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    argv = ["--game", "bang-dice", "--players", "4", "--only", "leduc,bang-dice", "--rounds", "3",
            "--seconds", "0.1", "--warmup", "0", "--json", str(out)]
    assert bench.main(argv) == 0
    printed = capsys.readouterr().out
    assert "bang-dice (4p)" in printed and "leduc_holdem_v4" in printed
    assert "decisions/s ratio bang-dice/leduc: median " in printed and "over 3 rounds" in printed
    data = json.loads(out.read_text())
    assert data["config"]["game"] == "bang-dice" and data["config"]["rounds"] == 3
    assert data["config"]["only"] == ["bang-dice", "leduc"]  # the game first: A B A B
    rounds = data["rounds"]
    assert [len(rounds[name]) for name in ("bang-dice", "leduc")] == [3, 3]
    ratio = data["decision_ratios"]["bang-dice/leduc"]
    assert ratio["rounds"] == [
        a["decisions_per_s"] / b["decisions_per_s"] for a, b in zip(rounds["bang-dice"], rounds["leduc"])
    ]
    assert ratio["median"] == statistics.median(ratio["rounds"])
    assert data["results"]["leduc"]["decisions_per_s"] == statistics.median(
        r["decisions_per_s"] for r in rounds["leduc"])


def test_median_result_takes_each_number_median() -> None:
    runs = [{"seed": 4, "games": g, "steps_per_s": s, "steps_per_game": None}
            for g, s in ((3, 10.0), (9, 30.0), (5, 20.0))]
    assert bench.median_result(runs) == {"seed": 4, "games": 5, "steps_per_s": 20.0,
                                         "steps_per_game": None}


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--game", "bang-dice", "--only", "granujas,leduc"],
         "unknown env(s) granujas; choose from bang-dice, leduc, connect_four"),
        (["--game", "bang-dice", "--length", "long"], "--length applies to granujas only"),
        (["--game", "bang-dice", "--clone"], "--clone applies to granujas only"),
        (["--rounds", "0"], "--rounds must be at least 1"),
    ],
)
def test_cli_refuses_options_of_another_game(argv, message, capsys) -> None:
    with pytest.raises(SystemExit):
        bench.main(argv)
    assert message in capsys.readouterr().err
