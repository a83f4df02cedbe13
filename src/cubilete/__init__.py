"""cubilete: the Generala family of dice games (Generala, General, Bozó, Yahtzee, Yatzy, ...).

>>> from cubilete import find_rules, base_points
>>> base_points(find_rules("generala").box("full"), (2, 2, 6, 6, 6))
30
"""

from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.dice import DiceSource, ScriptedDice, SeededDice
from cubilete.engine.errors import (
    CubileteError,
    IllegalActionError,
    NotationError,
    RecordError,
    RulesError,
    UnknownRulesError,
)
from cubilete.engine.game import Game
from cubilete.engine.rules import Box, Rules, find_rules, load_rules, preset_names
from cubilete.engine.rules.scoring import base_points, slot_points

__version__ = "0.1.0"

__all__ = [
    "Action",
    "Box",
    "CubileteError",
    "DiceSource",
    "Game",
    "IllegalActionError",
    "NotationError",
    "RecordError",
    "Roll",
    "Rules",
    "RulesError",
    "Score",
    "ScriptedDice",
    "SeededDice",
    "Stand",
    "UnknownRulesError",
    "base_points",
    "find_rules",
    "load_rules",
    "preset_names",
    "slot_points",
]
