"""granujas as a TextArena environment, so agents written for TextArena play it (extra
``[textarena]``: ``pip install -e '.[textarena]'``).

    import textarena as ta
    import granujas_env.textarena_env  # registers "Granujas-v1" (and "Granujas-v1-raw")

    env = ta.make("Granujas-v1")        # TextArena's observation and action-format wrappers
    env.reset(num_players=3, seed=0)
    done = False
    while not done:
        player_id, observation = env.get_observation()
        done, step_info = env.step(action=agents[player_id](observation))
    rewards, game_info = env.close()

TextArena's protocol: the environment tells whose turn it is (here the engine does: every
decision of the game, challenge windows included, is one step of the seat deciding), each
player's observation is a list of messages that its wrappers turn into one string, and an action
is free text. Messages: at reset a prompt per player (:data:`granujas_env.text.RULES_SUMMARY` and
the answer format); after every step the public events with the cause of every change
(:class:`granujas_env.text.Narrator`), narrated to everyone; to the deciding
player the table as its seat sees it with the decision and the menu of legal actions
(:func:`granujas_env.text.text_observation`). A player's answer is echoed to that player only (in a
hidden-hand game the answer itself can be a secret, e.g. the card chosen in the Plan).

Answers are read by :func:`granujas_env.text.parse_action` (``[12]``, ``12``, ``Action: 12``, an
action name, words of one menu line). An answer that is not a legal action is reported to the
player, who is asked again, up to ``error_allowance`` times per decision; then the default action
is played for it (the lowest legal id: ``pass`` whenever passing is legal) and
``game_info[player]["invalid_move"]`` is set for that player only (every other player's stays
False). Nobody is eliminated. ``game_info[player]`` also
counts ``invalid_answers`` and ``default_actions``. Rewards at the end are the env's ``"win"``
rewards: +1 to the winner, -1/(N-1) to the others.
"""

from __future__ import annotations

from typing import Any

from .engine.game import Game, GameConfig
from .text import RULES_SUMMARY, Narrator, legal_action_menu, parse_action, text_observation
from .version import ENV_VERSION
from .view import seat_view

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

__all__ = ["ENV_ID", "GranujasTextArenaEnv"]

#: TextArena id of the game (the engine's rules version); ``ENV_ID + "-raw"`` has no wrappers.
ENV_ID = f"Granujas-v{ENV_VERSION}"

ANSWER_FORMAT = (
    "Answer with the id of one legal action in square brackets, e.g. [12] (an action name such "
    "as [slot:5] works too)."
)


class GranujasTextArenaEnv(ta.Env):
    """3000 Granujas behind TextArena's ``Env`` API (see the module docstring).

    Args:
        game_length: "short" (2 days) or "long" (3 days).
        strategy_cards: the optional Strategy cards rule.
        error_allowance: answers a player may get wrong at one decision before the default action
            is played for it.
    """

    def __init__(self, game_length: str = "short", strategy_cards: bool = False,
                 error_allowance: int = 1) -> None:
        if isinstance(error_allowance, bool) or not isinstance(error_allowance, int) \
                or error_allowance < 0:
            raise ValueError(f"error_allowance must be an int >= 0, got {error_allowance!r}")
        GameConfig(2, game_length, strategy_cards)  # fail now on a bad option, not at reset
        self.game_length = game_length
        self.strategy_cards = strategy_cards
        self.error_allowance = error_allowance
        self.game: Game | None = None

    def reset(self, num_players: int, seed: int | None = None) -> None:
        """Deal a new game for ``num_players`` (2-4); ``seed`` fixes the deal."""
        self.game = Game(GameConfig(num_players, self.game_length, self.strategy_cards), seed)
        # No seed for TextArena's state: it would reseed Python's global random module; the
        # game draws from its own generator.
        self.state = ta.FFAMultiPlayerState(num_players=num_players,
                                            error_allowance=self.error_allowance)
        self.state.reset(
            game_state={"seed": seed},
            player_prompt_function=self._prompt,
            role_mapping={pid: f"p{pid}" for pid in range(num_players)},
        )
        self._narrator = Narrator(self.game.catalog, self.game.rules)  # fed after every action
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
        return (f"{RULES_SUMMARY}\nYou are p{player_id} of {self.game.num_players} players "
                f"({self.game_length} game). {ANSWER_FORMAT}")

    def _next_decision(self) -> None:
        """Narrate the new public events to everyone; show the deciding player its table."""
        game = self.game
        assert game is not None
        # the narration reads only public fields: the same from every seat's view
        events = "\n".join(self._narrator.update(seat_view(game, 0))).strip("\n")
        if events:
            self.state.add_observation(events, ta.ObservationType.GAME_ACTION_DESCRIPTION)
        if game.game_over:
            self._finish()
            return
        player = game.current_player
        self.state.manually_set_current_player_id(player, force=True)
        self._show_board(player)

    def _show_board(self, player: int, note: str = "") -> None:
        assert self.game is not None
        view = seat_view(self.game, player)
        board = text_observation(view, since=len(view.history))
        self.state.add_observation(note + board + "\n" + ANSWER_FORMAT,
                                   ta.ObservationType.GAME_BOARD, to_id=player)

    def _finish(self) -> None:
        game = self.game
        assert game is not None and game.scores is not None
        scores = ", ".join(f"p{s}: {v}" for s, v in enumerate(game.scores))
        reason = f"p{game.winner} wins; tech scores {scores}"
        self.state.add_observation(f"The game is over: {reason}.", ta.ObservationType.GAME_MESSAGE)
        self.state.set_game_outcome({pid: float(r) for pid, r in enumerate(game.returns())}, reason)

    def step(self, action: str) -> tuple[bool, dict[str, Any]]:
        """The current player's free-text answer; returns ``(done, step_info)``."""
        game = self.game
        if game is None:
            raise RuntimeError("call reset(num_players=...) before step()")
        if self.state.done:
            raise RuntimeError("the game is over: call close() for the rewards, or reset()")
        player = game.current_player
        self.state.add_observation(str(action), ta.ObservationType.PLAYER_ACTION,
                                   from_id=player, to_id=player)
        menu = legal_action_menu(game)
        legal = [item.id for item in menu]
        info = self.state.game_info[player]
        try:
            chosen = parse_action(action, legal, {i.id: (i.name, i.meaning) for i in menu})
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


def _register() -> None:
    """Register the game with TextArena's registry (``ta.make(ENV_ID)``)."""
    if ENV_ID not in ENV_REGISTRY:
        ta.register(id=ENV_ID, entry_point=GranujasTextArenaEnv, default_wrappers=[
            GameMessagesAndCurrentBoardObservationWrapper, ActionFormattingWrapper,
        ])
    if f"{ENV_ID}-raw" not in ENV_REGISTRY:
        ta.register(id=f"{ENV_ID}-raw", entry_point=GranujasTextArenaEnv)


_register()
