"""Environments for reinforcement learning (an app layer: nothing in cubilete imports it).

``import cubilete.envs`` registers ``cubilete/Solitaire-v0`` with Gymnasium (extra ``[rl]``).
PettingZoo's table is :func:`table_env`; OpenSpiel's game is in :mod:`cubilete.envs.openspiel`.
See docs/RESEARCH.md.
"""

from __future__ import annotations

from typing import Any

from gymnasium.envs.registration import register, registry

from cubilete.engine.errors import EnvError
from cubilete.envs._common import ActionCodec, SheetLayout, resolve_rules
from cubilete.envs.solitaire import SolitaireEnv

ENV_ID = "cubilete/Solitaire-v0"

if ENV_ID not in registry:
    register(
        id=ENV_ID,
        entry_point="cubilete.envs.solitaire:SolitaireEnv",
        vector_entry_point="cubilete.envs.vector:SolitaireVectorEnv",
    )


def table_env(**kwargs: Any) -> Any:
    """PettingZoo AEC environment of a table of 2 to 8 players (see :mod:`cubilete.envs.table`)."""
    from cubilete.envs.table import TableEnv

    return TableEnv(**kwargs)


__all__ = ["ENV_ID", "ActionCodec", "EnvError", "SheetLayout", "SolitaireEnv", "resolve_rules", "table_env"]
