"""Shared fixtures: a game "table" whose dice the test sets throw by throw."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import hypothesis  # noqa: F401  imported now, while one thread runs (see below)
import pytest
from tests.caches import cache_dir

from cubilete import Game, Roll, Rules, Score, ScriptedDice, Stand, find_rules
from cubilete.engine.rules import Start
from cubilete.engine.state import GameState

# hypothesis is imported here, at collection: its pytest plugin imports it lazily, and Python 3.11.7's parser
# (pytest rewrites the module's asserts) fails with "AST constructor recursion depth mismatch" when another
# thread (a test's server) changes the recursion limit meanwhile: seen in the web tests under load.

# the tests run the compiled kernels, as before a first run; tests/solver/test_firstrun.py checks the numpy
# first-run path (no compiling) on its own, and no test starts the background compile
os.environ.setdefault("CUBILETE_FIRST_RUN", "numba")


class Table:
    """A :class:`Game` fed by :class:`ScriptedDice`: each ``roll`` says what the thrown dice show."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game.dice, ScriptedDice)
        self.game = game
        self.source: ScriptedDice = game.dice

    @property
    def state(self) -> GameState:
        """The game's current state."""
        return self.game.state

    def card(self, seat: int | None = None) -> dict[str, int | None]:
        """A seat's sheet by slot id (the current seat by default)."""
        return dict(zip(self.game.rules.slots, self.game.seat(seat).card, strict=True))

    def roll(self, faces: Sequence[int], keep: Sequence[int] = (), face_down: bool = False) -> tuple[int, ...]:
        """Throw the dice not kept; the thrown dice show ``faces`` (in position order)."""
        index = self.game.state.throws_made
        self.source.throws[index:] = [tuple(faces)]
        self.game.apply(Roll(tuple(keep), face_down))
        return self.game.state.turn.dice

    def score(self, slot: str) -> None:
        """Write the dice on the table in a slot."""
        self.game.apply(Score(slot))

    def stand(self) -> None:
        """Show the tie-break hand."""
        self.game.apply(Stand())

    def turn(self, faces: Sequence[int], slot: str) -> None:
        """One throw, then score it."""
        self.roll(faces)
        self.score(slot)


MakeTable = Callable[..., Table]


@pytest.fixture
def make_table() -> MakeTable:
    """Factory: ``make_table("generala", ["Ana", "Beto"], start_throws=None, **rule_changes)``.

    Without ``start_throws`` the first seat starts (rules.start becomes seat-order);
    with them, they are the first throws of the source (who starts).
    """

    def make(
        rules: str | Rules = "generala",
        players: Sequence[str] = ("Ana",),
        start_throws: Sequence[Sequence[int]] | None = None,
        **changes: object,
    ) -> Table:
        r = find_rules(rules) if isinstance(rules, str) else rules
        if start_throws is None:
            changes.setdefault("start", Start.SEAT_ORDER)
        if changes:
            r = r.replace(**changes)
        dice = ScriptedDice(list(start_throws or []))
        return Table(Game(r, list(players), seed="test", dice=dice))

    return make


@pytest.fixture(autouse=True)
def _english_and_private_folders(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    """Tests read English whatever the machine's locale, and never touch the user's data folder."""
    from cubilete import i18n

    monkeypatch.setenv("LANGUAGE", "en")
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    if "CUBILETE_DATA_DIR" not in os.environ:
        monkeypatch.setenv("CUBILETE_DATA_DIR", str(tmp_path_factory.mktemp("data")))
    i18n.reset_language()


@pytest.fixture(scope="session", autouse=True)
def solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """One throw-away cache folder of solved tables for the whole session (solver, win, two-player): each table is
    solved once, and never in the user's cache. A test that needs an empty cache points ``$CUBILETE_CACHE_DIR``
    at a folder of its own (``tests.caches.cache_dir``)."""
    with cache_dir(tmp_path_factory.mktemp("solver-cache")) as path:
        yield path


@pytest.fixture(scope="session")
def bots_solver_cache(solver_cache: Path) -> Path:
    """The session's solver cache, for the modules that play bots (named for what they need)."""
    return solver_cache


@pytest.fixture(scope="session")
def generala_duel_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding full Generala's two-player table (3.2 GB): ``$CUBILETE_GENERALA_DUEL_CACHE`` where it
    is already solved, else solved once for the session by ``cubilete solve --players 2`` in a process of its
    own (about 7 minutes on two idle cores, 5 GB at its peak; only the slow tests ask for it)."""
    import subprocess
    import sys

    from cubilete.duel.cache import duel_path

    rules = find_rules("generala")
    given = os.environ.get("CUBILETE_GENERALA_DUEL_CACHE")
    if given:
        with cache_dir(Path(given)):
            if duel_path(rules).is_file():
                return Path(given)
    folder = tmp_path_factory.mktemp("generala-duel")
    code = "from cubilete.cli import main; raise SystemExit(main(['solve', '--players', '2', '--json']))"
    done = subprocess.run(
        [sys.executable, "-c", code], env={**os.environ, "CUBILETE_CACHE_DIR": str(folder)},
        capture_output=True, text=True, timeout=3600,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-2000:]
    with cache_dir(folder):
        assert duel_path(rules).is_file()
    return folder
