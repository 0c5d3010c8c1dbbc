"""The README's "Using granujas with other libraries" section works as written: each client's
```py block (one under each ### heading) runs, and ends where the text says it does.

The section uses ```py fences so that tests/test_repo.py (which runs the ```python blocks)
does not run these a second time."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
SECTION = "## Using granujas with other libraries"


def client_snippets(readme: Path = README) -> dict[str, str]:
    """``{### heading: its ```py block}`` of the README's client section."""
    text = readme.read_text(encoding="utf-8")
    start = text.find(f"\n{SECTION}\n")
    assert start >= 0, f"README.md has no {SECTION!r} section"
    end = text.find("\n## ", start + len(SECTION) + 1)
    section = text[start : end if end >= 0 else len(text)]
    snippets = {}
    for part in re.split(r"\n### ", section)[1:]:
        title, _, body = part.partition("\n")
        blocks = re.findall(r"```py\n(.*?)```", body, flags=re.S)
        assert len(blocks) == 1, f"{title!r}: expected one ```py block, found {len(blocks)}"
        snippets[title.strip()] = blocks[0]
    return snippets


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


# heading -> (modules the snippet needs beyond the base install, check of its end state)
CLIENTS: dict[str, tuple[tuple[str, ...], Callable[[dict[str, Any]], None]]] = {
    "Tianshou": (("torch", "tianshou"), check_tianshou),
    "PettingZoo utilities": ((), check_pettingzoo),
    "Stable-Baselines3 / sb3-contrib": (("torch", "sb3_contrib"), check_sb3),
    "Gymnasium": ((), check_gymnasium),
}


def test_readme_has_one_snippet_per_client() -> None:
    assert list(client_snippets()) == list(CLIENTS)


@pytest.mark.parametrize("client", list(CLIENTS))
def test_readme_client_snippet_runs(client: str, capsys) -> None:
    modules, check = CLIENTS[client]
    for module in modules:
        pytest.importorskip(module)
    snippet = client_snippets().get(client)
    assert snippet is not None, f"README.md has no ### {client} snippet under {SECTION!r}"
    np.random.seed(0)  # Tianshou's exploration draws from numpy's global generator
    namespace: dict[str, Any] = {"__name__": "__readme__"}
    exec(compile(snippet, f"README.md[{client}]", "exec"), namespace)  # noqa: S102
    check(namespace)
    assert capsys.readouterr().out.strip()  # each snippet prints its outcome
