"""A language for one thread or task (``i18n.speaking``): the web serves many languages at once without a lock
that makes every client's texts wait for the others' (issue 21)."""

from __future__ import annotations

import asyncio
import threading

import pytest

from cubilete import i18n
from cubilete.i18n import _, current_language, speaking


@pytest.fixture(autouse=True)
def english() -> object:
    i18n.set_language("en")
    yield
    i18n.reset_language()


def test_two_threads_speak_two_languages_at_the_same_time() -> None:
    both_inside = threading.Barrier(2, timeout=30)
    said: dict[str, tuple[str, str]] = {}

    def speak(lang: str) -> None:
        with speaking(lang):
            both_inside.wait()  # each thread is inside its own language while the other is inside its own
            said[lang] = (current_language(), _("random"))
            both_inside.wait()

    threads = [threading.Thread(target=speak, args=(lang,)) for lang in ("es", "pt_BR")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert said == {"es": ("es", "al azar"), "pt_BR": ("pt_BR", "aleatório")}
    assert current_language() == "en" and _("random") == "random"


def test_tasks_keep_their_own_language_across_awaits() -> None:
    async def speak(lang: str, other_started: asyncio.Event, started: asyncio.Event) -> str:
        with speaking(lang):
            started.set()
            await other_started.wait()
            return _("random")

    async def both() -> list[str]:
        a, b = asyncio.Event(), asyncio.Event()
        return list(await asyncio.gather(speak("es", b, a), speak("pt", a, b)))

    assert asyncio.run(both()) == ["al azar", "aleatório"]


def test_the_process_choice_is_back_after_the_block_even_on_error() -> None:
    with pytest.raises(RuntimeError), speaking("es"):
        assert _("random") == "al azar"
        raise RuntimeError("boom")
    assert _("random") == "random"


def test_an_unknown_language_is_refused_before_the_block() -> None:
    with pytest.raises(i18n.I18nError, match="unknown language 'fr'"), speaking("fr"):
        pass
