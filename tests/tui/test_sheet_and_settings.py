"""The pieces of the terminal game that need no screen: the sheet seen from the dice (points
now, greyed boxes and their reasons), the remembered setup, and the session at the table."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from cubilete.engine.actions import Roll, Score
from cubilete.engine.rules import find_rules
from cubilete.play.sheet import SlotState, slot_views, upper_progress
from cubilete.tui.session import Session, seat_names
from cubilete.tui.settings import BOT, HUMAN, SeatChoice, SetupChoice, load_choice, save_choice


def by_slot(views: list) -> dict:  # type: ignore[type-arg]
    return {v.slot: v for v in views}


class TestSheet:
    def test_generala_a_servida_escalera_and_doble_before_generala(self) -> None:
        rules = find_rules("generala")
        views = by_slot(slot_views(rules, [None] * 11, (1, 2, 3, 4, 5), first_throw=True))
        assert (views["escalera"].state, views["escalera"].points) == (SlotState.USABLE, 25)
        assert "servida" in views["escalera"].note
        assert (views["1"].points, views["5"].points) == (1, 5)
        assert (views["full"].points, views["full"].note) == (0, "scratch")
        assert views["doble"].state is SlotState.SCRATCH_ONLY and views["doble"].points == 0
        assert "Generala" in views["doble"].note and views["doble"].greyed

    def test_armada_escalera_is_20_and_a_closed_box_is_closed(self) -> None:
        rules = find_rules("generala")
        card: list[int | None] = [None] * 11
        card[rules.slot_index("full")] = 30
        views = by_slot(slot_views(rules, card, (3, 4, 5, 6, 1), first_throw=False))
        assert views["escalera"].points == 20 and "servida" not in views["escalera"].note
        assert (views["full"].state, views["full"].written) == (SlotState.CLOSED, 30)

    def test_obligada_only_the_next_box_in_order(self) -> None:
        rules = find_rules("generala-obligada")
        views = by_slot(slot_views(rules, [None] * 11, (2, 2, 5, 5, 5), first_throw=False))
        assert views["1"].state is SlotState.USABLE and views["1"].points == 0
        assert views["full"].state is SlotState.BLOCKED and "next is Unos" in views["full"].note

    def test_yahtzee_reaching_the_upper_bonus_is_noted(self) -> None:
        rules = find_rules("yahtzee")
        card: list[int | None] = [3, 6, 9, 12, 15, None] + [None] * 7
        views = by_slot(slot_views(rules, card, (6, 6, 6, 2, 2), first_throw=False))
        assert views["6"].points == 18 and "upper bonus (+35)" in views["6"].note  # 45 + 18 = 63
        assert views["full-house"].points == 25
        assert upper_progress(rules, card) == "45/63"

    def test_the_four_columns_of_the_52_round_sheet(self) -> None:
        rules = find_rules("general-4-columns")
        views = slot_views(rules, [None] * 52, (1, 2, 3, 4, 5), first_throw=False)
        first, last = views[0], views[12]  # column 1 goes down: only its first box
        assert first.state is SlotState.USABLE and last.state is SlotState.BLOCKED and "next is" in last.note
        assert "(column 1)" in first.label and "(column 2)" in views[13].label
        assert views[13].state is SlotState.BLOCKED and views[25].state is SlotState.USABLE  # column 2 goes up
        assert all(v.state is SlotState.USABLE for v in views[26:39])  # column 3: any order
        assert all(v.state is SlotState.SCRATCH_ONLY and "first throws" in v.note for v in views[39:])
        servida = slot_views(rules, [None] * 52, (1, 2, 3, 4, 5), first_throw=True)
        assert servida[39 + rules.box_ids.index("seq-baixa")].points == 40  # column 4 pays a first-throw hand

    def test_no_dice_on_the_table_shows_open_boxes(self) -> None:
        views = slot_views(find_rules("generala"), [None] * 11)
        assert {v.state for v in views} == {SlotState.OPEN}


class TestSettings:
    def test_a_choice_comes_back_as_it_was_saved(self, tmp_path: Path) -> None:
        choice = SetupChoice(rules="bozo", seats=[SeatChoice(HUMAN, "Ana"), SeatChoice(BOT, level="greedy")],
                             lang="pt_BR", scorekeeper=True, seed="9")  # fmt: skip
        assert save_choice(choice, tmp_path)
        assert load_choice(tmp_path) == choice

    @pytest.mark.parametrize("text", ["{broken", "[]", '{"seats": [{"kind": "alien"}]}', '{"seats": []}'])
    def test_a_bad_file_means_the_defaults(self, tmp_path: Path, text: str) -> None:
        (tmp_path / "tui.json").write_text(text)
        choice = load_choice(tmp_path)
        assert choice.seats == SetupChoice().seats and choice.rules == "generala"

    def test_an_unwritable_folder_is_not_an_error(self, tmp_path: Path) -> None:
        blocker = tmp_path / "file"
        blocker.write_text("")
        assert save_choice(SetupChoice(), blocker) is False


class TestSession:
    def test_seat_names_number_repeated_bots(self) -> None:
        assert seat_names(["Ana", "bot", "BOT:greedy", "bot"]) == ["Ana", "bot", "bot:greedy", "bot-2"]

    def test_undo_without_people_changes_nothing(self) -> None:
        session = Session.new(find_rules("generala"), ["bot"], seed=1)
        session.apply(Roll())
        assert session.humans == [] and not session.undo()
        assert session.game.history == [Roll()]

    def test_a_finished_game_is_recorded_once(self, tmp_path: Path) -> None:
        session = Session.new(find_rules("generala").replace(name="two", boxes=find_rules("generala").boxes[:2]),
                              ["Ana"], seed=2)  # fmt: skip
        for slot in ("1", "2"):
            session.apply(Roll())
            session.apply(Score(slot))
        assert session.game.is_over
        assert session.record_result(tmp_path) is None
        assert session.record_result(tmp_path) is None  # the second call does nothing
        from cubilete.store.stats import StatsDB

        with StatsDB(tmp_path / "stats.sqlite3") as db:
            assert len(db.games()) == 1

    def test_autosave_follows_every_move(self, tmp_path: Path) -> None:
        session = Session.new(find_rules("generala"), ["Ana"], seed=2)
        session.save_to(tmp_path / "g.json")
        session.apply(Roll())
        assert json.loads((tmp_path / "g.json").read_text())["actions"] == [{"roll": []}]
