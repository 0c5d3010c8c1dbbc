"""ISMCTSAgent: information-set Monte Carlo tree search over the engine (``agents.make("ismcts")``).

Algorithm: single-observer IS-MCTS (SO-ISMCTS, Cowling, Powley & Whitehouse 2012). One tree is
shared by every determinization of the seat's information set; a node is a sequence of action ids
from the decision being taken. Each simulation

1. draws a *determinization*: :func:`granujas_env.determinize.sample_hidden` redraws everything the
   seat may not know (rivals' hands and face-down cards, deck orders, unseen Safe values, Granuja
   decks, rivals' secret Strategy, future chance) uniformly among the states consistent with what
   it knows;
2. descends the tree through the actions legal *in that determinization* (a rival's legal cards
   depend on its sampled hand), by UCB1 with availability counts (a child's exploration term
   counts the simulations in which it was legal, not its parent's visits), expanding one untried
   action;
3. plays on with a cheap default policy (:data:`ROLLOUTS`) to the end, or for ``rollout_steps``
   decisions, on a fast clone of the engine;
4. backs up each seat's margin (own score minus best rival score, over the rules' score scale,
   clipped to [-1, 1]; at a cut-off rollout, from the tech points held so far) into the nodes,
   each node scored for the seat that chose the action leading to it.

The decision is the root action with the most visits (then the best mean, then the lowest id).

Guided by a trained policy (``prior`` and/or ``rollout`` a :class:`Guide`, e.g. the shipped
``full`` through :mod:`agents.search_guides`: ``"ismcts:prior=full:rollout=full:budget=1"``):

* ``prior``: selection is PUCT (as AlphaZero): at a node, the action maximising
  ``Q(a) + exploration * P(a) * sqrt(N) / (1 + n(a))``, with ``P`` the policy's probabilities for
  the seat deciding in the determinization (read from that seat's observation and view of the
  sample, at the node's first visit; actions legal only in later samples get theirs when first
  seen), ``n(a)`` the action's visits, ``N`` the visits of the legal actions; unvisited actions
  have ``Q = 0``. No heuristic bonus: the policy's probabilities are the prior.
* ``rollout``: the playouts are played by the policy for every seat (as ``full`` plays: its most
  probable action), so the search asks "what if I do this, and then everybody plays like
  ``full``"; ``rollout_steps`` cuts them (the tech margin held then is the value).

With ``prior_weight`` > 0 (the default) the heuristic bot (:class:`agents.heuristic.HeuristicAgent`,
which reads only the seat view) names an action at every decision, and that action counts
``prior_weight * simulations`` extra visits in the final choice: the search overrides the
heuristic only where its playouts clearly prefer another action. A decision with one legal action
is answered without searching (the heuristic still sees it, to keep its per-game memory).

Budget: ``simulations`` (a count: reproducible, the default) and/or ``time_ms`` (wall clock per
decision, on the wall clock or, with ``clock="cpu"``, on this process's CPU time; ``budget`` in
seconds from strings); the search stops at whichever is reached first, so
``simulations`` with a time budget is a deterministic cap. From strings (``agents.make_bot``, the
tournament): ``"ismcts:simulations=200"``, ``"ismcts:budget=0.3:prior=full:rollout=full"``
(:func:`agents.search_guides.make_ismcts` builds them and names the allowed options).

Why this never uses what its seat may not know. The bot declares ``needs_game = True`` and is
handed the live game by whoever drives it (:func:`agents.registry.ask`, the one call front ends
make for every bot, and :func:`agents.driver.play_game`), but it reads the game only
through ``sample_hidden(game, seat, rng)`` (and its public ``current_player`` and legal ids, which
the observation also gives). ``sample_hidden``'s sample depends only on what the seat knows and
on ``rng``: two games that differ only in hidden information give identical samples for equal
``rng`` states (``tests/test_determinize.py``). Every later step (tree, rollouts, margins) is a
function of the samples and of the bot's own ``rng``, so with a simulation budget the decision is
a function of the seat's information and the bot's seed alone (a :class:`Guide` reads each sample
only through the deciding seat's observation and view of it). ``tests/test_search.py`` and
``tests/test_search_guided.py`` (prior and playouts by ``full``) check this directly: the
decisions and every root visit count are unchanged when the hidden information of the game is
changed (``tests/hidden.py`` ``hide_shuffle``, as the leak tests do).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Mapping
from typing import Protocol, runtime_checkable

import numpy as np

from agents.base import Agent, legal_actions
from agents.heuristic import HeuristicAgent
from agents.honest import require_view
from granujas_env.determinize import sample_hidden
from granujas_env.engine import actions as A
from granujas_env.engine.game import Game

__all__ = ["ISMCTSAgent", "Guide", "ROLLOUTS", "CLOCKS", "DEFAULT_SIMULATIONS", "PUCT_EXPLORATION"]

#: Simulations per decision by default: about 50-200 ms a decision in 2-player short games on a
#: busy 2-core machine (README "Search bot").
DEFAULT_SIMULATIONS = 12

#: The clocks a time budget may be read on: ``wall`` (elapsed time, what a player waits) or
#: ``cpu`` (this process's CPU time: the same search whatever else the machine runs, for
#: measurements on a shared machine).
CLOCKS: dict[str, Callable[[], float]] = {"wall": time.perf_counter, "cpu": time.process_time}

#: Extra visits of the heuristic's action, as a fraction of the simulations (``prior="heuristic"``).
DEFAULT_PRIOR_WEIGHT = 0.5

#: The PUCT constant used when ``prior`` is a guide and ``exploration`` is not given.
PUCT_EXPLORATION = 1.0

#: The UCB1 constant otherwise.
UCB_EXPLORATION = 0.7


@runtime_checkable
class Guide(Protocol):
    """A policy the search consults for whichever seat decides in a determinization: its
    probabilities over the legal actions (the PUCT prior) and its move (the playouts). It reads
    the sample only as that seat would see it (its observation and view of the sample)."""

    name: str

    def probabilities(self, game: Game) -> dict[int, float]:
        """``{action: probability}`` over ``game.legal_actions()`` for ``game.current_player``."""
        ...

    def action(self, game: Game) -> int:
        """The move of ``game.current_player``."""
        ...

    def reset(self, seed: int | None = None) -> None:
        """Reseed (and forget the game seen so far)."""
        ...


def _random_rollout(game: Game, rng: random.Random) -> int:
    return rng.choice(game.legal_actions())


def _honest_rollout(game: Game, rng: random.Random) -> int:
    """Plan every card into its own slot when it is free, challenge one time in ten, else random:
    closer to real play than uniform moves (which bluff and challenge half the time) at the
    same cost."""
    legal = game.legal_actions()
    frame = game.stack[-1]
    if frame.kind == "plan_slot":
        honest = A.SLOT + frame.data["card"]
        if honest in legal:
            return honest
    elif frame.kind == "challenge":
        return A.CONFIRM if rng.random() < 0.1 else A.PASS
    return rng.choice(legal)


#: Default policies for the playouts, by name.
ROLLOUTS: dict[str, Callable[[Game, random.Random], int]] = {
    "honest": _honest_rollout,
    "random": _random_rollout,
}


def margins(game: Game) -> list[float]:
    """Each seat's (own tech - best rival tech) / score scale, clipped to [-1, 1]: the final
    margin at the end, the tech points held so far before it."""
    if game.game_over:
        return game.score_margins()
    totals = [game.score_breakdown(seat)["total"] for seat in range(game.num_players)]
    scale = game.rules.score_scale
    out = []
    for seat, total in enumerate(totals):
        best = max(t for j, t in enumerate(totals) if j != seat)
        out.append(max(-1.0, min(1.0, (total - best) / scale)))
    return out


class _Node:
    """Statistics of one action sequence: visits, summed reward of the seat that chose the last
    action, and availability (simulations in which that action was legal at its parent)."""

    __slots__ = ("children", "visits", "total", "avail", "priors")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.total = 0.0
        self.avail = 0
        self.priors: dict[int, float] | None = None  # the guide's, under PUCT


def _check_positive(name: str, value: object, kind: type) -> None:
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float) if kind is float else int):
        raise ValueError(f"{name} must be a positive {kind.__name__} or None, got {value!r}")
    if value <= 0:
        raise ValueError(f"{name} must be positive, got {value!r}")


class ISMCTSAgent(Agent):
    """Information-set MCTS (module docstring). ``simulations``: determinizations per decision
    (default :data:`DEFAULT_SIMULATIONS` when ``time_ms`` is not given); ``time_ms``: wall-clock
    budget per decision; ``rollout``: default policy, a name of :data:`ROLLOUTS` or a
    :class:`Guide`; ``rollout_steps``: cut each playout after that many decisions (None: play to
    the end); ``prior``: ``"heuristic"`` (UCB1, the heuristic's action gets ``prior_weight``
    extra visits; 0 turns it off) or a :class:`Guide` (PUCT with its probabilities);
    ``exploration``: the UCB1 or PUCT constant (default :data:`UCB_EXPLORATION` or
    :data:`PUCT_EXPLORATION`); ``clock``: what ``time_ms`` is read on (:data:`CLOCKS`);
    ``prior_weight``: the heuristic's bonus (default
    :data:`DEFAULT_PRIOR_WEIGHT`), refused with a guide prior."""

    name = "ismcts"
    wants_view = True  # for the heuristic prior; False when prior_weight is 0
    #: Drivers pass the live game as ``act(..., game=game)``; the bot reads it only through
    #: ``sample_hidden`` (module docstring).
    needs_game = True

    def __init__(
        self,
        simulations: int | None = None,
        time_ms: float | None = None,
        rollout: str | Guide = "honest",
        rollout_steps: int | None = None,
        exploration: float | None = None,
        prior_weight: float | None = None,
        seed: int | None = None,
        prior: str | Guide = "heuristic",
        clock: str = "wall",
    ) -> None:
        _check_positive("simulations", simulations, int)
        _check_positive("time_ms", time_ms, float)
        _check_positive("rollout_steps", rollout_steps, int)
        if not isinstance(rollout, Guide) and rollout not in ROLLOUTS:
            raise ValueError(
                f"rollout must be one of {sorted(ROLLOUTS)} or a Guide (a trained policy), "
                f"got {rollout!r}"
            )
        if not isinstance(prior, Guide) and prior != "heuristic":
            raise ValueError(f"prior must be 'heuristic' or a Guide (a trained policy), got {prior!r}")
        if exploration is None:
            exploration = UCB_EXPLORATION if prior == "heuristic" else PUCT_EXPLORATION
        if isinstance(exploration, bool) or not isinstance(exploration, (int, float)) or exploration < 0:
            raise ValueError(f"exploration must be a number >= 0, got {exploration!r}")
        if prior_weight is None:
            prior_weight = DEFAULT_PRIOR_WEIGHT if prior == "heuristic" else 0.0
        elif prior != "heuristic":
            raise ValueError(
                "prior_weight weighs the heuristic's action: it does not apply to a trained "
                f"prior ({prior.name}), whose probabilities are the PUCT prior"
            )
        if isinstance(prior_weight, bool) or not isinstance(prior_weight, (int, float)) or prior_weight < 0:
            raise ValueError(f"prior_weight must be a number >= 0, got {prior_weight!r}")
        if clock not in CLOCKS:
            raise ValueError(f"clock must be one of {', '.join(CLOCKS)}, got {clock!r}")
        if simulations is None and time_ms is None:
            simulations = DEFAULT_SIMULATIONS
        self.simulations = simulations
        self.time_ms = time_ms
        self.clock = clock
        self.rollout = rollout if isinstance(rollout, str) else rollout.name
        self.rollout_steps = rollout_steps
        self.exploration = float(exploration)
        #: The guide that plays the playouts (None: the default policy ``ROLLOUTS[rollout]``).
        self.rollout_guide = rollout if isinstance(rollout, Guide) else None
        self._policy = None if self.rollout_guide is not None else ROLLOUTS[rollout]
        #: The guide whose probabilities are the PUCT prior (None: UCB1 and the heuristic bonus).
        self.guide = prior if isinstance(prior, Guide) else None
        self.prior = "heuristic" if self.guide is None else self.guide.name
        self._guides = [g for g in (self.guide, rollout) if isinstance(g, Guide)]
        self.prior_weight = float(prior_weight)
        self.wants_view = self.prior_weight > 0
        self._prior = HeuristicAgent(seed=seed) if self.wants_view else None
        self._rng = random.Random(seed)
        for guide in self._guides:
            guide.reset(seed)
        #: Root action -> visits of the last search (empty when the decision had one legal action).
        self.last_visits: dict[int, int] = {}

    def reset(self, seed: int | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        if self._prior is not None:
            self._prior.reset(seed=seed)
        for guide in self._guides:
            guide.reset(seed)
        self.last_visits = {}

    def act(
        self,
        observation: Mapping[str, np.ndarray],
        view: object | None = None,
        game: Game | None = None,
    ) -> int:
        """Search from ``game`` (the live game, read only through ``sample_hidden``) and return
        the most visited legal action of ``observation``'s seat."""
        legal = [int(a) for a in legal_actions(observation)]
        if game is None:
            raise ValueError(
                "ISMCTSAgent needs the game to sample from: call agent.act(observation, "
                "game=game), or ask through agents.registry.ask(agent, observation, game), which "
                "passes the game to bots with needs_game = True (agents.driver.play_game does "
                "the same)"
            )
        if game.legal_actions() != legal:
            raise ValueError(
                f"the game does not match the observation: its pending decision allows "
                f"{game.legal_actions()}, the observation's mask {legal}"
            )
        self.last_visits = {}
        prior = None
        if self._prior is not None:
            require_view(self, view)
            prior = int(self._prior.act(observation, view=view))
        if len(legal) == 1:
            return legal[0]
        root = self._search(game, game.current_player)
        self.last_visits = {a: root.children[a].visits for a in legal if a in root.children}
        bonus = self.prior_weight * sum(self.last_visits.values())
        return max(
            legal,
            key=lambda a: (
                self.last_visits.get(a, 0) + (bonus if a == prior else 0.0),
                root.children[a].total / root.children[a].visits if a in root.children else 0.0,
                -a,
            ),
        )

    def rewards(self, state: Game) -> list[float]:
        """Each seat's reward at the end of a playout, in [-1, 1]: :func:`margins` (subclasses
        search for another objective, e.g. agents/safecracker.py)."""
        return margins(state)

    def _search(self, game: Game, seat: int) -> _Node:
        root = _Node()
        now = CLOCKS[self.clock]
        deadline = None if self.time_ms is None else now() + self.time_ms / 1000
        done = 0
        while True:
            self._simulate(root, sample_hidden(game, seat, self._rng))
            done += 1
            if self.simulations is not None and done >= self.simulations:
                return root
            if deadline is not None and now() >= deadline:
                return root

    def _simulate(self, root: _Node, state: Game) -> None:
        """One simulation on the determinization ``state``: select, expand, play out, back up."""
        rng, c = self._rng, self.exploration
        node = root
        path: list[tuple[_Node, int]] = []  # (node reached, seat that chose the action into it)
        while not state.game_over:
            legal = state.legal_actions()
            mover = state.current_player
            children = node.children
            if self.guide is not None:
                action = self._puct(node, legal, state)
                child = children.get(action)
                state.apply(action)
                if child is None:  # expand it, then play out
                    child = children[action] = _Node()
                    path.append((child, mover))
                    break
                node = child
                path.append((node, mover))
                continue
            untried = [a for a in legal if a not in children]
            for a in legal:
                if a in children:
                    children[a].avail += 1
            if untried:
                action = rng.choice(untried)
                child = children[action] = _Node()
                child.avail = 1
                state.apply(action)
                path.append((child, mover))
                break
            action = max(
                legal,
                key=lambda a: children[a].total / children[a].visits
                + c * math.sqrt(math.log(children[a].avail) / children[a].visits),
            )
            node = children[action]
            state.apply(action)
            path.append((node, mover))
        steps = 0
        while not state.game_over and (self.rollout_steps is None or steps < self.rollout_steps):
            if self.rollout_guide is not None:
                # a forced move needs no forward pass (the playouts' main cost)
                legal = state.legal_actions()
                state.apply(legal[0] if len(legal) == 1 else self.rollout_guide.action(state))
            else:
                state.apply(self._policy(state, rng))
            steps += 1
        reward = self.rewards(state)
        for reached, mover in path:
            reached.visits += 1
            reached.total += reward[mover]

    def _puct(self, node: _Node, legal: list[int], state: Game) -> int:
        """The PUCT choice among ``legal`` at ``node`` (module docstring), with the guide's
        probabilities read from ``state`` the first time each action is seen legal here."""
        priors = node.priors
        if priors is None or any(a not in priors for a in legal):
            fresh = self.guide.probabilities(state) if len(legal) > 1 else {legal[0]: 1.0}
            priors = node.priors = {**fresh, **(priors or {})}  # earlier samples' values stay
        children = node.children
        total = sum(priors[a] for a in legal) or 1.0
        visits = sum(children[a].visits for a in legal if a in children)
        scale = self.exploration * math.sqrt(visits + 1) / total

        def score(a: int) -> float:
            child = children.get(a)
            if child is None or child.visits == 0:
                return scale * priors[a]
            return child.total / child.visits + scale * priors[a] / (1 + child.visits)

        return max(legal, key=score)
