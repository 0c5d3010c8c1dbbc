"""The Bang! AEC env: PettingZoo's tests at every table size, eliminated agents, rewards, infos,
illegal actions, registration, and the generated reference pages."""

from __future__ import annotations

import os
import random
import subprocess
import sys

import numpy as np
import pettingzoo
import pytest
from pettingzoo.test import api_test, parallel_api_test, seed_test

import granujas_env.bang_dice  # noqa: F401 - registers granujas/bang-dice-v0
from granujas_env import games
from granujas_env.bang_dice import docs
from granujas_env.bang_dice.codecs import CAUSES, KINDS, LAYOUT
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.data import CHARACTER_IDS
from granujas_env.bang_dice.engine.game import (
    FACES,
    ROLES,
    BangConfig,
    BangGame,
    GameOverError,
    IllegalActionError,
)
from granujas_env.bang_dice.env import env, parallel_env, raw_env
from granujas_env.bang_dice.view import seat_view


@pytest.mark.parametrize("n", range(3, 9))
def test_pettingzoo_api_and_seed_tests(n):
    api_test(env(num_players=n), num_cycles=300)
    seed_test(lambda: env(num_players=n), num_cycles=300)


def _play(environment, seed, check=None):
    """Play one random game through the AEC loop; ``check(environment, agent)`` at each step."""
    rng = random.Random(seed)
    environment.reset(seed=seed)
    for agent in environment.agent_iter():
        obs, reward, term, trunc, info = environment.last()
        if check:
            check(environment, agent)
        action = None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
        environment.step(action)


@pytest.mark.parametrize("n", [4, 5, 8])
def test_eliminated_agents_stay_with_zero_masks_and_get_the_team_reward(n):
    seen_dead = 0
    dead_winners = 0
    for seed in range(12):
        environment = raw_env(num_players=n)

        def check(e, agent):
            nonlocal seen_dead
            game = e.unwrapped.game
            if not game.game_over:
                assert e.agents == e.possible_agents  # nobody leaves before the end
            for other in e.agents:
                info = e.infos[other]
                assert set(info) == {"decision", "game_over", "winners"}
                assert info["winners"].shape == (n,) and info["winners"].dtype == np.int8
                seat = e.agent_name_mapping[other]
                if not game.game_over and not game.alive[seat]:
                    seen_dead += 1
                    assert not e.observe(other)["action_mask"].any()
                    assert e.rewards[other] == 0.0 and not e.terminations[other]
                    assert e.agent_selection != other

        rewards = {}
        environment.reset(seed=seed)
        rng = random.Random(seed)
        for agent in environment.agent_iter():
            obs, reward, term, trunc, info = environment.last()
            check(environment, agent)
            if term:
                rewards[agent] = reward
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            environment.step(action)
        game = environment.game
        assert rewards.keys() == set(environment.possible_agents)  # every agent, dead ones too
        for agent, reward in rewards.items():
            seat = environment.agent_name_mapping[agent]
            assert reward == (1.0 if seat in game.winners else -1.0)
            if seat in game.winners and not game.alive[seat]:
                dead_winners += 1
    assert seen_dead > 0 and dead_winners > 0  # the cases were exercised


def test_info_at_the_end_names_the_winners():
    environment = raw_env(num_players=5)
    _play(environment, 3)
    game = environment.game
    expected = np.array([s in game.winners for s in range(5)], dtype=np.int8)
    # the last dead step removed the agents: read the winners from a fresh finished copy
    environment.reset(seed=3)
    rng = random.Random(3)
    while not environment.game.game_over:
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(rng.choice(np.flatnonzero(mask).tolist()))
    for agent in environment.agents:
        assert environment.infos[agent]["game_over"] is True
        assert environment.infos[agent]["decision"] == ""
        np.testing.assert_array_equal(environment.infos[agent]["winners"], expected)


def test_acting_agent_info_names_the_decision():
    environment = raw_env(num_players=4)
    environment.reset(seed=1)
    agent = environment.agent_selection
    assert environment.infos[agent]["decision"] == environment.game.decision.kind == "reroll"
    assert all(environment.infos[a]["decision"] == "" for a in environment.agents if a != agent)


def test_illegal_actions_are_refused_with_the_state_unchanged():
    environment = raw_env(num_players=5)
    environment.reset(seed=2)
    game = environment.game
    before = (list(game.events), list(game.life), list(game.dice), environment.agent_selection)
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in game.legal_actions())
    for bad, words in [
        (illegal, "not legal for the pending decision 'reroll'"),
        (A.NUM_ACTIONS, r"out of range \(ids are 0..46\)"),
        (-1, "out of range"),
        ("3", "integer id"),
        (2.0, "integer id"),
        (True, "integer id"),
        (None, "must act"),
    ]:
        with pytest.raises(IllegalActionError, match=words):
            environment.step(bad)
        after = (list(game.events), list(game.life), list(game.dice), environment.agent_selection)
        assert after == before
    with pytest.raises(ValueError, match="unknown agent 'player_7'"):
        environment.observe("player_7")
    with pytest.raises(ValueError, match="num_players must be an int in 3..8, got 9"):
        raw_env(num_players=9)
    with pytest.raises(ValueError, match="reward must be one of"):
        raw_env(reward="win")


def test_step_after_the_end_raises_game_over():
    environment = raw_env(num_players=3)
    _play(environment, 0)
    with pytest.raises(GameOverError, match="call reset"):
        environment.step(0)


def test_wrapped_env_ends_the_game_on_an_illegal_id():
    environment = env(num_players=5)
    environment.reset(seed=0)
    mover = environment.agent_selection
    mask = environment.observe(mover)["action_mask"]
    environment.step(int(np.flatnonzero(mask == 0)[-1]))
    assert environment.rewards[mover] == -1
    assert all(environment.terminations.values())


def test_observation_has_one_size_and_bounds_at_every_table():
    sizes = set()
    for n in range(3, 9):
        environment = raw_env(num_players=n)
        space = environment.observation_space("player_0")["observation"]
        sizes.add(space.shape)
        environment.reset(seed=n)
        obs = environment.observe("player_0")["observation"]
        assert space.contains(obs)
    assert sizes == {(LAYOUT.size,)}


def test_observation_encodes_seats_relative_to_the_observer():
    game = BangGame.from_position(
        {
            "roles": ["sheriff", "outlaw", "deputy", "outlaw", "renegade"],
            "characters": ["bart_cassidy", "black_jack", "el_gringo", "jourdonnais", "paul_regret"],
            "life": [10, 3, 7, 7, 9],
            "rolls": [["arrow", "beer", "beer", "beer", "beer"]],
        }
    )
    o = LAYOUT.offset
    x = LAYOUT.encode(game, 1)
    # row 0 is the observer (seat 1, life 3 of 8), row 4 is seat 0 (the Sheriff, life 10)
    assert x[o["life"]] == pytest.approx(3 / 11)
    assert x[o["life"] + 4] == pytest.approx(10 / 11)
    role = o["role"]
    assert x[role + 0 * 5 + 2] == 1  # own role: outlaw
    assert x[role + 4 * 5 + 0] == 1  # the Sheriff, known
    assert x[role + 1 * 5 + 4] == 1  # seat 2: unknown
    assert x[o["arrows"] + 4] == pytest.approx(1 / 9)  # the Sheriff took the arrow he rolled
    assert x[o["deciding_seat"] + 4] == 1 and x[o["acting"]] == 0
    assert x[o["present"]: o["present"] + 8].tolist() == [1, 1, 1, 1, 1, 0, 0, 0]


def test_registered_with_pettingzoo_and_the_games_registry():
    made = pettingzoo.make("aec", "granujas/bang-dice-v0", num_players=6)
    made.reset(seed=0)
    assert isinstance(made.unwrapped, raw_env)
    spec = games.get("bang-dice")
    assert games.by_env_id("granujas/bang-dice-v0") is spec
    assert list(spec.players) == [3, 4, 5, 6, 7, 8]
    with pytest.raises(ValueError, match="no options"):
        spec.make_config(5, length="long")


def test_state_snapshots_restore_exactly():
    environment = raw_env(num_players=5)
    environment.reset(seed=9)
    rng = random.Random(0)
    for _ in range(15):
        mask = environment.observe(environment.agent_selection)["action_mask"]
        environment.step(rng.choice(np.flatnonzero(mask).tolist()))
    snapshot = environment.state()
    trail = []
    for _ in range(20):
        if environment.game.game_over:
            break
        mask = environment.observe(environment.agent_selection)["action_mask"]
        action = rng.choice(np.flatnonzero(mask).tolist())
        trail.append(action)
        environment.step(action)
    events = list(environment.game.events)
    environment.set_state(snapshot)
    for action in trail:
        environment.step(action)
    assert environment.game.events == events


def test_reference_pages_are_current():
    for path, build in docs.pages().items():
        assert path.read_text(encoding="utf-8") == build(), f"{path} is stale: run python -m granujas_env.bang_dice.docs"


def _reference_encoding(view) -> np.ndarray:
    """The observation rebuilt from the seat view, piece by piece (the codec's oracle)."""
    o, n, me = LAYOUT.offset, view.num_players, view.seat
    x = np.zeros(LAYOUT.size, dtype=np.float32)

    def rel(s):
        return (s - me) % n

    if view.decision is not None:
        x[o["decision_kind"] + KINDS.index(view.decision)] = 1
        x[o["acting"]] = view.acting
        x[o["deciding_seat"] + rel(view.deciding_player)] = 1
        data = view.decision_data
        if "die" in data:
            x[o["context_die"] + data["die"]] = 1
        if "face" in data:
            x[o["context_face"] + ["1", "2"].index(data["face"])] = 1
        if data.get("cause") in CAUSES:
            x[o["context_cause"] + CAUSES.index(data["cause"])] = 1
    x[o["turn_player"] + rel(view.turn_player)] = 1
    x[o["num_players"] + n - 3] = 1
    x[o["own_role"] + ROLES.index(view.role)] = 1
    if n == 3:
        x[o["target"] + rel(view.three_player_target)] = 1
        x[o["last_standing"]] = view.last_standing
    for p in view.players:
        r = rel(p.seat)
        x[o["present"] + r] = 1
        x[o["alive"] + r] = p.alive
        x[o["role"] + r * 5 + (4 if p.role is None else ROLES.index(p.role))] = 1
        x[o["character"] + r * 16 + CHARACTER_IDS.index(p.character)] = 1
        x[o["life"] + r] = p.life / 11
        x[o["max_life"] + r] = p.max_life / 11
        x[o["arrows"] + r] = p.arrows / 9
        for q in range(n):
            x[o["shots"] + r * 8 + rel(q)] = min(view.shots[p.seat][q], 10) / 10
            x[o["heals"] + r * 8 + rel(q)] = min(view.heals[p.seat][q], 10) / 10
    for i, face in enumerate(view.dice):
        x[o["dice"] + i * 6 + FACES.index(face)] = 1
    x[o["rolls"]] = view.rolls_done / 4
    x[o["rolls"] + 1] = view.rerolls_left / 3
    x[o["arrow_pile"]] = view.arrow_pile / 9
    x[o["turn_number"]] = min(view.turn_number, 100) / 100
    x[o["game_over"]] = view.game_over
    return x


@pytest.mark.parametrize("n", [3, 5, 8])
def test_observation_holds_what_the_view_holds(n):
    rng = random.Random(n)
    for seed in range(3):
        game = BangGame(BangConfig(n), seed)
        while True:
            for seat in range(n):
                np.testing.assert_allclose(
                    LAYOUT.encode(game, seat), _reference_encoding(seat_view(game, seat)), rtol=1e-6
                )
            if game.game_over:
                break
            game.apply(rng.choice(game.legal_actions()))


_DIGEST_SCRIPT = """
import hashlib, random
import numpy as np
from granujas_env.bang_dice.env import raw_env
from agents.bang_dice import make
digest = hashlib.sha256()
for n in (3, 5, 8):
    environment = raw_env(num_players=n)
    environment.reset(seed=41 + n)
    bots = [make("heuristic", seed=s) for s in range(n)]
    while not environment.game.game_over:
        agent = environment.agent_selection
        obs = environment.observe(agent)
        digest.update(obs["observation"].tobytes() + obs["action_mask"].tobytes())
        bot = bots[environment.agent_name_mapping[agent]]
        environment.step(bot.act(obs, view=environment.seat_view(agent)))
    digest.update(repr(environment.game.events).encode())
print(digest.hexdigest())
"""


def test_games_are_the_same_in_other_processes():
    """Same seeds, same games, observations and bot choices, whatever the hash seed."""
    digests = set()
    for hash_seed in ("0", "12345"):
        result = subprocess.run(
            [sys.executable, "-c", _DIGEST_SCRIPT],
            capture_output=True, text=True, check=True, timeout=300,
            env={**os.environ, "PYTHONHASHSEED": hash_seed},
            cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
        )
        digests.add(result.stdout.strip())
    assert len(digests) == 1 and len(next(iter(digests))) == 64


@pytest.mark.parametrize("players", [3, 8])
def test_parallel_registration_passes_pettingzoo_parallel_api_test(players: int) -> None:
    par = pettingzoo.make("parallel", "granujas/bang-dice-v0", num_players=players)
    assert par.possible_agents == [f"player_{i}" for i in range(players)]
    parallel_api_test(par, num_cycles=2000)


def test_parallel_env_plays_the_aec_game_and_pays_every_seat() -> None:
    par, aec = parallel_env(num_players=5), env(num_players=5)
    observations, infos = par.reset(seed=3)
    aec.reset(seed=3)
    rng = np.random.default_rng(3)
    totals = dict.fromkeys(par.possible_agents, 0.0)
    while par.agents:
        acting = infos[par.agents[0]]["active_agent"]
        assert acting == aec.agent_selection
        action = int(rng.choice(np.flatnonzero(observations[acting]["action_mask"])))
        observations, rewards, terminations, truncations, infos = par.step({acting: action})
        aec.step(action)
        for agent, reward in rewards.items():
            totals[agent] += reward
    game = par.unwrapped.game
    assert game.game_over and game.events == aec.unwrapped.game.events
    winners = game.outcome().winners
    assert totals == {f"player_{i}": (1.0 if i in winners else -1.0) for i in range(5)}
