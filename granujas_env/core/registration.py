"""PettingZoo registration shared by every game: the AEC and Parallel entries of one env id."""

from __future__ import annotations


def register_pettingzoo(env_id: str, module: str) -> None:
    """Register ``env_id`` for ``pettingzoo.make("aec", ...)`` and ``make("parallel", ...)`` as the
    ``env`` and ``parallel_env`` functions of ``module`` (string entry points, so the env module
    and its numpy/gymnasium imports load only when the env is made). Older PettingZoo releases
    have no registry: nothing to do there."""
    try:
        from pettingzoo import aec_registry, parallel_registry, register
    except ImportError:  # older PettingZoo: no registry
        return
    if env_id not in aec_registry:
        register("aec", env_id, entry_point=f"{module}:env")
    if env_id not in parallel_registry:
        register("parallel", env_id, entry_point=f"{module}:parallel_env")
