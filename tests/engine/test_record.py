"""Game records: they replay to the identical state; anything corrupt or foreign is a clear RecordError."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cubilete import Game, RecordError, Roll, Score, ScriptedDice, find_rules
from cubilete.engine.actions import action_from_json
from cubilete.engine.record import FORMAT, VERSION, dumps, from_record, load, loads, save, steps, to_record
from cubilete.engine.rules import Start
from cubilete.engine.rules.codec import rules_from_dict


def played(name: str = "generala", players: int = 2, seed: int = 5, actions: int = 30) -> Game:
    """A seeded game with some random legal actions played."""
    game = Game(find_rules(name), [f"P{i}" for i in range(players)], seed=seed)
    rnd = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(rnd.choice(game.legal_actions()))
    return game


def finished(name: str = "generala-sin-gana", seed: int = 9) -> Game:
    """A seeded game played to the end."""
    return played(name, 2, seed, actions=100_000)


FIELD_NAMES = [
    "id", "name", "kind", "points", "value", "face", "groups", "distinct", "exact", "patterns", "face_values",
    "first_throw_value", "first_throw_bonus", "instant_win", "requires", "closed_by_scratch", "joker",
    "dice", "throws", "carry_over_throws", "locked_holds", "columns", "rounds", "upper_bonus_threshold",
    "upper_bonus", "extra_bonus_box", "extra_bonus", "start", "direction", "tie_break", "min_players",
    "max_players", "title", "roll", "score", "stand", "face_down",
]  # fmt: skip


class TestRoundTrip:
    def test_record_fields(self):
        g = played()
        rec = to_record(g)
        assert rec["format"] == FORMAT == "cubilete-game"
        assert rec["version"] == VERSION == 1
        assert rec["players"] == ["P0", "P1"]
        assert rec["seed"] == "5"
        assert rec["throws"] == [list(t) for t in g.throws]
        assert len(rec["actions"]) == len(g.history) == 30
        assert rec["finished"] is False
        assert "winners" not in rec
        json.dumps(rec)  # JSON-ready

    def test_replays_to_the_same_state(self):
        g = played()
        again = from_record(to_record(g))
        assert again.state == g.state
        assert again.history == g.history
        assert again.throws == g.throws
        assert again.start_throws == g.start_throws

    def test_json_text_round_trip(self):
        g = finished()
        again = loads(dumps(g))
        assert again.state == g.state
        rec = to_record(g)
        assert rec["finished"] is True
        assert rec["winners"] == [g.players[i] for i in g.state.winners]
        assert rec["reason"] == g.state.reason.value

    def test_record_of_a_new_game(self):
        g = Game(find_rules("generala"), ["Ana", "Beto", "Caro"], seed="new")
        again = loads(dumps(g))
        assert again.state == g.state
        assert again.start_throws == g.start_throws

    def test_house_rules_travel_with_the_record(self):
        rules = find_rules("generala").replace(name="mesa", title="Mesa", locked_holds=True, throws=2)
        g = Game(rules, ["Ana", "Beto"], seed=3)
        g.apply(Roll())
        again = loads(dumps(g))
        assert again.rules == rules
        assert again.state == g.state

    def test_a_loaded_game_goes_on_with_the_seed(self):
        g = played(actions=7)
        again = loads(dumps(g))
        for _ in range(10):
            if g.is_over:
                break
            action = g.legal_actions()[0]
            g.apply(action)
            again.apply(action)
            assert again.state == g.state

    def test_scripted_dice_record(self):
        rules = find_rules("generala").replace(start=Start.SEAT_ORDER)
        g = Game(rules, ["Ana"], dice=ScriptedDice([(2, 2, 5, 5, 5)]))
        g.apply(Roll())
        g.apply(Score("full"))
        rec = to_record(g)
        assert rec["throws"] == [[2, 2, 5, 5, 5]]
        assert rec["totals"] == [35]
        assert from_record(rec).totals() == [35]

    def test_steps_yield_every_action_with_the_state_before(self):
        g = played(actions=12)
        seen = list(steps(to_record(g)))
        assert [a for _, a, _ in seen] == g.history
        assert seen[-1][0].state == g.state
        # each step's "before" is the previous step's "after"
        replay = Game(g.rules, list(g.players), g.seed)
        for _, action, before in seen:
            assert before == replay.state
            replay.apply(action)

    def test_undone_actions_leave_no_trace(self):
        g = played(actions=10)
        g.undo()
        g.undo()
        rec = to_record(g)
        assert len(rec["actions"]) == 8
        assert from_record(rec).state == g.state


class TestCorruptRecords:
    """Each kind of damage gives a RecordError saying what is wrong, never another traceback."""

    @pytest.fixture
    def rec(self):
        return to_record(played(actions=12))

    def refused(self, data, message):
        with pytest.raises(RecordError, match=message):
            from_record(data)
        with pytest.raises(RecordError, match=message):
            list(steps(data))

    @pytest.mark.parametrize("text", ["", "{", "not json", '{"format": "cubilete-game",}', "[" * 100_000])
    def test_not_json(self, text):
        with pytest.raises(RecordError, match="not a cubilete game record"):
            loads(text)

    @pytest.mark.parametrize("data", [[], "cubilete-game", 7, None])
    def test_not_an_object(self, data):
        self.refused(data, r"not a cubilete game record \(expected a JSON object\)")

    def test_wrong_format_tag(self, rec):
        rec["format"] = "pgn"
        self.refused(rec, "format is 'pgn', expected 'cubilete-game'")
        del rec["format"]
        self.refused(rec, "format is None")

    @pytest.mark.parametrize("version", [2, 0, "1", None])
    def test_wrong_version(self, rec, version):
        rec["version"] = version
        self.refused(rec, f"record version {version!r} is not supported")

    @pytest.mark.parametrize(
        ("key", "kind"),
        [("rules", "dict"), ("players", "list"), ("seed", "str"), ("throws", "list"), ("actions", "list")],
    )
    def test_missing_or_mistyped_fields(self, rec, key, kind):
        wrong = copy.deepcopy(rec)
        wrong[key] = 12
        self.refused(wrong, f"record field '{key}' is missing or not a {kind}")
        del rec[key]
        self.refused(rec, f"record field '{key}' is missing or not a {kind}")

    @pytest.mark.parametrize("throw", [[1, 2, 7, 4, 5], [0], [1, 2, "3"], [True, 2], [2.0], "12345", None])
    def test_a_bad_throw(self, rec, throw):
        rec["throws"][3] = throw
        self.refused(rec, "record throw 4 is not a list of faces 1-6")

    def test_a_throw_with_the_wrong_number_of_dice(self, rec):
        index = len(rec["throws"]) - 1
        rec["throws"][index] = rec["throws"][index] + [1]
        self.refused(rec, f"throw {index + 1} has")

    def test_players_must_be_names(self, rec):
        rec["players"] = ["Ana", 3]
        self.refused(rec, "record players must be names")
        rec["players"] = ["Ana", "Ana"]
        self.refused(rec, "player names must be different")

    def test_an_action_illegal_at_its_point(self, rec):
        rec["actions"][0] = {"score": "full"}
        self.refused(rec, r"record action 1 \(\{'score': 'full'\}\) does not replay: throw the dice before scoring")

    def test_an_unknown_action(self, rec):
        rec["actions"][2] = {"jump": 1}
        self.refused(rec, "record action 3 .* unknown action")

    def test_an_impossible_keep(self, rec):
        rec["actions"][0] = {"roll": [0, 1]}
        self.refused(rec, "record action 1 .* the first throw of a turn throws every die")

    def test_more_throws_than_the_actions_use(self, rec):
        rec["throws"].append([1, 2, 3, 4, 5])
        n = len(rec["throws"])
        self.refused(rec, f"record holds {n} throws but its actions use {n - 1}")

    def test_fewer_throws_than_the_actions_use(self, rec):
        rec["throws"].pop()
        self.refused(rec, "is missing from the recorded throws")

    def test_throws_that_do_not_match_the_dice_count(self, rec):
        rec["throws"][0] = [1, 2, 3, 4, 5]  # a start throw is one die
        self.refused(rec, "throw 1 has 5 dice; the game threw 1")

    def test_rules_with_an_unknown_field(self, rec):
        rec["rules"]["house_special"] = True
        self.refused(rec, "record cannot be replayed: record rules.house_special: unknown rules field")

    def test_rules_with_a_bad_box(self, rec):
        rec["rules"]["boxes"][7]["groups"] = [3, 3]
        self.refused(rec, "record cannot be replayed: .*box 'full': groups \\[3, 3\\] need more than 5 dice")

    def test_rules_with_an_unknown_box_field(self, rec):
        rec["rules"]["boxes"][0]["colour"] = "red"
        self.refused(rec, r"record rules.boxes\[0\].colour: unknown box field")

    def test_rules_missing_boxes(self, rec):
        del rec["rules"]["boxes"]
        self.refused(rec, "record rules: missing 'boxes'")

    def test_a_tampered_result(self):
        rec = to_record(finished())
        rec["totals"] = [999, 0]
        self.refused(rec, "record totals is \\[999, 0\\] but its actions give")
        rec = to_record(finished())
        rec["winners"] = ["somebody"]
        self.refused(rec, "record winners")
        rec = to_record(played())
        rec["finished"] = True
        self.refused(rec, "record finished is True but its actions give False")

    def test_a_result_written_with_booleans_for_numbers_is_tampered(self):
        # false == 0 and true == 1 in Python: a record must still say 0 where it means 0
        rec = to_record(played(actions=12))
        assert rec["totals"] == [0, 0] and rec["finished"] is False
        rec["totals"] = [False, False]
        self.refused(rec, "record totals is \\[False, False\\] but its actions give \\[0, 0\\]")
        rec = to_record(played())
        rec["finished"] = 0
        self.refused(rec, "record finished is 0 but its actions give False")

    @settings(max_examples=150, deadline=None)
    @given(
        key=st.sampled_from(["format", "version", "rules", "players", "seed", "throws", "actions", "totals"]),
        value=st.recursive(
            st.none() | st.booleans() | st.integers(-3, 8) | st.text(max_size=5),
            lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
            max_leaves=10,
        ),
    )
    @example(key="version", value=True)  # true == 1 in Python, not in a record
    @example(key="totals", value=[999, 999])
    @example(key="totals", value=[False, False])  # false == 0 in Python, not in a record
    @example(key="players", value=["Ana", "Bea"])  # valid: new names, the same game
    @example(key="seed", value="otra")  # valid: the recorded throws stand, later ones come from the new seed
    def test_any_damage_is_a_record_error(self, key, value):
        rec = to_record(played(actions=12))
        rec[key] = value
        self.refused_or_faithful(rec)

    @settings(max_examples=150, deadline=None)
    @given(
        where=st.sampled_from(["actions", "throws", "rules.boxes", "rules"]),
        index=st.integers(0, 40),
        value=st.recursive(
            st.none()
            | st.booleans()
            | st.integers(-3, 8)
            | st.text("0123456789abcdefghijklmnopqrstuvwxyz@-", max_size=6),
            lambda inner: (
                st.lists(inner, max_size=6) | st.dictionaries(st.sampled_from(FIELD_NAMES), inner, max_size=3)
            ),
            max_leaves=12,
        ),
    )
    @example(where="throws", index=0, value=[7])  # the start throw is one die
    @example(where="throws", index=0, value=[True])
    @example(where="actions", index=1, value={"score": "generala"})
    @example(where="rules", index=FIELD_NAMES.index("dice"), value=4)
    def test_any_damage_inside_is_a_record_error(self, where, index, value):
        rec = to_record(played(actions=12))
        if where == "rules":
            rec["rules"][FIELD_NAMES[index % len(FIELD_NAMES)]] = value
        else:
            target = rec["rules"]["boxes"] if where == "rules.boxes" else rec[where]
            if where == "rules.boxes" and isinstance(value, dict):
                target[index % len(target)].update(value)
            else:
                target[index % len(target)] = value
        self.refused_or_faithful(rec)

    @staticmethod
    def refused_or_faithful(rec):
        """A damaged record is a RecordError, unless the "damage" makes another valid record (new player
        names, another seed, the value that was there): then it replays to a game whose record says the
        same. Loading it as something else (a field ignored, repaired or cast) fails the test. Rules and
        actions are compared as read (a keep may be written in any order, a box field at its default may
        be left out); every other field as JSON, where 1 and true differ."""
        text = json.dumps(rec)
        try:
            game = loads(text)
        except RecordError:
            return
        damaged, loaded = json.loads(text), json.loads(dumps(game))
        assert rules_from_dict(damaged["rules"]) == game.rules
        assert [action_from_json(a) for a in damaged["actions"]] == list(game.history)
        assert all(type(f) is int and 1 <= f <= 6 for t in loaded["throws"] for f in t), loaded["throws"]
        assert all(type(p) is str and p for p in loaded["players"]), loaded["players"]
        for key in (damaged.keys() | loaded.keys()) - {"rules", "actions"}:
            as_json = json.dumps(damaged.get(key), sort_keys=True), json.dumps(loaded.get(key), sort_keys=True)
            assert as_json[0] == as_json[1], f"damaged record field {key!r} loaded as {as_json[1]}"


class TestFiles:
    def test_save_and_load(self, tmp_path: Path):
        g = played()
        path = tmp_path / "partida.json"
        save(g, path)
        assert load(path).state == g.state
        assert json.loads(path.read_text(encoding="utf-8"))["format"] == FORMAT
        assert sorted(p.name for p in tmp_path.iterdir()) == ["partida.json"]

    def test_save_replaces_the_old_file_whole(self, tmp_path: Path):
        path = tmp_path / "partida.json"
        save(played(actions=40), path)
        g = played(actions=3)
        save(g, path)
        assert load(path).state == g.state
        assert sorted(p.name for p in tmp_path.iterdir()) == ["partida.json"]

    def test_a_failed_save_leaves_the_old_file_and_no_debris(self, tmp_path: Path):
        path = tmp_path / "partida.json"
        good = played(actions=5)
        save(good, path)
        before = path.read_bytes()
        bad = Game(find_rules("generala"), ["Ana", "\udcff"], seed=1)  # a name UTF-8 cannot write
        with pytest.raises(RecordError, match="UTF-8"):
            save(bad, path)
        assert path.read_bytes() == before
        assert sorted(p.name for p in tmp_path.iterdir()) == ["partida.json"]

    def test_missing_file(self, tmp_path: Path):
        with pytest.raises(RecordError, match="cannot read"):
            load(tmp_path / "nope.json")

    def test_not_utf8(self, tmp_path: Path):
        path = tmp_path / "bin.json"
        path.write_bytes(b"\xff\xfe\x00garbage")
        with pytest.raises(RecordError, match="not a UTF-8 text file"):
            load(path)

    def test_corrupt_file_names_the_file(self, tmp_path: Path):
        path = tmp_path / "half.json"
        path.write_text(dumps(played())[:200], encoding="utf-8")
        with pytest.raises(RecordError, match=r"half\.json: not a cubilete game record: invalid JSON"):
            load(path)

