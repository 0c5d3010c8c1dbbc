"""Bang! The Dice Game as a TextArena environment ("BangDice-v0"): scripted TextArena-style agents
play whole games at several table sizes; rewards are the team outcome; a wrong answer is asked
again, then the default is played; no observation shows a player another seat's hidden role."""

from __future__ import annotations

import re

import pytest
from test_llm_agent import scripted_textarena_agent

ta = pytest.importorskip("textarena")

from granujas_env.textarena_env import BANG_ENV_ID, BangDiceTextArenaEnv  # noqa: E402

ROW = re.compile(r"^[ >] p(\d) \((?:[^,]+), ([^,]+), (.*)\)(?: \(you\))?$", re.M)


@pytest.mark.parametrize(("players", "seed"), [(3, 2), (5, 0), (8, 1)])
def test_textarena_agents_play_a_whole_bang_game(players: int, seed: int) -> None:
    env = ta.make(BANG_ENV_ID)
    env.reset(num_players=players, seed=seed)
    game = env.game
    agents = {pid: scripted_textarena_agent(seed * 10 + pid) for pid in range(players)}
    done, steps, garbage = False, 0, dict.fromkeys(range(players), 0)
    while not done:
        player_id, observation = env.get_observation()
        assert f"You are p{player_id} (" in observation and "Bang! The Dice Game" in observation
        table = observation[observation.rindex("=== Bang! The Dice Game:"):]
        rows = ROW.findall(table)
        assert [int(r[0]) for r in rows] == list(range(players))
        for seat, role, state in rows:
            seat = int(seat)
            known = (seat == player_id or game.role_revealed[seat] or players == 3)
            assert (role == "role hidden") == (not known), (seat, role, state)
        action = agents[player_id](observation)
        garbage[player_id] += action == "hmm"
        done, _ = env.step(action=action)
        steps += 1
    rewards, game_info = env.close()
    assert game.game_over and rewards == dict(enumerate(game.returns()))
    assert sorted(set(rewards.values())) == [-1.0, 1.0]
    for pid in range(players):
        assert game_info[pid]["invalid_answers"] == garbage[pid]
        assert game_info[pid]["default_actions"] == 0
    assert sum(info["turn_count"] for info in game_info.values()) == steps - sum(garbage.values())


def test_wrong_answers_are_asked_again_then_the_default_is_played() -> None:
    env = BangDiceTextArenaEnv(error_allowance=1)
    env.reset(num_players=4, seed=3)
    game = env.game
    first = game.decision.player
    legal = game.legal_actions()
    assert env.step("reroll everything twice please") == (False, {})
    admin = [m for m in env.state.observations[first] if m[2] == ta.ObservationType.GAME_ADMIN]
    assert "is not a legal action" in admin[-1][1] or "matches several" in admin[-1][1]
    assert game.legal_actions() == legal  # nothing applied yet
    assert env.step("nonsense") == (False, {})
    info = env.state.game_info[first]
    assert (info["invalid_answers"], info["default_actions"], info["invalid_move"]) == (2, 1, True)
    others = [pid for pid in range(4) if pid != first]
    assert all(env.state.game_info[pid]["invalid_move"] is False for pid in others)


def test_bad_options_are_clear_errors() -> None:
    with pytest.raises(ValueError, match="error_allowance must be an int >= 0"):
        BangDiceTextArenaEnv(error_allowance=-1)
    with pytest.raises(ValueError, match="num_players must be an int in 3..8"):
        BangDiceTextArenaEnv().reset(num_players=2)
