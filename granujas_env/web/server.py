"""The browser front end: a Starlette app serving games against the bots and a record replayer.

Pages: ``/`` (start a game, open a record), ``/play#game=ID&token=T`` (one human seat's table),
``/replay#replay=ID`` (step through a game record). The JSON API behind them:

=======================================  ==========================================================
``GET  /api/options``                    bots and shipped models a seat can be given
``POST /api/games``                      ``{"seats": ["human", "random"], "length": "short",
                                         "seed": 3, "strategy_cards": false}``: a new game; the
                                         answer holds one secret token (and page link) per human
``GET  /api/games/ID``                   the table as the token's seat sees it
``POST /api/games/ID/actions``           ``{"action": 13, "decision": "<decision_id>"}``
``GET  /api/games/ID/record``            the game record, once the game is over
``GET  /api/records``                    the records in ``record_dir``
``POST /api/replays``                    ``{"file": NAME}``, ``{"record": TEXT}`` or ``{"game": ID}``
                                         (with the token): a replay of that record
``GET  /api/replays/ID/steps/K?view=V``  the table after K steps, public (``V=public``) or seat V's
=======================================  ==========================================================

Security: a human seat's token (``secrets.token_urlsafe``) goes in the ``X-Seat-Token`` header;
every answer about a live game is built from that seat's view only (:mod:`.state`); an action is
refused with a JSON ``{"error": ...}`` (403 no or wrong token, 409 not this seat's decision or the
game is over or the decision has moved on, 400 malformed body or wrong types, 413 body too large,
422 not a legal id) and such a request never changes the game. Records (which hold every hidden
card) are given out only once the game is over. Bots act server-side until a human must decide.
"""

from __future__ import annotations

import json
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from agents import available, make_bot
from agents.policy import available_models

from ..engine import actions as A
from ..engine.game import Game
from ..env import raw_env
from ..record import PRIVATE_DECISIONS, GameRecord, RecordError, load, loads, record_game
from ..text import describe_action
from ..view import seat_view
from .state import final_json, public_json, seat_json

__all__ = ["WebError", "create_app"]

STATIC = Path(__file__).parent / "static"
HUMAN = "human"
MAX_BODY = 16 * 1024  # game and action requests are a few dozen bytes
MAX_RECORD_BODY = 4 * 1024 * 1024  # an uploaded game record (a long 4-player game is ~150 KB)
MAX_GAMES = 64  # games kept in memory; the least recently used is dropped beyond this
MAX_REPLAYS = 16
MAX_SEED = 2**63 - 1
REPLAY_STRIDE = 32  # a replay keeps a copy of the game every this many steps
SECURITY_HEADERS = {
    # scripts and styles only from this server: a card name can never run as code
    "content-security-policy": "default-src 'self'; img-src 'self' data:; object-src 'none'; "
    "base-uri 'none'; frame-ancestors 'none'",
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "cache-control": "no-store",
}


class WebError(Exception):
    """A refused request: the HTTP status and a message naming what was wrong."""

    def __init__(self, status: int, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.extra = extra


# ------------------------------------------------------------------------------ request bodies
async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read at most ``limit`` bytes far."""
    declared = request.headers.get("content-length")
    if declared is not None and (not declared.isdigit() or int(declared) > limit):
        raise WebError(413, f"request body too large (at most {limit} bytes)")
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > limit:
            raise WebError(413, f"request body too large (at most {limit} bytes)")
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):  # UnicodeDecodeError is a ValueError
        raise WebError(400, "the request body is not valid JSON") from None
    if not isinstance(data, dict):
        raise WebError(400, f"the request body must be a JSON object, got {type(data).__name__}")
    return data


def _fields(data: Mapping[str, Any], allowed: tuple[str, ...]) -> None:
    unknown = sorted(set(data) - set(allowed))
    if unknown:
        raise WebError(400, f"unknown field(s) {unknown}; allowed: {list(allowed)}")


def _int(data: Mapping[str, Any], key: str) -> int:
    value = data[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise WebError(400, f"{key} must be an integer, got {json.dumps(value)[:40]}")
    return value


def _str(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise WebError(400, f"{key} must be a string, got {json.dumps(value)[:40]}")
    return value


# ------------------------------------------------------------------------------ live games
# Registered bots a server cannot seat: the terminal's human, and the language-model bot (it
# needs an endpoint URL, which a page must not be able to choose).
NOT_SERVED = frozenset({"human", "llm"})


def seat_choices() -> list[str]:
    """What a seat can be given: a human, a registered bot or a shipped model."""
    return [HUMAN, *(b for b in available() if b not in NOT_SERVED), *available_models()]


class WebGame:
    """One game in progress: the env, the bots, and a secret token per human seat."""

    def __init__(self, seats: list[str], length: str, seed: int, strategy_cards: bool,
                 record_dir: Path | None) -> None:
        self.id = secrets.token_urlsafe(9)
        self.names = [f"p{i} {name}" for i, name in enumerate(seats)]
        self.env = raw_env(num_players=len(seats), game_length=length,
                           strategy_cards=strategy_cards)
        self.env.reset(seed=seed)
        assert self.env.game is not None
        self.game: Game = self.env.game
        self.tokens = {secrets.token_urlsafe(24): seat for seat, name in enumerate(seats)
                       if name == HUMAN}
        self.bots = {seat: make_bot(name, seed=seed + seat) for seat, name in enumerate(seats)
                     if name != HUMAN}
        for seat, bot in self.bots.items():
            bot.reset(seed=seed + seat)
        self.actions: list[int] = []
        # names the pending decision, so that an answer meant for an earlier one is refused:
        # random (a count of the steps could hint at hidden choices), new after every action
        self.decision_id = secrets.token_hex(8)
        self.record_dir = record_dir
        self.saved: Path | None = None
        self.lock = threading.Lock()
        self.touched = time.monotonic()
        self._advance()

    def seat_of(self, token: str | None) -> int:
        """The seat whose token this is; 403 for a missing or unknown token."""
        if not token:
            raise WebError(403, "missing seat token: send the X-Seat-Token header of your seat's "
                           "link")
        for known, seat in self.tokens.items():
            if secrets.compare_digest(known.encode(), token.encode()):
                return seat
        raise WebError(403, "this token is not a seat of this game")

    def state(self, seat: int) -> dict[str, Any]:
        """The table as ``seat`` sees it (plus the score table once the game is over)."""
        out = seat_json(seat_view(self.game, seat), self.names, self.decision_id)
        out["game"] = self.id
        out["final"] = final_json(self.game) if self.game.game_over else None
        return out

    def act(self, seat: int, body: Mapping[str, Any]) -> None:
        """Apply ``body["action"]`` for ``seat`` if it is that seat's legal choice; else raise
        :class:`WebError` and change nothing."""
        _fields(body, ("action", "decision"))
        if "action" not in body:
            raise WebError(400, 'missing field "action" (the id of a legal action)')
        action = _int(body, "action")
        expected = _str(body, "decision") if "decision" in body else None
        game = self.game
        if game.game_over:
            raise WebError(409, "the game is over")
        frame = game.decision
        assert frame is not None
        if frame.player != seat:
            raise WebError(409, f"not your decision: p{frame.player} is deciding "
                           f"({frame.kind}); you are p{seat}")
        if expected is not None and expected != self.decision_id:
            raise WebError(409, "this decision has already been answered; reload the table")
        legal = game.legal_actions()
        if action not in legal:
            raise WebError(422, f"{action} is not a legal action now ({frame.kind}); legal: "
                           + ", ".join(f"{a} ({A.describe(a)})" for a in legal), legal=legal)
        self._step(action)
        self._advance()

    def _step(self, action: int) -> None:
        self.env.step(action)
        self.actions.append(action)
        self.decision_id = secrets.token_hex(8)

    def _advance(self) -> None:
        """Let the bots play until a human decides or the game ends."""
        game = self.game
        while not game.game_over:
            seat = game.decision.player
            bot = self.bots.get(seat)
            if bot is None:
                return
            agent = self.env.possible_agents[seat]
            view = seat_view(game, seat) if getattr(bot, "wants_view", True) else None
            self._step(int(bot.act(self.env.observe(agent), view=view)))
        if self.record_dir is not None and self.saved is None:
            self.saved = self.record().save(self.record_dir / f"web-{self.id}.json")

    def record(self) -> GameRecord:
        """The game record; only once the game is over (a record shows every hidden card)."""
        if not self.game.game_over:
            raise WebError(409, "the record holds every hidden card: it is given out when the "
                           "game is over")
        return record_game(self.game.config, self.game.seed, self.actions,
                           catalog=self.env.catalog,
                           meta={"tool": "granujas_env.web", "agents": self.names})


def new_game(body: Mapping[str, Any], record_dir: Path | None) -> WebGame:
    """A game from a ``POST /api/games`` body; 400 naming what was wrong."""
    _fields(body, ("seats", "length", "seed", "strategy_cards"))
    seats = body.get("seats")
    if not isinstance(seats, list) or not 2 <= len(seats) <= 4 or not all(
        isinstance(s, str) for s in seats
    ):
        raise WebError(400, "seats must be a list of 2 to 4 names, one per seat, e.g. "
                       '["human", "heuristic"]')
    choices = seat_choices()
    for seat, name in enumerate(seats):
        if name not in choices:
            raise WebError(400, f"seat {seat}: unknown player {json.dumps(name)[:40]}; choose "
                           f"from {choices}")
    if HUMAN not in seats:
        raise WebError(400, f'at least one seat must be "{HUMAN}"')
    length = body.get("length", "short")
    if length not in ("short", "long"):
        raise WebError(400, f'length must be "short" or "long", got {json.dumps(length)[:40]}')
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbelow(2**31)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise WebError(400, f"seed must be an integer 0..{MAX_SEED} or null, got "
                       f"{json.dumps(seed)[:40]}")
    strategy = body.get("strategy_cards", False)
    if not isinstance(strategy, bool):
        raise WebError(400, "strategy_cards must be true or false")
    try:
        return WebGame(seats, length, seed, strategy, record_dir)
    except ImportError as exc:  # a shipped model without the [train] extra
        raise WebError(400, f"cannot seat that bot here: {exc}") from None


# ------------------------------------------------------------------------------ replays
class Replay:
    """A loaded record, stepped to any point; copies of the game every REPLAY_STRIDE steps."""

    def __init__(self, record: GameRecord) -> None:
        self.id = secrets.token_urlsafe(9)
        self.record = record
        agents = record.meta.get("agents") if isinstance(record.meta, dict) else None
        n = record.config.num_players
        self.names = (
            [str(a)[:40] for a in agents] if isinstance(agents, list) and len(agents) == n
            else [f"p{i}" for i in range(n)]
        )
        game = Game(record.config, record.seed)
        self.checkpoints = [game.clone()]
        for i, step in enumerate(record.steps, start=1):
            game.apply(step.action)
            if i % REPLAY_STRIDE == 0:
                self.checkpoints.append(game.clone())
        self.lock = threading.Lock()
        self.touched = time.monotonic()

    def game_at(self, step: int) -> Game:
        """The game after ``step`` steps (a fresh copy)."""
        game = self.checkpoints[step // REPLAY_STRIDE].clone()
        for s in self.record.steps[step - step % REPLAY_STRIDE: step]:
            game.apply(s.action)
        return game

    def step_json(self, step: int, view: str) -> dict[str, Any]:
        """The table after ``step`` steps from ``view`` ("public" or a seat number), with the
        step that led there in words (a private answer only to its own seat)."""
        total = len(self.record.steps)
        if not 0 <= step <= total:
            raise WebError(404, f"step must be 0..{total}, got {step}")
        n = self.record.config.num_players
        seat = None if view == "public" else (int(view) if view.isdigit() else -1)
        if seat is not None and not 0 <= seat < n:
            raise WebError(400, f'view must be "public" or a seat 0..{n - 1}, got {view[:20]!r}')
        game = self.game_at(step)
        out = public_json(game, self.names) if seat is None else seat_json(
            seat_view(game, seat), self.names)
        out["final"] = final_json(game) if game.game_over else None
        out.update(replay=self.id, step=step, steps=total, last_action=self._action_text(step, seat))
        return out

    def _action_text(self, step: int, seat: int | None) -> str | None:
        if step == 0:
            return None
        recorded = self.record.steps[step - 1]
        who = f"p{recorded.player}"
        if recorded.player == seat:
            before = self.game_at(step - 1)
            return f"{who} ({recorded.decision}): {describe_action(before, recorded.action, seat=seat)}"
        if recorded.decision in PRIVATE_DECISIONS:
            return f"{who} ({recorded.decision}): a secret choice"
        return f"{who} ({recorded.decision}): {recorded.name}"


# ------------------------------------------------------------------------------ the app
class _SecurityHeaders:
    """Adds SECURITY_HEADERS to every response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_with_headers)


def _lru_put(store: OrderedDict, item: Any, limit: int) -> None:
    while len(store) >= limit:
        store.popitem(last=False)
    store[item.id] = item


def _lru_get(store: OrderedDict, key: str, what: str) -> Any:
    item = store.get(key)
    if item is None:
        raise WebError(404, f"no such {what} (it may have been dropped: the server keeps the "
                       f"{MAX_GAMES if what == 'game' else MAX_REPLAYS} most recent)")
    store.move_to_end(key)
    item.touched = time.monotonic()
    return item


def create_app(record_dir: str | Path | None = None,
               allowed_hosts: list[str] | None = None) -> Starlette:
    """The web app. ``record_dir``: finished games are saved there and its records can be
    replayed. ``allowed_hosts``: Host headers accepted (None: any; the command line passes the
    loopback names when it binds to 127.0.0.1, which stops DNS-rebinding pages)."""
    records = Path(record_dir) if record_dir is not None else None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    games: OrderedDict[str, WebGame] = OrderedDict()
    replays: OrderedDict[str, Replay] = OrderedDict()
    registry_lock = threading.Lock()

    def page(name: str):
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html")
        return endpoint

    def find_game(request: Request) -> WebGame:
        with registry_lock:
            return _lru_get(games, request.path_params["game"], "game")

    async def options(request: Request) -> Response:
        return JSONResponse({"seats": seat_choices(), "human": HUMAN,
                             "lengths": ["short", "long"]})

    async def create(request: Request) -> Response:
        body = await _json_body(request, MAX_BODY)
        game = await run_in_threadpool(new_game, body, records)
        with registry_lock:
            _lru_put(games, game, MAX_GAMES)
        seats = []
        for seat, name in enumerate(game.names):
            token = next((t for t, s in game.tokens.items() if s == seat), None)
            entry = {"seat": seat, "name": name, "human": token is not None}
            if token is not None:
                entry.update(token=token, link=f"/play#game={game.id}&token={token}")
            seats.append(entry)
        return JSONResponse({"game": game.id, "seats": seats}, status_code=201)

    async def state(request: Request) -> Response:
        game = find_game(request)
        seat = game.seat_of(request.headers.get("x-seat-token"))

        def build() -> dict[str, Any]:
            with game.lock:
                return game.state(seat)

        return JSONResponse(await run_in_threadpool(build))

    async def act(request: Request) -> Response:
        game = find_game(request)
        seat = game.seat_of(request.headers.get("x-seat-token"))
        body = await _json_body(request, MAX_BODY)

        def apply() -> dict[str, Any]:
            with game.lock:
                game.act(seat, body)
                return game.state(seat)

        return JSONResponse(await run_in_threadpool(apply))

    async def game_record(request: Request) -> Response:
        game = find_game(request)
        game.seat_of(request.headers.get("x-seat-token"))

        def build() -> str:
            with game.lock:
                return game.record().to_json()

        return Response(await run_in_threadpool(build), media_type="application/json", headers={
            "content-disposition": f'attachment; filename="granujas-{game.id}.json"'})

    async def list_records(request: Request) -> Response:
        if records is None:
            return JSONResponse({"records": []})
        files = sorted(records.glob("*.json"), key=lambda p: p.stat().st_mtime, reverse=True)
        return JSONResponse({"records": [p.name for p in files[:200]]})

    def open_record(body: Mapping[str, Any]) -> Replay:
        _fields(body, ("file", "record", "game", "token"))
        try:
            if "file" in body:
                name = _str(body, "file")
                path = None if records is None else records / name
                if path is None or Path(name).name != name or not path.is_file():
                    raise WebError(404, f"no record {name[:80]!r} in the record folder")
                record = load(path)
            elif "record" in body:
                record = loads(_str(body, "record"), source="uploaded record")
            elif "game" in body:
                with registry_lock:
                    game = _lru_get(games, _str(body, "game"), "game")
                game.seat_of(_str(body, "token") if "token" in body else None)
                with game.lock:
                    record = game.record()
            else:
                raise WebError(400, 'name the record: {"file": NAME}, {"record": TEXT} or '
                               '{"game": ID, "token": TOKEN}')
        except RecordError as exc:
            raise WebError(422, f"not a playable game record: {exc}") from None
        if record.failure is not None:
            raise WebError(422, "this record ends in a failure (a fuzzer's report): show it with "
                           "python -m granujas_env.record show")
        return Replay(record)

    async def create_replay(request: Request) -> Response:
        body = await _json_body(request, MAX_RECORD_BODY)
        replay = await run_in_threadpool(open_record, body)
        with registry_lock:
            _lru_put(replays, replay, MAX_REPLAYS)
        return JSONResponse({"replay": replay.id, "steps": len(replay.record.steps),
                             "players": replay.record.config.num_players, "names": replay.names},
                            status_code=201)

    async def replay_step(request: Request) -> Response:
        with registry_lock:
            replay = _lru_get(replays, request.path_params["replay"], "replay")
        step = request.path_params["step"]
        view = request.query_params.get("view", "public")

        def build() -> dict[str, Any]:
            with replay.lock:
                return replay.step_json(step, view)

        return JSONResponse(await run_in_threadpool(build))

    async def on_web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return JSONResponse({"error": str(exc), **exc.extra}, status_code=exc.status)

    async def on_http_error(request: Request, exc: Exception) -> Response:
        # the router's own refusals (no such page, wrong method) as JSON errors too
        assert isinstance(exc, HTTPException)
        return JSONResponse({"error": exc.detail}, status_code=exc.status_code,
                            headers=exc.headers)

    routes = [
        Route("/", page("index.html")),
        Route("/play", page("game.html")),
        Route("/replay", page("replay.html")),
        Route("/api/options", options),
        Route("/api/games", create, methods=["POST"]),
        Route("/api/games/{game}", state),
        Route("/api/games/{game}/actions", act, methods=["POST"]),
        Route("/api/games/{game}/record", game_record),
        Route("/api/records", list_records),
        Route("/api/replays", create_replay, methods=["POST"]),
        Route("/api/replays/{replay}/steps/{step:int}", replay_step),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(_SecurityHeaders)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={WebError: on_web_error, HTTPException: on_http_error})
    app.state.games = games  # for tests and embedding: the live games by id
    app.state.replays = replays
    return app
