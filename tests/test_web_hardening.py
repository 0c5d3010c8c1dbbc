"""The browser server under hostile requests: cross-site and non-JSON state changes refused,
creation rate-limited, idle games expire (a full server refuses, never evicts), private records
unlisted, and every endpoint fuzzed answers 4xx, never 5xx."""

from __future__ import annotations

import json
import os
from urllib.parse import quote

import pytest

try:
    from starlette.testclient import TestClient
except ImportError:  # pragma: no cover - CI installs the [web] extra
    if os.environ.get("CI"):
        raise
    pytest.skip("the [web] extra is not installed (pip install -e '.[web]')",
                allow_module_level=True)

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from granujas_env.engine.snapshot import digest
from granujas_env.web import create_app
from granujas_env.web.server import HUMAN, RateLimit, WebError


class Clock:
    """A hand-moved clock for the idle timer and the rate limit."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def _client(tmp_path, **kwargs) -> TestClient:
    kwargs.setdefault("rate", RateLimit(1000, 1.0))
    return TestClient(create_app(record_dir=tmp_path, **kwargs), raise_server_exceptions=False)


def _game(client, seats=(HUMAN, "random"), **more):
    r = client.post("/api/games", json={"seats": list(seats), **more})
    assert r.status_code == 201, r.text
    data = r.json()
    return data["game"], next(s["token"] for s in data["seats"] if s["human"])


# ------------------------------------------------------------------------------ cross-site
CROSS_SITE = [
    ({"Origin": "http://evil.example"}, "Origin"),
    ({"Origin": "null"}, "Origin"),
    ({"Origin": "http://testserver:8001"}, "Origin"),  # same host, another port: another origin
    ({"Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site"),
    ({"Sec-Fetch-Site": "same-site"}, "Sec-Fetch-Site"),
    ({"Origin": "http://testserver", "Sec-Fetch-Site": "cross-site"}, "Sec-Fetch-Site"),
]


@pytest.mark.parametrize(("headers", "named"), CROSS_SITE)
def test_cross_site_requests_cannot_create_or_act(tmp_path, headers, named):
    client = _client(tmp_path)
    gid, token = _game(client)
    web = client.app.state.games[gid]
    before = (digest(web.game), len(web.actions), web.auto_pass[0])
    body = {"action": web.game.legal_actions()[0]}
    for url, payload in (("/api/games", {"seats": [HUMAN, "random"]}),
                         (f"/api/games/{gid}/actions", body),
                         (f"/api/games/{gid}/settings", {"auto_pass": True}),
                         ("/api/replays", {"game": gid, "token": token})):
        r = client.post(url, json=payload, headers={"X-Seat-Token": token, **headers})
        assert r.status_code == 403 and named in r.json()["error"], (url, r.text)
    assert list(client.app.state.games) == [gid] and not client.app.state.replays
    assert (digest(web.game), len(web.actions), web.auto_pass[0]) == before


def test_same_origin_pages_and_scripts_without_origin_are_served(tmp_path):
    client = _client(tmp_path)
    for headers in ({"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"},
                    {"Sec-Fetch-Site": "none"}, {}):
        r = client.post("/api/games", json={"seats": [HUMAN, "random"]}, headers=headers)
        assert r.status_code == 201, (headers, r.text)


@pytest.mark.parametrize("content_type", [
    None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x",
    "application/jsonx", "text/json",
])
def test_state_changes_accept_only_json(tmp_path, content_type):
    client = _client(tmp_path)
    gid, token = _game(client)
    web = client.app.state.games[gid]
    before = (digest(web.game), len(web.actions))
    headers = {"X-Seat-Token": token}
    if content_type is not None:
        headers["Content-Type"] = content_type
    body = f'{{"action": {web.game.legal_actions()[0]}}}'
    for url in ("/api/games", f"/api/games/{gid}/actions", f"/api/games/{gid}/settings",
                "/api/replays"):
        r = client.post(url, content=body, headers=headers)
        assert r.status_code == 415 and "application/json" in r.json()["error"], (url, r.text)
    assert (digest(web.game), len(web.actions)) == before and len(client.app.state.games) == 1
    r = client.post(f"/api/games/{gid}/actions", content=body,
                    headers={**headers, "Content-Type": "Application/JSON; charset=utf-8"})
    assert r.status_code == 200


# ------------------------------------------------------------------------------ capacity
def test_creation_is_rate_limited_per_client():
    clock = Clock()
    limit = RateLimit(3, 10.0, clock)
    for _ in range(3):
        limit.take("a")
    with pytest.raises(WebError) as refused:
        limit.take("a")
    assert refused.value.status == 429 and refused.value.headers == {"retry-after": "11"}
    limit.take("b")  # another client has its own bucket
    clock.now += 10
    limit.take("a")
    with pytest.raises(WebError):
        limit.take("a")


def test_the_server_answers_429_when_a_client_creates_too_fast(tmp_path):
    clock = Clock()
    client = _client(tmp_path, rate=RateLimit(2, 30.0, clock))
    _game(client)
    _game(client)
    r = client.post("/api/games", json={"seats": [HUMAN, "random"]})
    assert r.status_code == 429 and r.headers["retry-after"] == "31"
    assert "too many new games" in r.json()["error"] and len(client.app.state.games) == 2
    r = client.post("/api/games", json={"seats": [HUMAN, "nobody"]})
    assert r.status_code == 400  # a refused body spends nothing
    clock.now += 30
    _game(client)


def test_a_full_server_refuses_new_games_and_idle_ones_expire(tmp_path):
    clock = Clock()
    client = _client(tmp_path, max_games=2, idle_s=100.0, clock=clock)
    first, t1 = _game(client)
    second, t2 = _game(client)
    for _ in range(80):  # a flood while full: live games stay
        r = client.post("/api/games", json={"seats": [HUMAN, "random"]})
        assert r.status_code == 503 and "server is full (2 games" in r.json()["error"]
    for gid, token in ((first, t1), (second, t2)):
        assert client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).status_code == 200
    clock.now += 60
    client.get(f"/api/games/{first}", headers={"X-Seat-Token": t1})  # the first is in use
    client.get(f"/api/games/{second}", headers={"X-Seat-Token": "wrong"})  # no token: no use
    clock.now += 41  # the second idle for 101 s, the first for 41 s
    third, _ = _game(client)
    assert set(client.app.state.games) == {first, third}
    r = client.get(f"/api/games/{second}", headers={"X-Seat-Token": t2})
    assert r.status_code == 404 and "1.66667 minutes without a request" in r.json()["error"]


# ------------------------------------------------------------------------------ records
def test_records_of_private_games_are_not_listed_nor_opened_by_name(tmp_path):
    client = _client(tmp_path)
    (tmp_path / "mine.json").write_text("{}")  # the server owner's own file: listed
    names = {}
    for public in (False, True):
        gid, token = _game(client, public=public)
        web = client.app.state.games[gid]
        while not web.game.game_over:
            r = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()
            client.post(f"/api/games/{gid}/actions", json={"action": r["menu"][0]["id"]},
                        headers={"X-Seat-Token": token})
        names[public] = web.saved.name
    assert names == {False: f"web-{names[False][4:]}", True: f"public-web-{names[True][11:]}"}
    listed = client.get("/api/records").json()["records"]
    assert sorted(listed) == sorted(["mine.json", names[True]])
    assert client.post("/api/replays", json={"file": names[False]}).status_code == 404
    assert client.post("/api/replays", json={"file": names[True]}).status_code == 201


# ------------------------------------------------------------------------------ fuzz
ODD = ["", " ", "0", "-1", "1e9", "9" * 5000, "²", "١", "½", "public", "../etc/passwd", "%00",
       "\x00", "é", "🂡", "null", "true", "[]", "{}", "a" * 3000, "0x10", "+1", " 1"]


def _endpoints(client, tmp_path):
    """A live game, a finished game's replay: ids to put in paths."""
    gid, token = _game(client, seed=5)
    done, done_token = _game(client, seats=(HUMAN, "heuristic"), seed=6)
    web = client.app.state.games[done]
    while not web.game.game_over:
        r = client.get(f"/api/games/{done}", headers={"X-Seat-Token": done_token}).json()
        client.post(f"/api/games/{done}/actions", json={"action": r["menu"][0]["id"]},
                    headers={"X-Seat-Token": done_token})
    rid = client.post("/api/replays", json={"game": done, "token": done_token}).json()["replay"]
    return gid, token, rid


def _post(client, url, body, headers):
    """POST ``body`` as JSON text as Python writes it (NaN and Infinity included)."""
    return client.post(url, content=json.dumps(body).encode(),
                       headers={**headers, "Content-Type": "application/json"})


def _check(r) -> None:
    assert r.status_code < 500, (r.request.method, r.request.url, r.status_code, r.text[:300])


def test_a_table_of_odd_values_in_every_path_query_header_and_body(tmp_path):
    client = _client(tmp_path)
    gid, token, rid = _endpoints(client, tmp_path)
    for odd in ODD:
        quoted = quote(odd, safe="")
        for url in (f"/api/games/{quoted}", f"/api/games/{quoted}/record",
                    f"/api/replays/{quoted}/steps/0", f"/api/replays/{rid}/steps/{quoted}",
                    f"/static/{quoted}", f"/{quoted}"):
            _check(client.get(url, headers={"X-Seat-Token": token}))
        for view in (odd, odd * 2):
            _check(client.get(f"/api/replays/{rid}/steps/0", params={"view": view}))
            _check(client.get(f"/api/games/{gid}", params={"view": view},
                              headers={"X-Seat-Token": token}))
        header = odd.encode().replace(b"\x00", b"")  # raw bytes: the server reads latin-1
        for url in (f"/api/games/{gid}", f"/api/games/{gid}/record"):
            _check(client.get(url, headers={"X-Seat-Token": header}))
        _check(client.post(f"/api/games/{gid}/actions", json={"action": 0},
                           headers={"X-Seat-Token": header, "Content-Length": header or b"x"}))
        for url in ("/api/games", f"/api/games/{gid}/actions", f"/api/games/{gid}/settings",
                    "/api/replays"):
            _check(client.post(url, content=odd.encode(), headers={
                "X-Seat-Token": token, "Content-Type": "application/json"}))
        values = [odd, 10**40, -(10**40), 1.5, float("inf"), None, True, [odd], {odd: odd}]
        for value in values:
            for url, keys in (
                ("/api/games", ("seats", "length", "seed", "strategy_cards", "public", odd)),
                (f"/api/games/{gid}/actions", ("action", "decision", odd)),
                (f"/api/games/{gid}/settings", ("auto_pass", odd)),
                ("/api/replays", ("file", "record", "game", "token", odd)),
            ):
                for key in keys:
                    body = {key: value}
                    if url == "/api/games" and key != "seats":
                        body["seats"] = [HUMAN, "random"]
                    _check(_post(client, url, body, {"X-Seat-Token": token}))
    r = client.get(f"/api/replays/{rid}/steps/0", params={"view": "²"})
    assert r.status_code == 400 and "view must be" in r.json()["error"]
    assert client.get(f"/api/replays/{rid}/steps/²").status_code == 404
    assert client.get(f"/api/replays/{rid}/steps/{'9' * 5000}").status_code == 404


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(path=st.text(max_size=40), query=st.text(max_size=40), body=st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(["seats", "seed", "action", "decision", "auto_pass", "file", "record",
                         "game", "token", "length", "public", "x"]), inner, max_size=4),
    max_leaves=12))
def test_fuzzed_requests_never_answer_5xx(tmp_path_factory, path, query, body):
    client = _FUZZ.get("client")
    if client is None:
        tmp = tmp_path_factory.mktemp("fuzz")
        client = _FUZZ["client"] = _client(tmp)
        _FUZZ["ids"] = _endpoints(client, tmp)
    gid, token, rid = _FUZZ["ids"]
    segment = quote(path, safe="") or "x"
    headers = {"X-Seat-Token": token}
    _check(client.get(f"/api/replays/{rid}/steps/{segment}", params={"view": query}))
    _check(client.get(f"/api/games/{segment}", headers=headers))
    for url in ("/api/games", f"/api/games/{gid}/actions", f"/api/games/{gid}/settings",
                "/api/replays"):
        _check(_post(client, url, body, headers))


_FUZZ: dict = {}


def test_a_record_that_cannot_be_saved_is_logged_and_the_game_ends(tmp_path, caplog):
    client = _client(tmp_path / "records")
    gid, token = _game(client, seed=3)
    web = client.app.state.games[gid]
    web.record_dir = tmp_path / "not-a-folder"
    web.record_dir.write_text("a file where the folder should be")
    while not web.game.game_over:
        state = client.get(f"/api/games/{gid}", headers={"X-Seat-Token": token}).json()
        r = client.post(f"/api/games/{gid}/actions", json={"action": state["menu"][0]["id"]},
                        headers={"X-Seat-Token": token})
        assert r.status_code == 200, r.text
    assert web.saved is None and "could not save its record" in caplog.text
    assert client.get(f"/api/games/{gid}/record", headers={"X-Seat-Token": token}).status_code == 200
