"""The bot protocol, the random bot and the bot factory."""

from __future__ import annotations

import pytest

from cubilete.engine.actions import Roll, Score, Stand
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.errors import UnknownBotError
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules, preset_names
from cubilete.engine.state import Phase
from cubilete.play.bots import RandomBot, Strategy, is_bot_spec, make_bot


def play_out(game: Game, bots: list[Strategy]) -> None:
    """Let the bots play the game to its end (apply refuses any illegal action)."""
    for _ in range(5000):
        if game.is_over:
            return
        action = bots[game.state.current].choose(game)
        assert action in game.legal_actions()
        game.apply(action)
    raise AssertionError("the game did not end")


class TestRandomBot:
    @pytest.mark.parametrize("preset", preset_names())
    def test_plays_every_preset_to_the_end_with_legal_moves(self, preset: str) -> None:
        game = Game(find_rules(preset), ["bot", "bot-2"], seed=f"bots-{preset}")
        play_out(game, [RandomBot(seed="a"), RandomBot(seed="b")])
        assert game.is_over
        if game.state.reason is not None and game.state.reason.value != "instant-win":
            # each player used every turn, or filled the sheet sooner (a scratched Generala closes Doble)
            for seat in game.state.seats:
                assert seat.turns_taken == game.rules.turns or all(v is not None for v in seat.card)

    def test_same_seed_same_game(self) -> None:
        histories = []
        for _ in range(2):
            game = Game(find_rules("generala"), ["a", "b"], seed=11)
            play_out(game, [RandomBot(seed=5), RandomBot(seed=6)])
            histories.append(list(game.history))
        assert histories[0] == histories[1]

    def test_different_seeds_play_differently(self) -> None:
        histories = []
        for bot_seed in ("x", "y"):
            game = Game(find_rules("yahtzee"), ["a"], seed=11)
            play_out(game, [RandomBot(seed=bot_seed)])
            histories.append(list(game.history))
        assert histories[0] != histories[1]

    def test_choice_depends_only_on_seed_and_position(self) -> None:
        # asking twice (e.g. after an undo) gives the same answer: nothing hidden advances
        game = Game(find_rules("generala"), ["a"], seed=3)
        bot = RandomBot(seed=9)
        game.apply(Roll())
        assert bot.choose(game) == bot.choose(game)
        first = bot.choose(game)
        game.apply(first)
        game.undo()
        assert bot.choose(game) == first

    def test_does_not_change_the_game(self) -> None:
        game = Game(find_rules("generala"), ["a", "b"], seed=4)
        bot = RandomBot(seed=1)
        for _ in range(30):
            if game.is_over:
                break
            state, history, throws = game.state, list(game.history), list(game.throws)
            action = bot.choose(game)
            assert game.state is state and game.history == history and game.throws == throws
            game.apply(action)

    def test_first_throw_keeps_nothing(self) -> None:
        for seed in range(20):
            game = Game(find_rules("generala"), ["a"], seed=seed)
            assert RandomBot(seed=seed).choose(game) == Roll()

    def test_scores_more_often_as_the_throws_go_by(self) -> None:
        # scoring chance grows: about 1/3 after throw 1, 2/3 after throw 2, always after the last
        scored = {1: 0, 2: 0, 3: 0}
        trials = 300
        for seed in range(trials):
            game = Game(find_rules("generala"), ["a"], seed=f"s{seed}")
            game.apply(Roll())
            bot = RandomBot(seed=seed)
            for throw in (1, 2, 3):
                action = bot.choose(game)
                scored[throw] += isinstance(action, Score)
                if throw < 3:
                    game.apply(Roll((0,)))
        assert 0.2 * trials < scored[1] < 0.47 * trials
        assert 0.53 * trials < scored[2] < 0.8 * trials
        assert scored[3] == trials

    def test_prefers_a_box_that_pays(self) -> None:
        # 3 4 5 6 1 pays in the upper boxes and Escalera; the bot never scratches while something pays
        for seed in range(50):
            game = Game(find_rules("generala"), ["a"], dice=ScriptedDice([[3, 4, 5, 6, 2], [2], [1]]), seed=1)
            game.apply(Roll())
            game.apply(Roll((0, 1, 2, 3)))
            game.apply(Roll((0, 1, 2, 3)))
            action = RandomBot(seed=seed).choose(game)
            assert isinstance(action, Score)
            assert action.slot in {"1", "3", "4", "5", "6", "escalera"}

    def test_calls_em_baixo_sometimes_in_bozo(self) -> None:
        calls = 0
        for seed in range(100):
            game = Game(find_rules("bozo"), ["a"], seed=seed)
            action = RandomBot(seed=seed).choose(game)
            assert isinstance(action, Roll) and action.keep == ()
            calls += action.face_down
        assert 5 < calls < 40

    def test_tie_break_stands_or_throws(self) -> None:
        # one box "1"; both players score 1 one: tie, then a tie-break round
        rules = find_rules("generala").replace(boxes=(find_rules("generala").box("1"),), name="ones")
        throws = [[6], [1], [1, 2, 2, 2, 2], [1, 3, 3, 3, 3]] + [[1, 1, 2, 2, 2]] * 20
        game = Game(rules, ["a", "b"], dice=ScriptedDice(throws), seed=1)
        for _ in range(2):
            game.apply(Roll())
            game.apply(Score("1"))
        assert game.state.phase is Phase.TIEBREAK
        game.apply(Roll())
        action = RandomBot(seed=2).choose(game)
        assert isinstance(action, Roll | Stand)
        assert action in game.legal_actions()

    def test_refuses_when_the_game_is_over(self) -> None:
        game = Game(find_rules("generala"), ["a"], dice=ScriptedDice([[5, 5, 5, 5, 5]]), seed=1)
        game.apply(Roll())  # Generala servida: instant win
        assert game.is_over
        with pytest.raises(ValueError, match="game is over"):
            RandomBot(seed=1).choose(game)


class TestFactory:
    @pytest.mark.parametrize("spec", ["bot", "bot:random", "BOT", " Bot:Random "])
    def test_random_bot_specs(self, spec: str) -> None:
        bot = make_bot(spec, seed=1)
        assert isinstance(bot, RandomBot)
        assert bot.name == "random"

    def test_unknown_level_lists_the_levels(self) -> None:
        message = r"unknown bot level 'genius' in 'bot:genius'; levels: random, greedy"
        with pytest.raises(UnknownBotError, match=message):
            make_bot("bot:genius")

    def test_not_a_bot(self) -> None:
        with pytest.raises(UnknownBotError, match=r"'Ana' is not a bot"):
            make_bot("Ana")
        assert not is_bot_spec("Roberto") and not is_bot_spec("robot")

    def test_seeded_bots_from_the_factory_repeat(self) -> None:
        game = Game(find_rules("generala"), ["a"], seed=2)
        game.apply(Roll())
        assert make_bot("bot", seed=8).choose(game) == make_bot("bot:random", seed=8).choose(game)
