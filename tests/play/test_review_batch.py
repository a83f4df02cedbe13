"""The batched review (one compiled query for every decision of a game) judges exactly as the former
review did: the record replayed and each decision judged alone by ``advise`` (kept in the coach as
``_judge_replayed``, the path rules it can't batch still take).

The reference is independent of the batched path: another query per decision (``advise``, its own
turn memo), the game replayed from its record instead of its recorded states, Python matching of the
action among the options. Equality is exact: the same losses to the last bit.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest

from cubilete import Game, find_rules
from cubilete.engine.rules import Rules
from cubilete.i18n import set_language
from cubilete.play.bots import make_bot
from cubilete.play.coach import _judge_replayed, review
from cubilete.solver import advisor, numpy_twin
from cubilete.solver.cache import shared_solution


@pytest.fixture(scope="module", autouse=True)
def _cache_and_language(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """Solved tables go to a throw-away folder; messages in English."""
    path = tmp_path_factory.mktemp("review-batch-cache")
    mp = pytest.MonkeyPatch()
    mp.setenv("CUBILETE_CACHE_DIR", str(path))
    set_language("en")
    yield path
    mp.undo()


def reduced(name: str, ids: set[str]) -> Rules:
    """A preset on a few of its boxes (solved in a blink, with the features of the whole)."""
    rules = find_rules(name)
    return rules.replace(name=f"{name}-review", boxes=tuple(b for b in rules.boxes if b.id in ids))


PRESETS = {
    "generala": lambda: find_rules("generala"),  # servida, Doble needs Generala, closing scratch
    "generala-obligada": lambda: find_rules("generala-obligada"),  # column order
    "bozo": lambda: find_rules("bozo"),  # em baixo throws
    # upper bonus, forced joker, extra Yahtzee bonus
    "yahtzee-small": lambda: reduced("yahtzee", {"1", "2", "3", "yahtzee", "chance", "three-kind", "full-house"}),
    "yatzy-small": lambda: reduced("yatzy", {"1", "5", "6", "one-pair", "yatzy"}),
}


def played(rules: Rules, players: list[str], seed: int) -> Game:
    """A finished game: the optimal bot's move half the time, a random legal action otherwise."""
    rng = random.Random(seed)
    bot = make_bot("bot:optimal", seed=0)
    game = Game(rules, players, seed=f"batch-{seed}")
    while not game.is_over:
        if game.state.turn.throws and rng.random() < 0.5:
            game.apply(rng.choice(game.legal_actions()))
        else:
            game.apply(bot.choose(game))
    return game


@pytest.mark.parametrize("name", list(PRESETS))
def test_the_batched_review_equals_the_replayed_one(name: str) -> None:
    rules = PRESETS[name]()
    judged = lossy = 0
    for seed in range(6):
        players = ["Ana", "Beto"] if seed % 2 else ["Ana"]
        game = played(rules, players, seed)
        got = review(game, players=players)
        want, exact = _judge_replayed(game, set(players), None)
        assert exact and got.exact
        assert got.decisions == want, (name, seed)  # every field, losses to the last bit
        judged += len(want)
        lossy += sum(d.loss > 0 for d in want)
    assert judged > 30 and lossy > 5  # random moves lose points: the losses are really compared


def test_the_progress_moves_once_per_action() -> None:
    game = played(PRESETS["generala"](), ["Ana"], 3)
    calls: list[tuple[int, int]] = []
    review(game, progress=lambda done, total: calls.append((done, total)))
    n = len(game.history)
    assert calls == [(i, n) for i in range(1, n + 1)]


def test_locked_holds_take_the_replayed_path() -> None:
    rules = find_rules("generala-apartada")
    with pytest.raises(ValueError, match="locked holds"):
        advisor.judge(shared_solution(rules), [])
    game = played(rules, ["Ana"], 1)
    got = review(game)
    assert got.decisions == _judge_replayed(game, {"Ana"}, None)[0]
    assert got.decisions


def test_rules_too_large_to_solve_keep_the_approximate_path() -> None:
    rules = find_rules("maxi-yatzy").replace(name="maxi-review", rounds=2)
    rng = random.Random(5)
    game = Game(rules, ["Ana"], seed="maxi-batch")
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions()))
    got = review(game)
    assert not got.exact
    assert got.decisions == _judge_replayed(game, {"Ana"}, None)[0]


def test_the_numpy_twin_judges_bit_for_bit(monkeypatch: pytest.MonkeyPatch) -> None:
    """While numba is not compiled the batched query runs in numpy (solver/numpy_twin.py): the same rows."""
    rules = PRESETS["yahtzee-small"]()
    sol = shared_solution(rules)
    asked = []
    for seed in range(4):
        game = played(rules, ["Ana"], seed)
        for before, action in zip(game.states, game.history, strict=False):
            turn, seat = before.turn, before.seats[before.current]
            if turn.throws == 0:
                continue
            what = action.slot if hasattr(action, "slot") else tuple(sorted(turn.dice[p] for p in action.keep))
            kind = "score" if isinstance(what, str) else "keep"
            asked.append((seat.card, turn.dice, turn.throws, seat.extra_bonuses, kind, what))
    compiled = advisor.judge(sol, asked)
    q = advisor._query(sol)
    by_numpy = np.empty_like(compiled)
    sit = np.array(
        [
            (*advisor._sheet(q, card)[:3], q.hand_index[tuple(sorted(dice))], throw, 0, 0, 0)
            for card, dice, throw, *_ in asked
        ],
        dtype=np.int64,
    )
    sit[:, 5] = [advisor._sheet(q, c)[3] + e * q.extra_bonus for c, _d, _t, e, *_ in asked]
    sit[:, 6:] = [(0, q.slot_number[w]) if k == "score" else (1, q.index[w]) for *_, k, w in asked]  # type: ignore[index]
    numpy_twin.judge(sol.tables, sol.values, q.keep_list, q.keep_at, sit, by_numpy)
    assert len(asked) > 50 and compiled[:, 0].all()
    assert np.array_equal(compiled, by_numpy)
    # and every row is the advisor's own answer, one query at a time
    for (card, dice, throw, extras, kind, what), row in zip(asked, compiled.tolist(), strict=True):
        options = advisor.advise(sol, card, dice, throw, extras)
        chosen = next(o for o in options if (o.slot if kind == "score" else o.keep) == what and o.kind == kind)
        assert (row[1], row[2], row[6]) == (chosen.points, chosen.expected, options[0].expected)
