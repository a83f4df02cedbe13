"""The compiled game loop is compiled once per process, not once per literal: a counter that starts at a literal
(``n = 0`` then ``n += 1``) is first typed as ``Literal[int](0)``, and numba then compiles every kernel it is passed
to twice (for the literal, then for int64): about 15 s of a cold first simulation, paid in every fresh checkout."""

from __future__ import annotations

from pathlib import Path

import pytest

from cubilete.engine.rules import load_rules
from cubilete.simulate import fastsim
from cubilete.simulate.fastsim import loop

MINI = Path(__file__).parents[2] / "examples" / "house-rules" / "generala-mini-duel.toml"


@pytest.fixture(autouse=True)
def _cache(bots_solver_cache: Path) -> None:
    """The pocket Generala's tables are solved once per session."""


def test_the_game_loop_has_one_signature() -> None:
    fastsim.play(load_rules(str(MINI)), ["exact", "optimal"], "once", 2, "paired")
    # the on-disk index lists every signature compiled from loop.py's current source (compiled now, or earlier
    # and loaded, by any test of the session: other rules may bring other array types), none for a literal
    signatures = [str(key[0]) for key in loop._play._cache._cache_file._load_index()]
    assert signatures, "the game loop was compiled and cached"
    assert not [s for s in signatures if "Literal" in s], signatures
