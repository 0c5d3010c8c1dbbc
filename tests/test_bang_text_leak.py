"""No hidden role reaches a seat through Bang!'s text (granujas_env/bang_dice/prompts.py): swap
the roles of two seats the viewer cannot know and everything the text tools show it (the screen,
the menu, the narration, the spectator's opening) must stay identical, at every few steps of
random games of every table size with hidden roles; an injected leak must be caught."""

from __future__ import annotations

import dataclasses
import random

import pytest
from test_bang_no_leak import _swapped  # pairs of seats the viewer cannot know, swapped

from granujas_env import games
from granujas_env.bang_dice import prompts
from granujas_env.bang_dice.engine.game import BangConfig, BangGame
from granujas_env.core.textio import text_for

TEXT = prompts.TEXT


def _seen(game: BangGame, seat: int) -> dict[str, object]:
    """Everything the text tools show ``seat`` of ``game``."""
    view = TEXT.seat_view(game, seat)
    narration = TEXT.narrator(view).update(view)
    return {
        "screen": TEXT.observation(view),
        "screen_with_every_event": TEXT.observation(view, events="\n".join(narration)),
        "menu": TEXT.menu(view),
        "opening": TEXT.opening(game),
        "interface": text_for(view) is TEXT,
    }


def _positions(n: int, seed: int, every: int = 3) -> list[BangGame]:
    """Every ``every``-th position of a random game of ``n`` players (copies)."""
    game, rng, out, step = BangGame(BangConfig(n), seed), random.Random(seed), [], 0
    while not game.game_over:
        if step % every == 0:
            out.append(game.clone())
        game.apply(rng.choice(game.legal_actions()))
        step += 1
    return out


def _leaks(n: int, seeds: range) -> tuple[list[str], int]:
    """The channels that changed when hidden roles were swapped, and how many swaps were
    compared."""
    found, compared = [], 0
    for seed in seeds:
        for index, position in enumerate(_positions(n, seed)):
            for seat in range(n):
                mine = _seen(position, seat)
                swaps = _swapped(position, seat)
                compared += len(swaps)
                found += [f"seed {seed} position {index} seat {seat}: {key}" for other in swaps
                          for key, theirs in _seen(other, seat).items() if mine[key] != theirs]
    return found, compared


@pytest.mark.parametrize("n", range(4, 9))
def test_hidden_roles_never_reach_a_seats_text(n: int) -> None:
    found, compared = _leaks(n, range(2))
    assert found == []
    assert compared > 50  # the probe really swapped roles


def test_an_injected_leak_is_caught(monkeypatch) -> None:
    """The control: a seat view that shows every role (what a leaking view would do) must make
    the comparison fail, so the test above can fail."""
    spec = games.get("bang-dice")  # the text interface takes its seat views from the spec
    honest = spec.seat_view

    def leaky(game: BangGame, seat: int):
        view = honest(game, seat)
        players = tuple(dataclasses.replace(p, role=game.roles[p.seat]) for p in view.players)
        return dataclasses.replace(view, players=players)

    monkeypatch.setattr(spec, "seat_view", leaky)
    found, _ = _leaks(5, range(1))
    assert any(line.endswith(": screen") for line in found)
    assert any(line.endswith(": menu") for line in found)


def test_the_screen_names_only_known_roles() -> None:
    game = BangGame(BangConfig(6), 11)
    seat = next(s for s in range(6) if game.roles[s] == "outlaw")
    view = TEXT.seat_view(game, seat)
    screen = TEXT.observation(view)
    rows = [line for line in screen.splitlines() if line[:4] in {f"{m} p{s}" for s in range(6)
                                                                 for m in " >"}]
    assert len(rows) == 6
    for s, row in enumerate(rows):
        shown = (s == seat) or s == game.sheriff
        assert ("role hidden" not in row) == shown
        if shown:
            assert game.roles[s].capitalize() in row
