"""Properties of random legal play over every preset (hypothesis).

Each example plays a whole game with choices from a seeded random policy and checks,
after every action: no slot is written twice, the total is the boxes plus the bonuses,
undo restores the exact previous state, and the record replays to the same state.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cubilete import Game, Roll, Score, Stand, find_rules, preset_names
from cubilete.engine.record import dumps, from_record, loads, to_record
from cubilete.engine.rules import Rules
from cubilete.engine.state import EndReason, GameState, Phase

PRESETS = preset_names()
MAX_ACTIONS = 20_000
FAST = settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def expected_total(rules: Rules, card: tuple[int | None, ...], extra_bonuses: int) -> int:
    """Boxes + one upper bonus per column that reaches the threshold + extra five-of-a-kind bonuses."""
    n = len(rules.boxes)
    boxes = sum(v for v in card if v is not None)
    bonus = 0
    if rules.upper_bonus > 0:
        for column in range(len(rules.columns)):
            upper = sum(card[column * n + i] or 0 for i, b in enumerate(rules.boxes) if b.kind.value == "upper")
            if upper >= rules.upper_bonus_threshold:
                bonus += rules.upper_bonus
    return boxes + bonus + extra_bonuses * rules.extra_bonus


def choose(game: Game, rnd: random.Random, greedy: bool):
    """A random legal action; the greedy policy scores as soon as it can (more scratches, more ties)."""
    legal = game.legal_actions()
    assert legal, "a game that is not over always has a legal action"
    if greedy:
        scores = [a for a in legal if isinstance(a, Score | Stand)]
        if scores:
            return rnd.choice(scores)
    return rnd.choice(legal)


def check_step(game: Game, before: GameState, action) -> None:
    """The invariants between the state before an action and the state after it."""
    rules, after = game.rules, game.state
    for i, (old, new) in enumerate(zip(before.seats, after.seats, strict=True)):
        for slot, (a, b) in enumerate(zip(old.card, new.card, strict=True)):
            if a is not None:
                assert b == a, f"{rules.slots[slot]} of seat {i} rewritten: {a} -> {b}"
        assert new.extra_bonuses >= old.extra_bonuses
        assert new.turns_taken <= rules.turns
        if i != before.current:
            assert new == old, "only the player whose turn it is changes a sheet"
    if isinstance(action, Score):
        slot = rules.slot_index(action.slot)
        assert before.phase is Phase.PLAY
        assert before.seats[before.current].card[slot] is None
        assert after.seats[before.current].card[slot] is not None
        assert after.seats[before.current].turns_taken == before.seats[before.current].turns_taken + 1
    if isinstance(action, Stand):
        assert before.phase is Phase.TIEBREAK
    if isinstance(action, Roll):
        assert after.throws_made == before.throws_made + 1
        assert after.turn.throws == before.turn.throws + 1
        kept = [before.turn.dice[p] for p in action.keep]
        assert [after.turn.dice[p] for p in action.keep] == kept
        assert all(1 <= d <= 6 for d in after.turn.dice)
    for seat, total in zip(after.seats, game.totals(), strict=True):
        assert total == expected_total(rules, seat.card, seat.extra_bonuses)


def check_undo(game: Game, action) -> None:
    """Apply, undo (the exact previous state), apply again (the same state: the same dice)."""
    before, throws, history = game.state, list(game.throws), list(game.history)
    game.apply(action)
    first = game.state
    assert game.undo() == action
    assert game.state == before
    assert game.throws == throws
    assert game.history == history
    game.apply(action)
    assert game.state == first


def check_replay(game: Game) -> None:
    """The record replays to the identical state, directly and through JSON text."""
    for copy in (from_record(to_record(game)), loads(dumps(game))):
        assert copy.state == game.state
        assert copy.throws == game.throws
        assert copy.history == game.history
        assert copy.rules == game.rules
        assert copy.totals() == game.totals()


def check_end(game: Game) -> None:
    """A finished game ended for a reason that its state shows."""
    st, rules = game.state, game.rules
    assert game.is_over and st.phase is Phase.OVER
    assert game.legal_actions() == []
    assert st.winners
    totals = game.totals()
    if st.reason is EndReason.INSTANT_WIN:
        assert st.turn.throws == 1
        assert len(set(st.turn.dice)) == 1
        assert st.winners == (st.current,)
        return
    for seat in st.seats:
        assert seat.turns_taken == rules.turns or all(v is not None for v in seat.card)
    top = max(totals)
    if st.reason is EndReason.POINTS:
        assert [totals[w] for w in st.winners] == [top]
        assert totals.count(top) == 1
    else:
        assert st.reason in (EndReason.TIE_BREAK, EndReason.SHARED)
        assert all(totals[w] == top for w in st.winners)
        assert totals.count(top) >= 2


def play(rules: Rules, players: int, dice_seed: int, policy_seed: int, greedy: bool, undo_rate: float) -> Game:
    """A whole random game with every check along the way."""
    game = Game(rules, [f"P{i}" for i in range(players)], seed=dice_seed)
    rnd = random.Random(policy_seed)
    replay_at = rnd.randrange(1, 60)
    for step in range(MAX_ACTIONS):
        if game.is_over:
            break
        action = choose(game, rnd, greedy)
        before = game.state
        if rnd.random() < undo_rate:
            check_undo(game, action)
        else:
            game.apply(action)
        check_step(game, before, action)
        if step == replay_at:
            check_replay(game)
    check_end(game)
    check_replay(game)
    return game


@pytest.mark.parametrize("name", PRESETS)
@FAST
@given(
    players=st.integers(1, 3),
    dice_seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**32),
    greedy=st.booleans(),
)
def test_random_play_keeps_every_invariant(name, players, dice_seed, policy_seed, greedy):
    play(find_rules(name), players, dice_seed, policy_seed, greedy, undo_rate=0.1)


@FAST
@given(
    name=st.sampled_from(PRESETS),
    players=st.integers(4, 8),
    dice_seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**32),
)
def test_many_players(name, players, dice_seed, policy_seed):
    if find_rules(name).name == "general-4-columns":
        players = 4  # 52 turns each: enough
    play(find_rules(name), players, dice_seed, policy_seed, greedy=True, undo_rate=0.02)


@settings(max_examples=25, deadline=None)
@given(dice_seed=st.integers(0, 2**32), policy_seed=st.integers(0, 2**32), players=st.integers(2, 4))
def test_scratch_everything_ties_and_settles(dice_seed, policy_seed, players):
    """Everyone scratches every box: everyone ties at 0, and the tie-break settles it (or shares it)."""
    rules = find_rules("generala-sin-gana").replace(rounds=2)
    game = Game(rules, [f"P{i}" for i in range(players)], seed=dice_seed)
    rnd = random.Random(policy_seed)
    while game.state.phase is Phase.PLAY:
        if game.state.turn.throws == 0:
            game.apply(Roll())
            continue
        zero = [s for s, v in game.points_now().items() if v == 0]
        if zero:
            game.apply(Score(rnd.choice(zero)))
        else:  # every open box pays: throw again, or write the smallest
            game.apply(choose(game, rnd, greedy=False))
    if not game.is_over:
        assert game.state.contenders
        while not game.is_over:
            before = game.state
            action = choose(game, rnd, greedy=False)
            game.apply(action)
            check_step(game, before, action)
    check_end(game)
    check_replay(game)


@settings(max_examples=30, deadline=None)
@given(
    name=st.sampled_from(PRESETS),
    dice_seed=st.integers(0, 2**32),
    policy_seed=st.integers(0, 2**32),
    undo_count=st.integers(1, 40),
)
def test_undo_many_steps_back(name, dice_seed, policy_seed, undo_count):
    """Undo several actions in a row: each undo gives back the state recorded at that point."""
    game = Game(find_rules(name), ["Ana", "Beto"], seed=dice_seed)
    rnd = random.Random(policy_seed)
    states = [game.state]
    throws = [list(game.throws)]
    while not game.is_over and len(states) < 80:
        game.apply(choose(game, rnd, greedy=False))
        states.append(game.state)
        throws.append(list(game.throws))
    for _ in range(min(undo_count, len(states) - 1)):
        game.undo()
        states.pop()
        throws.pop()
        assert game.state == states[-1]
        assert game.throws == throws[-1]
