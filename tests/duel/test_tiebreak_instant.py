"""A tie-break hand's first throw wins at once, as in the engine (``Game._roll``; seed 000: "en
cualquier tiro se gana la partida"), unless that player scratched the instant-win box.

The oracle (tests/duel/oracle.py) reads the rule from the engine's own test
(``scoring.instant_win`` on each player's final card) in exact fractions; the solver must agree to
1e-12 for every pair of final sheets, and the engine and the solver must name the same winner of
a tie-break hand with a Generala thrown in it.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest
from tests.duel.oracle import tiebreak_first_wins
from tests.duel.test_oracle import LONE_PAIR, TWO_DICE, check_agreement
from tests.solver.test_oracle import game, upper_box

from cubilete.duel import cache
from cubilete.duel.advisor import sheet_number, tiebreak_inputs
from cubilete.duel.cache import shared_duel
from cubilete.duel.solve import solve_duel
from cubilete.duel.tiebreak import first_player_tiebreak, instant_hands, tiebreak_choices
from cubilete.engine.actions import Roll, Score, Stand
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.game import Game
from cubilete.engine.rules.codec import rules_hash
from cubilete.engine.rules.model import Box, Kind, Rules
from cubilete.engine.state import EndReason, Phase
from cubilete.solver.tables import kernel_tables

TOLERANCE = 1e-12


def final_card(rules: Rules, live: bool) -> tuple[int | None, ...]:
    """A full card: every instant-win box holding points (live) or scratched (0), the rest 1."""
    return tuple(
        (0 if not live else 5) if rules.box(rules.slots[j]).instant_win else 1 for j in range(len(rules.slots))
    )


@pytest.mark.parametrize("rules", [TWO_DICE, LONE_PAIR, "mini"], ids=["2d-pair-doble", "2d-lone-pair", "mini-duel"])
@pytest.mark.parametrize("first_live", [True, False])
@pytest.mark.parametrize("second_live", [True, False])
def test_tiebreak_agrees_with_the_exact_oracle(
    rules: Rules | str, first_live: bool, second_live: bool, request: pytest.FixtureRequest
) -> None:
    game_rules: Rules = request.getfixturevalue("mini") if rules == "mini" else rules  # type: ignore[assignment]
    a, b = final_card(game_rules, first_live), final_card(game_rules, second_live)
    exact = tiebreak_first_wins(game_rules, a, b)
    sol = solve_duel(game_rules)
    # the solver's tie-break kernel on each player's instant-win hands, and its table by the final sheets
    T = kernel_tables(sol.joint.space)
    got = first_player_tiebreak(
        game_rules, T, first_wins=instant_hands(game_rules, a), second_wins=instant_hands(game_rules, b)
    )
    assert abs(got - float(exact)) < TOLERANCE
    assert abs(sol.tiebreak_between(sheet_number(sol, a), sheet_number(sol, b)) - float(exact)) < TOLERANCE
    if first_live or second_live:  # the instant win changes the tie-break: the old reading is far off
        assert abs(first_player_tiebreak(game_rules, T) - float(exact)) > 1e-4


def test_usual_tiebreak_is_with_every_instant_win_live(mini: Rules) -> None:
    live = final_card(mini, True)
    assert abs(solve_duel(mini).tiebreak - float(tiebreak_first_wins(mini, live, live))) < TOLERANCE


def tied_game(rules: Rules, scratch: bool, tiebreak_throws: list[tuple[int, ...]]) -> Game:
    """The pocket Generala (Unos, Doses, Generala, Doble), both players writing the same points:
    Generala made on the second throw (or scratched, which closes the Doble), then a tie-break."""
    one, two = [(1, 2, 2)], [(2, 1, 1)]
    generala = [(3, 3, 4)] if scratch else [(3, 3, 4), (3,)]
    doble = [] if scratch else [(4, 4, 5), (4,)]
    turns = [one, two, generala, doble] if not scratch else [one, two, generala]
    script: list[tuple[int, ...]] = []
    for turn in turns:
        script += turn + turn  # each player in turn, the same throws
    game = Game(rules, ["ana", "beto"], dice=ScriptedDice([*script, *tiebreak_throws]))
    for turn, slot in zip(turns, ["1", "2", "generala", "doble"], strict=False):
        for _ in range(2):
            game.apply(Roll())
            if len(turn) == 2:
                game.apply(Roll(keep=(0, 1)))
            game.apply(Score(slot))
    return game


def test_engine_and_solver_agree_on_a_generala_thrown_in_a_tiebreak(mini: Rules) -> None:
    game = tied_game(mini, scratch=False, tiebreak_throws=[(5, 5, 5)])
    assert game.state.phase is Phase.TIEBREAK and game.state.current == 0
    sol = shared_duel(mini)
    first, second = (game.state.seats[i].card for i in game.state.contenders)
    w, first_wins, second_wins = tiebreak_inputs(sol, first, second)
    choices = tiebreak_choices(mini, sol.tables, w, None, (5, 5, 5), 1, (), first_wins, second_wins)
    stand = next(v for kind, v, _ in choices if kind == "stand")
    game.apply(Roll())
    assert game.state.phase is Phase.OVER and game.state.reason is EndReason.INSTANT_WIN
    assert game.state.winners == (0,) and stand == 1.0  # the solver too: the first player has won


def test_a_scratched_generala_does_not_win_a_tiebreak_at_once(mini: Rules) -> None:
    game = tied_game(mini, scratch=True, tiebreak_throws=[(5, 5, 5), (5, 5, 5)])
    assert game.state.phase is Phase.TIEBREAK
    sol = shared_duel(mini)
    first, second = (game.state.seats[i].card for i in game.state.contenders)
    w, first_wins, second_wins = tiebreak_inputs(sol, first, second)
    assert not first_wins.any() and not second_wins.any()
    choices = tiebreak_choices(mini, sol.tables, w, None, (5, 5, 5), 1, (), first_wins, second_wins)
    stand = next(v for kind, v, _ in choices if kind == "stand")
    game.apply(Roll())
    assert game.state.phase is Phase.TIEBREAK  # the engine plays on
    assert stand < 1.0  # the second player may still tie it with a servida of her own
    game.apply(Stand())
    game.apply(Roll())  # the second player's servida Generala: no instant win either, a tie, another round
    game.apply(Stand())
    assert game.state.phase is Phase.TIEBREAK and game.state.tiebreak_round == 2


class TestCachedTables:
    """A table stored under the old reading (format 2, no tie-break per pair of sheets) is not reused."""

    def test_the_tie_breaks_by_sheets_are_stored_and_read_back(self, mini: Rules, tmp_path: Path) -> None:
        sol = solve_duel(mini)
        path = cache.save(sol, tmp_path / "mini.npy")
        back = cache.load(mini, path)
        assert back is not None and back.ties is not None and sol.ties is not None
        assert back.ties.tolist() == sol.ties.tolist() and back.tiebreak == sol.tiebreak

    def test_a_format_2_table_is_solved_again(self, mini: Rules, tmp_path: Path) -> None:
        path = cache.save(solve_duel(mini), tmp_path / "mini.npy")
        meta_path = path.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        old_key = hashlib.sha256(f"duel2:{rules_hash(mini)}".encode()).hexdigest()[:20]
        assert cache.duel_key(mini) != old_key  # the cache file's name moved too: old files are not found
        meta.update(format=2, key=old_key)
        del meta["ties"]
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
        assert cache.load(mini, path) is None

    def test_a_table_without_its_tie_breaks_is_solved_again(self, mini: Rules, tmp_path: Path) -> None:
        path = cache.save(solve_duel(mini), tmp_path / "mini.npy")
        meta_path = path.with_suffix(".json")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        del meta["ties"]
        meta_path.write_text(json.dumps(meta), encoding="utf-8")
        assert cache.load(mini, path) is None


@pytest.mark.parametrize("scratch", [False, True])
def test_exact_chance_and_bot_in_a_tiebreak_read_both_final_sheets(mini: Rules, scratch: bool) -> None:
    from cubilete.play.bots import make_bot
    from cubilete.win.chance import chance

    game = tied_game(mini, scratch=scratch, tiebreak_throws=[])
    sol = shared_duel(mini)
    assert sol.ties is not None
    want = float(sol.ties[0, 0] if scratch else sol.ties[1, 1])  # class 1: the Generala can still win at once
    assert sol.ties[0, 0] != sol.ties[1, 1]
    got = chance(game)
    assert got.exact and abs(got.probabilities[0] - want) < TOLERANCE
    assert abs(make_bot("bot:exact").analyse(game)[0].expected - want) < TOLERANCE


# A pocket Bozó: the "em baixo" call on every throw, a General de boca that wins at once even scratched
# (Bozó's S3) or not (bozo-riscado), a Full-like pair with its +5 de boca.
BOCA_PAIR = Box("full", "Full", Kind.GROUPS, value=10, groups=(2,), first_throw_bonus=5)
GENERAL = Box("general", "General", Kind.GROUPS, value=20, groups=(2,), instant_win=True, win_after_scratch=True)
POCKET_BOZO = game("duel-pocket-bozo", (upper_box(1), BOCA_PAIR, GENERAL), dice=2, throws=2, face_down_call=True)
POCKET_RISCADO = POCKET_BOZO.replace(
    name="duel-pocket-bozo-riscado", boxes=(upper_box(1), BOCA_PAIR, GENERAL.replace(win_after_scratch=False))
)


@pytest.mark.parametrize("rules", [POCKET_BOZO, POCKET_RISCADO], ids=["general-wins-scratched", "riscado"])
def test_pocket_bozo_agrees_with_the_exact_oracle(rules: Rules) -> None:
    assert check_agreement(rules) > 10  # every position the oracle reaches, to 1e-12, tie-break included


def test_a_general_de_boca_wins_at_once_even_scratched() -> None:
    sol = solve_duel(POCKET_BOZO)
    card = final_card(POCKET_BOZO, live=False)
    assert instant_hands(POCKET_BOZO, card).any()
    assert sol.tiebreak_between(sheet_number(sol, card), sheet_number(sol, card)) == sol.tiebreak


def play_exact(rules: Rules, seed: str) -> Game:
    """bot:exact in both seats, through the engine (Bozó's em baixo rolls among the legal actions)."""
    from cubilete.play.bots import make_bot

    game = Game(rules, ["ana", "beto"], seed=seed)
    bots = [make_bot("bot:exact", seed=seed) for _ in range(2)]
    analysed = 0
    while not game.is_over:
        analysis = bots[game.state.current].analyse(game)
        assert analysis.exact, analysis.note  # from the two-player table, not a fallback
        analysed += 1
        game.apply(bots[game.state.current].choose(game))
    assert analysed > 3
    return game


def test_exact_bot_plays_a_pocket_bozo(mini: Rules) -> None:
    rules = POCKET_BOZO.replace(start=mini.start)
    for seed in ("b1", "b2", "b3"):
        assert play_exact(rules, seed).is_over


@pytest.mark.slow
def test_exact_bot_and_chances_on_bozo_heads_up() -> None:
    from cubilete.engine.rules import find_rules
    from cubilete.win.chance import chance

    bozo = find_rules("bozo")
    sol = shared_duel(bozo)  # 119,953,474 values: solved once into the session's cache
    assert 0.0 < sol.first_player_wins < 1.0
    game = play_exact(bozo, "bozo-heads-up")
    assert game.state.phase is Phase.OVER
    assert chance(Game(bozo, ["ana", "beto"], seed="c")).exact
