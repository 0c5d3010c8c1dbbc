"""The browser front end: a Starlette app serving games against the bots and a record replayer.

One server plays every game of :mod:`granujas_env.games` (3000 Granujas, Bang! The Dice Game)
through that game's :class:`~.kinds.TableKind`: the env, the bots, the page's JSON.

Pages: ``/`` (start a game, open a record), ``/play#game=ID&token=T`` (one human seat's table),
``/replay#replay=ID`` (step through a game record). The JSON API behind them:

=======================================  ==========================================================
``GET  /api/options``                    the games, and the bots a seat can be given in each
``POST /api/games``                      ``{"seats": ["human", "random"], "length": "short",
                                         "seed": 3, "strategy_cards": false, "public": false}``:
                                         a new game (``"game": "bang-dice"`` and 3-8 seats for
                                         Bang!, which has no length or strategy cards); the
                                         answer holds one secret token (and page link) per human
``GET  /api/games/ID``                   the table as the token's seat sees it
``POST /api/games/ID/actions``           ``{"action": 13, "decision": "<decision_id>"}``
``POST /api/games/ID/settings``          ``{"auto_pass": true}``: pass every challenge window of
                                         the token's seat without asking
``GET  /api/games/ID/record``            the game record, once the game is over
``GET  /api/records``                    the records in ``record_dir`` (a web game's only if it
                                         was created ``"public": true``)
``POST /api/replays``                    ``{"file": NAME}``, ``{"record": TEXT}`` or ``{"game": ID}``
                                         (with the token): a replay of that record
``GET  /api/replays/ID/steps/K?view=V``  the table after K steps, public (``V=public``) or seat V's
=======================================  ==========================================================

Security (threat model in docs/play-web.md): a human seat's token (``secrets.token_urlsafe``)
goes in the ``X-Seat-Token`` header; every answer about a live game is built from that seat's view
only (:mod:`.state`); an action is refused with a JSON ``{"error": ...}`` (403 no or wrong token,
409 not this seat's decision or the game is over or the decision has moved on, 400 malformed body
or wrong types, 413 body too large, 422 not a legal id) and such a request never changes the game.
State-changing requests (POST) must be same-origin (a cross-site ``Origin`` or ``Sec-Fetch-Site``
is refused, 403) and ``application/json`` (415): a page on another site can neither create games
nor act. Game creation is rate-limited per client (429); idle games expire, and a full server
refuses new games (503) instead of dropping live ones. A game with more than one human seat is
dealt from a secret server-chosen seed (a seed picked by one player would tell that player every
hidden card), bots are seeded from a hash of it, and no answer holds the seed of a game in
progress. Records (which hold every hidden card) are given out only once the game is over. Bots
act server-side until a human must decide; a bot that fails is replaced by :data:`FALLBACK_BOT`,
said to every seat and logged.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping
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

from agents.base import Agent
from agents.registry import DEFAULT_BOT

from .. import games as game_registry
from ..record import GameRecord, RecordError, load, loads
from .kinds import KINDS, TableKind, kind_of

__all__ = ["FALLBACK_BOT", "RateLimit", "WebError", "create_app"]

log = logging.getLogger("granujas_env.web")

STATIC = Path(__file__).parent / "static"
HUMAN = "human"
MAX_BODY = 16 * 1024  # game and action requests are a few dozen bytes
MAX_RECORD_BODY = 4 * 1024 * 1024  # an uploaded game record (a long 4-player game is ~150 KB)
MAX_GAMES = 200  # games held at once; a full server refuses new ones (503), never drops live ones
GAME_IDLE_S = 3600.0  # a game nobody has asked about for this long is dropped
CREATE_BURST = 10  # games (and replays) a client may create at once ...
CREATE_REFILL_S = 6.0  # ... and then one every this many seconds
MAX_REPLAYS = 16  # replays are rebuilt from their record at will: the least recently used goes
MAX_SEED = 2**63 - 1  # a seed a player chooses
SECRET_SEED_BITS = 128  # a seed the server chooses: far beyond trying every deal
MAX_NOTICES = 100  # notices sent with a table (the most recent)
REPLAY_STRIDE = 32  # a replay keeps a copy of the game every this many steps
#: The bot that takes over a seat whose bot failed (raised, or answered an illegal action); if
#: that one fails too, the random bot.
FALLBACK_BOT = DEFAULT_BOT
RECORD_NAME = re.compile(r"[\w.-]{1,200}\.json", re.ASCII)  # a record file a page may open
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
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

    def __init__(self, status: int, message: str, headers: Mapping[str, str] | None = None,
                 **extra: Any) -> None:
        super().__init__(message)
        self.status = status
        self.headers = dict(headers or {})
        self.extra = extra


# ------------------------------------------------------------------------------ request bodies
def _decimal(text: str | None, limit: int) -> int | None:
    """``text`` as an int if it is ASCII decimal digits worth at most ``limit``, else None
    (``str.isdigit`` alone accepts '²', which ``int`` refuses)."""
    if text is None or not text.isascii() or not text.isdigit() or len(text) > len(str(limit)):
        return None
    value = int(text)
    return value if value <= limit else None


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    """The request's JSON object, read at most ``limit`` bytes far."""
    declared = request.headers.get("content-length")
    if declared is not None and _decimal(declared, limit) is None:
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
        raise WebError(400, f"unknown field(s) {[u[:40] for u in unknown[:5]]}; allowed: "
                       f"{list(allowed)}")


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


def _bool(data: Mapping[str, Any], key: str, default: bool) -> bool:
    value = data.get(key, default)
    if not isinstance(value, bool):
        raise WebError(400, f"{key} must be true or false, got {json.dumps(value)[:40]}")
    return value


# ------------------------------------------------------------------------------ live games
def seat_choices(game: str = game_registry.DEFAULT_GAME) -> list[str]:
    """What a seat of ``game`` can be given: a human, a registered bot or a shipped model."""
    return [HUMAN, *KINDS[game].bots()]


def bot_seed(seed: int, seat: int) -> int:
    """The seed of the bot at ``seat`` in a game dealt from ``seed``: a hash of both, so that a
    bot's seed tells nothing about the deal (``seed + seat`` would give the deal away to anyone
    who learns a bot's seed, and the bots' seeds to anyone who knows the deal's)."""
    digest = hashlib.sha256(f"granujas-web-bot:{seed}:{seat}".encode()).digest()
    return int.from_bytes(digest[:8], "big") >> 1  # 63 bits: every bot library takes it


class WebGame:
    """One game in progress: the env, the bots, and a secret token per human seat.

    ``kind``: the game (default granujas); ``options``: its own options (granujas:
    ``game_length``, ``strategy_cards``). ``seed_chosen``: the seed came from a player (allowed
    with one human seat only; the record says so); ``public``: its record is listed by
    ``/api/records`` once saved."""

    def __init__(self, seats: list[str], seed: int, record_dir: Path | None, *,
                 kind: TableKind = KINDS[game_registry.DEFAULT_GAME],
                 options: Mapping[str, Any] | None = None, seed_chosen: bool = False,
                 public: bool = False) -> None:
        self.id = secrets.token_urlsafe(9)
        self.kind = kind
        self.players = list(seats)  # who plays each seat now (a failed bot's stand-in too)
        self.names = [f"p{i} {name}" for i, name in enumerate(seats)]
        self.env = kind.new_env(len(seats), options or {})
        self.env.reset(seed=seed)
        assert self.env.game is not None
        self.game: Any = self.env.game
        self._seed = seed  # never in an answer while the game is on (the record has it after)
        self.seed_chosen = seed_chosen
        self.public = public
        self.tokens = {secrets.token_urlsafe(24): seat for seat, name in enumerate(seats)
                       if name == HUMAN}
        self.bots: dict[int, Agent] = {}
        for seat, name in enumerate(seats):
            if name != HUMAN:
                self.bots[seat] = kind.make_bot(name, bot_seed(seed, seat))
                self.bots[seat].reset(seed=bot_seed(seed, seat))
        self.auto_pass = {seat: False for seat in self.tokens.values()}
        # (audience seat or None for every seat, text): what the server did that the game's
        # events do not say (a bot replaced, a forced or auto-passed answer of a human seat)
        self.notices: list[tuple[int | None, str]] = []
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
        kind = self.kind
        out = kind.seat_json(kind.view(self.game, seat, self.env), self.names, self.decision_id)
        out["game"] = self.id  # the Bang! JSON names its game ("kind"); granujas' is the default
        out["final"] = kind.final_json(self.game) if self.game.game_over else None
        out["notices"] = [text for audience, text in self.notices
                          if audience is None or audience == seat][-MAX_NOTICES:]
        out["auto_pass"] = self.auto_pass[seat]
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
                           + ", ".join(f"{a} ({self.kind.describe(game, a, seat)})"
                                       for a in legal), legal=legal)
        self._step(action)
        self._advance()

    def settings(self, seat: int, body: Mapping[str, Any]) -> None:
        """Change ``seat``'s table settings (``auto_pass``); an open challenge window of that
        seat is passed at once when auto-pass is turned on."""
        _fields(body, ("auto_pass",))
        if not self.kind.auto_pass:
            raise WebError(400, f"{self.kind.title} has no table settings (no challenge "
                           "windows to pass)")
        if "auto_pass" not in body:
            raise WebError(400, 'missing field "auto_pass" (true or false)')
        self.auto_pass[seat] = _bool(body, "auto_pass", False)
        self._advance()

    def _step(self, action: int) -> None:
        self.env.step(action)
        self.actions.append(action)
        self.decision_id = secrets.token_hex(8)

    def _advance(self) -> None:
        """Let the bots play, and answer a human's forced or auto-passed decisions, until a
        human decides or the game ends."""
        game = self.game
        while not game.game_over:
            assert game.decision is not None
            seat = game.decision.player
            legal = game.legal_actions()
            if seat in self.bots:
                action = self._bot_action(seat, legal)
            else:
                action = self._automatic(seat, legal)
                if action is None:
                    return
            self._step(action)
        if self.record_dir is not None and self.saved is None:
            prefix = "public-web" if self.public else "web"
            try:
                self.saved = self.record().save(self.record_dir / f"{prefix}-{self.id}.json")
            except OSError:  # a full disk must not cost the players their last answer
                log.exception("game %s: could not save its record in %s", self.id,
                              self.record_dir)

    def _bot_action(self, seat: int, legal: list[int]) -> int:
        """The bot's answer; a bot that raises or answers an illegal id is replaced (every seat
        is told, the server logs why) so that the game never waits for it."""
        while True:
            bot = self.bots[seat]
            try:
                action = self.kind.ask(bot, self.env, self.game)
            except Exception:  # any bug of any bot: the game must go on without it
                log.exception("game %s: bot %r at seat %d raised", self.id, self.players[seat],
                              seat)
            else:
                if action in legal:
                    return action
                log.error("game %s: bot %r at seat %d answered %r, not one of %s", self.id,
                          self.players[seat], seat, action, legal)
            if self.players[seat] == "random":
                return legal[0]  # the last resort fails: keep the game moving
            fallback = self.kind.fallback_bot
            self._replace(seat, fallback if self.players[seat] != fallback else "random")

    def _replace(self, seat: int, stand_in: str) -> None:
        failed = self.players[seat]
        # the message names no exception text: a bot's error message may quote what it saw
        self.notices.append((None, f"p{seat} {failed} failed (the server logged why); {stand_in} "
                             f"plays that seat from now on."))
        bot = self.kind.make_bot(stand_in, bot_seed(self._seed, seat))
        bot.reset(seed=bot_seed(self._seed, seat))
        self.bots[seat] = bot
        self.players[seat] = stand_in
        self.names[seat] = f"{self.names[seat]} (then {stand_in})"

    def _automatic(self, seat: int, legal: list[int]) -> int | None:
        """The answer the server gives for a human seat without asking (said to that seat
        alone: it may name its own cards): the only legal action, or a pass of a challenge
        window when the seat turned auto-pass on. None: the seat must decide."""
        answer = self.kind.automatic(self.game, seat, legal, self.auto_pass[seat])
        if answer is None:
            return None
        action, why = answer
        self.notices.append((seat, f"{why}: {self.kind.describe(self.game, action, seat)}"))
        return action

    def record(self) -> GameRecord:
        """The game record; only once the game is over (a record shows every hidden card)."""
        if not self.game.game_over:
            raise WebError(409, "the record holds every hidden card: it is given out when the "
                           "game is over")
        return self.kind.record(self.game.config, self.game.seed, self.actions, self.meta(),
                                self.env)

    def replay(self) -> Replay:
        """A replay of the finished game (409 before its end)."""
        return Replay(self.record())

    def meta(self) -> dict[str, Any]:
        """What the record says about the game besides its moves."""
        return {"tool": "granujas_env.web", "agents": self.names,
                "seed_chosen": self.seed_chosen, "public": self.public}


def game_settings(body: Mapping[str, Any]) -> dict[str, Any]:
    """The :class:`WebGame` arguments of a ``POST /api/games`` body; 400 naming what was
    wrong."""
    name = body.get("game", game_registry.DEFAULT_GAME)
    if not isinstance(name, str) or name not in KINDS:
        raise WebError(400, f"game must be one of {sorted(KINDS)}, got {json.dumps(name)[:40]}")
    kind = KINDS[name]
    _fields(body, ("game", "seats", "seed", "public", *kind.fields))
    seats = body.get("seats")
    low, high = kind.players.start, kind.players.stop - 1
    if not isinstance(seats, list) or len(seats) not in kind.players or not all(
        isinstance(s, str) for s in seats
    ):
        raise WebError(400, f"seats must be a list of {low} to {high} names, one per seat, e.g. "
                       f"{json.dumps(['human'] + ['heuristic'] * (low - 1))} ({kind.title})")
    choices = seat_choices(name)
    for seat, name in enumerate(seats):
        if name not in choices:
            raise WebError(400, f"seat {seat}: unknown player {json.dumps(name)[:40]}; choose "
                           f"from {choices}")
    humans = seats.count(HUMAN)
    if humans == 0:
        raise WebError(400, f'at least one seat must be "{HUMAN}"')
    try:
        options = kind.options(body)
    except ValueError as exc:
        raise WebError(400, str(exc)) from None
    seed = body.get("seed")
    if seed is None:
        seed = secrets.randbits(SECRET_SEED_BITS)
    elif isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise WebError(400, f"seed must be an integer 0..{MAX_SEED} or null, got "
                       f"{json.dumps(seed)[:40]}")
    elif humans > 1:
        raise WebError(400, f"a chosen seed is allowed with one human seat only ({humans} here): "
                       "whoever knows the seed knows every hidden card; leave seed out (null) "
                       "and the server deals from a secret seed")
    return {"kind": kind, "seats": seats, "options": options, "seed": seed,
            "seed_chosen": body.get("seed") is not None, "public": _bool(body, "public", False)}


def new_game(settings: Mapping[str, Any], record_dir: Path | None) -> WebGame:
    """The game of :func:`game_settings`' ``settings`` (400 for a bot that cannot be seated)."""
    try:
        return WebGame(record_dir=record_dir, **settings)
    except ImportError as exc:  # a shipped model without the [train] extra
        raise WebError(400, f"cannot seat that bot here: {exc}") from None


# ------------------------------------------------------------------------------ replays
class Replay:
    """A game record stepped to any point; copies of the game every REPLAY_STRIDE steps. The
    record's configuration names its game (422 for a game this server does not play)."""

    def __init__(self, record: GameRecord) -> None:
        self.id = secrets.token_urlsafe(9)
        try:
            self.kind = kind_of(record.config)
        except ValueError as exc:
            raise WebError(422, str(exc)) from None
        # (player, decision, action) of each move
        self.steps = [(s.player, s.decision, s.action) for s in record.steps]
        meta = record.meta if isinstance(record.meta, dict) else {}
        n = record.config.num_players
        agents = meta.get("agents")
        self.names = (
            [str(a)[:40] for a in agents] if isinstance(agents, list) and len(agents) == n
            else [f"p{i}" for i in range(n)]
        )
        # how the deal was chosen, as the replay page shows it next to the seed
        chosen = meta.get("seed_chosen")
        self.seed_source = ("chosen by the player" if chosen is True else
                            "secret, chosen by the server" if chosen is False else "from the record")
        self.seed = record.seed
        game = self.kind.new_game(record.config, record.seed)
        self.checkpoints = [game.clone()]
        for i, (_, _, action) in enumerate(self.steps, start=1):
            game.apply(action)
            if i % REPLAY_STRIDE == 0:
                self.checkpoints.append(game.clone())
        self.lock = threading.Lock()
        self.touched = time.monotonic()

    def summary(self) -> dict[str, Any]:
        """What the replay page shows about the whole game."""
        return {"replay": self.id, "steps": len(self.steps), "kind": self.kind.name,
                "title": self.kind.title, "players": len(self.names), "names": self.names,
                "seed": str(self.seed), "seed_source": self.seed_source}

    def game_at(self, step: int) -> Any:
        """The game after ``step`` steps (a fresh copy)."""
        game = self.checkpoints[step // REPLAY_STRIDE].clone()
        for _, _, action in self.steps[step - step % REPLAY_STRIDE: step]:
            game.apply(action)
        return game

    def step_json(self, step: int, view: str) -> dict[str, Any]:
        """The table after ``step`` steps from ``view`` ("public" or a seat number), with the
        step that led there in words (a private answer only to its own seat)."""
        total = len(self.steps)
        if not 0 <= step <= total:
            raise WebError(404, f"step must be 0..{total}, got {step}")
        n = len(self.names)
        seat = None if view == "public" else _decimal(view, n - 1)
        if view != "public" and seat is None:
            raise WebError(400, f'view must be "public" or a seat 0..{n - 1}, got {view[:20]!r}')
        game = self.game_at(step)
        kind = self.kind
        out = kind.public_json(game, self.names) if seat is None else kind.seat_json(
            kind.view(game, seat), self.names)
        out["final"] = kind.final_json(game) if game.game_over else None
        summary = self.summary()
        out.update(replay=self.id, steps=total, seed=summary["seed"],
                   seed_source=summary["seed_source"], step=step,
                   last_action=self._action_text(step, seat))
        return out

    def _action_text(self, step: int, seat: int | None) -> str | None:
        if step == 0:
            return None
        player, decision, action = self.steps[step - 1]
        # the seat's name and the decision in words, not the engine's identifiers
        who = f"{self.names[player]} ({decision.replace('_', ' ')})"
        if player != seat and decision in self.kind.private_decisions:
            return f"{who}: a secret choice"
        before = self.game_at(step - 1)
        # in the deciding seat's own words to that seat; the public words to every other view
        words = self.kind.describe(before, action, seat if player == seat else None)
        return f"{who}: {words}"


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


def cross_site(request: Request) -> str | None:
    """Why ``request`` comes from another site, or None. Browsers send ``Sec-Fetch-Site`` and
    ``Origin`` with every POST; a request with neither (curl, a script) is no page's."""
    site = request.headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return f"Sec-Fetch-Site: {site[:20]}"
    origin = request.headers.get("origin")
    if origin is not None:
        host = request.headers.get("host", "")
        if origin != f"{request.url.scheme}://{host}":
            return f"Origin {origin[:80]!r} is not this server's"
    return None


class _StateChangeGuard:
    """Refuses every state-changing request (not GET/HEAD/OPTIONS) that comes from another
    site (403) or is not ``application/json`` (415): a page elsewhere can send a cross-site
    POST only as a form or ``text/plain``, and the browser marks it cross-site."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            request = Request(scope)
            why = cross_site(request)
            refusal = None
            if why is not None:
                refusal = JSONResponse({"error": f"cross-site request refused ({why}): play "
                                        "from this server's own pages"}, status_code=403)
            else:
                media = request.headers.get("content-type", "").split(";")[0].strip().lower()
                if media != "application/json":
                    refusal = JSONResponse({"error": "send the body as Content-Type: "
                                            f"application/json (got {media[:40]!r})"},
                                           status_code=415)
            if refusal is not None:
                await refusal(scope, receive, send)
                return
        await self.app(scope, receive, send)


class RateLimit:
    """A token bucket per client: ``burst`` at once, then one every ``refill_s`` seconds."""

    def __init__(self, burst: int, refill_s: float,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst = burst
        self.refill_s = refill_s
        self.clock = clock
        self._buckets: dict[str, tuple[float, float]] = {}  # client -> (tokens, when counted)
        self._lock = threading.Lock()

    def take(self, client: str) -> None:
        """Spend one of ``client``'s tokens; 429 (with Retry-After) when it has none."""
        now = self.clock()
        with self._lock:
            tokens, then = self._buckets.get(client, (float(self.burst), now))
            tokens = min(float(self.burst), tokens + (now - then) / self.refill_s)
            if tokens < 1:
                wait = int((1 - tokens) * self.refill_s) + 1
                raise WebError(429, f"too many new games or replays from this client: try again "
                               f"in {wait} s (at most {self.burst} at once, then one every "
                               f"{self.refill_s:g} s)", headers={"retry-after": str(wait)})
            self._buckets[client] = (tokens - 1, now)
            if len(self._buckets) > 4096:  # forget the clients whose buckets are full again
                full = now - self.burst * self.refill_s
                self._buckets = {c: b for c, b in self._buckets.items() if b[1] > full}


def _client(request: Request) -> str:
    return request.client.host if request.client is not None else "?"


def create_app(record_dir: str | Path | None = None,
               allowed_hosts: list[str] | None = None, *,
               max_games: int = MAX_GAMES, idle_s: float = GAME_IDLE_S,
               rate: RateLimit | None = None,
               clock: Callable[[], float] = time.monotonic) -> Starlette:
    """The web app. ``record_dir``: finished games are saved there and its records can be
    replayed. ``allowed_hosts``: Host headers accepted (None: any; the command line passes the
    loopback names when it binds to 127.0.0.1, which stops DNS-rebinding pages).
    ``max_games``: games held at once (a new one past that is refused, 503); ``idle_s``: a game
    nobody asked about for that long is dropped; ``rate``: the per-client limit on creating
    games and replays (default :data:`CREATE_BURST` at once, then one every
    :data:`CREATE_REFILL_S` s); ``clock``: the time source of the idle timer (for tests)."""
    records = Path(record_dir) if record_dir is not None else None
    if records is not None:
        records.mkdir(parents=True, exist_ok=True)
    limit = rate if rate is not None else RateLimit(CREATE_BURST, CREATE_REFILL_S)
    games: dict[str, WebGame] = {}
    replays: OrderedDict[str, Replay] = OrderedDict()
    registry_lock = threading.Lock()

    def page(name: str):
        async def endpoint(request: Request) -> Response:
            return FileResponse(STATIC / name, media_type="text/html")
        return endpoint

    def drop_idle() -> None:
        """Forget the games nobody asked about for ``idle_s`` (under registry_lock)."""
        oldest = clock() - idle_s
        for gid in [gid for gid, g in games.items() if g.touched < oldest]:
            del games[gid]

    def find_game(request: Request) -> tuple[WebGame, int]:
        """The path's game and the seat of the request's token (404, 403)."""
        with registry_lock:
            drop_idle()
            game = games.get(request.path_params["game"])
        if game is None:
            raise WebError(404, f"no such game (a game is dropped after {idle_s / 60:g} minutes "
                           "without a request)")
        seat = game.seat_of(request.headers.get("x-seat-token"))
        game.touched = clock()
        return game, seat

    async def options(request: Request) -> Response:
        # the top-level seats and lengths are granujas' (the default game)
        return JSONResponse({"seats": seat_choices(), "human": HUMAN,
                             "lengths": ["short", "long"],
                             "games": [kind.lobby_json() for kind in KINDS.values()]})

    def room() -> None:
        """503 when the server holds ``max_games`` live games (under registry_lock)."""
        drop_idle()
        if len(games) >= max_games:
            raise WebError(503, f"the server is full ({max_games} games in progress); try again "
                           f"later: a game is dropped after {idle_s / 60:g} minutes without a "
                           "request", headers={"retry-after": "60"})

    async def create(request: Request) -> Response:
        settings = game_settings(await _json_body(request, MAX_BODY))
        with registry_lock:
            room()  # before the work of dealing and playing the bots' first moves
        limit.take("game " + _client(request))
        game = await run_in_threadpool(new_game, settings, records)
        game.touched = clock()
        with registry_lock:
            room()
            games[game.id] = game
        seats = []
        for seat, name in enumerate(game.names):
            token = next((t for t, s in game.tokens.items() if s == seat), None)
            entry = {"seat": seat, "name": name, "human": token is not None}
            if token is not None:
                entry.update(token=token, link=f"/play#game={game.id}&token={token}")
            seats.append(entry)
        return JSONResponse({"game": game.id, "seats": seats}, status_code=201)

    async def state(request: Request) -> Response:
        game, seat = find_game(request)

        def build() -> dict[str, Any]:
            with game.lock:
                return game.state(seat)

        return JSONResponse(await run_in_threadpool(build))

    def changer(method: Callable[[WebGame, int, Mapping[str, Any]], None]):
        async def endpoint(request: Request) -> Response:
            game, seat = find_game(request)
            body = await _json_body(request, MAX_BODY)

            def apply() -> dict[str, Any]:
                with game.lock:
                    method(game, seat, body)
                    return game.state(seat)

            return JSONResponse(await run_in_threadpool(apply))
        return endpoint

    async def game_record(request: Request) -> Response:
        game, _ = find_game(request)

        def build() -> str:
            with game.lock:
                return game.record().to_json()

        return Response(await run_in_threadpool(build), media_type="application/json", headers={
            "content-disposition": f'attachment; filename="granujas-{game.id}.json"'})

    def listed(name: str) -> bool:
        # a web game's record is listed only if it was created public: its players replay it
        # with their token; records the server's owner put in the folder are listed
        return not name.startswith("web-")

    async def list_records(request: Request) -> Response:
        if records is None:
            return JSONResponse({"records": []})
        files = sorted((p for p in records.glob("*.json") if listed(p.name)),
                       key=lambda p: p.stat().st_mtime, reverse=True)
        return JSONResponse({"records": [p.name for p in files[:200]]})

    def open_record(body: Mapping[str, Any], token: str | None) -> Replay:
        _fields(body, ("file", "record", "game", "token"))
        try:
            if "file" in body:
                name = _str(body, "file")
                path = None if records is None else records / name
                # a plain file name of the folder: no path, no NUL, not too long for the system
                if (path is None or not RECORD_NAME.fullmatch(name) or not listed(name)
                        or not path.is_file()):
                    raise WebError(404, f"no record {name[:80]!r} in the record folder")
                record = load(path)
            elif "record" in body:
                record = loads(_str(body, "record"), source="uploaded record")
            elif "game" in body:
                with registry_lock:
                    game = games.get(_str(body, "game"))
                if game is None:
                    raise WebError(404, "no such game")
                game.seat_of(_str(body, "token") if "token" in body else token)
                with game.lock:
                    return game.replay()
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
        limit.take("replay " + _client(request))
        replay = await run_in_threadpool(open_record, body, request.headers.get("x-seat-token"))
        with registry_lock:
            while len(replays) >= MAX_REPLAYS:
                replays.popitem(last=False)
            replays[replay.id] = replay
        return JSONResponse(replay.summary(), status_code=201)

    async def replay_step(request: Request) -> Response:
        with registry_lock:
            replay = replays.get(request.path_params["replay"])
            if replay is not None:
                replays.move_to_end(replay.id)
        if replay is None:
            raise WebError(404, f"no such replay (the server keeps the {MAX_REPLAYS} most recent; "
                           "open the record again)")
        text = request.path_params["step"]
        step = _decimal(text, len(replay.steps))
        if step is None:
            raise WebError(404, f"step must be 0..{len(replay.steps)}, got {text[:20]!r}")
        view = request.query_params.get("view", "public")

        def build() -> dict[str, Any]:
            with replay.lock:
                return replay.step_json(step, view)

        return JSONResponse(await run_in_threadpool(build))

    async def on_web_error(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, WebError)
        return JSONResponse({"error": str(exc), **exc.extra}, status_code=exc.status,
                            headers=exc.headers)

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
        Route("/api/games/{game}/actions", changer(WebGame.act), methods=["POST"]),
        Route("/api/games/{game}/settings", changer(WebGame.settings), methods=["POST"]),
        Route("/api/games/{game}/record", game_record),
        Route("/api/records", list_records),
        Route("/api/replays", create_replay, methods=["POST"]),
        Route("/api/replays/{replay}/steps/{step}", replay_step),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    middleware = [Middleware(_SecurityHeaders), Middleware(_StateChangeGuard)]
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    app = Starlette(routes=routes, middleware=middleware,
                    exception_handlers={WebError: on_web_error, HTTPException: on_http_error})
    app.state.games = games  # for tests and embedding: the live games by id
    app.state.replays = replays
    return app
