"""The notebooks run: their code cells are executed in order in one namespace (no Jupyter)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs(path: Path, capsys) -> None:
    pytest.importorskip("torch")
    notebook = json.loads(path.read_text(encoding="utf-8"))
    namespace: dict = {"__name__": "__notebook__"}
    cells = [c for c in notebook["cells"] if c["cell_type"] == "code"]
    assert cells
    for i, cell in enumerate(cells):
        source = "".join(cell["source"])
        exec(compile(source, f"{path.name}[{i}]", "exec"), namespace)  # noqa: S102
    assert "winner" in capsys.readouterr().out
