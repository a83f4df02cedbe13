"""The exact two-player game: P(win) for every joint position (both sheets, lead, who moves).

>>> from cubilete.duel.space import DuelUnsupportedError
>>> issubclass(DuelUnsupportedError, ValueError)
True
"""

from cubilete.duel.space import JointSpace, build_joint, check_duel
from cubilete.engine.errors import DuelUnsupportedError

__all__ = ["DuelUnsupportedError", "JointSpace", "build_joint", "check_duel"]
