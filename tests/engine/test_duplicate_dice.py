"""Duplicate dice (issue 22, items 3 and 4): a die's face depends only on the seed and its place (the
player's turn, the throw of the turn, the die), never on how many throws came before; so every turn's first
throw is the same for everyone and two players who keep the same dice see the same faces. The record says
so, replays, and verifies; a changed throw is caught."""

from __future__ import annotations

import copy
from collections import Counter

import pytest

from cubilete import Game, find_rules
from cubilete.engine.actions import Roll, Score
from cubilete.engine.dice import DuplicateDice
from cubilete.engine.errors import RecordError
from cubilete.engine.fairness import commitment, verify_record
from cubilete.engine.record import from_record, to_record

YATZY = find_rules("yatzy")  # no instant win, no servida: every turn is played out
SEED = "daily-2026-12-05-yatzy"


def _game(players: list[str]) -> Game:
    return Game(YATZY, players, SEED, DuplicateDice(SEED))


def _first_open(game: Game) -> Score:
    legal = [a for a in game.legal_actions() if isinstance(a, Score)]
    return legal[0]


def test_every_turns_first_throw_is_the_same_whatever_came_before() -> None:
    patient, hasty = _game(["Ana"]), _game(["Bea"])
    for turn in range(4):
        patient.apply(Roll())
        hasty.apply(Roll())
        assert patient.state.turn.dice == hasty.state.turn.dice == DuplicateDice(SEED).throw_at(
            f"play:{turn}:0", range(5))
        patient.apply(Roll(keep=(0,)))  # Ana throws twice more; Bea writes at once
        patient.apply(Roll(keep=(0, 1)))
        patient.apply(_first_open(patient))
        hasty.apply(_first_open(hasty))
    assert len(patient.throws) == 12 and len(hasty.throws) == 4  # a different count, the same first throws


def test_the_same_keep_gives_the_same_faces_and_another_keep_the_same_faces_by_die() -> None:
    a, b, c = _game(["Ana"]), _game(["Bea"]), _game(["Cai"])
    for g in (a, b, c):
        g.apply(Roll())
    a.apply(Roll(keep=(1, 3)))
    b.apply(Roll(keep=(1, 3)))
    c.apply(Roll(keep=(0,)))
    assert a.state.turn.dice == b.state.turn.dice
    second = DuplicateDice(SEED).throw_at("play:0:1", range(5))
    assert [c.state.turn.dice[p] for p in (1, 2, 3, 4)] == [second[p] for p in (1, 2, 3, 4)]  # die by die


def test_in_one_game_every_seat_gets_the_same_dice_turn_by_turn() -> None:
    game = _game(["Ana", "Bea"])
    seen: dict[int, list[tuple[int, ...]]] = {0: [], 1: []}
    while not game.is_over and min(len(v) for v in seen.values()) < 3:
        seat = game.state.current
        game.apply(Roll())
        seen[seat].append(game.state.turn.dice)
        game.apply(_first_open(game))
    assert seen[0][:3] == seen[1][:3]


def test_faces_are_fair() -> None:
    """6,000 dice at 1,200 places: each face within 4 standard deviations of 1,000 (a fixed seed: not flaky)."""
    dice = DuplicateDice("fairness")
    faces = Counter(f for t in range(1200) for f in dice.throw_at(f"play:{t}:0", range(5)))
    assert set(faces) == {1, 2, 3, 4, 5, 6}
    assert all(abs(n - 1000) < 4 * (6000 * (1 / 6) * (5 / 6)) ** 0.5 for n in faces.values())


def _finished() -> Game:
    game = _game(["Ana"])
    while not game.is_over:
        game.apply(Roll())
        game.apply(_first_open(game))
    return game


def test_the_record_says_duplicate_replays_and_verifies() -> None:
    record = to_record(_finished())
    assert record["dice"] == "duplicate"
    again = from_record(record)
    assert isinstance(again.dice, DuplicateDice) and again.throws == [tuple(t) for t in record["throws"]]
    report = verify_record(record, published=commitment(SEED))
    assert not report.problems and report.throws == len(record["throws"]) == YATZY.turns


def test_a_changed_throw_or_a_record_read_as_plain_dice_fails() -> None:
    record = to_record(_finished())
    forged = copy.deepcopy(record)
    forged["throws"][3] = [6, 6, 6, 6, 6] if forged["throws"][3] != [6, 6, 6, 6, 6] else [1, 1, 1, 1, 1]
    assert verify_record(forged).problems
    plain = {k: v for k, v in record.items() if k != "dice"}  # the same throws as if thrown by index
    assert verify_record(plain).problems


def test_an_unknown_dice_field_is_refused() -> None:
    record = to_record(_finished())
    record["dice"] = "loaded"
    with pytest.raises(RecordError, match="dice 'loaded' is unknown"):
        from_record(record)


def test_two_players_who_play_alike_tie_and_the_tie_break_still_ends() -> None:
    """The same dice and the same choices give the same total: the tie-break rounds throw each seat's own
    dice (the same dice for both would tie them again forever)."""
    rules = find_rules("generala-sin-gana")  # a tie is broken by extra rounds
    game = Game(rules, ["Ana", "Bea"], SEED, DuplicateDice(SEED))
    moves = 0
    while not game.is_over:
        st = game.state
        if st.turn.throws == 0:
            game.apply(Roll())
        elif st.phase.value == "tiebreak":
            game.apply(next(a for a in game.legal_actions() if not isinstance(a, Roll)))
        else:
            game.apply(_first_open(game))
        moves += 1
        assert moves < 500, "the game never ended"
    totals = game.totals()
    assert totals[0] == totals[1]  # alike on the same dice
    assert len(game.state.winners) == 1 and game.state.tiebreak_round >= 1  # settled by the tie-break
