"""The game engine's mechanics: throws and holds, who starts, illegal actions, undo, players.

Variant rules (servida wins, Doble, locked holds, columns, tie-breaks...) are in test_game_rules.py.
"""

from __future__ import annotations

import pytest

from cubilete import Game, IllegalActionError, Roll, RulesError, Score, ScriptedDice, Stand, find_rules
from cubilete.engine.rules import Direction, Start
from cubilete.engine.state import EndReason, Phase


class TestThrowsAndHolds:
    def test_first_throw_throws_every_die(self, make_table):
        t = make_table()
        assert t.game.legal_actions() == [Roll()]
        assert t.roll((1, 2, 3, 4, 5)) == (1, 2, 3, 4, 5)
        assert t.state.turn.throws == 1

    def test_kept_positions_stay_put(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        assert t.roll((6, 6, 6), keep=(0, 2)) == (1, 6, 3, 6, 6)
        assert t.roll((2, 2), keep=(0, 1, 2)) == (1, 6, 3, 2, 2)

    def test_held_dice_may_be_thrown_again_by_default(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        t.roll((6, 6, 6), keep=(0, 1))
        assert t.roll((5, 5, 5, 5), keep=(4,)) == (5, 5, 5, 5, 6)

    def test_three_throws_then_only_scores(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        t.roll((6, 6, 6), keep=(0, 1))
        t.roll((1, 1, 1), keep=(0, 1))
        actions = t.game.legal_actions()
        assert actions and all(isinstance(a, Score) for a in actions)
        with pytest.raises(IllegalActionError, match=r"no throws left this turn \(3 used\)"):
            t.game.apply(Roll((0, 1)))

    def test_throws_per_turn_is_a_parameter(self, make_table):
        t = make_table(throws=2)
        t.roll((1, 2, 3, 4, 5))
        t.roll((6, 6, 6), keep=(0, 1))
        assert not any(isinstance(a, Roll) for a in t.game.legal_actions())
        with pytest.raises(IllegalActionError, match=r"\(2 used\)"):
            t.game.apply(Roll())

    def test_legal_actions_after_the_first_throw(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 6))
        actions = t.game.legal_actions()
        rolls = [a for a in actions if isinstance(a, Roll)]
        scores = [a.slot for a in actions if isinstance(a, Score)]
        # every keep of 0 to 4 of the 5 dice: 1 + 5 + 10 + 10 + 5
        assert len(rolls) == 31
        assert len(set(rolls)) == 31
        assert scores == ["1", "2", "3", "4", "5", "6", "escalera", "full", "poker", "generala", "doble"]

    def test_first_throw_keeps_nothing(self, make_table):
        t = make_table()
        with pytest.raises(IllegalActionError, match="the first throw of a turn throws every die"):
            t.game.apply(Roll((0,)))

    def test_keeping_every_die_is_refused(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        with pytest.raises(IllegalActionError, match="every die is kept: nothing to throw"):
            t.game.apply(Roll((0, 1, 2, 3, 4)))

    def test_position_outside_the_dice_is_refused(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        with pytest.raises(IllegalActionError, match="dice positions are 0 to 4, counted from 0"):
            t.game.apply(Roll((5,)))
        with pytest.raises(IllegalActionError, match="dice positions are 0 to 4, counted from 0"):
            t.game.apply(Roll((-1,)))

    def test_keep_positions_in_any_order(self, make_table):
        assert Roll((2, 0)) == Roll((0, 2))
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        assert t.roll((6, 6, 6), keep=(2, 0)) == (1, 6, 3, 6, 6)

    def test_a_position_listed_twice_is_refused_with_its_own_message(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 5))
        with pytest.raises(IllegalActionError, match="listed twice") as err:
            t.game.apply(Roll((0, 0)))
        assert "locked" not in str(err.value)

    def test_scoring_passes_the_turn(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        t.turn((1, 1, 2, 3, 6), "1")
        assert t.state.current == 1
        assert t.game.current_player == "Beto"
        assert t.state.turn.dice == ()
        assert t.state.turn.throws == 0
        assert t.card(0)["1"] == 2
        assert t.game.totals() == [2, 0]

    def test_points_now(self, make_table):
        t = make_table()
        assert t.game.points_now() == {}
        t.roll((2, 5, 2, 5, 5))
        now = t.game.points_now()
        assert now["2"] == 4
        assert now["5"] == 15
        assert now["1"] == 0
        assert now["full"] == 35  # servido
        assert now["escalera"] == 0
        assert now["generala"] == 0
        assert now["doble"] == 0


class TestServida:
    """P4/P5: servida values are paid for the turn's first throw only."""

    @pytest.mark.parametrize(
        ("first", "slot", "servida", "armada"),
        [
            ((2, 2, 5, 5, 5), "full", 35, 30),
            ((3, 4, 5, 6, 1), "escalera", 25, 20),
            ((6, 6, 6, 1, 6), "poker", 45, 40),
        ],
    )
    def test_servida_then_the_same_hand_armada(self, make_table, first, slot, servida, armada):
        t = make_table()
        t.roll(first)
        assert t.game.points_now()[slot] == servida
        # throw the last die again and get the same face: the same hand, made after the first throw
        t.roll(first[4:], keep=(0, 1, 2, 3))
        assert t.state.turn.dice == first
        assert t.game.points_now()[slot] == armada
        t.score(slot)
        assert t.card(0)[slot] == armada

    def test_servida_scored(self, make_table):
        t = make_table()
        t.turn((2, 2, 5, 5, 5), "full")
        assert t.card(0)["full"] == 35

    def test_every_turn_has_its_own_first_throw(self, make_table):
        t = make_table()
        t.turn((1, 1, 2, 3, 6), "1")
        t.roll((3, 3, 4, 4, 4))
        assert t.state.turn.first_throw
        t.score("full")
        assert t.card(0)["full"] == 35


class TestStart:
    """P15/P16: who starts and which way the turn passes."""

    def test_highest_single_die_starts(self, make_table):
        t = make_table(players=["Ana", "Beto", "Caro"], start_throws=[(3,), (5,), (2,)])
        assert t.game.start_throws == [(0, (3,)), (1, (5,)), (2, (2,))]
        assert t.state.current == 1
        assert t.state.order == (1, 2, 0)
        assert t.state.throws_made == 3
        assert t.roll((1, 2, 3, 4, 6)) == (1, 2, 3, 4, 6)  # the game's fourth throw
        assert t.game.throws == [(3,), (5,), (2,), (1, 2, 3, 4, 6)]

    def test_ties_throw_again_among_the_tied_only(self, make_table):
        t = make_table(players=["Ana", "Beto", "Caro"], start_throws=[(5,), (2,), (5,), (3,), (4,)])
        assert t.game.start_throws == [(0, (5,)), (1, (2,)), (2, (5,)), (0, (3,)), (2, (4,))]
        assert t.state.current == 2
        assert t.state.order == (2, 0, 1)
        assert t.state.throws_made == 5

    def test_repeated_ties(self, make_table):
        t = make_table(players=["Ana", "Beto"], start_throws=[(6,), (6,), (1,), (1,), (2,), (4,)])
        assert t.state.current == 1
        assert len(t.game.start_throws) == 6

    def test_lowest_sum_of_all_the_dice_starts(self, make_table):
        t = make_table(
            players=["Ana", "Beto", "Caro"],
            start_throws=[(1, 1, 1, 1, 2), (6, 6, 6, 6, 6), (1, 1, 1, 1, 1)],
            start=Start.LOWEST_SUM,
        )
        assert t.state.current == 2
        assert t.state.order == (2, 0, 1)

    def test_lowest_sum_ties_throw_again(self, make_table):
        t = make_table(
            players=["Ana", "Beto"],
            start_throws=[(1, 2, 3, 4, 5), (5, 4, 3, 2, 1), (6, 6, 6, 6, 6), (1, 1, 1, 1, 1)],
            start=Start.LOWEST_SUM,
        )
        assert t.state.current == 1

    def test_counter_clockwise(self, make_table):
        t = make_table(
            players=["Ana", "Beto", "Caro", "Dani"],
            start_throws=[(1,), (6,), (2,), (3,)],
            direction=Direction.COUNTER_CLOCKWISE,
        )
        assert t.state.order == (1, 0, 3, 2)
        t.turn((1, 1, 2, 3, 6), "1")
        assert t.state.current == 0
        t.turn((1, 1, 2, 3, 6), "1")
        assert t.state.current == 3

    def test_seat_order_throws_nothing(self, make_table):
        t = make_table(players=["Ana", "Beto", "Caro"])
        assert t.game.start_throws == []
        assert t.state.current == 0
        assert t.state.order == (0, 1, 2)
        t.turn((1, 1, 2, 3, 6), "1")
        assert t.state.current == 1

    def test_one_player_throws_no_start_die(self):
        g = Game(find_rules("generala"), ["Ana"], dice=ScriptedDice([(1, 2, 3, 4, 6)]))
        assert g.start_throws == []
        g.apply(Roll())
        assert g.state.turn.dice == (1, 2, 3, 4, 6)

    def test_seeded_start_is_reproducible(self):
        a = Game(find_rules("generala"), ["Ana", "Beto", "Caro"], seed=11)
        b = Game(find_rules("generala"), ["Ana", "Beto", "Caro"], seed=11)
        assert a.start_throws == b.start_throws
        assert a.state == b.state
        assert a.throws == [faces for _, faces in a.start_throws]


class TestIllegalActions:
    """An illegal action raises IllegalActionError with a precise message and changes nothing."""

    @staticmethod
    def refused(t, action, message):
        game = t.game
        before = (game.state, list(game.throws), list(game.history))
        with pytest.raises(IllegalActionError, match=message):
            game.apply(action)
        assert (game.state, game.throws, game.history) == before

    def test_score_before_throwing(self, make_table):
        self.refused(make_table(), Score("full"), "throw the dice before scoring")

    def test_unknown_box(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 6))
        self.refused(t, Score("chance"), "no box 'chance' in generala")

    def test_closed_box(self, make_table):
        t = make_table()
        t.turn((2, 2, 5, 5, 5), "full")
        t.roll((3, 3, 6, 6, 6))
        self.refused(t, Score("full"), "box full is already closed")

    def test_stand_outside_a_tie_break(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 6))
        self.refused(t, Stand(), "stand is only for tie-break rounds")

    def test_em_baixo_without_the_rule(self, make_table):
        t = make_table()
        self.refused(t, Roll(face_down=True), "generala has no 'em baixo' call")

    def test_rolls_refused_mid_turn(self, make_table):
        t = make_table()
        t.roll((1, 2, 3, 4, 6))
        self.refused(t, Roll((0, 1, 2, 3, 4)), "every die is kept")
        self.refused(t, Roll((7,)), "dice positions are 0 to 4, counted from 0")
        t.roll((6,), keep=(0, 1, 2, 3))
        t.roll((6,), keep=(0, 1, 2, 3))
        self.refused(t, Roll(), "no throws left")

    def test_anything_after_the_game_is_over(self, make_table):
        t = make_table()
        t.roll((4, 4, 4, 4, 4))  # Generala servida
        assert t.game.is_over
        for action in (Roll(), Score("1"), Stand()):
            self.refused(t, action, "the game is over")

    @pytest.mark.parametrize("thing", ["roll", None, {"score": "full"}, ("roll",)])
    def test_not_an_action(self, make_table, thing):
        t = make_table()
        self.refused(t, thing, "not an action")

    def test_score_in_a_tie_break(self, make_table):
        t = make_table(players=["Ana", "Beto"], rounds=1)
        t.turn((1, 2, 2, 3, 6), "1")
        t.turn((1, 3, 3, 4, 6), "1")
        assert t.state.phase is Phase.TIEBREAK
        self.refused(t, Stand(), "throw first")
        t.roll((1, 2, 3, 4, 6))
        self.refused(t, Score("2"), "a tie-break round is scored by standing")


class TestUndo:
    def test_undo_restores_the_exact_previous_states(self):
        g = Game(find_rules("generala"), ["Ana", "Beto"], seed="undo")
        states = [g.state]
        throws = [list(g.throws)]
        for _ in range(12):
            # a deterministic walk: throw, throw again keeping the first die, score the first usable box
            made = g.state.turn.throws
            if made == 0:
                action: Roll | Score = Roll()
            elif made == 1:
                action = Roll((0,))
            else:
                action = next(a for a in g.legal_actions() if isinstance(a, Score))
            g.apply(action)
            states.append(g.state)
            throws.append(list(g.throws))
        for k in range(12, 0, -1):
            g.undo()
            assert g.state == states[k - 1]
            assert g.throws == throws[k - 1]
        assert g.history == []

    def test_a_throw_undone_and_thrown_again_shows_the_same_faces(self):
        g = Game(find_rules("generala"), ["Ana", "Beto"], seed=2024)
        g.apply(Roll())
        first = g.state
        assert g.undo() == Roll()
        g.apply(Roll())
        assert g.state == first
        g.apply(Roll((0, 1)))
        second = g.state
        g.undo()
        g.apply(Roll((0, 1)))
        assert g.state == second

    def test_undo_a_score(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        t.roll((2, 2, 5, 5, 5))
        before = t.state
        t.score("full")
        assert t.game.undo() == Score("full")
        assert t.state == before
        assert t.card(0)["full"] is None
        assert t.game.current_player == "Ana"

    def test_undo_an_instant_win(self, make_table):
        t = make_table(players=["Ana", "Beto"])
        before = t.state
        t.roll((4, 4, 4, 4, 4))
        assert t.game.is_over
        t.game.undo()
        assert not t.game.is_over
        assert t.state == before
        assert t.game.throws == []

    def test_nothing_to_undo(self):
        g = Game(find_rules("generala"), ["Ana", "Beto"], seed=1)
        start = g.state
        with pytest.raises(IllegalActionError, match="nothing to undo"):
            g.undo()
        assert g.state == start


class TestPlayers:
    @pytest.mark.parametrize("count", range(1, 9))
    def test_one_to_eight_players(self, count):
        names = [f"P{i}" for i in range(count)]
        g = Game(find_rules("generala"), names, seed=count)
        assert g.players == tuple(names)
        assert len(g.state.seats) == count
        assert sorted(g.state.order) == list(range(count))

    @pytest.mark.parametrize("count", [0, 9])
    def test_zero_or_nine_refused(self, count):
        with pytest.raises(RulesError, match=f"generala is for 1 to 8 players, not {count}"):
            Game(find_rules("generala"), [f"P{i}" for i in range(count)], seed=1)

    @pytest.mark.parametrize("names", [["Ana", "Ana"], ["Ana", " Ana "], ["Beto", "Ana", "Beto"]])
    def test_duplicate_names_refused(self, names):
        with pytest.raises(RulesError, match="player names must be different"):
            Game(find_rules("generala"), names, seed=1)

    def test_empty_name_refused(self):
        with pytest.raises(RulesError, match="every player needs a name"):
            Game(find_rules("generala"), ["Ana", "  "], seed=1)

    def test_eight_players_play_to_the_end(self):
        import random

        g = Game(find_rules("generala-sin-gana"), [f"P{i}" for i in range(8)], seed=8)
        rnd = random.Random(8)
        while not g.is_over:
            g.apply(rnd.choice(g.legal_actions()))
        assert all(s.turns_taken == 11 or all(v is not None for v in s.card) for s in g.state.seats)
        assert g.state.reason in (EndReason.POINTS, EndReason.TIE_BREAK)


class TestActions:
    @pytest.mark.parametrize("action", [Roll(), Roll((0, 2)), Roll((1,), face_down=True), Roll(face_down=True)])
    def test_repr_evaluates_back(self, action):
        assert eval(repr(action)) == action
        assert "face_down=False" not in repr(action)

    def test_keep_is_a_sorted_tuple(self):
        assert Roll([3, 1]).keep == (1, 3)  # type: ignore[arg-type]
        assert str(Roll((3, 1))) == "roll keep 2 4"


class TestPlayersArgument:
    def test_one_string_is_not_a_list_of_players(self) -> None:
        import pytest

        from cubilete import Game, RulesError, find_rules

        with pytest.raises(RulesError, match="list of names"):
            Game(find_rules("generala"), "Ana")  # type: ignore[arg-type]
