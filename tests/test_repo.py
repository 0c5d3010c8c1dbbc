"""The repository keeps its promises: CI runs exactly the README's test command, every README
command runs in a test, and the README's Python examples run."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```bash\n(.*?)\n```", readme, flags=re.S)
    test_command = next(b for b in blocks if "pytest" in b)
    assert "torch==2.13.0" in test_command  # the CPU build, before anything that needs torch
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert test_command in ci


def readme_commands() -> list[str]:
    """The ```bash blocks of the README."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```bash\n(.*?)\n```", readme, flags=re.S)


def test_every_readme_command_is_run_by_a_test() -> None:
    """The README's commands are the quick start's two (the play command below, the test
    command by CI) and the documentation server (tests/test_docs_site.py serves it)."""
    play, tests, serve = readme_commands()
    assert play.endswith("&& python -m granujas_env.play --players 4 --seed 0")
    assert tests.endswith("&& python -m pytest -q")
    assert serve.endswith("&& python -m mkdocs serve")


def test_readme_play_command_runs() -> None:
    """The quick start's main job, after its install steps: a narrated game to the score table."""
    import subprocess
    import sys

    play = readme_commands()[0].rsplit("&& ", 1)[1].split()
    assert play[:3] == ["python", "-m", "granujas_env.play"]
    run = subprocess.run([sys.executable, *play[1:]], cwd=ROOT, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, run.stderr[-2000:]
    lines = run.stdout.splitlines()
    header = ["player", "safes", "marks", "reputation", "rep", "tech", "granujas", "total", "money"]
    at = [i for i, line in enumerate(lines) if line.split() == header]
    assert len(at) == 1, "one score table"
    rows = lines[at[0] + 2 : at[0] + 6]
    assert [row.split()[0] for row in rows] == ["p0", "p1", "p2", "p3"]
    assert sum(row.endswith("<- winner") for row in rows) == 1


def test_readme_python_examples_run(capsys) -> None:
    """Every ```python block of the README runs as written."""
    import pytest

    pytest.importorskip("torch")  # an example loads a shipped model
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, flags=re.S)
    assert len(blocks) >= 2
    for i, block in enumerate(blocks):
        exec(compile(block, f"README.md[python {i}]", "exec"), {"__name__": "__readme__"})  # noqa: S102
    assert capsys.readouterr().out.count("[") >= len(blocks)  # each prints the scores


def test_docs_are_written_into_the_checkout_or_where_told(tmp_path, monkeypatch, capsys) -> None:
    """``python -m granujas_env.docs`` writes docs/ of the source checkout; an installed package
    (no pyproject.toml beside it) needs ``--out DIR`` and says so."""
    import pytest

    import granujas_env.docs as docs

    assert docs.repository_docs() == ROOT / "docs"
    monkeypatch.setattr(docs, "ROOT", tmp_path / "site-packages")  # as if installed
    assert docs.repository_docs() is None
    with pytest.raises(SystemExit) as stop:
        docs.main([])
    assert stop.value.code == 2 and "pass --out DIR" in capsys.readouterr().err
    out = tmp_path / "generated"
    assert docs.main(["--out", str(out)]) == 0
    written = sorted(str(p.relative_to(out)) for p in out.rglob("*.md"))
    assert written == sorted(docs.all_pages())
    assert {"models.md", "results/index.md", "results/archive/index.md"} <= set(written)
    assert docs.main(["--out", str(out), "--check"]) == 0
    (out / "cards.md").write_text("stale", encoding="utf-8")
    assert docs.main(["--out", str(out), "--check"]) == 1


def test_cards_reference_lists_the_strategy_cards() -> None:
    from granujas_env.engine.game import default_data

    text = (ROOT / "docs" / "cards.md").read_text(encoding="utf-8")
    _, catalog = default_data()
    assert "## Strategy cards" in text and catalog.strategies
    section = text.split("## Strategy cards", 1)[1]
    for card in catalog.strategies:
        assert f"| {card.name} ({card.gloss}) | {card.leader} |" in section


def test_packages_are_typed() -> None:
    """PEP 561: each package ships a py.typed marker, listed as package data."""
    import tomllib

    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    package_data = data["tool"]["setuptools"]["package-data"]
    for package in ("granujas_env", "agents", "train"):
        assert (ROOT / package / "py.typed").is_file()
        assert "py.typed" in package_data[package]
    notebook = data["project"]["optional-dependencies"]["notebook"]
    assert {d.split(">")[0] for d in notebook} >= {"jupyter", "nbclient", "ipykernel"}


def test_help_texts_name_the_module_and_give_each_default_once(capsys) -> None:
    """``--help`` of every command line: ``python -m ...`` as the program, no default said twice,
    nothing stale."""
    import importlib

    import pytest

    for module in (
        "train.train",
        "train.tournament",
        "train.evaluate",
        "granujas_env.docs",
        "granujas_env.bench",
        "granujas_env.fuzz",
    ):
        with pytest.raises(SystemExit) as stop:
            importlib.import_module(module).main(["--help"])
        assert stop.value.code == 0
        text = " ".join(capsys.readouterr().out.split())  # argparse wraps lines anywhere
        assert text.startswith(f"usage: python -m {module} "), text[:80]
        assert "still growing" not in text and "(default: None)" not in text
        for option in re.split(r"\s(?=--?[a-z])", text.split("options:", 1)[1]):
            assert option.count("default") <= 1, (module, option)
