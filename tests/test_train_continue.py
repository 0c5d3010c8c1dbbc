"""Long runs that keep going (issue 27 item 5): ``train.train --continue`` picks an interrupted run
up from its newest checkpoint with the same pools (league snapshots, --opponents-for, the KL start
policy), and --steps / --minutes / --until budgets count what the run spent before."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

pytest.importorskip("sb3_contrib")

from train.train import budget_left, main, newest_checkpoint, parse_until  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
RUN = [
    "--mode", "bluff", "--quick", "--steps", "2048", "--league", "--league-every", "512",
    "--players", "2,4", "--opponents", "random", "--opponents-for", "4=heuristic",
    "--kl-coef", "0.01", "--continue", "--no-progress",
]


def _train(out: Path, *extra: str) -> str:
    cmd = [sys.executable, "-m", "train.train", *RUN, "--out", str(out), *extra]
    result = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout


def _card(out: Path) -> dict:
    return json.loads((out / "model_card.json").read_text())


@pytest.fixture(scope="module")
def continued_run(tmp_path_factory) -> tuple[Path, dict]:
    """A run killed (SIGKILL: nothing saved at exit) right after its first checkpoint, then
    started again with the same command; returns its folder and the state it was killed in."""
    out = tmp_path_factory.mktemp("continue") / "run"
    cmd = [sys.executable, "-m", "train.train", *RUN, "--out", str(out)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    try:
        deadline = time.time() + 120
        while newest_checkpoint(out) is None and time.time() < deadline:
            time.sleep(0.05)
        proc.send_signal(signal.SIGKILL)
        proc.communicate(timeout=60)
    finally:
        proc.kill()
    killed = newest_checkpoint(out)
    assert killed is not None and _card(out)["status"] == "training"
    kl_start = (out / "kl_start.zip").read_bytes()
    _train(out)
    return out, killed[1] | {"checkpoint": str(killed[0]), "kl_start": kl_start}


def test_a_killed_run_continues_with_its_pools(continued_run) -> None:
    out, killed = continued_run
    assert killed["steps"] < 2048 and killed["league"]  # a snapshot of the first start
    card = _card(out)
    assert card["status"] == "done" and card["steps"] == 2048
    assert card["steps_this_run"] == 2048 - killed["steps"]
    [again] = card["continued"]
    assert (again["from_checkpoint"], again["steps"]) == (killed["checkpoint"], killed["steps"])
    # the first start's snapshots stayed in the league, the schedule went on every 512 steps
    final = newest_checkpoint(out)[1]
    steps = [int(Path(p).stem.split("_")[1]) for p in final["league"]]
    assert final["league"][: len(killed["league"])] == killed["league"]
    assert steps == list(range(512, 2049, 512))
    assert card["league_snapshots"] == final["league"]
    # the pools of the run, as recorded; the time of both starts
    assert card["opponents"] == ["random"] and card["opponents_for"] == {"4": ["heuristic"]}
    assert card["wall_time_s"] == final["elapsed_s"] > killed["elapsed_s"]
    assert card["wall_time_s"] >= killed["elapsed_s"] + card["wall_time_this_start_s"] - 0.2
    # the KL term pulls toward the first start's policy, saved once
    assert (out / "kl_start.zip").read_bytes() == killed["kl_start"]
    # the same command once more: nothing left to do, nothing touched
    before = (out / "model_card.json").read_text()
    assert "nothing left to do (done" in _train(out)
    assert (out / "model_card.json").read_text() == before


def test_minutes_count_the_time_spent_before(continued_run) -> None:
    out, _ = continued_run
    # as if the run had trained for 10 minutes before: a budget of 10 minutes and 3 seconds
    # leaves 3 seconds (had the time before not counted, this start would train 10 minutes)
    path, run_state = newest_checkpoint(out)
    path.with_suffix(".json").write_text(json.dumps(run_state | {"elapsed_s": 600.0}))
    minutes = 603 / 60
    started = time.time()
    _train(out, "--steps", "1000000", "--minutes", str(minutes))
    assert time.time() - started < 120
    card = _card(out)
    assert card["status"] == "stopped: time limit" and card["minutes"] == minutes
    assert 0 < card["steps_this_run"] and card["steps"] < 1_000_000
    assert 603 <= card["wall_time_s"] <= 615
    assert card["continued"][-1]["elapsed_s"] == 600.0
    assert "nothing left to do (stopped: time limit" in _train(
        out, "--steps", "1000000", "--minutes", str(minutes)
    )
    passed = (datetime.now(timezone.utc) - timedelta(minutes=1)).isoformat()
    assert "nothing left to do (stopped: time limit" in _train(
        out, "--steps", "1000000", "--until", passed
    )


def test_continue_refuses_another_run_or_old_checkpoints(continued_run, tmp_path, capsys) -> None:
    out, _ = continued_run
    with pytest.raises(SystemExit):
        main([*RUN, "--out", str(out), "--opponents", "heuristic", "--seed", "3"])
    err = capsys.readouterr().err
    assert (
        f"--continue: {out} holds a run with other arguments: --seed (the run's 0, given 3); "
        "--opponents (the run's 'random', given 'heuristic') (only --steps, --minutes, --until "
        "and --no-progress may change)"
    ) in err
    old = tmp_path / "old"
    (old / "checkpoints").mkdir(parents=True)
    (old / "checkpoints" / "ckpt_1024_steps.zip").write_bytes(b"")
    (old / "model_card.json").write_text(json.dumps({"argv": [*RUN, "--out", str(old)]}))
    with pytest.raises(SystemExit):
        main([*RUN, "--out", str(old)])
    assert "have no run state beside them (saved before --continue existed)" in (
        capsys.readouterr().err
    )


def test_budget_and_until() -> None:
    args = argparse.Namespace(steps=100, minutes=2.0, until=None)
    assert budget_left(args, 50, 149, 119.0) is None
    assert budget_left(args, 50, 150, 0.0) == "done"
    assert budget_left(args, 50, 0, 120.0) == "stopped: time limit"
    args.minutes, args.until = None, "2000-01-01T00:00"
    assert budget_left(args, 0, 0, 0.0) == "stopped: time limit"
    assert parse_until("2030-01-01T06:00") == datetime(2030, 1, 1, 6, tzinfo=timezone.utc)
    assert parse_until("2030-01-01T06:00+01:00").hour == 6
    assert parse_until("2030-01-01T06:00+01:00") == datetime(2030, 1, 1, 5, tzinfo=timezone.utc)
    with pytest.raises(ValueError, match="--until takes an ISO 8601 time"):
        parse_until("tomorrow")
