"""OpenSpiel game ``python_cubilete`` (registered on import; extra ``[rl]``: ``open_spiel``).

``pyspiel.load_game("python_cubilete", {"rules": "generala", "players": 2})``. Every throw is an
explicit chance node whose outcomes are the multisets of the dice thrown, with their exact
probabilities (multinomial / 6^m); the thrown faces fill the free positions in ascending order
(dice are exchangeable, so nothing is lost). Player actions use the encoding of
:class:`~cubilete.envs._common.ActionCodec`, plus one last action, *stand* (tie-break rounds).
The starting player is seat 0 (the throw for who starts is left out). Terminal returns are
zero-sum: each of ``k`` winners ``+1/k``, each of the other ``n - k`` players ``-1/(n - k)``.
Instant wins and tie-break rounds are played by the engine (:class:`~cubilete.engine.game.Game`).
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from functools import lru_cache
from math import factorial
from typing import Any

import pyspiel  # type: ignore[import-not-found]

from cubilete.engine.actions import Roll, Stand
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.errors import EnvError
from cubilete.engine.game import Game
from cubilete.engine.rules.model import Rules, Start
from cubilete.envs._common import ActionCodec, resolve_rules
from cubilete.solver.combinatorics import dice_tables

SHORT_NAME = "python_cubilete"
_DEFAULTS = {"rules": "generala", "players": 2}

_GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Python cubilete (Generala family dice games)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.PERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=8,
    min_num_players=1,
    provides_information_state_string=False,
    provides_information_state_tensor=False,
    provides_observation_string=False,
    provides_observation_tensor=False,
    parameter_specification=_DEFAULTS,
)


@dataclass(frozen=True)
class _Config:
    """What the states of one parameter set share (kept here: OpenSpiel may rebuild game objects)."""

    rules: Rules
    players: int
    codec: ActionCodec
    keeps: tuple[tuple[int, ...], ...]
    outcome_prob: tuple[float, ...]  # probability of each multiset when its dice are thrown, by keep index


@lru_cache(maxsize=32)
def _config(rules_name: str, players: int) -> _Config:
    rules = resolve_rules(rules_name).replace(start=Start.SEAT_ORDER)
    keeps = dice_tables(rules.dice).keeps
    probs = []
    for k in keeps:
        p = factorial(len(k)) / 6.0 ** len(k)
        for f in set(k):
            p /= factorial(k.count(f))
        probs.append(p)
    return _Config(rules, players, ActionCodec(rules), keeps, tuple(probs))


def _params_config(params: dict[str, Any]) -> _Config:
    merged = {**_DEFAULTS, **params}
    players = int(merged["players"])
    if not 1 <= players <= 8:
        raise EnvError(f"players must be 1 to 8, not {players}")
    return _config(str(merged["rules"]), players)


class CubileteGame(pyspiel.Game):  # type: ignore[misc]
    """A table of ``players`` (1 to 8) playing ``rules``."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        merged = {**_DEFAULTS, **(params or {})}
        c = _params_config(merged)
        rules = c.rules
        length = rules.turns * (2 * rules.throws + 1) * c.players * (3 if rules.carry_over_throws else 1)
        info = pyspiel.GameInfo(
            num_distinct_actions=c.codec.n + 1,
            max_chance_outcomes=len(c.keeps),
            num_players=c.players,
            min_utility=-1.0,
            max_utility=1.0,
            utility_sum=0.0,
            max_game_length=length + 200 * c.players,  # tie-break rounds: at most 100, two steps a player
        )
        super().__init__(_GAME_TYPE, info, merged)

    def new_initial_state(self) -> CubileteState:
        return CubileteState(self)


class CubileteState(pyspiel.State):  # type: ignore[misc]
    """A position: the engine's game plus the roll waiting for its dice (a chance node)."""

    def __init__(self, game: Any) -> None:
        super().__init__(game)
        self._c = _params_config(game.get_parameters())
        players = [f"p{i}" for i in range(self._c.players)]
        self.engine = Game(self._c.rules, players, seed="openspiel", dice=ScriptedDice([]))
        self.pending: Roll | None = None

    def __deepcopy__(self, memo: dict[int, Any]) -> CubileteState:
        new = CubileteState(self.get_game())
        new.engine = copy.deepcopy(self.engine, memo)
        new.pending = self.pending
        return new

    def _roll_due(self) -> Roll | None:
        if self.engine.is_over:
            return None
        if self.pending is not None:
            return self.pending
        return Roll() if self.engine.state.turn.throws == 0 else None

    def current_player(self) -> int:
        if self.engine.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        if self._roll_due() is not None:
            return int(pyspiel.PlayerId.CHANCE)
        return self.engine.state.current

    def _legal_actions(self, player: int) -> list[int]:
        legal = self.engine.legal_actions()
        out = sorted(self._c.codec.encode(a) for a in legal if not isinstance(a, Stand))
        if Stand() in legal:
            out.append(self._c.codec.n)
        return out

    def chance_outcomes(self) -> list[tuple[int, float]]:
        roll = self._roll_due()
        assert roll is not None
        m = self._c.rules.dice - len(roll.keep)
        keeps = self._c.keeps
        return [(i, self._c.outcome_prob[i]) for i, k in enumerate(keeps) if len(k) == m]

    def _apply_action(self, action: int) -> None:
        roll = self._roll_due()
        if roll is not None:  # chance: the faces of the dice thrown, in ascending order
            faces = self._c.keeps[action]
            if roll.face_down:
                faces = tuple(7 - f for f in faces)
            source = self.engine.dice
            assert isinstance(source, ScriptedDice)
            source.throws[self.engine.state.throws_made :] = [tuple(faces)]
            self.pending = None
            self.engine.apply(roll)
            return
        move = Stand() if action == self._c.codec.n else self._c.codec.decode(action)
        if isinstance(move, Roll):
            self.pending = move
        else:
            self.engine.apply(move)

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return "throw " + " ".join(map(str, self._c.keeps[action]))
        return "stand" if action == self._c.codec.n else str(self._c.codec.decode(action))

    def is_terminal(self) -> bool:
        return self.engine.is_over

    def returns(self) -> list[float]:
        n = self._c.players
        if not self.engine.is_over:
            return [0.0] * n
        winners = set(self.engine.state.winners)
        k = len(winners)
        if k == n:
            return [0.0] * n
        return [1.0 / k if i in winners else -1.0 / (n - k) for i in range(n)]

    def __str__(self) -> str:
        st = self.engine.state
        totals = self.engine.totals()
        return f"{st.phase} seat {st.current} dice {st.turn.dice} throw {st.turn.throws} totals {totals}"


pyspiel.register_game(_GAME_TYPE, CubileteGame)
