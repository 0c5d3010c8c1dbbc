"""No hidden role reaches a seat through Bang!'s text (granujas_env/bang_dice/prompts.py): swap
the roles of two seats the viewer cannot know and everything the text tools show it (the screen,
the menu, the narration, the spectator's opening) must stay identical, at every few steps of
random games of every table size with hidden roles; an injected leak must be caught."""

from __future__ import annotations

import dataclasses
import itertools
import random

import pytest

from granujas_env.bang_dice import prompts
from granujas_env.bang_dice.engine.game import BangConfig, BangGame
from granujas_env.core.textio import text_for

TEXT = prompts.TEXT


def _swapped(game: BangGame, seat: int) -> list[BangGame]:
    """Copies of ``game`` in which two seats whose roles ``seat`` cannot know swap roles."""
    hidden = [s for s in range(game.num_players)
              if s != seat and not game.role_revealed[s] and not game.game_over]
    out = []
    for a, b in itertools.combinations(hidden, 2):
        if game.roles[a] != game.roles[b]:
            other = game.clone()
            other.roles[a], other.roles[b] = other.roles[b], other.roles[a]
            out.append(other)
    return out


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


def _leaks(n: int, seeds: range, every: int = 3) -> tuple[list[str], int]:
    """The channels that changed when hidden roles were swapped, and how many swaps were
    compared."""
    found, compared = [], 0
    for seed in seeds:
        game = BangGame(BangConfig(n), seed)
        rng = random.Random(seed)
        step = 0
        while not game.game_over:
            if step % every == 0:
                for seat in range(n):
                    mine = _seen(game, seat)
                    for other in _swapped(game, seat):
                        compared += 1
                        theirs = _seen(other, seat)
                        found += [f"seed {seed} step {step} seat {seat}: {key}"
                                  for key in mine if mine[key] != theirs[key]]
            game.apply(rng.choice(game.legal_actions()))
            step += 1
    return found, compared


@pytest.mark.parametrize("n", range(4, 9))
def test_hidden_roles_never_reach_a_seats_text(n: int) -> None:
    found, compared = _leaks(n, range(2))
    assert found == []
    assert compared > 50  # the probe really swapped roles


def test_an_injected_leak_is_caught(monkeypatch) -> None:
    """The control: a seat view that shows every role (what a leaking view would do) must make
    the comparison fail, so the test above can fail."""
    honest = prompts.seat_view

    def leaky(game: BangGame, seat: int):
        view = honest(game, seat)
        players = tuple(dataclasses.replace(p, role=game.roles[p.seat]) for p in view.players)
        return dataclasses.replace(view, players=players)

    monkeypatch.setattr(prompts, "seat_view", leaky)
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
