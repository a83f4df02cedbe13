"""Every bot plays whole games of every preset with legal actions only, reproducibly from its seed."""

from __future__ import annotations

import pytest

from cubilete.engine.errors import SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules, preset_names
from cubilete.play.bots import BOT_LEVELS, Strategy, make_bot
from cubilete.solver import check_solvable

# Quick runs use presets that cover every rule feature (locked holds, fixed order, em baixo,
# instant wins, jokers and bonuses, fewer rounds than boxes, no exact solve); the slow step
# plays every preset.
FEATURES = ["generala", "generala-apartada", "generala-obligada", "generala-espanola", "bozo", "general-12",
            "yahtzee", "maxi-yatzy", "general-4-columns"]
LOOKAHEAD_FEATURES = ["generala", "generala-apartada", "generala-obligada", "bozo", "yahtzee", "yatzy-13"]


pytestmark = pytest.mark.usefixtures("bots_solver_cache")


def play_out(game: Game, bots: list[Strategy]) -> list[object]:
    """Let the bots play the game to its end; every action must be legal and leave the game untouched."""
    for _ in range(5000):
        if game.is_over:
            return list(game.history)
        state, history = game.state, list(game.history)
        action = bots[game.state.current].choose(game)
        assert game.state is state and game.history == history, "choose changed the game"
        assert action in game.legal_actions()
        game.apply(action)
    raise AssertionError("the game did not end")


def assert_finished(game: Game) -> None:
    assert game.is_over
    if game.state.reason is not None and game.state.reason.value != "instant-win":
        for seat in game.state.seats:
            assert seat.turns_taken == game.rules.turns or all(v is not None for v in seat.card)


@pytest.mark.parametrize("preset", preset_names())
@pytest.mark.parametrize("level", ["greedy", "heuristic"])
def test_simple_bots_play_every_preset(level: str, preset: str) -> None:
    game = Game(find_rules(preset), ["a", "b"], seed=f"{level}-{preset}")
    play_out(game, [make_bot(f"bot:{level}", 1), make_bot(f"bot:{level}", 2)])
    assert_finished(game)


def every_preset_but(quick: list[str]) -> list[object]:
    """Every preset: those in ``quick`` as they are, the others marked slow."""
    return [p if p in quick else pytest.param(p, marks=pytest.mark.slow) for p in preset_names()]


@pytest.mark.parametrize("preset", every_preset_but(LOOKAHEAD_FEATURES))
def test_lookahead_plays_every_preset(preset: str) -> None:
    game = Game(find_rules(preset), ["a"], seed=f"look-{preset}")
    play_out(game, [make_bot("bot:lookahead", 1)])
    assert_finished(game)


@pytest.mark.parametrize("preset", every_preset_but(FEATURES))
def test_optimal_plays_every_preset(preset: str) -> None:
    # maxi-yatzy and general-4-columns are refused by the solver: the bot falls back to its search
    game = Game(find_rules(preset), ["a", "b"], seed=f"opt-{preset}")
    play_out(game, [make_bot("bot:optimal", 1), make_bot("bot:strong", 2)])
    assert_finished(game)


@pytest.mark.parametrize("preset", ["generala", "maxi-yatzy"])
@pytest.mark.parametrize("level", ["beginner", "casual"])
def test_levels_play(level: str, preset: str) -> None:
    game = Game(find_rules(preset), ["a"], seed=f"{level}-{preset}")
    play_out(game, [make_bot(f"bot:{level}", 3)])
    assert_finished(game)


def test_the_fallback_presets_are_the_unsolvable_ones() -> None:
    refused = []
    for name in preset_names():
        try:
            check_solvable(find_rules(name))
        except SolverUnsupportedError:
            refused.append(name)
    # maxi-yatzy-no-saved: too large for the in-memory solver; the layered solver's table, once built, is read
    assert sorted(refused) == ["general-4-columns", "maxi-yatzy", "maxi-yatzy-no-saved"]


@pytest.mark.parametrize("level", sorted(BOT_LEVELS))
def test_same_seed_same_game_different_seed_may_differ(level: str) -> None:
    def history(bot_seed: str) -> list[object]:
        game = Game(find_rules("generala"), ["a", "b"], seed="same-dice")
        return play_out(game, [make_bot(f"bot:{level}", bot_seed), make_bot(f"bot:{level}", bot_seed + "x")])

    assert history("s1") == history("s1")


@pytest.mark.parametrize("level", ["random", "beginner", "casual"])
def test_randomised_levels_depend_on_their_seed(level: str) -> None:
    def history(bot_seed: str) -> list[object]:
        game = Game(find_rules("generala"), ["a"], seed="same-dice")
        return play_out(game, [make_bot(f"bot:{level}", bot_seed)])

    assert len({tuple(map(str, history(f"s{k}"))) for k in range(4)}) > 1


@pytest.mark.parametrize("level", sorted(BOT_LEVELS))
def test_choice_is_the_same_after_undo(level: str) -> None:
    game = Game(find_rules("generala"), ["a"], seed=5)
    bot = make_bot(f"bot:{level}", 9)
    for _ in range(7):
        game.apply(bot.choose(game))
    first = bot.choose(game)
    game.apply(first)
    game.undo()
    assert bot.choose(game) == first


def test_play_seats_any_level() -> None:
    from cubilete.present.players import parse_players, seat_bots

    names = parse_players("Ana,bot:optimal,bot:casual,bot:heuristic,bot:optimal")
    assert names == ["Ana", "bot:optimal", "bot:casual", "bot:heuristic", "bot:optimal-2"]
    game = Game(find_rules("generala"), names, seed=4)
    bots = seat_bots(game)
    assert sorted(bots) == [1, 2, 3, 4]
    assert [bots[k].name for k in (1, 2, 3, 4)] == ["optimal", "casual", "heuristic", "optimal"]
