"""The interface every granujas bot follows.

A bot is driven one decision at a time by whoever runs the game (the AEC env loop, the
single-seat training wrapper, the evaluator)::

    agent.reset(seed=...)                      # once per game
    for name in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        view = env.unwrapped.seat_view(name)   # optional for bots with wants_view = False
        action = None if term or trunc else bots[name].act(obs, view=view)
        env.step(action)

``observation`` is the PettingZoo dict ``{"observation": float32 array, "action_mask": int8
array}``; ``action_mask[i] == 1`` marks action id ``i`` as legal (the mask is 0/1 only).
``view`` is an optional semantic, per-seat view of the same information (what the seat may
know, as Python objects) that the env may provide for rule-based bots; it may be ``None`` and
bots that do not need it ignore it. A bot never sees more than its seat's observation.
"""

from __future__ import annotations

import abc
import inspect
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

import numpy as np

__all__ = ["Agent", "LazyObservation", "check_options", "legal_actions", "legal_ids", "option_names"]


class LazyObservation(Mapping):
    """The PettingZoo observation dict of the deciding seat, built from its legal ids, each entry
    only when read: rule-based bots read the action mask only (and :func:`legal_actions` reads
    not even that), and encoding the vector is a large share of an env step.

    ``legal``: the legal ids (as the engine lists them, ascending); ``num_actions``: the size of
    the mask; ``encode()``: the observation vector.
    """

    __slots__ = ("legal", "_num_actions", "_encode", "_cache")

    def __init__(
        self, legal: Sequence[int], num_actions: int, encode: Callable[[], np.ndarray]
    ) -> None:
        self.legal = legal
        self._num_actions = num_actions
        self._encode = encode
        self._cache: dict[str, np.ndarray] = {}

    def __getitem__(self, key: str) -> np.ndarray:
        value = self._cache.get(key)
        if value is None:
            if key == "action_mask":
                value = np.zeros(self._num_actions, dtype=np.int8)
                value[list(self.legal)] = 1
            elif key == "observation":
                value = self._encode()
            else:
                raise KeyError(key)
            self._cache[key] = value
        return value

    def __iter__(self) -> Iterator[str]:
        return iter(("observation", "action_mask"))

    def __len__(self) -> int:
        return 2


def legal_actions(observation: Mapping[str, np.ndarray]) -> np.ndarray:
    """Return the legal action ids (ascending, as an int array) of ``observation``.

    Raises ``ValueError`` when there is no ``action_mask`` or it has no legal action, which
    happens when a bot is asked to act for a seat that is not the one deciding (the granujas
    env gives an all-zero mask to every seat but the acting one).
    """
    if isinstance(observation, LazyObservation) and observation.legal:
        # the ids the mask would be built from: the same array, without building the mask
        return np.array(sorted(set(observation.legal)), dtype=np.intp)
    try:
        mask = observation["action_mask"]
    except (KeyError, TypeError, IndexError):
        raise ValueError(
            "observation has no 'action_mask': expected the PettingZoo dict "
            "{'observation': ..., 'action_mask': ...}"
        ) from None
    mask = np.asarray(mask)
    if mask.ndim != 1:
        raise ValueError(f"action_mask must be 1-D, got shape {mask.shape}")
    legal = np.flatnonzero(mask)
    if legal.size == 0:
        raise ValueError(
            f"no legal action: action_mask (size {mask.size}) is all zeros; is it this "
            "seat's turn to decide? (only the acting seat gets a non-zero mask)"
        )
    return legal


def legal_ids(observation: Mapping[str, np.ndarray]) -> list[int]:
    """:func:`legal_actions` as a list of Python ints. The ids of a
    :class:`LazyObservation` (what drivers hand to bots) are read as they are, without
    the round trip through a numpy array (a few us of every decision)."""
    if isinstance(observation, LazyObservation) and observation.legal:
        return sorted({int(a) for a in observation.legal})
    return legal_actions(observation).tolist()


def option_names(factory: Callable[..., Any]) -> list[str] | None:
    """The keyword options a bot factory takes, in order; None when it takes any keyword
    (``**kwargs``) or has no signature to read."""
    try:
        parameters = inspect.signature(factory).parameters.values()
    except (TypeError, ValueError):
        return None
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in parameters):
        return None
    return [p.name for p in parameters
            if p.kind in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)]


def check_options(name: str, factory: Callable[..., Any], options: Mapping[str, Any]) -> None:
    """Refuse keyword ``options`` that the bot factory ``factory`` does not take: ValueError
    naming them and the options it takes. A factory taking any keyword (``**kwargs``), or
    without a signature, is left to refuse them itself."""
    takes = option_names(factory)
    unknown = [] if takes is None else sorted(set(options) - set(takes))
    if unknown:
        raise ValueError(f"bot {name!r} takes no option {', '.join(map(repr, unknown))}; "
                         f"its options: {', '.join(takes) or 'none'}")


class Agent(abc.ABC):
    """Abstract bot.

    Subclasses set ``name`` and implement :meth:`act`; they override :meth:`reset` when they
    keep per-game state or randomness.

    Contract of :meth:`act`: return a Python ``int`` ``i`` with ``observation["action_mask"][i]
    == 1``; raise ``ValueError`` (see :func:`legal_actions`) when the mask has no legal action.
    """

    name: str = "agent"
    #: Whether the bot reads the semantic ``view``; drivers may skip building it when False.
    wants_view: bool = True

    def reset(self, seed: int | None = None) -> None:  # noqa: B027 - optional hook
        """Prepare for a new game. ``seed`` (if given) reseeds the bot's randomness, so a
        game replays exactly; ``None`` keeps the current random stream going."""

    @abc.abstractmethod
    def act(
        self,
        observation: Mapping[str, np.ndarray],
        view: object | None = None,
    ) -> int:
        """Choose a legal action id for the seat whose ``observation`` this is."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(name={self.name!r})"
