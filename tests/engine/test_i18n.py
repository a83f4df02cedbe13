"""Languages: the catalogs are complete and compiled, the language is chosen well, and the game speaks it."""

from __future__ import annotations

import importlib.util
import io
import json
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from cubilete import i18n
from cubilete.cli import main
from cubilete.engine.actions import Action, Roll, Score, Stand
from cubilete.engine.dice import ScriptedDice
from cubilete.engine.errors import CubileteError, I18nError, IllegalActionError
from cubilete.engine.game import Game
from cubilete.engine.rules import Start, find_rules
from cubilete.i18n import (
    LANGUAGES,
    box_name,
    explain_illegal,
    language_from_environment,
    ngettext,
    rules_title,
    servida_word,
    set_language,
    translate_error,
)

ROOT = Path(__file__).resolve().parents[2]
LOCALE = ROOT / "src" / "cubilete" / "locale"
TRANSLATED = ("es", "pt_BR")
PLACEHOLDER = re.compile(r"\{[^{}]*\}")


def load_script() -> ModuleType:
    """``tools/i18n.py`` as a module (it is a script, not part of the package)."""
    spec = importlib.util.spec_from_file_location("i18n_script", ROOT / "tools" / "i18n.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def read_catalog(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as f:
        return read_po(f, locale=locale)


def texts(value: object) -> tuple[str, ...]:
    """A message id or translation as a tuple (one entry per plural form)."""
    if isinstance(value, tuple | list):
        return tuple(str(v or "") for v in value)
    return (str(value or ""),)


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text.replace("{{", "").replace("}}", "")))


@pytest.fixture(autouse=True)
def _forget_language() -> Iterator[None]:
    """Every test leaves the language as it found it: chosen again from the environment."""
    yield
    i18n.reset_language()


# --- the catalogs ------------------------------------------------------------------


class TestCatalogs:
    def test_the_template_holds_every_message_of_the_sources_and_presets(self) -> None:
        script = load_script()
        fresh = {(m.id, m.context) for m in script.extract_catalog() if m.id}
        stored = {(m.id, m.context) for m in read_catalog(LOCALE / "cubilete.pot") if m.id}
        assert fresh - stored == set(), "run: python tools/i18n.py extract update"
        assert stored - fresh == set(), "run: python tools/i18n.py extract update"

    def test_every_preset_box_name_and_title_is_in_the_template(self) -> None:
        from cubilete.engine.rules import all_presets

        stored = {(m.id, m.context) for m in read_catalog(LOCALE / "cubilete.pot") if m.id}
        for rules in all_presets():
            assert (rules.title, "rules") in stored
            for box in rules.boxes:
                assert (box.name, "box") in stored, (rules.name, box.name)

    @pytest.mark.parametrize("lang", TRANSLATED)
    def test_every_message_is_translated_not_fuzzy_with_the_same_placeholders(self, lang: str) -> None:
        template = read_catalog(LOCALE / "cubilete.pot")
        po = read_catalog(LOCALE / lang / "LC_MESSAGES" / "cubilete.po", lang)
        entries = {(m.id, m.context): m for m in po if m.id}
        problems = []
        for m in template:
            if not m.id:
                continue
            found = entries.get((m.id, m.context))
            name = f"{m.context or ''}|{texts(m.id)[0]}"
            if found is None:
                problems.append(f"missing: {name}")
                continue
            strings = texts(found.string)
            if not all(s.strip() for s in strings):
                problems.append(f"empty: {name}")
            if found.fuzzy:
                problems.append(f"fuzzy: {name}")
            allowed = [placeholders(i) for i in texts(m.id)]
            problems += [f"placeholders: {name} -> {s}" for s in strings if placeholders(s) not in allowed]
        assert problems == []

    def test_plural_messages_have_every_plural_form_of_the_language(self) -> None:
        for lang in TRANSLATED:
            po = read_catalog(LOCALE / lang / "LC_MESSAGES" / "cubilete.po", lang)
            plurals = [m for m in po if m.id and m.pluralizable]
            assert plurals, "the line mode uses ngettext"
            assert all(len(texts(m.string)) == po.num_plurals for m in plurals)

    @pytest.mark.parametrize("lang", LANGUAGES)
    def test_each_mo_is_the_compiled_po(self, lang: str) -> None:
        folder = LOCALE / lang / "LC_MESSAGES"
        compiled = io.BytesIO()
        write_mo(compiled, read_catalog(folder / "cubilete.po", lang))
        compiled.seek(0)
        with (folder / "cubilete.mo").open("rb") as f:
            stored = read_mo(f)
        fresh = read_mo(compiled)

        def table(catalog: Catalog) -> dict[tuple[tuple[str, ...], object], tuple[str, ...]]:
            return {(texts(m.id), m.context): texts(m.string) for m in catalog if m.id}

        assert table(stored) == table(fresh), "run: python tools/i18n.py compile"

    def test_no_gettext_call_is_given_an_f_string_and_no_text_is_both_singular_and_plural(self) -> None:
        script = load_script()
        assert script.f_string_calls(script._sources()) == []
        assert script.mixed_plurals() == []

    def test_the_script_check_passes(self) -> None:
        assert load_script().check() == []


# --- choosing the language ------------------------------------------------------------


class TestLanguageChoice:
    @pytest.mark.parametrize(
        ("environ", "expected"),
        [
            ({"LANG": "es_AR.UTF-8"}, "es"),
            ({"LANG": "es_ES@euro"}, "es"),
            ({"LANG": "pt_BR.UTF-8"}, "pt_BR"),
            ({"LC_MESSAGES": "pt"}, "pt_BR"),
            ({"LANG": "en_GB.UTF-8"}, "en"),
            ({"LANG": "de_DE.UTF-8"}, "en"),
            ({"LANG": "C"}, "en"),
            ({"LANG": "POSIX"}, "en"),
            ({}, "en"),
            ({"LANGUAGE": "pt_BR:es", "LANG": "es_AR.UTF-8"}, "pt_BR"),  # LANGUAGE comes first
            ({"LANGUAGE": "fr:es"}, "es"),  # the first language of the list that has a catalog
            ({"LANGUAGE": "", "LANG": "es_AR.UTF-8"}, "es"),  # an empty variable does not count
            ({"LC_ALL": "C.UTF-8", "LANG": "es_AR.UTF-8"}, "en"),  # LC_ALL overrides LANG
            ({"LC_ALL": "pt_BR.UTF-8", "LANG": "es_AR.UTF-8"}, "pt_BR"),
            ({"LC_MESSAGES": "es_UY.UTF-8", "LANG": "pt_BR.UTF-8"}, "es"),
            # the first variable set decides, even when its language has no catalog: English, not LANG's
            ({"LC_ALL": "de_DE.UTF-8", "LANG": "es_AR.UTF-8"}, "en"),
            ({"LC_ALL": "fr_FR.UTF-8", "LC_MESSAGES": "pt_BR.UTF-8"}, "en"),
            ({"LC_MESSAGES": "ja_JP.UTF-8", "LANG": "pt_BR.UTF-8"}, "en"),
            ({"LANGUAGE": "fr:de", "LANG": "es_AR.UTF-8"}, "en"),
            ({"LANGUAGE": "fr:de", "LC_ALL": "pt_BR.UTF-8"}, "en"),
        ],
    )
    def test_language_from_the_environment(self, environ: dict[str, str], expected: str) -> None:
        assert language_from_environment(environ) == expected

    def test_set_language_none_reads_the_process_environment(self, monkeypatch: pytest.MonkeyPatch) -> None:
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", "es_AR.UTF-8")
        assert set_language(None) == "es"
        assert i18n.current_language() == "es"
        assert i18n._("nothing to undo") == "no hay nada para deshacer"

    def test_without_a_choice_the_first_message_reads_the_environment(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setenv("LANGUAGE", "pt_BR")
        i18n.reset_language()
        assert i18n._("nothing to undo") == "não há nada para desfazer"
        assert i18n.current_language() == "pt_BR"

    def test_an_unknown_lc_all_means_english_in_the_process_too(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.delenv("LANGUAGE", raising=False)
        monkeypatch.delenv("LC_MESSAGES", raising=False)
        monkeypatch.setenv("LC_ALL", "de_DE.UTF-8")
        monkeypatch.setenv("LANG", "es_AR.UTF-8")
        i18n.reset_language()
        assert i18n._("nothing to undo") == "nothing to undo"
        assert i18n.current_language() == "en"

    def test_a_missing_catalog_falls_back_to_english_and_set_language_names_it(
        self, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
    ) -> None:
        empty = tmp_path / "locale"
        (empty / "es" / "LC_MESSAGES").mkdir(parents=True)  # the folder is there, the compiled .mo is not
        monkeypatch.setattr(i18n, "LOCALE_DIR", empty)
        for name in ("LANGUAGE", "LC_ALL", "LC_MESSAGES"):
            monkeypatch.delenv(name, raising=False)
        monkeypatch.setenv("LANG", "es_AR.UTF-8")
        i18n.reset_language()
        assert i18n._("nothing to undo") == "nothing to undo"  # a message never fails: English
        assert i18n.current_language() == "en"
        with pytest.raises(I18nError, match="catalog is missing") as info:
            set_language("es")
        assert str(empty / "es" / "LC_MESSAGES" / "cubilete.mo") in str(info.value)
        assert "tools/i18n.py compile" in str(info.value)
        assert i18n.current_language() == "en"  # the failed choice changed nothing
        monkeypatch.undo()
        i18n.reset_language()
        assert set_language("es") == "es" and i18n._("nothing to undo") == "no hay nada para deshacer"

    @pytest.mark.parametrize(
        ("code", "expected"), [("es", "es"), ("es-AR", "es"), ("pt-br", "pt_BR"), ("pt", "pt_BR"), ("EN_us", "en")]
    )
    def test_explicit_codes(self, code: str, expected: str) -> None:
        assert set_language(code) == expected
        assert i18n.current_language() == expected

    @pytest.mark.parametrize("code", ["fr", "klingon", "", "  "])
    def test_an_unknown_language_is_a_clear_error(self, code: str) -> None:
        set_language("es")
        with pytest.raises(I18nError) as info:
            set_language(code)
        assert isinstance(info.value, CubileteError)
        assert "unknown language" in str(info.value)
        assert all(lang in str(info.value) for lang in LANGUAGES)
        assert i18n.current_language() == "es"  # nothing changed

    def test_english_is_the_source_text(self) -> None:
        set_language("en")
        assert i18n._("nothing to undo") == "nothing to undo"
        assert ngettext("({count} carried over)", "({count} carried over)", 2) == "({count} carried over)"

    def test_plural_forms(self) -> None:
        one = "{name} wins the tie-break after {rounds} round (tied at {points} points)."
        many = "{name} wins the tie-break after {rounds} rounds (tied at {points} points)."
        set_language("es")
        assert "1 ronda " in ngettext(one, many, 1).format(name="Ana", rounds=1, points=40)
        assert "2 rondas " in ngettext(one, many, 2).format(name="Ana", rounds=2, points=40)
        set_language("pt_BR")
        assert "1 rodada " in ngettext(one, many, 1).format(name="Ana", rounds=1, points=40)
        assert "3 rodadas " in ngettext(one, many, 3).format(name="Ana", rounds=3, points=40)


# --- box names, titles, the servida word ---------------------------------------------


class TestNames:
    @pytest.mark.parametrize(
        ("preset", "box", "es", "pt_BR", "en"),
        [
            ("generala", "escalera", "Escalera", "Sequência", "Escalera"),
            ("generala", "poker", "Póker", "Quadra", "Póker"),
            ("generala", "generala", "Generala", "General", "Generala"),
            ("generala", "1", "Unos", "Jogada de 1", "Unos"),
            ("general", "trinca", "Trío", "Trinca", "Trinca"),
            ("general", "quadra", "Póker", "Quadra", "Quadra"),
            ("general", "general", "Generala", "General", "General"),
            ("general-4-columns", "full@2", "Full", "Full-hand", "Full-hand"),
            ("bozo", "sequencia", "Escalera", "Sequência", "Sequência"),
            ("yahtzee", "four-kind", "Póker", "Quadra", "Four of a kind"),
            ("yahtzee", "small-straight", "Escalera menor", "Sequência menor", "Small Straight"),
            ("yahtzee", "6", "Seises", "Jogada de 6", "Sixes"),
            ("yatzy", "two-pairs", "Dos pares", "Dois pares", "Two Pairs"),
            ("maxi-yatzy", "five-kind", "Cinco iguales", "Quina", "Five of a Kind"),
        ],
    )
    def test_box_name(self, preset: str, box: str, es: str, pt_BR: str, en: str) -> None:
        rules = find_rules(preset)
        for lang, expected in (("es", es), ("pt_BR", pt_BR), ("en", en)):
            set_language(lang)
            assert box_name(rules, box) == expected, lang

    def test_a_house_rule_box_with_a_name_of_its_own_keeps_it(self) -> None:
        house = find_rules("generala").with_box("escalera", name="Escalerita de la casa")
        for lang in LANGUAGES:
            set_language(lang)
            assert box_name(house, "escalera") == "Escalerita de la casa"

    def test_a_house_rule_box_with_a_known_name_is_translated(self) -> None:
        house = find_rules("generala").with_box("full", name="Póker").with_box("poker", name="Cuádruple")
        set_language("pt_BR")
        assert box_name(house, "full") == "Quadra"
        assert box_name(house, "poker") == "Cuádruple"

    def test_rules_title(self) -> None:
        set_language("es")
        assert rules_title(find_rules("general")) == "General (Brasil)"
        set_language("pt_BR")
        assert rules_title(find_rules("yatzy")) == "Yatzy (escandinavo)"
        set_language("en")
        assert rules_title(find_rules("generala")) == "Generala (Argentina)"
        house = find_rules("generala").replace(title="Generala de la abuela")
        set_language("es")
        assert rules_title(house) == "Generala de la abuela"

    def test_rules_description(self) -> None:
        set_language("pt_BR")
        assert i18n.rules_description(find_rules("yahtzee")) == (
            "13 casas, bônus de 35 com 63, +100 por Yahtzee extra, curinga obrigatório."
        )
        set_language("en")
        assert i18n.rules_description(find_rules("yahtzee")) == find_rules("yahtzee").description

    def test_servida_word_follows_the_game(self) -> None:
        set_language("pt_BR")
        assert servida_word(find_rules("bozo")) == "de boca"
        assert servida_word(find_rules("general-de-mao")) == "de mão"
        assert servida_word(find_rules("generala").replace(name="casa", title="Casa")) == "de mão"
        set_language("es")
        assert servida_word(find_rules("bozo")) == "servida"
        set_language("en")
        assert servida_word(find_rules("generala")) == "servida"


# --- the engine's reasons in the player's language ----------------------------------------


def one_player(preset: str, throws: list[tuple[int, ...]], **changes: object) -> Game:
    rules = find_rules(preset).replace(start=Start.SEAT_ORDER, **changes)
    return Game(rules, ["Ana"], seed="t", dice=ScriptedDice(throws))


def english_reason(game: Game, action: Action) -> str:
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    return str(info.value)


class TestExplainIllegal:
    def check(self, game: Game, action: Action, spanish: str) -> None:
        set_language("en")
        english = english_reason(game, action)
        assert explain_illegal(game, action) == english  # English: the engine's own words
        set_language("es")
        assert explain_illegal(game, action) == spanish

    def test_score_before_throwing(self) -> None:
        self.check(one_player("generala", []), Score("full"), "tirá los dados antes de anotar")

    def test_first_throw_keeps_nothing(self) -> None:
        game = one_player("generala", [(1, 2, 3, 4, 5)])
        self.check(game, Roll((0,)), "el primer tiro del turno es con todos los dados")

    def test_a_closed_box(self) -> None:
        game = one_player("generala", [(2, 2, 3, 3, 3), (1, 1, 1, 1, 5)])
        game.apply(Roll())
        game.apply(Score("full"))
        game.apply(Roll())
        self.check(game, Score("full"), "el casillero full ya está cerrado")

    def test_no_throws_left(self) -> None:
        game = one_player("generala", [(1, 2, 3, 4, 6), (6,), (6,)])
        game.apply(Roll())
        game.apply(Roll((0, 1, 2, 3)))
        game.apply(Roll((0, 1, 2, 3)))
        self.check(game, Roll((0,)), "no quedan tiros en este turno (usados: 3)")

    def test_held_dice_stay_held(self) -> None:
        game = one_player("generala-apartada", [(6, 6, 1, 2, 3), (6, 4, 5)])
        game.apply(Roll())
        game.apply(Roll((0, 1)))
        self.check(game, Roll((0,)), "los dados apartados no se pueden volver a tirar en este turno")

    def test_order_rule(self) -> None:
        game = one_player("generala-obligada", [(1, 1, 2, 3, 4)])
        game.apply(Roll())
        self.check(
            game,
            Score("full"),
            "el casillero full no se puede usar ahora (por el orden o la regla del comodín); se pueden usar: 1",
        )

    def test_unknown_box_and_stand_and_em_baixo(self) -> None:
        game = one_player("generala", [(1, 1, 2, 3, 4)])
        game.apply(Roll())
        set_language("es")
        assert explain_illegal(game, Score("nada")).startswith(
            "no hay ningún casillero 'nada' en generala; casilleros: "
        )
        self.check(game, Stand(), "plantarse (stand) es solo para las rondas de desempate")
        self.check(game, Roll((), face_down=True), "generala no tiene el canto 'em baixo'")

    def test_the_game_is_over(self) -> None:
        game = one_player("generala", [(5, 5, 5, 5, 5)])
        game.apply(Roll())  # Generala servida wins at once
        assert game.is_over
        self.check(game, Roll(), "la partida terminó")

    def test_a_legal_action_has_no_reason(self) -> None:
        game = one_player("generala", [(1, 1, 2, 3, 4)])
        game.apply(Roll())
        assert explain_illegal(game, Score("1")) == ""

    def test_a_reason_without_a_template_stays_as_it_is(self) -> None:
        set_language("pt_BR")
        assert translate_error("a reason the engine learns later") == "a reason the engine learns later"
        assert translate_error("nothing to undo") == "não há nada para desfazer"


# --- the line-mode game in each language ---------------------------------------------------


def play_lines(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lang: str, script: str,
               *argv: str) -> str:  # fmt: skip
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGUAGE", lang)
    monkeypatch.setenv("LANG", "C.UTF-8")
    monkeypatch.setattr("sys.stdin", io.StringIO(script))
    i18n.reset_language()
    code = main(["play", "--plain", *argv])
    out, err = capsys.readouterr()
    assert (code, err) == (0, "")
    return out


def every_line_script(preset: str, start: list[str] | None = None) -> str:
    """Each turn tries line 1, 2, 3, ... (closed lines are refused with a reason) until one is written."""
    rules = find_rules(preset)
    block = (start or []) + [f"s {n}" for n in range(1, len(rules.slots) + 1)]
    return "\n".join(block * rules.turns) + "\n"


class TestLineModeLanguages:
    def test_generala_in_spanish(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        script = "s 1\ns 1\n" + every_line_script("generala")  # the second "s 1" is refused: the box is closed
        out = play_lines(monkeypatch, capsys, "es", script, "--players", "Ana", "--seed", "7")
        assert out.startswith("Generala (Argentina): Ana (semilla 7)")
        assert "--- Ronda 1 de 11: Ana ---" in out
        assert "Ana tira, tiro 1 de 3: " in out and "(servida)" in out
        assert "tachar" in out  # the boxes a hand would only scratch
        assert "Doble Generala" in out and "Póker" in out
        assert "! el casillero 1 ya está cerrado" in out  # the engine's refusal, translated
        assert "=== Resultado final: Generala (Argentina) ===" in out
        assert "Posiciones:" in out and "ganador" in out
        assert "Round" not in out and "throw" not in out

    def test_bozo_in_portuguese(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        out = play_lines(
            monkeypatch, capsys, "pt_BR", every_line_script("bozo", ["r"]), "--rules", "bozo", "--players", "Ana"
        )
        assert out.startswith("Bozó (Centro-Oeste): Ana (semente ")
        assert "--- Rodada 1 de 10: Ana ---" in out
        assert "Ana: lance com r, ou peça em baixo com b" in out
        assert "(de boca)" in out  # Bozó's word for a first-throw hand
        assert "riscar" in out and "Sequência" in out and "Quadra" in out
        assert "=== Resultado final: Bozó (Centro-Oeste) ===" in out and "Classificação:" in out

    def test_spanish_help_and_a_translated_box_name(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        out = play_lines(monkeypatch, capsys, "pt_BR", "?\ns sequência\nq\n", "--players", "Ana", "--seed", "7")
        assert "Comandos:" in out and "mostre a cartela" in out
        assert "Sequência (escalera)" in out  # the Portuguese name was understood and is shown
        assert "Ana risca Sequência" in out or "Ana marca 20 em Sequência" in out
        assert "Você saiu: a partida não foi salva" in out

    def test_english_by_default(self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
        out = play_lines(monkeypatch, capsys, "", every_line_script("generala"), "--players", "Ana", "--seed", "7")
        assert "--- Round 1 of 11: Ana ---" in out
        assert "=== Final result: Generala (Argentina) ===" in out

    def test_the_lang_option_wins_over_the_environment(
        self, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
    ) -> None:
        script = every_line_script("generala")
        out = play_lines(monkeypatch, capsys, "es", script, "--players", "Ana", "--seed", "7", "--lang", "pt_BR")
        assert "--- Rodada 1 de 11: Ana ---" in out
        assert "=== Resultado final: Generala (Argentina) ===" in out and "Classificação:" in out


def test_file_reasons_and_value_lists_are_translated() -> None:
    import errno

    from cubilete.i18n import file_reason, set_language, translate_error

    set_language("es")
    try:
        assert file_reason(FileNotFoundError(errno.ENOENT, "No such file or directory")) == (
            "no existe el archivo o la carpeta"
        )
        assert file_reason(PermissionError(errno.EACCES, "Permission denied")) == "permiso denegado"
        assert file_reason(OSError(errno.EIO, "Input/output error")) == "Input/output error"  # rare: the system's
        # the engine's words for a box's values (notation.py), joined in the player's language
        assert translate_error("'full=99': Full (full) can hold 0, 30 or 35, not 99") == (
            "'full=99': Full (full) puede tener 0, 30 o 35, no 99"
        )
        assert "puede tener 0 o 5 a 30, no 99" in translate_error("'1=99': Chance (1) can hold 0 or 5 to 30, not 99")
    finally:
        set_language("en")


def test_the_engines_large_numbers_take_the_languages_thousands_mark() -> None:
    from cubilete.i18n import speaking, translate_error

    refused = "yahtzee: 536,448 sheet states per player; the joint game is too large to solve exactly"
    with speaking("es"):  # "536,448" reads as 536 and a bit where the comma is the decimal mark
        assert translate_error(refused).startswith("yahtzee: 536.448 estados de planilla por jugador")
        assert "puede tener 0, 30 o 35" in translate_error("'full=99': Full (full) can hold 0, 30 or 35, not 99")
    with speaking("pt_BR"):
        assert translate_error(refused).startswith("yahtzee: 536.448 estados de folha")
    with speaking("en"):
        assert translate_error(refused) == refused


# --- the web pages' strings, from the same catalogs ------------------------------------------------


class TestWebStrings:
    def test_strings_js_is_what_the_catalogs_make(self) -> None:
        script = load_script()
        shipped = script.WEB_STRINGS.read_text(encoding="utf-8")
        assert shipped.startswith("// generated by tools/i18n.py")
        assert shipped == script.fresh_strings_js(), "run: python tools/i18n.py web"

    def test_every_web_key_is_in_es_pt_br_and_en_with_the_same_placeholders(self) -> None:
        script = load_script()
        texts = script.web_texts()
        keys = [key for key, _ in texts]
        assert len(keys) > 400 and len(set(keys)) == len(keys)
        problems = []
        for lang in TRANSLATED:
            po = read_catalog(LOCALE / lang / "LC_MESSAGES" / "cubilete.po", lang)
            for key, english in texts:
                found = po.get(english, context=key)
                if found is None or not str(found.string).strip() or found.fuzzy:
                    problems.append(f"{lang}: {key} not translated")
                elif placeholders(str(found.string)) != placeholders(english):
                    problems.append(f"{lang}: {key} placeholders differ from English")
        assert problems == []
        # the pages get every key in every language, each a translation (never the English fallback's gap)
        tables = script.parse_web_js(script.WEB_STRINGS.read_text(encoding="utf-8"), "strings.js")
        assert set(tables) == {"es", "pt", "en"}
        for table in tables.values():
            assert sorted(table) == sorted(keys)
            assert all(text.strip() for text in table.values())
        assert tables["en"] == dict(texts)

    def test_the_web_keys_are_the_catalog_contexts_and_the_pages_read_nothing_else(self) -> None:
        script = load_script()
        template = read_catalog(LOCALE / "cubilete.pot")
        files = {(m.context, m.id): {f for f, _ in m.locations} for m in template if m.id}
        web = {message for message, where in files.items() if "cubilete/web/messages.py" in where}
        assert web == {(key, english) for key, english in script.web_texts()}
        keys = [key for key, _ in script.web_texts()]
        assert keys == sorted(keys), "messages.py keeps its keys sorted (import-web-js inserts by that order)"
        i18n_js = (ROOT / "src" / "cubilete" / "web" / "static" / "i18n.js").read_text(encoding="utf-8")
        assert 'import { S } from "./strings.js";' in i18n_js
        assert '"nav.new":' not in i18n_js  # no string is written twice

    def test_a_long_text_is_split_within_the_line_length_and_extracts_whole(self, tmp_path: Path) -> None:
        script = load_script()
        source = 'def W(key: str, text: str) -> str:\n    return text\n\n\nT = (\n    W("b.key", "B"),\n)\n'
        long = "A sentence with {n} words, " * 10 + "and a quote \" and a backslash \\ at the end."
        added = script.add_web_texts(source, [("c.long", long), ("a.first", "First"), ("b.next", "Next")])
        assert all(len(line) <= 120 for line in added.splitlines())
        path = tmp_path / "messages.py"
        path.write_text(added, encoding="utf-8")
        assert script.web_texts(path) == [("a.first", "First"), ("b.key", "B"), ("b.next", "Next"), ("c.long", long)]

    def test_an_old_i18n_js_that_is_not_one_string_a_line_is_refused_clearly(self) -> None:
        script = load_script()
        with pytest.raises(ValueError, match=r"no line 'const S = \{'"):
            script.parse_web_js("export const T = 1;\n")
        with pytest.raises(ValueError, match=r"i18n.js:4: expected one"):
            script.parse_web_js('const S = {\n  en: {\n    "a": "x",\n    "b": "y" +\n      "z",\n  },\n};\n')
        parsed = script.parse_web_js('// c\nconst S = {\n  en: {\n    "a": "x \\"q\\" \\u00e9",\n  },\n};\n')
        assert parsed == {"en": {"a": 'x "q" é'}}

    def test_import_web_js_adds_the_missing_keys_to_the_source_and_catalogs_once(
        self, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
    ) -> None:
        script = load_script()
        package = tmp_path / "src" / "cubilete"
        shutil.copytree(ROOT / "src" / "cubilete", package, ignore=shutil.ignore_patterns("__pycache__"))
        for name, value in {
            "ROOT": tmp_path, "PACKAGE": package, "LOCALE": package / "locale",
            "POT": package / "locale" / "cubilete.pot", "WEB_SOURCE": package / "web" / "messages.py",
            "WEB_STRINGS": package / "web" / "static" / "strings.js",
        }.items():  # fmt: skip
            monkeypatch.setattr(script, name, value)
        # an i18n.js as another branch left it: a new key in the three blocks, one English text changed
        old = script.parse_web_js(script.WEB_STRINGS.read_text(encoding="utf-8"))
        old["es"]["nav.zzz"] = "Mesa de {name}"
        old["pt"]["nav.zzz"] = "Mesa de {name} (pt)"
        old["en"]["nav.zzz"] = "{name}'s table"
        old["en"]["nav.new"] = "Another text"
        lines = ["const S = {"]
        for lang, table in old.items():
            lines += [f"  {lang}: {{", *(f"    {json.dumps(k)}: {json.dumps(v)}," for k, v in table.items()), "  },"]
        (tmp_path / "i18n.js").write_text("\n".join([*lines, "};", "export const STRINGS = S;"]), encoding="utf-8")

        report = script.import_web_js(tmp_path / "i18n.js")
        assert report[0] == "import-web-js: 1 keys added (nav.zzz)"
        assert [line for line in report if "differs" in line] == [
            "i18n.js: 'nav.new' in en differs from the catalogs: left as it is (edit it by hand)"
        ]
        tables = script.parse_web_js(script.WEB_STRINGS.read_text(encoding="utf-8"))
        assert {lang: tables[lang]["nav.zzz"] for lang in tables} == {
            "es": "Mesa de {name}", "pt": "Mesa de {name} (pt)", "en": "{name}'s table"
        }  # fmt: skip
        assert tables["en"]["nav.new"] != "Another text"  # an existing text is not overwritten
        keys = [key for key, _ in script.web_texts()]
        assert "nav.zzz" in keys and keys == sorted(keys)  # placed among the others, in order
        assert script.check() == []  # the catalogs, the .mo files and strings.js all agree
        before = {p: p.read_bytes() for p in package.rglob("*") if p.suffix in {".po", ".pot", ".mo", ".js", ".py"}}
        assert script.import_web_js(tmp_path / "i18n.js")[0] == "import-web-js: 0 keys added"
        assert {p: p.read_bytes() for p in before} == before  # a second run changes nothing
