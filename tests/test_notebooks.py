"""The notebooks run in a real Jupyter kernel (nbclient + ipykernel, the ``[notebook]`` extra),
from the repository root, cell by cell, as a user's Jupyter runs them."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks() -> None:
    assert NOTEBOOKS


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_runs_in_a_kernel(path: Path) -> None:
    pytest.importorskip("torch")  # a cell loads a shipped model
    nbformat = pytest.importorskip("nbformat", reason="pip install -e '.[notebook]'")
    nbclient = pytest.importorskip("nbclient", reason="pip install -e '.[notebook]'")
    pytest.importorskip("ipykernel", reason="pip install -e '.[notebook]'")

    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=300,
        kernel_name="python3",
        resources={"metadata": {"path": str(ROOT)}},  # the kernel starts in the repository root
    )
    client.execute()  # raises CellExecutionError, with the cell and traceback, if a cell fails
    code = [c for c in notebook.cells if c.cell_type == "code"]
    assert code and all(c.execution_count for c in code)
    printed = "".join(
        out.get("text", "") for c in code for out in c.outputs if out.output_type == "stream"
    )
    assert "winner" in printed and "seat order: balanced" in printed
    assert not any(out.output_type == "error" for c in code for out in c.outputs)
