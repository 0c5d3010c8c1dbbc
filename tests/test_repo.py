"""The repository keeps its promises: CI runs exactly the README's test command, and the
README's Python examples run."""

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
