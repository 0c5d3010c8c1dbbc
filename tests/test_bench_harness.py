"""granujas_env.bench's measuring loop, on PettingZoo's reference envs with a tiny budget."""

from __future__ import annotations

import json

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
