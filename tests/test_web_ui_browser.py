"""The table that explains itself and the same-origin guard, in headless Chromium: a card's whole
text on a click, the help panel's slot abilities, plain prompts, the auto-pass checkbox, and a
page on another origin that tries to create games (form, ``no-cors`` fetch, JSON fetch).

Needs Debian's ``chromium`` and the ``[web]`` extra, as tests/test_web_browser.py (skipped outside
CI when either is missing).
"""

from __future__ import annotations

import functools
import http.server
import threading
import time

from test_web_browser import (  # the module's skip (no Chromium, no [web] extra) applies here too
    _free_port,
    browser,  # noqa: F401 - the fixture
    server,  # noqa: F401 - the fixture
)


def _wait(page, condition, what: str) -> None:
    deadline = time.monotonic() + 15
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within 15 s"
        page.wait_for_timeout(20)


def test_help_card_text_plain_prompts_and_auto_pass(server, browser):  # noqa: F811
    base, app = server
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto(base + "/")
    page.wait_for_selector("#seat-1")
    page.select_option("#players", "3")
    page.select_option("#seat-1", "human")
    assert page.is_disabled("#seed")  # two humans: the server deals from a secret seed
    page.select_option("#seat-1", "ismcts")
    page.select_option("#seat-2", "random")
    assert not page.is_disabled("#seed")
    page.fill("#seed", "5")
    page.click("#start")
    page.wait_for_url("**/play#game=*")
    page.wait_for_selector("body[data-phase=acting]")
    (game,) = app.state.games.values()

    prompt = page.inner_text("#prompt")
    assert prompt.startswith("Your move: ") and "_" not in prompt and "(card)" not in prompt

    page.click("#help summary")
    slots = page.locator("#help-slots li").all_inner_texts()
    assert [line.split(":")[0] for line in slots] == [f"slot {s}" for s in "A23456"]
    assert slots[-1] == "slot 6: no ability"

    card = page.locator(".saloon .granuja >> nth=0")
    card.click()
    saloon = game.state(0)["saloon"][0]
    assert page.is_visible("#card-panel")
    assert page.inner_text("#card-detail .text") == saloon["text"]
    page.click("#card-close")
    assert not page.is_visible("#card-panel")

    renders = int(page.evaluate("Number(document.body.dataset.renders)"))
    page.check("#auto-pass")
    _wait(page, lambda: int(page.evaluate("Number(document.body.dataset.renders)")) > renders,
          "table drawn after auto-pass")
    assert game.auto_pass[0] is True
    while page.get_attribute("body", "data-phase") != "over":
        if page.get_attribute("body", "data-phase") == "acting":
            before = int(page.evaluate("Number(document.body.dataset.renders)"))
            page.click("#menu button.action >> nth=0")
            _wait(page, lambda b=before: int(
                page.evaluate("Number(document.body.dataset.renders)")) > b, "answer drawn")
        else:
            page.wait_for_timeout(50)
    notes = page.locator("#notices li").all_inner_texts()
    assert any(n.startswith("auto-pass: ") for n in notes)
    assert [n for a, n in game.notices if a in (None, 0)][-100:] == notes
    assert game.players[1] == "ismcts" and game.game.game_over
    assert page.inner_text(".final th >> nth=3") == "reputation → tech"
    assert not errors


def test_a_page_on_another_origin_cannot_create_games(server, browser, tmp_path):  # noqa: F811
    base, app = server
    hostile = tmp_path / "hostile"
    hostile.mkdir()
    body = '{"seats": ["human", "random"]}'
    (hostile / "index.html").write_text(f"""<!doctype html><html><body>
<form id="f" method="post" action="{base}/api/games" enctype="text/plain" target="sink">
<input name='{body[:-1]}, "x": "' value='"}}'></form><iframe name="sink"></iframe>
<script src="attack.js"></script></body></html>""")
    (hostile / "attack.js").write_text(f"""
window.results = [];
async function attack() {{
  for (const init of [
    {{method: "POST", mode: "no-cors", headers: {{"Content-Type": "text/plain"}}, body: '{body}'}},
    {{method: "POST", mode: "no-cors", body: '{body}'}},
    {{method: "POST", headers: {{"Content-Type": "application/json"}}, body: '{body}'}},
  ]) {{
    try {{ const r = await fetch("{base}/api/games", init); window.results.push(r.status); }}
    catch (e) {{ window.results.push("blocked"); }}
  }}
  document.getElementById("f").submit();
  window.done = true;
}}
attack();
""")
    port = _free_port()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(hostile))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", port), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    seen = []
    try:
        page = browser.new_page()
        page.on("response", lambda r: seen.append((r.url, r.status)) if "/api/games" in r.url
                else None)
        page.goto(f"http://127.0.0.1:{port}/index.html")
        _wait(page, lambda: page.evaluate("window.done === true"), "attack")
        page.wait_for_timeout(1000)  # the form's POST
    finally:
        httpd.shutdown()
        thread.join(10)
    assert not app.state.games  # nothing was created
    assert seen and {status for _, status in seen} <= {0, 403}, seen
