"""Issue 25, item 13: every decimal the game's words print (coach "to win" advice, end-of-game review, win
review) uses the decimal comma in es and pt_BR and the point in English."""

from __future__ import annotations

import re

import pytest

from cubilete.engine.actions import Score
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.i18n import speaking
from cubilete.play import coach
from cubilete.play.coach_win import TwoWays, two_ways_lines
from cubilete.play.win_review import WinDecision, WinReview, win_review_lines
from cubilete.tui.screens.end import review_lines

POINT = re.compile(r"\d\.\d")  # a decimal point between digits
COMMA = re.compile(r"\d,\d")


def advice(slot: str, expected: float, win: float) -> coach.Advice:
    return coach.Advice("score", slot, 6, (), (), expected, 0.0, Score(slot), win)


def game() -> Game:
    return Game(find_rules("generala"), ["Ana", "Beto"], seed=1)


def two_ways_text() -> str:
    both = TwoWays(advice("6", 160.56, 0.3012), advice("2", 158.04, 0.4590), 2)
    return "\n".join(two_ways_lines(game(), both))


def review_text() -> str:
    worst = coach.Decision(0, "Ana", 3, 2, (2, 3, 6, 4, 6), "score 2", "score 6", 4.25)
    review = coach.Review([worst], {"Ana": 7.45}, {"Ana": [worst]})
    return "\n".join(review_lines(game(), review))


def win_review_text() -> str:
    worst = WinDecision("Ana", 3, 2, (2, 3, 6, 4, 6), "score 6", "score 2", 0.1234)
    return "\n".join(win_review_lines(WinReview([worst], {"Ana": 0.1534})))


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
@pytest.mark.parametrize(
    ("words", "numbers"),
    [
        (two_ways_text, ["160,6", "30,1", "158,0", "45,9", "2,5", "15,8"]),
        (review_text, ["7,5", "4,2"]),  # 4.25 rounds half to even, as Python's format does
        (win_review_text, ["15,3", "12,3"]),
    ],
)
def test_decimal_comma_in_spanish_and_portuguese(words: object, numbers: list[str], lang: str) -> None:
    assert callable(words)
    with speaking(lang):
        text = words()
    assert not POINT.search(text), text
    for n in numbers:
        assert n in text, (n, text)


@pytest.mark.parametrize("words", [two_ways_text, review_text, win_review_text])
def test_decimal_point_in_english(words: object) -> None:
    assert callable(words)
    with speaking("en"):
        text = words()
    assert POINT.search(text) and not COMMA.search(text), text

