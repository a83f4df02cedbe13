"""PettingZoo AEC environment: a table of 2 to 8 players (``cubilete.envs.table_env``).

Agents are ``player_0 .. player_{n-1}`` in seat order; who starts is thrown for as the rules say
(P15). Each agent observes a dict ``{"observation", "action_mask"}``:

* ``observation``: its own sheet and the dice on the table
  (:class:`~cubilete.envs._common.SheetLayout`), then for each other seat, in seat order after
  its own and padded to 7: total so far and turns left, then 1.0 during a tie-break round;
* actions: :class:`~cubilete.envs._common.ActionCodec` plus one last action, *stand*, which shows the
  hand of a tie-break round (the only way to end such a turn).

The first throw of each turn is made by the environment. ``reset(options={"dice": source})`` plays
with any :class:`~cubilete.engine.dice.DiceSource` (e.g. ``ScriptedDice`` for a set scenario). Instant
wins (P10) end the game at once; a tie on points is played off in tie-break rounds as the rules say (P17).

Rewards (``reward=``):

* ``"win"`` (default, zero-sum): at the end each of the ``k`` winners gets ``+1/k`` and each of the
  other ``n - k`` players ``-1/(n - k)``; everybody 0 when all share the win;
* ``"points"``: the points each step writes on the acting player's sheet (bonuses included).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from cubilete.engine.actions import Action, Roll, Stand
from cubilete.engine.errors import EnvError
from cubilete.engine.game import Game
from cubilete.engine.rules import scoring
from cubilete.engine.rules.model import Rules
from cubilete.engine.state import Phase
from cubilete.envs._common import ActionCodec, SheetLayout, resolve_rules

MAX_OTHERS = 7


class TableEnv(AECEnv):  # type: ignore[misc]
    """A whole game at one table, every seat an agent."""

    metadata = {"render_modes": ["ansi"], "name": "cubilete_table_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(
        self,
        rules: str | Path | Rules = "generala",
        players: int = 2,
        reward: str = "win",
        render_mode: str | None = None,
    ) -> None:
        super().__init__()
        self.rules = resolve_rules(rules)
        if not isinstance(players, int) or not max(2, self.rules.min_players) <= players <= self.rules.max_players:
            raise EnvError(f"a {self.rules.name} table has 2 to {self.rules.max_players} players, not {players!r}")
        if reward not in ("win", "points"):
            raise EnvError(f"reward must be 'win' or 'points', not {reward!r}")
        self.reward_mode = reward
        self.render_mode = render_mode
        self.codec = ActionCodec(self.rules)
        self.layout = SheetLayout(self.rules)
        self.stand_action = self.codec.n
        self.possible_agents = [f"player_{i}" for i in range(players)]
        size = self.layout.size + 2 * MAX_OTHERS + 1
        high = np.concatenate([self.layout.high, np.tile(self.layout.high[-2:], MAX_OTHERS), [1.0]]).astype(np.float32)
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(np.zeros(size, dtype=np.float32), high, dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(self.codec.n + 1,), dtype=np.int8),
            }
        )
        self.observation_spaces = dict.fromkeys(self.possible_agents, obs_space)
        self.action_spaces = {a: spaces.Discrete(self.codec.n + 1) for a in self.possible_agents}
        self.game: Game | None = None
        self._rng = np.random.default_rng()

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    # --- AEC API ---------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = np.random.default_rng(seed)
        dice = (options or {}).get("dice")  # a DiceSource (e.g. ScriptedDice) for a scenario
        self.game = Game(self.rules, self.possible_agents, seed=int(self._rng.integers(0, 2**63 - 1)), dice=dice)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._settle()

    def step(self, action: int | None) -> None:
        game = self._game()
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None:
            raise EnvError("a live agent's action cannot be None")
        move = self.decode(int(action))
        if move not in game.legal_actions():
            raise EnvError(f"{agent}: action {action} ({move}) is not legal now; use the action_mask")
        seat = game.state.current
        before = self._total(seat)
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        game.apply(move)
        if self.reward_mode == "points":
            self.rewards[agent] = float(self._total(seat) - before)
        self._settle()
        self._accumulate_rewards()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        game = self._game()
        seat_index = self.possible_agents.index(agent)
        st = game.state
        seat, turn = st.seats[seat_index], st.turn
        obs = np.zeros(self.layout.size + 2 * MAX_OTHERS + 1, dtype=np.float32)
        held = turn.held if self.rules.locked_holds and turn.throws > 0 else ()
        self.layout.fill(
            obs[: self.layout.size], seat.card, turn.dice, held, turn.throws, turn.allowance, seat.extra_bonuses,
            seat.turns_taken,
        )  # fmt: skip
        n = len(self.possible_agents)
        at = self.layout.size
        for k in range(1, n):
            other = st.seats[(seat_index + k) % n]
            obs[at] = scoring.total(self.rules, other.card, other.extra_bonuses)
            obs[at + 1] = self.rules.turns - other.turns_taken
            at += 2
        obs[-1] = 1.0 if st.phase is Phase.TIEBREAK else 0.0
        mask = np.zeros(self.codec.n + 1, dtype=np.int8)
        if agent == self.agent_selection and not game.is_over:
            legal = game.legal_actions()
            mask[: self.codec.n] = self.codec.mask(legal)
            mask[self.stand_action] = int(Stand() in legal)
        return {"observation": obs, "action_mask": mask}

    def render(self) -> str | None:
        if self.render_mode != "ansi" or self.game is None:
            return None
        totals = ", ".join(f"{a}: {t}" for a, t in zip(self.possible_agents, self.game.totals(), strict=True))
        return f"{self.rules.name} [{self.game.state.phase}] {totals}; dice {self.game.state.turn.dice}"

    def close(self) -> None:
        pass

    # --- helpers -----------------------------------------------------------------------------
    def decode(self, action: int) -> Action:
        """The engine action of an action number (the last one is *stand*)."""
        return Stand() if action == self.stand_action else self.codec.decode(action)

    def _game(self) -> Game:
        if self.game is None:
            raise EnvError("call reset() first")
        return self.game

    def _total(self, seat: int) -> int:
        s = self._game().state.seats[seat]
        return scoring.total(self.rules, s.card, s.extra_bonuses)

    def _settle(self) -> None:
        """Make the turn's first throw (not a decision); at the end, pay the rewards and stop."""
        game = self._game()
        while not game.is_over and game.state.turn.throws == 0:
            game.apply(Roll())
        if game.is_over:
            winners = set(game.state.winners)
            n, k = len(self.possible_agents), len(winners)
            if self.reward_mode == "win" and k < n:
                for i, a in enumerate(self.possible_agents):
                    self.rewards[a] += 1.0 / k if i in winners else -1.0 / (n - k)
            for i, a in enumerate(self.possible_agents):
                self.terminations[a] = True
                self.infos[a] = {
                    "winner": i in winners,
                    "reason": str(game.state.reason),
                    "score": game.totals()[i],
                }
        self.agent_selection = self.possible_agents[game.state.current]
