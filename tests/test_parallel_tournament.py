"""Parallel tournaments (``--workers``, ``--ray``) give the same results as one process."""

from __future__ import annotations

import importlib.util
import json
import sys
from pathlib import Path

import pytest

from train.tournament import RAY_MISSING, RayUnavailableError, main, run_tournament

# the tests that start a local Ray share one worker process (pyproject: --dist loadgroup)
pytestmark = pytest.mark.xdist_group("ray")

# 3 seats: 2 deals x 3 rotations
AGENTS = "heuristic,random,honest"
ARGS = ["--games", "6", "--seed", "4", "--quiet"]


def _json_of(tmp_path: Path, name: str, *extra: str) -> list[dict]:
    path = tmp_path / f"{name}.json"
    assert main(["--agents", AGENTS, *ARGS, "--json", str(path), *extra]) == 0
    return json.loads(path.read_text())


def test_one_and_two_workers_write_the_same_json(tmp_path: Path) -> None:
    one = _json_of(tmp_path, "one", "--workers", "1")
    two = _json_of(tmp_path, "two", "--workers", "2")
    assert one == two
    assert [row["games"] for row in one] == [6, 6, 6] and sum(r["wins"] for r in one) == 6


def test_records_come_in_deal_order_whatever_the_worker_count() -> None:
    names = ["honest", "random"]
    one = run_tournament(names, 6, seed=7, workers=1)
    assert [(r["deal"], r["rotation"]) for r in one] == [(d, r) for d in range(3) for r in range(2)]
    assert run_tournament(names, 6, seed=7, workers=2) == one


def test_ray_without_ray_is_one_line(monkeypatch, capsys) -> None:
    find_spec = importlib.util.find_spec
    monkeypatch.setattr(
        importlib.util, "find_spec", lambda name, *a: None if name == "ray" else find_spec(name, *a)
    )
    assert main(["--agents", AGENTS, *ARGS, "--ray"]) == 2
    err = capsys.readouterr().err
    assert err == f"error: {RAY_MISSING}\n" and "[rllib]" in err


def test_address_needs_ray(capsys) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["--agents", AGENTS, *ARGS, "--address", "auto"])
    assert exc.value.code == 2
    assert "--address names a Ray cluster: use it with --ray" in capsys.readouterr().err


def test_ray_gives_the_same_records(tmp_path: Path) -> None:
    if importlib.util.find_spec("ray") is None:
        pytest.skip("ray is not installed (pip install -e '.[rllib]'): the Ray path is untested")
    import ray

    local = _json_of(tmp_path, "local")
    ray.init(num_cpus=2, include_dashboard=False)
    try:
        # the CLI uses the running instance, and writes the same JSON as one process
        assert _json_of(tmp_path, "ray", "--ray") == local
    finally:
        ray.shutdown()


def test_run_tournament_with_ray_missing_raises_before_any_game(monkeypatch) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` raises ImportError
    with pytest.raises(RayUnavailableError, match=r"pip install -e '\.\[rllib\]'"):
        run_tournament(["random", "random"], 2, use_ray=True)
