"""The cheaper env steps give exactly what the plain ones gave: infos brought up to date only when
read, the engine's frames pushed without packing their data twice, the known card values listed
unsorted for the encoder, the score breakdown summed in plain loops.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

from granujas_env.engine import Game, GameConfig
from granujas_env.engine.state import Frame
from granujas_env.env import raw_env


def _random_games(count: int, seed: int) -> list[Game]:
    """Game states along ``count`` random games (2-4 players, both lengths, Strategy cards or
    not), a few per game."""
    rng = random.Random(seed)
    states = []
    for k in range(count):
        config = GameConfig(2 + k % 3, ("short", "long")[k % 2], bool(k % 4 == 3))
        game = Game(config, seed=seed + k)
        while not game.game_over:
            if rng.random() < 0.05:
                states.append(game.clone())
            game.apply(rng.choice(game.legal_actions()))
        states.append(game)
    return states


def _plain_score_breakdown(game: Game, seat: int) -> dict[str, int]:
    """The score breakdown as the rules state it (the engine's before its loops were flattened)."""
    player = game.players[seat]
    safes = sum(game.safes[s].value for s in player.safes)
    marks = sum(
        1 for s in player.safes for _, face in game.safes[s].marks if face == game.safes[s].value
    )
    reputation = game.rules.reputation_tech[player.reputation]
    granujas = sum(
        game.catalog.occupation_cards[g.occ].tech + game.catalog.trait_cards[g.trait].tech
        for g in player.sheet
        if g is not None
    )
    total = safes + marks + reputation + granujas
    return {
        "safes": safes,
        "marks": marks,
        "reputation": reputation,
        "granujas": granujas,
        "total": total,
    }


def _plain_known_card_values(game: Game, seat: int) -> list[tuple[int, int, int, int]]:
    """Own cards, the others' revealed and peeked cards, sorted, each once (the plain listing)."""
    out = [
        (day, seat, slot, value)
        for day, by_seat in enumerate(game.played_log)
        for slot, value in by_seat[seat]
    ]
    out += [r for r in game.reveals if r[1] != seat]
    out += [
        (day, s, slot, value)
        for day, s, slot in game.players[seat].peeked
        if s != seat
        for played_slot, value in game.played_log[day][s]
        if played_slot == slot
    ]
    return sorted(set(out))


def test_score_breakdown_and_known_cards_equal_the_plain_ones() -> None:
    states = _random_games(12, seed=11)
    seen_marks = seen_reveals = seen_peeks = False
    for game in states:
        for seat in range(game.num_players):
            assert game.score_breakdown(seat) == _plain_score_breakdown(game, seat)
            known = game.known_card_values(seat)
            assert known == _plain_known_card_values(game, seat)
            assert sorted(set(game.iter_known_card_values(seat))) == known
        seen_marks |= any(safe.marks and safe.holder >= 0 for safe in game.safes)
        seen_reveals |= bool(game.reveals)
        seen_peeks |= any(p.peeked for p in game.players)
    # the games reached what the sums and listings read
    assert seen_marks and seen_reveals and seen_peeks
    assert any(game.scores for game in states)


def test_a_frame_holding_its_data_equals_one_built_from_keywords() -> None:
    data = {"queue": [1, 2], "stage": "start"}
    frame = Frame.holding("window", 3, data)
    assert frame == Frame("window", 3, queue=[1, 2], stage="start")
    assert frame.data is data and (frame.kind, frame.player) == ("window", 3)
    assert repr(frame) == repr(Frame("window", 3, **data))


def _infos_copy(env: raw_env) -> dict:
    return {
        agent: {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in info.items()}
        for agent, info in env.infos.items()
    }


def _contract_infos(env: raw_env) -> dict:
    """The infos the module docstring of granujas_env.env promises, from the game itself."""
    game = env.game
    acting = None if game.game_over else env.possible_agents[game.current_player]
    return {
        agent: {
            "decision": game.stack[-1].kind if agent == acting else "",
            "game_over": game.game_over,
            "winner": -1 if game.winner is None else game.winner,
            "scores": list(game.scores) if game.game_over else [0] * game.num_players,
        }
        for agent in env.agents
    }


@pytest.mark.parametrize(("players", "every"), [(2, 3), (4, 5), (3, 10_000)])
def test_infos_read_now_and_then_follow_the_game(players: int, every: int) -> None:
    """Infos read every ``every`` steps (or only at the end, and through the dead steps) are
    those of the game at each read, and those handed out before keep their values."""
    env = raw_env(num_players=players)
    env.reset(seed=players)
    rng = random.Random(players)
    handed_out = []  # (infos, their values when read)
    for step, agent in enumerate(env.agent_iter(10_000)):
        done = env.terminations[agent]
        if step % every == 0 or done:
            values = _infos_copy(env)
            assert values == _contract_infos(env)
            handed_out.append((dict(env.infos), values))
        env.step(None if done else rng.choice(env.game.legal_actions()))
    assert env.infos == {} and len(handed_out) > players
    for infos, values in handed_out:
        assert {
            a: {k: v.tolist() if isinstance(v, np.ndarray) else v for k, v in info.items()}
            for a, info in infos.items()
        } == values


def test_a_snapshot_taken_before_the_infos_are_read_restores_them() -> None:
    env = raw_env(num_players=3)
    env.reset(seed=5)
    rng = random.Random(5)
    for _ in range(40):
        env.step(rng.choice(env.game.legal_actions()))
    snapshot = env.state()  # infos not read since the reset
    expected = _infos_copy(env)
    for _ in range(10):
        env.step(rng.choice(env.game.legal_actions()))
    assert _infos_copy(env) != expected
    env.set_state(snapshot)
    assert _infos_copy(env) == expected
