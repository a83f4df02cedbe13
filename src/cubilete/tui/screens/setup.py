"""The setup screen: rules (a preset or a house-rule file), 1 to 8 seats, language, and
whether the app plays the dice or keeps the score of real dice. It remembers the last choice."""

from __future__ import annotations

import dataclasses

from textual import work
from textual.app import ComposeResult
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Input, Label, Select, Static, Switch

from cubilete.engine.errors import CubileteError
from cubilete.engine.rules import Rules, all_presets, find_rules, load_profile
from cubilete.i18n import LANGUAGES, _, current_language, rules_title, set_language, translate_error
from cubilete.play import coach
from cubilete.present.players import bot_spec_of
from cubilete.tui.navigation import GAME, SCOREKEEPER, go
from cubilete.tui.options import AppOptions
from cubilete.tui.session import Session, bot_levels
from cubilete.tui.settings import BOT, HUMAN, SeatChoice, SetupChoice, load_choice, save_choice
from cubilete.tui.styles import tcss
from cubilete.tui.widgets.keybar import KeyBar
from cubilete.tui.words import level_label, rules_facts

PROFILE = "@profile"
MAX_SEATS = 8
LANGUAGE_NAMES = {"es": "Español", "pt_BR": "Português (Brasil)", "en": "English"}


SKILL_LEVELS = ("beginner", "casual", "strong", "optimal")  # the named levels; the other bots are algorithms


class SeatRow(Horizontal):
    """One seat: a person (with a name) or a bot (with its level)."""

    DEFAULT_CSS = tcss("SeatRow")

    def __init__(self, index: int, seat: SeatChoice) -> None:
        super().__init__(id=f"seat-{index}")
        self.index = index
        self.seat = seat

    def compose(self) -> ComposeResult:
        """Number, kind and name."""
        # levels first (how well a bot plays), then the algorithms behind them, each named as what it is
        levels = [lv for lv in bot_levels() if lv in SKILL_LEVELS]
        algorithms = [lv for lv in bot_levels() if lv not in SKILL_LEVELS]
        options = (
            [(_("Person"), HUMAN)]
            + [(_("Bot: {level}").format(level=level_label(lv)), f"{BOT}:{lv}") for lv in levels]
            + [(_("Bot algorithm: {name}").format(name=level_label(lv)), f"{BOT}:{lv}") for lv in algorithms]
        )
        value = f"{BOT}:{self.seat.level}" if self.seat.is_bot else HUMAN
        if value not in [v for _label, v in options]:
            value = HUMAN
        yield Label(f"{_('Player')} {self.index + 1}")
        yield Select(options, value=value, allow_blank=False, id=f"kind-{self.index}")
        name = Input(self.seat.name, placeholder=_("name"), id=f"name-{self.index}", max_length=24)
        name.display = not self.seat.is_bot
        yield name

    def on_select_changed(self, event: Select.Changed) -> None:
        """A bot has no name to type."""
        self.query_one(Input).display = event.value == HUMAN

    def choice(self) -> SeatChoice:
        """The seat as chosen now."""
        kind = str(self.query_one(Select).value)
        name = self.query_one(Input).value.strip()
        if kind.startswith(f"{BOT}:"):
            return SeatChoice(BOT, name, kind.partition(":")[2])
        return SeatChoice(HUMAN, name)


class SetupScreen(Screen[None]):
    """Choose the game."""

    DEFAULT_CSS = tcss("SetupScreen")

    def __init__(self, options: AppOptions, choice: SetupChoice | None = None) -> None:
        super().__init__()
        self.options = options
        self.choice = choice if choice is not None else load_choice(options.data_dir)

    def compose(self) -> ComposeResult:
        """The form."""
        c = self.choice
        yield Static(_("cubilete · New game"), id="setup-title")
        with VerticalScroll(id="form"):
            presets = [(f"{rules_title(r)} ({r.name})", r.name) for r in all_presets()]
            presets.append((_("House rules from a file (.toml)…"), PROFILE))
            names = [v for _label, v in presets]
            value = PROFILE if c.use_profile else (c.rules if c.rules in names else "generala")
            with Horizontal(classes="field"):
                yield Label(_("Rules"))
                yield Select(presets, value=value, allow_blank=False, id="rules")
            with Horizontal(classes="field", id="profile-field"):
                yield Label(_("Profile file"))
                yield Input(c.profile, placeholder=_("path to a .toml house-rule file"), id="profile-path")
            yield Static("", id="rules-facts")
            with Horizontal(classes="field"):
                yield Label(_("Players"))
                counts = [(str(n), n) for n in range(1, MAX_SEATS + 1)]
                yield Select(counts, value=len(c.seats), allow_blank=False, id="seat-count")
            seats = [*c.seats, *(SeatChoice() for _ in range(MAX_SEATS - len(c.seats)))]
            for i, seat in enumerate(seats):
                row = SeatRow(i, seat)
                row.display = i < len(c.seats)
                yield row
            with Horizontal(classes="field"):
                yield Label(_("Language"))
                langs = [(LANGUAGE_NAMES[code], code) for code in LANGUAGES]
                yield Select(langs, value=current_language(), allow_blank=False, id="lang")
            with Horizontal(classes="field"):
                yield Label(_("Scorekeeper"))
                yield Switch(c.scorekeeper, id="scorekeeper")
                yield Label(_("real dice on a real table: type what you threw"), classes="note")
            with Horizontal(classes="field"):
                yield Label(_("Seed"))
                yield Input(c.seed, placeholder=_("optional: the same seed, the same dice"), id="seed")
            yield Static("", id="error")
            yield Button(_("Start"), variant="primary", id="start")
        yield KeyBar(id="keys")

    def on_mount(self) -> None:
        """Show the right fields and start in the first name."""
        self.query_one(KeyBar).show(
            [("tab", _("next field")), ("enter", _("choose / start")), ("ctrl+q", _("quit"))]
        )
        self._show_profile_field()
        first = self.query_one("#name-0", Input)
        (first if first.display else self.query_one("#start", Button)).focus()

    def _show_profile_field(self) -> None:
        use_profile = self.query_one("#rules", Select).value == PROFILE
        self.query_one("#profile-field").display = use_profile
        facts = ""
        if not use_profile:
            rules = find_rules(str(self.query_one("#rules", Select).value))
            facts = rules_facts(rules)
            self.prepare_solver(rules)
        self.query_one("#rules-facts", Static).update(facts)

    @work(thread=True, exclusive=True, group="prepare", exit_on_error=False)
    def prepare_solver(self, rules: Rules) -> None:
        """While the setup screen is open, load (or solve) the tables of the chosen rules in a thread, so the
        bots and the coach of the game answer at once (the app shares them: :func:`coach.solution_for`)."""
        if coach.is_solvable(rules):
            coach.solution_for(rules)

    async def on_select_changed(self, event: Select.Changed) -> None:
        """Rules, seat count or language changed."""
        if event.select.id == "rules":
            self._show_profile_field()
        elif event.select.id == "seat-count":
            count = int(str(event.value))
            for row in self.query(SeatRow):
                row.display = row.index < count
        elif event.select.id == "lang" and event.value != current_language():
            self.choice = self.read_choice()
            set_language(str(event.value))
            self.choice.lang = str(event.value)
            await self.recompose()
            self.on_mount()
            self.query_one("#lang", Select).focus()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in a text field starts the game."""
        self.start()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """The start button."""
        if event.button.id == "start":
            self.start()

    # --- reading and checking the form --------------------------------------------------------
    def read_choice(self) -> SetupChoice:
        """The form as a :class:`SetupChoice`."""
        rules_value = str(self.query_one("#rules", Select).value)
        count = int(str(self.query_one("#seat-count", Select).value))
        seats = [row.choice() for row in self.query(SeatRow) if row.index < count]
        return SetupChoice(
            rules=rules_value if rules_value != PROFILE else self.choice.rules,
            profile=self.query_one("#profile-path", Input).value.strip(),
            use_profile=rules_value == PROFILE,
            seats=seats,
            lang=self.choice.lang,  # picked here, or None: the environment's language next time too
            scorekeeper=self.query_one("#scorekeeper", Switch).value,
            seed=self.query_one("#seed", Input).value.strip(),
        )

    def chosen_rules(self, choice: SetupChoice) -> Rules:
        """The rules chosen (a house-rule file is read and checked now)."""
        if not choice.use_profile:
            return find_rules(choice.rules)
        if not choice.profile:
            raise CubileteError(_("Type the path of the house-rule file."))
        return load_profile(choice.profile)

    def seat_problems(self, choice: SetupChoice, rules: Rules) -> list[str]:
        """Why the seats cannot play these rules (empty when they can)."""
        problems: list[str] = []
        names: list[str] = []
        for n, seat in enumerate(choice.seats, 1):
            if seat.is_bot:
                if choice.scorekeeper:
                    problems.append(_("Seat {n}: scorekeeper mode is for people at a table, not bots.").format(n=n))
                continue
            if not seat.name:
                problems.append(_("Seat {n}: a person needs a name.").format(n=n))
            elif bot_spec_of(seat.name) is not None:
                problems.append(_("Seat {n}: the name {name} is kept for bots.").format(n=n, name=seat.name))
            elif seat.name in names:
                problems.append(_("Two seats are called {name}: names must be different.").format(name=seat.name))
            names.append(seat.name)
        count = len(choice.seats)
        if not rules.min_players <= count <= rules.max_players:
            problems.append(_("{rules} is for {low} to {high} players.").format(
                rules=rules_title(rules), low=rules.min_players, high=rules.max_players
            ))
        return problems

    def start(self) -> None:
        """Check the form; start the game (or the scorekeeper) and remember the choice."""
        choice = self.read_choice()
        error = self.query_one("#error", Static)
        try:
            rules = self.chosen_rules(choice)
        except CubileteError as exc:
            error.update(_("Rules: {reason}").format(reason=translate_error(str(exc))))
            return
        problems = self.seat_problems(choice, rules)
        if problems:
            error.update("\n".join(problems))
            return
        save_choice(dataclasses.replace(choice, seed=""), self.options.data_dir)  # a seed is for one game
        specs = [seat.spec for seat in choice.seats]
        try:
            if choice.scorekeeper:
                go(self, SCOREKEEPER, rules, specs, self.options)
            else:
                go(self, GAME, Session.new(rules, specs, seed=choice.seed or None), self.options)
        except CubileteError as exc:
            error.update(translate_error(str(exc)))
