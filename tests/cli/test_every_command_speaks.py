"""Every command under ``es`` and ``pt_BR`` (``--lang`` and the environment): no English sentence in its output.

An output line is English if it holds a word from ``ENGLISH`` once the names that are
data, not prose, are taken out: box and slot ids (``full``, ``small-straight``), preset
names, options (``--dice``), file names and player names. The word list holds common
English words that are not also Spanish or Portuguese words.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from cubilete import i18n
from cubilete.cli import main
from cubilete.engine.rules import all_presets

ENGLISH = frozenset(
    re.findall(
        r"\S+",
        (
            "the and with throw throws thrown keep keeps kept score scores scored scratch scratches dice die points "
            "is are was of every cannot only from wins won turn turns sum equal loss expected seed record file best "
            "player players box boxes not this that must nothing left which after first game games games optimal play "
            "should there no-such found unknown missing invalid choose command commands usage try help round rounds "
            "ranking winner bonuses upper sheet option options table far solving solved verified mismatch any order "
            "top bottom pairs showing holds until open closed "
        ),
    )
)
COMMAND_NAMES = "play|score|rules|replay|solve|advise|simulate|stats|verify|serve|warmup|distribution|evaluate"
LEVELS = "random|greedy|heuristic|beginner|casual|strong|optimal|lookahead|win|exact"
IDENTIFIER = re.compile(
    r"TOML[^:]*: .*|"  # the TOML parser's own words (Python's tomllib, in English)
    r"^\s+\[[\w.]+\]$|^\s+\w+ = .*|"  # a TOML profile shown in a help text
    rf"^ {{4}}(?:{COMMAND_NAMES})\b|"  # the list of commands in ``cubilete --help``
    r"--?[A-Za-z][\w-]*|[\w./-]+\.(?:json|toml|npz|png|svg)|bot:\w+|\w+@\d|/\S+"  # options, files, bots, slots, paths
    r"|'[^']*'|\b[A-Z]{2,}\b"  # quoted input and metavariables (COMMAND)
    rf"|cubilete (?:{COMMAND_NAMES})( (?:list|show|check))?"  # a command to type
    rf"|\b(?:{COMMAND_NAMES})(?:, (?:{COMMAND_NAMES}))+|\b(?:{LEVELS})(?:,\s?(?:{LEVELS}))+"  # lists of names
    rf"|\b(?:{LEVELS}) = "  # a level as typed, with its name in the language (play --help)
)
PROFILE = """\
base = "generala"
name = "mini"
title = "Mini"
remove = ["1", "2", "3", "4", "escalera", "full", "poker", "doble"]
"""


def _data_words() -> set[str]:
    words = {"generala", "mini", "ana", "beto", "bot", "ok", "sha", "s", "x", "nope"}
    words |= {"lower", "upper", "both"}  # values typed after `solve --bound` (like box ids: data, not sentences)
    for rules in all_presets():
        words.add(rules.name.lower())
        words.update(alias.lower() for alias in rules.aliases)
        for box in rules.boxes:
            words.update(box.id.lower().split("-"))
            words.add(box.id.lower())
    return words


DATA = _data_words()


def english_words(text: str) -> list[tuple[str, list[str]]]:
    """(line, English words in it) for every line that holds one."""
    found = []
    for line in text.splitlines():
        bare = IDENTIFIER.sub(" ", line)
        words = [w.lower() for w in re.findall(r"[A-Za-z']+", bare)]
        english = [w for w in words if w in ENGLISH and w not in DATA]
        if english:
            found.append((line, english))
    return found


def test_the_detector_finds_english() -> None:
    assert english_words("Generala: dice 1 1 3 4 5, throw 1 of 3")
    assert not english_words("generala: dados 1 1 3 4 5, tiro 1 de 3 (servida), 0 puntos hasta ahora")
    assert not english_words("  9  full-house  Full  --filled full=0 partida.json bot:strong")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    path = tmp_path_factory.mktemp("locale")
    (path / "mini.toml").write_text(PROFILE, encoding="utf-8")
    (path / "bad.toml").write_text('base = "generala"\nvalue = [\n', encoding="utf-8")
    (path / "otro.json").write_text('{"format": "otra-cosa"}', encoding="utf-8")
    yield path


@pytest.fixture(autouse=True)
def _private(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(folder / "cache"))
    monkeypatch.chdir(folder)


def _record(folder: Path) -> Path:
    path = folder / "partida.json"
    if not path.exists():
        code = main(["--lang", "en", "simulate", "--games", "1", "--rules", "mini.toml", "--workers", "1", "--json"])
        assert code == 0
        from cubilete import Game
        from cubilete.engine import record
        from cubilete.engine.rules import load_rules
        from cubilete.play.bots import make_bot

        game = Game(load_rules("mini.toml"), ["Ana", "Beto"], seed="7")
        bots = [make_bot("bot:greedy", 1), make_bot("bot:greedy", 2)]
        while not game.is_over:
            game.apply(bots[game.state.current].choose(game))
        record.save(game, path)
        half = Game(load_rules("mini.toml"), ["Ana", "Beto"], seed="7")
        for action in game.history[:3]:
            half.apply(action)
        record.save(half, folder / "a-medias.json")
    return path


COMMANDS: list[list[str]] = [
    ["rules", "list"],
    *(["rules", "show", rules.name] for rules in all_presets()),
    ["rules", "show", "mini.toml"],
    ["rules", "check", "mini.toml"],
    ["rules", "check", "bad.toml"],
    ["rules", "check", "nope.toml"],
    ["rules", "check", "generala"],
    ["rules"],
    ["score", "--dice", "3", "4", "5", "6", "1", "--throw", "1"],
    ["score", "--dice", "4", "4", "4", "4", "4", "--filled", "generala=50", "doble"],
    ["score", "--dice", "66666", "--rules", "yahtzee", "--filled", "yahtzee=50"],
    ["score", "--dice", "11111", "--rules", "general-4-columns"],
    ["score", "--dice", "1", "2", "3", "4", "5", "full", "--filled", "full=0"],
    ["score", "--dice", "7"],
    ["score", "--dice", "1234"],
    ["score", "--dice", "12345", "--throw", "0"],
    ["score", "--dice", "12345", "--filled", "full=31"],
    ["score", "--dice", "12345", "--filled", "full"],
    ["score", "--dice", "12345", "--rules", "nope"],
    ["score", "--dice", "12345", "nope"],
    ["score"],
    ["score", "--dice", "12345", "--throw", "x"],
    ["advise", "--rules", "mini.toml", "--dice", "1", "1", "3", "4", "5", "--throw", "1", "--top", "3"],
    ["advise", "--rules", "mini.toml", "--dice", "66666", "--throw", "2", "--filled", "generala=0"],
    ["advise", "--rules", "mini.toml", "--dice", "12345", "--throw", "9"],
    ["advise", "--rules", "mini.toml", "--dice", "12345", "--throw", "2", "--held", "6"],
    ["advise", "--rules", "maxi-yatzy", "--dice", "123456", "--throw", "1"],
    ["advise", "--dice", "12345", "--throw", "1", "--saved", "2"],
    ["solve", "--rules", "mini.toml"],
    ["solve", "--rules", "maxi-yatzy"],
    ["solve", "--rules", "yatzy", "--players", "2"],  # the two-player solver's refusals
    ["solve", "--rules", "maxi-yatzy", "--cap", "99"],  # the saved-throws table over its memory
    ["evaluate", "--policy", "nope", "--games", "1"],
    ["evaluate", "--policy", "cubilete:xyz", "--games", "1"],
    ["evaluate", "--policy", "cubilete.envs.evaluate:random_policy", "--games", "0"],
    ["solve", "--rules", "maxi-yatzy", "--players", "2"],
    ["advise", "--rules", "yatzy", "--dice", "12345", "--throw", "1", "--vs", "1=1"],  # no win tables for Yatzy
    ["advise", "--rules", "general-4-columns", "--dice", "12345", "--throw", "2", "--top", "2"],  # approximate
    ["warmup", "--rules", "mini.toml"],
    ["distribution", "--rules", "mini.toml"],
    ["distribution", "--bonuses", "-1"],
    ["evaluate", "--policy", "cubilete.envs.evaluate:random_policy", "--rules", "mini.toml", "--games", "2"],
    ["simulate", "--rules", "mini.toml", "--games", "4", "--workers", "1", "--seed", "3"],
    ["simulate", "--rules", "mini.toml", "--games", "2", "--workers", "1", "--seed", "3", "--solo", "--bots",
     "greedy,strong"],
    ["simulate", "--games", "0"],
    ["simulate", "--bots", "nope"],
    ["stats"],
    ["replay", "partida.json"],
    ["replay", "a-medias.json"],
    ["replay", "nope.json"],
    ["replay", "mini.toml"],
    ["replay", "otro.json"],  # JSON, but not a game record
    ["score", "--dice", "12345", "--filled", "1=7"],  # a list of values: "0 to 5"
    ["simulate", "--bots", "optimal,target:abc", "--games", "2"],
    ["distribution", "--rules", "mini.toml", "--plot", "no-such-folder/d.png"],
    ["verify", "partida.json"],
    ["verify", "a-medias.json"],
    ["play", "--plain", "--players", "Ana,"],
    ["play", "--plain", "--players", "Ana,bot:nope"],
    ["play", "--plain", "--rules", "mini.toml", "--players", "Ana", "--seed", "4"],
    ["play", "--plain", "--rules", "nope"],
    ["nope"],
    [],
]


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_every_command_speaks_one_language(
    lang: str, folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    _record(folder)
    capsys.readouterr()
    problems = []
    for argv in COMMANDS:
        i18n.reset_language()
        monkeypatch.setattr("sys.stdin", io.StringIO("?\nr\nk 1 2\n5\nzzz\ns 9\nq\n"))
        main(["--lang", lang, *argv])
        out, err = capsys.readouterr()
        assert out or err, argv
        problems += [f"{' '.join(argv)}: {line!r} {words}" for line, words in english_words(out + err)]
    assert not problems, "\n".join(problems)


def help_commands() -> list[list[str]]:
    """``--help`` of the program, of every command and of every action (``rules show``), from the parser itself."""
    import argparse

    from cubilete.cli.main import build_parser

    found: list[list[str]] = []

    def walk(parser: argparse.ArgumentParser, words: list[str]) -> None:
        found.append([*words, "--help"])
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    walk(sub, [*words, name])

    walk(build_parser(), [])
    return found


def test_help_reaches_every_command() -> None:
    helps = [" ".join(words) for words in help_commands()]
    assert {"--help", "play --help", "rules show --help", "distribution --help", "evaluate --help"} <= set(helps)


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
def test_every_help_speaks_one_language(lang: str, capsys: pytest.CaptureFixture[str]) -> None:
    """``--help`` of every command: argparse's own words, descriptions, options and examples."""
    problems = []
    for argv in help_commands():
        i18n.reset_language()
        assert main(["--lang", lang, *argv]) == 0, argv
        out, err = capsys.readouterr()
        assert out.startswith("uso: "), (argv, out[:80])
        assert "opções:" in out if lang == "pt_BR" else "opciones:" in out, argv
        problems += [f"{' '.join(argv)}: {line!r} {words}" for line, words in english_words(out + err)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(
    ("lang", "argv", "expected"),
    [
        ("es", ["score"], "faltan estos argumentos: --dice/-d (probá 'cubilete score --help')"),
        ("pt_BR", ["score"], "faltam estes argumentos: --dice/-d (tente 'cubilete score --help')"),
        ("es", ["score", "--dice", "12345", "--throw", "x"], "argumento --throw/-t: no es un número entero: 'x'"),
        ("pt_BR", ["solve", "--players", "3"], "argumento --players: opção inválida: 3 (escolha entre 1, 2)"),
        ("es", ["serve", "--port", "0"], "argumento --port: '0' no es un número de puerto (1-65535)"),
        ("en", ["score"], "the following arguments are required: --dice/-d (try 'cubilete score --help')"),
    ],
)
def test_argparse_errors_in_the_language(
    lang: str, argv: list[str], expected: str, capsys: pytest.CaptureFixture[str]
) -> None:
    i18n.reset_language()
    assert main(["--lang", lang, *argv]) == 2
    assert expected in capsys.readouterr().err


def test_argparse_is_left_as_it_was(capsys: pytest.CaptureFixture[str]) -> None:
    """After a Spanish run, a program's own argparse speaks English again."""
    import argparse

    main(["--lang", "es", "rules", "list"])
    capsys.readouterr()
    assert "usage:" in argparse.ArgumentParser(prog="x").format_help()


def test_the_environment_chooses_the_language(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("LANGUAGE", "pt_BR")
    i18n.reset_language()
    assert main(["score", "--dice", "3", "4", "5", "6", "1", "--throw", "1"]) == 0
    out = capsys.readouterr().out
    assert "arremesso 1 (de mão, o primeiro arremesso)" in out
    assert not english_words(out)


def test_play_in_line_mode_speaks_spanish(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    import io

    monkeypatch.setattr("sys.stdin", io.StringIO("ayuda\ntirar\nanotar 5\nq\n"))
    i18n.reset_language()
    main(["--lang", "es", "play", "--plain", "--rules", "mini.toml", "--players", "Ana", "--seed", "4"])
    out, err = capsys.readouterr()
    assert "Comandos:" in out
    assert not english_words(out + err), english_words(out + err)
