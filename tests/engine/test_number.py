"""Issue 25, item 13: decimals in the language's own mark: a comma in es and pt, a point in en."""

from __future__ import annotations

import pytest

from cubilete.i18n import number, speaking


@pytest.mark.parametrize(("lang", "shown"), [("es", "160,6"), ("pt_BR", "160,6"), ("en", "160.6")])
def test_one_decimal_in_each_language(lang: str, shown: str) -> None:
    with speaking(lang):
        assert number(160.56) == shown


def test_digits_are_kept() -> None:
    with speaking("es"):
        assert number(0.5, 2) == "0,50" and number(3, 0) == "3"
