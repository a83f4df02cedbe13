"""Same dice for everyone (web/duplicate.py): a table made with "same_dice" throws duplicate dice, so both
people's turn n starts with the same throw; its rematch is the match's second game with new dice and the seats
swapped; the match's result adds both games per person and says who lost fewer points per decision."""

from __future__ import annotations

from typing import Any

from tests.web.inproc import choose, new_token, running_app, state_at_least, table_socket
from tests.web.test_rematch import bearer

TWO_PEOPLE = [{"kind": "human"}, {"kind": "human"}]


def _play(client: Any, table: str, tokens: dict[str, str], seats: list[str]) -> list[dict[str, Any]]:
    """Both sit (``seats``: names by seat) and play with the simple policy; every state seen by seat 0."""
    seen = []
    by_seat = [tokens[name] for name in seats]
    with table_socket(client, table, by_seat[0]) as a, table_socket(client, table, by_seat[1]) as b:
        state = state_at_least(a, 0)
        for i, (ws, name) in enumerate(((a, seats[0]), (b, seats[1]))):
            if state["seats"][i]["name"] is None:
                ws.send_json({"type": "sit", "seat": i, "name": name})
                state = state_at_least(a, state["version"] + 1)
        while state["status"] != "finished":
            (a, b)[state["current"]].send_json({"type": "act", "version": state["version"], "action": choose(state)})
            state = state_at_least(a, state["version"] + 1)
            seen.append(state)
    return seen


def test_a_same_dice_match_of_two_games(db_url: str) -> None:
    tokens = {"Ana": new_token(), "Bea": new_token()}
    with running_app(db_url) as client:
        made = client.post("/api/tables", json={"rules": "generala-sin-gana", "seats": TWO_PEOPLE, "coach": False,
                                                "same_dice": True})
        assert made.status_code == 201
        first = made.json()["id"]
        seen = _play(client, first, tokens, ["Ana", "Bea"])
        firsts: dict[int, list[list[int]]] = {0: [], 1: []}
        for s in seen:
            if s["status"] == "playing" and s["turn"]["throws"] == 1 and s["last"]["action"] == {"roll": []}:
                firsts[s["current"]].append(s["turn"]["dice"])
        assert firsts[0][:10] == firsts[1][:10] and len(firsts[0]) >= 10  # turn by turn, the same first throws
        assert seen[-1]["same_dice"] is True and seen[-1]["match_of"] is None
        assert client.get(f"/api/tables/{first}/match").status_code == 404  # the first game ends no match

        second = client.post(f"/api/tables/{first}/rematch", json={}, headers=bearer(tokens["Ana"])).json()["id"]
        info = client.get(f"/api/tables/{second}").json()
        assert info["state"]["match_of"] == first and info["state"]["same_dice"] is True
        assert info["table"]["commitment"] != client.get(f"/api/tables/{first}").json()["table"]["commitment"]
        assert client.get(f"/api/tables/{second}/match").status_code == 409  # not over yet
        _play(client, second, tokens, ["Bea", "Ana"])  # seats swapped: Bea sits first now
        result = client.get(f"/api/tables/{second}/match").json()
        totals = {}
        for game in result["games"]:
            for name, total in zip(game["players"], game["totals"], strict=True):
                totals[name] = totals.get(name, 0) + total
        assert [g["players"] for g in result["games"]] == [["Ana", "Bea"], ["Bea", "Ana"]]
        assert {p["name"]: p["total"] for p in result["people"]} == totals
        leaders = [n for n, t in totals.items() if t == max(totals.values())]
        assert result["winner"] == (leaders[0] if len(leaders) == 1 else None)
        assert all(p["loss_per_decision"] is None or p["loss_per_decision"] >= 0 for p in result["people"])
