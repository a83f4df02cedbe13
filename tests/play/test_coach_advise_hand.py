"""``coach.advise_hand``'s fast path (issue 21): the ranked rows read straight into ``Advice``, the keeps' dice
positions remembered per dice shown, the solved table kept while the store keeps it. The advice is what the
advisor's full option list says, and a table that leaves the store is never read again."""

from __future__ import annotations

import gc
import random
import threading
import weakref
from collections.abc import Iterator, Sequence

import pytest

from cubilete import Game, Roll, Score, find_rules
from cubilete.engine.rules.model import Rules
from cubilete.play.coach import Advice, advise_hand, describe_option, hint, keep_positions
from cubilete.play.coach import solution_for as coach_solution
from cubilete.solver.advisor import advise
from cubilete.solver.cache import solved_tables
from cubilete.solver.solve import Solution

Card = list[int | None]


def from_every_option(
    solution: Solution, card: Card, dice: Sequence[int], throw: int, bonuses: int, held: Sequence[int], top: int
) -> list[tuple[object, ...]]:
    """The advice built the long way: every option of the advisor as an object, the first ``top`` of them with
    their dice found by :func:`keep_positions` (held dice first)."""
    rules = solution.rules
    locked = rules.locked_holds
    faces = tuple(sorted(dice[p] for p in held)) if locked else ()
    want: list[tuple[object, ...]] = []
    for o in list(advise(solution, card, dice, throw, bonuses, faces))[: max(top, 0)]:
        if o.kind == "score":
            want.append(("score", o.slot, o.points, (), (), o.expected, o.loss, Score(str(o.slot)), None))
        else:
            kept = keep_positions(dice, o.keep, prefer=held, must=held if locked else ())
            want.append(("keep", None, 0, tuple(sorted(o.keep)), kept, o.expected, o.loss, Roll(kept), None))
    return want


def words(rules: Rules, advice: Sequence[tuple[object, ...]]) -> list[str]:
    return [describe_option(rules, a[0], a[1], a[2], a[3]) for a in advice]  # type: ignore[arg-type]


def random_situation(rules: Rules, rng: random.Random) -> tuple[Card, tuple[int, ...], int, int, tuple[int, ...]]:
    """A sheet with some boxes written (scratched or not), dice in order or not, and dice held after the first throw."""
    card: Card = [rng.choice([0, rng.randint(1, 30)]) if rng.random() < 0.5 else None for _ in rules.slots]
    card[rng.randrange(len(card))] = None  # something left to decide
    dice = tuple(rng.randint(1, 6) for _ in range(rules.dice))
    if rng.random() < 0.5:  # dice in order: their keeps are worked out in advance
        dice = tuple(sorted(dice))
    throw = rng.randint(1, rules.throws)
    held = tuple(sorted(rng.sample(range(rules.dice), rng.randint(0, 3)))) if throw > 1 else ()
    bonuses = rng.choice([0, 0, 1]) if rules.extra_bonus else 0
    return card, dice, throw, bonuses, held


@pytest.mark.parametrize("preset", ["yahtzee", "generala", "generala-apartada"])
def test_the_advice_is_the_full_option_list_in_the_same_order_values_and_words(preset: str) -> None:
    """Many random situations, ``top`` from one to more than a hand has options: the same advice (every field,
    ``win`` included), in the same order and the same words, asked twice (card, dice and held as lists or tuples)."""
    rules = find_rules(preset)
    solution = coach_solution(rules)
    rng = random.Random(f"fast-{preset}")
    longest = 0
    for _ in range(250):
        card, dice, throw, bonuses, held = random_situation(rules, rng)
        top = rng.choice([1, 3, 5, 40, 10_000])
        want = from_every_option(solution, card, dice, throw, bonuses, held, top)
        longest = max(longest, len(want))
        for sheet, asked, kept in ((card, dice, held), (tuple(card), list(dice), list(held))):  # any sequences
            got = advise_hand(rules, sheet, asked, throw, bonuses, kept, top)
            assert all(type(a) is Advice for a in got)
            assert [tuple(a) for a in got] == want
            assert [a.describe(rules) for a in got] == words(rules, want)
    assert longest > 5  # some situations asked for more options than a hand has


@pytest.mark.parametrize("preset", ["yahtzee", "generala-apartada"])
def test_a_games_hint_is_the_full_option_list_too(preset: str) -> None:
    """``hint`` (the game's advice: the TUI, the web, the CLI) reads the same fast path: along random games, with
    dice held (locked in generala-apartada), the advice of every option the long way."""
    rules = find_rules(preset)
    solution = coach_solution(rules)
    rng = random.Random(f"hint-{preset}")
    asked = 0
    for g in range(6):
        game = Game(rules, ["ana"], seed=f"hint-{g}")
        while not game.is_over:
            st, seat = game.state, game.seat()
            if st.turn.throws:
                top = rng.choice([1, 5, 10_000])
                want = from_every_option(
                    solution, list(seat.card), st.turn.dice, st.turn.throws, seat.extra_bonuses, st.turn.held, top
                )
                got, exact = hint(game, top=top)
                assert exact
                assert [tuple(a) for a in got] == want
                asked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert asked > 100


def test_a_held_die_changes_the_positions_but_not_what_is_remembered_for_the_same_dice_unheld() -> None:
    rules = find_rules("generala")
    card: Card = [None] * len(rules.slots)
    dice = (5, 2, 5, 6, 5)
    free = advise_hand(rules, card, dice, 2, top=40)
    held = advise_hand(rules, card, dice, 2, held=(4,), top=40)
    again = advise_hand(rules, card, dice, 2, top=40)
    keep = {a.keep_faces: a.keep_positions for a in free if a.kind == "keep"}
    assert keep[(5, 5)] == (0, 2)  # the first dice showing the faces
    assert {a.keep_faces: a.keep_positions for a in held if a.kind == "keep"}[(5, 5)] == (0, 4)  # the held one first
    assert again == free


@pytest.fixture
def generala_reloaded() -> Iterator[Rules]:
    """Generala with its table in the store; the store emptied afterwards (the next caller loads it from disk)."""
    rules = find_rules("generala")
    coach_solution(rules)
    yield rules
    solved_tables().clear()


def one_point_more(solution: Solution) -> Solution:
    """The same rules with every value to come one point higher: an advice that reads it says so."""
    return Solution(solution.space, solution.values + 1.0)


@pytest.mark.parametrize("leave", ["clear", "pop"])
def test_advice_after_a_table_leaves_the_store_reads_the_stores_new_table(generala_reloaded: Rules, leave: str) -> None:
    rules = generala_reloaded
    card: Card = [None] * len(rules.slots)
    dice = (2, 2, 5, 5, 6)
    store = solved_tables()
    before = advise_hand(rules, card, dice, 2, top=40)
    first = store.get(rules)
    assert first is not None
    if leave == "clear":
        store.clear()
    else:
        store.pop(rules)
    changed = store.put(rules, one_point_more(first))
    after = advise_hand(rules, card, dice, 2, top=40)
    assert [tuple(a) for a in after] == from_every_option(changed, card, dice, 2, 0, (), 40)
    assert [a.expected for a in after] != [a.expected for a in before]


def test_a_table_the_store_let_go_is_not_kept_alive_by_the_coach(generala_reloaded: Rules) -> None:
    rules = generala_reloaded
    card: Card = [None] * len(rules.slots)
    store = solved_tables()
    store.clear()
    store.put(rules, one_point_more(coach_solution(rules)))  # a table only the store holds
    advise_hand(rules, card, (1, 2, 3, 4, 5), 1)
    table = store.get(rules)
    assert table is not None
    gone = weakref.ref(table)
    del table
    store.clear()
    gc.collect()
    assert gone() is None


def test_advice_on_a_loaded_table_does_not_wait_for_the_stores_lock(generala_reloaded: Rules) -> None:
    """Another thread solving some rules holds the store's lock: advice on a table already read goes on."""
    rules = generala_reloaded
    card: Card = [None] * len(rules.slots)
    advise_hand(rules, card, (1, 2, 3, 4, 5), 1)
    got: list[list[Advice]] = []
    with solved_tables().lock:
        asker = threading.Thread(target=lambda: got.append(advise_hand(rules, card, (6, 6, 6, 1, 2), 1)), daemon=True)
        asker.start()
        asker.join(timeout=60)  # a bounded wait on the answer: without the memo it waits on the lock held here
        assert got and got[0]
