"""Bots that act with a trained MaskablePPO model, and the loader of the shipped models.

    import agents.policy as policy
    bot = policy.load("bluffer")              # agents/models/bluffer/model.zip
    bot = policy.PolicyAgent("runs/full/model.zip", delegate="heuristic", decisions="bluff")
    action = bot.act(observation, view=seat_view(game, seat))

A :class:`PolicyAgent` plays the decision kinds its model was trained on (``decisions``: a mode
name of :data:`train.single_seat.MODES` or a set of kinds; default: the ``decisions`` recorded in
the model's ``model_card.json``, else every kind) and hands every other decision to its
``delegate`` bot (default: the heuristic, like during training). A model trained with an advisor
(``train.train --advisor heuristic``, recorded in its card) reads the advisor's recommended action
after the observation (:mod:`agents.advice`); the agent runs the advisor at each of its decisions.
It is deterministic by default (the most probable legal action).

The model is read once per path (a module-level cache). Inference runs in numpy on the exported
weights of the MLP policy (``MlpPolicy``: linear layers with tanh/ReLU), about ten times faster per
call than ``model.predict``; other architectures fall back to ``model.predict``.
torch and sb3-contrib are imported only when a model is loaded, so ``import agents`` works without
them (``pip install torch==2.13.0`` then ``pip install -e .[train]``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np

from agents.advice import advised_vector
from agents.base import Agent, legal_actions

__all__ = ["PolicyAgent", "load", "resolve_model", "available_models", "MODELS_DIR", "load_model"]

MODELS_DIR = Path(__file__).resolve().parent / "models"

_MODEL_CACHE: dict[str, tuple[Any, list | None]] = {}
_KIND_DECODER: dict[int, tuple[int, tuple[str, ...]]] = {}


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


def _decision_of(observation: Mapping[str, np.ndarray]) -> str | None:
    """The pending decision kind, read from the observation's ``decision_kind`` one-hot
    (only for observations of the shipped catalog's layout)."""
    vector = np.asarray(observation["observation"])
    if not _KIND_DECODER:
        from granujas_env.codecs import KINDS, ObservationLayout
        from granujas_env.engine.game import default_data

        rules, catalog = default_data()
        layout = ObservationLayout(catalog, rules)
        _KIND_DECODER[layout.size] = (layout.offset["decision_kind"], KINDS)
    decoder = _KIND_DECODER.get(vector.size)
    if decoder is None:
        return None
    offset, kinds = decoder
    one_hot = vector[offset : offset + len(kinds)]
    i = int(np.argmax(one_hot))
    return kinds[i] if one_hot[i] > 0 else None


def _model_card(model_path: Path) -> dict[str, Any]:
    """The ``model_card.json`` next to the model or one folder up (league snapshots), or {}."""
    for folder in (model_path.parent, model_path.parent.parent):
        card = folder / "model_card.json"
        if card.is_file():
            try:
                data = json.loads(card.read_text(encoding="utf-8"))
            except (OSError, ValueError):
                return {}
            return data if isinstance(data, dict) else {}
    return {}


class PolicyAgent(Agent):
    """Acts with a saved MaskablePPO model on its decision kinds, delegates the others.

    Args:
        model_path: the model ``.zip`` (saved by ``train.train`` or ``MaskablePPO.save``).
        delegate: the bot for the other decision kinds: a registered name, an Agent, or None
            (the heuristic, else random). Unused when the model controls every kind.
        decisions: mode name (``bluff``/``safe``/``full``), set of kinds, or None (read from the
            model card next to the model, else every kind).
        advisor: the bot whose recommended action the model reads after the observation
            (:mod:`agents.advice`): a registered name or an Agent; None reads ``advisor`` from
            the model card (models trained without one have none).
        deterministic: most probable legal action (default) or a sample of the masked policy.
        seed: seeds the sampling (``deterministic=False``) and the delegate.
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
    ) -> None:
        from train.single_seat import ALL_DECISIONS, default_bot_name, make_bot, resolve_decisions

        self.model_path = Path(model_path)
        if not self.model_path.is_file():
            raise FileNotFoundError(f"no model at {self.model_path}")
        card = _model_card(self.model_path)
        if decisions is None:
            decisions = card.get("decisions") or None
        self.decisions = resolve_decisions(decisions)
        self.deterministic = deterministic
        self.seed = seed
        self._rng = np.random.default_rng(seed)
        self.model, self._layers = load_model(self.model_path)
        self.delegate = None
        if self.decisions < ALL_DECISIONS:
            spec = delegate if delegate is not None else default_bot_name()
            self.delegate = make_bot(spec, seed=seed)
        advisor = advisor if advisor is not None else card.get("advisor")
        self.advisor = None if advisor is None else make_bot(advisor, seed=seed)
        self.wants_view = self.advisor is not None or (
            self.delegate is not None and getattr(self.delegate, "wants_view", True)
        )
        self.name = f"policy:{self.model_path.parent.name or self.model_path.stem}"
        self.policy_calls = 0
        self.delegated_calls = 0

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self.seed = seed
            self._rng = np.random.default_rng(seed)
        for bot in (self.delegate, self.advisor):
            if bot is not None:
                bot.reset(seed=None if seed is None else random.Random(seed).getrandbits(31))

    def act(self, observation: Mapping[str, np.ndarray], view: object | None = None) -> int:
        legal = legal_actions(observation)
        if self.delegate is not None:
            kind = getattr(view, "decision", None) if view is not None else None
            if kind is None:
                kind = _decision_of(observation)
            if kind is None:
                raise ValueError(
                    "PolicyAgent needs the decision kind: pass view=seat_view(game, seat) "
                    "(observations of a user catalog cannot be decoded alone)"
                )
            if kind not in self.decisions:
                self.delegated_calls += 1
                return int(self.delegate.act(observation, view=view))
        self.policy_calls += 1
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
            return int(legal[0])
        return self.policy_action(vector, legal)

    def policy_action(self, vector: np.ndarray, legal: np.ndarray) -> int:
        """The model's choice among ``legal`` ids for the observation vector ``vector``."""
        if self._layers is None:
            mask = np.zeros(self.model.action_space.n, dtype=bool)
            mask[legal] = True
            action, _ = self.model.predict(
                np.asarray(vector, dtype=np.float32),
                action_masks=mask,
                deterministic=self.deterministic,
            )
            return int(action)
        logits = _logits(self._layers, np.asarray(vector))[legal]
        if self.deterministic:
            return int(legal[int(np.argmax(logits))])
        p = np.exp(logits - logits.max())
        p /= p.sum()
        return int(legal[int(self._rng.choice(len(legal), p=p))])

    def __repr__(self) -> str:
        advisor = "" if self.advisor is None else f", advisor={self.advisor.name!r}"
        return (
            f"PolicyAgent({str(self.model_path)!r}, decisions={len(self.decisions)} kinds{advisor})"
        )


def available_models() -> list[str]:
    """Names of the shipped models (``agents/models/<name>/model.zip``)."""
    if not MODELS_DIR.is_dir():
        return []
    return sorted(p.parent.name for p in MODELS_DIR.glob("*/model.zip"))


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
    """The shipped model ``name`` (e.g. ``"bluffer"``, ``"safecracker"``, ``"full"``) as a
    :class:`PolicyAgent`; ``kwargs`` go to it (``delegate``, ``deterministic``, ``seed``...).
    A path to a ``.zip`` or to a folder holding ``model.zip`` works too."""
    model = resolve_model(name)
    if model is None:
        known = ", ".join(available_models()) or "(none shipped)"
        raise ValueError(f"unknown model {name!r}; shipped models: {known}")
    return PolicyAgent(model, **kwargs)
