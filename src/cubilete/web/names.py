"""Player names from the network: NFKC-normalised, one script per name, no look-alikes at one table.

"Аna" (a Cyrillic А, then Latin) beside "Ana" reads the same to everyone at the table; the server
refuses a name that mixes scripts, and a name whose *skeleton* (case, accents and the common
Latin/Cyrillic/Greek look-alikes folded away) matches a name already seated.
"""

from __future__ import annotations

import unicodedata

from cubilete.web.protocol import NAME_MAX, ProtocolError

# a name is limited after NFKC: one character may become many (U+FDFA is 18), so 24 of them were 432
NAME_MAX_BYTES = 4 * NAME_MAX  # UTF-8 bytes of a normalised name

# letters that look like Latin ones (a small part of Unicode's confusables, the ones keyboards make)
_LOOKALIKES = str.maketrans({
    # Cyrillic
    "а": "a", "в": "b", "е": "e", "ё": "e", "к": "k", "м": "m", "н": "h", "о": "o", "р": "p", "с": "c",
    "т": "t", "у": "y", "х": "x", "і": "i", "ї": "i", "ј": "j", "ѕ": "s", "ԁ": "d", "һ": "h", "ӏ": "l",
    "ԛ": "q", "ԝ": "w", "ь": "b", "г": "r",
    # Greek
    "α": "a", "β": "b", "ε": "e", "η": "n", "ι": "i", "κ": "k", "ν": "v", "ο": "o", "ρ": "p", "τ": "t",
    "υ": "u", "χ": "x", "ζ": "z", "μ": "u", "ϲ": "c",
    # Latin look-alikes of Latin letters
    "ı": "i", "ł": "l", "ø": "o", "đ": "d", "ħ": "h", "ŀ": "l",
    # digits read as letters
    "0": "o", "1": "l",
})
_SAME_SCRIPT = {"CJK": "HAN", "HIRAGANA": "HAN", "KATAKANA": "HAN", "HANGUL": "HANGUL"}


def normalise(name: str) -> str:
    """The name as the server keeps it: NFKC (full-width and compatibility forms folded), spaces trimmed."""
    return unicodedata.normalize("NFKC", name).strip()


def _script(ch: str) -> str | None:
    """The script of a letter (its Unicode name's first word), None for digits, spaces and marks."""
    if not ch.isalpha():
        return None
    first = unicodedata.name(ch, "UNKNOWN").split(" ", 1)[0]
    return _SAME_SCRIPT.get(first, first)


def skeleton(name: str) -> str:
    """What a name looks like: case, accents, spaces and look-alike letters folded away."""
    folded = unicodedata.normalize("NFKD", normalise(name).casefold())
    plain = "".join(ch for ch in folded if not unicodedata.combining(ch) and not ch.isspace())
    return plain.translate(_LOOKALIKES)


def check_name(name: str, seated: list[str]) -> str:
    """The normalised name, or :class:`ProtocolError` if it mixes scripts or looks like a seated name."""
    name = normalise(name)
    if len(name) > NAME_MAX or len(name.encode()) > NAME_MAX_BYTES:
        raise ProtocolError("bad-name", f"a name may hold at most {NAME_MAX} characters ({NAME_MAX_BYTES} bytes"
                            " in UTF-8) once written in its standard form (NFKC)")
    if not name or any(not ch.isprintable() or unicodedata.category(ch) == "Cf" for ch in name):
        raise ProtocolError("bad-message", "a name may not be empty or hold control or invisible characters")
    scripts = {s for s in map(_script, name) if s is not None}
    if len(scripts) > 1:
        raise ProtocolError("bad-name", f"a name is written in one alphabet, not a mix ({', '.join(sorted(scripts))})")
    mine = skeleton(name)
    for other in seated:
        if skeleton(other) == mine:
            raise ProtocolError("name-taken", f"someone at this table is already called {other} (or a name that looks"
                                " the same)")
    return name


TITLE_MAX = 60  # characters of a club's or a tournament's name


def check_title(text: str, what: str) -> str:
    """A club's or tournament's name (``what``): NFKC, trimmed, 1 to 60 characters, nothing invisible; else
    :class:`ProtocolError` saying so."""
    name = normalise(text)
    invisible = any(not ch.isprintable() or unicodedata.category(ch) == "Cf" for ch in name)
    if not name or len(name) > TITLE_MAX or invisible:
        raise ProtocolError("bad-name", f"name: {what} name has 1 to {TITLE_MAX} characters, none of them control"
                            " or invisible")
    return name
