"""Trained policies as guides of the search bot, and the ``ismcts`` factory that reads bot specs.

    bot = agents.make_bot("ismcts:prior=full:rollout=full:budget=0.3", seed=0)
    bot = make_ismcts(prior="full", rollout="full", simulations=40, seed=0)

:class:`PolicyGuide` wraps a :class:`agents.policy.PolicyAgent` (a shipped model such as ``full``,
or a model path) as an :class:`agents.search.Guide`: for whichever seat decides in a
determinization, it builds that seat's observation and view *of the sample* and reads the model's
probabilities (the PUCT prior) or move (the playouts). It is here, not in ``agents/search.py``,
because the search sits below the bot registry and ``agents.policy`` above it.

:func:`make_ismcts` is what the name ``ismcts`` builds (registered in ``agents/__init__.py``): it
resolves ``prior``/``rollout`` model specs to guides, takes ``budget`` in seconds, and refuses an
unknown option naming the allowed ones.
"""

from __future__ import annotations

import inspect
from typing import Any

import numpy as np

from agents.model_card import default_layout
from agents.policy import PolicyAgent, _logits, make_bot
from agents.search import ROLLOUTS, ISMCTSAgent
from granujas_env.engine import actions as A
from granujas_env.engine.game import Game
from granujas_env.view import seat_view

__all__ = ["PolicyGuide", "make_ismcts", "OPTIONS"]

#: The options of ``ismcts`` specs: ISMCTSAgent's keywords, and ``budget`` (seconds).
OPTIONS = tuple(sorted([*inspect.signature(ISMCTSAgent).parameters, "budget"]))


class PolicyGuide:
    """A trained policy (any spec of :func:`agents.policy.make_bot` naming a model: ``full``, a
    ``.zip`` path...) read by the search for the seat deciding in a determinization. Its
    probabilities are the model's softmax over the legal actions (one-hot at a decision the
    model hands to its delegate); its move is the model's own (its most probable action, as the
    bot plays)."""

    def __init__(self, spec: str, seed: int | None = None) -> None:
        agent = make_bot(spec, seed=seed)
        if not isinstance(agent, PolicyAgent):
            raise ValueError(
                f"a search guide is a trained model (e.g. full, or a model .zip), got {spec!r} "
                f"({type(agent).__name__})"
            )
        models = [agent, *agent.table_agents.values()]
        if any(a._layers is None for a in models):
            raise ValueError(f"search guide {spec!r}: its policy is not a plain MLP (numpy path)")
        self.name = str(spec)
        self.agent = agent
        self._layout = default_layout()

    def reset(self, seed: int | None = None) -> None:
        """Reseed the model's bot (its advisor forgets the game)."""
        self.agent.reset(seed)

    def _inputs(self, game: Game) -> tuple[dict[str, np.ndarray], Any]:
        """The deciding seat's observation and view of ``game`` (the sample)."""
        seat = game.current_player
        mask = np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        mask[game.legal_actions()] = 1
        observation = {"observation": self._layout.encode(game, seat), "action_mask": mask}
        return observation, seat_view(game, seat)

    def probabilities(self, game: Game) -> dict[int, float]:
        """The model's probabilities over the legal actions of ``game``'s deciding seat."""
        observation, view = self._inputs(game)
        agent = self.agent.table_agent(observation, view)
        action, vector, legal, _ = agent._prepare(observation, view)
        if action is not None:  # delegated or forced
            return {int(a): float(a == action) for a in legal}
        logits = _logits(agent._layers, np.asarray(vector)[None])[0][legal].astype(np.float64)
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return {int(a): float(q) for a, q in zip(legal, p)}

    def action(self, game: Game) -> int:
        """The model's move for ``game``'s deciding seat."""
        observation, view = self._inputs(game)
        return int(self.agent.act(observation, view=view))


def make_ismcts(
    *, seed: int | None = None, budget: float | None = None, **options: Any
) -> ISMCTSAgent:
    """The ``ismcts`` bot of a spec's options (:data:`OPTIONS`): ``prior`` and ``rollout`` may
    name a trained model (``prior=full``: PUCT with its probabilities; ``rollout=full``: playouts
    played by it); ``budget``: wall-clock seconds per decision (``time_ms`` / 1000). Raises
    ``ValueError`` naming a bad option and the allowed ones."""
    unknown = sorted(set(options) - set(OPTIONS))
    if unknown:
        raise ValueError(f"ismcts does not take {unknown}; its options are {', '.join(OPTIONS)}")
    if budget is not None:
        if "time_ms" in options:
            raise ValueError("ismcts: give budget (seconds) or time_ms, not both")
        if isinstance(budget, bool) or not isinstance(budget, (int, float)) or budget <= 0:
            raise ValueError(f"ismcts: budget must be a positive number of seconds, got {budget!r}")
        options["time_ms"] = budget * 1000.0
    for key, builtin in (("prior", ("heuristic",)), ("rollout", tuple(ROLLOUTS))):
        value = options.get(key)
        if isinstance(value, str) and value not in builtin:
            try:
                options[key] = PolicyGuide(value, seed=seed)
            except (ValueError, FileNotFoundError) as exc:
                raise ValueError(
                    f"ismcts: {key}={value!r} is neither one of {', '.join(builtin)} nor a trained "
                    f"model ({exc})"
                ) from None
    return ISMCTSAgent(seed=seed, **options)

