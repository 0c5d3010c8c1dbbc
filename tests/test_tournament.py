"""The rated tournament (python -m train.tournament): rotation, statistics, Wilson bounds, JSON."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from train.tournament import main, run_tournament, summarize, wilson_interval


@pytest.mark.parametrize(
    ("wins", "games", "low", "high"),
    [
        (0, 10, 0.0, 0.2775),
        (1, 10, 0.0179, 0.4042),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (80, 100, 0.7112, 0.8666),
    ],
)
def test_wilson_known_values(wins: int, games: int, low: float, high: float) -> None:
    lo, hi = wilson_interval(wins, games)
    assert lo == pytest.approx(low, abs=1e-4) and hi == pytest.approx(high, abs=1e-4)


def test_wilson_edges() -> None:
    assert wilson_interval(0, 0) == (0.0, 1.0)
    for games in (1, 7, 50):
        for wins in range(games + 1):
            lo, hi = wilson_interval(wins, games)
            assert 0.0 <= lo <= wins / games <= hi <= 1.0


@pytest.fixture(scope="module")
def tiny():
    names = ["heuristic", "random", "random"]
    records = run_tournament(names, 9, length="short", seed=5)
    return names, records


def test_rotation_over_fixed_deals(tiny) -> None:
    names, records = tiny
    assert len(records) == 9  # 3 deals x 3 rotations
    by_deal: dict[int, list[list[int]]] = {}
    for rec in records:
        by_deal.setdefault(rec["deal"], []).append(rec["seat_entry"])
    assert len(by_deal) == 3
    for rotations in by_deal.values():
        # on each deal every entry sits in every seat exactly once
        for seat in range(3):
            assert sorted(r[seat] for r in rotations) == [0, 1, 2]


def test_statistics_are_consistent(tiny) -> None:
    names, records = tiny
    summary = summarize(names, records)
    rows = summary["entries"]
    assert [r["agent"] for r in rows] == names
    assert [r["label"] for r in rows] == ["heuristic", "random#1", "random#2"]
    assert sum(r["wins"] for r in rows) == len(records)
    wins = Counter()
    for rec in records:
        wins[rec["seat_entry"][rec["winner"]]] += 1
    for e, r in enumerate(rows):
        assert r["games"] == len(records)
        assert r["wins"] == wins[e]
        assert r["win_rate"] == pytest.approx(r["wins"] / r["games"])
        assert (r["wilson_low"], r["wilson_high"]) == wilson_interval(r["wins"], r["games"])
        assert r["wilson_low"] <= r["win_rate"] <= r["wilson_high"]
        assert r["baseline"] == pytest.approx(1 / 3)
        t = r["totals"]
        assert r["mean_score"] == pytest.approx(t["score"] / r["games"])
        if t["cards_played"]:
            assert r["bluff_rate"] == pytest.approx(t["bluffs_played"] / t["cards_played"])
        if t["challenges_made"]:
            assert r["challenge_precision"] == pytest.approx(
                t["challenges_correct"] / t["challenges_made"]
            )
        for key in ("caught_rate", "challenge_precision", "challenge_recall", "bluff_rate"):
            assert r[key] is None or 0.0 <= r[key] <= 1.0
    assert summary["rating_system"] in ("openskill", "elo")


def test_cli_writes_json_and_plot(tmp_path, capsys) -> None:
    out_json = tmp_path / "t.json"
    out_png = tmp_path / "t.png"
    rc = main(
        [
            "--agents",
            "heuristic,random",
            "--games",
            "4",
            "--players",
            "2",
            "--seed",
            "1",
            "--json",
            str(out_json),
            "--plot",
            str(out_png),
            "--quiet",
        ]
    )
    assert rc == 0
    text = capsys.readouterr().out
    assert "heuristic" in text and "95% CI" in text
    data = json.loads(out_json.read_text())
    assert isinstance(data, list) and len(data) == 2
    for row in data:
        for key in ("agent", "games", "wins", "win_rate", "wilson_low", "wilson_high"):
            assert key in row
        assert row["games"] == 4
    assert sum(row["wins"] for row in data) == 4
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        assert not out_png.exists()
    else:
        assert out_png.exists() and out_png.stat().st_size > 0


def test_cli_rejects_bad_input(capsys) -> None:
    assert main(["--agents", "heuristic,nobody", "--games", "2", "--quiet"]) == 2
    assert "unknown agent" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["--agents", "heuristic,random", "--players", "3", "--games", "2"])


def test_workers_give_the_same_records() -> None:
    names = ["honest", "random"]
    one = run_tournament(names, 4, seed=2, workers=1)
    two = run_tournament(names, 4, seed=2, workers=2)
    assert one == two


def test_elo_fallback_without_openskill(tiny, monkeypatch) -> None:
    import sys

    names, records = tiny
    monkeypatch.setitem(sys.modules, "openskill.models", None)  # import fails
    summary = summarize(names, records)
    assert summary["rating_system"] == "elo"
    ratings = [r["rating"] for r in summary["entries"]]
    assert sum(ratings) == pytest.approx(1500.0 * len(names))  # zero-sum updates


def test_shipped_models_take_part_by_name() -> None:
    pytest.importorskip("torch")
    names = ["bluffer", "random"]
    records = run_tournament(names, 4, length="short", seed=0)
    rows = summarize(names, records)["entries"]
    assert [r["agent"] for r in rows] == names
    assert all(r["games"] == 4 for r in rows) and sum(r["wins"] for r in rows) == 4


def test_model_paths_take_part(capsys) -> None:
    pytest.importorskip("torch")
    from agents.policy import MODELS_DIR

    folder, model = str(MODELS_DIR / "full"), str(MODELS_DIR / "full" / "model.zip")
    names = [folder, model]
    rows = summarize(names, run_tournament(names, 2, seed=0))["entries"]
    assert [r["agent"] for r in rows] == names and sum(r["wins"] for r in rows) == 2
    assert main(["--agents", "heuristic,no/such/model.zip", "--games", "2", "--quiet"]) == 2
    assert "model path" in capsys.readouterr().err


def test_evaluate_ranks_models_against_one_opponent(tmp_path, capsys) -> None:
    pytest.importorskip("torch")
    from train.evaluate import evaluate
    from train.evaluate import main as evaluate_main

    rows = evaluate(["heuristic", "random"], opponent="honest", players=2, games=6, seed=3)
    assert {r["model"] for r in rows} == {"heuristic", "random"}
    assert rows[0]["win_rate"] >= rows[1]["win_rate"]  # best first
    assert all(r["games"] == 6 and r["entry"] == 0 and r["opponent"] == "honest" for r in rows)
    # the model's row is the model's own: same figures as its row of the plain tournament
    alone = summarize(["random", "honest"], run_tournament(["random", "honest"], 6, seed=3))
    assert next(r for r in rows if r["model"] == "random")["wins"] == alone["entries"][0]["wins"]
    out = tmp_path / "eval.json"
    args = ["bluffer", "--players", "2", "--games", "2", "--opponent", "random", "--json", str(out)]
    assert evaluate_main(args) == 0
    assert "bluffer" in capsys.readouterr().out
    assert json.loads(out.read_text())[0]["games"] == 2
    assert evaluate_main(["nobody", "--games", "2"]) == 2
