"""The words-free sheet the web sends (``slot_states``) says exactly what the terminal's sheet says."""

from __future__ import annotations

import random

import pytest

from cubilete.engine.game import Game
from cubilete.engine.rules import all_presets
from cubilete.play.sheet import SlotState, slot_states, slot_views


@pytest.mark.parametrize("rules", all_presets(), ids=lambda r: r.name)
def test_slot_states_agree_with_slot_views_through_random_games(rules: object) -> None:
    rng = random.Random(5)
    checked = 0
    for seed in range(2):
        game = Game(rules, ["a", "b"], f"sheet-{seed}")  # type: ignore[arg-type]
        while not game.is_over:
            st = game.state
            card = st.seats[st.current].card
            hand = st.turn.dice if st.turn.throws else None
            views = slot_views(game.rules, card, hand, st.turn.first_throw)
            assert slot_states(game.rules, card, hand, st.turn.first_throw) == [
                (v.slot, v.state, v.points, v.written) for v in views
            ]
            checked += 1
            game.apply(rng.choice(game.legal_actions()))
    assert checked > 20


def test_slot_states_before_a_throw_are_open_or_closed() -> None:
    rules = all_presets()[0]
    card = [None] * len(rules.slots)
    card[0] = 3
    states = slot_states(rules, card)
    assert states[0] == (rules.slots[0], SlotState.CLOSED, None, 3)
    assert {s for _, s, _, _ in states[1:]} == {SlotState.OPEN}
