"""The game engine: a state machine over immutable :mod:`cubilete.engine.state` values.

It never does I/O and takes its dice from an injected source, so a seed replays
a game exactly. ``apply`` pushes a new state, ``undo`` pops it.

>>> from cubilete.engine.rules import find_rules
>>> g = Game(find_rules("generala"), ["Ana"], seed=7)
>>> g.apply(Roll())
>>> len(g.state.turn.dice)
5
"""

from __future__ import annotations

import dataclasses
import itertools
import secrets
from collections.abc import Generator, Sequence

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.dice import DiceSource, DuplicateDice, Hand, SeededDice
from cubilete.engine.errors import IllegalActionError, RecordError, RulesError
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Direction, Rules, Start, TieBreak
from cubilete.engine.state import EndReason, GameState, Phase, Seat, Turn

MAX_TIEBREAK_ROUNDS = 100


def tiebreak_value(rules: Rules, hand: Sequence[int], first_throw: bool) -> int:
    """A tie-break hand's worth: the most any box would pay for it on an empty sheet."""
    empty: list[int | None] = [None] * len(rules.slots)
    return max(scoring.slot_points(rules, empty, i, hand, first_throw) for i in range(len(rules.boxes)))


class Game:
    """A game of any preset for 1 to 8 players."""

    def __init__(
        self,
        rules: Rules,
        players: Sequence[str],
        seed: str | int | None = None,
        dice: DiceSource | None = None,
    ) -> None:
        if isinstance(players, str):
            raise RulesError("players must be a list of names, not one string")
        names = [str(p).strip() for p in players]
        if not rules.min_players <= len(names) <= rules.max_players:
            raise RulesError(
                f"{rules.name} is for {rules.min_players} to {rules.max_players} players, not {len(names)}"
            )
        if any(not n for n in names):
            raise RulesError("every player needs a name")
        if len(set(names)) != len(names):
            raise RulesError("player names must be different")
        self.rules = rules
        self.players = tuple(names)
        self.seed = str(seed) if seed is not None else secrets.token_hex(16)
        try:
            self.seed.encode("utf-8")
        except UnicodeEncodeError:
            raise RulesError("the seed must be plain text (it could not be written as UTF-8)") from None
        self.dice: DiceSource = dice if dice is not None else SeededDice(self.seed)
        self.throws: list[Hand] = []
        self.history: list[Action] = []
        self.start_throws: list[tuple[int, Hand]] = []
        self._states: list[GameState] = [self._opening()]

    def __repr__(self) -> str:
        return f"<Game {self.rules.name} {list(self.players)} seed={self.seed!r} actions={len(self.history)}>"

    # --- state ---------------------------------------------------------------------
    @property
    def state(self) -> GameState:
        """The current state (an immutable value)."""
        return self._states[-1]

    @property
    def states(self) -> Sequence[GameState]:
        """Every state so far, the opening first: ``history[i]`` was played from ``states[i]`` (a review
        reads them instead of replaying the game). Read-only: the game's own list, not a copy."""
        return self._states

    @property
    def is_over(self) -> bool:
        """True once the game has a result."""
        return self.state.phase is Phase.OVER

    @property
    def current_player(self) -> str:
        """The name of the player whose turn it is."""
        return self.players[self.state.current]

    def seat(self, index: int | None = None) -> Seat:
        """A seat (the current one by default)."""
        return self.state.seats[self.state.current if index is None else index]

    def totals(self) -> list[int]:
        """Every player's total so far, in seat order."""
        return [scoring.total(self.rules, s.card, s.extra_bonuses) for s in self.state.seats]

    def points_now(self) -> dict[str, int]:
        """The points each usable slot would get for the dice on the table."""
        st = self.state
        if st.phase is not Phase.PLAY or st.turn.throws == 0:
            return {}
        card = self.seat().card
        first = st.turn.first_throw
        return {
            self.rules.slots[i]: scoring.slot_points(self.rules, card, i, st.turn.dice, first)
            for i in scoring.usable_slots(self.rules, card, st.turn.dice, first)
        }

    # --- actions -------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        """Every action allowed now."""
        st = self.state
        if st.phase is Phase.OVER:
            return []
        turn = st.turn
        actions: list[Action] = []
        if turn.throws < turn.allowance:
            for keep in self._keeps(turn):
                actions.append(Roll(keep))
                if self.rules.face_down_call:
                    actions.append(Roll(keep, face_down=True))
        if turn.throws >= 1:
            if st.phase is Phase.PLAY:
                card = self.seat().card
                for i in scoring.usable_slots(self.rules, card, turn.dice, turn.first_throw):
                    actions.append(Score(self.rules.slots[i]))
            else:
                actions.append(Stand())
        return actions

    def _keeps(self, turn: Turn) -> list[tuple[int, ...]]:
        if turn.throws == 0:
            return [()]
        n = self.rules.dice
        keeps = [k for size in range(n) for k in itertools.combinations(range(n), size)]
        if self.rules.locked_holds:
            keeps = [k for k in keeps if set(turn.held) <= set(k)]
        return keeps

    def is_legal(self, action: object) -> bool:
        """``action in self.legal_actions()``, without building the list (the web server checks every move)."""
        st = self.state
        if st.phase is Phase.OVER:
            return False
        turn = st.turn
        if isinstance(action, Roll):
            if turn.throws >= turn.allowance or (action.face_down and not self.rules.face_down_call):
                return False
            keep = action.keep
            if turn.throws == 0:
                return keep == ()
            n = self.rules.dice
            try:
                if len(keep) >= n or len(set(keep)) != len(keep) or not all(0 <= k < n for k in keep):
                    return False
            except TypeError:  # positions that are not numbers: never among the legal ones
                return False
            return not self.rules.locked_holds or set(turn.held) <= set(keep)
        if turn.throws < 1:
            return False
        if isinstance(action, Score):
            if st.phase is not Phase.PLAY:
                return False
            usable = scoring.usable_slots(self.rules, self.seat().card, turn.dice, turn.first_throw)
            return any(self.rules.slots[i] == action.slot for i in usable)
        return isinstance(action, Stand) and st.phase is not Phase.PLAY

    def apply(self, action: Action) -> None:
        """Play an action; an illegal one raises :class:`IllegalActionError` and changes nothing."""
        if not self.is_legal(action):
            raise IllegalActionError(self._why_illegal(action))
        st = self.state
        if isinstance(action, Roll):
            new = self._roll(st, action)
        elif isinstance(action, Score):
            new = self._score(st, action)
        else:
            new = self._stand(st)
        self.history.append(action)
        self._states.append(new)

    def undo(self) -> Action:
        """Take back the last action (a throw taken back gives the same dice when thrown again)."""
        if not self.history:
            raise IllegalActionError("nothing to undo")
        self._states.pop()
        del self.throws[self.state.throws_made :]
        return self.history.pop()

    def _why_illegal(self, action: Action) -> str:
        st = self.state
        if not isinstance(action, Roll | Score | Stand):
            return f"not an action: {action!r} (expected Roll, Score or Stand)"
        if st.phase is Phase.OVER:
            return "the game is over"
        turn = st.turn
        if isinstance(action, Roll):
            if turn.throws >= turn.allowance:
                return f"no throws left this turn ({turn.allowance} used)"
            if action.face_down and not self.rules.face_down_call:
                return f"{self.rules.name} has no 'em baixo' call"
            if turn.throws == 0 and action.keep:
                return "the first throw of a turn throws every die"
            if any(not isinstance(p, int) or not 0 <= p < self.rules.dice for p in action.keep):
                return f"dice positions are 0 to {self.rules.dice - 1}, counted from 0"
            if len(set(action.keep)) != len(action.keep):
                return "a die position is listed twice in the dice kept"
            if len(action.keep) == self.rules.dice:
                return "every die is kept: nothing to throw"
            return "held dice cannot be thrown again this turn (locked holds)"
        if isinstance(action, Stand):
            return "stand is only for tie-break rounds" if st.phase is Phase.PLAY else "throw first"
        if st.phase is not Phase.PLAY:
            return "a tie-break round is scored by standing, not in a box"
        if turn.throws == 0:
            return "throw the dice before scoring"
        try:
            slot = self.rules.slot_index(action.slot)
        except RulesError as exc:
            return str(exc)
        if self.seat().card[slot] is not None:
            return f"box {action.slot} is already closed"
        usable = [
            self.rules.slots[i] for i in scoring.usable_slots(self.rules, self.seat().card, turn.dice, turn.first_throw)
        ]
        return f"box {action.slot} cannot be used now (order or joker rule); usable: {', '.join(usable)}"

    # --- transitions ---------------------------------------------------------------
    def _throw(self, index: int, count: int, place: str = "", positions: Sequence[int] = ()) -> Hand:
        """Throw number ``index`` of ``count`` dice; duplicate dice by ``place`` and die ``positions``."""
        if isinstance(self.dice, DuplicateDice):
            faces = self.dice.throw_at(place, positions)
        else:
            faces = tuple(self.dice.throw(index, count))
        if len(faces) != count or any(not isinstance(f, int) or not 1 <= f <= 6 for f in faces):
            raise RecordError(f"dice source gave {faces!r} for throw {index + 1} of {count} dice")
        del self.throws[index:]
        self.throws.append(faces)
        return faces

    def _roll(self, st: GameState, action: Roll) -> GameState:
        turn = st.turn
        count = self.rules.dice - len(action.keep)
        raw = self._throw(st.throws_made, count, duplicate_place(st),
                          [p for p in range(self.rules.dice) if p not in action.keep])
        thrown = iter(7 - f if action.face_down else f for f in raw)
        old = turn.dice or (0,) * self.rules.dice
        dice = tuple(old[p] if p in action.keep else next(thrown) for p in range(self.rules.dice))
        new_turn = Turn(dice, turn.throws + 1, turn.allowance, action.keep)
        new = _replace(st, turn=new_turn, throws_made=st.throws_made + 1)
        card = st.seats[st.current].card
        # S1 "en cualquier tiro se gana la partida", S2 "en el primer rollo de un turno": a tie-break turn too
        if new_turn.first_throw and scoring.instant_win(self.rules, card, dice):
            new = _replace(new, phase=Phase.OVER, winners=(st.current,), reason=EndReason.INSTANT_WIN)
        return new

    def _score(self, st: GameState, action: Score) -> GameState:
        rules, turn = self.rules, st.turn
        seat = st.seats[st.current]
        slot = rules.slot_index(action.slot)
        points = scoring.slot_points(rules, seat.card, slot, turn.dice, turn.first_throw)
        bonus = scoring.extra_bonus_due(rules, seat.card, slot, turn.dice)
        new_seat = Seat(
            seat.name,
            scoring.write(rules, seat.card, slot, points),
            seat.extra_bonuses + int(bonus),
            turn.allowance - turn.throws if rules.carry_over_throws else 0,
            seat.turns_taken + 1,
        )
        seats = (*st.seats[:st.current], new_seat, *st.seats[st.current + 1:])
        return self._advance(_replace(st, seats=seats))

    def _done(self, seat: Seat) -> bool:
        return seat.turns_taken >= self.rules.turns or all(v is not None for v in seat.card)

    def _fresh_turn(self, seat: Seat) -> Turn:
        return Turn(allowance=self.rules.throws + seat.banked)

    def _advance(self, st: GameState) -> GameState:
        at = st.order.index(st.current)
        for step in range(1, len(st.order) + 1):
            nxt = st.order[(at + step) % len(st.order)]
            if not self._done(st.seats[nxt]):
                return _replace(st, current=nxt, turn=self._fresh_turn(st.seats[nxt]))
        return self._finish(st)

    def _finish(self, st: GameState) -> GameState:
        totals = [scoring.total(self.rules, s.card, s.extra_bonuses) for s in st.seats]
        top = max(totals)
        tied = tuple(i for i in st.order if totals[i] == top)
        if len(tied) == 1:
            return _replace(st, phase=Phase.OVER, winners=tied, reason=EndReason.POINTS)
        if self.rules.tie_break is TieBreak.SHARED:
            return _replace(st, phase=Phase.OVER, winners=tied, reason=EndReason.SHARED)
        return self._tiebreak_round(st, tied, 1)

    def _tiebreak_round(self, st: GameState, contenders: tuple[int, ...], number: int) -> GameState:
        if number > MAX_TIEBREAK_ROUNDS:
            return _replace(st, phase=Phase.OVER, winners=contenders, reason=EndReason.SHARED)
        first = contenders[0]
        return _replace(
            st,
            phase=Phase.TIEBREAK,
            contenders=contenders,
            tiebreak_hands=(),
            tiebreak_round=number,
            current=first,
            turn=Turn(allowance=self.rules.throws),
        )

    def _stand(self, st: GameState) -> GameState:
        value = tiebreak_value(self.rules, st.turn.dice, st.turn.first_throw)
        hands = (*st.tiebreak_hands, (st.current, value))
        played = {seat for seat, _ in hands}
        waiting = [s for s in st.contenders if s not in played]
        if waiting:
            return _replace(st, tiebreak_hands=hands, current=waiting[0], turn=Turn(allowance=self.rules.throws))
        best = max(v for _, v in hands)
        still = tuple(s for s in st.contenders if dict(hands)[s] == best)
        if len(still) == 1:
            return _replace(st, tiebreak_hands=hands, phase=Phase.OVER, winners=still, reason=EndReason.TIE_BREAK)
        return self._tiebreak_round(_replace(st, tiebreak_hands=hands), still, st.tiebreak_round + 1)

    # --- opening: who starts -------------------------------------------------------
    def _opening(self) -> GameState:
        rules, n = self.rules, len(self.players)
        procedure = start_procedure(rules, n)
        index = 0
        try:
            seat, count = next(procedure)
            while True:
                faces = self._throw(index, count, f"start:{index}", range(count))
                self.start_throws.append((seat, faces))
                index += 1
                seat, count = procedure.send(faces)
        except StopIteration as done:
            order: tuple[int, ...] = done.value
        card: tuple[int | None, ...] = (None,) * len(rules.slots)
        seats = tuple(Seat(name, card) for name in self.players)
        return GameState(seats, order, order[0], Turn(allowance=rules.throws), throws_made=index)


def duplicate_place(st: GameState) -> str:
    """Where a throw happens, for duplicate dice: the player's turn and the throw of the turn, the same for
    every player, so everyone's turn n throw k shows the same faces. A tie-break round's throws are the
    seat's own (the same dice for the tied players would tie them again, round after round)."""
    if st.phase is Phase.TIEBREAK:
        return f"{st.phase.value}:{st.tiebreak_round}:{st.current}:{st.turn.throws}"
    return f"{st.phase.value}:{st.seats[st.current].turns_taken}:{st.turn.throws}"


StartRequest = tuple[int, int]  # (seat, dice to throw)


def start_procedure(rules: Rules, n: int) -> Generator[StartRequest, Hand, tuple[int, ...]]:
    """Who starts and the order of play (P15, P16), as a dialogue: it yields ``(seat, dice)``
    for each start throw it needs, is sent the faces thrown, and returns the turn order
    (the starter first). The game feeds it seeded dice; the scorekeeper, dice typed in."""
    if n <= 1 or rules.start is Start.SEAT_ORDER:
        starter = 0
    elif rules.order_by_start:
        return (yield from _rank(rules, list(range(n)), [50 * n]))
    else:
        contenders, thrown = list(range(n)), 0
        while len(contenders) > 1 and thrown < 50 * n:
            values: dict[int, int] = {}
            for seat in contenders:
                faces = yield seat, _start_dice(rules)
                thrown += 1
                values[seat] = sum(faces)
            best = (max if rules.start is Start.HIGHEST_DIE else min)(values.values())
            contenders = [s for s in contenders if values[s] == best]
        starter = contenders[0]
    step = 1 if rules.direction is Direction.CLOCKWISE else -1
    return tuple((starter + step * k) % n for k in range(n))


def _start_dice(rules: Rules) -> int:
    return 1 if rules.start is Start.HIGHEST_DIE else rules.dice


def _rank(rules: Rules, group: list[int], budget: list[int]) -> Generator[StartRequest, Hand, tuple[int, ...]]:
    """S1: "el que quede en segundo lugar se sentará a su izquierda y así sucesivamente": every player
    throws, the best starts, the second plays next and so on; players who tie throw again among
    themselves to settle their places (seat order once 50 throws a player are spent)."""
    values: dict[int, int] = {}
    for seat in group:
        faces = yield seat, _start_dice(rules)
        budget[0] -= 1
        values[seat] = sum(faces)
    out: list[int] = []
    for value in sorted(set(values.values()), reverse=rules.start is Start.HIGHEST_DIE):
        tied = [s for s in group if values[s] == value]
        if len(tied) > 1 and budget[0] > 0:
            out += yield from _rank(rules, tied, budget)
        else:
            out += tied
    return tuple(out)


def _replace(st: GameState, **changes: object) -> GameState:
    return dataclasses.replace(st, **changes)  # type: ignore[arg-type]
