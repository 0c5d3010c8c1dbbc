"""The heuristic's early spot checks (``early_challenge_rate``, on whose cards: ``spot_check``): a
mixed challenge strategy.

Before the day's last round, in a turn's last window, holding two or more free henchmen, a bot
with rate r challenges a rival's card its posterior would let pass with probability r; elsewhere
it decides exactly as the posterior rule does. Games here use their own seeds."""

from __future__ import annotations

import math

import numpy as np
import pytest

from agents import make
from agents.heuristic import HeuristicAgent
from agents.policy import make_bot
from agents.safecracker import SafecrackerAgent
from agents.styles import AlwaysChallenge
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.view import seat_view


def _mask(legal: list[int]) -> dict[str, np.ndarray]:
    mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
    mask[legal] = 1
    return {"action_mask": mask}


def _eligible(game: Game, seat: int, legal: list[int]) -> bool:
    view = seat_view(game, seat)
    return (
        A.CONFIRM in legal
        and view.window in (0, 3)
        and view.current_player != seat
        and view.turn < (view.turns_per_day - 1) * view.num_players
        and game.players[seat].free_henchmen >= 2
    )


def _challenge_positions(players: int, length: str, seed: int):
    """Every challenge decision of a game of bots spot-checking a fifth of the time (so that
    some seats are down to one free henchman before the last round): (game, seat, legal)."""
    game = Game(GameConfig(players, length, False), seed=seed)
    bots = [SafecrackerAgent(seed=seed + s, early_challenge_rate=0.2) for s in range(players)]
    while not game.game_over:
        seat = game.current_player
        legal = game.legal_actions()
        if game.decision.kind == "challenge":
            yield game, seat, legal
        game.apply(bots[seat].act(_mask(legal), view=seat_view(game, seat)))


@pytest.mark.parametrize("players,length,seed", [(4, "short", 5101), (3, "long", 5111)])
def test_rate_one_challenges_every_eligible_card_and_changes_nothing_else(players, length, seed):
    checked = {"eligible": 0, "posterior_passed": 0, "other": 0, "one_free": 0}
    positions = (p for s in range(seed, seed + 4) for p in _challenge_positions(players, length, s))
    for game, seat, legal in positions:
        view = seat_view(game, seat)
        plain = SafecrackerAgent(seed=1).act(_mask(legal), view=view)
        always = SafecrackerAgent(seed=1, early_challenge_rate=1.0).act(_mask(legal), view=view)
        if _eligible(game, seat, legal):
            assert always == A.CONFIRM
            checked["eligible"] += 1
            checked["posterior_passed"] += plain == A.PASS
        else:
            assert always == plain
            checked["other"] += 1
            early = view.turn < (view.turns_per_day - 1) * view.num_players
            if early and view.window in (0, 3) and game.players[seat].free_henchmen == 1:
                checked["one_free"] += 1
    assert checked["posterior_passed"] > 20 and checked["other"] > 20
    assert checked["one_free"] > 0  # the one-henchman case was met, and left to the posterior


def test_rate_sets_the_frequency_and_the_seed_the_draws():
    def checks(seed: int) -> list[bool]:
        bot = HeuristicAgent(seed=seed, early_challenge_rate=0.3)
        out = []
        for game_seed in range(5201, 5211):
            for game, seat, legal in _challenge_positions(4, "short", game_seed):
                if not _eligible(game, seat, legal):
                    continue
                view = seat_view(game, seat)
                if HeuristicAgent(seed=0).act(_mask(legal), view=view) == A.PASS:
                    out.append(bot.act(_mask(legal), view=view) == A.CONFIRM)
        return out

    first = checks(7)
    assert len(first) > 120
    assert 0.2 < sum(first) / len(first) < 0.4
    assert checks(7) == first  # the same seed, the same checks
    assert checks(8) != first


@pytest.mark.parametrize("rate", [-0.1, 1.01, math.nan, math.inf, "0.2", True, None])
def test_a_bad_rate_is_refused_by_name(rate):
    with pytest.raises(ValueError, match="early_challenge_rate"):
        HeuristicAgent(seed=0, early_challenge_rate=rate)
    with pytest.raises(ValueError, match="early_challenge_rate"):
        SafecrackerAgent(seed=0, early_challenge_rate=rate)


def test_the_rate_is_a_bot_spec_option():
    bot = make_bot("safecracker:early_challenge_rate=0.25", seed=3)
    assert isinstance(bot, SafecrackerAgent) and bot.early_challenge_rate == 0.25
    assert make_bot("heuristic", seed=3).early_challenge_rate == 0.0
    with pytest.raises(ValueError, match="early_challenge_rate"):
        make_bot("heuristic:early_challenge_rate=2", seed=3)


def test_a_models_delegate_takes_options_from_the_spec():
    bot = make_bot("full:delegate.early_challenge_rate=0.1", seed=2)
    assert bot.table_agents[2].delegate is None  # the 2-player model plays every decision
    for n in (3, 4):
        delegate = bot.table_agents[n].delegate
        assert isinstance(delegate, SafecrackerAgent) and delegate.early_challenge_rate == 0.1
    shipped = make_bot("full", seed=2).table_agents[4].delegate  # its card's play_delegate
    assert (shipped.early_challenge_rate, shipped.spot_check) == (0.3, "early_challengers")
    overridden = make_bot("full:delegate.early_challenge_rate=0", seed=2).table_agents[4].delegate
    assert (overridden.early_challenge_rate, overridden.spot_check) == (0.0, "early_challengers")
    with pytest.raises(ValueError, match="early_chalenge_rate"):
        make_bot("full:delegate.early_chalenge_rate=0.1")
    with pytest.raises(ValueError, match="no delegate"):
        make_bot("full-la1:delegate.early_challenge_rate=0.1")
    with pytest.raises(ValueError, match="only a bot named by a string"):
        make_bot(make("heuristic"), options={"early_challenge_rate": 0.1})
    with pytest.raises(ValueError, match="delegate.<option"):
        make_bot("full:early_challenge_rate=0.1")


def _games_with_an_early_challenger(seed: int):
    """Challenge decisions of a 4-player short game in which seat 0 challenges every card it
    can (early ones too) and the others are safecrackers: (game, seat, legal, early
    challengers so far), the last from the challenge decisions answered yes on a card played
    before a day's last round, on a day before the last."""
    game = Game(GameConfig(4, "short", False), seed=seed)
    bots = [AlwaysChallenge(seed=seed), *(SafecrackerAgent(seed=seed + s) for s in (1, 2, 3))]
    watchers = {
        s: SafecrackerAgent(seed=1, early_challenge_rate=1.0, spot_check="early_challengers")
        for s in (1, 2, 3)
    }
    early: set[int] = set()
    while not game.game_over:
        seat = game.current_player
        legal = game.legal_actions()
        view = seat_view(game, seat)
        if seat in watchers:  # sees every decision of its seat, as a delegate does
            watched = watchers[seat].act(_mask(legal), view=view)
            if game.decision.kind == "challenge":
                yield game, seat, legal, watched, set(early)
        action = bots[seat].act(_mask(legal), view=view)
        if (
            game.decision.kind == "challenge"
            and action == A.CONFIRM
            and view.turn < (view.turns_per_day - 1) * view.num_players
            and view.day < view.last_day
        ):
            early.add(seat)
        game.apply(action)


def test_spot_checks_on_early_challengers_look_only_at_their_cards():
    seen = {"checked": 0, "left_to_the_posterior": 0}
    for seed in range(5301, 5304):
        for game, seat, legal, watched, early in _games_with_an_early_challenger(seed):
            view = seat_view(game, seat)
            plain = SafecrackerAgent(seed=1).act(_mask(legal), view=view)
            if _eligible(game, seat, legal) and view.current_player in early - {seat}:
                assert watched == A.CONFIRM
                seen["checked"] += 1
            elif view.current_player not in early:
                assert watched == plain
                seen["left_to_the_posterior"] += 1
    assert seen["checked"] > 5 and seen["left_to_the_posterior"] > 20


def test_spot_check_targets_are_an_option_refused_by_name():
    bot = make_bot("full:delegate.early_challenge_rate=0.3:delegate.spot_check=early_challengers")
    delegate = bot.table_agents[4].delegate
    assert (delegate.early_challenge_rate, delegate.spot_check) == (0.3, "early_challengers")
    assert make_bot("safecracker", seed=2).spot_check == "everyone"
    with pytest.raises(ValueError, match="spot_check must be one of everyone, early_challengers"):
        HeuristicAgent(seed=0, spot_check="rivals")
    with pytest.raises(ValueError, match="spot_check"):
        make_bot("safecracker:spot_check=nobody")
