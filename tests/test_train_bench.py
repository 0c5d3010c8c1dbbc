"""The training benchmark (python -m train.bench) runs and reports every figure in range."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("sb3_contrib")

from train import bench  # noqa: E402 - after the skip: it needs the [train] extra


def test_bench_writes_every_figure(tmp_path, capsys) -> None:
    out = tmp_path / "bench.json"
    argv = ["--seconds", "1", "--n-envs", "1,2", "--n-steps", "32", "--batch-size", "32"]
    assert bench.main([*argv, "--vec", "dummy", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    for key in (
        "learner_steps_per_s",
        "env_share",
        "opponent_share",
        "vector_speedup",
        "median_opponent_decision_us",
    ):
        assert key in result, key
    assert result["learner_steps_per_s"] > 0
    assert 0.0 < result["env_share"] < 1.0
    assert 0.0 < result["opponent_share"] < result["env_share"]
    assert result["vector_speedup"] > 0 and result["vector_n_envs"] == 2
    assert result["median_opponent_decision_us"] > 0
    base, vector = result["runs"]
    assert (base["n_envs"], vector["n_envs"]) == (1, 2)
    for run in result["runs"]:
        assert set(run["shares"]) == set(bench.PARTS)
        assert sum(run["shares"].values()) == pytest.approx(1.0, abs=0.01)
        assert run["shares"]["engine"] > 0 and run["shares"]["opponents"] > 0
        assert run["shares"]["forward"] > 0 and run["shares"]["update"] > 0  # a whole cycle
        assert run["whole_cycles"] and run["learner_steps"] >= 32 * run["n_envs"]
        assert 0 <= run["timer_overhead_share"] < 0.2
        assert run["parts_measured"] and run["processes"] == 1
        assert run["cpu_ms_per_step"] > 0 and run["worker_cpu_ms_per_step"] == 0
    assert result["env_share"] == base["env_share"]
    assert result["vector_speedup"] == pytest.approx(
        vector["learner_steps_per_s"] / base["learner_steps_per_s"], abs=0.01
    )
    assert result["vector_cpu_speedup"] == pytest.approx(
        base["cpu_ms_per_step"] / vector["cpu_ms_per_step"], abs=0.01
    )
    assert "learner steps" in capsys.readouterr().out


def test_bench_runs_envs_in_worker_processes(tmp_path, capsys) -> None:
    """``--vec chunked``: the env's parts run in the workers and are reported as not measured
    (None), the learner's parts and the wait for the workers are; CPU time counts the workers."""
    from train.train import usable_cpus

    out = tmp_path / "bench.json"
    argv = ["--seconds", "1", "--n-envs", "1,2", "--n-steps", "32", "--batch-size", "32"]
    assert bench.main([*argv, "--vec", "chunked", "--json", str(out)]) == 0
    result = json.loads(out.read_text())
    assert result["opponent_share"] is None and result["median_opponent_decision_us"] is None
    assert result["vector_vec_env"] == "ChunkedSubprocVecEnv"
    assert result["vector_processes"] == 1 + min(2, usable_cpus())
    for run in result["runs"]:
        assert not run["parts_measured"] and run["whole_cycles"]
        assert all(run["shares"][p] is None for p in bench.ENV_PARTS)
        assert run["shares"]["forward"] > 0 and run["shares"]["update"] > 0
        assert 0.0 < run["env_share"] < 1.0
        assert 0 < run["worker_cpu_ms_per_step"] < run["cpu_ms_per_step"]
    assert "not measured" in capsys.readouterr().out


def test_bench_advisor_bots_are_timed_apart(tmp_path) -> None:
    out = tmp_path / "bench.json"
    argv = ["--mode", "bluff", "--advisor", "heuristic", "--seconds", "0.5", "--n-envs", "1"]
    assert bench.main([*argv, "--n-steps", "16", "--batch-size", "16", "--json", str(out)]) == 0
    (run,) = json.loads(out.read_text())["runs"]
    assert run["advisor"] == "heuristic" and run["shares"]["delegate_advisor"] > 0


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--n-envs", "0"], "--n-envs"),
        (["--n-envs", "one"], "--n-envs"),
        (["--seconds", "0"], "--seconds"),
        (["--advisor", "no_such_bot"], "unknown agent"),
        (["--players", "7"], "--players"),
    ],
)
def test_bad_arguments_exit_with_a_message(argv, message, capsys) -> None:
    with pytest.raises(SystemExit) as exit_info:
        bench.main(argv)  # refused before anything is trained
    assert exit_info.value.code == 2
    assert message in capsys.readouterr().err
