"""The scorekeeper: real dice typed in, every entry checked against the rules."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cubilete import find_rules
from cubilete.engine.actions import Roll, Score
from cubilete.engine.errors import ScorekeeperError
from cubilete.engine.record import from_record, to_record
from cubilete.engine.rules import Direction, Start, TieBreak
from cubilete.engine.state import EndReason
from cubilete.i18n import box_name, set_language
from cubilete.play.scorekeeper import Scorekeeper
from cubilete.store.stats import StatsDB


@pytest.fixture(scope="module", autouse=True)
def _cache_and_language(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Solved tables (for ``suggest``) go to a throw-away folder; messages in English."""
    path = tmp_path_factory.mktemp("scorekeeper-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    set_language("en")
    yield path
    mp.undo()


def keeper(preset: str = "generala", players: tuple[str, ...] = ("Ana",)) -> Scorekeeper:
    """A scorekeeper where the first seat starts and turns pass in seat order (no start throws)."""
    return Scorekeeper(find_rules(preset).replace(start=Start.SEAT_ORDER), list(players))


def refused(k: Scorekeeper, reason: str, *args: object, **kwargs: object) -> None:
    """The entry is refused with that reason and nothing changes."""
    before = (k.current, list(k.cards), list(k.extra_bonuses), list(k.turns_taken), list(k.entries), k.winners)
    with pytest.raises(ScorekeeperError, match=reason):
        k.enter(*args, **kwargs)  # type: ignore[arg-type]
    assert (k.current, k.cards, k.extra_bonuses, k.turns_taken, k.entries, k.winners) == before


class TestRefusals:
    def test_dice_that_do_not_make_the_box(self) -> None:
        k = keeper()
        refused(k, re.escape("the dice 1 2 3 4 6 do not make Full; scratch it"), (1, 2, 3, 4, 6), 1, "full")
        refused(k, "do not make", (1, 2, 3, 4, 5), 2, "6")  # no six: an upper box needs its face
        refused(k, "do not make", (5, 5, 5, 5, 5), 2, "full")  # five of a kind is not a Full
        assert k.enter((1, 2, 3, 4, 6), 1, "full", scratch=True) == 0
        assert k.cards[0][k.rules.slot_index("full")] == 0

    def test_a_scratch_of_a_box_the_dice_make_is_refused(self) -> None:
        k = keeper()
        refused(k, "make Full for 35", (2, 2, 5, 5, 5), 1, "full", scratch=True)

    def test_a_closed_box(self) -> None:
        k = keeper()
        k.enter((2, 2, 5, 5, 5), 1, "full")
        refused(k, re.escape("Full is already closed (35 points)"), (3, 3, 6, 6, 6), 2, "full")
        refused(k, "already closed", (1, 2, 3, 4, 6), 3, "full", scratch=True)

    def test_obligada_order(self) -> None:
        k = keeper("generala-obligada")
        ones = box_name(k.rules, "1")
        refused(k, f"in order, top to bottom: the next one is {ones}", (2, 2, 5, 5, 5), 1, "full")
        assert k.enter((1, 1, 5, 5, 5), 1, "1") == 2
        refused(k, f"the next one is {box_name(k.rules, '2')}", (3, 3, 3, 1, 1), 3, "3")

    def test_forced_joker(self) -> None:
        k = keeper("yahtzee")
        assert k.enter((4, 4, 4, 4, 4), 1, "yahtzee") == 50
        threes = box_name(k.rules, "3")
        refused(k, f"joker must go in: {threes}", (3, 3, 3, 3, 3), 2, "chance")
        assert k.preview((3, 3, 3, 3, 3), 2) == {"3": 15}

    def test_throw_numbers(self) -> None:
        k = keeper()
        refused(k, "Ana has 3 throws this turn; throw 4 is beyond them", (2, 2, 5, 5, 5), 4, "full")
        refused(k, "starts at 1", (2, 2, 5, 5, 5), 0, "full")
        refused(k, "starts at 1", (2, 2, 5, 5, 5), -1, "full")

    def test_dice(self) -> None:
        k = keeper()
        refused(k, "these rules use 5 dice; got 4", (2, 2, 5, 5), 1, "full")
        refused(k, "these rules use 5 dice; got 6", (2, 2, 5, 5, 5, 5), 1, "full")
        refused(k, "7 is not a die face", (2, 2, 5, 5, 7), 1, "full")
        refused(k, "0 is not a die face", (0, 2, 5, 5, 5), 1, "full")
        with pytest.raises(ScorekeeperError, match="7 is not a die face"):
            k.preview((7, 1, 1, 1, 1), 1)

    def test_unknown_box(self) -> None:
        refused(keeper(), "no box yahtzee in generala", (2, 2, 5, 5, 5), 1, "yahtzee")

    def test_players(self) -> None:
        with pytest.raises(ScorekeeperError, match="different"):
            keeper(players=("Ana", "Ana"))
        with pytest.raises(ScorekeeperError, match="1 to 8 players, not 9"):
            keeper(players=tuple(f"P{i}" for i in range(9)))
        with pytest.raises(ScorekeeperError, match="name"):
            keeper(players=("Ana", " "))


class TestServida:
    @pytest.mark.parametrize(("throw", "points"), [(1, 35), (2, 30), (3, 30)])
    def test_full_servido_only_on_the_first_throw(self, throw: int, points: int) -> None:
        assert keeper().enter((5, 2, 5, 2, 5), throw, "full") == points

    @pytest.mark.parametrize(("throw", "points"), [(1, 25), (2, 20)])
    def test_escalera(self, throw: int, points: int) -> None:
        assert keeper().enter((3, 4, 5, 6, 1), throw, "escalera") == points

    def test_preview_shows_the_servida_values(self) -> None:
        k = keeper()
        first, later = k.preview((4, 4, 4, 4, 2), 1), k.preview((4, 4, 4, 4, 2), 2)
        assert first["poker"] == 45 and later["poker"] == 40
        assert first["4"] == later["4"] == 16 and first["full"] == 0
        assert "doble" in first and first["doble"] == 0  # open: a scratch until Generala holds points
        assert len(first) == 11

    def test_generala_servida_wins_at_once(self) -> None:
        k = keeper(players=("Ana", "Beto"))
        k.enter((1, 2, 3, 4, 6), 2, "1", scratch=False)
        assert k.wins_at_once((6, 6, 6, 6, 6), 1)
        assert k.enter((6, 6, 6, 6, 6), 1, "generala") == 0  # the game ends before the hand is written
        assert k.is_over and k.instant_win and k.winners == (1,)
        assert k.reason is EndReason.INSTANT_WIN
        with pytest.raises(ScorekeeperError, match="the game is over"):
            k.enter((1, 1, 1, 2, 3), 1, "1")
        k.undo()
        assert not k.is_over and k.current_player == "Beto"

    def test_a_scratched_generala_does_not_win(self) -> None:
        k = keeper()
        k.enter((1, 2, 3, 4, 6), 3, "generala", scratch=True)
        assert k.enter((6, 6, 6, 6, 6), 1, "6") == 30
        assert not k.is_over

    def test_armada_generala_does_not_win(self) -> None:
        k = keeper(players=("Ana", "Beto"))
        assert k.enter((6, 6, 6, 6, 6), 2, "generala") == 50
        assert not k.is_over and k.current_player == "Beto"


class TestDoble:
    def test_doble_needs_generala_with_points(self) -> None:
        k = keeper()
        refused(k, "Doble Generala scores only once Generala holds points", (4, 4, 4, 4, 4), 2, "doble")
        k.enter((4, 4, 4, 4, 4), 2, "generala")
        assert k.enter((3, 3, 3, 3, 3), 3, "doble") == 100

    def test_a_scratched_generala_closes_doble(self) -> None:
        k = keeper()
        k.enter((1, 2, 3, 4, 6), 3, "generala", scratch=True)
        assert k.cards[0][k.rules.slot_index("doble")] == 0
        refused(k, "already closed", (3, 3, 3, 3, 3), 3, "doble")


class TestFirstThrowColumn:
    def test_column_four_takes_first_throw_hands_only(self) -> None:
        k = keeper("general-4-columns")
        refused(k, "takes only hands made with the first throw", (2, 2, 5, 5, 5), 2, "full@4")
        assert k.enter((2, 2, 5, 5, 5), 1, "full@4") == 25


class TestUndo:
    def test_undo_restores_the_sheet_and_the_turn(self) -> None:
        k = keeper(players=("Ana", "Beto"))
        k.enter((2, 2, 5, 5, 5), 1, "full")
        k.enter((1, 1, 1, 1, 1), 2, "generala")
        assert k.totals() == [35, 50] and k.current_player == "Ana"
        k.undo()
        assert k.totals() == [35, 0] and k.current_player == "Beto" and len(k.entries) == 1
        k.undo()
        assert k.totals() == [0, 0] and k.current_player == "Ana" and k.entries == []
        with pytest.raises(ScorekeeperError, match="nothing to undo"):
            k.undo()

    def test_undo_gives_back_the_entry_taken_back(self) -> None:
        """The screen puts the dice and throw of an undone entry back in its fields (issue 25.12)."""
        k = keeper(players=("Ana", "Beto"))
        k.enter((6, 6, 6, 1, 2), 3, "1")
        entry = k.undo()
        assert entry is not None and (entry.seat, entry.slot, entry.dice, entry.throw) == (0, "1", (6, 6, 6, 1, 2), 3)

    def test_undo_reopens_a_finished_game(self) -> None:
        k = keeper("generala-sin-doble")
        for face in range(1, 7):
            k.enter((face, face, face, 1, 2) if face > 2 else (face, 3, 4, 5, 6), 2, str(face))
        k.enter((1, 2, 3, 4, 5), 2, "escalera")
        k.enter((2, 2, 3, 3, 3), 2, "full")
        k.enter((2, 3, 3, 3, 3), 2, "poker")
        k.enter((1, 1, 1, 1, 1), 2, "generala")
        assert k.is_over and k.winners == (0,)
        k.undo()
        assert not k.is_over and k.round == 10


class TestSuggest:
    def test_hold_advice_for_typed_dice(self) -> None:
        k = keeper()
        for slot, hand in (("1", (1, 1, 2, 3, 4)), ("2", (2, 2, 2, 3, 4)), ("3", (3, 3, 1, 2, 4)),
                           ("4", (4, 4, 4, 4, 1)), ("5", (5, 5, 1, 2, 3)), ("6", (6, 6, 6, 1, 2)),
                           ("escalera", (1, 2, 3, 4, 5)), ("poker", (3, 3, 3, 3, 2))):  # fmt: skip
            k.enter(hand, 1, slot)
        k.enter((1, 2, 3, 4, 6), 1, "generala", scratch=True)  # only Full is left open
        best = k.suggest((5, 2, 5, 1, 2), 1, top=1)[0]
        # 2 2 5 5 kept: a 2 or a 5 in two one-die throws (1 - (4/6)^2) makes the Full, 30 armado
        assert best.kind == "keep" and best.keep_faces == (2, 2, 5, 5)
        assert best.keep_positions == (0, 1, 2, 4) and best.action == Roll((0, 1, 2, 4))
        assert best.expected == pytest.approx(128 + 30 * 20 / 36)
        served = k.suggest((5, 2, 5, 2, 5), 1)
        assert served[0].action == Score("full") and served[0].points == 35

    def test_rules_too_large_suggest_nothing(self) -> None:
        assert keeper("general-4-columns").suggest((2, 2, 5, 5, 5), 1) == []


class TestWholeGame:
    """A whole game of Yahtzee for two, every number worked out from RULES.md 3.4."""

    ANA = (  # (dice, throw, slot, points)
        ((5, 5, 5, 5, 5), 1, "yahtzee", 50),
        ((1, 1, 1, 2, 3), 3, "1", 3),
        ((2, 2, 2, 4, 5), 2, "2", 6),
        ((3, 3, 3, 3, 1), 3, "3", 12),
        ((4, 4, 4, 1, 2), 1, "4", 12),
        ((6, 6, 6, 6, 6), 2, "6", 30),  # extra Yahtzee: the joker must go in Sixes (+100)
        ((5, 5, 5, 2, 2), 3, "5", 15),  # upper 3+6+12+12+30+15 = 78 >= 63: bonus 35
        ((2, 2, 3, 3, 3), 1, "full-house", 25),
        ((1, 2, 3, 4, 6), 2, "small-straight", 30),
        ((2, 3, 4, 5, 6), 3, "large-straight", 40),
        ((4, 4, 4, 6, 1), 1, "three-kind", 19),
        ((3, 3, 3, 3, 3), 3, "four-kind", 15),  # extra Yahtzee, Threes used: any lower box (+100)
        ((6, 5, 4, 1, 1), 2, "chance", 17),
    )
    BETO = (
        ((1, 2, 3, 4, 6), 3, "yahtzee", 0),  # scratched
        ((1, 1, 2, 3, 4), 1, "1", 2),
        ((2, 2, 3, 4, 6), 2, "2", 4),
        ((3, 1, 2, 4, 6), 3, "3", 3),
        ((4, 4, 1, 2, 3), 1, "4", 8),
        ((5, 1, 2, 3, 4), 2, "5", 5),
        ((6, 6, 1, 2, 3), 3, "6", 12),  # upper 34: no bonus
        ((1, 1, 2, 2, 3), 3, "three-kind", 0),
        ((1, 1, 2, 2, 3), 3, "four-kind", 0),
        ((1, 1, 2, 2, 3), 3, "full-house", 0),
        ((1, 1, 2, 5, 6), 3, "small-straight", 0),
        ((5, 5, 5, 5, 5), 1, "large-straight", 40),  # joker (Fives used) at full value; no bonus (Yahtzee is 0)
        ((6, 6, 6, 5, 4), 2, "chance", 27),
    )

    def test_yahtzee_for_two(self) -> None:
        k = keeper("yahtzee", ("Ana", "Beto"))
        for turn, (ana, beto) in enumerate(zip(self.ANA, self.BETO, strict=True), 1):
            for seat, (dice, throw, slot, points) in enumerate((ana, beto)):
                assert not k.is_over and k.current == seat and k.round == turn
                if slot == "6" and seat == 0:
                    refused(k, "joker must go in", dice, throw, "chance")
                assert k.enter(dice, throw, slot, scratch=points == 0) == points
        assert k.is_over and not k.instant_win
        assert k.extra_bonuses == [2, 0]
        # Ana: boxes 274 + upper bonus 35 + two extra Yahtzees 200; Beto: boxes 101
        assert k.totals() == [509, 101]
        assert k.winners == (0,)
        with pytest.raises(ScorekeeperError, match="over"):
            k.preview((1, 1, 1, 1, 1), 1)

    def test_a_tie_is_shared_when_the_rules_say_so(self) -> None:
        generala = find_rules("generala")
        tiny = generala.replace(name="tiny", boxes=generala.boxes[:1], start=Start.SEAT_ORDER)
        k = Scorekeeper(tiny.replace(tie_break=TieBreak.SHARED), ["Ana", "Beto"])
        k.enter((1, 1, 2, 3, 4), 1, "1")
        k.enter((1, 1, 5, 3, 4), 2, "1")
        assert k.is_over and k.winners == (0, 1) and k.totals() == [2, 2]
        assert k.reason is EndReason.SHARED


def test_carried_over_throws() -> None:
    k = keeper("maxi-yatzy")
    k.enter((1, 1, 2, 3, 4, 5), 1, "1")  # two throws unused: the next turn has 5
    assert k.allowance == 5
    k.enter((2, 2, 2, 3, 4, 5), 5, "2")
    assert k.allowance == 3
    refused(k, "has 3 throws this turn; throw 4", (3, 3, 3, 1, 1, 1), 4, "3")


class TestStartThrow:
    """Issue 9.2: who starts and the direction of play come from the rules, not from seat 0."""

    def test_highest_die_starts_ties_throw_again(self) -> None:
        """S1: "cada jugador ... tira un dado, y el que obtenga el número más alto será el que comience"."""
        k = Scorekeeper(find_rules("generala"), ["Ana", "Beto", "Caro"])
        assert k.starting and k.start_request == (0, 1)
        with pytest.raises(ScorekeeperError, match="first the start throw: Ana throws for who starts"):
            k.enter((2, 2, 5, 5, 5), 1, "full")
        wrong_count = re.escape("Ana throws 1 die to see who starts: type 1 number (you typed 2)")
        with pytest.raises(ScorekeeperError, match=wrong_count):
            k.start_throw([6, 6])
        with pytest.raises(ScorekeeperError, match="7 is not a die face"):
            k.start_throw([7])
        for face in (6, 2, 6):  # Ana and Caro tie on 6
            k.start_throw([face])
        assert k.start_request == (0, 1)
        k.start_throw([3])
        k.start_throw([5])  # Caro wins the second throw
        assert not k.starting and k.current_player == "Caro"
        assert k.order == (2, 0, 1)  # seat order after the starter (P16 default)
        with pytest.raises(ScorekeeperError, match="the start throws are done"):
            k.start_throw([1])

    def test_counter_clockwise(self) -> None:
        """S1: "El orden del juego sigue la dirección de la mano derecha (sentido contrario al de las agujas
        del reloj)"."""
        rules = find_rules("generala").replace(direction=Direction.COUNTER_CLOCKWISE)
        k = Scorekeeper(rules, ["Ana", "Beto", "Caro"])
        for face in (1, 4, 2):
            k.start_throw([face])
        assert k.order == (1, 0, 2)
        k.enter((2, 2, 5, 5, 5), 2, "full")
        assert k.current_player == "Ana"

    def test_lowest_sum_of_all_the_dice(self) -> None:
        """S1: "otro modo consiste en que cada jugador tire los cinco dados, y el que obtenga la suma más baja
        es el que iniciará el juego"."""
        k = Scorekeeper(find_rules("generala").replace(start=Start.LOWEST_SUM), ["Ana", "Beto"])
        assert k.start_request == (0, 5)
        k.start_throw([6, 6, 6, 6, 6])
        k.start_throw([1, 1, 2, 2, 3])
        assert k.current_player == "Beto"

    def test_turns_by_start_rank(self) -> None:
        """S1: "el que quede en segundo lugar se sentará a su izquierda y así sucesivamente"."""
        k = Scorekeeper(find_rules("generala").replace(order_by_start=True), ["Ana", "Beto", "Caro"])
        for face in (3, 1, 6):
            k.start_throw([face])
        assert k.order == (2, 0, 1)

    def test_undo_takes_back_a_start_throw(self) -> None:
        k = Scorekeeper(find_rules("generala"), ["Ana", "Beto"])
        k.start_throw([2])
        k.start_throw([5])
        assert not k.starting
        k.undo()
        assert k.starting and k.start_request == (1, 1)
        k.start_throw([1])
        assert k.current_player == "Ana"


class TestTieBreakRound:
    """Issue 9.2, P17. S1: "si los jugadores están empatados a puntos al final de la partida, se disputará
    una última ronda de desempate, de tal modo que el jugador que consiga más puntos en esta última mano
    será el ganador de la partida"."""

    def tied(self, players: tuple[str, ...] = ("Ana", "Beto")) -> Scorekeeper:
        generala = find_rules("generala")
        k = Scorekeeper(generala.replace(start=Start.SEAT_ORDER, rounds=1), list(players))
        for _ in players:
            k.enter((1, 1, 2, 3, 4), 2, "1")
        return k

    def test_the_tied_play_one_more_hand_and_the_best_wins(self) -> None:
        k = self.tied()
        assert k.tiebreak and not k.is_over and k.tiebreak_round == 1
        with pytest.raises(ScorekeeperError, match="tie-break round: Ana shows a hand, written in no box"):
            k.enter((2, 2, 5, 5, 5), 1, "full")
        assert k.hand((2, 2, 5, 5, 5), 1) == 35  # Full servido
        assert k.hand((3, 3, 3, 3, 1), 2) == 40  # Póker armado
        assert k.is_over and k.winners == (1,) and k.reason is EndReason.TIE_BREAK
        assert k.totals() == [2, 2]

    def test_repeat_while_tied(self) -> None:
        k = self.tied()
        k.hand((1, 2, 3, 4, 5), 2)  # Escalera 20
        k.hand((6, 5, 4, 3, 2), 3)  # Escalera 20
        assert k.tiebreak and k.tiebreak_round == 2
        k.hand((1, 1, 2, 3, 6), 3)  # best box: Seises 6
        k.hand((1, 1, 2, 3, 5), 3)  # Cincos 5
        assert k.winners == (0,)

    def test_a_servida_generala_wins_the_tie_break_at_once(self) -> None:
        """Issue 9.1. S2: "Un jugador que hace Generala en el primer rollo de un turno gana automáticamente
        el juego"."""
        k = self.tied()
        k.hand((2, 3, 4, 5, 6), 1)
        k.hand((4, 4, 4, 4, 4), 1)
        assert k.is_over and k.instant_win and k.winners == (1,)

    def test_an_armada_generala_is_a_hand(self) -> None:
        k = self.tied()
        assert k.hand((4, 4, 4, 4, 4), 3) == 50
        assert k.tiebreak

    def test_undo_takes_back_a_hand(self) -> None:
        k = self.tied()
        k.hand((2, 3, 4, 5, 6), 1)
        k.undo()
        assert k.tiebreak and k.current_player == "Ana" and k.tiebreak_hands == ()

    def test_hands_only_in_the_tie_break(self) -> None:
        with pytest.raises(ScorekeeperError, match="only for the tie-break round"):
            keeper().hand((1, 2, 3, 4, 5), 1)


def test_a_scorekeeper_game_goes_into_the_statistics(tmp_path: Path) -> None:
    """Issue 9.2: the typed game is a normal record: it replays and is counted in the statistics."""
    k = Scorekeeper(find_rules("generala").replace(rounds=2), ["Ana", "Beto"])
    k.start_throw([2])
    k.start_throw([5])  # Beto starts
    for dice, throw, slot in (((2, 2, 5, 5, 5), 1, "full"), ((1, 1, 1, 2, 3), 3, "1"),
                              ((6, 6, 6, 6, 1), 2, "poker"), ((4, 4, 4, 4, 4), 2, "generala")):  # fmt: skip
        k.enter(dice, throw, slot)
    assert k.is_over and k.totals() == [53, 75] and k.winners == (1,)
    assert k.game is not None
    again = from_record(to_record(k.game))
    assert again.state == k.game.state
    with StatsDB(tmp_path / "stats.sqlite3") as db:
        db.record_game(k.game, humans=k.players)
        (row,) = db.games()
    assert row.players == ("Ana", "Beto") and row.totals == (53, 75) and row.winners == ("Beto",)
    assert row.humans == ("Ana", "Beto")
