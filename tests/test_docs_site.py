"""The documentation site builds with no broken link, its generated pages are current, and what it
says about results and models holds: every result file a shipped model's card names exists, and
candidates' files sit in the archive."""

from __future__ import annotations

import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

import granujas_env.docs as docs
from granujas_env.docs_site import (
    Curve,
    kind_of,
    models_markdown,
    read_cards,
    read_results,
    results_markdown,
)

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
RESULTS = DOCS / "results"

#: pages other helpers fill (created as placeholders, linked from the nav)
PLACEHOLDERS = (
    "clients-notes.md",
    "play-web.md",
    "play-text.md",
    "bang_dice/index.md",
    "bang_dice/rules.md",
    "rules-end-of-day.md",
)


def test_generated_pages_are_current(capsys) -> None:
    """Reference tables, model zoo, results and archive index: as ``python -m granujas_env.docs``
    writes them (run it after changing a model card or a result file)."""
    assert docs.main(["--check"]) == 0, capsys.readouterr().err


def test_a_stale_results_page_is_caught(tmp_path) -> None:
    """--check fails when a result file is added without regenerating the page."""
    out = tmp_path / "docs"
    assert docs.main(["--out", str(out)]) == 0
    text = (out / "results" / "index.md").read_text(encoding="utf-8")
    assert "[full_2p.json](full_2p.json)" in text and "](candidate" not in text
    (out / "results" / "index.md").write_text(text.replace("66.7%", "67.7%"), encoding="utf-8")
    assert docs.main(["--out", str(out), "--check"]) == 1


def test_a_stale_plot_is_caught(monkeypatch, capsys) -> None:
    """The exploiter-curve plot carries a digest of its data: new data and an old plot fail."""
    series = docs.curve_series(docs.RESULTS)
    assert docs.plot_digest(docs.RESULTS / docs.CURVES_PNG) == docs.curves_digest(series)
    old = series["full (2p)"]
    series["full (2p)"] = old._replace(points=[*old.points, (2_000_000, 0.5)])
    monkeypatch.setattr(docs, "curve_series", lambda folder: series)
    assert docs.main(["--check"]) == 1
    assert "exploit_curves.png (--plots)" in capsys.readouterr().err


def test_curves_keep_their_table_size_seed_and_target(tmp_path) -> None:
    """The plot draws a panel per table size: each curve carries its players, deals and target,
    and the final model is the curve's last point."""
    probe = {
        "target": "full", "players": 4, "mode": "bluff", "steps": 3_000_000, "games": 10,
        "win_rate": 0.3, "eval_seed": 4343, "target_max_win_rate": 0.35,
        "curve": [{"requested_steps": 1_000_000, "reached": True, "steps": 1_000_000,
                   "games": 10, "win_rate": 0.2},
                  {"requested_steps": 4_000_000, "reached": False}],
    }
    (tmp_path / "exploit_full_4p.json").write_text(json.dumps(probe), encoding="utf-8")
    assert docs.curve_series(tmp_path) == {
        "full (4p)": Curve(4, 4343, 0.35, [(1_000_000, 0.2), (3_000_000, 0.3)])
    }


def test_a_long_game_gauntlet_is_a_column_of_its_own(tmp_path) -> None:
    """A gauntlet of the long game sits beside the short one's, not over it."""
    def rows(length: str, wins: int) -> list[dict]:
        return [{"agent": "full", "opponent": "heuristic", "players": 4, "games": 600,
                 "wins": wins, "win_rate": wins / 600, "wilson_low": 0.1, "wilson_high": 0.9,
                 "passed": None, "seed": 1, "length": length}]

    (tmp_path / "gauntlet_full_4p.json").write_text(json.dumps(rows("short", 300)), "utf-8")
    (tmp_path / "gauntlet_full_long_4p.json").write_text(json.dumps(rows("long", 420)), "utf-8")
    page = results_markdown(tmp_path, "")
    assert "| opponent | `full` | `full` (long game) |" in page
    assert re.search(r"\| heuristic \| 50\.0%[^|]* \| 70\.0%[^|]* \|", page), page
    assert "`full` (long game): [gauntlet_full_long_4p.json](gauntlet_full_long_4p.json)" in page


def test_the_zoo_has_a_column_per_table_a_card_rates(tmp_path) -> None:
    """A card rated at a new table (3 players, long games) gets its own summary column; ratings
    against other opponents stay out of the summary, in the model's section."""
    card = {
        "purpose": "a test bot",
        "players": [3],
        "tournaments": [
            {"games": 600, "win_rate": 0.5, "wilson_low": 0.46, "wilson_high": 0.54, "players": 3,
             "command": "python -m train.tournament --agents x,heuristic,heuristic --players 3 "
                        "--length long --games 600 --seed 5"},
            {"games": 400, "win_rate": 0.7, "players": 2,
             "command": "python -m train.tournament --agents x,full --players 2 --games 400"},
        ],
    }
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "model_card.json").write_text(json.dumps(card), encoding="utf-8")
    text = models_markdown(tmp_path, DOCS, "")
    assert "| model | what it is for | tables trained on | vs heuristics, 3p long | exploiter" in text
    assert "| [`x`](#x) | a test bot | 3 | 50.0% [46.0, 54.0] | - |" in text
    assert "- 2 players vs full: **70.0%** over 400 games" in text


def test_the_zoo_shows_each_tables_exploiter_probe(tmp_path) -> None:
    """A card's probes at other table sizes (``exploiter_4p``) are figures of its section, after
    the first table's."""
    probe = {"games": 2000, "win_rate": 0.26, "wilson_low": 0.241, "wilson_high": 0.28}
    card = {"purpose": "a test bot", "players": [2, 4],
            "exploiter": {**probe, "players": 2, "steps": 1_600_000, "command": "probe two",
                          "win_rate": 0.5, "wilson_low": 0.478, "wilson_high": 0.522},
            "exploiter_4p": {**probe, "players": 4, "steps": 2_939_456, "command": "probe four"}}
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "model_card.json").write_text(json.dumps(card), encoding="utf-8")
    text = models_markdown(tmp_path, DOCS, "")
    two = text.index("- exploiter probe (2 players, 1,600,000 learner steps): **50.0% [47.8, 52.2]**")
    four = text.index("- exploiter probe (4 players, 2,939,456 learner steps): **26.0% [24.1, 28.0]**")
    assert two < four and "`probe four`" in text[four:]


def test_the_zoo_shows_a_cards_ratings_by_role(tmp_path) -> None:
    """A hidden-role game's card rates by role (``evaluation`` entries with ``difference_points``):
    the model's section gives each entry's points overall and by role, the paired figure where
    there is one, the link to its result file and its command; other evaluation entries stay out."""
    points = {"overall": {"points": 6.3, "ci95": [4.9, 7.7]}, "sheriff": {"points": 17.2, "ci95": [14.1, 20.3]},
              "outlaw": {"points": -0.5, "ci95": [-2.6, 1.6]}}
    card = {
        "game": "bang-dice", "summary": "A test policy. More words.",
        "evaluation": {
            "vs_heuristic": {"file": "docs/results/bang_dice_ppo_vs_heuristic_5p.json", "games": 6000,
                             "seeds": [100, 6099], "difference_of": "m - heuristic",
                             "difference_points": points, "command": "python -m train.roles --seed 100",
                             "paired_points": {"overall": {"points": 4.6, "ci95": [3.2, 6.0]}}},
            "tournaments": [{"games": 2000, "seeds": [7, 2006], "difference_of": "m - random",
                             "difference_points": {"overall": {"points": 31.9, "ci95": [30.1, 33.7]}},
                             "seating": "alternating", "command": "python -m train.tournament --seed 7"}],
            "notes": "not a rating",
        },
    }
    (tmp_path / "m").mkdir()
    (tmp_path / "m" / "model_card.json").write_text(json.dumps(card), encoding="utf-8")
    text = models_markdown(tmp_path, DOCS, "")
    assert ("- m - heuristic, 6,000 games (deals 100-6099): **+6.3 [+4.9, +7.7]** points (Sheriff +17.2, "
            "Outlaw -0.5); the same seat of the same deal: +4.6 [+3.2, +6.0] "
            "([bang_dice_ppo_vs_heuristic_5p.json](results/bang_dice_ppo_vs_heuristic_5p.json))<br>\n"
            "  `python -m train.roles --seed 100`\n") in text
    assert ("- m - random, 2,000 games (deals 7-2006; seating alternating): **+31.9 [+30.1, +33.7]** points<br>\n"
            "  `python -m train.tournament --seed 7`\n") in text
    assert "not a rating" not in text


def test_mkdocs_build_is_strict_and_clean(tmp_path) -> None:
    """``mkdocs build --strict``: a broken link, a missing anchor or a nav entry without its page
    fails; the API pages render from the docstrings."""
    pytest.importorskip("mkdocs")
    pytest.importorskip("mkdocstrings")
    site = tmp_path / "site"
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    assert "WARNING" not in run.stderr, run.stderr[-3000:]
    assert time.perf_counter() - started < 60
    for page in ("index.html", "models/index.html", "results/index.html",
                 "training/index.html", "clients/gymnasium/index.html"):
        assert (site / page).is_file(), page
    api = (site / "api" / "agents" / "index.html").read_text(encoding="utf-8")
    assert "PolicyAgent" in api and "doc-class" in api


def test_mkdocs_serve_works_from_the_checkout() -> None:
    """The README's ``python -m mkdocs serve`` serves the site (on a free port here)."""
    pytest.importorskip("mkdocs")
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "mkdocs", "serve", "--no-livereload", "-a", f"127.0.0.1:{port}"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    try:
        deadline = time.monotonic() + 120
        page = ""
        while time.monotonic() < deadline and server.poll() is None:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/models/", timeout=5) as r:
                    page = r.read().decode("utf-8")
                break
            except OSError:
                time.sleep(0.5)
        assert "Model zoo" in page, server.stderr.read() if server.poll() is not None else ""
    finally:
        server.terminate()
        server.wait(timeout=30)


def test_nav_pages_exist_and_placeholders_are_there() -> None:
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    pages = re.findall(r":\s+(\S+\.md)\s*$", text, flags=re.M)
    assert len(pages) >= 30
    for page in pages:
        assert (DOCS / page).is_file(), page
    for page in PLACEHOLDERS:
        assert page in pages and (DOCS / page).read_text(encoding="utf-8").startswith("# ")


def test_shipped_cards_name_result_files_that_exist() -> None:
    """Every ``docs/results/...json|png`` a shipped model card names as its results or plot is
    there (or, for a candidate's file quoted in a note, in the archive)."""
    for name, card in read_cards(ROOT / "agents" / "models").items():
        text = json.dumps(card)
        for field in re.findall(r'"(?:results|plot)": "(docs/results/[^"]+)"', text):
            assert (ROOT / field).is_file(), (name, field)
        for quoted in re.findall(r"docs/results/([\w.-]+\.(?:json|png))", text):
            here, archived = RESULTS / quoted, RESULTS / "archive" / quoted
            # a file named in a command's --json may have been renamed since (the card says so)
            assert here.is_file() or archived.is_file() or f"--json docs/results/{quoted}" in text \
                or f"--plot docs/results/{quoted}" in text or "runs/" in quoted, (name, quoted)


def test_results_hold_the_shipped_and_the_archive_the_candidates() -> None:
    kept = sorted(p.name for p in RESULTS.iterdir() if p.is_file() and p.suffix != ".md")
    archived = sorted(p.name for p in (RESULTS / "archive").iterdir() if p.suffix != ".md")
    assert kept and archived
    assert not [n for n in kept if "candidate" in n]
    assert all("candidate" in n for n in archived)
    page = (RESULTS / "index.md").read_text(encoding="utf-8")
    for name in kept:
        if name.endswith(".json"):
            assert f"]({name})" in page, f"{name}: the results page does not link it"
    # every kept result is one of the site's tables, not a bare link under "Other files"
    assert not read_results(RESULTS).get("other"), "a result file no results table reads"
    tournament = json.loads((RESULTS / "full_2p.json").read_text(encoding="utf-8"))
    assert kind_of(tournament) == "tournament" and kind_of({"note": "x"}) == "other"
    by_role = json.loads((RESULTS / "bang_dice_heuristic_vs_random_5p.json").read_text(encoding="utf-8"))
    assert kind_of(by_role) == "roles"
    assert "| heuristic - random (points) |" in page


def test_readme_is_short_and_links_into_the_site() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert len(readme.splitlines()) <= 250
    links = re.findall(r"\]\((docs/[^)#]+)(?:#[^)]*)?\)", readme)
    assert len(links) >= 20
    for link in links:
        assert (ROOT / link).exists(), link
