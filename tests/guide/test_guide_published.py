"""The Yatzy guide printed in docs/GUIDE.md is the saved, measured guide, and the bot plays exactly its lines."""

from __future__ import annotations

import json
import re
from pathlib import Path

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.guide.bot import GuideBot, first_match
from cubilete.play.guide.distil import prune
from cubilete.play.guide.rules import DEFAULT, Do, Rule, When, act

DOCS = Path(__file__).resolve().parents[2] / "docs"
SHIPPED = Path(__file__).resolve().parents[2] / "src" / "cubilete" / "play" / "guide" / "shipped"


def saved_guide() -> tuple[Rule, ...]:
    rounds = json.loads((SHIPPED / "yatzy.json").read_text())["rounds"]
    return tuple(Rule(When(w), Do(d), b, int(n)) for w, d, b, n in rounds[-1])


def printed_lines() -> list[str]:
    text = (DOCS / "GUIDE.md").read_text()
    section = text.split("### Yatzy (", 1)[1].split("\n### ", 1)[0]
    return [m.group(1) for m in re.finditer(r"^\d+\. (.+)$", section, re.MULTILINE)]


def test_the_printed_yatzy_guide_is_the_saved_one() -> None:
    rules = find_rules("yatzy")
    guide = prune(saved_guide())
    assert len(guide) <= 30
    assert printed_lines() == [rule.words(rules) for rule in (*guide, DEFAULT)]


def test_the_bot_plays_the_first_matching_printed_line() -> None:
    rules, guide = find_rules("yatzy"), saved_guide()
    bot = GuideBot(guide)
    for seed in ("published-1", "published-2"):
        game = Game(rules, ["a"], seed=seed)
        while not game.is_over:
            action = bot.choose(game)
            assert action in game.legal_actions()
            if game.state.turn.throws > 0:
                assert action == act(first_match(guide, game), game)
            game.apply(action)
