"""Advice features: a bot's recommended action appended to the observation of a learned policy.

A policy trained with an *advisor* (``train.train --advisor heuristic``) reads the env's
observation vector followed by a one-hot of the action the advisor bot would take at this
decision (all zeros when the game is over). The advisor reads the same seat view as any bot, so
the policy learns from no more information than the seat's observation; what it gains is the
advisor's computation (hand inference, Safe values) as an input it may follow or overrule. PPO then
starts from a policy that can copy the advisor exactly and learns where to deviate (residual
policy learning, as in Silver et al. 2018, "Residual Policy Learning").

The training wrapper (:class:`train.single_seat.SingleSeatEnv`) and the bot that plays the trained
model (:class:`agents.policy.PolicyAgent`) both build the vector with :func:`advised_vector`, so
training and play see the same input.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

__all__ = ["advised_vector"]


def advised_vector(
    advisor: Any, observation: Mapping[str, np.ndarray], view: Any
) -> tuple[np.ndarray, int | None]:
    """``(observation vector + one-hot of the advisor's action, that action)``.

    ``observation`` is the PettingZoo dict of the deciding seat; with no legal action (the game is
    over, or not this seat's turn) the one-hot is all zeros and the action ``None``."""
    vector = np.asarray(observation["observation"], dtype=np.float32)
    mask = np.asarray(observation["action_mask"])
    hint = np.zeros(mask.size, dtype=np.float32)
    action = None
    if mask.any():
        action = int(advisor.act(observation, view=view))
        hint[action] = 1.0
    return np.concatenate([vector, hint]), action
