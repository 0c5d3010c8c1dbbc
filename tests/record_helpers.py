"""Helpers of the record and fuzz tests, shared by both games (granujas and Bang!)."""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from granujas_env import fuzz
from granujas_env.record import GameRecord, RecordError, load


def random_actions(
    game: Any, policy_seed: int, digest: Callable[[Any], str], limit: int | None = None
) -> tuple[list[int], list[str]]:
    """Play ``game`` by uniform random legal actions (in place, to the end or ``limit``
    actions): the actions and the digest after every step."""
    rng = random.Random(policy_seed)
    actions, digests = [], []
    while not game.game_over and (limit is None or len(actions) < limit):
        action = rng.choice(game.legal_actions())
        actions.append(action)
        game.apply(action)
        digests.append(digest(game))
    return actions, digests


def edit(path: Path, change: Callable[[dict], Any]) -> Path:
    """Apply ``change`` to the JSON object of the file ``path``, in place."""
    raw = json.loads(path.read_text())
    change(raw)
    path.write_text(json.dumps(raw))
    return path


def check_step_bound_failure(argv: list[str], steps: int, tmp_path: Path, capsys) -> str:
    """One fuzzed game of ``argv`` under a bound of ``steps`` steps is saved as a step_bound
    failure that reproduces; the command's output."""
    rc = fuzz.main([*argv, "--games", "1", "--max-steps", str(steps), "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 1 and f"step_bound after step {steps}" in out
    (path,) = tmp_path.glob("*.json")
    record = load(path)
    assert len(record.steps) == steps and record.failure["kind"] == "step_bound"
    failure = fuzz.reproduce(record)
    assert failure is not None and (failure.kind, failure.step) == ("step_bound", steps)
    return out


def check_exception_failure(
    argv: list[str], decision: str, tmp_path: Path, capsys, fix: Callable[[], None]
) -> GameRecord:
    """One fuzzed game of ``argv`` whose engine raises RuntimeError("planted engine bug") when
    answering ``decision`` is saved as an exception failure that reproduces; once ``fix()`` has
    removed the bug, loading the record says it replays without error."""
    rc = fuzz.main([*argv, "--games", "1", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert rc == 1 and "exception after step" in out and "planted engine bug" in out
    (path,) = tmp_path.glob("*.json")
    record = load(path)  # the last step must raise the recorded exception again
    assert record.failure["kind"] == "exception" and record.failure["exception"] == "RuntimeError"
    assert record.final_digest is None and "planted engine bug" in record.failure["traceback"]
    assert record.steps[-1].decision == decision
    failure = fuzz.reproduce(record)
    assert failure is not None and failure.kind == "exception"
    assert failure.step == record.failure["step"] == len(record.steps)
    fix()
    with pytest.raises(RecordError, match="replays without error"):
        load(path)
    return record
