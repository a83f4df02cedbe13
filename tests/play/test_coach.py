"""The coach: hints, the loss of an action, and the review of a finished game."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from cubilete import Game, IllegalActionError, Roll, Score, Stand, find_rules
from cubilete.engine.actions import Action
from cubilete.engine.errors import CubileteError
from cubilete.engine.record import dumps, loads
from cubilete.engine.rules import scoring
from cubilete.engine.state import Phase
from cubilete.i18n import set_language
from cubilete.play.bots import make_bot
from cubilete.play.coach import Advice, action_loss, advise_hand, hint, is_bot_name, keep_positions, review
from cubilete.play.coach import solution_for as coach_solution
from cubilete.solver.advisor import advise

if TYPE_CHECKING:
    from tests.conftest import MakeTable, Table


@pytest.fixture(scope="module", autouse=True)
def _cache_and_language(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Solved tables go to a throw-away folder; messages in English."""
    path = tmp_path_factory.mktemp("coach-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    set_language("en")
    yield path
    mp.undo()


def only_full_open(make_table: MakeTable) -> Table:
    """A generala sheet where every box but Full is closed (hand-checked points: 128 so far)."""
    t = make_table("generala")
    t.turn((1, 1, 2, 3, 4), "1")  # 2
    t.turn((2, 2, 2, 3, 4), "2")  # 6
    t.turn((3, 3, 1, 2, 4), "3")  # 6
    t.turn((4, 4, 4, 4, 1), "4")  # 16
    t.turn((5, 5, 1, 2, 3), "5")  # 10
    t.turn((6, 6, 6, 1, 2), "6")  # 18
    t.turn((1, 2, 3, 4, 5), "escalera")  # 25 servida
    t.turn((3, 3, 3, 3, 2), "poker")  # 45 servido
    t.turn((1, 2, 3, 4, 6), "generala")  # scratched: Doble closes too
    assert [s for s, v in t.card().items() if v is None] == ["full"]
    assert t.game.totals() == [128]
    return t


def scripted_human(game: Game) -> Action:
    """A fixed, simple way of playing: keep the most common face once, then take the most points."""
    turn = game.state.turn
    if turn.throws == 0:
        return Roll()
    if game.state.phase is not Phase.PLAY:
        return Stand()
    if turn.throws == 1:
        face, count = max(Counter(turn.dice).items(), key=lambda fc: (fc[1], fc[0]))
        if count < len(turn.dice):
            return Roll(tuple(p for p, d in enumerate(turn.dice) if d == face))
    points = game.points_now()
    return Score(max(points, key=lambda slot: points[slot]))


def play(game: Game, seats: dict[str, object]) -> Game:
    """Play to the end: each seat by a bot (``choose``) or by the scripted human."""
    while not game.is_over:
        who = seats[game.current_player]
        game.apply(who.choose(game) if hasattr(who, "choose") else scripted_human(game))
    return game


class TestHint:
    def test_only_full_open_full_servida(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        t.roll((2, 2, 5, 5, 5))
        advice, exact = hint(t.game, top=100)
        assert exact
        best = advice[0]
        # Full servido is 35 and nothing is left to play: 128 + 35, exactly
        assert (best.kind, best.slot, best.points, best.action) == ("score", "full", 35, Score("full"))
        assert best.expected == pytest.approx(163) and best.loss == 0
        keeps = [a for a in advice if a.kind == "keep"]
        assert len(keeps) == len(advice) - 1 and keeps
        # after a re-throw a Full is worth 30 at most: every keep loses at least 5
        assert all(a.loss >= 5 - 1e-9 for a in keeps)
        # keeping 2 2 5 5 makes the Full with a 2 or a 5 in two one-die throws: 1 - (4/6)^2 = 20/36
        two_pairs = next(a for a in keeps if a.keep_faces == (2, 2, 5, 5))
        assert two_pairs.loss == pytest.approx(35 - 30 * 20 / 36)
        assert two_pairs.keep_positions == (0, 1, 2, 3) and two_pairs.action == Roll((0, 1, 2, 3))
        assert min(a.loss for a in keeps) == pytest.approx(two_pairs.loss)
        assert two_pairs.describe(t.game.rules) == "keep 2 2 5 5, throw the rest"
        assert best.describe(t.game.rules) == "score Full (35)"

    def test_full_armado_scores_30(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        t.roll((1, 2, 5, 5, 5))
        t.roll((2, 2), keep=(2, 3, 4))  # positions 0, 1 thrown again: 2 2 5 5 5 on throw 2
        advice, _ = hint(t.game, top=100)
        full = next(a for a in advice if a.kind == "score")
        assert full.points == 30 and full.expected == pytest.approx(158)

    def test_nothing_to_advise_before_the_first_throw_or_after_the_end(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        assert hint(t.game) == ([], True)
        t.turn((2, 2, 5, 5, 5), "full")
        assert t.game.is_over
        assert hint(t.game)[0] == []

    def test_top_limits_and_order(self) -> None:
        game = Game(find_rules("generala"), ["Ana"], seed=11)
        game.apply(Roll())
        advice, _ = hint(game, top=3)
        assert len(advice) == 3
        assert [a.loss for a in advice] == sorted(a.loss for a in advice)
        assert advice[0].loss == 0

    @pytest.mark.parametrize("preset", ["generala", "yahtzee", "generala-apartada", "bozo"])
    def test_every_advice_is_a_legal_action_with_a_loss_of_zero_or_more(self, preset: str) -> None:
        game = Game(find_rules(preset), ["Ana"], seed=f"legal-{preset}")
        bot = make_bot("bot:greedy", seed=1)
        checked = 0
        while not game.is_over and checked < 12:
            if game.state.turn.throws:
                advice, exact = hint(game, top=100)
                legal = game.legal_actions()
                assert exact and advice
                assert all(a.action in legal for a in advice)
                assert all(a.loss >= 0 for a in advice) and advice[0].loss == 0
                assert all(action_loss(game, a.action) == pytest.approx(a.loss) for a in advice)
                checked += 1
            game.apply(bot.choose(game))

    def test_locked_holds_keep_the_held_dice(self, make_table: MakeTable) -> None:
        t = make_table("generala-apartada")
        t.roll((6, 6, 2, 3, 1))
        t.roll((6, 4, 5), keep=(0, 1))  # 6 6 6 4 5: positions 0 and 1 stay held from now on
        advice, _ = hint(t.game, top=100)
        keeps = [a for a in advice if a.kind == "keep"]
        assert keeps
        for a in keeps:
            assert {0, 1} <= set(a.keep_positions)
            assert a.keep_faces.count(6) >= 2
            assert a.action in t.game.legal_actions()

    def test_keeps_prefer_the_dice_already_held(self, make_table: MakeTable) -> None:
        t = make_table("generala")
        t.roll((5, 2, 5, 6, 5))
        t.roll((5, 3, 1), keep=(2, 4))  # positions 0, 1, 3 thrown: 5 3 5 1 5
        advice, _ = hint(t.game, top=100)
        pair = next(a for a in advice if a.keep_faces == (5, 5))
        assert pair.keep_positions == (2, 4)

    def test_rules_too_large_to_solve_use_the_approximate_search(self) -> None:
        game = Game(find_rules("maxi-yatzy"), ["Ana"], seed=3)
        game.apply(Roll())
        advice, exact = hint(game, top=5)
        assert not exact
        assert advice and advice[0].loss == 0
        assert all(a.action in game.legal_actions() for a in advice)


    def test_tie_break_hint_says_when_to_stand(self, make_table: MakeTable) -> None:
        t = tied_tiny_game(make_table)
        t.roll((2, 2, 2, 2, 2))  # worth 10 in box 2: no hand is worth more, any re-throw can only lose
        advice, _ = hint(t.game, top=100)
        assert advice[0].kind == "stand" and advice[0].action == Stand()
        assert all(a.action in t.game.legal_actions() for a in advice)


class TestKeepPositions:
    def test_faces_to_positions(self) -> None:
        assert keep_positions((5, 3, 5, 1, 5), (5, 5)) == (0, 2)
        assert keep_positions((5, 3, 5, 1, 5), (5, 5), prefer=(2, 4)) == (2, 4)
        assert keep_positions((5, 3, 5, 1, 5), (1, 5), must=(4,)) == (3, 4)

    def test_impossible_keeps_are_refused(self) -> None:
        with pytest.raises(IllegalActionError):
            keep_positions((5, 3, 5, 1, 5), (6,))
        with pytest.raises(IllegalActionError):
            keep_positions((5, 3, 5, 1, 5), (3,), must=(0,))


class TestAdviseHand:
    """Typed dice: the advisor's options as ``Advice``, with the positions of the dice to keep."""

    @pytest.mark.parametrize("preset", ["generala", "generala-apartada"])
    def test_the_advisors_options_field_for_field(self, preset: str) -> None:
        """Random sheets, dice in any order and dice held: each advice is what the advisor's option says,
        its keep on the first dice showing the faces (the held ones first), asked twice (the second time
        from what the coach remembers of the hand)."""
        rules = find_rules(preset)
        solution = coach_solution(rules)
        rng = random.Random(preset)
        for _ in range(150):
            card = [0 if rng.random() < 0.4 else None for _ in rules.slots]
            card[rng.randrange(len(card))] = None
            dice = tuple(rng.randint(1, 6) for _ in range(rules.dice))
            throw = rng.randint(1, rules.throws)
            some = tuple(sorted(rng.sample(range(rules.dice), rng.randint(1, 3)))) if throw > 1 else ()
            top = rng.choice([1, 5, 40])
            for held in ((), some, ()):  # the same dice held or not: what is remembered of one is not the other's
                want = []
                faces = tuple(sorted(dice[p] for p in held)) if rules.locked_holds else ()
                for o in advise(solution, card, dice, throw, 0, faces)[:top]:
                    if o.kind == "score":
                        assert o.slot is not None
                        want.append(Advice("score", o.slot, o.points, (), (), o.expected, o.loss, Score(o.slot)))
                    else:
                        kept = keep_positions(dice, o.keep, prefer=held, must=held if rules.locked_holds else ())
                        keep = Advice("keep", None, 0, tuple(sorted(o.keep)), kept, o.expected, o.loss, Roll(kept))
                        want.append(keep)
                for _ in range(2):
                    got = advise_hand(rules, card, dice, throw, 0, held, top)
                    assert got == want
                    assert [vars(a) for a in got] == [vars(a) for a in want]  # every field, ``win`` included

    def test_top_zero_or_below_is_no_advice_but_bad_dice_are_refused(self) -> None:
        rules = find_rules("generala")
        assert advise_hand(rules, [None] * len(rules.slots), (1, 2, 3, 4, 5), 1, top=0) == []
        with pytest.raises(IllegalActionError):
            advise_hand(rules, [None] * len(rules.slots), (1, 2, 3, 4, 7), 1, top=0)


class TestActionLoss:
    def test_roll_is_judged_by_the_faces_kept(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        t.roll((2, 5, 2, 5, 5))
        assert action_loss(t.game, Score("full")) == 0
        # 2 2 5 5 at positions 0 2 1 3, in any order: the same keep
        assert action_loss(t.game, Roll((0, 1, 2, 3))) == pytest.approx(35 - 30 * 20 / 36)
        assert action_loss(t.game, Roll((3, 2, 1, 0))) == pytest.approx(35 - 30 * 20 / 36)

    def test_nothing_to_judge(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        assert action_loss(t.game, Roll()) is None  # the first throw of a turn throws every die
        t.turn((2, 2, 5, 5, 5), "full")
        assert action_loss(t.game, Roll()) is None  # over

    def test_illegal_action(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        t.roll((2, 2, 5, 5, 5))
        with pytest.raises(IllegalActionError):
            action_loss(t.game, Score("poker"))  # closed

    def test_em_baixo_is_judged_like_the_same_throw(self) -> None:
        game = Game(find_rules("bozo"), ["Ana"], seed=5)
        game.apply(Roll())
        keep = (0, 1)
        assert action_loss(game, Roll(keep, face_down=True)) == action_loss(game, Roll(keep))

    def test_tie_break_is_not_judged(self, make_table: MakeTable) -> None:
        t = tied_tiny_game(make_table)
        t.roll((6, 6, 1, 2, 3))
        assert t.state.phase is Phase.TIEBREAK
        assert action_loss(t.game, Stand()) is None
        assert action_loss(t.game, Roll((0, 1))) is None


def tied_tiny_game(make_table: MakeTable) -> Table:
    """Two players, boxes 1 and 2 only, the same hands: a tie, so a tie-break round starts."""
    generala = find_rules("generala")
    tiny = generala.replace(name="tiny-coach", boxes=generala.boxes[:2])
    t = make_table(tiny, ["Ana", "Beto"])
    for hand, slot in (((1, 1, 2, 3, 4), "1"), ((2, 2, 1, 3, 4), "2")):
        t.turn(hand, slot)
        t.turn(hand, slot)
    return t


class TestReview:
    def test_optimal_play_loses_nothing(self) -> None:
        game = play(Game(find_rules("generala"), ["Ana"], seed="optimal-review"), {"Ana": make_bot("bot:optimal", 1)})
        result = review(game)
        assert result.decisions and {d.player for d in result.decisions} == {"Ana"}
        assert result.total_loss["Ana"] == pytest.approx(0, abs=1e-6)
        assert result.worst["Ana"] == []
        assert all(d.action == d.best for d in result.decisions)

    def test_a_bad_move_is_among_the_worst(self) -> None:
        game = Game(find_rules("generala"), ["Ana"], seed="bad-move")
        game.apply(Roll())
        assert not scoring.all_equal(game.state.turn.dice)
        planted = action_loss(game, Score("generala"))  # scratch the Generala on the first throw
        game.apply(Score("generala"))
        play(game, {"Ana": make_bot("bot:optimal", 1)})
        result = review(game)
        worst = result.worst["Ana"]
        assert planted is not None and planted > 5
        assert worst[0].turn == 1 and worst[0].throw == 1 and worst[0].action == "scratch Generala"
        assert worst[0].loss == pytest.approx(planted)
        assert result.total_loss["Ana"] == pytest.approx(sum(d.loss for d in result.decisions))

    def test_a_seeded_game_with_a_scripted_human_reviews_the_same_every_time(self) -> None:
        def game() -> Game:
            g = Game(find_rules("generala"), ["Ana", "bot:optimal"], seed="review-42")
            return play(g, {"Ana": None, "bot:optimal": make_bot("bot:optimal", "s")})

        first, second = review(game()), review(game())
        assert first == second
        assert review(loads(dumps(game()))) == first
        # by default only the people are judged
        assert set(first.total_loss) == {"Ana"} and {d.player for d in first.decisions} == {"Ana"}
        assert all(d.loss >= 0 for d in first.decisions)
        assert {d.turn for d in first.decisions} <= set(range(1, 12))
        assert len(first.worst["Ana"]) <= 3
        assert [d.loss for d in first.worst["Ana"]] == sorted((d.loss for d in first.worst["Ana"]), reverse=True)
        assert first.worst["Ana"][0].loss == max(d.loss for d in first.decisions)
        both = review(game(), players=["Ana", "bot:optimal"])
        assert both.total_loss["bot:optimal"] == pytest.approx(0, abs=1e-6)
        assert [d for d in both.decisions if d.player == "Ana"] == first.decisions

    def test_decisions_describe_the_table(self, make_table: MakeTable) -> None:
        t = only_full_open(make_table)
        t.roll((2, 2, 5, 5, 1))
        t.roll((5,), keep=(0, 1, 2, 3))
        t.score("full")
        result = review(t.game)
        last = result.decisions[-2:]
        assert [(d.turn, d.throw, d.dice) for d in last] == [(10, 1, (2, 2, 5, 5, 1)), (10, 2, (2, 2, 5, 5, 5))]
        assert last[0].action == "keep 2 2 5 5, throw the rest"
        assert last[1].action == last[1].best == "score Full (30)" and last[1].loss == 0

    def test_tie_break_decisions_are_skipped(self, make_table: MakeTable) -> None:
        t = tied_tiny_game(make_table)
        t.roll((6, 6, 1, 2, 3))
        t.roll((2, 2, 2), keep=(0, 1))  # 6 6 2 2 2: worth 6 in box 2
        t.stand()
        t.roll((1, 2, 3, 4, 6))  # worth 2
        t.stand()
        assert t.game.is_over and t.state.winners == (0,)
        result = review(t.game)
        assert len(result.decisions) == 4  # the four scores; no tie-break throw or stand
        assert {d.turn for d in result.decisions} == {1, 2}

    def test_rules_too_large_to_solve_are_reviewed_approximately(self) -> None:
        rules = find_rules("maxi-yatzy").replace(name="maxi-short", rounds=2)
        game = play(Game(rules, ["Ana"], seed="maxi"), {"Ana": None})
        result = review(game)
        assert not result.exact
        assert {d.turn for d in result.decisions} == {1, 2}
        assert all(d.loss >= 0 for d in result.decisions)

    def test_progress_and_players(self) -> None:
        game = play(Game(find_rules("generala"), ["Ana"], seed="progress"), {"Ana": None})
        calls: list[tuple[int, int]] = []
        review(game, progress=lambda done, total: calls.append((done, total)))
        assert calls[-1] == (len(game.history), len(game.history))
        with pytest.raises(CubileteError, match="Beto"):
            review(game, players=["Beto"])
        assert review(game, players=[]).decisions == []


def test_bot_names() -> None:
    assert is_bot_name("bot") and is_bot_name("bot:optimal") and is_bot_name("Bot-2")
    assert not is_bot_name("Ana") and not is_bot_name("robot")


def test_advice_is_a_value() -> None:
    a = Advice("score", "full", 30, (), (), 158.0, 0.0, Score("full"))
    assert a == Advice("score", "full", 30, (), (), 158.0, 0.0, Score("full"))
