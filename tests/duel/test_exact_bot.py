"""The ``exact`` bot: heads-up play from the two-player table, and its analysis in P(win)."""

from __future__ import annotations

import math

from cubilete.duel.cache import shared_duel
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import EndReason
from cubilete.play.bots import make_bot
from cubilete.play.bots.exact import ExactBot


def play(rules: Rules, seed: str, bots: tuple[str, str]) -> Game:
    game = Game(rules, ["ana", "beto"], seed=seed)
    players = [make_bot(spec, seed=seed) for spec in bots]
    while not game.is_over:
        game.apply(players[game.state.current].choose(game))
    return game


def first_seat_score(game: Game) -> float:
    winners = game.state.winners
    return 0.5 if len(winners) == 2 else float(winners == (0,))


class TestExactBot:
    def test_registered(self) -> None:
        assert isinstance(make_bot("bot:exact", seed=1), ExactBot)

    def test_turn_start_analysis_is_the_table_value(self, mini: Rules) -> None:
        sol = shared_duel(mini)
        game = Game(mini, ["ana", "beto"], seed="s")
        analysis = make_bot("bot:exact").analyse(game)
        assert analysis.exact and "winning" in analysis.note
        assert math.isclose(analysis[0].expected, sol.first_player_wins, abs_tol=1e-12)

    def test_options_are_probabilities_best_first(self, mini: Rules) -> None:
        game = Game(mini, ["ana", "beto"], seed="o")
        bot = make_bot("bot:exact")
        game.apply(bot.choose(game))  # the first throw
        if game.is_over:  # a servida generala
            return
        options = bot.analyse(game)
        values = [o.expected for o in options]
        assert values == sorted(values, reverse=True)
        assert all(0.0 <= v <= 1.0 for v in values) and options[0].loss == 0.0
        assert {o.kind for o in options} == {"score", "keep"}

    def test_the_turn_value_is_the_mean_of_the_best_first_throw_choice(self, mini: Rules) -> None:
        # P(win) at the start of the first turn = mean over first throws of (1 for an instant win, else best option)
        sol = shared_duel(mini)
        bot = make_bot("bot:exact")
        import itertools

        from cubilete.engine.dice import ScriptedDice

        total = 0.0
        for dice in itertools.product(range(1, 7), repeat=mini.dice):
            game = Game(mini, ["ana", "beto"], dice=ScriptedDice([dice]))
            game.apply(bot.choose(game))
            total += 1.0 if game.is_over else bot.analyse(game)[0].expected
        assert math.isclose(total / 6**mini.dice, sol.first_player_wins, abs_tol=1e-9)

    def test_self_play_matches_the_first_players_chance(self, mini: Rules) -> None:
        sol = shared_duel(mini)
        n = 400
        scores = [first_seat_score(play(mini, f"g{i}", ("bot:exact", "bot:exact"))) for i in range(n)]
        mean = sum(scores) / n
        assert abs(mean - sol.first_player_wins) < 4 * 0.5 / math.sqrt(n)

    def test_instant_wins_end_games(self, mini: Rules) -> None:
        reasons = {play(mini, f"i{i}", ("bot:exact", "bot:optimal")).state.reason for i in range(60)}
        assert EndReason.INSTANT_WIN in reasons

    def test_three_players_fall_back_to_points(self, mini: Rules) -> None:
        game = Game(mini, ["a", "b", "c"], seed=1)
        analysis = make_bot("bot:exact").analyse(game)
        assert "no two-player table for 3 players" in analysis.note


class TestExactTieBreak:
    def tied_game(self, rules: Rules) -> Game:
        """Both players scratch every box: a tie at 0, then tie-break rounds."""
        from cubilete.engine.actions import Roll, Score

        game = Game(rules, ["ana", "beto"], seed="tie")
        while game.state.phase.value == "play":
            game.apply(Roll())
            if game.is_over:
                break
            slots = [a for a in game.legal_actions() if isinstance(a, Score)]
            zero = [a for a in slots if game.points_now().get(a.slot, 0) == 0]
            game.apply((zero or slots)[0])
        return game

    def test_first_contender_turn_value_is_the_tiebreak_chance(self, mini: Rules) -> None:
        game = self.tied_game(mini)
        assert game.state.phase.value == "tiebreak"  # this seed has no servida generala
        sol = shared_duel(mini)
        analysis = make_bot("bot:exact").analyse(game)
        assert "tie-break" in analysis.note
        # both scratched the Generala: neither can win a tie-break hand at once (the engine's rule)
        assert sol.ties is not None
        assert math.isclose(analysis[0].expected, float(sol.ties[0, 0]), abs_tol=1e-12)

    def test_second_contender_plays_to_beat_the_known_hand(self, mini: Rules) -> None:
        game = self.tied_game(mini)
        bot = make_bot("bot:exact")
        while not game.state.tiebreak_hands:
            game.apply(bot.choose(game))
        assert game.state.phase.value == "tiebreak"  # one hand played, the second contender to throw
        game.apply(bot.choose(game))  # the second contender's first throw
        options = bot.analyse(game)
        assert all(0.0 <= o.expected <= 1.0 for o in options)
        stand = next(o for o in options if o.kind == "stand")
        from cubilete.engine.game import tiebreak_value

        mine = tiebreak_value(mini, game.state.turn.dice, True)
        theirs = game.state.tiebreak_hands[0][1]
        if mine > theirs:
            assert stand.expected == 1.0 and options[0].expected == 1.0
        elif mine < theirs:
            assert stand.expected == 0.0
