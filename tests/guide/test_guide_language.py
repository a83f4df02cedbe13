"""The richer rule language: keeps a person can do, searched thresholds, and the fast loss table."""

from __future__ import annotations

import pytest

from cubilete.engine.actions import Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.i18n import set_language
from cubilete.play.bots.optimal import action_loss
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.rules import Do, Rule, When, act, kept_positions, matches

YATZY_GUIDE = (
    Rule(When.PAYS_AT_LEAST, Do.SCORE_BOX, "yatzy", 50),
    Rule(When.FOUR_RUN, Do.KEEP_RUN),
    Rule(When.SERVE, Do.KEEP_FOR, "6", 3),
    Rule(When.TWO_PAIRS, Do.KEEP_PAIRS),
    Rule(When.PAYS_AT_LEAST, Do.SCORE_BOX, "chance", 22),
    Rule(When.ALWAYS, Do.KEEP_MOST),
)


@pytest.mark.parametrize(
    ("do", "dice", "kept"),
    [
        (Do.KEEP_MOST, (2, 5, 5, 2, 6), (5, 5)),  # two pairs: the higher face
        (Do.KEEP_MOST, (1, 3, 3, 3, 6), (3, 3, 3)),
        (Do.KEEP_MOST, (1, 2, 3, 4, 6), (6,)),  # nothing alike: the highest die
        (Do.KEEP_RUN, (1, 3, 4, 5, 5), (3, 4, 5)),  # one die a face
        (Do.KEEP_RUN, (1, 2, 4, 5, 6), (4, 5, 6)),  # the longer run
        (Do.KEEP_RUN, (1, 2, 5, 6, 6), (5, 6)),  # equal runs: the higher
        (Do.KEEP_PAIRS, (2, 2, 5, 5, 6), (2, 2, 5, 5)),
        (Do.KEEP_PAIRS, (2, 2, 4, 4, 5, 5), (4, 4, 5, 5)),  # the two highest pairs
    ],
)
def test_keeps_a_person_can_do(do: Do, dice: tuple[int, ...], kept: tuple[int, ...]) -> None:
    rules = find_rules("yatzy")
    positions = kept_positions(Rule(When.ALWAYS, do), dice, rules)
    assert tuple(sorted(dice[p] for p in positions)) == kept
    assert len(set(positions)) == len(positions)


def play_positions(rules_name: str, guide: tuple[Rule, ...], seed: str) -> list[Game]:
    """Every decision of one game played by the guide bot, as the games at that point (replayed)."""
    rules = find_rules(rules_name)
    game, bot, seen = Game(rules, ["a"], seed=seed), GuideBot(guide), []
    while not game.is_over:
        if game.state.turn.throws > 0:
            from cubilete.play.guide.distil import snapshot

            seen.append(snapshot(game))
        game.apply(bot.choose(game))
    return seen


def test_the_bot_plays_the_first_matching_printed_rule_and_keeps_stop_on_the_last_roll() -> None:
    used = set()
    for seed in ("lang-1", "lang-2", "lang-3"):
        for game in play_positions("yatzy", YATZY_GUIDE, seed):
            rule = first_match(YATZY_GUIDE, game)
            action = GuideBot(YATZY_GUIDE).choose(game)
            assert action in game.legal_actions() and action == act(rule, game)
            earlier = YATZY_GUIDE[: YATZY_GUIDE.index(rule)] if rule in YATZY_GUIDE else YATZY_GUIDE
            assert not any(matches(r, game) for r in earlier)
            turn = game.state.turn
            if turn.throws >= turn.allowance:
                assert isinstance(action, Score)
                assert not matches(Rule(When.ALWAYS, Do.KEEP_MOST), game)
            used.add(rule)
    assert Rule(When.ALWAYS, Do.KEEP_MOST) in used and len(used) >= 3


def test_the_fast_loss_table_agrees_with_the_exact_judge() -> None:
    from cubilete.play.guide.distil import Position, candidates

    rules = find_rules("yatzy")
    pool = candidates(rules)
    for game in play_positions("yatzy", YATZY_GUIDE, "table")[:12]:
        position = Position(game)
        for rule in pool[::7]:
            judged = action_loss(game, act(rule, game))
            assert judged is not None
            assert position.rule_loss(rule) == pytest.approx(judged)


def test_pay_thresholds_are_points_the_box_can_pay() -> None:
    from cubilete.play.guide.distil import THRESHOLDS, pay_thresholds

    rules = find_rules("yatzy")
    sixes = rules.slots.index("6")
    assert pay_thresholds(rules, sixes) == [12, 18, 24, 30]  # 2 to 5 sixes
    assert pay_thresholds(rules, rules.slots.index("yatzy")) == [50]
    chance = pay_thresholds(rules, rules.slots.index("chance"))
    assert len(chance) == THRESHOLDS and chance[0] == 5 and chance[-1] == 30


@pytest.mark.parametrize("lang", ["en", "es", "pt_BR"])
def test_every_candidate_prints_in_words(lang: str) -> None:
    from cubilete.play.guide.distil import candidates

    rules = find_rules("yatzy")
    set_language(lang)
    try:
        for rule in candidates(rules):
            words = rule.words(rules)
            assert words.endswith(".") and "None" not in words and "{" not in words
            if rule.when in (When.PAYS_AT_LEAST, When.SERVE):
                assert str(rule.n) in words
    finally:
        set_language("en")


def test_a_keep_that_keeps_every_die_scores_instead() -> None:
    for game in play_positions("yatzy", YATZY_GUIDE, "all-kept"):
        action = act(Rule(When.ALWAYS, Do.KEEP_MOST), game)
        if isinstance(action, Roll):
            assert len(action.keep) < len(game.state.turn.dice)


def test_only_the_default_says_otherwise() -> None:
    from cubilete.play.guide.distil import candidates
    from cubilete.play.guide.rules import DEFAULT

    rules = find_rules("yatzy")
    assert DEFAULT.words(rules).startswith("Otherwise")
    assert not any(rule.words(rules).startswith("Otherwise") for rule in candidates(rules))


@pytest.mark.parametrize(
    ("dice", "filled", "kept"),
    [
        ((2, 2, 5, 5, 6), (), (5, 5)),  # every box open: the commonest, the higher on a tie
        ((2, 2, 5, 5, 6), ("5",), (2, 2)),  # Fives written: the twos
        ((2, 2, 2, 5, 6), ("2",), (6,)),  # Twos written: the highest single with an open box
        ((2, 2, 5, 5, 6), ("2", "5", "6"), (5, 5)),  # none open: the commonest face after all
    ],
)
def test_keep_the_commonest_face_whose_upper_box_is_open(
    dice: tuple[int, ...], filled: tuple[str, ...], kept: tuple[int, ...]
) -> None:
    rules = find_rules("yatzy")
    card = [5 if slot in filled else None for slot in rules.slots]
    positions = kept_positions(Rule(When.ALWAYS, Do.KEEP_MOST_OPEN), dice, rules, card)
    assert tuple(sorted(dice[p] for p in positions)) == kept


def test_prune_drops_only_keeps_that_can_never_decide() -> None:
    from cubilete.play.guide.distil import prune

    keep_open = Rule(When.ALWAYS, Do.KEEP_MOST_OPEN)
    guide = (
        Rule(When.FOUR_RUN, Do.KEEP_RUN),
        keep_open,
        Rule(When.SERVE, Do.KEEP_FOR, "yatzy", 3),  # below a keep that always holds: never decides
        Rule(When.PAYS_AT_LEAST, Do.SCORE_BOX, "chance", 22),
        Rule(When.ALWAYS, Do.KEEP_MOST),  # likewise
    )
    pruned = prune(guide)
    assert pruned == (guide[0], keep_open, guide[3])
    for seed in ("prune-1", "prune-2"):
        for game in play_positions("yatzy", guide, seed):
            assert GuideBot(pruned).choose(game) == GuideBot(guide).choose(game)
