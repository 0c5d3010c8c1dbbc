"""The play filter of `full`'s 3-4 player model (``agents.plan_guard``): once a rival has placed a
henchman on a card played before the day's last round, on a day before the last, the model plays
honestly before the last round while such a rival has a free henchman. Games here use their own
seeds."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from agents.plan_guard import FILTERS, HonestAfterEarlyChallenges, make_filter
from agents.policy import PolicyAgent, make_bot
from granujas_env.engine import actions as A
from granujas_env.env import env


def _view(
    *, day=1, last_day=2, turn=4, seat=0, played=((), (), (), ()), card=None, free=(1, 1, 1, 1)
):
    """A 4-player, 4-turns-a-day table: ``played[p]`` lists (slot, turn, henchmen) of p's cards,
    ``free[p]`` is p's free henchmen."""
    players = tuple(
        SimpleNamespace(
            seat=p,
            played=tuple(SimpleNamespace(slot=s, turn=t, henchmen=h) for s, t, h in cards),
            free_henchmen=free[p],
        )
        for p, cards in enumerate(played)
    )
    taken = {card.slot for card in players[seat].played}
    return SimpleNamespace(
        day=day, last_day=last_day, turn=turn, last_round_start=12, seat=seat,
        players=players, context={"card": card},
        free_slots=tuple(s for s in range(1, 7) if s not in taken),
    )


CARDS = np.array([A.CARD + v for v in (0, 2, 3, 5)])  # a hand of 0, 2, 3 and 5


def test_an_early_challenge_narrows_the_cards_to_the_honest_ones():
    guard = HonestAfterEarlyChallenges()
    # seat 3's henchman on seat 2's card of turn 2, before the last round (turns 12-15)
    view = _view(played=((), ((2, 1, ()),), ((4, 2, (3,)),), ()))
    assert list(guard.narrow("plan_card", CARDS, view)) == [A.CARD + 2, A.CARD + 3, A.CARD + 5]
    assert guard.challengers == {3}
    fresh = HonestAfterEarlyChallenges()
    quiet = _view(played=((), ((2, 1, ()),), ((4, 13, (3,)),), ()))  # placed in the last round
    assert list(fresh.narrow("plan_card", CARDS, quiet)) == list(CARDS)
    assert fresh.challengers == set()


def test_the_watch_keeps_for_the_game_and_ignores_the_last_day_and_own_henchmen():
    guard = HonestAfterEarlyChallenges()
    last_day = _view(day=2, played=((), ((2, 1, (2,)),), (), ()))
    assert list(guard.narrow("plan_card", CARDS, last_day)) == list(CARDS)
    own = _view(played=((), ((2, 1, (0,)),), (), ()))  # this seat's henchman on a rival's card
    assert list(guard.narrow("plan_card", CARDS, own)) == list(CARDS)
    assert guard.challengers == set()
    guard.narrow("plan_card", CARDS, _view(played=((), ((2, 1, (2,)),), (), ())))
    assert guard.challengers == {2}
    # the next day (the last), with nothing on the table, it still plays honestly
    later = _view(day=2, turn=1, played=((), (), (), ()))
    assert list(guard.narrow("plan_card", CARDS, later)) == [A.CARD + 2, A.CARD + 3, A.CARD + 5]
    # ... but not in the day's last round, nor at other decisions
    assert list(guard.narrow("plan_card", CARDS, _view(day=2, turn=12))) == list(CARDS)
    assert list(guard.narrow("challenge", CARDS, later)) == list(CARDS)
    # nor once every early challenger has placed all its free henchmen (a bluff is safe from it)
    spent = _view(day=2, turn=1, free=(1, 1, 0, 1))
    assert list(guard.narrow("plan_card", CARDS, spent)) == list(CARDS)
    guard.challengers.add(3)
    assert list(guard.narrow("plan_card", CARDS, spent)) == [A.CARD + 2, A.CARD + 3, A.CARD + 5]
    guard.reset()
    assert guard.challengers == set()
    guard.challengers.add(3)
    guard.narrow("plan_card", CARDS, _view(day=2, turn=9))
    # a game that starts over (day 1, turn 0) without a reset forgets the last one
    assert list(guard.narrow("plan_card", CARDS, _view(day=1, turn=0))) == list(CARDS)
    assert guard.challengers == set()


def test_slots_and_forced_bluffs():
    guard = HonestAfterEarlyChallenges()
    guard.challengers.add(1)
    slots = np.array([A.SLOT + s for s in (1, 3, 5, 6)])
    own = ((3, 0, ()),)  # this seat already played into slot 3 today
    assert list(guard.narrow("plan_slot", slots, _view(card=5, played=(own, (), (), ())))) == [
        A.SLOT + 5
    ]
    # a 3 has no free slot of its own, a 0 never has one: the choice is left whole
    assert list(guard.narrow("plan_slot", slots, _view(card=3, played=(own, (), (), ())))) == list(slots)
    assert list(guard.narrow("plan_slot", slots, _view(card=0))) == list(slots)
    zeros = np.array([A.CARD + 0])
    assert list(guard.narrow("plan_card", zeros, _view())) == [A.CARD + 0]
    assert list(guard.narrow("plan_card", CARDS, _view(played=(own, (), (), ())))) == [
        A.CARD + 2, A.CARD + 5
    ]


def test_filters_are_named():
    assert isinstance(make_filter("honest_after_early_challenges"), HonestAfterEarlyChallenges)
    assert set(FILTERS) == {"honest_after_early_challenges"}
    with pytest.raises(ValueError, match="unknown play filter 'x'; known: honest_after_early"):
        make_filter("x")


def test_full_reads_its_filter_from_the_table_models_card_and_the_spec_turns_it_off():
    full = make_bot("full", seed=1)
    assert full.table_agents[2].play_filter is None  # the 2-player model: its own challenges
    for n in (3, 4):
        assert isinstance(full.table_agents[n].play_filter, HonestAfterEarlyChallenges)
    plain = make_bot("full:filter=none", seed=1)
    assert all(a.play_filter is None for a in plain.table_agents.values())
    with pytest.raises(ValueError, match="unknown play filter 'bogus'"):
        make_bot("full:filter=bogus")


def _plans_against_early_challengers(seeds):
    """Seat 0 plays ``full`` at 4 players, the others spot-check early cards (keeping a henchman): at each Plan decision
    of seat 0, (view, legal ids, its action, the action of ``full`` without its filter, the
    rivals seen challenging early so far)."""
    for seed in seeds:
        table = env(num_players=4)
        table.reset(seed=seed)
        first = table.possible_agents[0]
        bots = {
            name: make_bot("full" if name == first else "heuristic:early_challenge_rate=0.3", seed=seed + i)
            for i, name in enumerate(table.possible_agents)
        }
        for bot in bots.values():
            bot.reset(seed=seed)
        plain = make_bot("full:filter=none", seed=seed)  # shown seat 0's decisions too
        plain.reset(seed=seed)
        challengers: set[int] = set()
        for name in table.agent_iter():
            observation, _, terminated, truncated, _ = table.last()
            if terminated or truncated:
                table.step(None)
                continue
            view = table.unwrapped.seat_view(name)
            action = bots[name].act(observation, view=view)
            unfiltered = plain.act(observation, view=view) if name == first else None
            early = view.turn < (view.turns_per_day - 1) * view.num_players
            if view.decision == "challenge" and action == A.CONFIRM and early and name != first:
                if view.day < view.last_day:
                    challengers.add(view.seat)
            if name == first and view.decision in ("plan_card", "plan_slot"):
                legal = np.flatnonzero(observation["action_mask"])
                yield view, legal, action, unfiltered, set(challengers)
            table.step(action)


def _honest(view, action) -> bool:
    free = set(range(1, 7)) - {card.slot for card in view.players[view.seat].played}
    if view.decision == "plan_card":
        return action - A.CARD in free
    return action == A.SLOT + view.context["card"]


def test_full_plays_honestly_before_the_last_round_once_a_rival_challenged_there():
    guarded = bluffs_stopped = 0
    for view, legal, action, unfiltered, challengers in _plans_against_early_challengers(range(7301, 7305)):
        early = view.turn < (view.turns_per_day - 1) * view.num_players
        could = any(_honest(view, a) for a in legal)
        armed = any(view.players[s].free_henchmen for s in challengers)
        if armed and early and could:
            guarded += 1
            assert _honest(view, action), (view.day, view.turn, view.decision, legal, action)
            bluffs_stopped += not _honest(view, unfiltered)
        else:
            assert action == unfiltered  # elsewhere the model plays as it would without it
    assert guarded >= 20  # the rivals challenge early in every game
    assert bluffs_stopped >= 3  # where the model alone would have bluffed


def test_an_unknown_filter_on_a_card_fails_to_load_naming_it(tmp_path):
    source = Path(__file__).resolve().parents[1] / "agents/models/full/plan"
    folder = tmp_path / "plan"
    folder.mkdir()
    shutil.copy(source / "model.zip", folder / "model.zip")
    card = json.loads((source / "model_card.json").read_text())
    (folder / "model_card.json").write_text(json.dumps(card | {"play_filter": "honest_always"}))
    with pytest.raises(ValueError, match=r"plan/model.zip: unknown play filter 'honest_always'"):
        PolicyAgent(folder / "model.zip")
    assert PolicyAgent(folder / "model.zip", play_filter="none").play_filter is None
