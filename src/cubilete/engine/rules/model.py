"""The rules as data: a frozen, hashable :class:`Rules` made of :class:`Box` values.

Every parameter of the Generala family (RULES.md, P1-P18) is a field here; the
engine and the solver read these fields and never branch on a preset's name.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cached_property

from cubilete.engine.errors import RulesError


class Kind(StrEnum):
    """How a box recognises a hand."""

    UPPER = "upper"  # dice showing one face
    GROUPS = "groups"  # groups of equal dice: pairs, n of a kind, full, villa, tower
    STRAIGHT = "straight"  # the hand contains one of the listed patterns
    CHANCE = "chance"  # any hand


class Points(StrEnum):
    """How a box that recognises the hand turns it into points."""

    FIXED = "fixed"  # the box's value
    SUM = "sum"  # the sum of all the dice
    PATTERN = "pattern"  # the sum of the dice that make the pattern


class Order(StrEnum):
    """How the boxes of one column of the sheet may be used."""

    FREE = "free"  # any open box, any time
    DOWN = "down"  # top to bottom (Generala obligada, column 1 of the 4-column sheet)
    UP = "up"  # bottom to top
    FIRST_THROW = "first-throw"  # points only for a hand made with the first throw


class Joker(StrEnum):
    """What an extra five-of-a-kind may do when its own box is already used (P12)."""

    NONE = "none"  # nothing special
    FORCED = "forced"  # official Hasbro rule: matching upper box first, then lower, then 0 upper
    FREE = "free"  # any box; joker in the lower boxes only if the matching upper box is used
    ORIGINAL = "original"  # 1956-61 rule: jokers in the lower boxes; upper boxes score 0


class Start(StrEnum):
    """Who starts the game (P15)."""

    HIGHEST_DIE = "highest-die"  # each throws one die, highest starts, ties throw again
    LOWEST_SUM = "lowest-sum"  # each throws all the dice, lowest sum starts, ties throw again
    SEAT_ORDER = "seat-order"  # the first seat starts


class Direction(StrEnum):
    """In which order the turn passes (P16); seats are listed clockwise."""

    CLOCKWISE = "clockwise"  # seat order
    COUNTER_CLOCKWISE = "counter-clockwise"  # reverse seat order


class TieBreak(StrEnum):
    """What happens when players tie for first at the end (P17)."""

    EXTRA_ROUND = "extra-round"  # the tied play one more hand; repeat while tied
    SHARED = "shared"  # the win is shared


@dataclass(frozen=True)
class Box:
    """One line of the score sheet: how it recognises a hand and what it pays."""

    id: str
    name: str
    kind: Kind
    points: Points = Points.FIXED
    value: int = 0
    face: int = 0  # UPPER: the face counted
    groups: tuple[int, ...] = ()  # GROUPS: sizes of the groups of equal dice, e.g. (3, 2)
    distinct: bool = True  # GROUPS: the groups must show different faces
    exact: bool = False  # GROUPS: a group may not be part of a bigger one (P7 off)
    patterns: tuple[tuple[int, ...], ...] = ()  # STRAIGHT: sorted multisets, one must be in the hand
    face_values: tuple[tuple[int, int], ...] = ()  # FIXED value by the face of the first group
    first_throw_value: int | None = None  # P5: value when made with the first throw (servida)
    first_throw_bonus: int = 0  # P5: added when made with the first throw
    instant_win: bool = False  # P10: made with the first throw wins, unless this box was scratched
    win_after_scratch: bool = False  # P10: the instant win holds even after this box was scratched (Bozó)
    requires: str | None = None  # P9: scores points only once that box holds points
    closed_by_scratch: bool = True  # P9: closes by itself when the required box is scratched
    joker: bool = False  # P12: may take an extra five-of-a-kind as a joker at full value

    @property
    def is_upper(self) -> bool:
        """True for the boxes that count toward the upper bonus."""
        return self.kind is Kind.UPPER

    def replace(self, **changes: object) -> Box:
        """A copy of this box with some fields changed."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def __repr__(self) -> str:
        from cubilete.engine.rules.spelling import box_repr

        return box_repr(self)


@dataclass(frozen=True)
class Rules:
    """A complete, hashable rule set of the Generala family."""

    name: str
    title: str
    boxes: tuple[Box, ...]
    dice: int = 5  # P1
    throws: int = 3  # P2
    carry_over_throws: bool = False  # P2: unused throws are kept for later turns (Maxi Yatzy)
    locked_holds: bool = False  # P3: a held die may not be thrown again in the turn
    columns: tuple[Order, ...] = (Order.FREE,)  # P14: the sheet's columns, each with its order
    rounds: int | None = None  # P13: turns per player; None means one per box
    upper_bonus_threshold: int = 0  # P11
    upper_bonus: int = 0  # P11
    extra_bonus_box: str | None = None  # P12: the five-of-a-kind box that pays extra bonuses
    extra_bonus: int = 0  # P12: paid per extra five-of-a-kind while that box holds points
    joker: Joker = Joker.NONE  # P12
    face_down_call: bool = False  # Bozó "em baixo": the faces resting on the table count
    start: Start = Start.HIGHEST_DIE  # P15
    direction: Direction = Direction.CLOCKWISE  # P16
    order_by_start: bool = False  # P15/P16: turns follow the start throw's ranking (S1: second sits next, ...)
    tie_break: TieBreak = TieBreak.EXTRA_ROUND  # P17
    min_players: int = 1  # P18
    max_players: int = 8  # P18
    description: str = ""
    aliases: tuple[str, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        check_rules(self)

    def __hash__(self) -> int:
        """Computed once: a rule set is a dictionary key on every move (tables, caches), and hashing every box
        and field costs more than a whole advise query."""
        cached = self.__dict__.get("_hash")
        if cached is None:
            cached = self.__dict__["_hash"] = hash(tuple(getattr(self, f.name) for f in _COMPARED))
        return int(cached)

    def __getstate__(self) -> dict[str, object]:
        """Pickled without the cached hash: another process hashes strings with another seed."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def __repr__(self) -> str:
        """Short Python that evaluates back: ``find_rules('generala').replace(throws=2)``."""
        from cubilete.engine.rules.spelling import rules_repr

        return rules_repr(self)

    # --- derived facts -------------------------------------------------
    # Computed once per rule set (a frozen value never changes): every per-move step stays linear
    # in the number of slots instead of rebuilding these tuples for each slot it looks at.
    @cached_property
    def box_ids(self) -> tuple[str, ...]:
        """The ids of the boxes, in sheet order."""
        return tuple(b.id for b in self.boxes)

    @cached_property
    def slots(self) -> tuple[str, ...]:
        """Every place on the sheet: a box id, or ``box@column`` on a sheet of several columns."""
        if len(self.columns) == 1:
            return self.box_ids
        return tuple(f"{b.id}@{c + 1}" for c in range(len(self.columns)) for b in self.boxes)

    @cached_property
    def _slot_indices(self) -> dict[str, int]:
        return {slot: i for i, slot in enumerate(self.slots)}

    @cached_property
    def _box_indices(self) -> dict[str, int]:
        return {box_id: i for i, box_id in enumerate(self.box_ids)}

    def box_position(self, box_id: str) -> int:
        """The position of a box on one column of the sheet (KeyError if there is no such box)."""
        return self._box_indices[box_id]

    @property
    def turns(self) -> int:
        """How many turns each player has."""
        return self.rounds if self.rounds is not None else len(self.slots)

    def box(self, box_id: str) -> Box:
        """The box with that id."""
        for b in self.boxes:
            if b.id == box_id:
                return b
        raise RulesError(f"no box {box_id!r} in {self.name}; boxes: {', '.join(self.box_ids)}")

    def slot_box(self, slot: int) -> Box:
        """The box at a slot index."""
        return self.boxes[slot % len(self.boxes)]

    def slot_column(self, slot: int) -> int:
        """The column (0-based) of a slot index."""
        return slot // len(self.boxes)

    def slot_index(self, slot_id: str) -> int:
        """The index of a slot given by its id (``full``, ``full@2``)."""
        try:
            return self._slot_indices[slot_id]
        except (KeyError, TypeError):
            raise RulesError(f"no box {slot_id!r} in {self.name}; boxes: {', '.join(self.slots)}") from None

    def replace(self, **changes: object) -> Rules:
        """A copy of these rules with some fields changed (checked again)."""
        return dataclasses.replace(self, **changes)  # type: ignore[arg-type]

    def with_box(self, box_id: str, **changes: object) -> Rules:
        """A copy of these rules with one box changed."""
        self.box(box_id)
        return self.replace(boxes=tuple(b.replace(**changes) if b.id == box_id else b for b in self.boxes))

    def without_box(self, box_id: str) -> Rules:
        """A copy of these rules without one box."""
        self.box(box_id)
        return self.replace(boxes=tuple(b for b in self.boxes if b.id != box_id))


_COMPARED = tuple(f for f in dataclasses.fields(Rules) if f.compare)


def check_rules(rules: Rules) -> None:
    """Raise :class:`RulesError` if the rule set is inconsistent."""
    where = f"rules {rules.name!r}"
    if not rules.name.strip():
        raise RulesError("rules need a name")
    if not rules.boxes:
        raise RulesError(f"{where}: there must be at least one box")
    if not 1 <= rules.dice <= 8:
        raise RulesError(f"{where}: dice must be 1 to 8, not {rules.dice}")
    if not 1 <= rules.throws <= 10:
        raise RulesError(f"{where}: throws must be 1 to 10, not {rules.throws}")
    if not rules.columns:
        raise RulesError(f"{where}: there must be at least one column")
    ids = rules.box_ids
    dupes = sorted({i for i in ids if ids.count(i) > 1})
    if dupes:
        raise RulesError(f"{where}: box ids must be unique; repeated: {', '.join(dupes)}")
    if rules.rounds is not None and not 1 <= rules.rounds <= len(rules.slots):
        raise RulesError(f"{where}: rounds must be 1 to the number of boxes ({len(rules.slots)}), not {rules.rounds}")
    if not 1 <= rules.min_players <= rules.max_players <= 8:
        raise RulesError(f"{where}: players must satisfy 1 <= min_players <= max_players <= 8")
    for field_name in ("upper_bonus_threshold", "upper_bonus", "extra_bonus"):
        if getattr(rules, field_name) < 0:
            raise RulesError(f"{where}: {field_name} must be 0 or more, not {getattr(rules, field_name)}")
    if rules.extra_bonus_box is not None and rules.extra_bonus_box not in ids:
        raise RulesError(f"{where}: extra_bonus_box {rules.extra_bonus_box!r} is not a box")
    if rules.joker is not Joker.NONE and rules.extra_bonus_box is None:
        raise RulesError(f"{where}: a joker rule needs extra_bonus_box (the five-of-a-kind box)")
    if rules.order_by_start and rules.start is Start.SEAT_ORDER:
        raise RulesError(f"{where}: order_by_start needs a start throw (start highest-die or lowest-sum)")
    for b in rules.boxes:
        check_box(b, rules.dice, ids, where)
    requires = {b.id: b.requires for b in rules.boxes if b.requires}
    for b in rules.boxes:
        seen, at = [b.id], b.requires
        while at is not None:
            if at in seen:
                chain = " -> ".join([*seen, at])
                raise RulesError(f"{where}: boxes {chain} require each other: none could hold points")
            seen.append(at)
            at = requires.get(at)


def check_box(b: Box, dice: int, ids: tuple[str, ...], where: str) -> None:
    """Raise :class:`RulesError` if one box is inconsistent with the dice and the other boxes."""
    at = f"{where}, box {b.id!r}"
    if not b.id or not all(ch.isalnum() or ch in "-_" for ch in b.id):
        raise RulesError(f"{at}: an id uses only letters, digits, '-' and '_'")
    if b.kind is Kind.UPPER and not 1 <= b.face <= 6:
        raise RulesError(f"{at}: an upper box needs a face 1 to 6, not {b.face}")
    if b.kind is Kind.GROUPS:
        if not b.groups or any(g < 1 for g in b.groups):
            raise RulesError(f"{at}: groups must be a list of sizes of at least 1")
        if sum(b.groups) > dice:
            raise RulesError(f"{at}: groups {list(b.groups)} need more than {dice} dice")
    if b.kind is Kind.STRAIGHT:
        if not b.patterns:
            raise RulesError(f"{at}: a straight needs at least one pattern")
        for p in b.patterns:
            if not p:
                raise RulesError(f"{at}: an empty pattern would match every hand")
            if len(p) > dice or any(not 1 <= f <= 6 for f in p) or tuple(sorted(p)) != p:
                raise RulesError(f"{at}: pattern {''.join(map(str, p))} must be sorted faces 1-6, at most {dice} dice")
    for face, _ in b.face_values:
        if not 1 <= face <= 6:
            raise RulesError(f"{at}: face_values faces must be 1 to 6")
    if b.requires is not None and (b.requires not in ids or b.requires == b.id):
        raise RulesError(f"{at}: requires {b.requires!r}, which is not another box")
    if b.win_after_scratch and not b.instant_win:
        raise RulesError(f"{at}: win_after_scratch goes with instant_win")
    if b.value < 0 or b.first_throw_bonus < 0 or (b.first_throw_value or 0) < 0:
        raise RulesError(f"{at}: values must not be negative")
