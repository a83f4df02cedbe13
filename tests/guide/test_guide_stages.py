"""The stage conditions (the upper bonus's pace, boxes left), the merged candidates and the list's local search."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

from cubilete.engine.actions import Roll
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.state import Turn
from cubilete.i18n import set_language
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.rules import (
    Do,
    Rule,
    When,
    act,
    bonus_stage,
    has_paced_bonus,
    matches,
)


def position(rules_name: str, written: dict[str, int], dice: tuple[int, ...], throws: int = 1) -> Game:
    """A one-player game at a constructed decision: these boxes written, these dice on the table."""
    rules = find_rules(rules_name)
    game = Game(rules, ["a"], seed="stage")
    state = game.state
    card = tuple(written.get(slot) for slot in rules.slots)
    seat = replace(state.seats[0], card=card)
    game._states = [replace(state, seats=(seat,), turn=Turn(dice=dice, throws=throws, allowance=3))]
    return game


def card(written: dict[str, int]) -> tuple[int | None, ...]:
    return tuple(written.get(slot) for slot in find_rules("yatzy").slots)


@pytest.mark.parametrize(
    ("written", "stage"),
    [
        ({}, When.ON_PACE),  # nothing written: 0 against 0
        ({"6": 18, "5": 15}, When.ON_PACE),  # exactly 3 sixes and 3 fives: 33 against 3 x 11
        ({"6": 24, "1": 1}, When.ON_PACE),  # 25 against 3 x 7 = 21
        ({"6": 12}, When.BEHIND_PACE),  # 12 against 18; 12 + 5 x (1+2+3+4+5) = 87 can still make 63
        ({"6": 6, "5": 5}, When.BONUS_SETTLED),  # 11 + 5 x (1+2+3+4) = 61 < 63: out of reach
        ({"6": 0, "5": 0, "4": 0}, When.BONUS_SETTLED),  # 0 + 5 x 6 = 30 < 63
        ({"6": 30, "5": 25, "4": 8}, When.BONUS_SETTLED),  # 63 made with three boxes left
        ({"1": 3, "2": 6, "3": 9, "4": 12, "5": 15, "6": 18}, When.BONUS_SETTLED),  # 63: made
        ({"1": 2, "2": 6, "3": 9, "4": 12, "5": 15}, When.BEHIND_PACE),  # 44 < 45, but 44 + 30 >= 63
        ({"1": 2, "2": 6, "3": 9, "4": 12, "5": 10}, When.BEHIND_PACE),  # 39 < 45, but 39 + 30 sixes = 69
        ({"1": 1, "2": 2, "3": 3, "4": 4, "5": 5}, When.BONUS_SETTLED),  # 15 + 30 = 45 < 63
    ],
)
def test_the_bonus_stage_from_the_sheet(written: dict[str, int], stage: When) -> None:
    rules = find_rules("yatzy")
    assert bonus_stage(rules, card(written)) is stage


def test_the_bonus_words_only_where_the_bonus_is_3_of_each_face() -> None:
    assert has_paced_bonus(find_rules("yatzy")) and has_paced_bonus(find_rules("yahtzee"))
    generala = find_rules("generala")
    assert not has_paced_bonus(generala) and bonus_stage(generala, (None,) * len(generala.slots)) is None
    from cubilete.play.guide.distil import candidates

    assert not any(r.when in (When.ON_PACE, When.BEHIND_PACE, When.BONUS_SETTLED) for r in candidates(generala))


def test_stage_conditions_hold_on_constructed_positions() -> None:
    written = {"6": 12, "chance": 20, "yatzy": 0}  # behind pace; 12 of 15 boxes open
    game = position("yatzy", written, (6, 6, 2, 3, 4))
    assert matches(Rule(When.BEHIND_PACE, Do.KEEP_FOR, "5"), game)
    assert not matches(Rule(When.BEHIND_PACE, Do.KEEP_FOR, "6"), game)  # Sixes is written
    assert not matches(Rule(When.ON_PACE, Do.KEEP_MOST), game)
    assert matches(Rule(When.OPEN_AT_LEAST, Do.KEEP_MOST, None, 12), game)
    assert not matches(Rule(When.OPEN_AT_LEAST, Do.KEEP_MOST, None, 13), game)
    assert matches(Rule(When.OPEN_AT_MOST, Do.SCORE_BOX, "1", 12), game)
    assert not matches(Rule(When.OPEN_AT_MOST, Do.SCORE_BOX, "1", 11), game)
    last = position("yatzy", written, (6, 6, 2, 3, 4), throws=3)
    assert not matches(Rule(When.OPEN_AT_LEAST, Do.KEEP_MOST, None, 12), last)  # a keep needs a throw left
    assert matches(Rule(When.OPEN_AT_LEAST, Do.SCORE_BEST, None, 12), last)
    on_pace = position("yatzy", {"6": 24}, (5, 5, 5, 1, 2))
    assert matches(Rule(When.ON_PACE, Do.KEEP_FOR, "5"), on_pace)
    guide = (Rule(When.BEHIND_PACE, Do.KEEP_FOR, "6"), Rule(When.ON_PACE, Do.KEEP_FOR, "5"))
    assert first_match(guide, on_pace) == guide[1]
    action = GuideBot(guide).choose(on_pace)
    assert isinstance(action, Roll) and action == act(guide[1], on_pace)
    assert sorted(on_pace.state.turn.dice[p] for p in action.keep) == [5, 5, 5]


def test_equivalent_conditions_are_offered_once() -> None:
    from cubilete.play.guide.distil import candidates

    pool = candidates(find_rules("yatzy"))
    yatzy = [r for r in pool if r.box == "yatzy" and r.do is Do.SCORE_BOX and r.when.value.startswith("pays")]
    assert yatzy == [Rule(When.PAYS_FULL, Do.SCORE_BOX, "yatzy")]  # it pays 50 or nothing
    sixes = {(r.when, r.n) for r in pool if r.box == "6" and r.do is Do.SCORE_BOX and r.when.value.startswith("pays")}
    # Sixes pays 6..30; half its best is 15, so "pays at least 18" = "pays half" and "at least 30" = "its best"
    assert sixes == {(When.PAYS_FULL, 0), (When.PAYS_HALF, 0), (When.PAYS_AT_LEAST, 12), (When.PAYS_AT_LEAST, 24)}
    assert len(set(pool)) == len(pool)


@pytest.mark.parametrize("rules_name", ["yatzy", "yahtzee", "generala"])
def test_the_table_of_all_rules_agrees_with_holds(rules_name: str) -> None:
    from cubilete.play.guide.distil import LossTable, candidates, sample
    from cubilete.play.guide.rules import holds

    rules = find_rules(rules_name)
    positions = sample(rules, (Rule(When.ALWAYS, Do.KEEP_MOST_OPEN),), 2, "agree")
    table = LossTable(positions, candidates(rules))
    for i, rule in enumerate(table.rules):
        slot = rules.slots.index(rule.box) if rule.box is not None else None
        expected = [holds(rule, p.seen, slot) for p in positions]
        assert table.holds[i].tolist() == expected, rule
        losses = [p.rule_loss(rule) for p, yes in zip(positions, expected, strict=True) if yes]
        assert table.loss[i][table.holds[i]] == pytest.approx(losses)


def test_the_local_search_drops_idle_rules_and_never_loses_on_its_sample() -> None:
    from cubilete.play.guide.distil import LossTable, Search, candidates, sample

    rules = find_rules("yatzy")
    idle = Rule(When.SERVE, Do.KEEP_FOR, "yatzy", 3)  # below a keep that holds whenever a throw is left
    guide = [
        Rule(When.ALWAYS, Do.KEEP_MOST),
        idle,
        Rule(When.FOUR_RUN, Do.KEEP_RUN),  # likewise: it can decide nothing
        Rule(When.PAYS_FULL, Do.SCORE_BOX, "yatzy"),
    ]
    positions = sample(rules, tuple(guide), 15, "search")
    table = LossTable(positions, [*candidates(rules), *guide])
    before = table.total([table.row[r] for r in guide])
    short = Search(table, guide, count=10, min_gain=0.0)
    short.drop_idle()  # a short list keeps its idle lines: a rare position may need them
    assert idle in short.guide and Rule(When.FOUR_RUN, Do.KEEP_RUN) in short.guide
    search = Search(table, guide, count=2, min_gain=0.0)
    search.drop_idle()  # a full list gives their lines to rules that save points, one by one while full
    assert idle not in search.guide and Rule(When.FOUR_RUN, Do.KEEP_RUN) not in search.guide
    assert table.total(search.order) == pytest.approx(before)  # they decided nothing
    search.run(moves=3)
    after = table.total(search.order)
    assert after < before and len(search.guide) <= 2
    assert after == pytest.approx(sum(p.guide_loss(tuple(search.guide)) for p in positions))  # the table = the bot


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_the_stage_conditions_are_translated(lang: str) -> None:
    rules = find_rules("yatzy")
    new = [
        Rule(When.ON_PACE, Do.KEEP_MOST),
        Rule(When.BEHIND_PACE, Do.KEEP_FOR, "6"),
        Rule(When.BONUS_SETTLED, Do.SCORE_BOX, "chance"),
        Rule(When.OPEN_AT_LEAST, Do.KEEP_MOST, None, 7),
        Rule(When.OPEN_AT_MOST, Do.SCORE_BOX, "yatzy", 3),
    ]
    english = [r.words(rules) for r in new]
    set_language(lang)
    try:
        translated = [r.words(rules) for r in new]
    finally:
        set_language("en")
    for en, other, rule in zip(english, translated, new, strict=True):
        condition = en.split(":")[0]
        assert condition not in other, (lang, rule)  # the condition is translated, not left in English
        if rule.n:
            assert str(rule.n) in other
    assert np.all([w.endswith(".") for w in translated])
