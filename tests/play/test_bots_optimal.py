"""The optimal bot and the levels built on it: the advisor's best option, locked holds, the fallback
search for rules too large to solve, and the loss judge."""

from __future__ import annotations

import pytest

from cubilete.engine.actions import Roll, Score, Stand
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.game import Game, tiebreak_value
from cubilete.engine.rules import Rules, find_rules
from cubilete.engine.rules.model import Start
from cubilete.engine.state import Phase
from cubilete.play.bots import LevelBot, LookaheadBot, OptimalBot, Slips, action_loss, make_bot, solution_for
from cubilete.play.bots.levels import LEVEL_SLIPS
from cubilete.solver.advisor import advise

pytestmark = pytest.mark.usefixtures("bots_solver_cache")


def scripted(rules: Rules, throws: list[list[int]], players: int = 1) -> Game:
    names = ["a", "b", "c"][:players]
    return Game(rules.replace(start=Start.SEAT_ORDER), names, dice=ScriptedDice(throws), seed=1)


class TestOptimalChoiceIsTheAdvisorsBest:
    @pytest.mark.parametrize("preset", ["generala", "yahtzee"])
    def test_every_decision_of_whole_games(self, preset: str) -> None:
        rules = find_rules(preset)
        solution = solution_for(rules)
        assert solution is not None
        bot = OptimalBot(seed=1)
        for seed in range(3):
            game = Game(rules, ["a"], seed=f"adv-{seed}")
            while not game.is_over:
                action = bot.choose(game)
                turn, seat = game.state.turn, game.seat()
                if turn.throws == 0:
                    assert action == Roll()
                else:
                    best = advise(solution, seat.card, turn.dice, turn.throws, seat.extra_bonuses)[0]
                    if best.kind == "score":
                        assert action == Score(best.slot or "")
                    else:
                        assert isinstance(action, Roll)
                        assert tuple(sorted(turn.dice[p] for p in action.keep)) == best.keep
                game.apply(action)

    def test_scores_a_served_full_in_generala_worked_by_hand(self) -> None:
        # last turn, only Full open: 35 servido now beats anything a re-throw could give
        rules = find_rules("generala").replace(boxes=(find_rules("generala").box("full"),), name="only-full")
        game = scripted(rules, [[2, 2, 6, 6, 6]])
        game.apply(Roll())
        assert OptimalBot(seed=1).choose(game) == Score("full")
        analysis = OptimalBot(seed=1).analyse(game)
        assert analysis.exact and analysis[0].expected == pytest.approx(35.0)

    def test_analysis_is_best_first_with_losses(self) -> None:
        game = Game(find_rules("generala"), ["a"], seed=2)
        game.apply(Roll())
        analysis = OptimalBot(seed=1).analyse(game)
        assert analysis.exact and "instant wins not modelled" in analysis.note
        assert analysis[0].loss == 0.0
        expected = [o.expected for o in analysis]
        assert expected == sorted(expected, reverse=True)
        assert all(o.loss == pytest.approx(analysis[0].expected - o.expected) for o in analysis)

    def test_analysis_before_the_first_throw_is_the_table_value(self) -> None:
        rules = find_rules("generala")
        solution = solution_for(rules)
        assert solution is not None
        game = Game(rules, ["a"], seed=2)
        (only,) = OptimalBot(seed=1).analyse(game)
        assert only.expected == pytest.approx(solution.expected_score)


class TestLockedHolds:
    def test_held_dice_stay_kept(self) -> None:
        rules = find_rules("generala-apartada")
        # first throw 6 6 1 2 3: keeping the sixes; then the three thrown dice show 6 1 2
        game = scripted(rules, [[6, 6, 1, 2, 3], [6, 1, 2]])
        game.apply(Roll())
        game.apply(Roll((0, 1)))
        assert game.state.turn.held == (0, 1)
        for level in ("optimal", "strong", "casual", "beginner", "lookahead", "greedy", "heuristic", "random"):
            for seed in range(5):
                action = make_bot(f"bot:{level}", seed).choose(game)
                assert action in game.legal_actions()
                if isinstance(action, Roll):
                    assert {0, 1} <= set(action.keep), level

    def test_optimal_keeps_what_the_advisor_says_with_the_held_faces(self) -> None:
        rules = find_rules("generala-apartada")
        solution = solution_for(rules)
        assert solution is not None
        game = scripted(rules, [[1, 1, 2, 5, 6], [1, 2, 2]])
        game.apply(Roll())
        game.apply(Roll((3, 4)))  # 5 and 6 are locked now
        dice = game.state.turn.dice
        best = advise(solution, game.seat().card, dice, 2, held=(5, 6))[0]
        action = OptimalBot(seed=1).choose(game)
        if best.kind == "keep":
            assert isinstance(action, Roll) and {3, 4} <= set(action.keep)
            assert tuple(sorted(dice[p] for p in action.keep)) == best.keep
        else:
            assert action == Score(best.slot or "")


class TestFallbackSearch:
    @pytest.mark.parametrize("preset", ["maxi-yatzy", "general-4-columns"])
    def test_analysis_says_it_is_approximate(self, preset: str) -> None:
        game = Game(find_rules(preset), ["a"], seed=3)
        game.apply(Roll())
        analysis = OptimalBot(seed=1).analyse(game)
        assert not analysis.exact
        assert analysis.note.startswith("approximate")
        assert analysis[0].loss == 0.0
        assert OptimalBot(seed=1).choose(game) in game.legal_actions()

    def test_exact_on_a_one_box_game(self) -> None:
        # with one box left the future is worth nothing: the search is then exact, as the advisor
        base = find_rules("yahtzee")
        rules = base.replace(name="sixes", boxes=(base.box("6"),), upper_bonus=0, upper_bonus_threshold=0,
                             extra_bonus_box=None, extra_bonus=0, joker=base.joker.NONE)  # fmt: skip
        solution = solution_for(rules)
        assert solution is not None
        game = scripted(rules, [[6, 6, 1, 2, 3]])
        game.apply(Roll())
        approx = LookaheadBot(seed=1).analyse(game)
        exact = advise(solution, [None], (6, 6, 1, 2, 3), 1)
        assert not approx.exact
        assert [(o.kind, o.keep, o.slot) for o in approx] == [(o.kind, o.keep, o.slot) for o in exact]
        assert [o.expected for o in approx] == pytest.approx([o.expected for o in exact])
        # keeping two sixes with two throws left: 12 + 6 x 3 x (1 - (5/6)^2)
        keep66 = next(o for o in approx if o.kind == "keep" and o.keep == (6, 6))
        assert keep66.expected == pytest.approx(12 + 18 * (1 - (5 / 6) ** 2))

    def test_maxi_carried_throws_are_searched(self) -> None:
        # turn 1: a full straight at the first throw banks the two throws not used
        rules = find_rules("maxi-yatzy")
        game = scripted(rules, [[1, 2, 3, 4, 5, 6], [6, 6, 6, 2, 3, 4], [6, 2, 3], [6, 1]])
        game.apply(Roll())
        game.apply(Score("full-straight"))
        assert game.state.seats[0].banked == 2
        assert game.state.turn.allowance == 5
        # turn 2: five sixes after the third throw, the two carried throws still to use. Scoring now is
        # what a bot that stops at three throws, or grabs a good score (greedy: the chance, 31), does;
        # the search keeps the sixes and throws the last die for the maxi-yatzy (100 at 1 - (5/6)^2).
        game.apply(Roll())
        game.apply(Roll((0, 1, 2)))
        game.apply(Roll((0, 1, 2, 3)))
        turn = game.state.turn
        assert (turn.dice, turn.throws, turn.allowance) == ((6, 6, 6, 6, 6, 1), 3, 5)
        bot = OptimalBot(seed=1)
        assert bot.choose(game) == Roll((0, 1, 2, 3, 4))
        best, *others = bot.analyse(game)
        assert (best.kind, best.keep) == ("keep", (6, 6, 6, 6, 6))
        assert all(o.expected < best.expected for o in others if o.kind == "score")


class TestTieBreak:
    def test_bots_stand_or_throw_for_the_best_hand(self) -> None:
        g = find_rules("generala")
        rules = g.replace(boxes=(g.box("1"),), name="ones")
        throws = [[1, 2, 2, 2, 2], [1, 3, 3, 3, 3], [1, 1, 1, 1, 1], [1, 2, 3, 4, 6]]
        game = scripted(rules, throws, players=2)
        for _ in range(2):
            game.apply(Roll())
            game.apply(Score("1"))
        assert game.state.phase is Phase.TIEBREAK
        game.apply(Roll())  # five ones: the best hand there is when the only box counts ones
        for level in ("optimal", "strong", "greedy", "heuristic", "lookahead"):
            bot = make_bot(f"bot:{level}", 1)
            assert bot.choose(game) == Stand()
        stand = OptimalBot(seed=1).analyse(game)[0]
        assert stand.kind == "stand"
        assert stand.expected == tiebreak_value(rules, (1, 1, 1, 1, 1), True) == 5
        game.undo()
        game.dice = ScriptedDice([*throws[:2], [1, 1, 2, 3, 4]])
        game.apply(Roll())  # two ones: keep them and throw three dice again
        keep = OptimalBot(seed=1).choose(game)
        assert keep == Roll((0, 1))


class TestLevels:
    def test_levels_are_named_and_ordered_by_slips(self) -> None:
        assert list(LEVEL_SLIPS) == ["beginner", "casual", "strong"]
        slips = [LEVEL_SLIPS[n] for n in ("beginner", "casual", "strong")]
        assert [s.slip for s in slips] == sorted((s.slip for s in slips), reverse=True)
        assert [s.temperature for s in slips] == sorted((s.temperature for s in slips), reverse=True)
        assert make_bot("bot:casual", 1).name == "casual"

    def test_no_slips_is_optimal_play(self) -> None:
        game = Game(find_rules("generala"), ["a"], seed=8)
        game.apply(Roll())
        perfect = LevelBot("perfect", Slips(0.0, 5.0), seed=1)
        assert perfect.choose(game) == OptimalBot(seed=1).choose(game)

    def test_always_slipping_with_a_hot_softmax_spreads_the_choices(self) -> None:
        game = Game(find_rules("generala"), ["a"], seed=8)
        game.apply(Roll())
        wild = {LevelBot("wild", Slips(1.0, 1000.0), seed=k).choose(game) for k in range(40)}
        assert len(wild) > 10


class TestLossJudge:
    def test_the_best_action_loses_nothing_and_a_scratch_loses_its_loss(self) -> None:
        rules = find_rules("generala")
        game = scripted(rules, [[2, 2, 6, 6, 6]])  # a Full servido
        game.apply(Roll())
        analysis = OptimalBot(seed=1).analyse(game)
        assert action_loss(game, OptimalBot(seed=1).choose(game)) == 0.0
        scratch = next(o for o in analysis if o.kind == "score" and o.slot == "1")
        assert action_loss(game, Score("1")) == pytest.approx(scratch.loss)
        assert scratch.loss > 0

    def test_not_judged_where_it_cannot_be(self) -> None:
        game = Game(find_rules("maxi-yatzy"), ["a"], seed=1)
        game.apply(Roll())
        assert action_loss(game, Score("chance")) is None
        game = Game(find_rules("generala"), ["a"], seed=1)
        assert action_loss(game, Roll()) is None  # the first throw: nothing to choose
