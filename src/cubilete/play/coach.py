"""The coach: the best options for the decision at hand, the points an action loses, and a
review of every decision of a finished game.

Values are expected FINAL scores of one player under optimal play from there on (the
solver's objective). Instant wins are not modelled: a servida Generala counts like a normal
servida Generala and play goes on. Rules too large to solve exactly (``maxi-yatzy``,
``general-4-columns``) use the optimal bot's approximate analysis when :mod:`cubilete.play.bots`
offers one, and say so with ``exact=False``.

The solver is imported lazily, so ``import cubilete.play.coach`` stays cheap.

>>> keep_positions((5, 2, 5, 6, 5), (5, 5))
(0, 2)
>>> keep_positions((5, 2, 5, 6, 5), (5, 5), prefer=(4,))
(0, 4)
"""

from __future__ import annotations

import contextlib
import dataclasses
import itertools
import re
import weakref
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, NamedTuple, Protocol

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.errors import CubileteError, IllegalActionError, SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import GameState, Phase, Seat
from cubilete.i18n import _, box_name, current_language

if TYPE_CHECKING:
    from cubilete.solver.advisor import _Query
    from cubilete.solver.solve import Solution
    from cubilete.solver.tablestore import TableStore

Progress = Callable[[int, int], None]

EPSILON = 1e-9  # losses below this are rounding noise: the move was (one of) the best
_BOT_NAME = re.compile(r"^bot(:[a-z]+)?(-\d+)?$")


class OptionLike(Protocol):
    """What the advisor and the bots' analyses return for one option."""

    @property
    def kind(self) -> str: ...
    @property
    def expected(self) -> float: ...
    @property
    def loss(self) -> float: ...
    @property
    def slot(self) -> str | None: ...
    @property
    def points(self) -> int: ...
    @property
    def keep(self) -> tuple[int, ...]: ...


class _AdviceFields(NamedTuple):
    kind: str  # "score" or "keep" ("stand" in a tie-break round)
    slot: str | None  # score: the slot id
    points: int  # score: the points written now (bonuses not included)
    keep_faces: tuple[int, ...]  # keep: the faces kept, sorted
    keep_positions: tuple[int, ...]  # keep: the dice positions (0-based) kept
    expected: float  # expected final score after this choice, playing optimally afterwards
    loss: float  # expected points lost against the best option (>= 0)
    action: Action  # Roll(keep=keep_positions) or Score(slot) (or Stand())
    win: float | None = None  # hint(win=True): the probability of winning after this choice


class Advice(_AdviceFields):
    """One option of the decision at hand, with the engine action that plays it.

    A named tuple: :func:`advise_hand` builds each with one ``tuple.__new__``, a third of what a frozen
    dataclass costs; ``vars(advice)`` still gives the fields by name, as it did when it was one.
    """

    __slots__ = ()

    @property  # read-only: the fields are the tuple's
    def __dict__(self) -> dict[str, object]:  # type: ignore[override]
        return self._asdict()

    def describe(self, rules: Rules) -> str:
        """The option in the player's words, e.g. ``score Full (35)`` or ``keep 5 5 5, throw the rest``."""
        return describe_option(rules, self.kind, self.slot, self.points, self.keep_faces)


_new_advice = tuple.__new__  # an Advice from its nine fields at once, skipping the keyword handling


@dataclass(frozen=True)
class Decision:
    """One judged decision of a reviewed game."""

    seat: int
    player: str
    turn: int  # the player's turn number, 1-based
    throw: int  # throws made before deciding (1 = servida dice on the table)
    dice: tuple[int, ...]  # the dice on the table, by position
    action: str  # what was done, in words
    best: str  # what was best, in words
    loss: float  # expected points lost against the best option (>= 0)


@dataclass(frozen=True)
class Review:
    """Every judged decision of a game, the loss per player and each player's three worst moments."""

    decisions: list[Decision]
    total_loss: dict[str, float]
    worst: dict[str, list[Decision]]  # up to 3 per player, worst first; only decisions that lost points
    exact: bool = field(default=True)  # False when some values are approximate (rules too large to solve)


# --- words --------------------------------------------------------------------------


def slot_words(rules: Rules, slot: str) -> str:
    """A slot's display name: the box name, plus the column on a sheet of several columns."""
    box_id, _at, column = slot.partition("@")
    name = box_name(rules, box_id)
    return _("{box} (column {column})").format(box=name, column=column) if column else name


def describe_option(rules: Rules, kind: str, slot: str | None, points: int, keep: Sequence[int]) -> str:
    """An option in the player's words."""
    if kind == "score" and slot is not None:
        if points == 0:
            return _("scratch {box}").format(box=slot_words(rules, slot))
        return _("score {box} ({points})").format(box=slot_words(rules, slot), points=points)
    if kind == "stand":
        return _("stand with these dice")
    if not keep:
        return _("throw every die again")
    return _("keep {faces}, throw the rest").format(faces=" ".join(map(str, keep)))


def is_bot_name(name: str) -> bool:
    """True for the names bots play under (``bot``, ``bot:optimal``, ``bot-2``).

    >>> is_bot_name("bot:optimal-2"), is_bot_name("Roberto")
    (True, False)
    """
    return _BOT_NAME.match(name.strip().lower()) is not None


# --- the solved table and the options ---------------------------------------------------


def is_solvable(rules: Rules) -> bool:
    """True if the solver can solve these rules exactly (worked out once per rule set)."""
    return _per_rules(rules).solvable


Spot = tuple[tuple[int, ...], tuple[int, ...], Roll]  # a keep on some dice: (faces kept, positions kept, the Roll)


class _RulesAdvice:
    """What the coach reads for one rule set, worked out once: whether the solver solves it, and for
    :func:`advise_hand` the names of the option table's rows (slot numbers to ``Score`` actions, keep
    numbers to faces), the solved table itself while the store keeps it, and where each keep lies on
    the dice (:func:`_sorted_spots` for dice in order, else remembered per dice shown)."""

    __slots__ = ("hot", "keeps", "load", "query_for", "roll_of", "scores", "solvable", "sorted_spots", "spots", "store")

    def __init__(self, rules: Rules) -> None:
        from cubilete.engine.errors import SolverUnsupportedError
        from cubilete.solver import check_solvable

        try:
            check_solvable(rules)
        except SolverUnsupportedError:
            self.solvable = False
        else:
            self.solvable = True
        self.scores = {float(i): (slot, Score(slot)) for i, slot in enumerate(rules.slots)}  # by row number
        self.keeps: dict[float, tuple[int, ...]] = {}  # the solver's keeps by row number, sorted (first advice)
        # imported at the first advice (the solver is heavy to import), not at every one
        self.query_for: Callable[[Solution], _Query] | None = None
        self.load: Callable[[Rules], Solution] | None = None
        self.store: TableStore[Rules, Solution] | None = None
        # (the store's generation, the query of the table) as last read from the store: used while nothing left the
        # store since, without its lock; held weakly (the table holds it), so that a table the store lets go is freed
        self.hot: tuple[int, weakref.ref[_Query]] | None = None
        # dice shown (and positions held) -> keep row number -> where the keep lies on them
        self.sorted_spots: dict[tuple[int, ...], _Spots] = {}
        self.spots: dict[object, _Spots] = {}
        self.roll_of: dict[tuple[int, ...], Roll] = {}  # positions kept -> the Roll

    def query(self, rules: Rules) -> _Query:
        """The query of the solved table in the store (loaded or solved there), remembered for :func:`advise_hand`."""
        if self.query_for is None or self.load is None or self.store is None:
            from cubilete.solver.advisor import option_names, query_for
            from cubilete.solver.cache import shared_solution, solved_tables

            keeps = tuple(tuple(sorted(k)) for k in option_names(shared_solution(rules))[1])
            self.keeps = {float(i): k for i, k in enumerate(keeps)}
            self.sorted_spots = _sorted_spots(rules.dice, keeps)
            self.query_for, self.load, self.store = query_for, shared_solution, solved_tables()
        generation = self.store.generation  # read first: a table leaving meanwhile makes the memo stale, not wrong
        query = self.query_for(self.load(rules))
        self.hot = (generation, weakref.ref(query))
        return query

    def spots_on(self, dice: Sequence[int], held: Sequence[int], locked: bool) -> _Spots:
        """Where the keeps lie on these dice (in order and nothing held: worked out in advance)."""
        shown = dice if type(dice) is tuple else tuple(dice)
        if not held:
            found = self.sorted_spots.get(shown)
            if found is not None:
                return found
        key = (shown, tuple(held)) if held else shown
        found = self.spots.get(key)
        if found is None:
            if len(self.spots) >= 4096:  # every order of five dice is 7776: start over rather than grow
                self.spots.clear()
            found = self.spots[key] = _Spots(shown, tuple(held), locked, self.keeps, self.roll_of)
        return found


class _Spots(dict[float, Spot]):
    """Keep row number -> where the keep lies on some dice: the first dice showing its faces, the held ones
    first (which must stay kept under locked holds); worked out at the first ask of each keep."""

    __slots__ = ("dice", "held", "keeps", "locked", "order", "rolls")

    def __init__(
        self, dice: tuple[int, ...], held: tuple[int, ...], locked: bool, keeps: dict[float, tuple[int, ...]],
        rolls: dict[tuple[int, ...], Roll],
    ) -> None:  # fmt: skip
        super().__init__()
        self.dice, self.held, self.locked, self.keeps, self.rolls = dice, held, locked, keeps, rolls
        # the positions in the order keep_positions tries them: the held ones first
        self.order = (*held, *(p for p in range(len(dice)) if p not in held)) if held else ()

    def __missing__(self, number: float) -> Spot:
        kept = self.keeps[number]
        if not self.held:
            positions = _first_positions(self.dice, kept)
        else:  # keep_positions' search, its order worked out once for these dice
            want = [0] * 7
            for f in kept:
                want[f] += 1
            chosen = []
            for p in self.order:
                if want[self.dice[p]] > 0:
                    want[self.dice[p]] -= 1
                    chosen.append(p)
            held_kept = not self.locked or set(self.held) <= set(chosen)
            positions = tuple(sorted(chosen)) if held_kept and not any(want) else None
        if positions is None:  # keep_positions says why not
            positions = keep_positions(self.dice, kept, prefer=self.held, must=self.held if self.locked else ())
        roll = self.rolls.get(positions)
        if roll is None:  # a Roll checks its positions: made once per set of them (2^dice at most)
            roll = self.rolls[positions] = Roll(positions)
        spot = self[number] = (kept, positions, roll)
        return spot


_SORTED_SPOTS: dict[tuple[tuple[int, ...], ...], dict[tuple[int, ...], _Spots]] = {}


def _sorted_spots(n_dice: int, keeps: tuple[tuple[int, ...], ...]) -> dict[tuple[int, ...], _Spots]:
    """Every hand of ``n_dice`` dice in order, and every keep of it by its number in ``keeps`` (sorted faces)
    -> where it lies on the hand: the keeps of dice typed in order are read, not searched (worked out once
    per list of keeps, the same for every rule set of as many dice: 4,368 keeps of five dice in about 9 ms,
    12,376 of six in 30 ms)."""
    found = _SORTED_SPOTS.get(keeps)
    if found is None:
        number = {k: float(i) for i, k in enumerate(keeps)}
        by_number = {float(i): k for i, k in enumerate(keeps)}
        rolls: dict[tuple[int, ...], Roll] = {}
        found = {}
        for hand in itertools.combinations_with_replacement(range(1, 7), n_dice):
            spots = found[hand] = _Spots(hand, (), False, by_number, rolls)
            for size in range(n_dice + 1):
                for kept in itertools.combinations(hand, size):  # sorted, as the hand is
                    at = number.get(kept)
                    if at is not None and at not in spots:
                        spots.__missing__(at)  # worked out now, read later
        if len(_SORTED_SPOTS) >= 8:  # one list of keeps per number of dice in practice
            _SORTED_SPOTS.clear()
        _SORTED_SPOTS[keeps] = found
    return found


_PER_RULES: dict[Rules, _RulesAdvice] = {}  # a Rules hashes once (the hash is kept in it)


def _per_rules(rules: Rules) -> _RulesAdvice:
    found = _PER_RULES.get(rules)
    if found is None:
        if len(_PER_RULES) >= 256:  # house rules come and go on a server: start over rather than grow
            _PER_RULES.clear()
        found = _PER_RULES[rules] = _RulesAdvice(rules)
    return found


# the same by the rules object's identity, for advise_hand: a Rules hashes in Python (a method call), an id in C;
# the Rules is kept in the entry, so its id is not reused while the entry is there
_BY_ID: dict[int, tuple[Rules, _RulesAdvice]] = {}


def _per_rules_object(rules: Rules) -> _RulesAdvice:
    found = _per_rules(rules)
    if len(_BY_ID) >= 256:
        _BY_ID.clear()
    _BY_ID[id(rules)] = (rules, found)
    return found


def solution_for(rules: Rules, progress: Progress | None = None) -> Solution:
    """The solved tables of the rules, loaded or solved once per process (SolverUnsupportedError if too large)."""
    from cubilete.solver.cache import shared_solution

    return shared_solution(rules, progress)


def _held_faces(game: Game) -> tuple[int, ...]:
    turn = game.state.turn
    if not game.rules.locked_holds:
        return ()
    return tuple(sorted(turn.dice[p] for p in turn.held))


def _approximate(game: Game) -> tuple[list[OptionLike], bool] | None:
    """The optimal bot's analysis (an approximate search where the rules can't be solved), if there is one."""
    try:
        from cubilete.play.bots import OptimalBot
    except ImportError:  # pragma: no cover - only while the bots package lacks it
        return None
    analysis = OptimalBot(seed=0).analyse(game)
    return list(analysis), bool(getattr(analysis, "exact", False))


def _options(game: Game) -> tuple[list[OptionLike], bool] | None:
    """Every option of the decision at hand, best first, and whether the values are exact; None if none."""
    st = game.state
    if st.phase is Phase.OVER or st.turn.throws == 0:
        return None
    if st.phase is Phase.TIEBREAK or not is_solvable(game.rules):
        return _approximate(game)
    from cubilete.engine.errors import SolverUnsupportedError
    from cubilete.solver.advisor import advise

    try:
        solution = solution_for(game.rules)
    except SolverUnsupportedError:  # not solved here yet (a server solves it in another process): approximate
        return _approximate(game)
    seat = game.seat()
    options = advise(solution, seat.card, st.turn.dice, st.turn.throws, seat.extra_bonuses, _held_faces(game))
    return list(options), True


def keep_positions(
    dice: Sequence[int], faces: Sequence[int], prefer: Sequence[int] = (), must: Sequence[int] = ()
) -> tuple[int, ...]:
    """Dice positions showing ``faces`` (a multiset), taking positions in ``prefer`` first.

    ``must`` lists positions that have to be among them (locked holds); IllegalActionError otherwise.
    """
    want = [0] * 7
    for f in faces:
        want[f] += 1
    order = [*must, *(p for p in prefer if p not in must), *(p for p in range(len(dice)) if p not in (*must, *prefer))]
    chosen: list[int] = []
    for p in order:
        if want[dice[p]] > 0:
            want[dice[p]] -= 1
            chosen.append(p)
    if any(want) or not set(must) <= set(chosen):
        raise IllegalActionError(f"cannot keep {sorted(faces)} from the dice {list(dice)} (held: {list(must)})")
    return tuple(sorted(chosen))


def _advice(option: OptionLike, dice: Sequence[int], held: Sequence[int], locked: bool) -> Advice:
    """The advice for one option; keeps prefer the ``held`` positions (which must stay kept if ``locked``)."""
    if option.kind == "score" and option.slot is not None:
        return Advice("score", option.slot, option.points, (), (), option.expected, option.loss, Score(option.slot))
    if option.kind == "stand":
        return Advice("stand", None, 0, (), (), option.expected, option.loss, Stand())
    positions = keep_positions(dice, option.keep, prefer=held, must=held if locked else ())
    faces = tuple(sorted(option.keep))
    return Advice("keep", None, 0, faces, positions, option.expected, option.loss, Roll(positions))


def advise_hand(
    rules: Rules,
    card: Sequence[int | None],
    dice: Sequence[int],
    throw: int,
    extra_bonuses: int = 0,
    held: Sequence[int] = (),
    top: int = 5,
) -> list[Advice]:
    """Advice for dice outside a game (real dice typed in): the ``top`` best options, best first.

    ``held`` lists dice positions kept at the last throw (they must stay kept under locked
    holds). Only rules the solver solves exactly are advised; for others the list is empty.
    """
    by_id = _BY_ID.get(id(rules))
    known = by_id[1] if by_id is not None and by_id[0] is rules else _per_rules_object(rules)
    if not known.solvable:
        return []
    hot, store = known.hot, known.store
    query = hot[1]() if hot is not None and store is not None and hot[0] == store.generation else None
    if query is None:
        query = known.query(rules)
    locked = rules.locked_holds
    faces = tuple(sorted(dice[p] for p in held)) if locked and held else ()
    # the ranked rows themselves, no Option object: [0 = score or 1 = keep, number, points, expected]
    rows = query.top_rows(card, dice, throw, extra_bonuses, faces, top)
    if not rows:
        return []
    best = rows[0][3]
    out: list[Advice] = []
    spots = None
    new, scores, append = _new_advice, known.scores, out.append
    for kind, number, points, value in rows:  # a loop, not a comprehension: its own frame costs more in 3.11
        if kind == 0.0:
            slot, score = scores[number]
            append(new(Advice, ("score", slot, int(points), (), (), value, best - value, score, None)))
            continue
        if spots is None:  # the dice were checked by the query: they show the faces of every keep
            spots = known.sorted_spots.get(dice) if type(dice) is tuple and not held else None  # dice in order
            if spots is None:
                spots = known.spots_on(dice, held, locked)
        kept, positions, roll = spots[number]
        append(new(Advice, ("keep", None, 0, kept, positions, value, best - value, roll, None)))
    return out


def _first_positions(dice: tuple[int, ...], faces: tuple[int, ...]) -> tuple[int, ...] | None:
    """:func:`keep_positions` with nothing held: the first dice showing the (sorted) faces; None if the dice
    don't show them (then :func:`keep_positions` says so)."""
    chosen = []
    face = start = 0
    try:
        for f in faces:
            at = dice.index(f, start if f == face else 0)  # the same face again: after the die taken last
            chosen.append(at)
            face, start = f, at + 1
    except ValueError:
        return None
    chosen.sort()
    return tuple(chosen)


def hint(game: Game, top: int = 5, win: bool = False) -> tuple[list[Advice], bool]:
    """The ``top`` best options of the current decision, best first, and whether the values are exact.

    With ``win`` (two or more players, rules with exact win tables: see :mod:`cubilete.win`),
    the options are ranked by their probability of winning against the other seats' positions,
    each with it in ``Advice.win`` (and its expected final score as usual); elsewhere ``win`` is
    ignored and ``Advice.win`` stays None.

    Before the first throw of a turn there is nothing to decide (every die is thrown): the
    list is empty, as it is once the game is over. ``exact`` is False for rules the solver
    can't solve (the optimal bot's approximate search, or an empty list if there is none).
    A tie-break round is valued by the bots' analysis when available (options of kind "stand").
    """
    if win:
        to_win = _win_hint(game, top)
        if to_win is not None:
            return to_win
    st = game.state
    if st.phase is Phase.PLAY and st.turn.throws > 0 and is_solvable(game.rules):
        seat, turn = game.seat(), st.turn
        try:  # the same options as _options' (tests/play/test_coach_advise_hand.py), without an Option per option
            return advise_hand(game.rules, seat.card, turn.dice, turn.throws, seat.extra_bonuses, turn.held, top), True
        except SolverUnsupportedError:  # not solved here yet (a server solves it elsewhere): approximated below
            pass
    found = _options(game)
    if found is None:
        return [], game.state.phase is Phase.PLAY and is_solvable(game.rules)
    options, exact = found
    turn = game.state.turn
    return [_advice(o, turn.dice, turn.held, game.rules.locked_holds) for o in options[: max(top, 0)]], exact


def _win_hint(game: Game, top: int) -> tuple[list[Advice], bool] | None:
    """Options ranked by the probability of winning (:func:`cubilete.win.chance.option_chances`, the
    model of the chances panel) and whether those chances are exact, or None where there are none."""
    st = game.state
    if st.phase is not Phase.PLAY or st.turn.throws == 0 or len(st.seats) < 2:
        return None
    from cubilete.engine.errors import SolverUnsupportedError
    from cubilete.win.chance import option_chances

    try:
        ranked, exact = option_chances(game)
    except SolverUnsupportedError:
        return None
    turn = st.turn
    out = []
    for w in ranked[: max(top, 0)]:
        advice = _advice(w.option, turn.dice, turn.held, game.rules.locked_holds)
        out.append(advice._replace(win=w.win))
    return out, exact


def _match(game: Game, options: Sequence[OptionLike], action: Action) -> OptionLike | None:
    """The option an action plays (a Roll is judged by the faces it keeps)."""
    dice = game.state.turn.dice
    kept = tuple(sorted(dice[p] for p in action.keep)) if isinstance(action, Roll) else None
    for option in options:
        if isinstance(action, Score) and option.kind == "score" and option.slot == action.slot:
            return option
        if kept is not None and option.kind == "keep" and tuple(sorted(option.keep)) == kept:
            return option
    return None


def action_loss(game: Game, action: Action) -> float | None:
    """Expected points the action loses against the best option, judged before it is applied.

    None when there is nothing to judge: the first throw of a turn (no choice), a tie-break
    round, a finished game, or rules with no analysis. An "em baixo" call is judged like the
    same throw without it (the faces underneath are just as likely). An illegal action raises
    :class:`IllegalActionError`.
    """
    st = game.state
    if st.phase is not Phase.PLAY or st.turn.throws == 0:
        return None
    if action not in game.legal_actions():
        raise IllegalActionError(f"{action} is not legal now")
    found = _options(game)
    if found is None:
        return None
    option = _match(game, found[0], action)
    return None if option is None else max(0.0, option.loss)


# --- review ------------------------------------------------------------------------


def _is_decision(before: GameState) -> bool:
    """A choice the score depends on: after a throw, in normal play."""
    return before.phase is Phase.PLAY and before.turn.throws > 0


def _judge(game: Game, action: Action, before: GameState, exact: list[bool]) -> Decision | None:
    """The decision ``action`` made from ``game`` (positioned before it), or None if it can't be judged."""
    found = _options(game)
    if found is None:
        return None
    options, is_exact = found
    exact[0] = exact[0] and is_exact
    option = _match(game, options, action)
    if option is None:
        return None
    rules, seat, turn = game.rules, before.seats[before.current], before.turn
    best = options[0]
    return Decision(
        seat=before.current,
        player=seat.name,
        turn=seat.turns_taken + 1,
        throw=turn.throws,
        dice=turn.dice,
        action=describe_option(rules, option.kind, option.slot, option.points, option.keep),
        best=describe_option(rules, best.kind, best.slot, best.points, best.keep),
        loss=max(0.0, option.loss),
    )


def review(game: Game, players: Collection[str] | None = None, progress: Progress | None = None) -> Review:
    """Judge every decision of ``players`` (default: every seat that isn't a bot) in a game.

    ``progress(done, total)`` is called while the rules are solved (per layer, only if the
    table is not cached yet) and then once per action of the game. Tie-break rounds are skipped
    (the solver's objective is the score, not the hand that settles a tie). On a solved table
    (and held dice not locked) every decision is judged by one batched query over the states the
    game went through; otherwise the game's record is replayed and each decision judged in turn.
    """
    judged = set(game.players if players is None else players)
    if players is None:
        judged = {p for p in judged if not is_bot_name(p)}
    unknown = sorted(judged - set(game.players))
    if unknown:
        raise CubileteError(
            _("no player {names} in this game; players: {players}").format(
                names=", ".join(unknown), players=", ".join(game.players)
            )
        )
    seats = [p for p in game.players if p in judged]
    from cubilete.engine.errors import SolverUnsupportedError

    solution = None
    if is_solvable(game.rules):
        with contextlib.suppress(SolverUnsupportedError):  # not solved here yet: judged approximately below
            solution = solution_for(game.rules, progress)
    if solution is not None and not game.rules.locked_holds:  # options independent of held dice: one batched query
        return _summarise(_judge_all(game, solution, judged, progress), True, seats)
    return _summarise(*_judge_replayed(game, judged, progress), seats)


def _judge_replayed(game: Game, judged: Collection[str], progress: Progress | None) -> tuple[list[Decision], bool]:
    """(every judged decision, whether all were exact), the record replayed and each decision judged in turn."""
    from cubilete.engine.record import steps, to_record

    record = to_record(game)
    total = len(record["actions"])
    decisions: list[Decision] = []
    exact = [True]
    for done, (replay, action, before) in enumerate(steps(record), 1):
        if _is_decision(before) and before.seats[before.current].name in judged:
            replay.undo()
            decision = _judge(replay, action, before, exact)
            replay.apply(action)
            if decision is not None:
                decisions.append(decision)
        if progress is not None:
            progress(done, total)
    return decisions, exact[0]


# options in words, per rule set (by identity: hashing a Rules costs more than the words) and language
_WORDS: dict[tuple[int, str], tuple[Rules, dict[tuple[str, object, int], str]]] = {}
_DECISION_FIELDS = tuple(f.name for f in dataclasses.fields(Decision))


def _judge_all(game: Game, solution: Solution, judged: Collection[str], progress: Progress | None) -> list[Decision]:
    """Every judged decision of a game on a solved table, by one batched query (:func:`advisor.judge
    <cubilete.solver.advisor.judge>`) over the states the game went through: the same decisions and
    losses as judging them one by one (``tests/play/test_review_batch.py``)."""
    from cubilete.solver.advisor import judge, option_names

    states, history = game.states, game.history
    total = len(history)
    asked: list[tuple[tuple[int | None, ...], tuple[int, ...], int, int, str, str | tuple[int, ...]]] = []
    where: list[tuple[int, Seat]] = []
    play = Phase.PLAY
    for done, action in enumerate(history):
        before = states[done]
        turn = before.turn
        if before.phase is play and turn.throws > 0:
            seat = before.seats[before.current]
            if seat.name in judged:
                if isinstance(action, Score):
                    asked.append((seat.card, turn.dice, turn.throws, seat.extra_bonuses, "score", action.slot))
                    where.append((before.current, seat))
                elif isinstance(action, Roll):
                    dice = turn.dice
                    kept = tuple(sorted([dice[p] for p in action.keep]))
                    asked.append((seat.card, dice, turn.throws, seat.extra_bonuses, "keep", kept))
                    where.append((before.current, seat))
        if progress is not None:
            progress(done + 1, total)
    rows = judge(solution, asked).tolist()
    slots, keeps = option_names(solution)
    rules = game.rules
    found = _WORDS.get((id(rules), current_language()))
    if found is None or found[0] is not rules:
        if len(_WORDS) >= 64:
            _WORDS.clear()
        found = _WORDS[id(rules), current_language()] = (rules, {})
    words = found[1]

    def describe(kind: str, what: str | tuple[int, ...] | None, points: int) -> str:
        said = words.get((kind, what, points))
        if said is None:
            if kind == "score":
                said = describe_option(rules, kind, what, points, ())  # type: ignore[arg-type]
            else:
                said = describe_option(rules, kind, None, 0, what)  # type: ignore[arg-type]
            words[kind, what, points] = said
        return said

    decisions = []
    new, fields = object.__new__, _DECISION_FIELDS
    for (current, seat), (_card, dice, throw, _extras, kind, what), row in zip(where, asked, rows, strict=True):
        found_it, points, value, best_kind, best_number, best_points, best = row
        if not found_it:
            continue
        best_key: tuple[str, str | tuple[int, ...], int] = (
            ("score", slots[int(best_number)], int(best_points))
            if best_kind == 0.0
            else ("keep", keeps[int(best_number)], 0)
        )
        best_words = words.get(best_key) or describe(*best_key)
        key = (kind, what, int(points))
        action_words = words.get(key) or describe(*key)
        # a frozen dataclass's __init__ sets each field through object.__setattr__: filling its __dict__ at once
        # builds the same Decision (equal, hashed and shown alike) in a third of the time, once per decision
        decision = new(Decision)
        decision.__dict__.update(
            zip(fields, (current, seat.name, seat.turns_taken + 1, throw, dice, action_words, best_words,
                         max(0.0, best - value)), strict=True)
        )  # fmt: skip
        decisions.append(decision)
    return decisions


def _summarise(decisions: list[Decision], exact: bool, players: list[str]) -> Review:
    total_loss = {p: 0.0 for p in players}
    worst: dict[str, list[Decision]] = {p: [] for p in players}
    for d in decisions:
        total_loss[d.player] += d.loss
    for p in players:
        lost = [d for d in decisions if d.player == p and d.loss > EPSILON]
        worst[p] = sorted(lost, key=lambda d: -d.loss)[:3]
    return Review(decisions, total_loss, worst, exact)
