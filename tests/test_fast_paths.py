"""The env's fast paths give exactly what the plain ones gave: the observation encoder (Granuja
table, one block write), the step infos (only the changed ones rebuilt, only the agents a step
can change looked at), the lazy observation handed to bots and its legal ids (no mask round
trip), the seat views' fields read from the game's logs (kept per game while the logs only grew).
"""

from __future__ import annotations

import copy
import hashlib
import random
from typing import Any

import numpy as np
import pytest

from agents.base import LazyObservation, legal_actions
from granujas_env.codecs import MODIFIER_LIST, SLOTS, TIMING_LIST
from granujas_env.engine import Game, GameConfig
from granujas_env.engine import actions as A
from granujas_env.env import raw_env
from granujas_env.view import PUBLIC_EVENTS, seat_view
from train.single_seat import SingleSeatEnv


def _feed(h: Any, value: object) -> None:
    """Hash ``value`` with its types, so that 0 and 0.0, or an int64 and an int32 array, differ."""
    if isinstance(value, np.ndarray):
        h.update(f"array {value.dtype} {value.shape}".encode())
        h.update(np.ascontiguousarray(value).tobytes())
    elif isinstance(value, dict):
        h.update(b"{")
        for key, item in value.items():
            _feed(h, key)
            _feed(h, item)
        h.update(b"}")
    elif isinstance(value, (list, tuple)):
        h.update(f"{type(value).__name__}[".encode())
        for item in value:
            _feed(h, item)
        h.update(b"]")
    else:
        h.update(f"{type(value).__name__}:{value!r};".encode())


def stream_digest(players: int, length: str, cards: bool, seed: int) -> str:
    """A hash of everything the AEC env shows at every step of one game of random legal moves:
    every seat's observation and mask, every info, the rewards, flags and the selected agent."""
    env = raw_env(
        num_players=players,
        game_length=length,
        strategy_cards=cards,
        reward="win" if seed % 2 else "score",
    )
    env.reset(seed=seed)
    rng = random.Random(seed)
    h = hashlib.sha256()
    for agent in env.agent_iter(10_000):
        _feed(h, agent)
        for other in env.agents:
            _feed(h, [env.observe(other), env.infos[other], env.rewards[other]])
        _feed(h, [env._cumulative_rewards, env.terminations, env.truncations])
        if env.terminations[agent]:
            env.step(None)
        else:
            env.step(rng.choice(env.game.legal_actions()))
    return h.hexdigest()[:16]


# Recorded with the plain encoder and infos (before the fast paths): any change of the encoding,
# the infos or the rules changes them. To re-record after such a change, on purpose:
# print(stream_digest(*key)) for each key.
RECORDED = {
    (2, "short", False, 1): "c764bbb5c3f6f283",
    (2, "long", True, 2): "b07cde791b142321",  # an «Al contratar» Granuja used once a turn
    (3, "short", True, 3): "6e551c8daaff14e6",  # Reclutar marginados once a turn
    (3, "long", False, 4): "b9d53787628806ca",  # an «Al contratar» Granuja used once a turn
    (4, "short", False, 5): "d9d21aff12c2affb",  # end-of-day trigger order (2x)
    (4, "long", True, 6): "fad2ec08c0fd9cd2",  # end-of-day trigger order; Reclutar marginados once a turn
}


@pytest.mark.parametrize("key", sorted(RECORDED))
def test_observation_stream_is_unchanged(key: tuple) -> None:
    assert stream_digest(*key) == RECORDED[key]


def _expected_infos(env: raw_env) -> dict[str, dict]:
    """The info contract (granujas_env.env module docstring), built from the game."""
    game = env.game
    over = game.game_over
    acting = None if over else env.possible_agents[game.current_player]
    scores = game.scores if over else [0] * game.num_players
    return {
        agent: {
            "decision": game.stack[-1].kind if agent == acting else "",
            "game_over": over,
            "winner": -1 if game.winner is None else game.winner,
            "scores": np.array(scores, dtype=np.int64),
        }
        for agent in env.agents
    }


def _same(a: dict, b: dict) -> bool:
    return a.keys() == b.keys() and all(
        type(a[k]) is type(b[k])
        and (
            a[k].dtype == b[k].dtype and np.array_equal(a[k], b[k])
            if isinstance(a[k], np.ndarray)
            else a[k] == b[k]
        )
        for k in a
    )


@pytest.mark.parametrize(("players", "cards"), [(2, True), (4, False)])
def test_infos_follow_the_contract_and_are_never_mutated(players: int, cards: bool) -> None:
    env = raw_env(num_players=players, strategy_cards=cards)
    env.reset(seed=7)
    rng = random.Random(7)
    handed_out = []  # (info dict, a copy of its values when it was handed out)
    while not env.game.game_over:
        expected = _expected_infos(env)
        assert all(_same(env.infos[a], expected[a]) for a in env.agents)
        handed_out += [
            (info, {**info, "scores": info["scores"].copy()}) for info in env.infos.values()
        ]
        env.step(rng.choice(env.game.legal_actions()))
    expected = _expected_infos(env)
    assert all(_same(env.infos[a], expected[a]) for a in env.agents)
    assert expected[env.agents[0]]["scores"].tolist() == env.game.scores
    assert all(_same(info, values) for info, values in handed_out)
    # every agent's scores array is its own
    assert len({id(info["scores"]) for info in env.infos.values()}) == players


def test_legal_actions_of_a_lazy_observation_are_those_of_its_mask() -> None:
    encoded = []

    def encode() -> np.ndarray:
        encoded.append(1)
        return np.arange(3, dtype=np.float32)

    for legal in ([0], [3, 17, 40], [40, 3, 17, 3], list(range(A.NUM_ACTIONS))):
        lazy = LazyObservation(legal, A.NUM_ACTIONS, encode)
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask[legal] = 1
        fast, plain = legal_actions(lazy), legal_actions({"action_mask": mask})
        assert fast.dtype == plain.dtype and fast.tolist() == plain.tolist()
        assert np.array_equal(lazy["action_mask"], mask) and lazy["action_mask"].dtype == np.int8
    assert not encoded  # legal ids and masks never encode the observation
    assert (
        lazy["observation"].tolist() == [0.0, 1.0, 2.0]
        and lazy["observation"] is lazy["observation"]
    )
    assert encoded == [1]
    assert list(lazy) == ["observation", "action_mask"] and len(lazy) == 2
    with pytest.raises(KeyError):
        lazy["mask"]
    empty = LazyObservation([], A.NUM_ACTIONS, encode)
    with pytest.raises(ValueError, match="no legal action"):
        legal_actions(empty)


def test_bots_of_the_single_seat_env_see_the_env_observation() -> None:
    """An opponent reading everything: its lazy observation is the AEC env's own."""
    checked = []

    def reader(observation, view=None) -> int:
        env = training.env
        own = env.observe(env.agent_selection)
        assert np.array_equal(observation["observation"], own["observation"])
        assert np.array_equal(observation["action_mask"], own["action_mask"])
        legal = legal_actions(observation)
        assert legal.tolist() == np.flatnonzero(own["action_mask"]).tolist()
        checked.append(1)
        return int(legal[len(checked) % len(legal)])

    training = SingleSeatEnv(num_players=(2, 3), decisions="bluff", opponents=[reader], seed=3)
    training.reset(seed=3)
    for _ in range(30):
        mask = training.action_masks()
        _, _, done, _, _ = training.step(int(np.flatnonzero(mask)[0]))
        if done:
            training.reset()
    assert len(checked) > 30


def test_granuja_table_holds_each_card_pair_features() -> None:
    env = raw_env()
    layout, catalog = env.layout, env.catalog
    occupations, traits = layout.occupation_ids, layout.trait_ids
    base = 2 + len(occupations) + len(traits)  # slot icons, then timing, arrows, cost, tech
    for o, occ_card in enumerate(catalog.occupation_cards):
        for t, trait_card in enumerate(catalog.trait_cards):
            vec = layout.granuja_vector(o, t)
            trait = trait_card.trait
            ones = {0, 2 + occupations.index(occ_card.occupation.id)}
            ones.add(2 + len(occupations) + traits.index(trait.id))
            ones |= {base + slot - 1 for slot in trait_card.slots}
            timing = base + SLOTS
            ones.add(timing + TIMING_LIST.index(trait.timing))
            arrows = timing + len(TIMING_LIST)
            ones |= {arrows + k for k, side in enumerate(("left", "right")) if side in trait.arrows}
            cost = arrows + 2
            mods = cost + 2
            ones |= {mods + k for k, m in enumerate(MODIFIER_LIST) if m in trait.modifiers}
            expected = np.zeros(layout.granuja_size, dtype=np.float32)
            expected[sorted(ones)] = 1.0
            expected[cost] = max(0, trait_card.cost - occ_card.bullet_holes) / 5.0
            expected[cost + 1] = (occ_card.tech + trait_card.tech) / 3.0
            assert vec.tobytes() == expected.tobytes(), (o, t)
            assert not vec.flags.writeable


def test_view_fields_of_the_game_logs_follow_the_game() -> None:
    """Declared slots, known card values and public events, kept per game while its logs only
    grow, are those read from the game at every step, in copies of the game (their own logs,
    played on differently) too."""
    peeked = reveals = 0
    for seed, players, length, cards in ((31, 4, "long", True), (32, 3, "long", False)):
        rng = random.Random(seed)
        games = [Game(GameConfig(players, length, cards), seed=seed)]
        steps = 0
        while not all(game.game_over for game in games):
            for game in games:
                for seat in range(players):
                    view = seat_view(game, seat, lazy=True)
                    assert view.declared == tuple(
                        tuple(tuple(slot for slot, _ in cards) for cards in by_seat)
                        for by_seat in game.played_log
                    )
                    assert view.known_cards == tuple(game.known_card_values(seat))
                    assert view.history == tuple(
                        e for e in game.history if e and e[0] in PUBLIC_EVENTS
                    )
                if not game.game_over:
                    game.apply(rng.choice(game.legal_actions()))
            steps += 1
            if steps in (150, 400):
                games.append(copy.deepcopy(games[0]))
            peeked += sum(bool(p.peeked) for p in games[0].players)
            reveals += bool(games[0].reveals)
    assert peeked and reveals  # the known values came from peeks and reveals too
