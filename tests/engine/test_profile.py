"""House-rule profiles (TOML): a preset with any parameter changed; errors name file:line, key and what is allowed."""

from __future__ import annotations

from pathlib import Path

import pytest

from cubilete import IllegalActionError, Roll, RulesError
from cubilete.engine.rules import (
    Direction,
    Joker,
    Kind,
    Order,
    Points,
    Start,
    TieBreak,
    find_rules,
    load_profile,
    load_rules,
    rules_from_toml,
)
from cubilete.engine.rules.scoring import slot_points, usable_slots

EXAMPLES = Path(__file__).resolve().parents[2] / "examples" / "house-rules"


def same_but_names(a, b) -> bool:
    """Equal rules apart from name, title and description."""
    return a.replace(name="x", title="x", description="") == b.replace(name="x", title="x", description="")


class TestOverrides:
    def test_empty_profile_is_generala(self):
        r = rules_from_toml("")
        assert r.name == "house-rules"
        assert r.title == "Generala (Argentina) (house rules)"
        assert same_but_names(r, find_rules("generala"))

    def test_name_from_the_file(self):
        r = rules_from_toml('base = "yatzy"\n', "profiles/mesa-larga.toml")
        assert r.name == "mesa-larga"
        assert same_but_names(r, find_rules("yatzy"))

    def test_base_by_alias_and_accent(self):
        assert same_but_names(rules_from_toml('base = "Bozó"\n'), find_rules("bozo"))
        assert same_but_names(rules_from_toml('base = "KNIFFEL"\n'), find_rules("yahtzee"))

    def test_every_kind_of_game_field(self):
        r = rules_from_toml(
            """
            base = "generala"
            name = "mesa"
            title = "Mesa"
            description = "todo cambiado"
            dice = 6
            throws = 2
            carry_over_throws = true
            locked_holds = true
            columns = ["down", "free"]
            rounds = 15
            upper_bonus_threshold = 60
            upper_bonus = 30
            extra_bonus_box = "generala"
            extra_bonus = 100
            joker = "free"
            face_down_call = true
            start = "lowest-sum"
            direction = "counter-clockwise"
            tie_break = "shared"
            min_players = 2
            max_players = 4
            """
        )
        assert (r.name, r.title, r.description) == ("mesa", "Mesa", "todo cambiado")
        assert (r.dice, r.throws, r.carry_over_throws, r.locked_holds) == (6, 2, True, True)
        assert r.columns == (Order.DOWN, Order.FREE)
        assert r.slots[11] == "1@2"
        assert r.rounds == 15 and r.turns == 15
        assert (r.upper_bonus_threshold, r.upper_bonus) == (60, 30)
        assert (r.extra_bonus_box, r.extra_bonus, r.joker) == ("generala", 100, Joker.FREE)
        assert r.face_down_call
        assert (r.start, r.direction, r.tie_break) == (Start.LOWEST_SUM, Direction.COUNTER_CLOCKWISE, TieBreak.SHARED)
        assert (r.min_players, r.max_players) == (2, 4)
        assert r.boxes == find_rules("generala").boxes

    def test_one_column_as_a_word(self):
        assert rules_from_toml('columns = "down"\n').columns == (Order.DOWN,)

    def test_box_fields(self):
        r = rules_from_toml(
            """
            [box.escalera]
            value = 30
            first_throw_value = "none"
            first_throw_bonus = 10
            patterns = ["12345", "23456", [6, 5, 4, 3, 1], "12456"]

            [box.poker]
            exact = true
            face_values = { 1 = 80, 6 = 60 }

            [box.generala]
            instant_win = false
            name = "La Generala"

            [box.doble]
            closed_by_scratch = false
            """
        )
        esc = r.box("escalera")
        assert (esc.value, esc.first_throw_value, esc.first_throw_bonus) == (30, None, 10)
        assert esc.patterns == ((1, 2, 3, 4, 5), (2, 3, 4, 5, 6), (1, 3, 4, 5, 6), (1, 2, 4, 5, 6))
        assert r.box("poker").exact
        assert r.box("poker").face_values == ((1, 80), (6, 60))
        assert not r.box("generala").instant_win
        assert r.box("generala").name == "La Generala"
        assert not r.box("doble").closed_by_scratch
        # what they mean: armada 30, servida 30 + 10; 1-2-4-5-6 is an Escalera; Póker of aces 80
        empty = [None] * len(r.slots)
        assert slot_points(r, empty, r.slot_index("escalera"), (1, 2, 4, 5, 6), first_throw=False) == 30
        assert slot_points(r, empty, r.slot_index("escalera"), (1, 2, 4, 5, 6), first_throw=True) == 40
        assert slot_points(r, empty, r.slot_index("poker"), (1, 1, 1, 1, 3), first_throw=False) == 80
        assert slot_points(r, empty, r.slot_index("poker"), (6, 6, 6, 6, 3), first_throw=False) == 60
        assert slot_points(r, empty, r.slot_index("poker"), (6, 6, 6, 6, 6), first_throw=False) == 0  # exact

    def test_remove_and_new_box(self):
        r = rules_from_toml(
            """
            base = "generala"
            remove = ["doble", "1"]

            [box.chance]
            name = "Chance"
            kind = "chance"
            points = "sum"
            """
        )
        assert r.box_ids == ("2", "3", "4", "5", "6", "escalera", "full", "poker", "generala", "chance")
        chance = r.box("chance")
        assert (chance.kind, chance.points) == (Kind.CHANCE, Points.SUM)
        assert slot_points(r, [None] * 10, 9, (1, 2, 3, 4, 6), first_throw=False) == 16

    def test_new_straight_box(self):
        r = rules_from_toml(
            """
            base = "general"
            [box.seq-curta]
            name = "Sequência curta"
            kind = "straight"
            value = 15
            patterns = ["1234", "2345", "3456"]
            """
        )
        assert r.box_ids[-1] == "seq-curta"
        assert r.turns == 14
        assert slot_points(r, [None] * 14, 13, (3, 4, 5, 6, 6), first_throw=False) == 15

    def test_order(self):
        r = rules_from_toml(
            """
            base = "generala-sin-doble"
            columns = "down"
            order = ["generala", "poker", "full", "escalera", "6", "5", "4", "3", "2", "1"]
            """
        )
        assert r.box_ids == ("generala", "poker", "full", "escalera", "6", "5", "4", "3", "2", "1")
        assert usable_slots(r, [None] * 10, (1, 2, 3, 4, 6), first_throw=False) == [0]

    def test_load_rules_takes_a_path_or_a_name(self, tmp_path: Path):
        path = tmp_path / "mesa.toml"
        path.write_text("throws = 2\n", encoding="utf-8")
        assert load_rules(str(path)).throws == 2
        assert load_rules(str(path)).name == "mesa"
        assert load_rules("yatzy") is find_rules("yatzy")


class TestErrors:
    """Each error names the file and line, the key, and what is allowed."""

    def refused(self, text: str, *parts: str) -> str:
        with pytest.raises(RulesError) as err:
            rules_from_toml(text, "mesa.toml")
        message = str(err.value)
        for part in parts:
            assert part in message, f"{part!r} not in {message!r}"
        return message

    def test_not_toml(self):
        self.refused("base = \n", "mesa.toml: not valid TOML")

    def test_unknown_key(self):
        self.refused(
            'base = "generala"\nthrows = 2\nlanzamientos = 3\n',
            "mesa.toml:3:",
            "lanzamientos",
            "allowed: name, title, dice, throws",
            "profile keys also: base, remove, order, box",
        )

    def test_wrong_type(self):
        self.refused('\nthrows = "tres"\n', "mesa.toml:2:", "throws", "expected an integer, got 'tres'")
        self.refused("locked_holds = 1\n", "mesa.toml:1:", "locked_holds", "expected true or false, got 1")
        self.refused("title = 7\n", "mesa.toml:1:", "title", "expected a string")

    def test_unknown_enum_value_lists_the_allowed_values(self):
        self.refused(
            '\n\nstart = "youngest"\n', "mesa.toml:3:", "start", "'highest-die', 'lowest-sum', 'seat-order'", "youngest"
        )
        self.refused('joker = "wild"\n', "mesa.toml:1:", "'none', 'forced', 'free', 'original'")
        self.refused(
            'columns = ["down", "sideways"]\n', "mesa.toml:1:", "columns[1]", "'free', 'down', 'up', 'first-throw'"
        )
        self.refused(
            '[box.full]\nvalue = 30\nkind = "pair"\n',
            "mesa.toml:3:",
            "box.full.kind",
            "'upper', 'groups', 'straight', 'chance'",
        )

    def test_unknown_base(self):
        self.refused(
            '# mesa\nbase = "generalisima"\n', "mesa.toml:2:", "unknown rules 'generalisima'", "generala, generala-60"
        )
        self.refused("base = 3\n", "mesa.toml:1:", "base must be a preset name")

    def test_bad_pattern(self):
        self.refused('[box.escalera]\npatterns = ["12a45"]\n', "mesa.toml:2:", "box.escalera.patterns[0]", '"12345"')
        self.refused(
            '[box.escalera]\nvalue = 20\npatterns = ["12347"]\n',
            "mesa.toml:3:",
            "box 'escalera'",
            "must be sorted faces 1-6, at most 5 dice",
        )
        self.refused('[box.escalera]\npatterns = "12345"\n', "mesa.toml:2:", "expected a list of patterns")

    def test_removing_an_unknown_box(self):
        self.refused(
            'base = "generala"\nremove = ["chance"]\n',
            "mesa.toml:2:",
            "cannot remove 'chance'",
            "boxes are 1, 2, 3, 4, 5, 6, escalera, full, poker, generala, doble",
        )
        self.refused('remove = "doble"\n', "mesa.toml:1:", "remove must be a list of box ids")

    def test_removing_a_box_another_needs(self):
        self.refused('remove = ["generala"]\n', "mesa.toml:1:", "box 'doble'", "requires 'generala'")

    def test_new_box_without_kind(self):
        self.refused(
            'throws = 3\n[box.chance]\nname = "Chance"\n',
            "mesa.toml:2:",
            "box.chance: a new box needs name and kind",
            "missing kind",
            "upper, groups, straight, chance",
        )

    def test_unknown_box_field(self):
        self.refused(
            "[box.full]\nvalue = 30\ncolour = 3\n", "mesa.toml:3:", "box.full.colour", "allowed: id, name, kind"
        )

    def test_inconsistent_values_point_at_their_line(self):
        self.refused("\ndice = 9\n", "mesa.toml:2:", "dice must be 1 to 8, not 9")
        self.refused('title = "x"\nrounds = 40\n', "mesa.toml:2:", "rounds must be 1 to the number of boxes (11)")
        self.refused('\njoker = "forced"\n', "mesa.toml:2:", "a joker rule needs extra_bonus_box")
        self.refused("\nupper_bonus_threshold = -5\n", "mesa.toml:2:", "upper_bonus_threshold must be 0 or more")
        self.refused("[box.full]\nvalue = 30\ngroups = [3, 3]\n", "mesa.toml:3:", "groups [3, 3] need more than 5 dice")
        self.refused('[box."bad id"]\nname = "x"\nkind = "chance"\n', "mesa.toml:1:", "an id uses only letters")

    def test_boxes_key_is_refused(self):
        self.refused("boxes = []\n", "mesa.toml:1:", "use [box.ID] tables")

    def test_order_must_list_every_box(self):
        self.refused('base = "generala"\norder = ["1", "2"]\n', "mesa.toml:2:", "order must list every box once")

    def test_file_errors(self, tmp_path: Path):
        with pytest.raises(RulesError, match="cannot read"):
            load_profile(tmp_path / "none.toml")
        bad = tmp_path / "latin1.toml"
        bad.write_bytes('title = "Generala del pe\xf1a"\n'.encode("latin-1"))
        with pytest.raises(RulesError, match="not a UTF-8 text file"):
            load_profile(bad)
        wrong = tmp_path / "wrong.toml"
        wrong.write_text("\n\nthrows = -1\n", encoding="utf-8")
        with pytest.raises(RulesError, match=r"wrong\.toml:3: .*throws must be 1 to 10, not -1"):
            load_profile(wrong)


class TestExampleProfiles:
    """The profiles in examples/house-rules load and mean what their comments say."""

    def test_every_example_loads(self):
        paths = sorted(EXAMPLES.glob("*.toml"))
        assert len(paths) >= 3
        for path in paths:
            load_profile(path)

    def test_club_generala(self, make_table):
        r = load_profile(EXAMPLES / "club-generala.toml")
        assert r.name == "club-generala"
        assert r.locked_holds
        assert r.box("generala").value == 60
        assert r.box("doble").value == 120
        assert r.box_ids == find_rules("generala").box_ids
        assert same_but_names(
            r,
            find_rules("generala")
            .with_box("generala", value=60)
            .with_box("doble", value=120)
            .replace(locked_holds=True),
        )
        t = make_table(r)
        t.roll((1, 2, 3, 4, 6))
        t.roll((6, 6, 6), keep=(0, 1))
        with pytest.raises(IllegalActionError, match="locked holds"):
            t.game.apply(Roll((0,)))
        t.roll((1, 1), keep=(0, 1, 2))
        assert t.state.turn.dice == (1, 2, 6, 1, 1)

    def test_club_generala_values_in_play(self, make_table):
        t = make_table(load_profile(EXAMPLES / "club-generala.toml"))
        for _ in range(2):
            t.roll((5, 5, 5, 5, 1))
            t.roll((5,), keep=(0, 1, 2, 3))
            t.score("generala" if t.card()["generala"] is None else "doble")
        assert t.game.totals() == [180]

    def test_yahtzee_free_joker(self):
        r = load_profile(EXAMPLES / "yahtzee-free-joker.toml")
        assert r.name == "yahtzee-free-choice"
        assert r.joker is Joker.FREE
        assert same_but_names(r, find_rules("yahtzee-free-joker"))
        card: list[int | None] = [None] * 13
        card[r.slot_index("yahtzee")] = 50
        hand = (3, 3, 3, 3, 3)
        # free choice: any open box, not only the Threes
        assert len(usable_slots(r, card, hand, first_throw=False)) == 12
        # while the Threes are open, Full House takes it as a plain hand (0); once they are used, as a joker (25)
        assert slot_points(r, card, r.slot_index("full-house"), hand, first_throw=False) == 0
        card[r.slot_index("3")] = 9
        assert slot_points(r, card, r.slot_index("full-house"), hand, first_throw=False) == 25
        assert r.extra_bonus == 100

    def test_general_de_mao(self, make_table):
        r = load_profile(EXAMPLES / "general-de-mao.toml")
        assert r.name == "general-caseiro"
        assert "aleatoria" not in r.box_ids
        assert len(r.boxes) == 12 and r.turns == 12
        assert r.box("general").first_throw_value == 100
        assert same_but_names(r, find_rules("general-de-mao").without_box("aleatoria"))
        t = make_table(r, players=["Ana", "Beto"])
        t.roll((4, 4, 4, 4, 4))
        assert not t.game.is_over  # General de mão scores 100; it does not win at once
        assert t.game.points_now()["general"] == 100
        t.score("general")
        assert t.card(0)["general"] == 100
