"""The scorekeeper: the score sheet for real dice on a real table.

Players throw their own dice and type what they threw: first the start throws (who starts,
P15, and the order of play, P16), then each turn's dice with the throw number. The scorekeeper
checks the box they pick under the chosen rules, and plays the entry on a :class:`Game` fed
with the typed dice, so every rule of the engine holds here too: boxes that close by
themselves, extra five-of-a-kind bonuses, a servida Generala that wins at once, the tie-break
round (P17) among tied leaders, each of whom types one hand. The finished game is a normal
game record (:attr:`Scorekeeper.game`), so it goes into the statistics like any other.

>>> from cubilete.engine.rules import find_rules
>>> keeper = Scorekeeper(find_rules("generala"), ["Ana", "Beto"])
>>> keeper.start_request, keeper.current_player
((0, 1), 'Ana')
>>> keeper.start_throw([2]); keeper.start_throw([5])
>>> keeper.current_player
'Beto'
>>> keeper.enter((2, 2, 5, 5, 5), throw=1, slot="full")
35
>>> keeper.current_player
'Ana'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.dice import Hand, ScriptedDice
from cubilete.engine.errors import IllegalActionError, RulesError, ScorekeeperError
from cubilete.engine.game import Game, StartRequest, start_procedure, tiebreak_value
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Joker, Order, Rules
from cubilete.engine.state import EndReason, GameState, Phase
from cubilete.i18n import _, box_name, ngettext

if TYPE_CHECKING:
    from cubilete.play.coach import Advice

Card = tuple[int | None, ...]


@dataclass(frozen=True)
class Entry:
    """One line written on a sheet."""

    seat: int
    slot: str
    dice: tuple[int, ...]
    throw: int
    points: int
    extra_bonus: bool  # an extra five-of-a-kind bonus was paid with it


class Scorekeeper:
    """One sheet per player, turns in the order the start throw gives, every entry checked against the rules."""

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
        self.entries: list[Entry] = []
        self.start_throws: list[tuple[int, Hand]] = []  # (seat, faces) typed for who starts
        self.start_request: StartRequest | None = None  # (seat, dice) of the start throw awaited
        self.game: Game | None = None  # created once the start throws settle the order
        self._steps: list[tuple[int, bool]] = []  # per entry or hand: game actions applied, an entry?
        self._settle_start()

    def __repr__(self) -> str:
        return f"<Scorekeeper {self.rules.name} {list(self.players)} entries={len(self.entries)}>"

    # --- where the game stands ----------------------------------------------------------
    def _state(self) -> GameState | None:
        return self.game.state if self.game is not None else None

    @property
    def starting(self) -> bool:
        """True while start throws are awaited (:attr:`start_request` says whose)."""
        return self.game is None

    @property
    def tiebreak(self) -> bool:
        """True during a tie-break round: each tied leader types one hand (:meth:`hand`)."""
        st = self._state()
        return st is not None and st.phase is Phase.TIEBREAK

    @property
    def is_over(self) -> bool:
        """True once the game has a result: every sheet complete and no tie left, or an instant win."""
        st = self._state()
        return st is not None and st.phase is Phase.OVER

    @property
    def current(self) -> int:
        """The seat whose turn it is (during the start, the seat that throws for it)."""
        st = self._state()
        if st is None:
            assert self.start_request is not None
            return self.start_request[0]
        return st.current

    @property
    def current_player(self) -> str:
        """The name of the player whose turn it is."""
        return self.players[self.current]

    @property
    def order(self) -> tuple[int, ...]:
        """The seats in the order they play (known once the start throws are done)."""
        st = self._state()
        return st.order if st is not None else ()

    @property
    def cards(self) -> list[Card]:
        """Every sheet, in seat order."""
        st = self._state()
        empty: Card = (None,) * len(self.rules.slots)
        return [s.card for s in st.seats] if st is not None else [empty] * len(self.players)

    @property
    def extra_bonuses(self) -> list[int]:
        """Extra five-of-a-kind bonuses paid to each seat."""
        st = self._state()
        return [s.extra_bonuses for s in st.seats] if st is not None else [0] * len(self.players)

    @property
    def turns_taken(self) -> list[int]:
        """Turns each seat has written."""
        st = self._state()
        return [s.turns_taken for s in st.seats] if st is not None else [0] * len(self.players)

    @property
    def winners(self) -> tuple[int, ...]:
        """The winning seats once the game is over (several only if the rules share a tie)."""
        st = self._state()
        return st.winners if st is not None and st.phase is Phase.OVER else ()

    @property
    def instant_win(self) -> bool:
        """True if the game ended with a first-throw hand that wins at once."""
        st = self._state()
        return st is not None and st.reason is EndReason.INSTANT_WIN

    @property
    def reason(self) -> EndReason | None:
        """How the game ended (points, tie-break, shared, instant win)."""
        st = self._state()
        return st.reason if st is not None else None

    @property
    def tiebreak_round(self) -> int:
        """The number of the tie-break round being played (or last played), 0 before any."""
        st = self._state()
        return st.tiebreak_round if st is not None else 0

    @property
    def tiebreak_hands(self) -> tuple[tuple[int, int], ...]:
        """(seat, value) of the hands shown in the current tie-break round."""
        st = self._state()
        return st.tiebreak_hands if st is not None else ()

    @property
    def allowance(self) -> int:
        """Throws the current player may use this turn."""
        st = self._state()
        return st.turn.allowance if st is not None else self.rules.throws

    @property
    def round(self) -> int:
        """The current player's turn number, 1-based."""
        return self.turns_taken[self.current] + 1

    def totals(self) -> list[int]:
        """Every player's total (boxes, upper bonus, extra bonuses), in seat order."""
        return [scoring.total(self.rules, c, x) for c, x in zip(self.cards, self.extra_bonuses, strict=True)]

    # --- the start throws ------------------------------------------------------------
    def _settle_start(self) -> None:
        """Run the rules' start procedure over the throws typed so far: ask for the next, or begin."""
        procedure = start_procedure(self.rules, len(self.players))
        try:
            request = next(procedure)
            for _seat, faces in self.start_throws:
                request = procedure.send(faces)
        except StopIteration:
            self.start_request = None
            dice = ScriptedDice([faces for _seat, faces in self.start_throws])
            self.game = Game(self.rules, self.players, dice=dice)
            return
        self.start_request, self.game = request, None

    def start_throw(self, dice: Sequence[int]) -> None:
        """The dice the awaited player threw for who starts (one die, or all of them for the lowest sum)."""
        if self.start_request is None:
            raise ScorekeeperError(_("the start throws are done"))
        seat, count = self.start_request
        faces = self._faces(dice)
        if len(faces) != count:
            raise ScorekeeperError(
                ngettext(
                    "{player} throws {n} die to see who starts: type {n} number (you typed {k})",
                    "{player} throws {n} dice to see who starts: type {n} numbers (you typed {k})",
                    count,
                ).format(player=self.players[seat], n=count, k=len(faces))
            )
        self.start_throws.append((seat, faces))
        self._steps.append((0, False))
        self._settle_start()

    # --- checks ---------------------------------------------------------------------
    def _faces(self, dice: Sequence[int]) -> tuple[int, ...]:
        faces = tuple(dice)
        for f in faces:
            if isinstance(f, bool) or not isinstance(f, int) or not 1 <= f <= 6:
                raise ScorekeeperError(_("{face} is not a die face (1 to 6)").format(face=f))
        return faces

    def _check(self, dice: Sequence[int], throw: int) -> tuple[int, ...]:
        """The dice as a tuple, once the game, the dice and the throw number are valid."""
        if self.is_over:
            raise ScorekeeperError(_("the game is over"))
        if self.start_request is not None:
            raise ScorekeeperError(
                _("first the start throw: {player} throws for who starts").format(player=self.current_player)
            )
        faces = self._faces(dice)
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
    def _check_play(self, dice: Sequence[int], throw: int) -> tuple[int, ...]:
        faces = self._check(dice, throw)
        if self.tiebreak:
            raise ScorekeeperError(
                _("tie-break round: {player} shows a hand, written in no box").format(player=self.current_player)
            )
        return faces

    def preview(self, dice: Sequence[int], throw: int) -> dict[str, int]:
        """The points every slot usable now would get for these dice (0 is a scratch)."""
        faces = self._check_play(dice, throw)
        card, first = self.cards[self.current], throw == 1
        return {
            self.rules.slots[i]: scoring.slot_points(self.rules, card, i, faces, first)
            for i in scoring.usable_slots(self.rules, card, faces, first)
        }

    def wins_at_once(self, dice: Sequence[int], throw: int) -> bool:
        """True if these dice end the game at once (P10): a first-throw hand that wins for this player."""
        faces = self._check(dice, throw)
        return throw == 1 and scoring.instant_win(self.rules, self.cards[self.current], faces)

    def enter(self, dice: Sequence[int], throw: int, slot: str, scratch: bool = False) -> int:
        """Write the current player's dice in a slot and pass the turn; returns the points written.

        Refused with a :class:`ScorekeeperError` saying why (and nothing changes) when the dice
        or the throw number are invalid, the slot is closed or can't be used now, the dice don't
        make the box (unless ``scratch``: then 0 is written), or ``scratch`` is asked for dice
        that do make the box. A hand that wins at once ends the game before it is written: 0.
        """
        faces = self._check_play(dice, throw)
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
        seat = self.current
        bonus = scoring.extra_bonus_due(rules, card, index, faces)
        wins = self._play(faces, throw, Score(rules.slots[index]))
        if wins:
            points, bonus = 0, False
        self.entries.append(Entry(seat, rules.slots[index], faces, throw, points, bonus))
        return points

    def hand(self, dice: Sequence[int], throw: int) -> int:
        """A tied leader's hand in the tie-break round (P17); returns its worth (the most any box
        would pay for it on an empty sheet). The best hand of the round wins; a new round if still tied."""
        faces = self._check(dice, throw)
        if not self.tiebreak:
            raise ScorekeeperError(_("hands without a box are only for the tie-break round"))
        value = tiebreak_value(self.rules, faces, throw == 1)
        self._play(faces, throw, Stand())
        return value

    def _play(self, faces: tuple[int, ...], throw: int, last: Action) -> bool:
        """Play the typed hand on the game: ``throw`` throws that end on ``faces``, then ``last``.

        Only the last throw's dice are known: earlier throws keep all but the last die, whose
        face on them is one that does not win at once, so a hand made on a later throw is armada.
        Returns True if the hand won at once (then ``last`` is not played)."""
        game = self.game
        assert game is not None and isinstance(game.dice, ScriptedDice)
        n, card = self.rules.dice, self.cards[self.current]
        throws: list[tuple[int, ...]] = [faces]
        if throw > 1:
            other = [x for x in range(1, 7) if not scoring.instant_win(self.rules, card, (*faces[:-1], x))]
            if not other:  # every first throw would win: rules no table plays
                raise ScorekeeperError(_("these rules let every first throw win; type it as throw 1"))
            throws = [(*faces[:-1], other[0]), *[(other[0],)] * (throw - 2), (faces[-1],)]
        game.dice.throws[game.state.throws_made :] = throws
        keep = tuple(range(n - 1))
        actions: list[Action] = [Roll(), *[Roll(keep)] * (throw - 1)]
        done = 0
        try:
            for action in actions:
                game.apply(action)
                done += 1
            if game.is_over:
                self._steps.append((done, True))
                return True
            game.apply(last)
            done += 1
        except IllegalActionError as exc:  # the checks above should have refused it first
            for _i in range(done):
                game.undo()
            raise ScorekeeperError(str(exc)) from None
        self._steps.append((done, isinstance(last, Score)))
        return False

    def undo(self) -> Entry | None:
        """Take back the last entry, hand or start throw (also after the game ended); returns the
        entry taken back (its dice and throw are still on the table), None for a hand or a start throw."""
        if not self._steps:
            raise ScorekeeperError(_("nothing to undo"))
        count, entry = self._steps.pop()
        if count == 0:
            self.start_throws.pop()
            self._settle_start()
            return None
        assert self.game is not None
        for _i in range(count):
            self.game.undo()
        return self.entries.pop() if entry else None

    def suggest(self, dice: Sequence[int], throw: int, top: int = 3, held: Sequence[int] = ()) -> list[Advice]:
        """The best options for these dice from the solver (what to hold, or where to score), best first.

        ``held`` lists the dice positions kept at the last throw (locked holds). Empty for rules
        too large to solve exactly. Imports the solver, so the first call may take a moment.
        """
        faces = self._check_play(dice, throw)
        from cubilete.play.coach import advise_hand

        seat = self.current
        if throw > self.rules.throws:  # throws carried over: the solver knows only one turn's throws
            return []
        return advise_hand(self.rules, self.cards[seat], faces, throw, self.extra_bonuses[seat], held, top)
