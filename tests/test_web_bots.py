"""The browser server's seats: every offered bot plays a whole game, a failing bot is replaced (and
said), secret deals, forced single choices and auto-pass answered by the server."""

from __future__ import annotations

import logging
import os
import random

import pytest

try:
    from starlette.testclient import TestClient
except ImportError:  # pragma: no cover - CI installs the [web] extra
    if os.environ.get("CI"):
        raise
    pytest.skip("the [web] extra is not installed (pip install -e '.[web]')",
                allow_module_level=True)

from agents.base import Agent, legal_ids
from agents.registry import REGISTRY, ask, make
from granujas_env.engine import actions as A
from granujas_env.env import raw_env
from granujas_env.record import loads
from granujas_env.web import create_app
from granujas_env.web.server import (
    FALLBACK_BOT,
    HUMAN,
    SECRET_SEED_BITS,
    RateLimit,
    bot_seed,
    seat_choices,
)


@pytest.fixture()
def client(tmp_path):
    app = create_app(record_dir=tmp_path, rate=RateLimit(1000, 1.0))
    with TestClient(app) as c:
        yield c


def _create(client, seats, **more):
    r = client.post("/api/games", json={"seats": seats, **more})
    assert r.status_code == 201, r.text
    data = r.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if s["human"]}
    return data["game"], tokens, client.app.state.games[data["game"]]


def _play_out(client, gid, tokens, pick=lambda menu: menu[0]["id"]):
    """Every human seat answers ``pick(menu)`` until the game ends; returns the responses' texts
    and the number of answers."""
    texts, answers = [], 0
    states = {seat: client.get(f"/api/games/{gid}", headers={"X-Seat-Token": t})
              for seat, t in tokens.items()}
    texts += [r.text for r in states.values()]
    state = next(r.json() for r in states.values())
    while not state["game_over"]:
        seat = state["decision"]["player"]
        headers = {"X-Seat-Token": tokens[seat]}
        if state["seat"] != seat:
            r = client.get(f"/api/games/{gid}", headers=headers)
            texts.append(r.text)
            state = r.json()
        assert state["acting"] and len(state["menu"]) >= 2  # a forced choice is never asked
        r = client.post(f"/api/games/{gid}/actions", headers=headers,
                        json={"action": pick(state["menu"]), "decision": state["decision_id"]})
        assert r.status_code == 200, r.text
        texts.append(r.text)
        state = r.json()
        answers += 1
        assert answers < 2000
    return texts, answers


OFFERED_BOTS = [name for name in seat_choices() if name != HUMAN]


def test_the_lobby_offers_the_search_bot_and_the_shipped_models():
    assert {"ismcts", "safe_search", "heuristic", "random"} <= set(OFFERED_BOTS)
    assert "llm" not in OFFERED_BOTS and "human" not in OFFERED_BOTS


@pytest.mark.parametrize("bot", OFFERED_BOTS)
def test_every_offered_bot_plays_a_whole_game(client, bot):
    # the bot moves first, so that creating the game already asks it (a 500 there once)
    gid, tokens, web = _create(client, [bot, HUMAN], seed=1)
    client.post(f"/api/games/{gid}/settings", json={"auto_pass": True},
                headers={"X-Seat-Token": tokens[1]})
    _play_out(client, gid, tokens)
    assert web.game.game_over and web.players == [bot, HUMAN]
    assert web.notices and all(audience == 1 for audience, _ in web.notices)  # no bot failed


def test_search_bots_at_a_four_player_table_with_two_humans(client):
    gid, tokens, web = _create(client, ["ismcts", HUMAN, "safe_search", HUMAN])
    _play_out(client, gid, tokens, pick=lambda menu: menu[-1]["id"])
    assert web.game.game_over and web.players[0] == "ismcts" and web.players[2] == "safe_search"
    assert not [text for audience, text in web.notices if audience is None]


def test_registry_ask_hands_the_game_to_search_bots_only():
    env = raw_env(num_players=2)
    env.reset(seed=3)
    seen = {}

    class Spy(Agent):
        needs_game = False

        def act(self, observation, view=None, **more):
            seen[self.needs_game] = (view, more)
            return legal_ids(observation)[0]

    spy, searcher = Spy(), Spy()
    searcher.needs_game = True
    seat = env.game.decision.player
    obs = env.observe(env.possible_agents[seat])
    assert ask(spy, obs, env.game) == ask(searcher, obs, env.game) == env.game.legal_actions()[0]
    assert seen[False][1] == {} and seen[True][1] == {"game": env.game}
    assert seen[False][0].seat == seat and seen[False][0].hand == tuple(sorted(
        env.game.players[seat].hand))
    # the search bot through ask plays a whole game (its act needs the game: a bare act fails)
    bots = [make("ismcts", seed=0), make("random", seed=1)]
    with pytest.raises(ValueError, match="needs the game"):
        bots[0].act(obs, view=None)
    steps = 0
    while not env.game.game_over:
        s = env.game.decision.player
        env.step(ask(bots[s], env.observe(env.possible_agents[s]), env.game))
        steps += 1
    assert steps > 50


class _Broken(Agent):
    """Raises at its third decision; its error message names a hidden card."""

    name = "broken"
    wants_view = False

    def __init__(self, seed=None, illegal=False):
        self.calls = 0
        self.illegal = illegal

    def act(self, observation, view=None):
        self.calls += 1
        if self.calls < 3:
            return legal_ids(observation)[0]
        if self.illegal:
            return 10_000
        raise RuntimeError("secret: the Safe holds a 7")


@pytest.mark.parametrize("illegal", [False, True])
def test_a_failing_bot_is_replaced_said_to_every_seat_and_logged(client, monkeypatch, caplog,
                                                                  illegal):
    monkeypatch.setitem(REGISTRY, "broken", lambda seed=None: _Broken(seed, illegal))
    with caplog.at_level(logging.ERROR, logger="granujas_env.web"):
        gid, tokens, web = _create(client, [HUMAN, "broken", HUMAN])
        _play_out(client, gid, tokens)
    assert web.game.game_over and web.players[1] == FALLBACK_BOT
    said = f"p1 broken failed (the server logged why); {FALLBACK_BOT} plays that seat from now on."
    for token in tokens.values():
        state = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        assert said in state["notices"]
        assert state["players"][1]["name"] == f"p1 broken (then {FALLBACK_BOT})"
        assert "secret" not in str(state["notices"])  # the exception's text stays in the log
    logged = "\n".join(r.getMessage() + (r.exc_text or "") for r in caplog.records)
    assert "bot 'broken' at seat 1" in logged
    assert ("10000" in logged) if illegal else ("the Safe holds a 7" in logged)
    record = loads(client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": tokens[0]}).text)
    assert record.meta["agents"][1] == f"p1 broken (then {FALLBACK_BOT})"


def test_a_failing_stand_in_gives_way_to_the_random_bot(client, monkeypatch):
    monkeypatch.setitem(REGISTRY, "broken", _Broken)
    monkeypatch.setitem(REGISTRY, FALLBACK_BOT, _Broken)
    gid, tokens, web = _create(client, [HUMAN, "broken"], seed=2)
    _play_out(client, gid, tokens)
    assert web.game.game_over and web.players[1] == "random"
    assert [t for a, t in web.notices if a is None] == [
        f"p1 broken failed (the server logged why); {FALLBACK_BOT} plays that seat from now on.",
        f"p1 {FALLBACK_BOT} failed (the server logged why); random plays that seat from now on.",
    ]


# ------------------------------------------------------------------------------ secret deals
def test_a_chosen_seed_needs_a_single_human_seat(client):
    r = client.post("/api/games", json={"seats": [HUMAN, "random", HUMAN], "seed": 12345})
    assert r.status_code == 400 and "one human seat only" in r.json()["error"]
    assert not client.app.state.games
    gid, _, web = _create(client, [HUMAN, "random", "heuristic"], seed=12345)
    assert web.game.seed == 12345 and web.seed_chosen


def test_server_seeds_are_secret_wide_and_bots_seeds_are_hashed(client, monkeypatch):
    seeds = []
    for _ in range(6):
        _, _, web = _create(client, [HUMAN, "random", HUMAN])
        seeds.append(web.game.seed)
        assert not web.seed_chosen
    assert len(set(seeds)) == 6 and max(seeds).bit_length() > 64
    assert max(seeds) < 2**SECRET_SEED_BITS
    made = []
    real = REGISTRY["random"]
    monkeypatch.setitem(REGISTRY, "random", lambda seed=None: made.append(seed) or real(seed=seed))
    _, _, web = _create(client, ["random", HUMAN, "random"], seed=7)
    assert made == [bot_seed(7, 0), bot_seed(7, 2)]
    assert bot_seed(7, 0) not in (7, 8) and bot_seed(7, 0) != bot_seed(7, 2) < 2**63
    assert bot_seed(7, 0) == bot_seed(7, 0) != bot_seed(8, 0)


def test_the_seed_of_a_game_in_progress_is_in_no_response(client):
    """Every endpoint's answers while a multi-human game is on: the seed's digits never appear
    (a 128-bit seed's 30-odd digits cannot appear by chance); after the end the replay shows
    it."""
    gid, tokens, web = _create(client, [HUMAN, "heuristic", HUMAN, "ismcts"], public=True)
    seed = str(web.game.seed)
    assert len(seed) >= 20
    h0 = {"X-Seat-Token": tokens[0]}
    texts = [
        client.get("/api/options").text,
        client.get("/api/records").text,
        client.get(f"/api/games/{gid}/record", headers=h0).text,  # refused: not over
        client.post("/api/replays", json={"game": gid, "token": tokens[0]}).text,  # refused
        client.post(f"/api/games/{gid}/settings", json={"auto_pass": False}, headers=h0).text,
        client.post(f"/api/games/{gid}/actions", json={"action": 0}, headers=h0).text,
    ]
    rng = random.Random(0)
    played, answers = _play_out(client, gid, tokens, pick=lambda menu: rng.choice(menu)["id"])
    assert answers > 20
    for text in texts + played[:-1]:
        assert seed not in text
    assert web.game.game_over and seed not in played[-1]  # the last answer: game over, no seed
    r = client.post("/api/replays", json={"game": gid, "token": tokens[2]})
    assert r.status_code == 201
    assert r.json()["seed"] == seed and r.json()["seed_source"] == "secret, chosen by the server"
    step = client.get(f"/api/replays/{r.json()['replay']}/steps/0").json()
    assert step["seed"] == seed


def test_a_chosen_seed_is_shown_in_the_replay(client):
    gid, tokens, web = _create(client, [HUMAN, "random"], seed=4242)
    _play_out(client, gid, tokens)
    r = client.post("/api/replays", json={"game": gid, "token": tokens[0]})
    assert (r.json()["seed"], r.json()["seed_source"]) == ("4242", "chosen by the player")


# ------------------------------------------------------------------------------ automatic answers
def test_auto_pass_answers_the_seats_challenge_windows(client):
    gid, tokens, web = _create(client, [HUMAN, "heuristic", "random"], seed=3)
    headers = {"X-Seat-Token": tokens[0]}
    r = client.post(f"/api/games/{gid}/settings", json={"auto_pass": "yes"}, headers=headers)
    assert r.status_code == 400 and "true or false" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/settings", json={"auto_pass": True}, headers=headers)
    assert r.status_code == 200 and r.json()["auto_pass"] is True
    kinds = []
    state = r.json()
    while not state["game_over"]:
        assert state["acting"]
        kinds.append(state["decision"]["kind"])
        state = client.post(f"/api/games/{gid}/actions", headers=headers,
                            json={"action": state["menu"][0]["id"]}).json()
    assert "challenge" not in kinds and "plan_card" in kinds
    passes = [t for a, t in web.notices if a == 0 and t.startswith("auto-pass: ")]
    challenges = [e for e in web.game.history if e[0] == "challenge" and e[2] == 0]
    assert passes and not challenges
    assert web.actions.count(A.PASS) >= len(passes)


def test_forced_choices_are_played_and_said_to_their_seat_only(client):
    gid, tokens, web = _create(client, [HUMAN, "random", HUMAN])
    _play_out(client, gid, tokens)
    forced = [(a, t) for a, t in web.notices if t.startswith("your only choice, played for you: ")]
    assert forced and {a for a, _ in forced} <= {0, 2}
    for seat, token in tokens.items():
        notices = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()["notices"]
        assert notices == [t for a, t in web.notices if a in (None, seat)][-100:]
