"""The fuzz command: summary and exit status, and failures saved as records that reproduce them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from record_helpers import check_exception_failure, check_step_bound_failure

import granujas_env.engine.game as game_module
from granujas_env import fuzz
from granujas_env.engine import Game, GameConfig
from granujas_env.invariants import InvariantError
from granujas_env.record import load

GRANUJAS_2P = ["--players", "2", "--length", "short", "--strategy-cards", "off"]


def test_clean_run_prints_the_summary(tmp_path: Path, capsys) -> None:
    summary_file = tmp_path / "summary.json"
    rc = fuzz.main(["--games", "12", "--seed", "3", "--out", str(tmp_path / "f"),
                    "--json", str(summary_file)])
    out = capsys.readouterr().out
    assert rc == 0, out
    assert "total: 12 games" in out and "0 failures" in out and "steps/s" in out
    summary = json.loads(summary_file.read_text())
    assert summary["games"] == 12 and summary["failures"] == 0
    assert summary["steps"] > 12 * 100
    assert summary["invariant_checks"] == summary["steps"] + summary["games"]  # setup + each step
    names = [c["name"] for c in summary["configs"]] + [u["name"] for u in summary["unavailable"]]
    assert len(names) == 12  # 3 player counts x 2 lengths x strategy cards on/off
    for c in summary["configs"]:
        assert c["games"] >= 1 and 0 < c["max_steps"] <= c["step_bound"]
        assert c["step_bound"] == fuzz.step_bound(GameConfig(**c["config"]))
        assert c["name"] in out
    assert not (tmp_path / "f").exists()  # nothing saved without a failure


def test_selected_configurations_only(tmp_path: Path, capsys) -> None:
    rc = fuzz.main(["--games", "3", "--players", "2", "--length", "short",
                    "--strategy-cards", "off", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "2p short strategy-cards off" in out and "3p" not in out and "long" not in out


def test_unavailable_configuration_is_reported_not_fatal(tmp_path: Path, capsys) -> None:
    rc = fuzz.main(["--games", "2", "--players", "2,5", "--length", "short",
                    "--strategy-cards", "off", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0
    assert "5p short strategy-cards off" in out and "unavailable: num_players must be" in out
    assert fuzz.main(["--games", "2", "--players", "5", "--out", str(tmp_path)]) == 2
    assert "none of the requested configurations" in capsys.readouterr().err


def test_refused_strategy_cards_are_unavailable(tmp_path: Path, capsys, monkeypatch) -> None:
    """As before the complete catalog: GameConfig refused strategy_cards=True."""

    def refusing(n: int, length: str, cards: bool) -> GameConfig:
        if cards:
            raise ValueError("strategy_cards=True is not available yet")
        return GameConfig(n, length, cards)

    monkeypatch.setattr(fuzz, "GameConfig", refusing)
    rc = fuzz.main(["--games", "6", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 0 and "total: 6 games" in out
    assert out.count("unavailable: strategy_cards=True is not available yet") == 6
    assert out.count("strategy-cards off ") == 6


def test_bad_arguments_exit_2(capsys) -> None:
    for argv in (["--players", "two"], ["--strategy-cards", "maybe"], [], ["--games", "0"]):
        with pytest.raises(SystemExit) as info:
            fuzz.main(argv)
        assert info.value.code == 2
    capsys.readouterr()


def _flaky_check(game: Game) -> None:
    """A planted invariant: fails in the state where the first player of day 1 has played twice."""
    fuzz_real(game)
    if game.day == 1 and game.turn == game.num_players + 1:
        raise InvariantError("planted: turn 2 of the first player reached")


fuzz_real = fuzz.check_invariants


def test_forced_invariant_failure_is_saved_and_reproduces(tmp_path: Path, capsys, monkeypatch) -> None:
    monkeypatch.setattr(fuzz, "check_invariants", _flaky_check)
    rc = fuzz.main(["--games", "2", "--players", "3", "--length", "short", "--strategy-cards",
                    "off", "--seed", "1", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 1
    assert "FAILURE 3p short strategy-cards off" in out and "planted" in out
    paths = sorted(tmp_path.glob("*.json"))
    assert len(paths) == 2 and "2 failures in" in out
    record = load(paths[0])  # validates, replays every step, checks the final digest + snapshot
    assert record.failure["kind"] == "invariant" and "planted" in record.failure["message"]
    assert record.failure["step"] == len(record.steps) and record.snapshot is not None
    again = fuzz.reproduce(record, check=_flaky_check)
    assert again is not None
    assert (again.kind, again.step, again.message) == (
        record.failure["kind"], record.failure["step"], record.failure["message"])
    # the replay command reproduces it too; with the real checks the same game is clean
    assert fuzz.main(["--replay", str(paths[0])]) == 1
    assert "reproduced: invariant after step" in capsys.readouterr().out
    monkeypatch.setattr(fuzz, "check_invariants", fuzz_real)
    assert fuzz.reproduce(record) is None
    assert fuzz.main(["--replay", str(paths[0])]) == 0


def test_step_bound_failure(tmp_path: Path, capsys) -> None:
    check_step_bound_failure(GRANUJAS_2P, 30, tmp_path, capsys)


def test_engine_exception_is_saved_and_reproduces(tmp_path: Path, capsys, monkeypatch) -> None:
    real = game_module._ANSWER["hire"]

    def broken_hire(game: Game, frame, action: int) -> None:
        if game.day == 1 and game.turn == 2:
            raise RuntimeError("planted engine bug")
        real(game, frame, action)

    monkeypatch.setitem(game_module._ANSWER, "hire", broken_hire)
    # once the bug is gone the record no longer reproduces, and loading says so
    check_exception_failure(GRANUJAS_2P, "hire", tmp_path, capsys,
                            fix=lambda: monkeypatch.setitem(game_module._ANSWER, "hire", real))
