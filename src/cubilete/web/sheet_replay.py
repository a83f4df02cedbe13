"""A stored real-dice sheet (web/sheets.py) replayed on the core scorekeeper: the scorekeeper itself, the typed
steps as the site's replay shows them, and the coach's review of the typed entries (play/sheet_review.py).

Both the replay and the review read only what was typed at the table (the dice, the throw the player stopped on,
the box): never the earlier throws the scorekeeper invents so the engine can replay the game.
"""

from __future__ import annotations

import json
from typing import Any

from cubilete.engine.errors import CubileteError, ScorekeeperError
from cubilete.engine.rules import Rules
from cubilete.engine.rules.codec import rules_from_dict
from cubilete.i18n import box_name
from cubilete.play.scorekeeper import Scorekeeper
from cubilete.play.sheet_review import TypedDecision, judge_entry, summarise
from cubilete.present.render import servida_matters
from cubilete.store import sheets as stored
from cubilete.web.words import in_language, rules_words


def sheet_rules(sheet: stored.Sheet) -> Rules:
    return rules_from_dict(json.loads(sheet.rules_json), "sheet rules")


def replay(sheet: stored.Sheet) -> Scorekeeper:
    """The sheet's scorekeeper after every stored step."""
    keeper = Scorekeeper(sheet_rules(sheet), list(sheet.players))
    for step in sheet.steps:
        apply_step(keeper, step)
    return keeper


def apply_step(keeper: Scorekeeper, step: dict[str, Any]) -> None:
    """One typed step on the scorekeeper (:class:`ScorekeeperError` says why not)."""
    if step["kind"] == "start":
        keeper.start_throw(step["dice"])
    elif step["kind"] == "enter":
        if not step.get("slot"):
            raise ScorekeeperError("choose the box to write the dice in")
        keeper.enter(step["dice"], step["throw"], step["slot"], bool(step.get("scratch")))
    else:
        keeper.hand(step["dice"], step["throw"])


def typed_steps(sheet: stored.Sheet) -> tuple[Scorekeeper, list[dict[str, Any]], list[dict[str, Any]]]:
    """A finished sheet as its replay shows it: the start throws, then each typed entry or tie-break hand with
    its dice, the throw, the box, the points, and the seat's card and everyone's totals after it."""
    keeper = Scorekeeper(sheet_rules(sheet), list(sheet.players))
    servida = servida_matters(keeper.rules)
    start: list[dict[str, Any]] = []
    steps: list[dict[str, Any]] = []
    for step in sheet.steps:
        seat, turn, dice, throw = keeper.current, keeper.round, list(step["dice"]), step["throw"]
        if step["kind"] == "start":
            apply_step(keeper, step)
            start.append({"seat": seat, "dice": dice})
            continue
        tiebreak_round = keeper.tiebreak_round
        apply_step(keeper, step)
        shown: dict[str, Any] = {"seat": seat, "kind": step["kind"], "dice": dice, "throw": throw,
                                 "servida": servida and throw == 1, "totals": keeper.totals(),
                                 "card": list(keeper.cards[seat])}
        if step["kind"] == "enter":
            entry = keeper.entries[-1]
            won = keeper.is_over and keeper.instant_win
            shown.update(turn=turn, slot=entry.slot, points=entry.points, scratch=bool(step.get("scratch")),
                         wins_at_once=won, extra_bonus=entry.extra_bonus)
        else:
            shown.update(turn=None, tiebreak_round=tiebreak_round + 1)
        steps.append(shown)
    return keeper, start, steps


def replay_view(sheet: stored.Sheet) -> dict[str, Any]:
    """What ``GET /api/sheets/<id>/replay`` answers for a finished sheet (409 before: see web/sheets.py)."""
    keeper, start, steps = typed_steps(sheet)
    rules = keeper.rules
    return {
        "id": sheet.id, "rules": {"name": rules.name, **rules_words(rules)}, "players": list(keeper.players),
        "finished_at": sheet.finished_at, "winners": list(keeper.winners),
        "reason": keeper.reason.value if keeper.reason is not None else None, "totals": keeper.totals(),
        "cards": [list(card) for card in keeper.cards], "start": start, "steps": steps,
    }


def review_view(sheet: stored.Sheet, lang: str) -> dict[str, Any]:
    """The coach's review of a finished sheet's typed entries (call it where the solved tables are on disk): per
    player the points lost and the entries judged, the worst entries, and everyone's chance to win at the start
    and after every entry (the chances depend only on the cards between turns, never on an invented throw)."""
    from cubilete.win.chance import chance

    keeper = Scorekeeper(sheet_rules(sheet), list(sheet.players))
    decisions: list[TypedDecision] = []
    line: list[tuple[int, list[float], bool]] = []  # (entries written, everyone's chances, exact)
    several = len(keeper.players) > 1
    with in_language(lang):
        for step in sheet.steps:
            if step["kind"] == "enter" and step.get("slot"):
                judged = judge_entry(keeper, step["dice"], step["throw"], step["slot"])
                if judged is not None:
                    decisions.append(judged)
            apply_step(keeper, step)
            if several and keeper.game is not None and (step["kind"] != "start" or not line):
                try:
                    found_chances = chance(keeper.game)
                except CubileteError:  # no win tables for these rules here: the review without the chart
                    several, line = False, []
                    continue
                line.append((len(line), list(found_chances.probabilities), found_chances.exact))
        found = summarise(decisions, keeper.players)
        servida = servida_matters(keeper.rules)
        labels = {slot: box_name(keeper.rules, keeper.rules.slot_box(i).id) for i, slot in
                  enumerate(keeper.rules.slots)}
    out: dict[str, Any] = {
        "reviewed": True, "exact": True,
        "players": [{"name": name, "loss": round(loss, 2),
                     "decisions": sum(1 for d in found.decisions if d.player == name)}
                    for name, loss in found.total_loss.items()],
        "worst": [{"player": d.player, "seat": d.seat, "turn": d.turn, "dice": list(d.dice), "throw": d.throw,
                   "servida": servida and d.throw == 1,
                   "slot": d.slot, "box": labels[d.slot], "points": d.points, "chosen": d.written, "best": d.best,
                   "best_kind": d.best_kind, "best_slot": d.best_slot, "best_keep": list(d.best_keep),
                   "loss": round(d.loss, 2)} for worst in found.worst.values() for d in worst],
    }
    if line:
        out["chances"] = {"players": list(keeper.players), "turns": [turn for turn, _p, _e in line],
                          "chances": [[round(p, 4) for p in row] for _t, row, _e in line],
                          "exact": all(exact for _t, _r, exact in line)}
    return out
