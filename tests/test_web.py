"""The browser server (granujas_env.web): per-seat JSON without hidden information, refused
requests that leave the game unchanged, full games and replays through the API."""

from __future__ import annotations

import json
import os
import random

import pytest

from granujas_env.engine import GameConfig
from granujas_env.engine import actions as A
from granujas_env.engine.snapshot import digest
from granujas_env.record import loads, record_game
from granujas_env.view import seat_view

try:
    from starlette.testclient import TestClient
except ImportError:  # pragma: no cover - CI installs the [web] extra
    if os.environ.get("CI"):
        raise
    pytest.skip("the [web] extra is not installed (pip install -e '.[web]')",
                allow_module_level=True)

from hidden import hide_shuffle, random_midgame

from granujas_env.web import create_app
from granujas_env.web.__main__ import main as web_main
from granujas_env.web.server import MAX_BODY, Replay
from granujas_env.web.state import public_json, seat_json

NAMES = {2: ["a", "b"], 3: ["a", "b", "c"], 4: ["a", "b", "c", "d"]}


# ------------------------------------------------------------------------------ leaks
@pytest.mark.parametrize("seed", range(8))
def test_seat_json_is_blind_to_what_the_seat_may_not_know(seed):
    players = 2 + seed % 3
    game = random_midgame(seed, players, strategy=seed % 2 == 1)
    rng = random.Random(seed)
    for seat in range(players):
        mine = json.dumps(seat_json(seat_view(game, seat), NAMES[players], "d"))
        for _ in range(3):
            other = hide_shuffle(game, seat, rng)
            assert json.dumps(seat_json(seat_view(other, seat), NAMES[players], "d")) == mine
            if not game.game_over:
                assert json.dumps(public_json(other, NAMES[players])) == json.dumps(
                    public_json(game, NAMES[players]))


def test_seat_json_changes_with_what_the_seat_knows():
    """The test above can fail: the seat's own hand and the Safes it has seen are sent."""
    game, seat = next(
        (g, s) for g in (random_midgame(k, 3) for k in range(50)) for s in range(3)
        if g.players[s].hand and any(
            x.id in g.players[s].known_safes and (x.board_pos >= 0 or x.holder >= 0)
            for x in g.safes)
    )
    before = seat_json(seat_view(game, seat), NAMES[3])
    sent = {x["id"]: x["value"] for x in before["safes"]}
    assert sent == {x.id: x.value if x.id in game.players[seat].known_safes else None
                    for x in game.safes if x.id in sent}
    game.players[seat].hand[0] = (game.players[seat].hand[0] + 1) % 7
    seen = next(x for x in game.safes if x.id in game.players[seat].known_safes and x.id in sent)
    seen.value += 1
    after = seat_json(seat_view(game, seat), NAMES[3])
    assert after["hand"] != before["hand"]
    assert {x["id"]: x["value"] for x in after["safes"]}[seen.id] == sent[seen.id] + 1


def test_public_json_keeps_only_what_every_seat_knows():
    game = random_midgame(5, 4)
    public = public_json(game, NAMES[4])
    assert public["seat"] is None and public["hand"] == [] and public["menu"] == []
    assert all(s["value"] is None for s in public["safes"])
    for p in public["players"]:
        for card in p["played"]:
            if card["value"] is not None:  # face up, or revealed to the table by a challenge
                assert card["slot"] == 0 or (game.day - 1, p["seat"], card["slot"]) in {
                    r[:3] for r in game.reveals}


# ------------------------------------------------------------------------------ the API
@pytest.fixture()
def client(tmp_path):
    with TestClient(create_app(record_dir=tmp_path)) as c:
        yield c


def _new(client, seats, seed=3, length="short", **more):
    """A new game (``seed=None``: the server's secret seed, the only kind a game with several
    human seats may have) -> (id, {seat: token}, the server's WebGame)."""
    body = {"seats": seats, "length": length, **more}
    if seed is not None:
        body["seed"] = seed
    r = client.post("/api/games", json=body)
    assert r.status_code == 201, r.text
    data = r.json()
    tokens = {s["seat"]: s["token"] for s in data["seats"] if s["human"]}
    return data["game"], tokens, client.app.state.games[data["game"]]


def _play_first_actions(client, gid, tokens, web_game):
    """Every human picks the first menu item until the game ends; returns the last state."""
    state = None
    while not web_game.game.game_over:
        seat = web_game.game.decision.player
        headers = {"X-Seat-Token": tokens[seat]}
        if state is None or state["seat"] != seat:
            state = client.get(f"/api/games/{gid}", headers=headers).json()
        assert state["acting"] and state["menu"]
        r = client.post(f"/api/games/{gid}/actions", headers=headers,
                        json={"action": state["menu"][0]["id"], "decision": state["decision_id"]})
        assert r.status_code == 200, r.text
        state = r.json()
    return state


def test_server_json_is_the_seat_view_and_blind_to_hidden_information(client):
    gid, tokens, web_game = _new(client, ["human", "random", "heuristic"], seed=11)
    for _ in range(25):  # into the game: cards played, Safes peeked
        seat = web_game.game.decision.player
        state = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[seat]}).json()
        client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[seat]},
                    json={"action": state["menu"][-1]["id"]})
    sent = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[0]}).text
    expected = seat_json(seat_view(web_game.game, 0), web_game.names, web_game.decision_id)
    notices = [text for audience, text in web_game.notices if audience in (None, 0)]
    assert json.loads(sent) == {**expected, "game": gid, "final": None, "notices": notices,
                                "auto_pass": False}
    rng = random.Random(0)
    for _ in range(3):
        web_game.game = web_game.env.game = hide_shuffle(web_game.game, 0, rng)
        assert client.get(f"/api/games/{gid}", headers={"X-Seat-Token": tokens[0]}).text == sent


def test_requests_with_wrong_tokens_or_out_of_turn_are_refused(client):
    gid, tokens, web_game = _new(client, ["human", "human", "random"], seed=None)
    other_gid, other_tokens, _ = _new(client, ["human", "random"], seed=5)
    game = web_game.game
    acting = game.decision.player  # bots play until a human decides
    idle = 1 - acting
    legal = game.legal_actions()[0]
    before, steps = digest(game), len(web_game.actions)
    cases = [
        ({}, 403, "missing seat token"),
        ({"X-Seat-Token": "not-a-token"}, 403, "not a seat of this game"),
        ({"X-Seat-Token": other_tokens[0]}, 403, "not a seat of this game"),
        ({"X-Seat-Token": tokens[idle]}, 409, "not your decision"),
    ]
    for headers, status, words in cases:
        for url, method in ((f"/api/games/{gid}/actions", "post"), (f"/api/games/{gid}", "get")):
            if method == "get" and status == 409:
                continue  # an idle seat may look at its table
            r = client.request(method.upper(), url, headers=headers,
                               json={"action": legal} if method == "post" else None)
            assert r.status_code == status and words in r.json()["error"], (url, r.text)
    assert client.get(f"/api/games/{other_gid}/record",
                      headers={"X-Seat-Token": tokens[0]}).status_code == 403
    assert client.get("/api/games/nope", headers={"X-Seat-Token": tokens[0]}).status_code == 404
    assert (digest(game), len(web_game.actions)) == (before, steps)


def test_malformed_actions_are_refused_and_change_nothing(client):
    gid, tokens, web_game = _new(client, ["human", "random"], seed=6)
    game = web_game.game
    seat = game.decision.player
    headers = {"X-Seat-Token": tokens[seat]}
    url = f"/api/games/{gid}/actions"
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in game.legal_actions())
    before, steps = digest(game), len(web_game.actions)
    bodies = [
        (b"{not json", 400, "not valid JSON"),
        (b"\xff\xfe", 400, "not valid JSON"),
        (b"[1, 2]", 400, "must be a JSON object"),
        (b"{}", 400, 'missing field "action"'),
        (b'{"action": "13"}', 400, "must be an integer"),
        (b'{"action": 13.0}', 400, "must be an integer"),
        (b'{"action": true}', 400, "must be an integer"),
        (b'{"action": null}', 400, "must be an integer"),
        (b'{"action": 1, "cheat": 1}', 400, "unknown field"),
        (b'{"action": 1, "decision": 5}', 400, "decision must be a string"),
        (b"[" * 8000 + b"]" * 8000, 400, "not valid JSON"),  # nested past the parser's depth
        (json.dumps({"action": illegal}).encode(), 422, "not a legal action"),
        (b'{"action": -1}', 422, "not a legal action"),
        (b'{"action": 99999999999999999999}', 422, "not a legal action"),
        (json.dumps({"action": game.legal_actions()[0], "decision": "old"}).encode(), 409,
         "already been answered"),
        (b"x" * (MAX_BODY + 1), 413, "too large"),
    ]
    for body, status, words in bodies:
        r = client.post(url, headers={**headers, "content-type": "application/json"},
                        content=body)
        assert r.status_code == status and words in r.json()["error"], (body[:40], r.text)
    assert (digest(game), len(web_game.actions)) == (before, steps)
    r = client.post(url, headers=headers, json={"action": illegal})
    assert set(r.json()["legal"]) == set(game.legal_actions())


def test_game_creation_is_validated(client):
    for body, words in [
        ({"seats": ["human"]}, "2 to 4"),
        ({"seats": "human,random"}, "2 to 4"),
        ({"seats": ["random", "random"]}, "at least one seat"),
        ({"seats": ["human", "mystery"]}, "unknown player"),
        ({"seats": ["human", "llm"]}, "unknown player"),  # needs an endpoint: never from a page
        ({"seats": ["human", "os:system"]}, "unknown player"),  # no import paths
        ({"seats": ["human", "random"], "length": "epic"}, "length"),
        ({"seats": ["human", "random"], "seed": -1}, "seed"),
        ({"seats": ["human", "random"], "seed": "1"}, "seed"),
        ({"seats": ["human", "random"], "strategy_cards": 1}, "strategy_cards"),
        ({"seats": ["human", "random"], "admin": True}, "unknown field"),
    ]:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and words in r.json()["error"], (body, r.text)
    assert client.app.state.games == {}
    options = client.get("/api/options").json()
    assert options["seats"][0] == "human" and "random" in options["seats"]
    assert "llm" not in options["seats"] and options["seats"].count("human") == 1


def test_two_humans_share_a_full_game_and_its_record_replays(client, tmp_path):
    gid, tokens, web_game = _new(client, ["human", "random", "human"], seed=None, public=True)
    assert set(tokens) == {0, 2} and tokens[0] != tokens[2]
    r = client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": tokens[0]})
    assert r.status_code == 409 and "hidden card" in r.json()["error"]
    final = _play_first_actions(client, gid, tokens, web_game)
    game = web_game.game
    assert final["game_over"] and final["scores"] == game.scores
    assert final["final"]["winner"] == game.winner
    assert [b["total"] for b in final["final"]["breakdown"]] == game.scores
    r = client.post(f"/api/games/{gid}/actions", headers={"X-Seat-Token": tokens[0]},
                    json={"action": 0})
    assert r.status_code == 409 and "over" in r.json()["error"]
    record = loads(client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": tokens[2]}).text)
    assert record.actions == web_game.actions and record.final_digest == digest(game)
    saved = client.get("/api/records").json()["records"]
    assert saved == [f"public-web-{gid}.json"] and (tmp_path / saved[0]).is_file()
    for body in ({"file": saved[0]}, {"game": gid, "token": tokens[0]}):
        r = client.post("/api/replays", json=body)
        assert r.status_code == 201 and r.json()["steps"] == len(web_game.actions), r.text


def test_replay_steps_forward_and_back(client):
    gid, tokens, web_game = _new(client, ["human", "honest"], seed=2)
    _play_first_actions(client, gid, tokens, web_game)
    text = client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": tokens[0]}).text
    r = client.post("/api/replays", json={"record": text})
    assert r.status_code == 201
    rid, steps = r.json()["replay"], r.json()["steps"]
    record = loads(text)
    replay = client.app.state.replays[rid]
    for k in (0, 1, 40, 33, 32, steps, 7):  # forwards and back, across the stored copies
        game = replay.game_at(k)
        assert game.game_over == (k == steps)
        for view, expected in (
            ("public", public_json(game, replay.names)),
            ("1", seat_json(seat_view(game, 1), replay.names)),
        ):
            got = client.get(f"/api/replays/{rid}/steps/{k}?view={view}").json()
            assert {key: got[key] for key in expected} == expected
            assert got["step"] == k and got["steps"] == steps
    assert digest(replay.game_at(steps)) == record.final_digest
    plan = next(i for i, s in enumerate(record.steps) if s.decision == "plan_card")
    owner = record.steps[plan].player
    public = client.get(f"/api/replays/{rid}/steps/{plan + 1}?view=public").json()
    own = client.get(f"/api/replays/{rid}/steps/{plan + 1}?view={owner}").json()
    assert public["last_action"] == f"{replay.names[owner]} (plan card): a secret choice"
    assert "play the" in own["last_action"]
    for url, status in ((f"/api/replays/{rid}/steps/{steps + 1}", 404),
                        (f"/api/replays/{rid}/steps/1?view=7", 400),
                        (f"/api/replays/{rid}/steps/1?view=me", 400),
                        ("/api/replays/nope/steps/1", 404)):
        assert client.get(url).status_code == status, url


def test_replays_refuse_bad_records(client, tmp_path):
    (tmp_path / "bad.json").write_text("{}")
    for body, status in (({"record": "{"}, 422), ({"record": "[]"}, 422),
                         ({"file": "bad.json"}, 422), ({"file": "../bad.json"}, 404),
                         ({"file": "missing.json"}, 404), ({"record": 5}, 400), ({}, 400),
                         ({"game": "nope", "token": "x"}, 404)):
        r = client.post("/api/replays", json=body)
        assert r.status_code == status, (body, r.text)
    assert client.app.state.replays == {}


def test_replay_names_come_from_the_record():
    config = GameConfig(num_players=2)
    named = record_game(config, 0, [], meta={"agents": ["p0 human", "p1 random"]})
    assert Replay(named).names == ["p0 human", "p1 random"]
    for meta in ({}, {"agents": ["one"]}, {"agents": "p0,p1"}):
        assert Replay(record_game(config, 0, [], meta=meta)).names == ["p0", "p1"]


def test_pages_static_files_and_security_headers(client):
    for url in ("/", "/play", "/replay", "/static/table.js", "/static/style.css"):
        r = client.get(url)
        assert r.status_code == 200, url
        assert "default-src 'self'" in r.headers["content-security-policy"]
        assert r.headers["x-content-type-options"] == "nosniff"
    r = client.get("/api/nothing")
    assert r.status_code == 404 and r.json() == {"error": "Not Found"}
    assert client.get("/api/games").status_code == 405


def test_loopback_server_refuses_other_host_names():
    app = create_app(allowed_hosts=["127.0.0.1", "localhost"])
    assert TestClient(app, base_url="http://127.0.0.1").get("/api/options").status_code == 200
    assert TestClient(app, base_url="http://evil.example").get("/api/options").status_code == 400


@pytest.mark.parametrize(("argv", "words"), [
    (["--port", "70000"], "--port must be 1..65535"),
    (["--max-games", "0"], "--max-games must be at least 1"),
    (["--idle-minutes", "-1"], "--idle-minutes must be a positive number"),
    (["--idle-minutes", "nan"], "--idle-minutes must be a positive number"),
])
def test_command_line_rejects_bad_values(capsys, argv, words):
    with pytest.raises(SystemExit) as exc:
        web_main(argv)
    assert exc.value.code == 2 and words in capsys.readouterr().err
