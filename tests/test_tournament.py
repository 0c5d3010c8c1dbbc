"""The rated tournament (python -m train.tournament): rotation, statistics, Wilson bounds, JSON."""

from __future__ import annotations

import json
from collections import Counter

import pytest

from train.tournament import format_table, main, run_tournament, summarize, wilson_interval


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


# ------------------------------------------------------------------ seat order
def test_seat_orders_cover_every_relative_position() -> None:
    from train.tournament import seat_balance, seat_orders

    assert seat_orders(2) == [(0, 1)]
    assert seat_orders(4)[0] == (0, 1, 2, 3) and len(set(seat_orders(4))) == 6
    names = ["random"] * 4
    records = run_tournament(names, 24, seed=3)  # 6 deals x 4 rotations: one full cycle
    assert [r["seat_entry"] for r in records[:4]] == [
        [0, 1, 2, 3], [1, 2, 3, 0], [2, 3, 0, 1], [3, 0, 1, 2]
    ]
    seats = Counter((e, s) for r in records for s, e in enumerate(r["seat_entry"]))
    assert set(seats.values()) == {6}  # every entry 6 times in every seat
    after = Counter()  # (entry, other, seats after it)
    for r in records:
        where = {e: s for s, e in enumerate(r["seat_entry"])}
        for e in range(4):
            for o in range(4):
                if o != e:
                    after[e, o, (where[o] - where[e]) % 4] += 1
    assert len(after) == 4 * 3 * 3 and set(after.values()) == {8}
    assert seat_balance(4, records) == {
        "balanced": True, "orders": 6, "of": 6, "games_per_cycle": 24
    }
    part = seat_balance(4, records[:8])  # two deals: two orders of six
    assert part["orders"] == 2 and not part["balanced"]
    summary = summarize(names, records)
    assert [s["games"] for s in summary["seats"]] == [24] * 4
    assert sum(s["wins"] for s in summary["seats"]) == 24
    for s in summary["seats"]:
        wins = sum(1 for r in records if r["winner"] == s["seat"])
        assert s["wins"] == wins and s["win_rate"] == pytest.approx(wins / 24)
    for row in summary["entries"]:
        e = row["entry"]
        by_seat = [
            sum(r["winner"] == s for r in records if r["seat_entry"][s] == e) / 6 for s in range(4)
        ]
        assert row["win_rate_by_seat"] == pytest.approx(by_seat)
    text = format_table(summary)
    assert "win rate by seat" in text and "seat order: balanced" in text
    assert "seat order: not balanced" in format_table(summarize(names, records[:8]))


# ------------------------------------------------------------------ entries, output, records
BOTS_MODULE = '''
import numpy as np

from agents.base import Agent, legal_actions

CONFIRM = 1


class Sniper(Agent):
    """Challenges every card it can; otherwise the lowest legal id."""

    name = "sniper"

    def act(self, observation, view=None):
        legal = legal_actions(observation)
        return CONFIRM if CONFIRM in legal else int(legal[0])


def make_sniper(seed=None):
    return Sniper()


class Typist(Agent):
    """A text agent stand-in counting as agents/llm.py does (attributes ``calls``, ``errors``,
    ``invalid_answers``, ``fallbacks``): per decision one request; every fifth request fails, every
    third reply received is invalid; the first legal id is played."""

    name = "typist"

    def __init__(self, seed=None):
        self.calls = self.errors = self.invalid_answers = self.fallbacks = self.replies = 0

    def act(self, observation, view=None):
        self.calls += 1
        if self.calls % 5 == 0:
            self.errors += 1
            self.fallbacks += 1
        else:
            self.replies += 1
            if self.replies % 3 == 0:
                self.invalid_answers += 1
        return int(legal_actions(observation)[0])


class Chatter(Typist):
    """The same counts through the ``text_stats()`` protocol, under names of its own too."""

    name = "chatter"

    def text_stats(self):
        return {"answers": self.replies, "invalid_answers": self.invalid_answers,
                "calls": self.calls, "timeouts": self.errors}


NOT_A_BOT = 3


def make_junk():
    return "junk"
'''


@pytest.fixture
def bots_module(tmp_path, monkeypatch) -> str:
    (tmp_path / "my_tournament_bots.py").write_text(BOTS_MODULE, encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    return "my_tournament_bots"


def test_any_bot_by_import_path(bots_module, tmp_path, capsys) -> None:
    out = tmp_path / "rows.json"
    names = f"{bots_module}:Sniper,{bots_module}:make_sniper,honest"
    assert main(["--agents", names, "--games", "3", "--json", str(out), "--quiet"]) == 0
    rows = json.loads(out.read_text())
    assert [r["agent"] for r in rows] == names.split(",")
    assert rows[0]["challenges_per_game"] > 0 and rows[1]["challenges_per_game"] > 0
    # the honest bot never challenges: no challenge statistics, whatever card effects did
    assert rows[2]["totals"]["challenges_made"] == 0 and rows[2]["challenge_precision"] is None
    for bad, message in (
        ("no_such_module_xyz:Bot", "cannot import module 'no_such_module_xyz'"),
        (f"{bots_module}:Nope", f"module '{bots_module}' has no attribute 'Nope'"),
        (f"{bots_module}:NOT_A_BOT", "is a int, not a bot class or factory"),
        (f"{bots_module}:make_junk", "built a str, not a bot"),
    ):
        capsys.readouterr()
        assert main(["--agents", f"random,{bad}", "--games", "2", "--quiet"]) == 2, bad
        err = capsys.readouterr().err
        assert message in err and err.count("\n") == 1, err


def test_strategy_cards_and_saved_games_replay(tmp_path, capsys) -> None:
    from granujas_env.record import load, resume
    from granujas_env.record import main as record_main

    folder = tmp_path / "games"
    names = ["heuristic", "random"]
    records = run_tournament(names, 4, seed=4, strategy_cards=True, save_games=folder)
    files = sorted(folder.glob("*.json"))
    assert [f.name for f in files] == [
        "deal00000_rot0.json", "deal00000_rot1.json", "deal00001_rot0.json", "deal00001_rot1.json"
    ]
    for rec in records:
        saved = load(folder / f"deal{rec['deal']:05d}_rot{rec['rotation']}.json")
        assert saved.config.strategy_cards and saved.config.num_players == 2
        assert saved.meta["seats"] == [names[e] for e in rec["seat_entry"]]
        game = resume(saved)  # replays every step and checks the final digest
        assert game.winner == rec["winner"] and list(game.scores) == rec["scores"]
        assert any(e[0] == "strategies" for e in game.history)
    assert record_main(["show", str(files[0])]) == 0
    assert "winner" in capsys.readouterr().out
    assert main(["--agents", "random,random", "--games", "2", "--strategy-cards", "--quiet",
                 "--save-games", str(tmp_path / "cli")]) == 0
    assert "Strategy cards" in capsys.readouterr().out
    assert len(list((tmp_path / "cli").glob("*.json"))) == 2


def test_output_paths_are_checked_before_playing(tmp_path, monkeypatch, capsys) -> None:
    import train.tournament as tournament

    def no_games(*args, **kwargs):
        raise AssertionError("played before checking the output paths")

    monkeypatch.setattr(tournament, "run_tournament", no_games)
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for flag, path, message in (
        ("--json", tmp_path / "missing" / "out.json", "does not exist"),
        ("--json", tmp_path, "is a folder"),
        ("--plot", tmp_path / "no" / "p.png", "does not exist"),
        ("--save-games", a_file, "cannot use it as a folder"),
    ):
        with pytest.raises(SystemExit) as stop:
            tournament.main(["--agents", "random,random", "--games", "2", flag, str(path)])
        assert stop.value.code == 2
        assert message in capsys.readouterr().err, (flag, path)


def test_a_shipped_model_without_the_train_extra_is_one_line() -> None:
    import subprocess
    import sys
    from pathlib import Path

    code = (
        "import sys; sys.modules['torch'] = None; sys.modules['sb3_contrib'] = None; "
        "from train.tournament import main; "
        "sys.exit(main(['--agents', 'bluffer,random', '--games', '2', '--quiet']))"
    )
    root = Path(__file__).resolve().parents[1]
    out = subprocess.run([sys.executable, "-c", code], cwd=root, capture_output=True, text=True)
    assert out.returncode == 2
    assert out.stderr.startswith("error: PolicyAgent needs torch and sb3-contrib")
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr


def test_invalid_answer_rate_is_reported_apart_for_text_agents(bots_module, tmp_path, capsys):
    out = tmp_path / "rows.json"
    names = f"{bots_module}:Typist,{bots_module}:Chatter,random"
    assert main(["--agents", names, "--games", "3", "--json", str(out)]) == 0
    rows = json.loads(out.read_text())
    for row in rows[:2]:
        counts, games = row["text_counters"], row["games"]
        # each game's bot is built new: per game, a failed request in five, an invalid reply in
        # three of those received, rounded down
        assert counts["calls"] > 0 and counts["answers"] == counts["calls"] - row["totals"].get(
            "text_errors", row["totals"].get("text_timeouts")
        )
        assert counts["calls"] / 5 - games <= counts["calls"] - counts["answers"] <= counts["calls"] / 5
        assert counts["answers"] / 3 - games <= counts["invalid_answers"] <= counts["answers"] / 3
        # over real answers, not over requests
        assert row["invalid_answer_rate"] == counts["invalid_answers"] / counts["answers"]
    typist, chatter = rows[0]["text_counters"], rows[1]["text_counters"]
    assert sorted(typist) == ["answers", "calls", "errors", "fallbacks", "invalid_answers"]
    assert typist["fallbacks"] == typist["errors"] == typist["calls"] - typist["answers"]
    assert sorted(chatter) == ["answers", "calls", "invalid_answers", "timeouts"]
    assert rows[2]["invalid_answer_rate"] is None and rows[2]["text_counters"] is None
    assert not any(k.startswith("text_") for k in rows[2]["totals"])
    line = next(x for x in capsys.readouterr().out.splitlines() if x.startswith("invalid answers"))
    assert line == (
        "invalid answers (text agents, over real answers): "
        f"{rows[0]['label']} {100 * rows[0]['invalid_answer_rate']:.1f}% "
        f"({typist['invalid_answers']}/{typist['answers']} answers; calls {typist['calls']}, "
        f"errors {typist['errors']}, fallbacks {typist['fallbacks']}), "
        f"{rows[1]['label']} {100 * rows[1]['invalid_answer_rate']:.1f}% "
        f"({chatter['invalid_answers']}/{chatter['answers']} answers; calls {chatter['calls']}, "
        f"timeouts {chatter['timeouts']})"
    )
