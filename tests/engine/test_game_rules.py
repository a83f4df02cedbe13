"""The engine under each variant's rules: one class per rule area and per preset (RULES.md P2-P17)."""

from __future__ import annotations

import pytest

from cubilete import IllegalActionError, Roll, Score, Stand
from cubilete.engine.rules import Direction, TieBreak
from cubilete.engine.state import EndReason, Phase

NOTHING = (1, 2, 3, 4, 6)  # in generala: 1+2+3+4+6 in the upper boxes, no Escalera, Full, Póker or Generala


def five_armada(t, face):
    """Make five of ``face`` on the second throw (not servida)."""
    other = 1 if face != 1 else 2
    t.roll((face, face, face, face, other))
    t.roll((face,), keep=(0, 1, 2, 3))
    assert t.state.turn.dice == (face,) * 5
    assert not t.state.turn.first_throw


class TestGeneralaServida:
    """P10: a Generala servida wins at once, except for a player who scratched the Generala box."""

    def test_servida_generala_wins_at_once(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        t.roll((4, 4, 4, 4, 4))
        assert t.game.is_over
        assert t.state.phase is Phase.OVER
        assert t.state.winners == (0,)
        assert t.state.reason is EndReason.INSTANT_WIN
        assert t.game.legal_actions() == []

    def test_second_player_wins_even_when_behind(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        t.turn((2, 2, 5, 5, 5), "full")
        t.roll((6, 6, 6, 6, 6))
        assert t.state.winners == (1,)
        assert t.game.totals() == [35, 0]

    def test_no_win_for_a_player_who_scratched_generala(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        t.turn(NOTHING, "generala")
        assert t.card(0)["generala"] == 0
        t.turn(NOTHING, "1")
        t.roll((3, 3, 3, 3, 3))
        assert not t.game.is_over
        assert "generala" not in t.game.points_now()
        t.score("poker")
        assert t.card(0)["poker"] == 45  # a five of a kind is a servida Póker
        assert t.state.current == 1
        # the other player, whose Generala is open, still wins with one
        t.roll((2, 2, 2, 2, 2))
        assert t.state.winners == (1,)

    def test_wins_when_generala_already_holds_points(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        five_armada(t, 5)
        t.score("generala")
        t.turn(NOTHING, "1")
        t.roll((1, 1, 1, 1, 1))
        assert t.state.winners == (0,)
        assert t.state.reason is EndReason.INSTANT_WIN

    def test_generala_armada_does_not_win(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        five_armada(t, 4)
        assert not t.game.is_over
        assert t.game.points_now()["generala"] == 50
        t.score("generala")
        assert t.card(0)["generala"] == 50
        assert t.state.current == 1


class TestGeneralaSinGana:
    """The house rule: a Generala servida is scored and the game goes on."""

    def test_servida_scores_and_play_continues(self, make_table):
        t = make_table("generala-sin-gana", players=["Ana", "Beto"])
        t.roll((3, 3, 3, 3, 3))
        assert not t.game.is_over
        assert t.game.points_now()["generala"] == 50
        t.score("generala")
        assert t.card(0)["generala"] == 50
        assert t.state.current == 1
        assert t.state.phase is Phase.PLAY


class TestDobleGenerala:
    """P9: Doble only once Generala holds points; a scratched Generala closes Doble too."""

    def test_doble_needs_generala_with_points(self, make_table):
        t = make_table()
        five_armada(t, 5)
        assert t.game.points_now()["doble"] == 0
        t.score("generala")
        five_armada(t, 2)
        assert t.game.points_now()["doble"] == 100
        t.score("doble")
        assert t.card(0)["doble"] == 100
        assert t.game.totals() == [150]

    def test_doble_before_generala_is_a_scratch(self, make_table):
        t = make_table()
        five_armada(t, 6)
        t.score("doble")
        assert t.card(0)["doble"] == 0
        assert t.card(0)["generala"] is None

    def test_doble_value_120(self, make_table):
        t = make_table("generala-doble-120")
        five_armada(t, 5)
        t.score("generala")
        five_armada(t, 5)
        t.score("doble")
        assert t.game.totals() == [170]

    def test_scratched_generala_closes_doble_and_the_game_ends_a_turn_early(self, make_table):
        t = make_table()
        t.turn(NOTHING, "generala")
        assert t.card(0)["generala"] == 0
        assert t.card(0)["doble"] == 0
        for slot in ("1", "2", "3", "4", "5", "6", "escalera", "full"):
            t.turn(NOTHING, slot)
            assert not t.game.is_over
        t.roll(NOTHING)
        assert [a for a in t.game.legal_actions() if isinstance(a, Score)] == [Score("poker")]
        t.score("poker")
        assert t.game.is_over
        assert t.state.reason is EndReason.POINTS
        assert t.game.seat(0).turns_taken == 10
        assert t.game.totals() == [1 + 2 + 3 + 4 + 6]

    def test_with_two_players_the_other_plays_on_alone(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        ana = ["generala", "1", "2", "3", "4", "5", "6", "escalera", "full", "poker"]
        # Beto scratches Doble first (Generala still open), so his Generala stays open for an 11th turn
        beto = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "doble", "generala"]
        for turn in range(10):
            assert t.state.current == 0
            t.turn(NOTHING, ana[turn])
            assert t.state.current == 1
            t.turn((1, 1, 2, 3, 6) if turn == 0 else NOTHING, beto[turn])
        assert not t.game.is_over
        assert t.state.current == 1  # Ana's sheet is full: Beto plays his 11th turn
        t.turn(NOTHING, beto[10])
        assert t.game.is_over
        assert [s.turns_taken for s in t.state.seats] == [10, 11]
        assert t.game.totals() == [16, 17]
        assert t.state.winners == (1,)
        assert t.state.reason is EndReason.POINTS

    def test_doble_kept_open_when_the_rule_says_so(self, make_table):
        t = make_table()
        rules = t.game.rules.with_box("doble", closed_by_scratch=False)
        t = make_table(rules)
        t.turn(NOTHING, "generala")
        assert t.card(0)["doble"] is None


class TestLockedHolds:
    """P3 (S1): in generala-apartada a held die cannot be thrown again in the turn."""

    def test_a_held_die_cannot_be_thrown_again(self, make_table):
        t = make_table("generala-apartada")
        t.roll((1, 2, 3, 4, 5))
        t.roll((6, 6, 6), keep=(0, 1))
        with pytest.raises(IllegalActionError, match=r"held dice cannot be thrown again this turn \(locked holds\)"):
            t.game.apply(Roll((0,)))
        with pytest.raises(IllegalActionError, match="locked holds"):
            t.game.apply(Roll((2, 3, 4)))
        assert t.roll((5, 5), keep=(0, 1, 2)) == (1, 2, 6, 5, 5)

    def test_legal_rolls_keep_every_held_die(self, make_table):
        t = make_table("generala-apartada")
        t.roll((1, 2, 3, 4, 5))
        t.roll((6, 6, 6), keep=(0, 1))
        rolls = [a.keep for a in t.game.legal_actions() if isinstance(a, Roll)]
        # supersets of {0, 1} leaving at least one die: {0,1} plus 0, 1 or 2 of {2, 3, 4}
        assert sorted(rolls) == sorted(
            [(0, 1), (0, 1, 2), (0, 1, 3), (0, 1, 4), (0, 1, 2, 3), (0, 1, 2, 4), (0, 1, 3, 4)]
        )

    def test_same_holds_allowed_without_the_rule(self, make_table):
        t = make_table("generala")
        t.roll((1, 2, 3, 4, 5))
        t.roll((6, 6, 6), keep=(0, 1))
        assert t.roll((3,) * 4, keep=(0,)) == (1, 3, 3, 3, 3)

    def test_holds_are_free_again_next_turn(self, make_table):
        t = make_table("generala-apartada")
        t.roll((1, 2, 3, 4, 6))
        t.roll((6, 6), keep=(0, 1, 2))
        t.score("1")
        t.roll((1, 2, 3, 4, 6))
        assert t.roll((5, 5, 5, 5), keep=(4,)) == (5, 5, 5, 5, 6)


class TestMaxiYatzyCarryOver:
    """P2 (Maxi Yatzy): unused throws of a turn are kept for later turns."""

    def test_unused_throws_are_banked_and_spent(self, make_table):
        t = make_table("maxi-yatzy")
        assert t.state.turn.allowance == 3
        t.turn((1, 2, 3, 4, 5, 6), "full-straight")
        assert t.card(0)["full-straight"] == 21
        assert t.game.seat(0).banked == 2
        assert t.state.turn.allowance == 5
        t.roll((1, 1, 2, 2, 3, 4))
        for _ in range(4):
            t.roll((6, 6, 6, 6), keep=(0, 1))
        assert not any(isinstance(a, Roll) for a in t.game.legal_actions())
        with pytest.raises(IllegalActionError, match=r"no throws left this turn \(5 used\)"):
            t.game.apply(Roll((0, 1)))
        t.score("tower")
        assert t.card(0)["tower"] == 1 + 1 + 6 * 4
        assert t.game.seat(0).banked == 0
        assert t.state.turn.allowance == 3

    def test_the_bank_grows_across_turns(self, make_table):
        t = make_table("maxi-yatzy")
        t.turn((1, 2, 3, 4, 5, 6), "chance")
        t.turn((1, 2, 3, 4, 5, 6), "full-straight")
        assert t.game.seat(0).banked == 4
        t.roll((1, 1, 2, 2, 3, 3))
        t.roll((5, 5), keep=(0, 1, 2, 3))
        t.score("three-pairs")
        assert t.game.seat(0).banked == 5  # 4 banked + 3 this turn - 2 used

    def test_each_player_has_a_bank(self, make_table):
        t = make_table("maxi-yatzy", players=["Ana", "Beto"])
        t.turn((1, 2, 3, 4, 5, 6), "chance")
        assert t.state.turn.allowance == 3  # Beto's own allowance
        t.roll((1, 2, 3, 4, 5, 6))
        t.roll((6, 6, 6), keep=(0, 1, 2))
        t.score("chance")
        assert [s.banked for s in t.state.seats] == [2, 1]
        assert t.state.turn.allowance == 5

    def test_no_bank_without_the_rule(self, make_table):
        t = make_table("yatzy")
        t.turn((1, 2, 3, 4, 5), "small-straight")
        assert t.game.seat(0).banked == 0
        assert t.state.turn.allowance == 3


class TestBozo:
    """Bozó: +5 de boca, a general de boca wins, and the "em baixo" call."""

    def test_general_de_boca_wins(self, make_table):
        t = make_table("bozo", players=["Ana", "Beto"])
        t.roll((2, 2, 2, 2, 2))
        assert t.state.winners == (0,)
        assert t.state.reason is EndReason.INSTANT_WIN

    @pytest.mark.parametrize(
        ("hand", "slot", "de_boca", "armada"),
        [
            ((1, 1, 2, 2, 2), "full", 15, 10),
            ((2, 3, 4, 5, 6), "sequencia", 25, 20),
            ((3, 3, 1, 3, 3), "quadra", 35, 30),
        ],
    )
    def test_de_boca_adds_five(self, make_table, hand, slot, de_boca, armada):
        t = make_table("bozo")
        t.roll(hand)
        assert t.game.points_now()[slot] == de_boca
        t.roll(hand[4:], keep=(0, 1, 2, 3))
        assert t.game.points_now()[slot] == armada

    def test_em_baixo_counts_the_faces_on_the_table(self, make_table):
        t = make_table("bozo")
        assert Roll(face_down=True) in t.game.legal_actions()
        assert t.roll((1, 2, 3, 4, 6), face_down=True) == (6, 5, 4, 3, 1)
        # held dice keep their faces; only the thrown dice are read from below
        assert t.roll((1, 6, 2), keep=(0, 1), face_down=True) == (6, 5, 6, 1, 5)
        assert t.roll((4, 4, 4), keep=(0, 1)) == (6, 5, 4, 4, 4)
        assert t.game.throws == [(1, 2, 3, 4, 6), (1, 6, 2), (4, 4, 4)]

    def test_general_de_boca_em_baixo_wins(self, make_table):
        t = make_table("bozo", players=["Ana", "Beto"])
        assert t.roll((1, 1, 1, 1, 1), face_down=True) == (6, 6, 6, 6, 6)
        assert t.state.reason is EndReason.INSTANT_WIN

    def test_every_roll_has_an_em_baixo_twin(self, make_table):
        t = make_table("bozo")
        t.roll((1, 2, 3, 4, 6))
        rolls = [a for a in t.game.legal_actions() if isinstance(a, Roll)]
        assert len(rolls) == 62
        assert {a.keep for a in rolls if a.face_down} == {a.keep for a in rolls if not a.face_down}


class TestGeneral4Columns:
    """general-4-columns: column 1 downwards, column 2 upwards, column 3 free, column 4 first throw only."""

    def test_usable_slots_of_each_column(self, make_table):
        t = make_table("general-4-columns")
        assert t.game.rules.turns == 52
        t.roll((2, 2, 3, 3, 3))
        slots = [a.slot for a in t.game.legal_actions() if isinstance(a, Score)]
        boxes = t.game.rules.box_ids
        assert slots == ["1@1", "aleatoria@2", *(f"{b}@3" for b in boxes), *(f"{b}@4" for b in boxes)]
        assert t.game.points_now()["full@4"] == 25

    def test_column_one_goes_down(self, make_table):
        t = make_table("general-4-columns")
        t.turn((1, 1, 2, 3, 6), "1@1")
        assert t.card()["1@1"] == 2
        t.roll((2, 2, 2, 5, 6))
        with pytest.raises(IllegalActionError, match="box 3@1 cannot be used now"):
            t.game.apply(Score("3@1"))
        t.score("2@1")
        assert t.card()["2@1"] == 6

    def test_column_two_goes_up(self, make_table):
        t = make_table("general-4-columns")
        t.turn((1, 1, 2, 3, 6), "aleatoria@2")
        assert t.card()["aleatoria@2"] == 13
        t.roll((2, 2, 2, 5, 6))
        usable = [a.slot for a in t.game.legal_actions() if isinstance(a, Score)]
        assert "general@2" in usable and "seq-baixa@2" not in usable
        with pytest.raises(IllegalActionError, match="cannot be used now"):
            t.game.apply(Score("1@2"))

    def test_column_four_pays_only_the_first_throw(self, make_table):
        t = make_table("general-4-columns")
        t.roll((2, 2, 3, 3, 3))
        t.roll((3,), keep=(0, 1, 2, 3))
        assert t.game.points_now()["full@4"] == 0
        assert t.game.points_now()["full@3"] == 25
        t.score("full@4")
        assert t.card()["full@4"] == 0

    def test_column_three_is_free(self, make_table):
        t = make_table("general-4-columns")
        t.turn((2, 3, 4, 5, 6), "seq-alta@3")
        t.turn((1, 2, 3, 4, 5), "seq-baixa@3")
        assert t.card()["seq-alta@3"] == 30
        assert t.card()["seq-baixa@3"] == 40


class TestGeneralaObligada:
    """Generala obligada (S1): the boxes in the fixed order 1..6, Escalera, Full, Póker, Generala, Doble."""

    def test_only_the_next_box_is_usable(self, make_table):
        t = make_table("generala-obligada")
        t.roll((2, 2, 5, 5, 5))
        assert [a.slot for a in t.game.legal_actions() if isinstance(a, Score)] == ["1"]
        with pytest.raises(IllegalActionError, match="box full cannot be used now"):
            t.game.apply(Score("full"))
        t.score("1")
        assert t.card()["1"] == 0
        t.roll((2, 2, 5, 5, 5))
        assert [a.slot for a in t.game.legal_actions() if isinstance(a, Score)] == ["2"]

    def test_whole_game_in_order(self, make_table):
        t = make_table("generala-obligada")
        order = ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "generala"]
        for slot in order:
            t.roll(NOTHING)
            assert [a.slot for a in t.game.legal_actions() if isinstance(a, Score)] == [slot]
            t.score(slot)
        # the scratched Generala closed the Doble: the sheet is full after 10 turns
        assert t.game.is_over
        assert t.game.totals() == [16]


class TestYatzy13:
    """S3's Yatzy in 13 rounds: the game ends with two boxes left open."""

    def test_ends_after_thirteen_turns(self, make_table):
        t = make_table("yatzy-13")
        slots = t.game.rules.slots[:13]
        for slot in slots:
            assert not t.game.is_over
            t.turn((1, 2, 3, 4, 5), slot)
        assert t.game.is_over
        assert t.state.reason is EndReason.POINTS
        assert [s for s, v in t.card(0).items() if v is None] == ["chance", "yatzy"]
        # 1+2+3+4+5 in the upper boxes, 0 for the pairs and kinds, small straight 15, the rest 0
        assert t.game.totals() == [30]


class TestYahtzeeInGame:
    """P12 through the engine: the extra Yahtzee bonus is counted on the seat and in the total."""

    def test_extra_yahtzee_pays_bonus(self, make_table):
        t = make_table("yahtzee")
        t.turn((3, 3, 3, 3, 3), "yahtzee")
        t.roll((3, 3, 3, 3, 3))
        # forced joker: the matching upper box is the only choice
        assert [a.slot for a in t.game.legal_actions() if isinstance(a, Score)] == ["3"]
        t.score("3")
        assert t.game.seat(0).extra_bonuses == 1
        assert t.game.totals() == [50 + 15 + 100]

    def test_upper_bonus_at_exactly_63(self, make_table):
        t = make_table("yahtzee")
        for face in range(1, 6):
            other = 6 if face != 6 else 1
            t.turn((face, face, face, other, other), str(face))
        assert t.game.totals() == [3 + 6 + 9 + 12 + 15]
        t.turn((6, 6, 6, 1, 2), "6")  # three of each face: 63
        assert t.game.totals() == [63 + 35]


class TestTieBreak:
    """P17: tied leaders play extra rounds (Stand shows the hand); the best hand wins; repeat while tied."""

    def tied(self, make_table, players=("Ana", "Beto"), **changes):
        t = make_table(players=list(players), rounds=1, **changes)
        for _ in players:
            t.turn((1, 2, 2, 3, 6), "1")
        return t

    def test_a_tie_starts_an_extra_round(self, make_table):
        t = self.tied(make_table)
        assert t.state.phase is Phase.TIEBREAK
        assert not t.game.is_over
        assert t.state.contenders == (0, 1)
        assert t.state.tiebreak_round == 1
        assert t.state.current == 0
        assert t.game.legal_actions() == [Roll()]

    def test_best_hand_wins(self, make_table):
        t = self.tied(make_table)
        t.roll((1, 2, 3, 4, 5))  # Escalera servida: 25
        t.stand()
        assert t.state.current == 1
        t.roll((6, 6, 6, 1, 2))
        t.roll((6, 6), keep=(0, 1, 2))  # Generala armada: 50
        t.stand()
        assert t.game.is_over
        assert t.state.winners == (1,)
        assert t.state.reason is EndReason.TIE_BREAK
        assert t.game.totals() == [1, 1]  # the extra round does not change the sheets
        assert t.state.tiebreak_hands == ((0, 25), (1, 50))

    def test_tiebreak_servida_generala_wins_at_once(self, make_table):
        """Issue 9.1. S1: "Generala servida: Cuando se logra la generala de un solo tiro, se llama generala
        servida y en cualquier tiro se gana la partida"; S2: "Un jugador que hace Generala en el primer rollo
        de un turno gana automáticamente el juego": a tie-break turn is a turn too."""
        t = self.tied(make_table, players=("Ana", "Beto"))
        t.roll((1, 2, 3, 4, 5))
        t.stand()
        assert t.state.current == 1
        t.roll((5, 5, 5, 5, 5))
        assert t.game.is_over
        assert t.state.winners == (1,)
        assert t.state.reason is EndReason.INSTANT_WIN
        assert t.game.legal_actions() == []

    def test_tiebreak_servida_generala_after_a_scratch_is_only_a_hand(self, make_table):
        """S1: "(excepto si el jugador ha desechado previamente la generala ...)"; S2: "si un jugador rasca
        Generala y posteriormente tira Generala en el primer rollo de un turno, no puede usarse como una
        victoria automática": in the tie-break it is a hand like any other."""
        t = make_table(players=["Ana", "Beto"], rounds=1)
        for _ in range(2):
            t.turn((1, 2, 2, 3, 6), "generala")  # both scratch Generala: 0 - 0
        assert t.state.phase is Phase.TIEBREAK
        t.roll((5, 5, 5, 5, 5))
        assert t.state.phase is Phase.TIEBREAK
        t.stand()
        t.roll((2, 2, 4, 4, 4))
        t.stand()
        assert t.state.winners == (0,)
        assert t.state.reason is EndReason.TIE_BREAK

    def test_repeat_while_tied(self, make_table):
        t = self.tied(make_table)
        t.roll((2, 2, 3, 3, 3))
        t.stand()  # Full servido 35
        t.roll((4, 4, 1, 1, 1))
        t.stand()  # Full servido 35
        assert t.state.phase is Phase.TIEBREAK
        assert t.state.tiebreak_round == 2
        assert t.state.contenders == (0, 1)
        assert t.state.current == 0
        t.roll((1, 1, 2, 3, 6))
        t.stand()  # best box: Seises 6
        t.roll((1, 1, 2, 3, 5))
        t.stand()  # best box: Cincos 5
        assert t.state.winners == (0,)

    def test_only_the_tied_leaders_play(self, make_table):
        t = make_table(players=["Ana", "Beto", "Caro"], rounds=1)
        t.turn((1, 2, 2, 3, 6), "2")  # 4
        t.turn((1, 2, 3, 3, 6), "1")  # 1
        t.turn((1, 2, 2, 3, 6), "2")  # 4
        assert t.state.contenders == (0, 2)
        t.roll((1, 2, 2, 3, 6))
        t.stand()
        assert t.state.current == 2

    def test_three_tied_then_two(self, make_table):
        t = self.tied(make_table, players=("Ana", "Beto", "Caro"))
        assert t.state.contenders == (0, 1, 2)
        for hand in ((2, 2, 3, 3, 3), (1, 2, 3, 4, 6), (4, 4, 1, 1, 1)):
            t.roll(hand)
            t.stand()
        assert t.state.contenders == (0, 2)
        assert t.state.tiebreak_round == 2
        t.roll((1, 2, 3, 4, 6))
        t.stand()
        assert t.state.current == 2
        t.roll((2, 3, 4, 5, 6))
        t.stand()
        assert t.state.winners == (2,)

    def test_tie_break_follows_the_playing_order(self, make_table):
        t = self.tied(make_table, players=("Ana", "Beto", "Caro"), direction=Direction.COUNTER_CLOCKWISE)
        assert t.state.contenders == (0, 2, 1)
        assert t.state.current == 0
        t.roll((1, 2, 3, 4, 6))
        t.stand()
        assert t.state.current == 2

    def test_shared_variant(self, make_table):
        t = self.tied(make_table, tie_break=TieBreak.SHARED)
        assert t.game.is_over
        assert t.state.winners == (0, 1)
        assert t.state.reason is EndReason.SHARED
        assert t.game.legal_actions() == []

    def test_stand_after_every_throw_in_a_tie_break(self, make_table):
        t = self.tied(make_table)
        t.roll((1, 2, 2, 3, 6))
        actions = t.game.legal_actions()
        assert Stand() in actions
        assert not any(isinstance(a, Score) for a in actions)
