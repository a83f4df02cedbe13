"""A house-rule profile's mistakes in the player's language: every message of rules/profile.py,
rules/codec.py and rules/model.py a profile can reach, after its file and line, in es and pt_BR."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from cubilete import i18n
from cubilete.cli import main
from cubilete.engine.errors import RulesError
from cubilete.engine.rules import find_rules, load_rules
from cubilete.engine.rules.profile import rules_from_toml
from cubilete.i18n import translate_error

# (the lines after base = "generala", the line the mistake is on)
MISTAKES: list[tuple[str, int]] = [
    ('dice = "seis"', 2),
    ("dice = 9", 2),
    ("throws = 99999999999", 2),
    ("rounds = 0", 2),
    ("min_players = 5\nmax_players = 2", 2),
    ('joker = "forced"', 2),
    ('start = "x"', 2),
    ("colour = 1", 2),
    ("instant_win = 3", 2),
    ('name = "Mi Mesa"', 2),
    ('title = ""', 2),
    ("boxes = 3", 2),
    ("box = 3", 2),
    ('remove = "full"', 2),
    ('remove = ["nope"]', 2),
    ('order = ["full"]', 2),
    ("[box.full]\nvalue = -5", 3),
    ("[box.full]\ncolor = 1", 3),
    ("[box.full]\nface_values = 3", 3),
    ("[box.full]\nface_values = { 9 = 3 }", 3),
    ('[box.full]\nrequires = "nope"', 3),
    ("[box.full]\nwin_after_scratch = true", 3),
    ("[box.nueva]\nvalue = 3", 2),
    ("[box.poker]\ngroups = [4, 4]", 3),
    ("[box.escalera]\npatterns = []", 3),
    ('[box.escalera]\npatterns = "12345"', 3),
    ('[box.escalera]\npatterns = ["7"]', 3),
    ('[box.1]\nkind = "upper"\nface = 9', 4),
]
# English words that no message in Spanish or Portuguese holds (field names are data: taken out first)
ENGLISH = {"must", "the", "expected", "got", "box", "boxes", "rules", "unknown", "allowed", "needs", "need",
           "cannot", "every", "once", "list", "of", "is", "not", "only", "would", "match", "which", "goes", "with",
           "values", "negative", "table", "such", "missing", "profile", "keys", "also", "too", "large", "most"}
FIELDS = re.compile(
    r"[\w-]+(?:, [\w-]+)+|\[box\.ID\]|'[^']*'|\"[^\"]*\"|\b[a-z]+_[a-z_]+\b|\bbox\.[\w.]+|^profile:\d+"
    r"|\b(?:name|title|base|remove|order|dice|throws|rounds|groups|start|kind|boxes)\b"
    r"(?= tiene| precisa| no | não |:|;)"
)


def mistake(lines: str) -> str:
    with pytest.raises(RulesError) as caught:
        rules_from_toml('base = "generala"\n' + lines, "profile")
    return " ".join(str(caught.value).split())


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
@pytest.mark.parametrize(("lines", "line"), MISTAKES)
def test_every_profile_mistake_is_translated(lang: str, lines: str, line: int) -> None:
    english = mistake(lines)
    assert english.startswith(f"profile:{line}: "), english
    i18n.set_language(lang)
    try:
        shown = translate_error(english)
    finally:
        i18n.set_language("en")
    assert shown.startswith(f"profile:{line}: ")
    assert shown != english
    words = set(re.findall(r"[a-z]+", FIELDS.sub(" ", shown)))
    assert not words & ENGLISH, (shown, words & ENGLISH)


def test_english_stays_english() -> None:
    i18n.set_language("en")
    english = mistake("dice = 9")
    assert translate_error(english) == english == "profile:2: rules 'profile': dice must be 1 to 8, not 9"


@pytest.mark.parametrize(
    ("lang", "lines", "expected"),
    [
        ("es", 'dice = "seis"', "profile:2: dice: se esperaba un número entero, llegó 'seis'"),
        ("pt_BR", 'dice = "seis"', "profile:2: dice: esperava-se um número inteiro, veio 'seis'"),
        ("es", "[box.full]\nvalue = -5", "profile:3: reglas 'profile', casillero 'full': los valores no pueden ser "
                                          "negativos"),
        ("pt_BR", "[box.full]\nvalue = -5", "profile:3: regras 'profile', casa 'full': os valores não podem ser "
                                             "negativos"),
        ("es", "[box.full]\nface_values = 3", "profile:3: box.full.face_values: se esperaba una tabla de cara = "
                                               "valor, como { 1 = 80 }"),
        ("pt_BR", 'base = "nope"', "profile:2: regras desconhecidas 'nope'"),
    ],
)
def test_the_words_shown(lang: str, lines: str, expected: str) -> None:
    english = mistake(lines) if not lines.startswith("base") else " ".join(_raw(lines).split())
    i18n.set_language(lang)
    try:
        assert translate_error(english).startswith(expected)
    finally:
        i18n.set_language("en")


def _raw(text: str) -> str:
    with pytest.raises(RulesError) as caught:
        rules_from_toml("# a base of its own\n" + text, "profile")
    return str(caught.value)


def test_a_profile_without_a_title_is_titled_in_the_language() -> None:
    rules = rules_from_toml('base = "generala"\nremove = ["doble"]\n', "profile")
    base = find_rules("generala")
    assert rules.title == f"{base.title} (house rules)"
    i18n.set_language("pt_BR")
    try:
        assert i18n.rules_title(rules) == f"{i18n.rules_title(base)} (regras da casa)"
        assert "house" not in i18n.rules_title(rules)
    finally:
        i18n.set_language("en")


@pytest.mark.parametrize(("lang", "expected"), [("es", "mesa.toml:3: reglas 'mesa', casillero 'full': requiere 'x', "
                                                        "que no es otro casillero"),
                                                 ("pt_BR", "mesa.toml:3: regras 'mesa', casa 'full': exige 'x', "
                                                           "que não é outra casa")])
def test_rules_check_shows_it_translated(
    lang: str, expected: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    Path("mesa.toml").write_text('base = "generala"\n[box.full]\nrequires = "x"\n', encoding="utf-8")
    with pytest.raises(RulesError):
        load_rules("mesa.toml")
    i18n.reset_language()
    assert main(["--lang", lang, "rules", "check", "mesa.toml"]) == 1
    assert expected in capsys.readouterr().err
    i18n.set_language("en")


BROKEN_TOML = ['base = "generala"\nvalue = [\n', 'name = "x', "dice = 5\ndice = 6\n", "[box.full\n", 'x = "a\\q"',
               "= 3\n", "dice = 5 6\n", "t = {a = 1, a = 2}\n"]
TOML_ENGLISH = re.compile(r"\b(Invalid|Unclosed|Unterminated|Expected|Cannot|Duplicate|Illegal|Found|Unescaped|line|"
                          r"column|end|document|at|valid)\b")


@pytest.mark.parametrize("lang", ["es", "pt_BR"])
@pytest.mark.parametrize("text", BROKEN_TOML)
def test_the_toml_readers_reasons_are_translated(lang: str, text: str) -> None:
    with pytest.raises(RulesError) as caught:
        rules_from_toml(text, "profile")
    english = str(caught.value)
    assert english.startswith("profile: not valid TOML: ")
    i18n.set_language(lang)
    try:
        shown = translate_error(english)
    finally:
        i18n.set_language("en")
    assert not TOML_ENGLISH.search(shown), shown
    assert re.search(r"\((?:en|em) (?:l[ií]nea|linha) \d+, colun?m?na \d+\)|\((?:en|em) (?:final|fim)", shown), shown
