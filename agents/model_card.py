"""Model cards: what a trained model was trained on, and how it reads today's observation.

``train.train`` writes ``model_card.json`` beside every model. Besides the command and figures, a
card records the environment version (``"env_version": "granujas_v1"``) and the observation
layout the model was trained on (``"observation_layout"``: the pieces by name and size, the
decision kinds of the ``decision_kind`` one-hot in order, the total size and the number of action
ids). When the environment grows (a new decision kind widens the ``decision_kind`` one-hot), a
model keeps working: :func:`input_index` maps today's observation onto the layout the model knows,
piece by piece and kind by kind (kinds the model never saw are dropped; that decision is played by
the agent's delegate). A layout that cannot be mapped, or a card of another environment version,
fails to load with a :class:`ModelCardError` that says why.

A card of another game of :mod:`granujas_env.games` (``"env_version": "bang_dice_v0"``, Bang! The Dice
Game) records that game's layout the same way: :func:`card_game` names the game a card is of, and
:func:`game_layout` gives each game's observation layout, decision kinds and action count.

A card may name, under ``"models_by_players"`` (``{"2": "model_2p.zip", "4": "plan/model.zip"}``),
models that play the games of that many players instead of the card's ``model.zip``
(:func:`models_by_players`): a ``.zip`` beside the card is read with this card (the same layout,
decisions and advisor; e.g. a 2-player specialist), ``FOLDER/model.zip`` with the card in that
folder (its own layout, decisions and advisor; e.g. a Plan-only model for 3-4 players).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

from granujas_env import games
from granujas_env.bang_dice import codecs as bang_codecs
from granujas_env.bang_dice.engine import actions as bang_actions
from granujas_env.bang_dice.version import ENV_VERSION as BANG_ENV_VERSION
from granujas_env.codecs import KINDS, ObservationLayout
from granujas_env.engine import actions as A
from granujas_env.engine.game import default_data
from granujas_env.version import ENV_NAME

__all__ = [
    "ModelCardError",
    "CARD_NAME",
    "GameLayout",
    "game_layout",
    "card_game",
    "default_layout",
    "layout_record",
    "find_card",
    "read_card",
    "trained_layout",
    "input_index",
    "models_by_players",
]

CARD_NAME = "model_card.json"


class ModelCardError(ValueError):
    """A model card is unreadable, of another environment version, or its layout cannot be read."""


@lru_cache(maxsize=1)
def default_layout() -> ObservationLayout:
    """The observation layout of the shipped rules and catalog (what trained models read)."""
    rules, catalog = default_data()
    return ObservationLayout(catalog, rules)


@dataclass(frozen=True)
class GameLayout:
    """What a model of one game reads and answers: the game's name and env version, its
    observation layout (``pieces`` with ``name``/``size``/``offset``, ``size``), the decision
    kinds of its ``decision_kind`` one-hot in order, and its number of action ids."""

    game: str
    env_version: str
    layout: Any
    kinds: tuple[str, ...]
    num_actions: int

    @property
    def kind_index(self) -> dict[str, int]:
        return {kind: i for i, kind in enumerate(self.kinds)}


def game_layout(game: str = games.DEFAULT_GAME) -> GameLayout:
    """The :class:`GameLayout` of ``game`` (a name of :mod:`granujas_env.games`; granujas: the
    shipped catalog's). ValueError names the games for an unknown one."""
    if game == games.DEFAULT_GAME:
        return GameLayout(game, ENV_NAME, default_layout(), tuple(KINDS), A.NUM_ACTIONS)
    if game == "bang-dice":
        return GameLayout(
            game, BANG_ENV_VERSION, bang_codecs.LAYOUT, tuple(bang_codecs.KINDS),
            bang_actions.NUM_ACTIONS,
        )
    raise ValueError(f"no model layout for the game {game!r}; the games are: {', '.join(games.available())}")


#: env version -> game name, for the games models can be trained on
_GAME_OF_VERSION = {ENV_NAME: games.DEFAULT_GAME, BANG_ENV_VERSION: "bang-dice"}


def layout_record(layout: ObservationLayout | None = None, game: str = games.DEFAULT_GAME) -> dict[str, Any]:
    """The ``observation_layout`` entry of a model card for ``layout`` (default: the layout of
    ``game``, granujas: the shipped catalog's): total size, decision kinds of the one-hot in
    order, pieces, action ids."""
    known = game_layout(game)
    layout = layout or known.layout
    return {
        "size": layout.size,
        "decision_kinds": list(known.kinds),
        "pieces": [[piece.name, piece.size] for piece in layout.pieces],
        "num_actions": known.num_actions,
    }


def find_card(model_path: str | Path) -> Path | None:
    """The ``model_card.json`` beside the model or one folder up (checkpoints, league
    snapshots), or None."""
    model_path = Path(model_path)
    for folder in (model_path.parent, model_path.parent.parent):
        card = folder / CARD_NAME
        if card.is_file():
            return card
    return None


def read_card(path: str | Path) -> dict[str, Any]:
    """The model card at ``path`` (a ``model_card.json``) as a dict."""
    path = Path(path)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError) as exc:
        raise ModelCardError(f"{path}: not a readable JSON model card ({exc})") from None
    if not isinstance(data, dict):
        raise ModelCardError(f"{path}: a model card is a JSON object, got {type(data).__name__}")
    return data


def models_by_players(card: Mapping[str, Any], card_path: str | Path) -> dict[int, Path]:
    """The card's ``models_by_players``, checked: ``{player count: model path}`` (a ``.zip``
    beside the card, or ``FOLDER/model.zip`` with its own card); ``{}`` when it has none.
    :class:`ModelCardError` names a bad entry."""
    entries = card.get("models_by_players")
    if entries is None:
        return {}
    folder = Path(card_path).parent
    if not isinstance(entries, Mapping):
        raise ModelCardError(
            f"{card_path}: models_by_players must map player counts to model files, e.g. "
            f'{{"2": "model_2p.zip"}}; got {type(entries).__name__}'
        )
    models: dict[int, Path] = {}
    for count, name in entries.items():
        if count not in ("2", "3", "4"):
            raise ModelCardError(
                f"{card_path}: models_by_players key {count!r}: expected a player count 2, 3 or 4"
            )
        parts = Path(name).parts if isinstance(name, str) else ()
        beside = len(parts) == 1 and name.endswith(".zip")
        nested = len(parts) == 2 and parts[1] == "model.zip" and parts[0] not in ("..", ".")
        if not (beside or nested) or Path(name).is_absolute():
            raise ModelCardError(
                f"{card_path}: models_by_players[{count!r}] must name a .zip file beside the "
                f"card (read with this card) or FOLDER/model.zip in a folder beside it (read "
                f"with that folder's own card), got {name!r}"
            )
        if not (folder / name).is_file():
            raise ModelCardError(f"{card_path}: models_by_players[{count!r}]: no file {name}")
        if nested and not (folder / parts[0] / CARD_NAME).is_file():
            raise ModelCardError(
                f"{card_path}: models_by_players[{count!r}]: {parts[0]}/ holds no {CARD_NAME}"
            )
        models[int(count)] = folder / name
    return models


def card_game(card: Mapping[str, Any], where: str | Path = "model card") -> str:
    """The name of the game whose env version the card records (granujas: this version only);
    :class:`ModelCardError` for any other version (``where`` names the card)."""
    version = card.get("env_version")
    game = _GAME_OF_VERSION.get(version) if isinstance(version, str) else None
    if game is None:
        found = (
            f"env_version {version!r}"
            if version is not None
            else "no env_version (a card of granujas_v0, before versions were recorded)"
        )
        raise ModelCardError(
            f"{where}: the model card has {found}, but this environment is {ENV_NAME!r}; "
            f"retrain the model under {ENV_NAME} or record in its card the env_version and the "
            "observation_layout it was trained on"
        )
    return game


def trained_layout(card: Mapping[str, Any], where: str | Path = "model card") -> Mapping[str, Any]:
    """The card's ``observation_layout`` after checking that the card is of this env version
    or of another game's (:func:`card_game`; ``where`` names the card in errors)."""
    card_game(card, where)
    layout = card.get("observation_layout")
    if not isinstance(layout, Mapping):
        raise ModelCardError(f"{where}: the model card has no observation_layout object")
    return layout


def input_index(
    trained: Mapping[str, Any], layout: ObservationLayout | None = None, game: str = games.DEFAULT_GAME
) -> np.ndarray:
    """Indices into today's observation vector of ``game`` (``layout``, default the game's;
    granujas: the shipped catalog's), one
    per value of the ``trained`` layout, in the trained order: ``observation[index]`` is the
    vector the model was trained to read. Pieces are matched by name and must keep their size,
    except ``decision_kind``, matched kind by kind (kinds absent from the trained layout are
    dropped). Raises :class:`ModelCardError` when the trained layout cannot be read from today's."""
    known = game_layout(game)
    layout = layout or known.layout
    kind_index = known.kind_index
    env_name = known.env_version
    pieces = trained.get("pieces")
    kinds = trained.get("decision_kinds")
    size = trained.get("size")
    if not isinstance(pieces, list) or not isinstance(kinds, list) or not isinstance(size, int):
        raise ModelCardError(
            "observation_layout needs 'pieces' ([[name, size], ...]), 'decision_kinds' (a list) "
            f"and 'size' (an int); got keys {sorted(trained)}"
        )
    current = {piece.name: piece for piece in layout.pieces}
    parts: list[np.ndarray] = []
    for entry in pieces:
        if not (isinstance(entry, list) and len(entry) == 2 and isinstance(entry[1], int)):
            raise ModelCardError(f"observation_layout piece {entry!r} is not [name, size]")
        name, width = entry
        piece = current.get(name)
        if piece is None:
            raise ModelCardError(
                f"the model reads observation piece {name!r}, which this environment "
                f"({env_name}) no longer has; pieces: {list(current)}"
            )
        if name == "decision_kind":
            missing = [k for k in kinds if k not in kind_index]
            if missing:
                raise ModelCardError(
                    f"the model's decision_kind one-hot has kinds unknown to {env_name}: {missing}"
                )
            if width != len(kinds) or len(set(kinds)) != len(kinds):
                raise ModelCardError(
                    f"the model's decision_kind piece has {width} values but its card lists "
                    f"{len(set(kinds))} distinct decision kinds ({len(kinds)} entries)"
                )
            parts.append(np.asarray([piece.offset + kind_index[k] for k in kinds], dtype=np.intp))
        elif width != piece.size:
            raise ModelCardError(
                f"observation piece {name!r} has {piece.size} values in {env_name} but the model "
                f"was trained on {width} (another catalog or rules?)"
            )
        else:
            parts.append(np.arange(piece.offset, piece.offset + width, dtype=np.intp))
    index = np.concatenate(parts) if parts else np.zeros(0, dtype=np.intp)
    if index.size != size:
        raise ModelCardError(
            f"observation_layout pieces add up to {index.size} values, its size says {size}"
        )
    return index
