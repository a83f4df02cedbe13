"""Texts of the web game in a client's language (es, pt, en).

The server serves many languages at once: each text is made in its client's language for the
making thread or task only (:func:`cubilete.i18n.speaking`), so no lock holds other clients back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any, TypeVar

from cubilete.engine.rules import Rules
from cubilete.engine.rules.describe import closest_preset, differences
from cubilete.i18n import rules_title, servida_word, speaking
from cubilete.play.sheet import slot_label

WEB_LANGUAGES = {"es": "es", "pt": "pt_BR", "en": "en"}
T = TypeVar("T")


def web_language(code: str | None) -> str:
    """``es``, ``pt`` or ``en`` from what a browser or a URL says (default ``en``)."""
    word = (code or "").strip().lower().replace("_", "-")
    for short in WEB_LANGUAGES:
        if word == short or word.startswith(short + "-"):
            return short
    return "en"


@contextmanager
def in_language(lang: str) -> Iterator[None]:
    """Make texts in ``lang`` (a web code), in this thread or task only."""
    with speaking(WEB_LANGUAGES[web_language(lang)]):
        yield


def in_each_language(make: Callable[[], T]) -> dict[str, T]:
    """``make()`` once in every web language."""
    out: dict[str, T] = {}
    for lang in WEB_LANGUAGES:
        with in_language(lang):
            out[lang] = make()
    return out


@lru_cache(maxsize=256)
def rules_words(rules: Rules) -> dict[str, Any]:
    """The rules' title and every slot's label, in every web language."""
    titles = in_each_language(lambda: rules_title(rules))
    labels = in_each_language(lambda: [slot_label(rules, i) for i in range(len(rules.slots))])
    return {
        "title": titles,
        "servida": in_each_language(lambda: servida_word(rules)),
        "slots": [
            {"slot": slot, "labels": {lang: labels[lang][i] for lang in WEB_LANGUAGES}}
            for i, slot in enumerate(rules.slots)
        ],
    }


@lru_cache(maxsize=256)
def house_words(rules: Rules) -> dict[str, Any]:
    """For house rules: the preset they are closest to and what they change from it, in every web language
    (the table page lists the changes under the title, so nobody sits down to a surprise)."""
    base = closest_preset(rules)
    return {
        "base": base.name,
        "base_title": in_each_language(lambda: rules_title(base)),
        "changes": in_each_language(lambda: differences(rules, base)),
    }
