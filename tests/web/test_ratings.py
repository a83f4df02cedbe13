"""Two ratings per official preset (web/ratings.py, store/ratings.py; docs/RATINGS.md).

The results rating is checked against the Plackett-Luce update of Weng and Lin (2011), written here from the
paper's equations (as openskill states them), not from the library; the decision rating's mean and interval
by hand; a ranked game between two people through the server rates both once (on SQLite and PostgreSQL),
games with a bot, the coach or house rules are not rated; and players of known strength (bot levels) come out in their
order on the decision rating after a few games."""

from __future__ import annotations

import math
import time
from pathlib import Path
from typing import Any

import pytest
from tests.web.inproc import choose, create, new_token, running_app, state_at_least, table_socket

from cubilete import Game, find_rules
from cubilete.play.bots import make_bot
from cubilete.store.ratings import GameLine
from cubilete.store.webdb import WebStore
from cubilete.web import ratings

MU, SIGMA = 25.0, 25.0 / 3
BETA = SIGMA / 2
TAU = MU / 300


def weng_lin_plackett_luce(skills: list[tuple[float, float]], rank: list[int]) -> list[tuple[float, float]]:
    """The Plackett-Luce update of Weng and Lin (2011, algorithm 4), one player a team, ties by A_q, with the
    additive dynamics factor tau = 25/300 added to each variance first (openskill's documented default)."""
    skills = [(mu, math.sqrt(sigma * sigma + TAU * TAU)) for mu, sigma in skills]
    c = math.sqrt(sum(s * s + BETA * BETA for _, s in skills))
    e = [math.exp(mu / c) for mu, _ in skills]
    sum_q = [sum(e[i] for i in range(len(skills)) if rank[i] >= rank[q]) for q in range(len(skills))]
    a = [sum(1 for r in rank if r == rank[q]) for q in range(len(skills))]
    out = []
    for i, (mu, sigma) in enumerate(skills):
        omega = delta = 0.0
        for q in range(len(skills)):
            if rank[q] > rank[i]:
                continue
            quotient = e[i] / sum_q[q]
            omega += ((1 - quotient) if q == i else -quotient) / a[q]
            delta += quotient * (1 - quotient) / a[q]
        gamma = sigma / c
        mu2 = mu + sigma * sigma / c * omega
        var = sigma * sigma * max(1 - gamma * sigma * sigma / (c * c) * delta, 0.0001)
        out.append((mu2, math.sqrt(var)))
    return out


@pytest.mark.parametrize(("before", "totals"), [
    ([None, None], [180, 120]),
    ([(30.0, 4.0), (22.0, 7.5)], [100, 140]),
    ([None, (28.0, 5.0), (24.0, 6.0)], [150, 150, 90]),  # a tie for first
    ([None, None, None, None], [90, 200, 130, 60]),
])
def test_the_results_rating_is_the_plackett_luce_update(before: list[Any], totals: list[int]) -> None:
    skills = [(MU, SIGMA) if s is None else s for s in before]
    expected = weng_lin_plackett_luce(skills, ratings.ranks(totals))
    for (mu, sigma), (mu2, sigma2) in zip(ratings.rate(before, totals), expected, strict=True):
        assert mu == pytest.approx(mu2, abs=1e-9) and sigma == pytest.approx(sigma2, abs=1e-9)


def test_ranks_share_a_tie_and_skip_after_it() -> None:
    assert ratings.ranks([150, 150, 90]) == [1, 1, 3]
    assert ratings.ranks([90, 200, 130]) == [3, 1, 2]


def test_the_decision_rating_is_the_mean_loss_with_a_normal_interval() -> None:
    # two games: losses (1, 0, 2) and (0, 3): mean 6/5 = 1.2; E[x^2] = 14/5 = 2.8; var = 2.8 - 1.44 = 1.36
    lines = [GameLine("t1", 1.0, 25, 8, 3.0, 5.0, 3), GameLine("t2", 2.0, 25, 8, 3.0, 9.0, 2),
             GameLine("t3", 3.0, 25, 8, None, None, 0)]  # a game without exact tables is left out
    found = ratings.decision_rating(lines, "generala")
    assert found is not None
    half = 1.959963984540054 * math.sqrt(1.36 / 5)
    assert found["loss_per_decision"] == pytest.approx(1.2) and found["decisions"] == 5
    assert found["ci"] == pytest.approx([round(1.2 - half, 4), round(1.2 + half, 4)])
    assert found["loss_per_game"] == pytest.approx(3.0)  # 6 points over 2 games
    assert found["plays_like"] == "strong"  # 3.0 a game: nearest the strong bot's 3.91 (docs/BOTS.md)
    assert ratings.decision_rating(lines[2:], "generala") is None


def _two_people_play(client: Any, rules: str = "generala-sin-gana") -> str:
    table = create(client, [{"kind": "human"}, {"kind": "human"}], rules=rules, coach=False)
    with table_socket(client, table, new_token()) as a, table_socket(client, table, new_token()) as b:
        a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
        state_at_least(a, 1)
        b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
        state = state_at_least(a, 2)
        while state["status"] != "finished":
            mover = (a, b)[state["current"]]
            mover.send_json({"type": "act", "version": state["version"], "action": choose(state)})
            state = state_at_least(a, state["version"] + 1)
    return table


def _rated(client: Any, preset: str, count: int) -> list[dict[str, Any]]:
    deadline = time.monotonic() + 600  # rated in a worker thread after the last move (a bound for a hang only)
    while len(found := client.get(f"/api/ratings?preset={preset}").json()) < count:
        assert time.monotonic() < deadline, f"only {len(found)} rated"
        time.sleep(0.05)
    return found  # type: ignore[no-any-return]


def test_a_ranked_game_rates_both_people_once(db_url: str) -> None:
    with running_app(db_url) as client:
        table = _two_people_play(client)
        board = _rated(client, "generala-sin-gana", 2)
        totals = client.get(f"/api/tables/{table}").json()["state"]["result"]["totals"]
        by_name = {e["name"]: e for e in board}
        assert all(e["games"] == 1 and e["uncertainty"] < SIGMA for e in board)
        if totals[0] != totals[1]:
            winner, loser = ("Ana", "Bea") if totals[0] > totals[1] else ("Bea", "Ana")
            assert by_name[winner]["rating"] > by_name[loser]["rating"]
            assert [e["name"] for e in board] == [winner, loser]
        pid = by_name["Ana"]["pid"]
        mine = client.get(f"/api/players/{pid}").json()["ratings"]["generala-sin-gana"]
        assert mine["games"] == 1 and [h["table"] for h in mine["history"]] == [table]
        hub = client.app.state.hub
        room = client.portal.call(hub.room, table)
        assert ratings.apply_game(hub.store, "generala-sin-gana", table, 1.0, room.game,
                                  [s.pid for s in room.seats]) is False  # never twice
        assert client.get("/api/ratings?preset=nope").status_code == 404
        assert client.get("/api/ratings?preset=generala&sort=worst").status_code == 422


def test_games_with_a_bot_or_house_rules_are_not_rated(db_url: str) -> None:
    with running_app(db_url) as client:
        house = client.post("/api/tables", json={"profile": 'base = "generala"\nname = "casa"\nrounds = 1\n',
                                                 "seats": [{"kind": "human"}] * 2, "coach": False}).json()["id"]
        with table_socket(client, house, new_token()) as a, table_socket(client, house, new_token()) as b:
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(a, 1)
            b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state = state_at_least(a, 2)
            while state["status"] != "finished":
                (a, b)[state["current"]].send_json({"type": "act", "version": state["version"],
                                                    "action": choose(state)})
                state = state_at_least(a, state["version"] + 1)
        hub = client.app.state.hub
        room = client.portal.call(hub.room, house)
        assert ratings.rankable(room) is False
        with_bot = create(client, [{"kind": "human"}, {"kind": "bot", "level": "greedy"}])
        assert ratings.rankable(client.portal.call(hub.room, with_bot)) is False
        coached = create(client, [{"kind": "human"}, {"kind": "human"}], rules="generala-sin-gana", coach=True)
        with table_socket(client, coached, new_token()) as a, table_socket(client, coached, new_token()) as b:
            a.send_json({"type": "sit", "seat": 0, "name": "Ana"})
            state_at_least(a, 1)
            b.send_json({"type": "sit", "seat": 1, "name": "Bea"})
            state_at_least(a, 2)
        room = client.portal.call(hub.room, coached)
        assert ratings.rankable(room) is False  # hints one click away: practice, not ranked
        room.coach = False
        assert ratings.rankable(room) is True  # (the same table without the coach would count)
        assert client.get("/api/ratings?preset=generala").json() == []


def test_players_of_known_strength_come_out_in_order(tmp_path: Path, bots_solver_cache: Path) -> None:
    """The bot levels, whose loss is set by their definition (docs/BOTS.md), in 24 heads-up games: the
    decision rating orders them optimal < strong < beginner, with the optimal bot at exactly 0."""
    store = WebStore(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    store.migrate()
    pids = {"optimal": "p0", "strong": "p1", "beginner": "p2"}
    pairs = [("optimal", "beginner"), ("strong", "beginner"), ("optimal", "strong")] * 8
    rules = find_rules("generala-sin-gana")
    for n, (x, y) in enumerate(pairs):
        bots = {x: make_bot(f"bot:{x}", seed=f"{n}x"), y: make_bot(f"bot:{y}", seed=f"{n}y")}
        game = Game(rules, [x, y], seed=f"levels-{n}")
        while not game.is_over:
            game.apply(bots[game.current_player].choose(game))
        assert ratings.apply_game(store, rules.name, f"t{n:05d}", float(n), game, [pids[x], pids[y]])
    board = {e["name"]: e for e in ratings.board(store, rules.name, "decision")}
    loss = {name: board[name]["decision"]["loss_per_decision"] for name in pids}
    assert loss["optimal"] == 0.0 < loss["strong"] < loss["beginner"]
    assert board["strong"]["decision"]["ci"][1] < board["beginner"]["decision"]["ci"][0]  # told apart
    assert [e["name"] for e in ratings.board(store, rules.name, "decision")] == ["optimal", "strong", "beginner"]
    store.close()


def test_without_exact_tables_a_game_is_judged_at_once_with_no_decision_rating(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # an approximate review of a whole game took a minute of a worker thread on a busy machine (CI waited
    # "never rated") and gave nothing: the decision rating needs exact tables
    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "empty-cache"))

    def review(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("an approximate review was run")

    monkeypatch.setattr(ratings.coach, "review", review)
    game = Game(find_rules("generala-sin-gana"), ["Ana", "Bea"], seed="7")
    while not game.is_over:
        game.apply(game.legal_actions()[-1])
    assert ratings.judge(game, ["Ana", "Bea"]) == {"Ana": (None, None, 0, None), "Bea": (None, None, 0, None)}


DUO = 'base = "generala"\nname = "duo"\nremove = ["1", "2", "3", "4", "5", "escalera", "full", "poker", "doble"]\n'


def _heads_up(rules: Any, seed: str) -> Game:
    game = Game(rules, ["Win", "Rand"], seed)
    bots = [make_bot("bot:win", seed="a"), make_bot("bot:random", seed="b")]
    while not game.is_over:
        game.apply(bots[game.state.current].choose(game))
    return game


def test_heads_up_the_chance_to_win_given_up_is_rated_against_the_exact_two_player_table(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from cubilete.engine.rules.profile import rules_from_toml
    from cubilete.play.coach import solution_for
    from cubilete.win.chance import duel_table

    monkeypatch.setenv("CUBILETE_CACHE_DIR", str(tmp_path / "cache"))
    rules = rules_from_toml(DUO)
    game = _heads_up(rules, "5")
    assert ratings.judge_win(game, ["Win", "Rand"]) is None  # no two-player table here: never an estimate
    assert duel_table(rules) is not None and solution_for(rules) is not None  # built here (a second), as a site's
    won = ratings.judge_win(game, ["Win", "Rand"])
    assert won is not None
    assert won["Win"][0] == pytest.approx(0.0, abs=1e-12) and won["Win"][1] > 0  # playing to win gives up nothing
    assert won["Rand"][0] > 0 and won["Rand"][1] > 0
    store = WebStore(f"sqlite:///{tmp_path / 'r.sqlite3'}")
    store.migrate()
    assert ratings.apply_game(store, "duo", "t1", 1.0, game, ["a" * 16, "b" * 16])
    lines = ratings.stored.history(store, "duo", ["b" * 16])["b" * 16]
    found = ratings.decision_rating(lines, "duo")
    assert found is not None and found["win_decisions"] == won["Rand"][1]
    assert found["win_given_up_per_decision"] == pytest.approx(won["Rand"][0] / won["Rand"][1], abs=1e-6)
    three = Game(rules, ["A", "B", "C"], "5")
    assert ratings.judge_win(three, ["A", "B", "C"]) is None  # heads-up only
