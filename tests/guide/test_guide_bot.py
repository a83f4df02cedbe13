"""The guide bot follows its printed rules exactly and always has a legal move."""

from __future__ import annotations

import pytest

from cubilete.engine.actions import Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.rules import DEFAULT, Do, Rule, When, act

GUIDE = (
    Rule(When.PAYS_FULL, Do.SCORE_BOX, "generala"),
    Rule(When.OPEN, Do.KEEP_FOR, "generala"),
    Rule(When.LAST_ROLL, Do.SCORE_BEST),
)


def test_every_position_gets_a_legal_move_and_the_first_matching_rule_decides() -> None:
    game = Game(find_rules("generala"), ["a"], seed="guide")
    bot = GuideBot(GUIDE)
    decided = set()
    for _ in range(5000):
        if game.is_over:
            break
        action = bot.choose(game)
        assert action in game.legal_actions()
        if game.state.turn.throws > 0:
            rule = first_match(GUIDE, game)
            decided.add(rule)
            assert action == act(rule, game)
        game.apply(action)
    assert game.is_over
    assert GUIDE[1] in decided  # the keep rule was used, not only the scores


def test_keep_for_generala_keeps_the_largest_group() -> None:
    game = Game(find_rules("generala"), ["a"], seed="guide-keep")
    game.apply(Roll())
    dice = game.state.turn.dice
    action = act(GUIDE[1], game)
    most = max(dice.count(f) for f in set(dice))
    if most == len(dice):
        assert isinstance(action, Score)
    else:
        assert isinstance(action, Roll) and len(action.keep) == most


@pytest.mark.parametrize("rule", [DEFAULT, *GUIDE])
def test_rules_print_in_words(rule: Rule) -> None:
    words = rule.words(find_rules("generala"))
    assert words.endswith(".") and "None" not in words and "{" not in words


def tiny_rules():  # type: ignore[no-untyped-def]
    generala = find_rules("generala")
    return generala.replace(name="tiny-guide", boxes=generala.boxes[:3])


def test_each_round_adds_the_rule_that_cuts_the_loss_on_its_sample() -> None:
    from cubilete.play.guide.distil import best_insertion, candidates, sample, total_loss

    rules = tiny_rules()
    guide: list[Rule] = []
    for round_ in range(3):
        positions = sample(rules, tuple(guide), 20, f"t-{round_}")
        best = best_insertion(positions, guide, candidates(rules))
        if best is None:  # nothing left to save on this sample: only after a first rule
            assert guide and total_loss(positions, tuple(guide)) >= 0
            break
        saved, rule, place = best
        longer = [*guide[:place], rule, *guide[place:]]
        before, after = total_loss(positions, tuple(guide)), total_loss(positions, tuple(longer))
        assert after < before and after == pytest.approx(before - saved)  # greedy: more rules never lose more
        guide = longer


def test_distil_refuses_no_rules() -> None:
    from cubilete.play.guide.distil import distil

    with pytest.raises(ValueError):
        distil(tiny_rules(), 0)


def test_bot_spec_guide_n_plays_legal_moves_and_bad_counts_are_refused() -> None:
    from cubilete.engine.errors import UnknownBotError
    from cubilete.play.bots import bot_level, make_bot

    assert bot_level("bot:guide") == "guide:10" and bot_level("bot:Guide:3") == "guide:3"
    bot = make_bot("bot:guide:3")
    game = Game(tiny_rules(), ["a"], seed="spec")
    while not game.is_over:
        action = bot.choose(game)
        assert action in game.legal_actions()
        game.apply(action)
    assert bot.name == "guide:3" and len(bot.guide) == 3  # type: ignore[attr-defined]
    for bad in ("bot:guide:0", "bot:guide:x", "bot:guide:-2"):
        with pytest.raises(UnknownBotError, match="bot:guide:N"):
            bot_level(bad)


@pytest.mark.parametrize(
    ("dice", "alike", "run"),
    [((1, 2, 3, 4, 6), 1, 4), ((2, 2, 5, 5, 5), 3, 1), ((3, 4, 5, 6, 6), 2, 4), ((6,) * 5, 5, 1)],
)
def test_what_a_person_counts_on_the_table(dice: tuple[int, ...], alike: int, run: int) -> None:
    from cubilete.play.guide.rules import longest_run, most_alike

    assert most_alike(dice) == alike and longest_run(dice) == run
