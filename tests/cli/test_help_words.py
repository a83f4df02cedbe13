"""The help of every command in es and pt_BR names its arguments in the language (argparse's metavariables
were English: COMMAND, NAMES, FILE) and says "reglamento"/"regra pronta", not "preset"."""

from __future__ import annotations

import re

import pytest

from cubilete.cli import main

ENGLISH_METAVARS = ("FILE", "BOXES", "BOX", "ADDRESS", "SHARE", "SECONDS", "OUT", "NAMES", "NAME", "LEVELS",
                    "LEVEL", "KEY", "FILLED", "COMMAND", "ACTION")
COMMANDS = ["play", "score", "rules", "replay", "solve", "advise", "simulate", "stats", "verify", "serve", "warmup",
            "distribution", "evaluate", "site-key", "site-flags"]


def _help(capsys: pytest.CaptureFixture[str], lang: str, *command: str) -> str:
    assert main(["--lang", lang, *command, "--help"]) == 0
    return capsys.readouterr().out


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_every_help_names_its_arguments_in_the_language(capsys: pytest.CaptureFixture[str], lang: str) -> None:
    pages = {" ".join(c) or "cubilete": _help(capsys, lang, *c) for c in ([], *([c] for c in COMMANDS))}
    for name, text in pages.items():
        text = re.sub(r"CUBILETE_[A-Z_<>]+", " ", text)  # environment variables are names, in English
        left = sorted({w for w in re.findall(r"\b[A-Z]{2,}\b", text) if w in ENGLISH_METAVARS})
        assert not left, f"{lang} {name}: {left}"
        assert not re.search(r"(?<![{\w-])presets?\b", text), f"{lang} {name}: 'preset'"
    assert "COMANDO" in pages["cubilete"] and ("NOMBRES" in pages["play"] or "NOMES" in pages["play"])


@pytest.mark.parametrize(("lang", "words"), [("es", ("strong = fuerte", "optimal = óptimo")),
                                             ("pt_BR", ("strong = forte", "optimal = ótimo"))])
def test_the_bot_levels_of_play_are_named_in_the_language(capsys: pytest.CaptureFixture[str], lang: str,
                                                          words: tuple[str, str]) -> None:
    """Issue 25.13: the level list of ``play --help`` says what each level typed after bot: means."""
    text = " ".join(_help(capsys, lang, "play").split())
    for word in words:
        assert word in text
