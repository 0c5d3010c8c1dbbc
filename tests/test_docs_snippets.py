"""The code on the documentation site runs as written: every ```python block of the getting-started
page and of each client-library page (docs/clients/*.md) runs, and ends where the text says.

Blocks fenced ```py (or ```text, ```bash) are shown, not run. The README's own ```python blocks are
run by tests/test_repo.py."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"


def python_blocks(page: Path) -> list[str]:
    """The ```python blocks of a documentation page, in order."""
    return re.findall(r"```python\n(.*?)```", page.read_text(encoding="utf-8"), flags=re.S)


def check_tianshou(ns: dict[str, Any]) -> None:
    result = ns["result"]
    assert result.train_step == 500 and result.update_step == 10 and result.train_episode >= 1
    assert not ns["collector"].buffer.hasnull()


def check_pettingzoo(ns: dict[str, Any]) -> None:
    assert ns["par"].agents == [] and ns["par"].unwrapped.game.game_over
    assert sorted(ns["rewards"].values()) == [-0.5, -0.5, 1.0]


def check_sb3(ns: dict[str, Any]) -> None:
    assert ns["model"].num_timesteps == 128
    assert ns["env"].action_masks()[int(ns["action"])]


def check_gymnasium(ns: dict[str, Any]) -> None:
    assert ns["terminated"] and not ns["truncated"] and ns["reward"] in (1.0, -1.0)


def check_rllib(ns: dict[str, Any]) -> None:
    env = ns["env"]
    assert env.env.game.game_over and ns["terminateds"]["__all__"]
    learner = f"main@{env.learner_seat}"
    assert list(ns["rewards"]) == [learner] and ns["rewards"][learner] in (1.0, -1.0)
    assert env.rllib_actions > 0 and env.bot_actions > 0


def check_openspiel(ns: dict[str, Any]) -> None:
    state = ns["state"]
    assert state.is_terminal() and sorted(state.returns()) == [-1.0, 1.0]


# page -> (modules it needs beyond the base install, check of its end state per block)
PAGES: dict[str, tuple[tuple[str, ...], list[Callable[[dict[str, Any]], None]]]] = {
    "clients/tianshou.md": (("torch", "tianshou"), [check_tianshou]),
    "clients/pettingzoo.md": ((), [check_pettingzoo]),
    "clients/sb3.md": (("torch", "sb3_contrib"), [check_sb3]),
    "clients/gymnasium.md": ((), [check_gymnasium]),
    "clients/rllib.md": (("torch", "ray"), [check_rllib]),
    "clients/openspiel.md": (("pyspiel",), [check_openspiel]),
    "index.md": (("torch", "sb3_contrib"), [lambda ns: None, lambda ns: None]),
}


def test_every_client_page_is_run() -> None:
    """A page added under docs/clients/ gets its snippet run here (add it to PAGES)."""
    pages = {f"clients/{p.name}" for p in (DOCS / "clients").glob("*.md")}
    assert pages == {p for p in PAGES if p.startswith("clients/")}
    for page, (_, checks) in PAGES.items():
        assert len(python_blocks(DOCS / page)) == len(checks), page


@pytest.mark.parametrize("page", list(PAGES))
def test_docs_snippets_run(page: str, capsys) -> None:
    modules, checks = PAGES[page]
    for module in modules:
        pytest.importorskip(module)
    for i, (block, check) in enumerate(zip(python_blocks(DOCS / page), checks)):
        np.random.seed(0)  # Tianshou's exploration draws from numpy's global generator
        namespace: dict[str, Any] = {"__name__": "__docs__"}
        exec(compile(block, f"docs/{page}[python {i}]", "exec"), namespace)  # noqa: S102
        check(namespace)
        assert capsys.readouterr().out.strip(), f"docs/{page}[python {i}] prints its outcome"
