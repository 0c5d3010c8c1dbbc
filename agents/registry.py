"""Name -> factory registry of bots, so scripts and evaluators can say ``make("random")``.

Besides the registered names, :func:`make` accepts an *import path* ``module:attribute`` naming a
bot class or a factory in any importable module (``make("mypkg.mybots:Sniper")``), so users rate
their own bots without editing the registry.

The registry holds granujas' bots. Another game's bots are found through its spec
(:mod:`granujas_env.games`, ``tools["registry"]``): ``make("heuristic", game="bang-dice")``,
``available(game="bang-dice")``. The bots that play any game through its text interface
(:data:`EVERY_GAME`: ``human``, ``llm``) are offered for every game:
``make("llm", game="bang-dice", url=...)``.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Callable, Mapping
from typing import Any

from agents.base import Agent, check_options, option_names
from agents.human import HumanAgent
from agents.llm import LLMAgent
from agents.safecracker import SafecrackerAgent, SafeSearchAgent
from agents.styles import STYLES
from granujas_env import games
from granujas_env.protocol import GameState

__all__ = [
    "REGISTRY",
    "EVERY_GAME",
    "DEFAULT_BOT",
    "register",
    "make",
    "available",
    "factory",
    "accepts",
    "ask",
    "is_import_path",
]

#: Bot name -> callable returning an :class:`Agent`. Later bots add themselves with
#: :func:`register` (or by editing ``agents/__init__.py``).
REGISTRY: dict[str, Callable[..., Agent]] = {}

#: Bots of every game (they read the game's text interface from the seat view they are
#: handed): offered by :func:`available` and :func:`make` whatever the game.
EVERY_GAME: dict[str, Callable[..., Agent]] = {"human": HumanAgent, "llm": LLMAgent}

#: The bot that plays the decisions a trained policy does not control, and the default opponent.
DEFAULT_BOT = "heuristic"

# ``package.module:Attribute`` (dotted on both sides); a file path such as ``C:\x.zip`` never matches
_IMPORT_PATH = re.compile(r"^[A-Za-z_]\w*(\.[A-Za-z_]\w*)*:[A-Za-z_]\w*(\.[A-Za-z_]\w*)*$")


def register(name: str, factory: Callable[..., Agent], *, overwrite: bool = False) -> None:
    """Register ``factory`` under ``name``; refuses to replace a name unless ``overwrite``."""
    if not name or not isinstance(name, str):
        raise ValueError(f"agent name must be a non-empty string, got {name!r}")
    if name in REGISTRY and not overwrite:
        raise ValueError(f"agent {name!r} is already registered (pass overwrite=True)")
    REGISTRY[name] = factory


def _game_bots(game: str) -> Any:
    """The bot module of ``game`` (not granujas), named by its spec's ``tools["registry"]``
    (``"module:make"``): it has ``make(name, **kwargs)`` and ``available()``."""
    if game not in games.GAMES:
        raise ValueError(f"unknown game {game!r}; the games are: {', '.join(games.available())}")
    module_name = games.get(game).tools["registry"].partition(":")[0]
    return importlib.import_module(module_name)


def available(game: str = games.DEFAULT_GAME) -> list[str]:
    """Sorted names of the registered bots of ``game`` (default granujas), the bots of every
    game (:data:`EVERY_GAME`) included."""
    if game == games.DEFAULT_GAME:
        return sorted(REGISTRY)
    return sorted({*_game_bots(game).available(), *EVERY_GAME})


def is_import_path(spec: object) -> bool:
    """Whether ``spec`` has the form ``module:attribute`` of an import path."""
    return isinstance(spec, str) and _IMPORT_PATH.match(spec) is not None


def _import(spec: str) -> Callable[..., Any]:
    module_name, _, attribute = spec.partition(":")
    try:
        obj: Any = importlib.import_module(module_name)
    except ImportError as exc:
        raise ValueError(f"agent {spec!r}: cannot import module {module_name!r} ({exc})") from None
    for part in attribute.split("."):
        try:
            obj = getattr(obj, part)
        except AttributeError:
            raise ValueError(
                f"agent {spec!r}: module {module_name!r} has no attribute {attribute!r}"
            ) from None
    if not callable(obj):
        raise ValueError(
            f"agent {spec!r} is a {type(obj).__name__}, not a bot class or factory"
        )
    return obj


def factory(name: str) -> Callable[..., Any]:
    """The factory of a registered ``name`` or of an import path ``module:attribute``."""
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        pass
    if is_import_path(name):
        return _import(name)
    known = ", ".join(available()) or "(none)"
    raise ValueError(
        f"unknown agent {name!r}; known agents: {known}, or an import path module:attribute"
    )


def accepts(fn: Callable[..., Any], argument: str) -> bool:
    """Whether ``fn`` takes the keyword ``argument`` (or any keyword; a builtin without a
    signature is tried with it)."""
    takes = option_names(fn)
    return takes is None or argument in takes


def make(name: str, *, game: str = games.DEFAULT_GAME, **kwargs: Any) -> Agent:
    """Build the bot registered as ``name`` (or named by an import path ``module:attribute``)
    with ``kwargs`` (e.g. ``make("random", seed=0)``); ``game``: whose bots (default granujas;
    ``make("heuristic", game="bang-dice")`` is the Bang! heuristic; a bot of every game,
    :data:`EVERY_GAME`, plays any game unless the game's own bots use its name)."""
    if game != games.DEFAULT_GAME and not is_import_path(name):
        bots = _game_bots(game)
        if name in EVERY_GAME and name not in bots.available():
            check_options(name, EVERY_GAME[name], kwargs)
            bot = EVERY_GAME[name](**kwargs)
        else:
            bot = bots.make(name, **kwargs)
    else:
        build = factory(name)
        check_options(name, build, kwargs)
        bot = build(**kwargs)
    if not (callable(getattr(bot, "act", None)) and callable(getattr(bot, "reset", None))):
        raise ValueError(
            f"agent {name!r} built a {type(bot).__name__}, not a bot: a bot has "
            "act(observation, view=None) and reset(seed=None) (see agents.Agent)"
        )
    return bot


def ask(bot: Agent, observation: Mapping[str, Any], game: GameState, view: Any = None) -> int:
    """The action ``bot`` chooses at ``game``'s pending decision, asked the way every driver asks
    (:func:`agents.driver.play_game`): the deciding seat's ``view`` to a bot that wants one (built
    by the game's spec, :func:`granujas_env.games.of_state`, when not given), and the live game,
    as ``game=game``, to a bot that declares ``needs_game`` (the search bot samples the hidden
    information its seat may not know from it; agents/search.py says why that is leak-free).
    Front ends (the terminal, the browser server) call this instead of ``bot.act`` so that every
    bot of every game can be seated in them."""
    if game.decision is None:
        raise ValueError("the game is over: there is no decision to ask for")
    if view is None and getattr(bot, "wants_view", True):
        view = games.of_state(game).seat_view(game, game.decision.player)
    if getattr(bot, "needs_game", False):
        return int(bot.act(observation, view=view, game=game))
    return int(bot.act(observation, view=view))


# People and language models as players (granujas_env.text): a terminal seat, a chat endpoint
for _name, _bot in EVERY_GAME.items():
    register(_name, _bot)
# Gauntlet styles (agents/styles.py): the heuristic with one habit changed, style_<name>
for _name, _style in STYLES.items():
    register(_name, _style)
# The heuristic with its Safe decisions searched for Safe tech (agents/safecracker.py)
register("safe_search", SafeSearchAgent)
# The Safe bot: the heuristic reading its rivals' Marks with a fitted model (agents/safecracker.py);
# a registered name comes before a shipped model's, and the model it replaced is "safecracker-v1"
register("safecracker", SafecrackerAgent)
