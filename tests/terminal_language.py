"""The terminal's language as a person sets it: only ``LANG`` (nothing overriding it), then cubilete reads it."""

from __future__ import annotations

import pytest

from cubilete import i18n


def speak_from_lang(monkeypatch: pytest.MonkeyPatch, locale: str) -> None:
    """Set ``LANG=locale`` with no ``LANGUAGE``/``LC_ALL``/``LC_MESSAGES`` above it and let cubilete choose again
    (undo with ``i18n.set_language("en")`` after the test)."""
    for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", locale)
    i18n.reset_language()
