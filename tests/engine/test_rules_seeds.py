"""Issue 9: the last disagreements with the seed documents, each test quoting the sentence it follows.

S1 = shared/seeds/000 (La generala), S2 = 002 (Android app text), S3 = 003 (General, jogo).
"""

from __future__ import annotations

import json

import pytest

from cubilete import Game, find_rules
from cubilete.engine.errors import RulesError
from cubilete.engine.record import dumps, loads
from cubilete.engine.rules import Start, rules_from_dict, rules_hash, rules_to_dict
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.engine.state import EndReason, Phase


class TestBozoGeneralDeBoca:
    """Issue 9.3. S3 (Bozó): "No caso do general de boca, é declarada a vitória instantânea do jogador"."""

    def test_a_general_de_boca_wins_after_the_general_box_was_scratched(self, make_table):
        t = make_table("bozo")
        t.turn((1, 2, 3, 4, 6), "general")  # scratched: 0
        assert t.card()["general"] == 0
        t.roll((3, 3, 3, 3, 3))
        assert t.game.is_over
        assert t.state.reason is EndReason.INSTANT_WIN
        assert t.state.winners == (0,)

    def test_the_argentine_exception_is_a_switch(self, make_table):
        """S1: "(excepto si el jugador ha desechado previamente la generala ...)" as the bozo-riscado switch."""
        t = make_table("bozo-riscado")
        t.turn((1, 2, 3, 4, 6), "general")
        t.roll((3, 3, 3, 3, 3))
        assert not t.game.is_over
        assert t.game.points_now()["3"] == 15

    def test_a_quadra_de_boca_is_not_a_win(self, make_table):
        """S3: "Ao fazer uma jogada não numérica ... de boca" scores +5; only the general de boca wins."""
        t = make_table("bozo")
        t.roll((4, 4, 4, 4, 2))
        assert not t.game.is_over
        assert t.game.points_now()["quadra"] == 35


class TestYatzyBrasil:
    """Issue 9.4. S3: "No Yatzy escandinavo, há duas jogadas adicionais: Par e Dois Pares, valendo cada um a
    soma dos 5 dados. Mas, apesar de haver 15 jogadas possíveis, permanecem as 13 rodadas - duas jogadas
    devem ser necessariamente descartadas por cada jogador." """

    def test_the_pair_boxes_pay_the_sum_of_all_five_dice(self, make_table):
        t = make_table("yatzy-brasil")
        t.roll((6, 6, 1, 2, 4))
        assert t.game.points_now()["par"] == 19  # 6+6+1+2+4, not 12
        t.score("par")
        t.roll((5, 5, 3, 3, 1))
        assert t.game.points_now()["dois-pares"] == 17  # 5+5+3+3+1, not 16

    def test_15_boxes_13_rounds_two_stay_unused(self, make_table):
        t = make_table("yatzy-brasil")
        rules = t.game.rules
        assert len(rules.boxes) == 15 and rules.turns == 13
        for slot in rules.slots[:13]:
            t.turn((1, 2, 3, 4, 6), slot)
        assert t.game.is_over
        assert t.card()["general"] is None and t.card()["aleatoria"] is None

    def test_the_straights_follow_the_scandinavian_values_s3_gives(self, make_table):
        """S3: "Também na regra escandinava, a 'seqüência alta' (2-3-4-5-6) vale 20 pontos e a 'seqüência
        baixa' vale 15 pontos"."""
        t = make_table("yatzy-brasil")
        t.roll((6, 5, 4, 3, 2))
        assert t.game.points_now()["seq-alta"] == 20
        t.score("seq-alta")
        t.roll((1, 2, 3, 4, 5))
        assert t.game.points_now()["seq-baixa"] == 15

    def test_it_is_labelled_as_the_brazilian_description(self):
        rules = find_rules("yatzy-brasil")
        assert "Brazil" in rules.title
        assert rules_hash(rules) != rules_hash(find_rules("yatzy-13"))


class TestOrderByStart:
    """Issue 9.5. S1: "cada jugador ... tira un dado, y el que obtenga el número más alto será el que
    comience ... Por otra parte, el que quede en segundo lugar se sentará a su izquierda y así
    sucesivamente"."""

    def game(self, start_throws, players=("Ana", "Beto", "Caro", "Dani"), **changes):
        from cubilete import ScriptedDice

        rules = find_rules("generala").replace(order_by_start=True, **changes)
        return Game(rules, list(players), seed="t", dice=ScriptedDice(start_throws))

    def test_turns_follow_the_rank_of_the_start_throw(self):
        g = self.game([(2,), (6,), (4,), (5,)])
        assert g.state.order == (1, 3, 2, 0)
        assert g.current_player == "Beto"

    def test_tied_players_throw_again_for_their_places(self):
        # Ana and Caro tie on 5 for first place; Beto and Dani tie on 1 for the last places
        g = self.game([(5,), (1,), (5,), (1,), (3,), (4,), (2,), (6,)])
        assert [seat for seat, _ in g.start_throws] == [0, 1, 2, 3, 0, 2, 1, 3]
        assert g.state.order == (2, 0, 3, 1)

    def test_lowest_sum_ranks_from_the_lowest(self):
        """S1: "otro modo consiste en que cada jugador tire los cinco dados, y el que obtenga la suma más baja
        es el que iniciará el juego"."""
        g = self.game([(6, 6, 6, 6, 6), (1, 1, 1, 1, 2), (3, 3, 3, 3, 3)], ("Ana", "Beto", "Caro"),
                      start=Start.LOWEST_SUM)  # fmt: skip
        assert g.state.order == (1, 2, 0)

    def test_without_the_option_only_the_starter_comes_from_the_throw(self):
        """P16 default: after the starter, turns pass in seat order."""
        from cubilete import ScriptedDice

        g = Game(find_rules("generala"), ["Ana", "Beto", "Caro", "Dani"], seed="t",
                 dice=ScriptedDice([(2,), (6,), (4,), (5,)]))  # fmt: skip
        assert g.state.order == (1, 2, 3, 0)

    def test_the_option_needs_a_start_throw(self):
        with pytest.raises(RulesError, match="order_by_start needs a start throw"):
            find_rules("generala").replace(order_by_start=True, start=Start.SEAT_ORDER)

    def test_a_game_with_the_option_replays_from_its_record(self):
        g = self.game([(2,), (6,), (4,), (5,)])
        again = loads(dumps(g))
        assert again.rules.order_by_start
        assert again.state == g.state


class TestCodec:
    """New rule fields go through records, profiles and the rules hash."""

    def test_order_by_start_is_written_only_when_set(self):
        plain = find_rules("generala")
        assert "order_by_start" not in rules_to_dict(plain)
        ranked = plain.replace(order_by_start=True)
        data = rules_to_dict(ranked)
        assert data["order_by_start"] is True
        assert rules_from_dict(json.loads(json.dumps(data))) == ranked
        assert rules_hash(ranked) != rules_hash(plain)

    def test_win_after_scratch_round_trips_and_changes_the_hash(self):
        bozo = find_rules("bozo")
        data = rules_to_dict(bozo)
        assert data["boxes"][-1]["win_after_scratch"] is True  # type: ignore[index]
        assert rules_from_dict(data) == bozo
        assert rules_hash(bozo) != rules_hash(find_rules("bozo-riscado"))

    def test_profiles_set_both(self):
        rules = rules_from_toml('base = "generala"\norder_by_start = true\n[box.generala]\nwin_after_scratch = true\n')
        assert rules.order_by_start and rules.box("generala").win_after_scratch

    def test_win_after_scratch_needs_an_instant_win(self):
        with pytest.raises(RulesError, match="win_after_scratch goes with instant_win"):
            rules_from_toml('base = "generala"\n[box.full]\nwin_after_scratch = true\n')


def test_a_tiebreak_instant_win_replays_from_its_record(make_table):
    """Issue 9.1 in the records: the instant win in a tie-break round replays to the same result."""
    t = make_table(players=["Ana", "Beto"], rounds=1)
    for _ in range(2):
        t.turn((1, 2, 2, 3, 6), "1")
    t.roll((4, 4, 4, 4, 4))
    assert t.state.phase is Phase.OVER and t.state.reason is EndReason.INSTANT_WIN
    again = loads(dumps(t.game))
    assert again.state == t.game.state
    assert json.loads(dumps(again))["reason"] == "instant-win"


class TestS2Examples:
    """The worked examples of S2 (the Android app text), on the default Argentine sheet."""

    def test_upper_boxes_add_the_matching_dice(self, make_table):
        """S2: "Por ejemplo, 4-4-4-2-6 anotaría 4 + 4 + 4 = 12 puntos en "Cuatro" o 2 puntos en "Twos" o
        incluso 6 puntos en "Sixes"."""
        t = make_table()
        t.roll((4, 4, 4, 2, 6))
        t.roll((6,), keep=(0, 1, 2, 3))  # the same hand, armada
        points = t.game.points_now()
        assert (points["4"], points["2"], points["6"]) == (12, 2, 6)

    def test_the_examples_of_the_boxes(self, make_table):
        """S2: "Casa llena. 30 puntos. ... Por ejemplo, 5-5-5-3-3."; "Cuatro de un tipo. 40 puntos. ... Por
        ejemplo, 2-2-2-2-6." (armada; the first throw pays the servida values or bonus)."""
        t = make_table()
        t.roll((5, 5, 5, 3, 1))
        t.roll((3,), keep=(0, 1, 2, 3))
        assert t.game.points_now()["full"] == 30
        t.score("full")
        t.roll((2, 2, 2, 1, 6))
        t.roll((2,), keep=(0, 1, 2, 4))
        assert t.state.turn.dice == (2, 2, 2, 2, 6)
        assert t.game.points_now()["poker"] == 40

    def test_five_of_a_kind_may_go_elsewhere(self, make_table):
        """S2: "uno no necesita ingresar 3-3-3-3-3 en Generala , también puede ir en tres o cuatro de una
        especie" (P7: five equal dice make a Póker)."""
        t = make_table()
        t.roll((3, 3, 3, 3, 1))
        t.roll((3,), keep=(0, 1, 2, 3))
        points = t.game.points_now()
        assert (points["poker"], points["generala"], points["3"]) == (40, 50, 15)


class TestDescribe:
    """The new rule fields in plain words (``cubilete rules show``), in English, Spanish and Portuguese."""

    @pytest.mark.parametrize(
        ("lang", "summary", "general"),
        [
            ("en", "turns follow the start throw: the first, then the second",
             "servida wins the game at once, even after this box was scratched"),
            ("es", "los turnos siguen el tiro inicial: el primero, luego el segundo",
             "servida gana la partida en el acto, aunque este casillero haya sido tachado"),
            ("pt_BR", "os turnos seguem o arremesso inicial: o primeiro, depois o segundo",
             "de mão vence a partida na hora, mesmo depois de riscada esta casa"),
        ],
    )  # fmt: skip
    def test_order_by_start_and_win_after_scratch(self, lang: str, summary: str, general: str) -> None:
        from cubilete.engine.rules.describe import box_rule, rules_summary
        from cubilete.i18n import set_language

        set_language(lang)
        try:
            ranked = find_rules("generala").replace(order_by_start=True)
            assert any(summary in line for line in rules_summary(ranked))
            assert not any(summary in line for line in rules_summary(find_rules("generala")))
            assert general in box_rule(find_rules("bozo").box("general"))
            assert general not in box_rule(find_rules("bozo-riscado").box("general"))
        finally:
            set_language("en")


def test_the_start_lines_say_the_order_comes_from_the_start_throw() -> None:
    from cubilete import ScriptedDice
    from cubilete.present.render import start_lines

    rules = find_rules("generala").replace(order_by_start=True)
    game = Game(rules, ["Ana", "Beto", "Caro"], seed="t", dice=ScriptedDice([(2,), (6,), (4,)]))
    (line,) = start_lines(game)
    assert line.endswith("Playing order, by the start throw: Beto, Caro, Ana")
