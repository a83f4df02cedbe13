"""Rules as data: the :class:`Rules` value, its presets, house-rule profiles and scoring."""

from cubilete.engine.rules.codec import rules_from_dict, rules_hash, rules_to_dict
from cubilete.engine.rules.model import Box, Direction, Joker, Kind, Order, Points, Rules, Start, TieBreak
from cubilete.engine.rules.presets import all_presets, find_rules, preset_names, register
from cubilete.engine.rules.profile import load_profile, load_rules, rules_from_toml

__all__ = [
    "Box",
    "Direction",
    "Joker",
    "Kind",
    "Order",
    "Points",
    "Rules",
    "Start",
    "TieBreak",
    "all_presets",
    "find_rules",
    "load_profile",
    "load_rules",
    "preset_names",
    "register",
    "rules_from_dict",
    "rules_from_toml",
    "rules_hash",
    "rules_to_dict",
]
