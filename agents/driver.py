"""Run one game between bots through the AEC environment and collect per-seat statistics.

    from agents import make
    from agents.driver import play_game
    result = play_game({"num_players": 4, "game_length": "short"},
                       [make("heuristic"), make("random"), make("random"), make("random")], seed=0)
    result["scores"], result["winner"], result["stats"][0]["bluffs_caught"]

Each bot gets ``act(observation, view=...)``, the seat's view of the decision
(:class:`granujas_env.view.DecisionViews`: built lazily, so a bot pays only for the fields it reads;
bots with ``wants_view = False`` get ``view=None``); bots with ``needs_game = True`` (the search bot)
also get ``game=game``. The statistics are computed after the game from the
engine's record (``game.history``, ``game.played_log``, the final state), so they count what really
happened, including values no bot could see, and from the challenge decisions the driver saw
answered (the engine logs the Ayudante's pre-emption as a challenge too: it is not one here).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from typing import Any

from agents.base import Agent
from granujas_env.engine.game import Game
from granujas_env.env import raw_env
from granujas_env.record import record_game
from granujas_env.view import DecisionViews

__all__ = ["play_game", "game_stats", "text_counters", "STAT_KEYS", "TEXT_COUNTERS", "TEXT_PREFIX"]

#: Prefix of a text agent's counters in a game's per-seat statistics (``text_calls``, ...).
TEXT_PREFIX = "text_"

#: Per-seat statistics returned by :func:`game_stats`.
STAT_KEYS = (
    "score",
    "won",
    "cards_played",
    "bluffs_played",  # cards played into a slot that is not their value (a 0 is always a bluff)
    "bluffs_caught",  # own bluffs revealed with a rival's challenge on them (see game_stats)
    "bluffs_revealed",  # own bluffs revealed with any henchman on them (challenges, the
    # Ayudante pre-emption, henchmen placed by card effects)
    "challenges_made",  # challenge decisions answered "confirm" (henchmen placed by card effects
    # or pre-emptions are not challenges: a bot that never challenges makes none)
    "challenges_correct",  # ... on cards that were bluffs (counted when revealed)
    "rival_bluffs",  # bluffs played by the other seats (the recall denominator)
    "safes_held",
    "safe_tech",  # tech of the Safes held at the end
    "marks_matched",  # matching Marks (anyone's) on the Safes held: +1 tech each
    "own_marks_matching",  # this seat's Marks whose face equals the Safe's value (wherever it is)
    "reputation",
    "reputation_tech",
    "granuja_tech",
    "money",
)


def game_stats(
    game: Game, challenges: Collection[tuple[int, int, int, int]] | None = None
) -> list[dict[str, int]]:
    """Per-seat statistics of a finished game (see :data:`STAT_KEYS`).

    ``challenges``: the ``(day, challenger, card owner, slot)`` of the challenge decisions
    answered "confirm", as :func:`play_game` collects them; they alone count as challenges (made,
    correct) and make a revealed bluff "caught". The engine's log cannot tell them apart from
    the Ayudante del sheriff's pre-emption (a henchman put on the card before one is jailed, logged
    as a ``"challenge"`` event): without ``challenges`` every such event counts. Henchmen placed
    by card effects (``"place_henchman"``) never count."""
    n = game.num_players
    stats = [dict.fromkeys(STAT_KEYS, 0) for _ in range(n)]
    bluffs_by_seat = [0] * n
    for by_seat in game.played_log:
        for seat, cards in enumerate(by_seat):
            stats[seat]["cards_played"] += len(cards)
            bluffs = sum(1 for slot, value in cards if value != slot)
            stats[seat]["bluffs_played"] += bluffs
            bluffs_by_seat[seat] += bluffs
    total_bluffs = sum(bluffs_by_seat)
    for seat in range(n):
        stats[seat]["rival_bluffs"] = total_bluffs - bluffs_by_seat[seat]
    if challenges is None:
        challenges = [event[1:] for event in game.history if event[0] == "challenge"]
    challenged = set(challenges)  # (day, challenger, card owner, slot)
    for _day, challenger, _owner, _slot in challenged:
        stats[challenger]["challenges_made"] += 1
    for event in game.history:
        if event[0] == "reveal":
            _, day, seat, slot, _value, bluff, owners = event
            if bluff:
                stats[seat]["bluffs_revealed"] += 1
                by = [owner for owner in owners if (day, owner, seat, slot) in challenged]
                stats[seat]["bluffs_caught"] += 1 if by else 0
                for owner in by:
                    stats[owner]["challenges_correct"] += 1
    for safe in game.safes:
        for owner, face in safe.marks:
            if face == safe.value:
                stats[owner]["own_marks_matching"] += 1
    for seat in range(n):
        player = game.players[seat]
        s = stats[seat]
        if game.game_over:
            part = game.score_breakdown(seat)
            s["score"] = part["total"]
            s["safe_tech"] = part["safes"]
            s["marks_matched"] = part["marks"]
            s["reputation_tech"] = part["reputation"]
            s["granuja_tech"] = part["granujas"]
        s["won"] = int(game.winner == seat)
        s["safes_held"] = len(player.safes)
        s["reputation"] = player.reputation
        s["money"] = player.money
    return stats


#: Counters read from a text agent's attributes when it has no ``text_stats()`` method (the names
#: agents/llm.py and agents/human.py use); ``answers`` are the replies received (real answers).
TEXT_COUNTERS = ("decisions", "calls", "answers", "invalid_answers", "errors", "fallbacks")


def text_counters(bot: Agent) -> dict[str, int] | None:
    """The answer counters (cumulative) of a bot that answers in text, else None.

    A bot's ``text_stats()`` or ``counters()`` method (agents/llm.py) is read as it is: a mapping
    of counter name -> count since the bot was built (every name is reported). Otherwise the
    attributes of :data:`TEXT_COUNTERS` it has, if one of them is ``invalid_answers``.
    ``answers`` missing but ``calls`` there: the requests that did not fail, ``calls - errors``.
    """
    method = getattr(bot, "text_stats", None) or getattr(bot, "counters", None)
    if callable(method):
        counts = {str(k): int(v) for k, v in method().items()}
    elif hasattr(bot, "invalid_answers"):
        counts = {k: int(getattr(bot, k)) for k in TEXT_COUNTERS if hasattr(bot, k)}
    else:
        return None
    if "answers" not in counts and "calls" in counts:
        counts["answers"] = counts["calls"] - counts.get("errors", 0)
    return counts


def play_game(
    env_kwargs: Mapping[str, Any] | None,
    bots: Sequence[Agent],
    seed: int,
    *,
    bot_seeds: Sequence[int | None] | None = None,
    max_steps: int = 100_000,
    record: bool = False,
    meta: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """Play one game of ``raw_env(**env_kwargs)`` with ``bots[seat]`` in each seat.

    ``seed`` fixes the deal; ``bot_seeds`` (one per seat) reseeds each bot with ``reset(seed)``
    (default: ``reset()`` with no seed). Returns ``{"seed", "scores", "winner", "steps",
    "stats"}`` where ``stats[seat]`` is the dict of :func:`game_stats`, plus, for a text agent,
    this game's share of its :func:`text_counters` as ``text_<name>``; with ``record=True`` also
    ``"record"``, the game as a :class:`granujas_env.record.GameRecord` (``meta`` goes into it;
    ``python -m granujas_env.record show FILE`` replays a saved one).
    """
    env = raw_env(**dict(env_kwargs or {}))
    if len(bots) != len(env.possible_agents):
        raise ValueError(f"{len(env.possible_agents)} seats but {len(bots)} bots")
    env.reset(seed=seed)
    game = env.game
    assert game is not None
    for seat, bot in enumerate(bots):
        bot.reset(seed=None if bot_seeds is None else bot_seeds[seat])
    wants = [getattr(bot, "wants_view", True) for bot in bots]
    # search bots (``needs_game = True``) also get the live game, to sample hidden information
    # consistent with their seat's view from it (agents/search.py says why that is leak-free)
    needs = [getattr(bot, "needs_game", False) for bot in bots]
    # narrating bots (the llm agent, a human) see every action, as in granujas_env.play
    observers = [seat for seat, bot in enumerate(bots) if callable(getattr(bot, "observe", None))]
    # text agents (the llm agent, a human) count their answers: report this game's share
    counts_before = [text_counters(bot) for bot in bots]
    actions: list[int] = []
    challenges: list[tuple[int, int, int, int]] = []  # the challenge decisions answered yes
    views = DecisionViews(game)
    for observer in observers:  # the start: their narrators then follow every action
        bots[observer].observe(views(observer))
    for agent in env.agent_iter():
        _, _, termination, truncation, _ = env.last(observe=False)
        if termination or truncation:
            env.step(None)
            continue
        seat = env.agent_name_mapping[agent]
        observation = env.observe(agent)
        view = views(seat) if wants[seat] else None
        if needs[seat]:
            action = bots[seat].act(observation, view=view, game=game)
        else:
            action = bots[seat].act(observation, view=view)
        views.expire()
        logged = len(game.history)
        decision = game.decision
        env.step(action)
        actions.append(int(action))
        if decision is not None and decision.kind == "challenge":
            challenges += [e[1:] for e in game.history[logged:] if e[0] == "challenge"]
        for observer in observers:
            bots[observer].observe(views(observer))
        if len(actions) > max_steps:
            raise RuntimeError(f"game {seed} did not end within {max_steps} steps")
    result: dict[str, Any] = {
        "seed": seed,
        "scores": list(game.scores or []),
        "winner": game.winner,
        "steps": len(actions),
        "stats": game_stats(game, challenges),
    }
    for seat, (bot, before) in enumerate(zip(bots, counts_before)):
        if before is not None:
            after = text_counters(bot) or {}
            for name, count in after.items():
                result["stats"][seat][TEXT_PREFIX + name] = count - before.get(name, 0)
    if record:
        result["record"] = record_game(
            game.config, game.seed, actions, meta=meta, catalog=env.catalog
        )
    return result
