"""Heads-up, where the two-player table is built, the one chance to win (:mod:`cubilete.win.chance`) is
the table's exact value, and the hint, the replay chart and the review show that same number."""

from __future__ import annotations

import itertools
import random

import pytest

from cubilete.duel.cache import shared_duel
from cubilete.engine.actions import Roll, Score
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.play.bots.exact import exact_options
from cubilete.play.coach import hint
from cubilete.play.win_review import chance_timeline, win_review, win_review_lines
from cubilete.win.chance import chance, option_chances


def played(rules: Rules, seed: int) -> list[Game]:
    """Every position of a seeded random heads-up game, each a fresh replay."""
    rng = random.Random(seed)
    game = Game(rules, ["Ana", "Beto"], seed=seed)
    history = []
    out = [Game(rules, ["Ana", "Beto"], seed=seed)]
    while not game.is_over:
        action = rng.choice(game.legal_actions())
        game.apply(action)
        history.append(action)
        copy = Game(rules, ["Ana", "Beto"], seed=seed)
        for a in history:
            copy.apply(a)
        out.append(copy)
    return out


def test_the_start_is_the_tables_first_player_value(mini: Rules) -> None:
    solution = shared_duel(mini)
    start = chance(Game(mini, ["Ana", "Beto"], seed=1))
    assert start.exact
    assert start[0] == solution.first_player_wins  # seat 0 moves first (SEAT_ORDER)
    assert start[1] == 1.0 - solution.first_player_wins


@pytest.mark.parametrize("seed", [1, 2, 3, 4])
def test_every_position_has_the_tables_value_and_the_hint_agrees(mini: Rules, seed: int) -> None:
    phases = set()
    for game in played(mini, seed):
        now = chance(game)
        assert now.exact
        assert sum(now.probabilities) == pytest.approx(1.0, abs=1e-12)
        st = game.state
        phases.add(st.phase)
        if st.phase is Phase.OVER:
            assert now.probabilities == tuple(1.0 / len(st.winners) if i in st.winners else 0.0 for i in range(2))
            continue
        table = exact_options(game)  # the exact bot reads the two-player table directly
        assert table.exact
        assert now[st.current] == pytest.approx(table[0].expected, abs=1e-12)
        if st.phase is Phase.PLAY and st.turn.throws > 0:
            ranked, exact = option_chances(game)
            advice, hint_exact = hint(game, top=3, win=True)
            assert exact and hint_exact
            assert ranked[0].win == now[st.current] == advice[0].win
    assert Phase.OVER in phases


def test_the_replay_chart_and_the_review_use_the_exact_chance(mini: Rules) -> None:
    solution = shared_duel(mini)
    game = played(mini, 2)[-1]
    timeline = chance_timeline(game)
    assert timeline.exact
    assert timeline.chances[0] == (solution.first_player_wins, 1.0 - solution.first_player_wins)
    review = win_review(game, {"Ana", "Beto"})
    assert review is not None and review.decisions
    # what each player gave up is the sum of the exact bot's losses of the options played
    given_up = {"Ana": 0.0, "Beto": 0.0}
    positions = played(mini, 2)
    for before, after in itertools.pairwise(positions):
        st = before.state
        if st.phase is not Phase.PLAY or st.turn.throws == 0:
            continue
        action = after.history[-1]
        kept = tuple(sorted(st.turn.dice[p] for p in action.keep)) if isinstance(action, Roll) else None
        options = exact_options(before)
        chosen = next(o for o in options if (isinstance(action, Score) and o.kind == "score" and o.slot == action.slot)
                      or (kept is not None and o.kind == "keep" and tuple(sorted(o.keep)) == kept))
        given_up[st.seats[st.current].name] += chosen.loss
    assert review.total == pytest.approx(given_up, abs=1e-9)
    assert review.exact and "estimated" not in win_review_lines(review)[0]
