"""The project's games as TextArena environments, so agents written for TextArena play them
(extra ``[textarena]``: ``pip install -e '.[textarena]'``).

    import textarena as ta
    import granujas_env.textarena_env  # registers "Granujas-v1" and "BangDice-v0" (and "-raw")

    env = ta.make("Granujas-v1")        # TextArena's observation and action-format wrappers
    env.reset(num_players=3, seed=0)    # "BangDice-v0": 3-8 players
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, step_info = env.step(action=agents[player_id](observation))
    rewards, game_info = env.close()

TextArena's protocol: the environment tells whose turn it is (here the engine does: every
decision of the game, granujas' challenge windows and Bang!'s off-turn reactions included, is one
step of the seat deciding), each player's observation is a list of messages that its wrappers
turn into one string, and an action is free text. One class, :class:`GameTextArenaEnv`, serves
every game through its text interface (:mod:`granujas_env.core.textio`). Messages: at reset a
prompt per player (the game's rules summary and the answer format); after every step the public
events, narrated to everyone; to the deciding player the table as its seat sees it with the
decision and the menu of legal actions. A player's answer is echoed to that player only (in a
hidden-hand game the answer itself can be a secret, e.g. the card chosen in granujas' Plan).

Answers are read by :func:`granujas_env.core.textio.parse_action` (``[12]``, ``12``,
``Action: 12``, an action name, words of one menu line). An answer that is not a legal action is
reported to the player, who is asked again, up to ``error_allowance`` times per decision; then the
default action is played for it (the lowest legal id: granujas' ``pass`` whenever passing is
legal, Bang!'s "keep all and resolve" at a reroll) and ``game_info[player]["invalid_move"]`` is
set for that player only (every other player's stays False). Nobody is eliminated.
``game_info[player]`` also counts ``invalid_answers`` and ``default_actions``. Rewards at the end
are the env's: granujas' ``"win"`` rewards (+1 to the winner, -1/(N-1) to the others), Bang!'s
team rewards (+1 to every seat of the winning side, eliminated ones included, -1 to the others).
"""

from __future__ import annotations

from typing import Any

from . import games
from .bang_dice.version import ENV_VERSION as BANG_VERSION
from .core.textio import menu_names, parse_action, text_game
from .version import ENV_VERSION

try:
    import textarena as ta
    from textarena.envs.registration import ENV_REGISTRY
    from textarena.wrappers import (
        ActionFormattingWrapper,
        GameMessagesAndCurrentBoardObservationWrapper,
    )
except ImportError as exc:  # the optional extra is missing
    raise ImportError(
        "granujas_env.textarena_env needs TextArena: pip install -e '.[textarena]' "
        "(or pip install textarena)"
    ) from exc

__all__ = ["BANG_ENV_ID", "ENV_ID", "BangDiceTextArenaEnv", "GameTextArenaEnv",
           "GranujasTextArenaEnv"]

#: TextArena id of granujas (the engine's rules version); ``ENV_ID + "-raw"`` has no wrappers.
ENV_ID = f"Granujas-v{ENV_VERSION}"
#: TextArena id of Bang! The Dice Game (its rules version)
BANG_ENV_ID = f"BangDice-v{BANG_VERSION.rpartition('_v')[2]}"

ANSWER_FORMAT = (
    "Answer with the id of one legal action in square brackets, e.g. [12] (an action name from "
    "the menu works too)."
)


class GameTextArenaEnv(ta.Env):
    """A game of :mod:`granujas_env.games` behind TextArena's ``Env`` API (see the module
    docstring).

    Args:
        game: the game's name (``granujas``, ``bang-dice``).
        error_allowance: answers a player may get wrong at one decision before the default action
            is played for it.
        options: the game's options (granujas: ``game_length``, ``strategy_cards``).
    """

    def __init__(self, game: str = games.DEFAULT_GAME, error_allowance: int = 1,
                 **options: Any) -> None:
        if isinstance(error_allowance, bool) or not isinstance(error_allowance, int) \
                or error_allowance < 0:
            raise ValueError(f"error_allowance must be an int >= 0, got {error_allowance!r}")
        self.spec = games.get(game)
        self.text = text_game(game)
        self.spec.make_config(self.spec.players.start, **options)  # a bad option fails now
        self.options = options
        self.error_allowance = error_allowance
        self.game: Any = None

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a new game for ``num_players``; ``seed`` fixes the deal."""
        self.game = self.spec.new_game(self.spec.make_config(num_players, **self.options), seed)
        # No seed for TextArena's state: it would reseed Python's global random module; the
        # game draws from its own generator.
        self.state = ta.FFAMultiPlayerState(num_players=num_players,
                                            error_allowance=self.error_allowance)
        self.state.reset(
            game_state={"seed": seed},
            player_prompt_function=self._prompt,
            role_mapping={pid: f"p{pid}" for pid in range(num_players)},
        )
        # fed after every action; the narration reads only public fields: the same from every
        # seat's view
        self._narrator = self.text.narrator(self.text.seat_view(self.game, 0))
        self._wrong = 0  # wrong answers at the pending decision
        # one dict of its own per player, whatever TextArena built: a flag set for one player
        # must never show on another's
        self.state.game_info = {
            pid: {**self.state.game_info[pid], "invalid_move": False, "invalid_answers": 0,
                  "default_actions": 0}
            for pid in range(num_players)
        }
        self._next_decision()

    def _prompt(self, player_id: int, game_state: dict[str, Any]) -> str:
        assert self.game is not None
        return (f"{self.text.rules_summary}\nYou are p{player_id} ({self.text.headline(self.game)})."
                f" {ANSWER_FORMAT}")

    def _next_decision(self) -> None:
        """Narrate the new public events to everyone; show the deciding player its table."""
        game = self.game
        assert game is not None
        events = "\n".join(self._narrator.update(self.text.seat_view(game, 0))).strip("\n")
        if events:
            self.state.add_observation(events, ta.ObservationType.GAME_ACTION_DESCRIPTION)
        if game.game_over:
            self._finish()
            return
        player = game.decision.player
        self.state.manually_set_current_player_id(player, force=True)
        self._show_board(player)

    def _show_board(self, player: int, note: str = "") -> None:
        board = self.text.observation(self.text.seat_view(self.game, player), events="")
        self.state.add_observation(note + board + "\n" + ANSWER_FORMAT,
                                   ta.ObservationType.GAME_BOARD, to_id=player)

    def _finish(self) -> None:
        game = self.game
        reason = self.text.outcome_text(game)
        self.state.add_observation(f"The game is over: {reason.rstrip('.')}.",
                                   ta.ObservationType.GAME_MESSAGE)
        self.state.set_game_outcome({pid: float(r) for pid, r in enumerate(game.returns())}, reason)

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The current player's free-text answer; returns ``(done, step_info)``."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset(num_players=...) before step()")
        if self.state.done:
            raise RuntimeError("the game is over: call close() for the rewards, or reset()")
        player = game.decision.player
        self.state.add_observation(str(action), ta.ObservationType.PLAYER_ACTION,
                                   from_id=player, to_id=player)
        menu = self.text.menu(self.text.seat_view(game, player))
        legal = [item.id for item in menu]
        info = self.state.game_info[player]
        try:
            chosen = parse_action(action, legal, menu_names(menu), yes_no=self.text.yes_no)
        except ValueError as exc:
            info["invalid_answers"] += 1
            self._wrong += 1
            if self._wrong <= self.error_allowance:
                message = f"p{player} attempted an invalid move: {exc}. Please answer again."
                self.state.add_observation(message, ta.ObservationType.GAME_ADMIN, to_id=player)
                self._show_board(player, note=f"Your last answer was not a legal action: {exc}\n\n")
                self.state.made_invalid_move = True  # TextArena: the turn does not count
                return self.state.step(rotate_player=False)
            chosen = min(legal)
            info["default_actions"] += 1
            info["invalid_move"] = True
            self.state.add_observation(
                f"Too many invalid answers: the default action {chosen} was played for you.",
                ta.ObservationType.GAME_ADMIN, to_id=player,
            )
        self._wrong = 0
        game.apply(chosen)
        if game.game_over:
            self._next_decision()  # the last events and the outcome: done before stepping
            return self.state.step(rotate_player=False)
        result = self.state.step(rotate_player=False)  # counts the turn of the player who acted
        self._next_decision()
        return result


class GranujasTextArenaEnv(GameTextArenaEnv):
    """3000 Granujas behind TextArena's API (``Granujas-v1``).

    Args:
        game_length: "short" (2 days) or "long" (3 days).
        strategy_cards: the optional Strategy cards rule.
        error_allowance: see :class:`GameTextArenaEnv`.
    """

    def __init__(self, game_length: str = "short", strategy_cards: bool = False,
                 error_allowance: int = 1) -> None:
        super().__init__("granujas", error_allowance, game_length=game_length,
                         strategy_cards=strategy_cards)


class BangDiceTextArenaEnv(GameTextArenaEnv):
    """Bang! The Dice Game behind TextArena's API (``BangDice-v0``), 3-8 players."""

    def __init__(self, error_allowance: int = 1) -> None:
        super().__init__("bang-dice", error_allowance)


def _register() -> None:
    """Register the games with TextArena's registry (``ta.make(ENV_ID)``)."""
    for env_id, entry_point in ((ENV_ID, GranujasTextArenaEnv),
                                (BANG_ENV_ID, BangDiceTextArenaEnv)):
        if env_id not in ENV_REGISTRY:
            ta.register(id=env_id, entry_point=entry_point, default_wrappers=[
                GameMessagesAndCurrentBoardObservationWrapper, ActionFormattingWrapper,
            ])
        if f"{env_id}-raw" not in ENV_REGISTRY:
            ta.register(id=f"{env_id}-raw", entry_point=entry_point)


_register()
