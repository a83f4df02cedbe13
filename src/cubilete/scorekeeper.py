"""The scorekeeper: the score sheet for real dice on a real table.

Players throw their own dice and type what they threw and the throw number; the
scorekeeper checks the box they pick under the chosen rules (every rule comes from
:mod:`cubilete.rules.scoring`), writes the points, closes boxes that close by themselves,
counts extra five-of-a-kind bonuses and passes the turn in seat order until every sheet
is complete (or a servida Generala wins at once).

>>> from cubilete.rules import find_rules
>>> keeper = Scorekeeper(find_rules("generala"), ["Ana", "Beto"])
>>> keeper.enter((2, 2, 5, 5, 5), throw=1, slot="full")
35
>>> keeper.current_player
'Beto'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cubilete.errors import CubileteError, RulesError
from cubilete.i18n import _, box_name
from cubilete.rules import scoring
from cubilete.rules.model import Joker, Order, Rules

if TYPE_CHECKING:
    from cubilete.coach import Advice

Card = tuple[int | None, ...]


class ScorekeeperError(CubileteError):
    """An entry the rules refuse; the message says why and nothing changes."""


@dataclass(frozen=True)
class Entry:
    """One line written on a sheet."""

    seat: int
    slot: str
    dice: tuple[int, ...]
    throw: int
    points: int
    extra_bonus: bool  # an extra five-of-a-kind bonus was paid with it


@dataclass(frozen=True)
class _Snapshot:
    current: int
    cards: tuple[Card, ...]
    extra_bonuses: tuple[int, ...]
    banked: tuple[int, ...]
    turns_taken: tuple[int, ...]
    winners: tuple[int, ...]
    instant_win: bool


class Scorekeeper:
    """One sheet per player, turns in seat order, every entry checked against the rules."""

    def __init__(self, rules: Rules, players: Sequence[str]) -> None:
        if isinstance(players, str):
            raise ScorekeeperError(_("players must be a list of names, not one string"))
        names = [str(p).strip() for p in players]
        if not rules.min_players <= len(names) <= rules.max_players:
            raise ScorekeeperError(
                _("{rules} is for {low} to {high} players, not {n}").format(
                    rules=rules.name, low=rules.min_players, high=rules.max_players, n=len(names)
                )
            )
        if any(not n for n in names):
            raise ScorekeeperError(_("every player needs a name"))
        if len(set(names)) != len(names):
            raise ScorekeeperError(_("player names must be different"))
        self.rules = rules
        self.players = tuple(names)
        self.current = 0
        empty: Card = (None,) * len(rules.slots)
        self.cards: list[Card] = [empty] * len(names)
        self.extra_bonuses = [0] * len(names)
        self.banked = [0] * len(names)  # throws carried over (Maxi Yatzy)
        self.turns_taken = [0] * len(names)
        self.winners: tuple[int, ...] = ()  # seats, once the game is over (several on a tie)
        self.instant_win = False  # the game ended with a first-throw hand that wins at once
        self.entries: list[Entry] = []
        self._history: list[_Snapshot] = []

    def __repr__(self) -> str:
        return f"<Scorekeeper {self.rules.name} {list(self.players)} entries={len(self.entries)}>"

    # --- where the game stands ----------------------------------------------------------
    @property
    def is_over(self) -> bool:
        """True once every sheet is complete or a hand has won at once."""
        return bool(self.winners)

    @property
    def current_player(self) -> str:
        """The name of the player whose turn it is."""
        return self.players[self.current]

    @property
    def allowance(self) -> int:
        """Throws the current player may use this turn."""
        return self.rules.throws + self.banked[self.current]

    @property
    def round(self) -> int:
        """The current player's turn number, 1-based."""
        return self.turns_taken[self.current] + 1

    def totals(self) -> list[int]:
        """Every player's total (boxes, upper bonus, extra bonuses), in seat order."""
        return [scoring.total(self.rules, c, x) for c, x in zip(self.cards, self.extra_bonuses, strict=True)]

    # --- checks ---------------------------------------------------------------------
    def _check(self, dice: Sequence[int], throw: int) -> tuple[int, ...]:
        """The dice as a tuple, once the game, the dice and the throw number are valid."""
        if self.is_over:
            raise ScorekeeperError(_("the game is over"))
        faces = tuple(dice)
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
                raise ScorekeeperError(_("{face} is not a die face (1 to 6)").format(face=f))
        if len(faces) != self.rules.dice:
            raise ScorekeeperError(_("these rules use {n} dice; got {k}").format(n=self.rules.dice, k=len(faces)))
        if isinstance(throw, bool) or not isinstance(throw, int) or throw < 1:
            raise ScorekeeperError(
                _("the throw number starts at 1 (the turn's first throw), not {throw}").format(throw=throw)
            )
        if throw > self.allowance:
            raise ScorekeeperError(
                _("{player} has {n} throws this turn; throw {throw} is beyond them").format(
                    player=self.current_player, n=self.allowance, throw=throw
                )
            )
        return faces

    def _slot_index(self, slot: str) -> int:
        try:
            return self.rules.slot_index(slot)
        except RulesError:
            raise ScorekeeperError(
                _("no box {slot} in {rules}; boxes: {boxes}").format(
                    slot=slot, rules=self.rules.name, boxes=", ".join(self.rules.slots)
                )
            ) from None

    def _name(self, slot: int) -> str:
        name = box_name(self.rules, self.rules.slot_box(slot).id)
        if len(self.rules.columns) > 1:
            return _("{box} (column {column})").format(box=name, column=self.rules.slot_column(slot) + 1)
        return name

    def _why_not_usable(self, slot: int, card: Card, dice: tuple[int, ...], first: bool) -> str:
        """Why an open slot can't take these dice now: column order or the forced joker."""
        rules = self.rules
        column = rules.slot_column(slot)
        free = [i for i in scoring.column_slots(rules, column) if card[i] is None]
        order = rules.columns[column]
        if order is Order.DOWN and slot != free[0]:
            return _("the boxes are filled in order, top to bottom: the next one is {box}").format(
                box=self._name(free[0])
            )
        if order is Order.UP and slot != free[-1]:
            return _("the boxes are filled in order, bottom to top: the next one is {box}").format(
                box=self._name(free[-1])
            )
        usable = scoring.usable_slots(rules, card, dice, first)
        boxes = ", ".join(self._name(i) for i in usable)
        if rules.joker is Joker.FORCED and scoring.joker_active(rules, card, column, dice):
            return _("an extra five of a kind used as a joker must go in: {boxes}").format(boxes=boxes)
        return _("{box} cannot be used now; usable: {boxes}").format(box=self._name(slot), boxes=boxes)

    def _why_no_points(self, slot: int, card: Card, dice: tuple[int, ...], first: bool) -> str:
        """Why the dice score nothing in a slot (scratching it is allowed)."""
        rules = self.rules
        box = rules.slot_box(slot)
        column = rules.slot_column(slot)
        shown = " ".join(map(str, dice))
        if rules.columns[column] is Order.FIRST_THROW and not first:
            return _("{box} takes only hands made with the first throw; scratch it to write 0").format(
                box=self._name(slot)
            )
        if box.requires is not None and not card[scoring.slot_of(rules, box.requires, column)]:
            return _("{box} scores only once {required} holds points; scratch it to write 0").format(
                box=self._name(slot), required=self._name(scoring.slot_of(rules, box.requires, column))
            )
        return _("the dice {dice} do not make {box}; scratch it to write 0").format(dice=shown, box=self._name(slot))

    # --- entries --------------------------------------------------------------------
    def preview(self, dice: Sequence[int], throw: int) -> dict[str, int]:
        """The points every slot usable now would get for these dice (0 is a scratch)."""
        faces = self._check(dice, throw)
        card, first = self.cards[self.current], throw == 1
        return {
            self.rules.slots[i]: scoring.slot_points(self.rules, card, i, faces, first)
            for i in scoring.usable_slots(self.rules, card, faces, first)
        }

    def enter(self, dice: Sequence[int], throw: int, slot: str, scratch: bool = False) -> int:
        """Write the current player's dice in a slot and pass the turn; returns the points written.

        Refused with a :class:`ScorekeeperError` saying why (and nothing changes) when the dice
        or the throw number are invalid, the slot is closed or can't be used now, the dice don't
        make the box (unless ``scratch``: then 0 is written), or ``scratch`` is asked for dice
        that do make the box.
        """
        faces = self._check(dice, throw)
        index = self._slot_index(slot)
        rules, card, first = self.rules, self.cards[self.current], throw == 1
        if card[index] is not None:
            raise ScorekeeperError(
                _("{box} is already closed ({points} points)").format(box=self._name(index), points=card[index])
            )
        if index not in scoring.usable_slots(rules, card, faces, first):
            raise ScorekeeperError(self._why_not_usable(index, card, faces, first))
        points = scoring.slot_points(rules, card, index, faces, first)
        if scratch and points > 0:
            raise ScorekeeperError(
                _("the dice make {box} for {points}: write them instead of scratching").format(
                    box=self._name(index), points=points
                )
            )
        if not scratch and points == 0:
            raise ScorekeeperError(self._why_no_points(index, card, faces, first))
        self._history.append(self._snapshot())
        bonus = scoring.extra_bonus_due(rules, card, index, faces)
        wins = first and scoring.instant_win(rules, card, faces)
        seat = self.current
        self.cards[seat] = scoring.write(rules, card, index, points)
        self.extra_bonuses[seat] += int(bonus)
        self.banked[seat] = self.allowance - throw if rules.carry_over_throws else 0
        self.turns_taken[seat] += 1
        self.entries.append(Entry(seat, rules.slots[index], faces, throw, points, bonus))
        if wins:
            self.winners, self.instant_win = (seat,), True
        else:
            self._advance()
        return points

    def undo(self) -> None:
        """Take back the last entry (also after the game ended)."""
        if not self._history:
            raise ScorekeeperError(_("nothing to undo"))
        snap = self._history.pop()
        self.current = snap.current
        self.cards = list(snap.cards)
        self.extra_bonuses = list(snap.extra_bonuses)
        self.banked = list(snap.banked)
        self.turns_taken = list(snap.turns_taken)
        self.winners, self.instant_win = snap.winners, snap.instant_win
        self.entries.pop()

    def suggest(self, dice: Sequence[int], throw: int, top: int = 3, held: Sequence[int] = ()) -> list[Advice]:
        """The best options for these dice from the solver (what to hold, or where to score), best first.

        ``held`` lists the dice positions kept at the last throw (locked holds). Empty for rules
        too large to solve exactly. Imports the solver, so the first call may take a moment.
        """
        faces = self._check(dice, throw)
        from cubilete.coach import advise_hand

        seat = self.current
        if throw > self.rules.throws:  # throws carried over: the solver knows only one turn's throws
            return []
        return advise_hand(self.rules, self.cards[seat], faces, throw, self.extra_bonuses[seat], held, top)

    # --- turns ----------------------------------------------------------------------
    def _snapshot(self) -> _Snapshot:
        return _Snapshot(
            self.current,
            tuple(self.cards),
            tuple(self.extra_bonuses),
            tuple(self.banked),
            tuple(self.turns_taken),
            self.winners,
            self.instant_win,
        )

    def _done(self, seat: int) -> bool:
        return self.turns_taken[seat] >= self.rules.turns or all(v is not None for v in self.cards[seat])

    def _advance(self) -> None:
        n = len(self.players)
        for step in range(1, n + 1):
            seat = (self.current + step) % n
            if not self._done(seat):
                self.current = seat
                return
        totals = self.totals()
        best = max(totals)
        self.winners = tuple(i for i, t in enumerate(totals) if t == best)
