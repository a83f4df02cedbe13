"""Approximate heads-up win play (cubilete.win.approx): against the exact win values where the tables
exist, decided games played for points, the win bot, chances and coach on Yahtzee, unsupported seats."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from tests.solver.test_oracle import YAHTZEE_SMALL

from cubilete.engine.actions import Roll
from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.play.bots import make_bot
from cubilete.play.coach import hint
from cubilete.solver.advisor import advise, sheet_state
from cubilete.win.approx import approx_win_options, game_approx_win_options, moments_of, sheet_moments
from cubilete.win.chance import chance, option_chances
from cubilete.win.distribution import Distribution, forward_distribution, pmf_of
from cubilete.win.odds import seat_distribution
from cubilete.win.play import win_options

# The model's stated error against the exact win values (Generala and a reduced Yahtzee, heads-up, no
# instant wins on either side): each option's chance within MAX_ERROR, on average within MEAN_ERROR, and the
# options it picks give up on average at most MEAN_REGRET of exact chance against the exact best (at most
# MAX_REGRET). Bounds set for the normal-only model (before the exact tail), which the tail meets with room
# (benchmarks/win_approx_accuracy.py).
MAX_ERROR = 0.35
MEAN_ERROR = 0.08
MAX_REGRET = 0.15
MEAN_REGRET = 0.02


def key(o: object) -> tuple[object, ...]:
    return (o.kind, o.slot, o.keep)  # type: ignore[attr-defined]


def positions(rules: Rules, count: int) -> list[Game]:
    """Heads-up games stopped at a decision after a seeded number of optimal moves."""
    bot = make_bot("bot:optimal", 1)
    out = []
    for seed in range(count):
        game = Game(rules, ["a", "b"], seed=f"approx-{seed}")
        stop = random.Random(seed).randrange(1, 2 * rules.turns * rules.throws)
        moves = 0
        while game.state.phase is Phase.PLAY:
            if game.state.turn.throws == 0:
                game.apply(Roll())
                continue
            moves += 1
            if moves >= stop:
                out.append(game)
                break
            game.apply(bot.choose(game))
    return out


def shares_of(d: Distribution) -> np.ndarray:
    """G[s] = P(Y < s) + P(Y = s) / 2 for a final score Y of distribution d, s = 0 .. 3,000."""
    pmf = np.zeros(3_001)
    for score, p in d.pairs():
        pmf[score] += p
    return np.cumsum(pmf) - pmf + 0.5 * pmf


@pytest.mark.parametrize("rules", [find_rules("generala"), YAHTZEE_SMALL], ids=["generala", "mini-yahtzee-3"])
def test_estimates_are_near_the_exact_win_values(rules: Rules) -> None:
    errors, regrets = [], []
    for game in positions(rules, 30):
        st = game.state
        me = game.seat()
        rival = seat_distribution(game, 1 - st.current)
        exact = {key(w.option): w.win for w in win_options(rules, me.card, st.turn.dice, st.turn.throws, [rival])}
        approx = approx_win_options(
            rules, me.card, st.turn.dice, st.turn.throws, (rival.mean, rival.sd**2), opponent_shares=shares_of(rival)
        )
        assert {key(w.option) for w in approx} == set(exact)  # the same, legal, options
        errors += [abs(w.win - exact[key(w.option)]) for w in approx]
        regrets.append(max(exact.values()) - exact[key(approx[0].option)])
    assert len(regrets) >= 20
    assert max(errors) <= MAX_ERROR
    assert float(np.mean(errors)) <= MEAN_ERROR
    assert max(regrets) <= MAX_REGRET
    assert float(np.mean(regrets)) <= MEAN_REGRET


@pytest.mark.parametrize("opponent", [(10_000.0, 0.0), (2.0, 0.0)], ids=["lost", "won"])
def test_a_decided_game_is_played_for_points(opponent: tuple[float, float]) -> None:
    """Out of reach of a finished opponent, or past it (3 points against 2: points never fall)."""
    rules = find_rules("yahtzee")
    card: list[int | None] = [3 if s == "1" else None for s in rules.slots]
    for hand, throw in [((1, 1, 2, 5, 6), 1), ((3, 3, 3, 4, 6), 2), ((2, 3, 4, 5, 5), 3)]:
        ranked = approx_win_options(rules, card, hand, throw, opponent)
        assert len({w.win for w in ranked}) == 1  # every option wins (or loses) for sure
        best = advise(moments_of(rules).solution, card, hand, throw)[0]  # the points choice
        assert key(ranked[0].option) == key(best)


def test_behind_late_it_values_what_can_still_win() -> None:
    """Yatzy, only Chance and Yatzy open, 2 2 2 2 5 after the first throw, 40 points behind a finished
    opponent: Chance now (13) leaves only a Yatzy next turn (about 4.6%); keeping the
    four 2s makes the Yatzy now with 11/36 (a fifth 2 in two throws of one die), a sure win."""
    rules = find_rules("yatzy")
    card = [None if s in ("chance", "yatzy") else 0 for s in rules.slots]
    ranked = approx_win_options(rules, card, (2, 2, 2, 2, 5), 1, (40.0, 0.0))
    best = ranked[0]
    assert best.option.kind == "keep" and best.option.keep == (2, 2, 2, 2)
    assert 11 / 36 - 1e-9 <= best.win <= 11 / 36 + 0.05  # the rest: a Yatzy next turn after a miss
    chance_box = next(w for w in ranked if w.option.slot == "chance")
    assert chance_box.win < 0.05


def test_the_opponents_moments_are_the_solvers() -> None:
    rules = find_rules("yahtzee")
    m = moments_of(rules)
    mean, var = sheet_moments(m, [None] * len(rules.slots))
    assert mean == pytest.approx(254.5877, abs=1e-3)  # the published optimum
    assert var**0.5 == pytest.approx(m.solution.std_dev, abs=1e-9)


@pytest.mark.parametrize("open_boxes", [("chance", "yatzy"), ("1", "2", "small straight"), ("3",)])
def test_the_tail_is_the_exact_distribution_of_the_points_to_come(open_boxes: tuple[str, ...]) -> None:
    """The tail's row of a Yatzy sheet with few boxes open is the forward pass's distribution (win/forward.py)."""
    rules = find_rules("yatzy")
    m = moments_of(rules)
    card = [None if s in open_boxes else (3 if s == "1" else 0) for s in rules.slots]
    mask, fl, u = sheet_state(m.solution, card)
    assert m.idx[mask] >= 0
    tail = pmf_of(m.tail[m.idx[mask], fl, u])
    exact = forward_distribution(rules, card)
    so_far = sum(v or 0 for v in card)
    for score, p in exact.pairs():
        assert tail[score - so_far] == pytest.approx(p, abs=1e-12)
    assert float(tail.sum()) == pytest.approx(1.0, abs=1e-12)
    assert so_far + float(np.dot(tail, np.arange(tail.size))) == pytest.approx(exact.mean, abs=1e-9)


def test_the_opponents_share_table_is_exact_in_the_tail_and_normal_before() -> None:
    rules = find_rules("yatzy")
    m = moments_of(rules)
    late = [None if s in ("chance", "yatzy") else 0 for s in rules.slots]
    G = m.share_table(late)
    d = forward_distribution(rules, late)
    assert np.allclose(G[: 300], shares_of(d)[: 300], atol=1e-12)
    early = [None] * len(rules.slots)
    mean, _ = sheet_moments(m, early)
    G = m.share_table(early)
    assert G[round(mean)] == pytest.approx(0.5, abs=0.02) and G[0] < 1e-6 and G[-1] > 1 - 1e-9
    done_card = [5] * len(rules.slots)
    G = m.share_table(done_card)
    assert (G[74], G[75], G[76]) == (0.0, 0.5, 1.0)


def test_a_server_never_builds_the_tail_on_a_requests_behalf(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Inside ``tables_only`` (a server answering) a missing tail is not built (minutes of CPU): every sheet
    is valued by the normal, and nothing is written; outside it the same call builds and caches the tail."""
    from cubilete.solver.cache import tables_only
    from cubilete.win.approx import TAIL_TURNS, tail_of, tail_path

    solution = moments_of(YAHTZEE_SMALL).solution
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))  # an empty cache: no tail on disk
    with tables_only():
        idx, tail = tail_of(solution)
    assert (idx == -1).all() and tail.shape[0] == 0 and not tail_path(YAHTZEE_SMALL, TAIL_TURNS).exists()
    idx, tail = tail_of(solution)
    assert (idx >= 0).any() and tail.shape[0] > 0 and tail_path(YAHTZEE_SMALL, TAIL_TURNS).exists()


def heads_up_yahtzee(seats: int = 2) -> Game:
    game = Game(find_rules("yahtzee"), [f"p{i}" for i in range(seats)], seed="approx")
    game.apply(Roll())
    return game


def test_the_win_bot_on_yahtzee_is_approximate_not_a_fallback() -> None:
    game = heads_up_yahtzee()
    bot = make_bot("bot:win", 1)
    analysis = bot.analyse(game)
    assert "approximate" in analysis.note and "optimal bot" not in analysis.note
    assert not analysis.exact
    assert all(0.0 <= o.expected <= 1.0 for o in analysis)
    assert bot.choose(game) in game.legal_actions()
    assert analysis[0].expected == pytest.approx(game_approx_win_options(game)[0].win)


def test_a_whole_heads_up_yatzy_game_is_legal() -> None:
    game = Game(find_rules("yatzy"), ["w", "o"], seed="whole")
    bots = [make_bot("bot:win", 1), make_bot("bot:optimal", 1)]
    while not game.is_over:
        action = bots[game.state.current].choose(game)
        assert action in game.legal_actions()
        game.apply(action)


def test_three_seats_fall_back_with_a_clear_reason() -> None:
    game = heads_up_yahtzee(3)
    with pytest.raises(SolverUnsupportedError, match="heads-up only"):
        game_approx_win_options(game)
    analysis = make_bot("bot:win", 1).analyse(game)
    assert "heads-up only (two players), not 3" in analysis.note and "optimal bot" in analysis.note


def test_chances_and_the_coach_say_approximate() -> None:
    game = heads_up_yahtzee()
    now = chance(game)
    assert not now.exact and now.note.startswith("approximate")
    assert sum(now.probabilities) == pytest.approx(1.0, abs=1e-12)
    ranked, exact = option_chances(game)
    assert not exact and now[game.state.current] == pytest.approx(ranked[0].win)
    advice, exact = hint(game, top=3, win=True)
    assert not exact and advice[0].win == pytest.approx(ranked[0].win)


def test_the_compiled_chooser_plays_the_python_bots_moves() -> None:
    """The measurement loop's chooser (benchmarks/win_approx.py) against approx_win_options, decision by decision."""
    from cubilete.simulate.fastsim import build_params
    from cubilete.simulate.fastsim.approx_duel import choose_approx
    from cubilete.simulate.fastsim.kernels import SCORE_BASE
    from cubilete.win.approx import approx_turn_start_win
    from cubilete.win.approx_kernels import approx_turn

    rules = find_rules("yahtzee")
    m = moments_of(rules)
    sol, T, P = m.solution, m.solution.tables, build_params(rules)
    d = sol.space.dice
    checked = late = 0
    for game in positions(rules, 30):
        st, me = game.state, game.seat()
        rival = st.seats[1 - st.current]
        opp = sheet_moments(m, rival.card, rival.extra_bonuses, rival.turns_taken)
        mask, fl, u = sheet_state(sol, me.card)
        so_far = game.totals()[st.current]
        S1, S23, E = (np.empty((d.n_hands, 1)) for _ in range(3))
        Kw, M = np.zeros((rules.throws + 1, d.n_keeps, 1)), np.empty((d.n_keeps, 1))
        G = m.share_table(rival.card, rival.extra_bonuses, rival.turns_taken)
        approx_turn(
            T, sol.values, m.variance, mask, fl, u, so_far - opp[0], opp[1], so_far, m.idx, m.tail, G, S1, S23, E, Kw, M
        )  # fmt: skip
        Ks, have = np.zeros((rules.throws + 1, d.n_keeps)), np.zeros(1, dtype=np.bool_)
        h = d.index(tuple(sorted(st.turn.dice)))
        c = choose_approx(
            T, sol.values, m.variance, Ks, Kw, P.sub_ptr, P.sub_list, mask, fl, u, h, st.turn.throws, so_far,
            so_far - opp[0], opp[1], m.idx, m.tail, G, have,
        )  # fmt: skip
        best = game_approx_win_options(game)[0].option
        if c >= SCORE_BASE:
            assert (best.kind, best.slot) == ("score", rules.slots[c - SCORE_BASE])
        else:
            assert (best.kind, best.keep) == ("keep", d.keeps[c])
        checked += 1
        late += int(m.idx[mask] >= 0 or m.idx[sheet_state(sol, rival.card)[0]] >= 0)
        assert 0.0 <= approx_turn_start_win(game) <= 1.0
    assert checked >= 25 and late >= 3  # some decisions in the exact tail
