"""A full game played by clicking in headless Chromium, then its replay stepped forwards and back.

Needs Debian's ``chromium`` (``apt-get install -y chromium``) and the ``[web]`` extra (Playwright
drives the system browser: ``playwright install`` is never run). The browser is
``$GRANUJAS_CHROMIUM`` when set, else ``chromium`` on ``PATH``, else ``/usr/bin/chromium``. Outside
CI (``CI`` unset) the whole module is skipped with the reason when either is missing, so collection
never errors; in CI collection fails with the reason. Screenshots go to a temporary folder, or to
``$GRANUJAS_SCREENSHOTS`` when set (``docs/img/web_game.png`` comes from there).
"""

from __future__ import annotations

import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("GRANUJAS_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def _missing(reason: str) -> None:
    """Skip the whole module with the reason, or fail its collection in CI (``CI`` set)."""
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI must install it)", pytrace=False)
    pytest.skip(reason, allow_module_level=True)


try:
    import uvicorn
    from playwright.sync_api import sync_playwright

    from granujas_env.web import create_app
except ImportError as exc:
    _missing(f"the [web] extra is not installed ({exc}): pip install -e '.[web]'")
if not Path(CHROMIUM).is_file():
    _missing(f"no Chromium at {CHROMIUM}: apt-get install -y chromium")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture()
def server(tmp_path):
    """The app served by uvicorn on a free localhost port, in a thread."""
    port = _free_port()
    app = create_app(record_dir=tmp_path / "records", allowed_hosts=["127.0.0.1"])
    config = uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning")
    srv = uvicorn.Server(config)
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 10
    while not srv.started:
        assert time.monotonic() < deadline, "the server did not start within 10 s"
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}", app
    srv.should_exit = True
    thread.join(10)


@pytest.fixture()
def browser(tmp_path):
    """A headless Chromium context with its own profile (shared with the other browser tests)."""
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1440, "height": 1000})
        yield context
        context.close()


def _renders(page) -> int:
    return int(page.evaluate("Number(document.body.dataset.renders || 0)"))


def _click_and_wait(page, selector: str) -> None:
    """Click and wait until the page has drawn the server's answer (polled from here: the page's
    Content-Security-Policy forbids the string evaluation wait_for_function uses)."""
    before = _renders(page)
    page.click(selector)
    deadline = time.monotonic() + 15
    while _renders(page) == before:
        assert time.monotonic() < deadline, f"no answer drawn 15 s after clicking {selector}"
        page.wait_for_timeout(10)


def test_full_game_by_clicking_then_replay(server, tmp_path):
    base, app = server
    shots = Path(os.environ.get("GRANUJAS_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    with sync_playwright() as pw:
        context = pw.chromium.launch_persistent_context(
            str(tmp_path / "profile"), executable_path=CHROMIUM, headless=True, args=FLAGS,
            viewport={"width": 1440, "height": 1000},
        )
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        page.set_default_timeout(15_000)
        page.goto(base + "/")
        page.wait_for_selector("#seat-1")
        page.select_option("#players", "2")
        page.select_option("#seat-0", "human")
        page.select_option("#seat-1", "random")
        page.fill("#seed", "1")
        page.click("#start")
        page.wait_for_url("**/play#game=*")
        page.wait_for_selector("body[data-phase]")

        clicks = 0
        while page.get_attribute("body", "data-phase") != "over":
            assert page.get_attribute("body", "data-phase") == "acting"  # random answers at once
            assert page.locator("#menu button.action").count() > 0
            _click_and_wait(page, "#menu button.action >> nth=0")
            clicks += 1
            if clicks == 24:
                page.screenshot(path=str(shots / "web_game.png"))
            assert clicks < 1000
        (game,) = app.state.games.values()
        assert game.game.game_over and len(game.actions) > clicks > 20
        assert page.locator(".final tr.winner").count() == 1
        page.screenshot(path=str(shots / "web_game_over.png"), full_page=True)

        page.click("#replay")
        page.wait_for_url("**/replay#replay=*")
        page.wait_for_selector("body[data-step='0']")
        steps = int(page.inner_text("#steps"))
        assert steps == len(game.actions)
        for expected in (1, 2, 3):
            _click_and_wait(page, "#forward")
            assert page.get_attribute("body", "data-step") == str(expected)
        _click_and_wait(page, "#back")
        assert page.get_attribute("body", "data-step") == "2"
        assert page.inner_text("#action").startswith("last: p")
        page.select_option("#view", "0")
        page.wait_for_selector(".hand")
        _click_and_wait(page, "#last")
        assert page.get_attribute("body", "data-step") == str(steps)
        assert page.locator(".final tr.winner").count() == 1
        page.screenshot(path=str(shots / "web_replay.png"), full_page=True)
        context.close()
    assert errors == []
    assert all((shots / name).stat().st_size > 10_000
               for name in ("web_game.png", "web_game_over.png", "web_replay.png"))
