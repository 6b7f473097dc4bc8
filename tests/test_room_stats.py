"""The statistics over HTTP (issue 24; docs/protocol.md "Statistics") from a real room
over real sockets: a table's session and whole history, a player's hands at every table
the caller may see, and the caller's own; each figure as this test works it out from the
hands the caller may read (``GET /api/tables/{id}/hands``), so a hand's cards the caller
never saw cannot move it."""

from __future__ import annotations

import random
from typing import Any

import pytest
from room_helpers import Client, Frame, RoomServer, bet_at_random, is_event, play, play_hands
from room_helpers import seated_game as seated
from test_stats_independent import expected

from splitpot.client.remote import RemoteGame
from splitpot.history.stats import PlayerFigures, Ratio
from splitpot.server import stats as server_stats

PERCENTS = ("vpip", "pfr", "three_bet", "wtsd", "wsd", "scoops", "low_made")


def get(room: RoomServer, token: str | None, path: str, **params: Any) -> Any:
    with room.http(token) as http:
        answer = http.get(path, params=params)
    assert answer.status_code == 200, answer.text
    return answer.json()


def as_json(figures: PlayerFigures) -> dict[str, Any]:
    """The JSON docs/protocol.md gives for a player's figures."""
    ratios = {
        name: {
            "made": r.made,
            "of": r.of,
            "percent": None if not r.of else round(100 * r.made / r.of, 1),
        }
        for name in PERCENTS
        if isinstance(r := getattr(figures, name), Ratio)
    }
    counts = {name: getattr(figures, name) for name in ("hands", "high_halves", "low_halves",
                                                         "quartered", "net")}  # fmt: skip
    return ratios | counts | {"net_bb": float(round(figures.net_bb, 2))}


def readable(room: RoomServer, token: str | None, table: str, ids: dict[str, int]) -> list[Any]:
    """The table's hands as the caller may read them, oldest first, each with the room
    player id of its players (by their names, as the ledger names them)."""
    documents = get(room, token, f"/api/tables/{table}/hands")["hands"][::-1]
    return [d | {"player_ids": [ids[p["name"]] for p in d["players"]]} for d in documents]


def test_a_tables_figures_are_what_each_caller_may_read_of_its_hands(room: RoomServer) -> None:
    """Three players bet at random; each caller's figures of every player are this
    test's own reading of the hands that caller may read: the same action figures for
    all, the lows only of hands shown to them; the nets are the ledger's."""
    table, clients = seated(room, ["Ann", "Bob", "Cy"], 200, name="Stats", seats=3)
    clients[0].send({"type": "host", "table": table, "action": "resume"})
    rng = random.Random(4)

    def choose(client: Client, turn: Frame) -> Frame:
        legal = {entry["action"]: entry for entry in turn["legal"]}
        return {"action": "show"} if "show" in legal else bet_at_random(rng, legal, 0.3)

    play_hands(clients, table, 8, choose)
    clients[0].send({"type": "host", "table": table, "action": "pause"})
    clients[0].wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    ids = {c.welcome["player"]["name"]: int(c.welcome["player"]["id"]) for c in clients}
    hands = len(get(room, None, f"/api/tables/{table}/hands")["hands"])
    for client in (*clients, None):
        token = None if client is None else client.token
        viewer = None if client is None else ids[client.welcome["player"]["name"]]
        stats = get(room, token, f"/api/tables/{table}/stats", scope="table")
        own = expected(readable(room, token, table, ids), viewer)
        assert stats["figures"] == {str(p): as_json(f) for p, f in own.items()}
        assert (stats["hands_read"], stats["capped"], stats["first_hand"]) == (hands, False, 1)
        assert stats["hand_numbers"] == list(range(1, hands + 1))
        for row in stats["players"]:
            assert stats["figures"][row["player"]]["net"] == row["net"]
            assert stats["chips"][row["player"]][-1] == [hands, row["stack"]]
    shown_to_ann = get(room, clients[0].token, f"/api/tables/{table}/stats")["figures"]
    shown_to_all = get(room, None, f"/api/tables/{table}/stats")["figures"]
    ann = str(ids["Ann"])
    assert shown_to_ann[ann]["low_made"]["of"] >= shown_to_all[ann]["low_made"]["of"]
    assert {k: v for k, v in shown_to_ann[ann].items() if k != "low_made"} == {
        k: v for k, v in shown_to_all[ann].items() if k != "low_made"
    }


def test_a_river_bet_nobody_calls_keeps_its_cards_out_of_the_others_figures(
    room: RoomServer,
) -> None:
    """Ann bets every river and Bob folds to it: her cards are never shown, so her low
    chances count in her own figures and in no one else's (Bob's, a watcher's)."""
    table, (ann, bob) = seated(room, ["Ann", "Bob"], 200, name="Quiet", seats=2)
    ann.send({"type": "host", "table": table, "action": "resume"})

    def river(client: Client, hand: str) -> bool:
        return sum(e["hand"] == hand for e in client.events("board", table)) == 3

    def choose(client: Client, turn: Frame) -> Frame:
        names = {entry["action"]: entry for entry in turn["legal"]}
        if client is ann and river(client, turn["hand"]) and "bet" in names:
            return {"action": "bet", "amount": names["bet"]["min"]}
        if client is bob and river(client, turn["hand"]) and "call" in names:
            return {"action": "fold"}
        return {"action": "check" if "check" in names else "call"}

    ann_id = ann.welcome["player"]["id"]
    for _ in range(15):  # until a board allowed a low (the deals are the players' too)
        done = ann.hands_ended(table) + 2
        play([ann, bob], table, lambda d=done: ann.hands_ended(table) >= d, choose)
        own = get(room, ann.token, f"/api/tables/{table}/stats")["figures"][ann_id]
        if own["low_made"]["of"]:
            break
    assert own["low_made"]["of"] >= 1, "30 boards and not one allowed a low"
    bobs = get(room, bob.token, f"/api/tables/{table}/stats")["figures"][ann_id]
    watchers = get(room, None, f"/api/tables/{table}/stats")["figures"][ann_id]
    assert bobs["low_made"] == watchers["low_made"] == {"made": 0, "of": 0, "percent": None}
    assert own["wtsd"]["made"] == bobs["wtsd"]["made"] == 0


def test_a_session_starts_when_the_table_empties_and_all_time_spans_the_tables(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both players leave (the table holds no chips) and sit again: the session's figures
    start at the next hand, the table's keep every hand (past the most read, the newest,
    said so). A player's all-time figures span their tables the caller may see: a private
    table only for its players."""
    table, (ann, bob) = seated(room, ["Ann", "Bob"], 100, name="Weekly", seats=2)
    ann.send({"type": "host", "table": table, "action": "resume"})
    play_hands([ann, bob], table, 2)
    for client in (ann, bob):
        client.send({"type": "leave", "table": table})
    play([ann, bob], table, lambda: len(ann.events("player_left", table)) == 2)
    ann.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    play_hands([ann, bob], table, 1)
    first = ann.hands_ended(table)
    session = get(room, ann.token, f"/api/tables/{table}/stats")
    whole = get(room, ann.token, f"/api/tables/{table}/stats", scope="table")
    assert (session["scope"], session["first_hand"]) == ("session", first)
    assert session["hand_numbers"] == [first] and session["hands_read"] == 1
    assert whole["hand_numbers"] == list(range(1, first + 1))
    ann_id, bob_id = ann.welcome["player"]["id"], bob.welcome["player"]["id"]
    assert session["figures"][ann_id]["hands"] == 1
    assert whole["figures"][ann_id]["hands"] == first
    assert (whole["capped"], whole["most"]) == (False, 1000)
    monkeypatch.setattr(server_stats, "MOST_HANDS", 2)
    newest = get(room, ann.token, f"/api/tables/{table}/stats", scope="table")
    assert (newest["capped"], newest["most"], newest["hands_read"]) == (True, 2, 2)
    assert newest["hand_numbers"] == [first - 1, first]
    assert newest["figures"][ann_id]["hands"] == 2
    mine = get(room, ann.token, "/api/me/stats")
    assert (mine["capped"], mine["hands_read"], mine["figures"]["hands"]) == (True, 2, 2)
    monkeypatch.undo()

    made = room.create_table(ann.token, name="Hidden", seats=2, private=True)
    hidden, cy = made["table"]["id"], Client(room, room.guest("Cy")[1])
    cy.send({"type": "watch", "table": hidden, "invite": made["invite"]})
    cy.wait(lambda f: f["type"] == "table" and f["table"] == hidden)
    ann.sit(hidden, 1, 100)
    cy.sit(hidden, 2, 100)
    play_hands([ann, cy], hidden, 1)
    cy_id = cy.welcome["player"]["id"]
    mine = get(room, cy.token, "/api/me/stats")
    assert (mine["player"], mine["tables"], mine["figures"]["hands"]) == (cy_id, 1, 1)
    assert get(room, bob.token, f"/api/players/{cy_id}/stats")["figures"]["hands"] == 0
    assert get(room, ann.token, f"/api/players/{cy_id}/stats")["figures"]["hands"] == 1
    bobs = get(room, None, f"/api/players/{bob_id}/stats")
    assert (bobs["name"], bobs["tables"], bobs["figures"]["hands"]) == ("Bob", 1, first)
    with room.http() as http:
        missing = http.get("/api/players/999999/stats")
        anonymous = http.get("/api/me/stats")
        bad_scope = http.get(f"/api/tables/{table}/stats", params={"scope": "week"})
    assert missing.status_code == 404 and missing.json()["error"]["code"] == "not_found"
    assert anonymous.status_code == 401
    assert bad_scope.status_code == 400 and "scope" in bad_scope.json()["error"]["message"]


def test_the_terminals_stats_command_prints_the_rooms_figures(room: RoomServer) -> None:
    """The line game's ``stats``: a row per player with the room's figures, the
    caller's marked; a scope it does not know is refused, saying what it takes."""
    table, clients = seated(room, ["Ann", "Bob"], 100, name="Lines", seats=2)
    clients[0].send({"type": "host", "table": table, "action": "resume"})
    play_hands(clients, table, 2)
    game = RemoteGame(room.url, "Dee", table=table, patience=10)
    try:
        game.start()
        session, whole, bad = (
            game.command(text).lines for text in ("stats", "stats table", "stats week")
        )
    finally:
        game.close()
    answer = get(room, None, f"/api/tables/{table}/stats", scope="table")
    hands = answer["hands_read"]
    assert whole[0] == f"{hands} hands at this table"
    assert session[0].endswith("hands this session")
    assert whole[1].split() == [
        "Player", "Hands", "VPIP", "PFR", "3-bet", "WTSD", "W$SD",
        "Scoop", "High", "Low", "Quart", "LowMade", "Net", "Net", "bb",
    ]  # fmt: skip
    for row in answer["players"]:
        figures = answer["figures"][row["player"]]
        line = next(line.split() for line in whole[2:] if line.split()[0] == row["name"])
        vpip = figures["vpip"]["percent"]
        assert line[1:3] == [str(figures["hands"]), "-" if vpip is None else f"{round(vpip)}%"]
        assert line[-2] == str(figures["net"])
    assert bad == ("stats takes 'session' or 'table', like 'stats table', not 'week'",)
