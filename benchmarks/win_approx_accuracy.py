"""The approximate win values (``cubilete.win.approx``) against the exact ones where the win tables exist:
the same 30 seeded heads-up positions per rule set as ``tests/win/test_approx.py`` (full Generala and a
three-box mini Yahtzee), the opponent's exact final-score distribution given as its share table.
Prints each option's mean and largest error and the chance the chosen option gives up (mean, largest).

    PYTHONPATH=src:. python benchmarks/win_approx_accuracy.py
"""

from __future__ import annotations

import numpy as np


def main() -> None:
    from tests.solver.test_oracle import YAHTZEE_SMALL
    from tests.win.test_approx import key, positions, shares_of

    from cubilete.engine.rules import find_rules
    from cubilete.win.approx import approx_win_options
    from cubilete.win.odds import seat_distribution
    from cubilete.win.play import win_options

    for name, rules in (("generala", find_rules("generala")), ("mini-yahtzee-3", YAHTZEE_SMALL)):
        errors, regrets = [], []
        for game in positions(rules, 30):
            st, me = game.state, game.seat()
            rival = seat_distribution(game, 1 - st.current)
            exact = {key(w.option): w.win for w in win_options(rules, me.card, st.turn.dice, st.turn.throws, [rival])}
            approx = approx_win_options(
                rules, me.card, st.turn.dice, st.turn.throws, (rival.mean, rival.sd**2),
                opponent_shares=shares_of(rival),
            )  # fmt: skip
            errors += [abs(w.win - exact[key(w.option)]) for w in approx]
            regrets.append(max(exact.values()) - exact[key(approx[0].option)])
        print(f"{name}: {len(regrets)} decisions; error of an option's chance: mean {np.mean(errors):.4f}, "
              f"largest {max(errors):.4f}; chance given up by the choice: mean {np.mean(regrets):.4f}, "
              f"largest {max(regrets):.4f}")  # fmt: skip


if __name__ == "__main__":
    main()
