"""cli/progress.py: the bar of long commands, drawn only on a terminal and in the player's language."""

from __future__ import annotations

import io

import pytest
from rich.console import Console

from cubilete import i18n
from cubilete.cli import main
from cubilete.cli.progress import progress_bar


def terminal() -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, force_terminal=True, width=100, color_system=None), out


def test_no_terminal_no_bar() -> None:
    out = io.StringIO()
    with progress_bar("solving x", console=Console(file=out)) as show:
        assert show is None
    assert out.getvalue() == ""


def test_json_no_bar_even_on_a_terminal() -> None:
    console, out = terminal()
    with progress_bar("solving x", enabled=False, console=console) as show:
        assert show is None
    assert out.getvalue() == ""


def test_a_terminal_gets_a_bar_with_done_and_times() -> None:
    console, out = terminal()
    with progress_bar("solving x", console=console) as show:
        assert show is not None
        for done in range(1, 5):
            show(done, 4)
    text = out.getvalue()
    assert "solving x" in text and "4/4" in text
    assert "━" in text  # rich's bar
    assert "elapsed" in text and "left" in text
    assert "0:00:0" in text  # an elapsed time, h:mm:ss


def test_nothing_is_drawn_when_nothing_is_reported() -> None:
    """Tables loaded from the cache: the bar never starts."""
    console, out = terminal()
    with progress_bar("solving x", console=console) as show:
        assert show is not None
    assert out.getvalue() == ""


def test_the_bar_stops_when_the_work_fails() -> None:
    console, out = terminal()
    with pytest.raises(RuntimeError), progress_bar("solving x", console=console) as show:
        assert show is not None
        show(1, 3)
        raise RuntimeError("boom")
    assert "1/3" in out.getvalue()
    assert console._live_stack == []  # the live display was stopped


@pytest.mark.parametrize(("lang", "words"), [("es", ("transcurrido", "faltan")), ("pt_BR", ("decorrido", "faltam"))])
def test_the_bar_speaks_the_language(lang: str, words: tuple[str, str]) -> None:
    i18n.set_language(lang)
    try:
        console, out = terminal()
        with progress_bar("x", console=console) as show:
            assert show is not None
            show(2, 2)
    finally:
        i18n.set_language("en")
    text = out.getvalue()
    assert all(w in text for w in words) and "elapsed" not in text


def test_a_command_in_a_pipe_prints_no_bar(
    tmp_path: object, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path))
    i18n.reset_language()
    assert main(["--lang", "en", "solve", "--rules", "generala-sin-doble"]) == 0
    out, err = capsys.readouterr()
    assert "━" not in out + err and "elapsed" not in out + err
    assert "generala-sin-doble" in out
