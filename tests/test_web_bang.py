"""The browser server playing Bang! The Dice Game: the lobby offers both games, no hidden role in
any response (roles permuted, answers identical), secret deals, refused requests change nothing,
every Bang! bot seated, a failing bot replaced, records and replays."""

from __future__ import annotations

import json
import logging
import os
import random
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

try:
    from starlette.testclient import TestClient
except ImportError:  # pragma: no cover - CI installs the [web] extra
    if os.environ.get("CI"):
        raise
    pytest.skip("the [web] extra is not installed (pip install -e '.[web]')",
                allow_module_level=True)

from agents.bang_dice import BOTS, BangHeuristic
from agents.random_agent import RandomAgent
from agents.registry import REGISTRY, available, make
from granujas_env import games
from granujas_env.bang_dice.engine import actions as A
from granujas_env.bang_dice.engine.data import CHARACTERS
from granujas_env.bang_dice.engine.game import BangConfig, BangGame
from granujas_env.bang_dice.prompts import PROMPTS, TEXT
from granujas_env.bang_dice.view import seat_view
from granujas_env.core.snapshot import digest, state_dict
from granujas_env.record import loads, record_game
from granujas_env.web import create_app
from granujas_env.web.bang_state import help_json, public_json, seat_json
from granujas_env.web.kinds import KINDS
from granujas_env.web.server import HUMAN, SECRET_SEED_BITS, RateLimit, bot_seed

GAME = "bang-dice"
SERVER_KEYS = ("game", "final", "notices", "auto_pass")  # what the server adds to the seat JSON


@pytest.fixture()
def client(tmp_path):
    app = create_app(record_dir=tmp_path, rate=RateLimit(1000, 1.0))
    with TestClient(app) as c:
        yield c


def _create(client, seats, **more):
    r = client.post("/api/games", json={"game": GAME, "seats": seats, **more})
    assert r.status_code == 201, r.text
    data = r.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if s["human"]}
    return data["game"], tokens, client.app.state.games[data["game"]]


def _state(web) -> str:
    return digest(state_dict(web.game, frozenset({"config", "_legal_cache", "_rng_shared"})))


def _hidden_from(game: BangGame, seat: int) -> list[int]:
    """The seats whose roles ``seat`` may not know now."""
    return [s for s in range(game.num_players)
            if s != seat and not game.role_revealed[s] and not game.game_over]


def _permuted(game: BangGame, seat: int, rng: random.Random) -> BangGame:
    """A copy of ``game`` with the roles ``seat`` may not know shuffled among their seats."""
    other = game.clone()
    hidden = _hidden_from(game, seat)
    roles = [other.roles[s] for s in hidden]
    rng.shuffle(roles)
    for s, role in zip(hidden, roles):
        other.roles[s] = role
    return other


# ------------------------------------------------------------------------------ the lobby
def test_the_registry_finds_each_games_bots():
    assert available() == sorted(REGISTRY)  # granujas' bots, as before
    assert available(game=GAME) == ["expectimax", "heuristic", "human", "llm", "random", "rollout", "tuned", "valued"]  # + every game's bots
    bot = make("heuristic", game=GAME, seed=3)
    assert isinstance(bot, BangHeuristic) and bot.seed == 3
    assert type(make("random", game=GAME)) is RandomAgent
    assert type(make("heuristic")) is REGISTRY["heuristic"]
    with pytest.raises(ValueError, match="unknown Bang! bot 'ismcts'"):
        make("ismcts", game=GAME)
    with pytest.raises(ValueError, match="unknown game 'chess'"):
        available(game="chess")


def test_the_lobby_offers_both_games_with_their_seats_and_bots(client):
    options = client.get("/api/options").json()
    offered = {g["name"]: g for g in options["games"]}
    assert set(offered) == set(games.GAMES) == set(KINDS)
    bang = offered[GAME]
    assert (bang["players"], bang["default_players"]) == ([3, 8], 5)
    assert bang["seats"] == [HUMAN, *sorted(BOTS)] and bang["default_bot"] == "heuristic"
    assert offered["granujas"]["players"] == [2, 4]
    assert options["seats"] == offered["granujas"]["seats"]  # the default game's, as before
    assert bang["help"] == help_json()
    assert [c["name"] for c in bang["help"]["characters"]] == [c.name for c in CHARACTERS.values()]
    assert len(bang["help"]["characters"]) == 16 and len(bang["help"]["faces"]) == 6


@pytest.mark.parametrize(("body", "words"), [
    ({"seats": [HUMAN, "heuristic"]}, "3 to 8 names"),
    ({"seats": [HUMAN] + ["random"] * 8}, "3 to 8 names"),
    ({"seats": [HUMAN, "ismcts", "random"]}, "unknown player"),
    ({"seats": ["random", "random", "heuristic"]}, "at least one seat"),
    ({"seats": [HUMAN, "random", "random"], "length": "short"}, "unknown field"),
    ({"seats": [HUMAN, "random", "random"], "strategy_cards": True}, "unknown field"),
    ({"seats": [HUMAN, HUMAN, "random"], "seed": 5}, "one human seat only"),
])
def test_bang_creation_is_validated(client, body, words):
    r = client.post("/api/games", json={"game": GAME, **body})
    assert r.status_code == 400 and words in r.json()["error"], r.text
    assert not client.app.state.games


@pytest.mark.parametrize("game", ["chess", 3, ["bang-dice"], None])
def test_an_unknown_game_is_refused(client, game):
    r = client.post("/api/games", json={"game": game, "seats": [HUMAN, "random", "random"]})
    assert r.status_code == 400 and "game must be one of" in r.json()["error"]


# ------------------------------------------------------------------------------ secrecy
@pytest.mark.parametrize("secret", [2**100 + 12345, 2**90 + 7])
def test_no_hidden_role_in_any_response_of_a_two_human_game(client, monkeypatch, secret):
    """A 5-player game, 2 humans: every answer to a seat equals the answer built from the same
    game with the roles that seat may not know shuffled, names none of them, and the seed is in
    none. (The server's secret seed is fixed here so that the game is the same at every run.)"""
    monkeypatch.setattr("granujas_env.web.server.secrets.randbits", lambda bits: secret)
    gid, tokens, web = _create(client, [HUMAN, "heuristic", HUMAN, "random", "heuristic"])
    seed = str(web.game.seed)
    assert seed == str(secret)
    rng = random.Random(1)
    checked = hidden_checked = 0
    while True:
        for seat, token in tokens.items():
            text = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).text
            assert seed not in text
            sent = json.loads(text)
            game = web.game
            for s in _hidden_from(game, seat):
                assert sent["players"][s]["role"] is None
                hidden_checked += 1
            assert sent["role"] == game.roles[seat]
            assert sent["players"][game.sheriff]["role"] == "sheriff"
            decision_id = web.decision_id if sent["acting"] else None
            for _ in range(2):
                other = _permuted(game, seat, rng)
                expected = seat_json(seat_view(other, seat), web.names, decision_id)
                assert {k: v for k, v in sent.items() if k not in SERVER_KEYS} == expected
            if not game.game_over:
                public = public_json(game, web.names)
                assert public_json(_permuted(game, 0, rng), web.names) == public_json(
                    _permuted(game, 2, rng), web.names) == public
            checked += 1
        if web.game.game_over:
            break
        seat = web.game.decision.player
        menu = json.loads(client.get(f"/api/games/{gid}",
                                     headers={"X-Seat-Token": tokens[seat]}).text)["menu"]
        r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[seat]},
                        json={"action": rng.choice(menu)["id"]})
        assert r.status_code == 200 and seed not in r.text
    assert checked >= 40 and hidden_checked >= 90
    assert sent["final"]["roles"] == web.game.roles  # revealed at the end only


def test_the_permutation_check_can_fail():
    """The check above sees a role: a seat's own role and a revealed one are in its JSON."""
    game = BangGame(BangConfig(5), 3)
    names = [f"p{i}" for i in range(5)]
    seat = next(s for s in range(5) if game.roles[s] != "sheriff")
    other = game.clone()
    swap = next(s for s in range(5) if s != seat and game.roles[s] not in (
        "sheriff", game.roles[seat]))
    other.roles[seat], other.roles[swap] = other.roles[swap], other.roles[seat]
    assert seat_json(seat_view(other, seat), names) != seat_json(seat_view(game, seat), names)
    assert seat_json(seat_view(other, swap), names) != seat_json(seat_view(game, swap), names)


def test_public_json_shows_only_revealed_roles_and_no_menu():
    game = BangGame(BangConfig(6), 11)
    public = public_json(game, [f"p{i}" for i in range(6)])
    assert [p["role"] for p in public["players"]] == [
        "sheriff" if s == game.sheriff else None for s in range(6)]
    assert (public["seat"], public["role"], public["goal"], public["menu"],
            public["acting"], public["decision_id"]) == (None, None, None, [], False, None)


def test_server_seeds_are_secret_and_bots_seeds_hashed(client, monkeypatch):
    seeds = [_create(client, [HUMAN, "random", HUMAN])[2].game.seed for _ in range(4)]
    assert len(set(seeds)) == 4 and max(seeds).bit_length() > 64
    assert max(seeds) < 2**SECRET_SEED_BITS
    made = []
    real = BOTS["random"]
    monkeypatch.setitem(BOTS, "random", lambda seed=None: made.append(seed) or real(seed=seed))
    _, _, web = _create(client, ["random", HUMAN, "random"], seed=7)
    assert web.game.seed == 7 and web.seed_chosen
    assert made == [bot_seed(7, 0), bot_seed(7, 2)]


# ------------------------------------------------------------------------------ refusals
def test_refused_requests_change_nothing(client):
    gid, tokens, web = _create(client, [HUMAN, "heuristic", "heuristic", "random"], seed=2)
    url = f"/api/games/{gid}"
    h = {"X-Seat-Token": tokens[0]}
    assert web.game.decision.player == 0  # the bots played until the human's decision
    before = (_state(web), len(web.actions), web.decision_id)
    legal = web.game.legal_actions()
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
    for body, headers, status, words in [
        ({"action": legal[0]}, {}, 403, "missing seat token"),
        ({"action": legal[0]}, {"X-Seat-Token": "nope"}, 403, "not a seat"),
        ({"action": illegal}, h, 422, "not a legal action"),
        ({"action": "0"}, h, 400, "must be an integer"),
        ({"action": legal[0], "decision": "old"}, h, 409, "already been answered"),
        ({"action": legal[0], "extra": 1}, h, 400, "unknown field"),
    ]:
        r = client.post(url + "/actions", json=body, headers=headers)
        assert r.status_code == status and words in r.json()["error"], (body, r.text)
    r = client.post(url + "/actions", json={"action": illegal}, headers=h)
    assert r.json()["legal"] == legal
    r = client.post(url + "/settings", json={"auto_pass": True}, headers=h)
    assert r.status_code == 400 and "no table settings" in r.json()["error"]
    assert client.get(url + "/record", headers=h).status_code == 409
    assert (_state(web), len(web.actions), web.decision_id) == before


def test_a_seat_waiting_for_another_is_refused(client):
    gid, tokens, web = _create(client, [HUMAN, HUMAN, "random"])
    deciding = web.game.decision.player
    waiting = 1 - deciding
    before = _state(web)
    r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[waiting]},
                    json={"action": web.game.legal_actions()[0]})
    assert r.status_code == 409 and "not your decision" in r.json()["error"]
    state = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[waiting]}).json()
    assert state["menu"] == [] and state["decision_id"] is None and not state["acting"]
    assert state["prompt"].startswith(f"Waiting for p{deciding} human: ")
    assert _state(web) == before


# ------------------------------------------------------------------------------ the table
def test_kept_and_locked_dice_and_the_plain_menu():
    """A reroll of die 0 only: dice 1-4 are kept, dynamite is locked (not for Black Jack); the
    menu is the Bang! text interface's (the terminal's and the language models')."""
    game = BangGame.from_position({
        "roles": ["sheriff", "outlaw", "outlaw", "renegade", "deputy"],
        "characters": ["paul_regret", "black_jack", "el_gringo", "jourdonnais", "rose_doolan"],
        "dice": ["beer", "dynamite", "1", "2", "gatling"], "rolls": [["beer"]],
    })
    names = [f"p{i}" for i in range(5)]
    first = seat_json(seat_view(game, 0), names, "d1")
    assert [(d["face"], d["kept"], d["locked"]) for d in first["dice"]] == [
        ("beer", False, False), ("dynamite", False, True), ("1", False, False),
        ("2", False, False), ("gatling", False, False)]
    assert first["menu"] == [item._asdict() for item in TEXT.menu(seat_view(game, 0))]
    menu = {m["id"]: m["meaning"] for m in first["menu"]}
    assert menu[A.STOP].startswith("keep all and resolve")
    assert menu[0b10001] == "reroll dice 1, 5 (BEER, GATLING)"
    assert all(not m >> 1 & 1 for m in menu)  # the dynamite die is never offered
    assert first["rerolls_left"] == 2 and first["rolls_done"] == 1 and first["decision_id"] == "d1"
    assert first["goal"].startswith("You are the Sheriff: ")
    game.apply(0b00001)
    again = seat_json(seat_view(game, 0), names)
    assert [d["kept"] for d in again["dice"]] == [False, True, True, True, True]
    assert again["rerolls_left"] == 1 and again["events"][-1] == "p0 rerolls: [beer] dynamite 1 2 gatling"


def test_targets_in_the_text_interfaces_words_name_the_seat_and_character():
    game = BangGame.from_position({
        "roles": ["sheriff", "outlaw", "outlaw", "renegade", "deputy"],
        "characters": ["paul_regret", "black_jack", "el_gringo", "jourdonnais", "rose_doolan"],
        "dice": ["1", "dynamite", "dynamite", "arrow", "arrow"],
    })
    game.apply(A.STOP)
    view = seat_view(game, 0)
    assert view.decision == "shoot"
    out = seat_json(view, [f"p{i}" for i in range(5)])
    assert [(m["name"], m["meaning"].split(" (")[0]) for m in out["menu"]] == [
        ("p1", "shoot p1"), ("p4", "shoot p4")]
    assert "Black Jack" in out["menu"][0]["meaning"] and "Rose Doolan" in out["menu"][1]["meaning"]
    assert out["prompt"] == "Your move: " + PROMPTS["shoot"].format(die=1, face="ONE")
    assert out["decision"]["question"] == PROMPTS["shoot"].format(die=1, face="ONE")


# ------------------------------------------------------------------------------ bots
@pytest.mark.parametrize("bot", sorted(BOTS))
def test_every_bang_bot_plays_whole_games(client, bot, monkeypatch):
    if bot == "rollout":
        # the web seats the same bot whatever its budget: 1 playout a decision, not 16, keeps
        # seven of them at an 8-player table to seconds (16 took six minutes of CI)
        real = BOTS["rollout"]
        monkeypatch.setitem(BOTS, "rollout", lambda seed=None: real(seed=seed, rollouts=1))
    for players in (3, 8):
        gid, tokens, web = _create(client, [bot] * (players - 1) + [HUMAN])
        while not web.game.game_over:
            seat = web.game.decision.player
            assert seat == players - 1
            r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[seat]},
                            json={"action": web.game.legal_actions()[-1]})
            assert r.status_code == 200
        assert web.players == [bot] * (players - 1) + [HUMAN] and not web.notices


def test_a_failing_bot_is_replaced_by_the_heuristic_then_random(client, monkeypatch, caplog):
    def broken(seed=None):
        bot = BOTS["heuristic"](seed=seed)
        bot.act = lambda observation, view=None: 1 / 0
        return bot

    monkeypatch.setitem(BOTS, "broken", broken)
    with caplog.at_level(logging.ERROR, logger="granujas_env.web"):
        gid, tokens, web = _create(client, ["broken", HUMAN, "random"], seed=4)
        while not web.game.game_over:
            r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[1]},
                            json={"action": web.game.legal_actions()[0]})
            assert r.status_code == 200
    assert web.players == ["heuristic", HUMAN, "random"]
    assert "p0 broken failed (the server logged why); heuristic plays that seat from now on." in [
        text for _, text in web.notices]
    assert "bot 'broken' at seat 0 raised" in caplog.text
    state = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[1]}).json()
    assert state["notices"][0].startswith("p0 broken failed")


# ------------------------------------------------------------------------------ records, replays
def test_a_finished_game_gives_its_record_and_replay(client, tmp_path):
    gid, tokens, web = _create(client, [HUMAN, "heuristic", "random", "heuristic"], public=True)
    rng = random.Random(5)
    while not web.game.game_over:
        seat = web.game.decision.player
        r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[seat]},
                        json={"action": rng.choice(web.game.legal_actions())})
        assert r.status_code == 200
    h = {"X-Seat-Token": tokens[0]}
    final = client.get(f"/api/games/{gid}", headers=h).json()
    assert final["game_over"] and final["menu"] == []
    assert final["final"]["roles"] == web.game.roles
    assert final["final"]["winners"] == sorted(web.game.winners)
    assert [p["role"] for p in final["players"]] == web.game.roles
    assert final["prompt"].startswith("The game is over: ")
    assert final["events"][-1].startswith("game over: ")
    text = client.get(f"/api/games/{gid}/record", headers=h).text
    record = loads(text)
    assert isinstance(record.config, BangConfig) and record.seed == web.game.seed
    assert record.actions == web.actions and record.meta["agents"] == web.names
    assert web.saved is not None and web.saved.name == f"public-web-{gid}.json"
    assert client.get("/api/records").json()["records"] == [web.saved.name]

    r = client.post("/api/replays", json={"game": gid, "token": tokens[0]})
    assert r.status_code == 201
    summary = r.json()
    assert (summary["kind"], summary["steps"], summary["players"]) == (GAME, len(web.actions), 4)
    rid = summary["replay"]
    start = client.get(f"/api/replays/{rid}/steps/0").json()
    assert start["kind"] == GAME and start["seat"] is None and start["menu"] == []
    assert [p["role"] for p in start["players"]] == [
        r if r == "sheriff" else None for r in web.game.roles]
    seat1 = client.get(f"/api/replays/{rid}/steps/1?view=1").json()
    assert seat1["role"] == web.game.roles[1]
    mover, decision, _ = client.app.state.replays[rid].steps[0]
    # the seat's name and the decision in words, never the engine's identifier
    assert seat1["last_action"].startswith(f"{web.names[mover]} ({decision.replace('_', ' ')}): ")
    end = client.get(f"/api/replays/{rid}/steps/{len(web.actions)}").json()
    assert end["game_over"] and end["final"]["roles"] == web.game.roles
    assert client.get(f"/api/replays/{rid}/steps/1?view=4").status_code == 400
    # the saved file opens in the replayer too, from the list
    r = client.post("/api/replays", json={"file": web.saved.name})
    assert r.status_code == 201 and r.json()["steps"] == len(web.actions)


def test_an_uploaded_bang_record_replays():
    game = BangGame(BangConfig(3), 9)
    actions = []
    rng = random.Random(0)
    while not game.game_over:
        actions.append(rng.choice(game.legal_actions()))
        game.apply(actions[-1])
    text = record_game(BangConfig(3), 9, actions, meta={"agents": ["a", "b", "c"]}).to_json()
    client = TestClient(create_app(rate=RateLimit(1000, 1.0)))
    r = client.post("/api/replays", json={"record": text})
    assert r.status_code == 201 and r.json()["names"] == ["a", "b", "c"]
    last = client.get(f"/api/replays/{r.json()['replay']}/steps/{len(actions)}?view=2").json()
    assert last["game_over"] and last["winners"] == sorted(game.winners)


# ------------------------------------------------------------------------------ hardening
class Clock:
    """A hand-moved clock for the idle timer."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_cross_site_and_non_json_requests_cannot_create_or_act(client):
    gid, tokens, web = _create(client, [HUMAN, "random", "random"])
    before = (_state(web), len(web.actions))
    h = {"X-Seat-Token": tokens[0]}
    body = {"action": web.game.legal_actions()[0]}
    for url, payload in (("/api/games", {"game": GAME, "seats": [HUMAN, "random", "random"]}),
                         (f"/api/games/{gid}/actions", body)):
        for headers, status in (({"Origin": "http://evil.example"}, 403),
                                ({"Sec-Fetch-Site": "cross-site"}, 403)):
            r = client.post(url, json=payload, headers={**h, **headers})
            assert r.status_code == status, r.text
        r = client.post(url, content=json.dumps(payload), headers={**h, "Content-Type": "text/plain"})
        assert r.status_code == 415
    assert list(client.app.state.games) == [gid] and (_state(web), len(web.actions)) == before


def test_a_full_server_refuses_bang_games_and_idle_ones_expire(tmp_path):
    clock = Clock()
    client = TestClient(create_app(record_dir=tmp_path, max_games=1, idle_s=60, clock=clock,
                                   rate=RateLimit(1000, 1.0)))
    gid, tokens, _ = _create(client, [HUMAN, "heuristic", "random"])
    r = client.post("/api/games", json={"game": GAME, "seats": [HUMAN, "random", "random"]})
    assert r.status_code == 503 and "the server is full" in r.json()["error"]
    clock.now += 59
    assert client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[0]}).status_code == 200
    clock.now += 61
    assert client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[0]}).status_code == 404
    _create(client, [HUMAN, "heuristic", "random"])


def test_creation_is_rate_limited_for_bang_too(tmp_path):
    client = TestClient(create_app(record_dir=tmp_path, rate=RateLimit(1, 60.0)))
    _create(client, [HUMAN, "random", "random"])
    r = client.post("/api/games", json={"game": GAME, "seats": [HUMAN, "random", "random"]})
    assert r.status_code == 429 and "too many new games" in r.json()["error"]


_FUZZ: dict = {}


@settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck))
@given(query=st.text(max_size=30), step=st.text(max_size=12), body=st.dictionaries(
    st.sampled_from(["game", "seats", "seed", "public", "length", "action", "decision",
                     "auto_pass", "x"]),
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=12)
    | st.lists(st.sampled_from([HUMAN, "random", "heuristic", "ismcts", "", 3]), max_size=9),
    max_size=5))
def test_fuzzed_bang_requests_never_answer_5xx(tmp_path_factory, query, step, body):
    client = _FUZZ.get("client")
    if client is None:
        tmp = tmp_path_factory.mktemp("bang-fuzz")
        client = _FUZZ["client"] = TestClient(
            create_app(record_dir=tmp, rate=RateLimit(10**6, 1.0), max_games=10**6),
            raise_server_exceptions=False)
        gid, tokens, web = _create(client, [HUMAN, "random", "random", "heuristic"])
        while not web.game.game_over:
            client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[0]},
                        json={"action": web.game.legal_actions()[0]})
        replay = client.post("/api/replays", json={"game": gid, "token": tokens[0]}).json()
        live, live_tokens, _ = _create(client, [HUMAN, "random", "random"])
        _FUZZ["ids"] = (live, live_tokens[0], replay["replay"])
    live, token, rid = _FUZZ["ids"]
    headers = {"X-Seat-Token": token}
    responses = [
        client.get(f"/api/replays/{rid}/steps/{quote(step, safe='') or 'x'}",
                   params={"view": query}),
        client.post("/api/games", json={"game": GAME, **body}),
        client.post(f"/api/games/{live}/actions", json=body, headers=headers),
        client.post(f"/api/games/{live}/settings", json=body, headers=headers),
        client.get(f"/api/games/{live}", headers=headers),
    ]
    for r in responses:
        assert r.status_code < 500, (r.request.url, r.status_code, r.text[:300])
