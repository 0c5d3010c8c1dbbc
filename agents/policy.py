"""Bots that act with a trained MaskablePPO model, the loader of the shipped models, and the
factory that turns any bot spec (name, import path, model) into a bot.

    import agents.policy as policy
    bot = policy.load("bluffer")              # agents/models/bluffer/model.zip
    bot = policy.PolicyAgent("runs/full/model.zip", delegate="heuristic", decisions="bluff")
    action = bot.act(observation, view=seat_view(game, seat))
    actions = bot.act_batch([obs_a, obs_b], [view_a, view_b])  # one forward pass
    bot = policy.make_bot("mypkg.mybots:Sniper", seed=0)  # names, import paths, models, Agents

A :class:`PolicyAgent` plays the decision kinds its model was trained on (``decisions``: a mode
name of :data:`agents.decisions.MODES` or a set of kinds; default: the ``decisions`` recorded in
the model's ``model_card.json``, else every kind) and hands every other decision to its
``delegate`` bot (default: the card's ``play_delegate``, else the card's ``delegate``, the bot
it trained with, else the heuristic). A model trained with an advisor
(``train.train --advisor heuristic``, recorded in its card) reads the advisor's recommended action
after the observation (:mod:`agents.advice`); the agent runs the advisor at each of its decisions.
It is deterministic by default (the most probable legal action); ``temperature`` (or the card's
``play_temperature``) samples chosen decision kinds from the policy softened by a temperature, a
mixed strategy at the bluff decisions (see :class:`PolicyAgent`). A card's ``models_by_players``
(:func:`agents.model_card.models_by_players`) hands the games of some player counts to other models of
the same folder: the shipped ``full`` plays 2-player games with ``model_2p.zip``.

The model reads the observation through the layout recorded in its card
(:mod:`agents.model_card`): a model trained before the environment gained a decision kind reads
today's observation mapped onto the layout it knows. A card of another environment version fails
to load. A card's ``env_version`` also says which game the model plays: a Bang! The Dice Game
model (``bang_dice_v0``, ``train.train --game bang-dice``) reads the Bang! observation and plays
every Bang! decision (:attr:`PolicyAgent.game`); ``make_bot(spec, game="bang-dice")`` builds the
Bang! bots by name and refuses a model of another game.

The model is read once per path (a module-level cache). Inference runs in numpy on the exported
weights of the MLP policy (``MlpPolicy``: linear layers with tanh/ReLU), about ten times faster per
call than ``model.predict``; other architectures fall back to ``model.predict``.
torch and sb3-contrib are imported only when a model is loaded, so ``import agents`` works without
them (``pip install torch==2.13.0`` then ``pip install -e .[train]``).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from agents.advice import advised_vector
from agents.base import Agent, legal_actions
from agents.decisions import ALL_DECISIONS, resolve_decisions
from agents.model_card import (
    ModelCardError,
    card_game,
    find_card,
    game_layout,
    input_index,
    models_by_players,
    read_card,
    trained_layout,
)
from agents.plan_guard import ActionFilter, make_filter
from agents.registry import (
    DEFAULT_BOT,
    REGISTRY,
    accepts,
    available,
    factory,
    is_import_path,
    make,
)
from granujas_env import games
from granujas_env.codecs import KINDS

__all__ = [
    "PolicyAgent",
    "act_together",
    "play_temperatures",
    "load",
    "make_bot",
    "resolve_model",
    "available_models",
    "MODELS_DIR",
    "load_model",
]

MODELS_DIR = Path(__file__).resolve().parent / "models"

_MODEL_CACHE: dict[str, tuple[Any, list | None]] = {}


def load_model(path: str | Path) -> tuple[Any, list | None]:
    """``(MaskablePPO model, numpy layers or None)`` of a saved ``.zip``, cached by path."""
    key = str(Path(path).resolve())
    cached = _MODEL_CACHE.get(key)
    if cached is None:
        try:
            from sb3_contrib import MaskablePPO
        except ImportError as exc:  # pragma: no cover - depends on the install
            raise ImportError(
                "PolicyAgent needs torch and sb3-contrib: pip install torch==2.13.0 && "
                "pip install -e '.[train]'"
            ) from exc
        model = MaskablePPO.load(key, device="cpu")
        cached = (model, _numpy_layers(model))
        _MODEL_CACHE[key] = cached
    return cached


def _numpy_layers(model: Any) -> list | None:
    """The actor of an MlpPolicy as ``[(W, b, activation), ...]``, or None if not a plain MLP."""
    try:
        import torch.nn as nn
        from stable_baselines3.common.torch_layers import FlattenExtractor

        policy = model.policy
        extractor = getattr(policy, "pi_features_extractor", policy.features_extractor)
        if not isinstance(extractor, FlattenExtractor):
            return None
        layers: list = []
        for module in policy.mlp_extractor.policy_net:
            if isinstance(module, nn.Linear):
                layers.append(
                    [
                        module.weight.detach().numpy().T.copy(),
                        module.bias.detach().numpy().copy(),
                        None,
                    ]
                )
            elif isinstance(module, (nn.Tanh, nn.ReLU)) and layers and layers[-1][2] is None:
                layers[-1][2] = "tanh" if isinstance(module, nn.Tanh) else "relu"
            else:
                return None
        head = policy.action_net
        if not isinstance(head, nn.Linear):
            return None
        layers.append(
            [head.weight.detach().numpy().T.copy(), head.bias.detach().numpy().copy(), None]
        )
        return [tuple(layer) for layer in layers]
    except Exception:  # noqa: BLE001 - any surprise: use model.predict instead
        return None


def _logits(layers: list, x: np.ndarray) -> np.ndarray:
    h = x.astype(np.float32, copy=False)
    for weight, bias, activation in layers:
        h = h @ weight + bias
        if activation == "tanh":
            h = np.tanh(h)
        elif activation == "relu":
            h = np.maximum(h, 0.0)
    return h


def play_temperatures(
    value: float | Mapping[str, float] | None,
    decisions: Iterable[str] = ALL_DECISIONS,
    known: Iterable[str] = ALL_DECISIONS,
) -> dict[str, float]:
    """``{kind: temperature}`` of a ``temperature`` option or a card's ``play_temperature``: a
    mapping of decision kinds (of ``known``, the game's) to positive numbers, or one number for
    each of ``decisions``; None gives none. Raises ``ValueError`` naming the bad entry and what
    is allowed."""
    if value is None:
        return {}
    known = frozenset(known)
    if isinstance(value, Mapping):
        entries = dict(value)
        unknown = sorted(str(kind) for kind in entries if kind not in known)
        if unknown:
            raise ValueError(
                f"play temperature for unknown decision kinds {unknown}; "
                f"the kinds are {', '.join(sorted(known))}"
            )
    else:
        entries = dict.fromkeys(decisions, value)
    temperatures = {}
    for kind, t in entries.items():
        if isinstance(t, bool) or not isinstance(t, (int, float)) or not (0 < t < float("inf")):
            raise ValueError(
                f"play temperature of {kind!r} is {t!r}: a temperature is a positive finite number"
            )
        temperatures[kind] = float(t)
    return temperatures


def all_decisions(game: str = games.DEFAULT_GAME) -> frozenset[str]:
    """Every decision kind of ``game``."""
    return ALL_DECISIONS if game == games.DEFAULT_GAME else frozenset(game_layout(game).kinds)


def game_decisions(decisions: str | Iterable[str] | None, game: str = games.DEFAULT_GAME) -> frozenset[str]:
    """:func:`agents.decisions.resolve_decisions` for ``game``: granujas takes its modes; another
    game takes None or ``"full"`` (every kind) or a set of its kinds (ValueError otherwise)."""
    if game == games.DEFAULT_GAME:
        return resolve_decisions(decisions)
    kinds = all_decisions(game)
    if decisions is None or decisions == "full":
        return kinds
    chosen = frozenset([decisions] if isinstance(decisions, str) else decisions)
    if not chosen or not chosen <= kinds:
        raise ValueError(
            f"decisions of {game}: 'full' or a non-empty set of its kinds "
            f"({', '.join(sorted(kinds))}); got {sorted(chosen)}"
        )
    return chosen


def _one_hot(
    observation: Mapping[str, np.ndarray], piece: str, size: int, game: str = games.DEFAULT_GAME
) -> int | None:
    """Index of the set entry of the observation's one-hot ``piece`` (``size`` entries), None if
    none is set or the observation is not of ``game``'s layout (granujas: the shipped catalog's)."""
    vector = np.asarray(observation["observation"])
    layout = game_layout(game).layout
    if vector.size != layout.size:
        return None
    offset = layout.offset[piece]
    one_hot = vector[offset : offset + size]
    i = int(np.argmax(one_hot))
    return i if one_hot[i] > 0 else None


def _players_of(observation: Mapping[str, np.ndarray]) -> int | None:
    """The player count, read from the observation's ``num_players`` one-hot (2, 3, 4)."""
    i = _one_hot(observation, "num_players", 3)
    return None if i is None else 2 + i


def _decision_of(observation: Mapping[str, np.ndarray], game: str = games.DEFAULT_GAME) -> str | None:
    """The pending decision kind, read from the observation's ``decision_kind`` one-hot."""
    kinds = KINDS if game == games.DEFAULT_GAME else game_layout(game).kinds
    i = _one_hot(observation, "decision_kind", len(kinds), game)
    return None if i is None else kinds[i]


class PolicyAgent(Agent):
    """Acts with a saved MaskablePPO model on its decision kinds, delegates the others.

    Args:
        model_path: the model ``.zip`` (saved by ``train.train`` or ``MaskablePPO.save``).
        delegate: the bot for the other decision kinds (any spec of :func:`make_bot`), or None
            (the model card's ``play_delegate``, else its ``delegate``, else the heuristic).
            Unused when the model controls every kind.
        decisions: mode name (:data:`agents.decisions.MODES`), set of kinds, or None (read from the
            model card next to the model, else every kind). Kinds absent from the layout the
            model was trained on always go to the delegate.
        advisor: the bot whose recommended action the model reads after the observation
            (:mod:`agents.advice`): a spec of :func:`make_bot`; None reads ``advisor`` from the
            model card (models trained without one have none).
        deterministic: most probable legal action (default) or a sample of the masked policy.
        temperature: decision kinds played as a sample of the masked policy with its logits
            divided by a temperature: a mapping ``{kind: T}`` (e.g. ``{"challenge": 3.0}``), or one
            number for every kind; None reads ``play_temperature`` from the model card (none:
            every kind follows ``deterministic``). T > 1 flattens the policy (a mixed strategy),
            T < 1 sharpens it. Needs a plain MLP policy (the numpy inference path).
        seed: seeds the sampling (``deterministic=False`` or a temperature) and the delegate.
        delegate_options: keyword options for the delegate (a registered bot or import path,
            the given one or the card's), over those of its spec:
            ``{"early_challenge_rate": 0.1}``; refused when no model of the bot has a delegate.
        table_models: play the games of the player counts the card's ``models_by_players``
            names with those models (each a :class:`PolicyAgent` of the same arguments, see
            :attr:`table_agents`); False plays ``model_path`` in every game.
        play_filter: a filter (:data:`agents.plan_guard.FILTERS`) that narrows the actions the
            model may choose; None reads ``play_filter`` from the model card (none: no
            filter), ``"none"`` plays without the card's.

    Raises:
        FileNotFoundError: no file at ``model_path``.
        agents.model_card.ModelCardError: the card is of another environment version, or the
            model's input cannot be read from this environment's observation.
        ImportError: torch or sb3-contrib is missing (the ``[train]`` extra).
    """

    name = "policy"

    def __init__(
        self,
        model_path: str | Path,
        delegate: Any = None,
        decisions: str | Iterable[str] | None = None,
        deterministic: bool = True,
        seed: int | None = None,
        advisor: Any = None,
        temperature: float | Mapping[str, float] | None = None,
        table_models: bool = True,
        delegate_options: Mapping[str, Any] | None = None,
        play_filter: str | None = None,
    ) -> None:
        # the arguments as given: each table model reads what is None from its own card
        table_options = dict(
            delegate=delegate, decisions=decisions, deterministic=deterministic, seed=seed,
            advisor=advisor, temperature=temperature, table_models=False,
            delegate_options=delegate_options, play_filter=play_filter,
        )
        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise FileNotFoundError(f"no model at {self.model_path}")
        card_path = find_card(self.model_path)
        card = {} if card_path is None else read_card(card_path)
        # the version and layout are checked before torch is imported: a wrong card fails fast
        trained = None if card_path is None else trained_layout(card, card_path)
        self.game = games.DEFAULT_GAME if card_path is None else card_game(card, card_path)
        """The game the model plays (its card's ``env_version``)."""
        if decisions is None:
            decisions = card.get("decisions") or None
        every = all_decisions(self.game)
        known = every if trained is None else frozenset(trained["decision_kinds"])
        self.decisions = game_decisions(decisions, self.game) & known
        if not self.decisions:
            raise ModelCardError(
                f"{self.model_path}: none of the decisions "
                f"{sorted(game_decisions(decisions, self.game))} is in the layout the model was "
                "trained on"
            )
        self.deterministic = deterministic
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        advisor = advisor if advisor is not None else card.get("advisor")
        self.model, self._layers = load_model(self.model_path)
        if temperature is None:
            temperature = card.get("play_temperature")
        self.temperature = play_temperatures(temperature, self.decisions, every)
        unplayed = sorted(set(self.temperature) - self.decisions)
        if unplayed:
            raise ValueError(
                f"{self.model_path}: play temperature for {unplayed}, kinds this agent hands to "
                f"its delegate; the model plays {', '.join(sorted(self.decisions))}"
            )
        if self.temperature and self._layers is None:
            raise ValueError(
                f"{self.model_path}: a play temperature needs a plain MLP policy (its logits are "
                "read in numpy); this model's policy is not one"
            )
        self._index = self._input_index(trained, advised=advisor is not None)
        if play_filter is None:
            play_filter = card.get("play_filter")
        try:
            self.play_filter: ActionFilter | None = (
                None if play_filter in (None, "none") else make_filter(play_filter)
            )
        except ValueError as exc:
            raise ValueError(f"{self.model_path}: {exc}") from None
        """The filter narrowing the model's choices, if any (its card's ``play_filter``)."""
        self.delegate = None
        if self.decisions < every:
            if delegate is None:
                delegate = card.get("play_delegate") or card.get("delegate") or DEFAULT_BOT
            self.delegate = make_bot(delegate, seed=seed, game=self.game, options=delegate_options)
        self.advisor = None if advisor is None else make_bot(advisor, seed=seed, game=self.game)
        self.wants_view = (
            self.advisor is not None
            or self.play_filter is not None
            or (self.delegate is not None and getattr(self.delegate, "wants_view", True))
        )
        self.name = f"policy:{self.model_path.parent.name or self.model_path.stem}"
        self._policy_calls = 0
        self._delegated_calls = 0
        by_players = table_models and card_path is not None
        self.table_agents: dict[int, PolicyAgent] = {
            n: PolicyAgent(path, **_table_options(path, table_options, self.game))
            for n, path in (models_by_players(card, card_path) if by_players else {}).items()
        }
        """The agents that play the games of these player counts instead of this model."""
        if delegate_options and all(
            a.delegate is None for a in (self, *self.table_agents.values())
        ):
            raise ValueError(
                f"{self.model_path}: delegate options {dict(delegate_options)} given, but the "
                "model plays every decision (it has no delegate)"
            )
        if self.table_agents:
            self.wants_view = True  # picks the table's model by the view's player count

    @property
    def policy_calls(self) -> int:
        """Decisions taken by a model (this one or a table agent's)."""
        return self._policy_calls + sum(a.policy_calls for a in self.table_agents.values())

    @property
    def delegated_calls(self) -> int:
        """Decisions handed to the delegate (this agent's or a table agent's)."""
        return self._delegated_calls + sum(a.delegated_calls for a in self.table_agents.values())

    def table_agent(
        self, observation: Mapping[str, np.ndarray], view: object | None = None
    ) -> PolicyAgent:
        """The agent that plays this decision: the table agent of the game's player count (read
        from ``view``, else the observation), else this one."""
        if not self.table_agents:
            return self
        n = getattr(view, "num_players", None) if view is not None else _players_of(observation)
        if n is None:
            raise ValueError(
                f"{self.name} picks its model by the player count: pass view=seat_view(game, seat)"
            )
        return self.table_agents.get(int(n), self)

    def _input_index(self, trained: Mapping[str, Any] | None, advised: bool) -> np.ndarray | None:
        """Indices of the model's inputs in this env's (advised) observation vector; None when
        they are the vector itself. Checks the model's input size against the card."""
        known = game_layout(self.game)
        layout, num_actions = known.layout, known.num_actions
        advice = num_actions if advised else 0
        model_inputs = int(np.prod(self.model.observation_space.shape))
        if trained is None:  # no card: the model must read today's layout as it is
            if model_inputs != layout.size + advice:
                raise ModelCardError(
                    f"{self.model_path}: no model_card.json beside it says which observation "
                    f"layout it reads, and its {model_inputs} inputs are not this environment's "
                    f"{layout.size} observation values" + (f" + {advice} advice values" if advice else "")
                )
            return None
        if trained.get("num_actions") != num_actions:
            raise ModelCardError(
                f"{self.model_path}: the model was trained on {trained.get('num_actions')} action "
                f"ids, this environment has {num_actions}"
            )
        index = input_index(trained, layout, self.game)
        if advised:  # the advice one-hot follows the observation, as in training
            index = np.concatenate([index, layout.size + np.arange(advice, dtype=np.intp)])
        if model_inputs != index.size:
            raise ModelCardError(
                f"{self.model_path}: the model has {model_inputs} inputs but its card's "
                f"observation_layout gives {index.size}"
                + (" (with the advisor's one-hot)" if advised else "")
            )
        if np.array_equal(index, np.arange(layout.size + advice)):
            return None
        return index

    @property
    def input_index(self) -> np.ndarray | None:
        """Indices of the model's inputs in this env's (advised) observation vector, in the
        model's order; None when the model reads the vector as it is."""
        return self._index

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = np.random.default_rng(seed)
        for agent in self.table_agents.values():  # reseeded as each would be alone
            agent.reset(seed)
        if self.play_filter is not None:
            self.play_filter.reset()
        for bot in (self.delegate, self.advisor):
            if bot is not None:
                bot.reset(seed=None if seed is None else random.Random(seed).getrandbits(31))

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        agent = self.table_agent(observation, view)
        action, vector, legal, kind = agent._prepare(observation, view)
        if action is not None:
            return action
        return agent.policy_action(vector, legal, kind)

    def act_batch(
        self,
        observations: Sequence[Mapping[str, np.ndarray]],
        views: Sequence[object | None] | None = None,
    ) -> list[int]:
        """:meth:`act` for several decisions at once (e.g. one per env of a vectorised run),
        with one forward pass for all those the model takes. Same actions as calling
        :meth:`act` on each in order (the sampling draws follow that order too)."""
        views = [None] * len(observations) if views is None else list(views)
        if len(views) != len(observations):
            raise ValueError(f"{len(observations)} observations but {len(views)} views")
        return act_together([(self, o, v) for o, v in zip(observations, views)])

    def _prepare(
        self, observation: Mapping[str, np.ndarray], view: object | None
    ) -> tuple[int | None, np.ndarray | None, np.ndarray, str | None]:
        """``(action, None, legal, kind)`` for a decision taken without the model (delegated or
        forced), else ``(None, model input, legal, kind)``; ``kind`` is the decision kind where
        the agent needs it (a delegate or a play temperature), else None."""
        legal = legal_actions(observation)
        kind = None
        if self.delegate is not None or self.temperature or self.play_filter is not None:
            kind = getattr(view, "decision", None) if view is not None else None
            if kind is None:
                kind = _decision_of(observation, self.game)
            if kind is None:
                raise ValueError(
                    "PolicyAgent needs the decision kind: pass view=seat_view(game, seat) "
                    "(observations of a user catalog cannot be decoded alone)"
                )
            if kind not in self.decisions:
                self._delegated_calls += 1
                return int(self.delegate.act(observation, view=view)), None, legal, kind
        self._policy_calls += 1
        if self.play_filter is not None:
            narrowed = self.play_filter.narrow(kind, legal, view)
            if len(narrowed) < len(legal):
                # the advisor too recommends among the actions left
                mask = np.zeros(len(observation["action_mask"]), dtype=np.int8)
                mask[narrowed] = 1
                observation = {"observation": observation["observation"], "action_mask": mask}
                legal = narrowed
        if self.advisor is not None:
            if view is None:
                raise ValueError(
                    f"{self.name} reads its advisor's recommendation: pass "
                    "view=seat_view(game, seat)"
                )
            # the advisor sees every decision of the model's kinds, even forced ones, so a
            # stateful advisor follows the game as it did in training
            vector, _ = advised_vector(self.advisor, observation, view)
        else:
            vector = observation["observation"]
        if len(legal) == 1:
            return int(legal[0]), None, legal, kind
        return None, self.model_input(vector), legal, kind

    def model_input(self, vector: np.ndarray) -> np.ndarray:
        """This env's (advised) observation vector read in the layout the model was trained on."""
        if self._index is None:
            return vector
        vector = np.asarray(vector)
        known = game_layout(self.game)
        expected = known.layout.size + (known.num_actions if self.advisor is not None else 0)
        if vector.size != expected:
            raise ValueError(
                f"{self.name} reads the shipped catalog's observation ({expected} values with "
                f"its advice), got {vector.size} values"
            )
        return vector[self._index]

    def policy_action(self, vector: np.ndarray, legal: np.ndarray, kind: str | None = None) -> int:
        """The model's choice among ``legal`` ids for ``vector``, in the model's input layout
        (see :meth:`model_input`), at a decision of ``kind`` (which picks its play temperature;
        None: no temperature)."""
        return self.policy_actions(np.asarray(vector)[None], [legal], [kind])[0]

    def policy_actions(
        self,
        vectors: np.ndarray,
        legals: Sequence[np.ndarray],
        kinds: Sequence[str | None] | None = None,
    ) -> list[int]:
        """:meth:`policy_action` for each row of ``vectors`` (``[k, inputs]``) with its legal
        ids (and decision kind), in one forward pass."""
        if self._layers is None:
            masks = np.zeros((len(legals), self.model.action_space.n), dtype=bool)
            for row, legal in zip(masks, legals):
                row[legal] = True
            actions, _ = self.model.predict(
                np.asarray(vectors, dtype=np.float32),
                action_masks=masks,
                deterministic=self.deterministic,
            )
            return [int(a) for a in np.atleast_1d(actions)]
        all_logits = _logits(self._layers, np.asarray(vectors))
        kinds = [None] * len(legals) if kinds is None else kinds
        return [self._choose(*row) for row in zip(all_logits, legals, kinds)]

    def _choose(self, logits: np.ndarray, legal: np.ndarray, kind: str | None = None) -> int:
        """The legal id picked from one row of the model's logits at a decision of ``kind``."""
        logits = logits[legal]
        temperature = self.temperature.get(kind)
        if temperature is not None:
            logits = logits / temperature
        elif self.deterministic:
            return int(legal[int(np.argmax(logits))])
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(legal[int(self._rng.choice(len(legal), p=p))])

    def __repr__(self) -> str:
        advisor = "" if self.advisor is None else f", advisor={self.advisor.name!r}"
        return (
            f"PolicyAgent({str(self.model_path)!r}, decisions={len(self.decisions)} kinds{advisor})"
        )


def act_together(requests: Sequence[tuple[PolicyAgent, Mapping[str, np.ndarray], Any]]) -> list[int]:
    """The actions of several ``(agent, observation, view)`` decisions (e.g. the frozen
    opponents of all the envs of a vectorised run) with one forward pass per model: agents
    that share a model file share the pass (models are cached by path). Same actions as each
    ``agent.act(observation, view)`` called in the order given (each agent's sampling draws
    too; a non-MLP model falls back to ``model.predict`` on its batch)."""
    actions: list[int | None] = []
    groups: dict[int, list[tuple[int, PolicyAgent, np.ndarray, np.ndarray, str | None]]] = {}
    for i, (agent, observation, view) in enumerate(requests):
        agent = agent.table_agent(observation, view)
        action, vector, legal, kind = agent._prepare(observation, view)
        actions.append(action)
        if action is None:
            groups.setdefault(id(agent.model), []).append((i, agent, vector, legal, kind))
    for items in groups.values():
        first = items[0][1]
        if first._layers is None:  # model.predict: one call per agent (its own determinism)
            for i, agent, vector, legal, kind in items:
                actions[i] = agent.policy_action(vector, legal, kind)
            continue
        all_logits = _logits(first._layers, np.stack([item[2] for item in items]))
        for (i, agent, _, legal, kind), logits in zip(items, all_logits):
            actions[i] = agent._choose(logits, legal, kind)
    return [int(a) for a in actions]


def available_models(game: str = games.DEFAULT_GAME) -> list[str]:
    """Names of the shipped models (``agents/models/<name>/model.zip``) of ``game`` (default
    granujas; a model's game is its card's ``env_version``, a model without a card is granujas')."""
    if not MODELS_DIR.is_dir():
        return []
    return sorted(p.parent.name for p in MODELS_DIR.glob("*/model.zip") if _shipped_game(p) == game)


def _shipped_game(model: Path) -> str:
    """The game of a shipped model; a card of no known env version counts as granujas' (the
    model is listed, and loading it says why it cannot be played)."""
    card = model.parent / "model_card.json"
    if not card.is_file():
        return games.DEFAULT_GAME
    try:
        return card_game(read_card(card), card)
    except ModelCardError:
        return games.DEFAULT_GAME


def _table_options(path: Path, options: Mapping[str, Any], game: str) -> dict[str, Any]:
    """The arguments of a table model: ``options`` as given to the card's bot, with per-kind
    temperatures kept for the kinds that model plays (a Plan-only table model has no challenge
    to temper; one number still tempers every kind it plays), and delegate options only for a
    model that has a delegate."""
    options = dict(options)
    temperature = options.get("temperature")
    if options.get("decisions") is None:
        card_path = find_card(path)
        card = {} if card_path is None else read_card(card_path)
        kinds = game_decisions(card.get("decisions") or None, game)
        if isinstance(temperature, Mapping):
            options["temperature"] = {k: t for k, t in temperature.items() if k in kinds}
        if kinds >= all_decisions(game):
            options["delegate_options"] = None  # no delegate there: the options are for another
    return options


def resolve_model(name: str | Path) -> Path | None:
    """The ``model.zip`` that ``name`` names: a ``.zip`` file, a folder holding ``model.zip``, or
    a shipped model's name; None if it names none."""
    path = Path(name)
    if path.suffix == ".zip" and path.is_file():
        return path
    for folder in (path, MODELS_DIR / str(name)):
        if (folder / "model.zip").is_file():
            return folder / "model.zip"
    return None


def load(name: str, **kwargs: Any) -> PolicyAgent:
    """The shipped model ``name`` (e.g. ``"bluffer"``, ``"safecracker-v1"``, ``"full"``) as a
    :class:`PolicyAgent`; ``kwargs`` go to it (``delegate``, ``deterministic``, ``seed``...).
    A path to a ``.zip`` or to a folder holding ``model.zip`` works too."""
    model = resolve_model(name)
    if model is None:
        known = ", ".join(available_models() + available_models("bang-dice")) or "(none shipped)"
        raise ValueError(f"unknown model {name!r}; shipped models: {known}")
    return PolicyAgent(model, **kwargs)


class _CallableBot:
    """Adapts a plain callable ``(observation, view) -> action`` to the Agent interface."""

    wants_view = True

    def __init__(self, fn: Callable[[Mapping[str, np.ndarray], Any], int]) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "callable")

    def reset(self, seed: int | None = None) -> None:
        reset = getattr(self.fn, "reset", None)
        if callable(reset):
            reset(seed=seed)

    def act(self, observation: Mapping[str, np.ndarray], view: Any = None) -> int:
        return int(self.fn(observation, view))


def _option_value(text: str) -> int | float | str:
    for convert in (int, float):
        try:
            return convert(text)
        except ValueError:
            pass
    return text


def _split_options(spec: str) -> tuple[str, dict[str, Any]]:
    """``"name:k=v:k2=v2"`` -> ``("name", {"k": v, "k2": v2})`` (``make_bot``'s option syntax)."""
    parts = spec.split(":")
    options: dict[str, Any] = {}
    while len(parts) > 1 and "=" in parts[-1]:
        key, _, value = parts.pop().partition("=")
        if not all(word.isidentifier() for word in key.split(".")) or not value:
            raise ValueError(f"bad option {key + '=' + value!r} in {spec!r}: expected :key=value")
        options[key] = _option_value(value)
    return ":".join(parts), dict(reversed(options.items()))


def _model_options(spec: str, options: Mapping[str, Any]) -> dict[str, Any]:
    """:class:`PolicyAgent` keyword arguments of a model spec's options: ``temperature=T`` (every
    kind), ``temperature.<kind>=T`` (one kind each), ``delegate.<option>=V`` (an option of the
    delegate bot), ``filter=NAME`` (a play filter, or ``none`` for none)."""
    if "filter" in options:
        rest = {k: v for k, v in options.items() if k != "filter"}
        return _model_options(spec, rest) | {"play_filter": str(options["filter"])}
    per_kind = {k.partition(".")[2]: v for k, v in options.items() if k.startswith("temperature.")}
    delegate = {k.partition(".")[2]: v for k, v in options.items() if k.startswith("delegate.")}
    unknown = sorted(
        k for k in options if k != "temperature" and not k.startswith(("temperature.", "delegate."))
    )
    if unknown:
        raise ValueError(
            f"options {unknown} given to the model {spec!r}: a model takes temperature=T, "
            "temperature.<decision kind>=T, delegate.<option of its delegate>=V or "
            "filter=<play filter or none>"
        )
    if delegate:
        rest = {k: v for k, v in options.items() if not k.startswith("delegate.")}
        return _model_options(spec, rest) | {"delegate_options": delegate}
    if per_kind and "temperature" in options:
        raise ValueError(
            f"model {spec!r}: give temperature=T or temperature.<decision kind>=T, not both"
        )
    if not options:
        return {}
    return {"temperature": per_kind or options["temperature"]}


def make_bot(
    spec: Any,
    seed: int | None = None,
    game: str = games.DEFAULT_GAME,
    options: Mapping[str, Any] | None = None,
) -> Any:
    """A bot (``act(observation, view=...)``, ``reset(seed=...)``) from any spec: a registered
    bot name, an import path ``module:attribute`` (a bot class or factory), a shipped model name,
    a saved model path (a ``.zip`` or a folder holding ``model.zip``), an Agent, or a callable
    ``(observation, view) -> action``. ``seed`` goes to factories that take one.

    A registered bot or import path may carry keyword options after it, each as ``:key=value``
    (an int, else a float, else a string): ``"ismcts:simulations=100:rollout=random"`` is
    ``make("ismcts", simulations=100, rollout="random")``; no commas, so a tournament's
    comma-separated ``--agents`` list can hold it. A shipped model or model path takes a play
    temperature the same way: ``"full:temperature.challenge=3"`` is
    ``load("full", temperature={"challenge": 3.0})``, ``"full:temperature=2"`` tempers every kind.

    ``game``: whose bots the names are (default granujas; ``"bang-dice"``: the Bang! bots of its
    registry); a model must be of that game (its card's ``env_version``). ``options``: keyword
    options of a registered bot or import path, over those of the spec string (refused for
    anything else).

    Raises ``ValueError`` naming what was wrong and what is accepted."""
    extra = dict(options or {})
    if isinstance(spec, str):
        spec, options = _split_options(spec)
        options.update(extra)
        other_game = game != games.DEFAULT_GAME
        if other_game and spec in available(game):
            options.setdefault("seed", seed)
            try:
                return make(spec, game=game, **options)
            except TypeError as exc:  # an option the bot does not take
                raise ValueError(f"{game} bot {spec!r} with options {options}: {exc}") from None
        if (spec in REGISTRY and not other_game) or is_import_path(spec):
            if accepts(factory(spec), "seed"):
                options.setdefault("seed", seed)
            try:
                return make(spec, **options)
            except TypeError as exc:  # an option the bot does not take
                raise ValueError(f"bot {spec!r} with options {options}: {exc}") from None
        model = resolve_model(spec)
        if model is not None:
            agent = PolicyAgent(model, seed=seed, **_model_options(spec, options))
            if agent.game != game:
                raise ValueError(f"model {spec!r} plays {agent.game}, not {game}")
            return agent
        what = "no model file" if spec.endswith(".zip") else "unknown agent"
        raise ValueError(
            f"{what} {spec!r}: expected a registered bot ({', '.join(available(game))}), a "
            f"shipped model ({', '.join(available_models(game)) or 'none shipped'}), a model path "
            "(a .zip, or a folder holding model.zip) or an import path module:attribute"
        )
    if extra:
        raise ValueError(
            f"options {extra} given to {spec!r}: only a bot named by a string takes them"
        )
    if hasattr(spec, "act"):
        return spec
    if callable(spec):
        return _CallableBot(spec)
    raise TypeError(
        f"cannot make a bot from {spec!r}: expected a name, a .zip path, an Agent or a callable"
    )
