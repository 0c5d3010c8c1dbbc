"""A whole Bang! The Dice Game played by clicking in headless Chromium: the lobby's game selector,
dice chosen on the table and rolled again, targets clicked on the seats, the how-to-play panel,
the game's end, then its replay stepped forwards and back.

Needs Debian's ``chromium`` and the ``[web]`` extra, as tests/test_web_browser.py (whose server,
browser flags and click helper this module shares; skipped outside CI when either is missing).
Screenshots go to a temporary folder, or to ``$GRANUJAS_SCREENSHOTS`` when set (the
``docs/img/bang-web-*.png`` of docs/play-web.md come from there).
"""

from __future__ import annotations

import os
from pathlib import Path

from test_web_browser import (
    _click_and_wait,
    browser,  # noqa: F401 - the fixture
    server,  # noqa: F401 - the fixture
)

SHOTS = ("bang-web-lobby.png", "bang-web-table.png", "bang-web-target.png", "bang-web-help.png",
         "bang-web-over.png", "bang-web-replay.png")


def _phase(page) -> str:
    return page.get_attribute("body", "data-phase")


def test_a_whole_bang_game_by_clicking_then_its_replay(server, browser, tmp_path):  # noqa: F811
    base, app = server
    shots = Path(os.environ.get("GRANUJAS_SCREENSHOTS") or tmp_path / "shots")
    shots.mkdir(parents=True, exist_ok=True)
    errors: list[str] = []
    page = browser.new_page()
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(15_000)
    page.goto(base + "/")
    page.wait_for_selector("#seat-1")
    assert page.locator("#players option").count() == 3  # granujas first: 2-4 players
    page.select_option("#game", "bang-dice")
    assert [o.strip() for o in page.locator("#players option").all_inner_texts()] == [
        str(n) for n in range(3, 9)]
    assert page.input_value("#players") == "5"
    assert page.locator("#granujas-options").is_hidden()
    assert page.locator("#seat-1 option").all_inner_texts() == ["human", "expectimax", "heuristic", "random", "rollout", "tuned", "valued"]
    page.select_option("#seat-3", "random")
    page.fill("#seed", "21")
    page.screenshot(path=str(shots / "bang-web-lobby.png"))
    page.click("#start")
    page.wait_for_url("**/play#game=*")
    page.wait_for_selector("body[data-phase]")
    (game,) = app.state.games.values()
    assert game.kind.name == "bang-dice" and game.players == [
        "human", "heuristic", "heuristic", "random", "heuristic"]
    assert page.title() == "Bang! The Dice Game: game"
    assert page.locator(".bseat").count() == 5 and page.locator(".bseat.me").count() == 1
    sheriff = game.game.sheriff
    assert page.inner_text(f".bseat[data-seat='{sheriff}'] .role") == "★ SHERIFF"
    hidden = [s for s in range(1, 5) if s != sheriff]
    for s in hidden:  # another seat's role is not on the page
        assert page.inner_text(f".bseat[data-seat='{s}'] .role") == "ROLE HIDDEN"

    page.click("#bang-help summary")
    assert page.locator("#bang-help .characters li").count() == 16
    assert page.locator("#bang-help li").filter(has_text="dynamite: cannot be rerolled").count() == 1
    page.screenshot(path=str(shots / "bang-web-help.png"))
    page.click("#bang-help summary")

    clicks = rerolls = targets = 0
    while _phase(page) != "over":
        assert _phase(page) == "acting"  # the bots answer at once
        if page.locator("#stop-rolling").count():
            if rerolls < 6 and page.locator(".die.choosable").count():
                _click_and_wait(page, ".die.choosable >> nth=0")
                assert page.locator(".die.reroll").count() == 1
                assert page.is_enabled("#reroll-selected")
                if rerolls == 1:
                    page.screenshot(path=str(shots / "bang-web-table.png"))
                _click_and_wait(page, "#reroll-selected")
                rerolls += 1
            else:
                _click_and_wait(page, "#stop-rolling")
        elif page.locator(".bseat.target").count():
            if targets == 0:
                page.screenshot(path=str(shots / "bang-web-target.png"))
            _click_and_wait(page, ".bseat.target >> nth=0")
            targets += 1
        else:
            _click_and_wait(page, "#menu button.action >> nth=0")
        clicks += 1
        assert clicks < 500
    assert game.game.game_over and rerolls >= 3 and targets >= 2
    assert page.locator(".final tr.winner").count() == len(game.game.winners)
    assert page.inner_text("#prompt").startswith("The game is over: ")
    roles = page.locator(".bseat .role").all_inner_texts()
    assert sorted(r.split()[-1].lower() for r in roles) == sorted(game.game.roles)
    page.screenshot(path=str(shots / "bang-web-over.png"), full_page=True)

    page.click("#replay")
    page.wait_for_url("**/replay#replay=*")
    page.wait_for_selector("body[data-step='0']")
    steps = int(page.inner_text("#steps"))
    assert steps == len(game.actions)
    assert page.locator(".bseat").count() == 5
    for expected in (1, 2, 3):
        _click_and_wait(page, "#forward")
        assert page.get_attribute("body", "data-step") == str(expected)
    _click_and_wait(page, "#back")
    assert page.get_attribute("body", "data-step") == "2"
    assert page.inner_text("#action").startswith("last: p")
    page.select_option("#view", "0")
    page.wait_for_selector(".bseat.me")
    _click_and_wait(page, "#last")
    assert page.get_attribute("body", "data-step") == str(steps)
    assert page.locator(".final tr.winner").count() == len(game.game.winners)
    page.screenshot(path=str(shots / "bang-web-replay.png"), full_page=True)
    assert errors == []
    assert all((shots / name).stat().st_size > 10_000 for name in SHOTS)
