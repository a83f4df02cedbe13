"""The terminal game: one :func:`make_app` factory shared by ``cubilete play`` and the tests.

``make_app(rules="generala", players=["Ana", "bot"], seed=7).run()`` plays a game against
the random bot; ``make_app().run()`` opens the setup screen.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from textual.app import App
from textual.screen import Screen

from cubilete.engine import record
from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import Rules, load_rules
from cubilete.i18n import _, set_language
from cubilete.present.players import bot_spec_of
from cubilete.tui import navigation
from cubilete.tui.options import AppOptions
from cubilete.tui.screens.end import EndScreen
from cubilete.tui.screens.game import GameScreen
from cubilete.tui.screens.scorekeeper import ScorekeeperScreen
from cubilete.tui.screens.setup import SetupScreen
from cubilete.tui.session import Session, seat_names
from cubilete.tui.settings import SetupChoice, load_choice

DEFAULT_RULES = "generala"


class CubileteApp(App[None]):
    """The app: it opens one first screen (setup, a game, the scorekeeper or the end of a game)."""

    TITLE = "cubilete"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, first: Screen[None], options: AppOptions) -> None:
        super().__init__()
        self.first = first
        self.options = options

    def on_mount(self) -> None:
        """Show the first screen."""
        self.title = _("cubilete")
        self.push_screen(self.first)

    SCREENS_BY_NAME: dict[str, Callable[..., Screen[None]]] = {  # noqa: RUF012 (read only)
        navigation.SETUP: SetupScreen,
        navigation.GAME: GameScreen,
        navigation.END: EndScreen,
        navigation.SCOREKEEPER: ScorekeeperScreen,
    }

    def go(self, name: str, *args: Any) -> None:
        """Replace the current screen with the screen called ``name`` (the screens navigate by name)."""
        self.switch_screen(self.SCREENS_BY_NAME[name](*args))


def _rules(rules: Rules | str | None) -> Rules:
    if isinstance(rules, Rules):
        return rules
    return load_rules(rules or DEFAULT_RULES)


def _first_screen(
    rules: Rules | str | None,
    players: Sequence[str] | str | None,
    seed: str | int | None,
    resume: str | Path | None,
    save: str | Path | None,
    scorekeeper: bool,
    choice: SetupChoice,
    options: AppOptions,
) -> Screen[None]:
    if resume is not None:
        session = Session(record.load(resume), Path(save or resume))
        return EndScreen(session, options) if session.game.is_over else GameScreen(session, options)
    if players is None:
        if rules is not None:
            given = _rules(rules)
            choice.rules, choice.use_profile = given.name, False
            if isinstance(rules, str) and rules.endswith(".toml"):
                choice.profile, choice.use_profile = rules, True
        choice.scorekeeper = choice.scorekeeper or scorekeeper
        if seed is not None:
            choice.seed = str(seed)
        return SetupScreen(options, choice)
    specs = [p.strip() for p in players.split(",")] if isinstance(players, str) else list(players)
    if scorekeeper:
        names = seat_names(specs)
        if any(bot_spec_of(n) is not None for n in names):
            raise CubileteError(_("scorekeeper mode is for people at a real table: no bots"))
        return ScorekeeperScreen(_rules(rules), names, options)
    session = Session.new(_rules(rules), specs, seed)
    if save is not None:
        session.save_to(Path(save))
    return GameScreen(session, options)


def make_app(
    rules: Rules | str | None = None,
    players: Sequence[str] | str | None = None,
    seed: str | int | None = None,
    lang: str | None = None,
    resume: str | Path | None = None,
    scorekeeper: bool = False,
    bot_delay: float = 0.6,
    data_dir: str | Path | None = None,
    save: str | Path | None = None,
    coach_threshold: float = 1.0,
    coach_mode: bool = False,
) -> CubileteApp:
    """The terminal game, ready to ``run()``.

    Without ``players`` (and without ``resume``) it opens the setup screen, with ``rules``
    chosen there if given. ``players`` are names, ``bot`` or ``bot:LEVEL`` (a list, or one
    comma-separated string). ``resume`` continues a saved game (saved back to that file unless
    ``save`` names another). ``data_dir`` holds the remembered setup and the statistics.
    Bad input (unknown rules, a corrupt record, a bad language) raises a CubileteError at once.
    """
    folder = Path(data_dir) if data_dir is not None else None
    choice = load_choice(folder)
    if lang is not None:
        set_language(lang)
    else:
        try:
            set_language(choice.lang)
        except CubileteError:
            set_language(None)
    options = AppOptions(
        bot_delay=bot_delay, data_dir=folder, coach_threshold=coach_threshold, coach_mode=coach_mode
    )
    first = _first_screen(rules, players, seed, resume, save, scorekeeper, choice, options)
    return CubileteApp(first, options)
