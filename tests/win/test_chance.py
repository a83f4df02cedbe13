"""One chance to win per position: the panel's number is the hint's best "to win" number at a decision
(:mod:`cubilete.win.chance`), on Generala heads-up and with three players."""

from __future__ import annotations

import random

import pytest

from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.play.coach import hint
from cubilete.play.coach_win import two_ways, two_ways_lines
from cubilete.win.chance import chance, option_chances

GENERALA = find_rules("generala")




def replayed(players: int, seed: int, moves: int) -> list[Game]:
    """The positions of a seeded random game after each of its first ``moves`` moves (fresh replays)."""
    out = []
    rng = random.Random(seed)
    history = []
    game = Game(GENERALA, [f"P{i + 1}" for i in range(players)], seed=seed)
    for _ in range(moves):
        if game.is_over:
            break
        action = rng.choice(game.legal_actions())
        game.apply(action)
        history.append(action)
        copy = Game(GENERALA, [f"P{i + 1}" for i in range(players)], seed=seed)
        for a in history:
            copy.apply(a)
        out.append(copy)
    return out


@pytest.mark.parametrize(("players", "seed"), [(2, 3), (2, 11), (3, 5)])
def test_at_every_decision_the_panel_shows_the_hints_best_chance(players: int, seed: int) -> None:
    checked = 0
    for game in replayed(players, seed, 12):
        now = chance(game)
        assert sum(now.probabilities) == pytest.approx(1.0, abs=1e-9)
        assert all(0.0 <= p <= 1.0 for p in now.probabilities)
        if game.state.turn.throws == 0 or game.is_over:
            continue
        ranked, exact = option_chances(game)
        advice, _ = hint(game, top=3, win=True)
        me = game.state.current
        assert now[me] == pytest.approx(ranked[0].win, abs=1e-12)
        assert advice[0].win == pytest.approx(now[me], abs=1e-12)
        assert exact == now.exact is False  # no two-player table of full Generala in a test: estimated
        checked += 1
    assert checked >= 3


def test_the_hint_lines_say_estimated_when_the_chance_is_not_exact() -> None:
    game = next(g for g in replayed(3, 5, 12) if g.state.turn.throws > 0)
    both = two_ways(game)
    assert both is not None and not both.exact
    lines = two_ways_lines(game, both)
    assert any("estimated" in line for line in lines)
    best = 100 * chance(game)[game.state.current]
    assert f"{best:.1f}% to win" in " ".join(lines)


@pytest.mark.parametrize(("name", "label"), [("general-4-columns", "estimated"), ("yahtzee", "approximate")])
def test_rules_without_tables_get_the_estimate_marked_not_exact(name: str, label: str) -> None:
    game = Game(find_rules(name), ["Ana", "Beto"], seed=1)
    game.apply(game.legal_actions()[0])  # a throw
    now = chance(game)
    assert not now.exact and now.note.startswith(label)
    assert sum(now.probabilities) == pytest.approx(1.0, abs=1e-9)
