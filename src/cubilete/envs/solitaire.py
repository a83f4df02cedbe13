"""``cubilete/Solitaire-v0``: one player fills a sheet of any variant (a Gymnasium environment).

* observation: :class:`~cubilete.envs._common.SheetLayout` (a flat float32 ``Box``);
* actions: :class:`~cubilete.envs._common.ActionCodec` (keep masks, "em baixo" keep masks, slots);
* reward: the points the step adds to the total, bonuses included, so an episode's return is
  the final score;
* ``info["action_mask"]`` (int8) and :meth:`SolitaireEnv.action_masks` (bool, for sb3-contrib);
* an illegal action changes nothing: reward 0 and ``info["illegal_action"] = True`` (``strict=True``
  raises :class:`~cubilete.envs._common.EnvError` instead); an action out of range always raises;
* ``info["regret"]``: the expected points the action lost against optimal play (0 for an optimal
  action), exact from the solved table wherever the rules can be solved; absent otherwise
  (then ``info["regret_known"]`` is False, so a checker comparing infos sees equal values, never a
  NaN that differs from itself), and both keys are absent with ``regret=False``.

Played alone, a box that wins at once (P10) just scores, as the solver counts it.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from cubilete.engine.actions import Roll, Score
from cubilete.engine.errors import EnvError, SolverUnsupportedError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.envs._common import ActionCodec, SheetLayout, resolve_rules, solitaire_rules
from cubilete.solver.space import check_solvable


class SolitaireEnv(gym.Env[np.ndarray, np.int64]):
    """One sheet played alone; see the module docstring for the encodings."""

    metadata = {"render_modes": ["ansi"], "render_fps": 4}  # noqa: RUF012 - gymnasium's convention

    def __init__(
        self,
        rules: str | Path | Rules = "yahtzee",
        regret: bool = True,
        render_mode: str | None = None,
        strict: bool = False,
    ):
        self.rules = resolve_rules(rules)
        self.play_rules = solitaire_rules(self.rules)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise EnvError(f"render_mode must be one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.codec = ActionCodec(self.play_rules)
        self.layout = SheetLayout(self.play_rules)
        self.action_space = spaces.Discrete(self.codec.n)
        self.observation_space = spaces.Box(self.layout.low, self.layout.high, dtype=np.float32)
        self.regret = regret
        self.strict = strict
        self.solvable = True
        try:
            check_solvable(self.rules)
        except SolverUnsupportedError:
            self.solvable = False
        self._solution: Any = None
        self.game: Game | None = None
        self._obs = np.zeros(self.layout.size, dtype=np.float32)

    # --- Gymnasium API ----------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(0, 2**63 - 1))
        self.game = Game(self.play_rules, ["agent"], seed=game_seed)
        self.game.apply(Roll())
        return self._observe(), self._info()

    def step(self, action: np.int64 | int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        game = self._require_game()
        if game.is_over:
            raise EnvError("the episode is over: call reset()")
        a = int(action)
        legal = game.legal_actions()
        engine_action = self.codec.decode(a)
        assert isinstance(engine_action, Roll | Score)
        if engine_action not in legal:
            if self.strict:
                raise EnvError(f"action {a} ({engine_action}) is not legal now; use info['action_mask']")
            info = self._info()
            info["illegal_action"] = True
            return self._observe(), 0.0, False, False, info
        regret = self._regret(game, engine_action) if self.regret else None
        before = self._total(game)
        game.apply(engine_action)
        reward = float(self._total(game) - before)
        if not game.is_over and isinstance(engine_action, Score):
            game.apply(Roll())  # the next turn's first throw: not a decision
        info = self._info()
        if self.regret:
            info["regret_known"] = regret is not None
            if regret is not None:
                info["regret"] = regret
        return self._observe(), reward, game.is_over, False, info

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        seat, turn = self.game.seat(), self.game.state.turn
        lines = [f"{self.rules.name}: total {self._total(self.game)}, throw {turn.throws}/{turn.allowance}"]
        slots = zip(self.rules.slots, seat.card, strict=True)
        lines += [f"  {slot:>12} {'-' if v is None else v}" for slot, v in slots]
        lines.append(f"  dice {' '.join(map(str, turn.dice))}")
        return "\n".join(lines)

    # --- masks --------------------------------------------------------------------------
    def action_mask(self) -> np.ndarray:
        """int8 mask of the legal actions (all zero once the episode is over)."""
        game = self._require_game()
        return self.codec.mask(game.legal_actions())

    def action_masks(self) -> np.ndarray:
        """Boolean mask of the legal actions (sb3-contrib's MaskablePPO calls this)."""
        return self.action_mask().astype(bool)

    # --- helpers ------------------------------------------------------------------------
    def _require_game(self) -> Game:
        if self.game is None:
            raise EnvError("call reset() before step()")
        return self.game

    def _total(self, game: Game) -> int:
        seat = game.seat(0)
        return scoring.total(self.play_rules, seat.card, seat.extra_bonuses)

    def _observe(self) -> np.ndarray:
        game = self._require_game()
        seat, turn = game.seat(0), game.state.turn
        held = turn.held if self.play_rules.locked_holds and turn.throws > 0 else ()
        self.layout.fill(
            self._obs, seat.card, turn.dice, held, turn.throws, turn.allowance, seat.extra_bonuses, seat.turns_taken
        )
        return self._obs.copy()

    def _info(self) -> dict[str, Any]:
        return {"action_mask": self.action_mask()}

    def solution(self) -> Any:
        """The solved table of the rules (solved or loaded once per process)."""
        if self._solution is None:
            from cubilete.solver.cache import shared_solution

            self._solution = shared_solution(self.rules)
        return self._solution

    def _regret(self, game: Game, action: Roll | Score) -> float | None:
        """Exact expected points lost by ``action`` (None where the rules cannot be solved)."""
        st = game.state
        if not self.solvable or st.phase is not Phase.PLAY:
            return None
        from cubilete.solver.advisor import advise

        seat, turn = game.seat(), st.turn
        held = tuple(sorted(turn.dice[p] for p in turn.held)) if self.rules.locked_holds and turn.throws > 1 else ()
        options = advise(self.solution(), seat.card, turn.dice, turn.throws, seat.extra_bonuses, held)
        if isinstance(action, Score):
            match = [o for o in options if o.kind == "score" and o.slot == action.slot]
        else:
            kept = tuple(sorted(turn.dice[p] for p in action.keep))
            match = [o for o in options if o.kind == "keep" and o.keep == kept]
        if not match:  # pragma: no cover - the advisor lists every legal option
            raise EnvError(f"the solver has no option for {action}")
        return max(0.0, float(match[0].loss))
