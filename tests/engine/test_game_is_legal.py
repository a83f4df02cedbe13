"""``Game.is_legal(a)`` is exactly ``a in game.legal_actions()`` (``apply`` checks moves with it), on every
preset, in every phase, for legal moves and for many illegal ones."""

from __future__ import annotations

import itertools
import random

import pytest

from cubilete.engine.actions import Roll, Score, Stand
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.game import Game
from cubilete.engine.rules import find_rules
from cubilete.engine.rules.presets import all_presets
from cubilete.engine.state import Phase


def candidates(game: Game, rng: random.Random) -> list[object]:
    """The legal actions and a spread of illegal ones: bad keeps, face-down calls, every slot, a stand."""
    n = game.rules.dice
    out: list[object] = list(game.legal_actions())
    keeps = [k for size in range(n + 2) for k in itertools.combinations(range(-1, n + 1), size)]
    for keep in rng.sample(keeps, min(8, len(keeps))):
        out += [Roll(keep), Roll(keep, face_down=True)]
    out += [Roll((0, 0)), Roll((1, 1, 2)), Roll(tuple(range(n))), Stand(), "roll", None]
    out += [Score(slot) for slot in game.rules.slots] + [Score("no-such-box")]
    return out


@pytest.mark.parametrize("rules", all_presets(), ids=lambda r: r.name)
def test_is_legal_agrees_with_the_list_of_legal_actions(rules) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(rules.name)
    checked = 0
    phases = set()
    for game_no in range(2):
        game = Game(rules, [f"P{i}" for i in range(max(2, rules.min_players))], seed=f"{rules.name}-{game_no}")
        for _ in range(400):
            legal = game.legal_actions()
            phases.add(game.state.phase)
            for action in candidates(game, rng):
                assert game.is_legal(action) == (action in legal), (action, game.state.phase, game.state.turn)
                checked += 1
            if not legal:
                break
            game.apply(rng.choice(legal))
    assert checked > 500
    assert Phase.OVER in phases  # the games were played to their end


def test_is_legal_agrees_in_a_tie_break_round() -> None:
    # one box "1"; both players score 1 one: tie, then a tie-break round (as tests/play/test_bots.py sets it up)
    rules = find_rules("generala").replace(boxes=(find_rules("generala").box("1"),), name="ones")
    throws = [[6], [1], [1, 2, 2, 2, 2], [1, 3, 3, 3, 3]] + [[1, 1, 2, 2, 2]] * 20
    game = Game(rules, ["a", "b"], dice=ScriptedDice(throws), seed=1)
    for _ in range(2):
        game.apply(Roll())
        game.apply(Score("1"))
    rng = random.Random(7)
    seen = 0
    while game.state.phase is Phase.TIEBREAK and seen < 8:  # equal hands: round after round
        legal = game.legal_actions()
        for action in candidates(game, rng):
            assert game.is_legal(action) == (action in legal), action
        seen += 1
        game.apply(Stand() if Stand() in legal else Roll())  # whole throws: the scripted hands as written
    assert seen == 8 and any(isinstance(a, Stand) for a in game.history)
