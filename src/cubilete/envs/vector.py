"""``gymnasium.make_vec("cubilete/Solitaire-v0", num_envs=N, vectorization_mode="vector_entry_point")``:
N solitaire games stepped together in compiled (numba) batches.

Same observation, actions, rewards and ``info["regret"]`` as :class:`~cubilete.envs.solitaire.SolitaireEnv`
(``infos["action_mask"]`` is an ``(N, A)`` int8 array, :meth:`action_masks` its boolean form). An env
whose episode ended is started again by the next step, whatever its action (Gymnasium's
``NEXT_STEP`` autoreset). An illegal action leaves its env as it was (``infos["illegal_action"]``;
``strict=True`` raises instead). Rules the solver cannot handle (several columns, throws that carry
over) are refused: use the single environment with ``SyncVectorEnv`` for those.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space

from cubilete.engine.errors import EnvError, SolverUnsupportedError
from cubilete.engine.rules.model import Rules
from cubilete.envs import _vector_kernels as K
from cubilete.envs._common import ActionCodec, SheetLayout, resolve_rules, solitaire_rules
from cubilete.solver.space import build_space


class SolitaireVectorEnv(VectorEnv[np.ndarray, np.ndarray, np.ndarray]):
    """``num_envs`` solitaire sheets of one rule set, stepped by one numba kernel call."""

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 1,
        rules: str | Path | Rules = "yahtzee",
        regret: bool = True,
        strict: bool = False,
        **_: Any,
    ):
        if not isinstance(num_envs, int) or num_envs < 1:
            raise EnvError(f"num_envs must be a positive whole number, not {num_envs!r}")
        self.rules = resolve_rules(rules)
        play = solitaire_rules(self.rules)
        try:
            space = build_space(self.rules)
        except SolverUnsupportedError as exc:
            raise EnvError(f"the vector environment needs rules the solver handles: {exc}") from None
        self.space = space
        self.codec = ActionCodec(play)
        self.layout = SheetLayout(play)
        self.num_envs = num_envs
        self.regret = regret
        self.strict = strict
        self.single_action_space = spaces.Discrete(self.codec.n)
        self.single_observation_space = spaces.Box(self.layout.low, self.layout.high, dtype=np.float32)
        self.action_space = batch_space(self.single_action_space, num_envs)
        self.observation_space = batch_space(self.single_observation_space, num_envs)
        from cubilete.solver.tables import kernel_tables

        self._T = kernel_tables(space)
        if regret:
            from cubilete.solver.cache import shared_solution

            self._V = shared_solution(self.rules).values
        else:
            self._V = np.zeros((1, 1, 1))
        d = space.dice
        n, S, N = self.rules.dice, space.n_slots, num_envs
        self._code_index = np.full(7**n, -1, dtype=np.int64)
        for idx, keep in enumerate(d.keeps):
            code = 0
            for f in keep:
                code = code * 7 + f
            self._code_index[code] = idx
        r = N if regret else 1  # regret buffers only when asked for
        nk, t1 = d.n_keeps, self.rules.throws + 1
        self._bufs = (np.zeros((r, t1, nk)),)  # keep values of each env's turn (for regret)
        self._rng = np.ones(N, dtype=np.uint64)
        i64 = np.int64
        self._mask, self._fl, self._upc = np.zeros(N, i64), np.zeros(N, i64), np.zeros(N, i64)
        self._card = np.full((N, S), -1, dtype=i64)
        self._dice = np.zeros((N, n), dtype=i64)
        self._held, self._throws = np.zeros(N, i64), np.zeros(N, i64)
        self._upraw, self._total, self._turns = np.zeros(N, i64), np.zeros(N, i64), np.zeros(N, i64)
        self._pending = np.zeros(N, i64)
        self._obs = np.zeros((N, self.layout.size), dtype=np.float32)
        self._amask = np.zeros((N, self.codec.n), dtype=np.int8)
        self._rewards = np.zeros(N)
        self._terminated = np.zeros(N, dtype=bool)
        self._truncated = np.zeros(N, dtype=bool)
        self._regrets = np.zeros(N)
        self._illegal = np.zeros(N, dtype=bool)
        self._started = False

    def _statics(self) -> tuple[Any, ...]:
        return (
            self.rules.dice,
            self.codec.slot_base,
            self.codec.n_keeps,
            self.rules.face_down_call,
            self.space.const_bonus,
            self._code_index,
            self._rng,
            self._mask,
            self._fl,
            self._upc,
            self._card,
            self._dice,
            self._held,
            self._throws,
            self._upraw,
            self._total,
            self._turns,
        )

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        """Start every env again; ``seed`` seeds all of them (one independent dice stream per env)."""
        if isinstance(seed, list):
            seed = next((s for s in seed if s is not None), None)
        if seed is not None or not self._started:
            entropy = seed if seed is not None else np.random.SeedSequence().entropy
            state = np.random.SeedSequence(entropy).generate_state(self.num_envs, dtype=np.uint64)
            self._rng[:] = state | np.uint64(1)
        self._started = True
        self._pending[:] = 0
        which = np.ones(self.num_envs, dtype=np.int64)
        K.reset_envs(  # type: ignore[call-arg]
            self._T, self._V, which, self.regret, *self._statics(), *self._bufs, self._obs, self._amask
        )
        return self._obs.copy(), {"action_mask": self._amask.copy()}

    def step(self, actions: Any) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, dict[str, Any]]:
        """Step every env by its action (an env whose episode just ended starts again instead)."""
        if not self._started:
            raise EnvError("call reset() before step()")
        acts = np.asarray(actions, dtype=np.int64).reshape(-1)
        if acts.shape[0] != self.num_envs:
            raise EnvError(f"expected {self.num_envs} actions, got {acts.shape[0]}")
        if acts.min() < 0 or acts.max() >= self.codec.n:
            raise EnvError(f"actions must be 0..{self.codec.n - 1}")
        if self.strict:
            live = self._pending == 0
            bad = np.flatnonzero(live & (self._amask[np.arange(self.num_envs), acts] == 0))
            if bad.size:
                i = int(bad[0])
                raise EnvError(f"env {i}: action {acts[i]} ({self.codec.decode(int(acts[i]))}) is not legal now")
        K.step_envs(  # type: ignore[call-arg]
            self._T, self._V, acts, self.regret, *self._statics(), self._pending, *self._bufs, self._obs,
            self._amask, self._rewards, self._terminated, self._regrets, self._illegal,
        )  # fmt: skip
        infos: dict[str, Any] = {"action_mask": self._amask.copy(), "illegal_action": self._illegal.copy()}
        if self.regret:
            infos["regret"] = self._regrets.copy()
        return self._obs.copy(), self._rewards.copy(), self._terminated.copy(), self._truncated.copy(), infos

    def action_regrets(self) -> np.ndarray:
        """``(num_envs, A)`` float array: the exact regret each action would get now (what ``infos["regret"]``
        reports if it is taken), NaN for illegal actions and for envs that start a new game at the next step.
        One numba call for the whole batch: the expert's judgement of every legal action, for imitation."""
        if not self.regret:
            raise EnvError("action_regrets needs the environment made with regret=True")
        if not self._started:
            raise EnvError("call reset() before action_regrets()")
        out = np.empty((self.num_envs, self.codec.n))
        K.all_regrets(  # type: ignore[call-arg]
            self._T, self._V, self.regret, *self._statics(), self._pending, *self._bufs, self._amask, out
        )
        return out

    def action_masks(self) -> np.ndarray:
        """Boolean ``(num_envs, A)`` mask of the legal actions."""
        return self._amask.astype(bool)
