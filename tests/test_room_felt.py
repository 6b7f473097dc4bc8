"""What the room adds for the browser pages, over real sockets: the all-in run-out told
with each face-up hand's equity, the hand helper, side pots at each round's end, and the
pages themselves."""

from __future__ import annotations

from fractions import Fraction

import pytest
from room_helpers import Client, Frame, RoomServer, one_hand, seated_game

from splitpot.evaluate import hand_help

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)


def all_in_at_once(client: Client, turn: Frame) -> Frame:
    """Go all in, or call one, then show: a hand run out from preflop."""
    names = [entry["action"] for entry in turn["legal"]]
    for name in ("allin", "call", "check", "show"):
        if name in names:
            return {"action": name}
    raise AssertionError(f"nothing to do in {turn['legal']}")


def hand_events(client: Client, hand: str) -> list[Frame]:
    return [
        f["event"] for f in client.frames if f["type"] == "event" and f["event"]["hand"] == hand
    ]


def test_an_all_in_run_out_turns_the_hands_up_then_tells_equity_each_street(
    room: RoomServer,
) -> None:
    table, clients = seated_game(room, ["Ann", "Bob"], 100, name="Felt", structure="no-limit")
    watcher = Client(room, None)
    watcher.state(table)
    hand = one_hand(clients[0], clients, table, all_in_at_once)["hand"]
    watcher.wait(lambda f: f["type"] == "event" and f["event"]["kind"] == "hand_ended")
    events = hand_events(watcher, hand)
    kinds = [e["kind"] for e in events]
    first_up = kinds.index("face_up")
    assert kinds[first_up : first_up + 9] == [
        "face_up", "face_up", "equity", "board", "equity", "board", "equity", "board", "equity"
    ]  # fmt: skip
    assert "board" not in kinds[:first_up]  # all in before the flop
    faced = {e["seat"]: e["cards"] for e in events if e["kind"] == "face_up"}
    assert set(faced) == {1, 2}
    equities = [e for e in events if e["kind"] == "equity"]
    assert [e["street"] for e in equities] == ["preflop", "flop", "turn", "river"]
    assert [len(e["board"]) for e in equities] == [0, 3, 4, 5]
    for told in equities:
        assert abs(sum(s["equity"] for s in told["seats"]) - 1) < 0.001
        for seat in told["seats"]:
            assert 0 <= seat["scoop"] <= seat["equity"] + 0.0001
    # On the river the equity is the share of the pot each hand wins: the awards agree.
    pot = sum(e["amount"] for e in events if e["kind"] == "pot_awarded")
    won = {seat: 0 for seat in faced}
    for award in (e for e in events if e["kind"] == "pot_awarded"):
        won[award["seat"]] += award["amount"]
    for seat in equities[-1]["seats"]:
        assert abs(Fraction(seat["equity"]) * pot - won[seat["seat"]]) <= 1
    # The hand's document tells the same awards, when it started and at which table.
    with room.http() as http:
        document = http.get(f"/api/hands/{hand}").json()
    ended = next(e for e in events if e["kind"] == "hand_ended")
    assert document["awards"] == ended["awards"]
    assert document["table"] == table and document["started"].endswith("Z")
    # The players saw the same frames as the watcher for these events (no one is told
    # anything more or less about the run-out).
    for client in clients:
        mine = [e for e in hand_events(client, hand) if e["kind"] in ("face_up", "equity")]
        assert mine == [e for e in events if e["kind"] in ("face_up", "equity")]
    watcher.close()
    for client in clients:
        client.close()


def test_a_round_that_ends_tells_its_side_pots(room: RoomServer) -> None:
    table, clients = seated_game(room, ["Ann", "Bob", "Cy"], 100, name="Felt", structure="no-limit")
    short = clients[2]
    with room.http(short.token) as http:
        assert http.get("/api/health").status_code == 200
    hand = one_hand(clients[0], clients, table, all_in_at_once)["hand"]
    ended = [e for e in hand_events(clients[0], hand) if e["kind"] == "round_ended"]
    assert ended and all(sum(p["amount"] for p in e["pots"]) == e["pot"] for e in ended)
    assert ended[0]["pots"][0]["eligible"] == [1, 2, 3]
    for client in clients:
        client.close()


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ({"hole": "AsKd5h2c", "board": "7h8d2s"}, "a pair of Twos · low 8,7,5,2,A"),
        ({"hole": "KsKdQhQc", "board": "7h8d2s"}, "a pair of Kings · no low possible"),
        ({"hole": "AsKd5h2c", "board": "KhQd9s"}, "a pair of Kings · no low possible"),
        ({"hole": "As2d5h2c", "board": "9h9d3s"}, "two pair, Nines and Twos · no low yet"),
        ({"hole": "AsKd5h2c"}, ""),
        ({"hole": "KsKdQhQc"}, "no low possible"),
        ({"hole": "AsKd5h2c", "board": "7h8d2s", "variant": "omaha"}, "a pair of Twos"),
        (
            {"hole": "AsKd5h2cTc", "board": "7h8d3s", "variant": "bigo"},
            "high card Ace · low 8,7,3,2,A",
        ),
    ],
)
def test_the_hand_helper(room: RoomServer, query: dict[str, str], text: str) -> None:
    with room.http() as http:
        answer = http.get("/api/helper", params=query)
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["text"] == text
    expected = hand_help(query.get("variant", "o8"), query["hole"], query.get("board", ""))
    high = None if expected.high is None else expected.high.name
    assert (body["high"] or {}).get("name") == high
    assert body["low_possible"] == expected.low_possible
    if body["high"] is not None:
        assert len(body["high"]["cards"]) == 5
        assert set(body["high"]["cards"]) <= set(
            query["hole"][i : i + 2] for i in range(0, 10, 2)
        ) | {query["board"][i : i + 2] for i in range(0, len(query["board"]), 2)}


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"hole": "AsKd"}, "a hand of Omaha Hi/Lo has 4 cards, not 2"),
        ({"hole": "AsKd5h2c", "board": "7h8d"}, "a board has 0, 3, 4 or 5 cards, not 2"),
        ({"hole": "AsKd5h2c", "board": "AsQdJh"}, "As"),
        ({"hole": "AsKd5h2x"}, "2x"),
        ({"hole": "AsKd5h2c", "variant": "razz"}, "unknown variant 'razz'"),
        ({}, "hole"),
    ],
)
def test_the_hand_helper_refuses_bad_cards_by_name(
    room: RoomServer, query: dict[str, str], message: str
) -> None:
    with room.http() as http:
        answer = http.get("/api/helper", params=query)
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["code"] == "bad_message"
    assert message in error["message"]


def test_the_pages_and_their_files(room: RoomServer) -> None:
    with room.http() as http:
        for path in ("/", "/tables/anything"):
            page = http.get(path)
            assert page.status_code == 200
            assert page.headers["content-type"].startswith("text/html")
            assert "script-src" not in page.headers["content-security-policy"]
            assert "default-src 'self'" in page.headers["content-security-policy"]
            assert '<script type="module"' in page.text
        lobby, table = http.get("/").text, http.get("/tables/x").text
        assert lobby != table
        script = http.get("/static/js/api.js")
        assert script.status_code == 200
        assert "javascript" in script.headers["content-type"]
        assert script.headers["x-content-type-options"] == "nosniff"
        icon = http.get("/favicon.ico")
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        assert http.get("/static/no-such-file.js").status_code == 404
        assert http.get("/static/../server/app.py").status_code == 404


def test_a_pokerstars_export_names_the_tables_size_for_trackers(room: RoomServer) -> None:
    """Trackers read "6-max" as the table's size, not the highest seat taken."""
    table, clients = seated_game(room, ["Ann", "Bob"], 100, name="Six", seats=6)
    hand = one_hand(clients[0], clients, table)["hand"]
    with room.http(clients[0].token) as http:
        text = http.get(f"/api/hands/{hand}", params={"format": "pokerstars"}).text
    assert f"Table '{table}' 6-max Seat #" in text.splitlines()[1]
    for client in clients:
        client.close()


def test_everyone_is_told_whose_decision_it_is_before_it_is_made(room: RoomServer) -> None:
    """Each decision of a hand is announced to every watcher (``to_act``) with the
    player's deadline, just before the player's ``turn``: a page rings the right seat
    without working out the order of play itself."""
    table, clients = seated_game(room, ["Ann", "Bob"], 100, name="Clock")
    watcher = Client(room, None)
    watcher.state(table)
    hand = one_hand(clients[0], clients, table)["hand"]
    watcher.wait(lambda f: f["type"] == "event" and f["event"]["kind"] == "hand_ended")
    decided = ("to_act", "acted", "shown", "mucked")  # a decision: to act, or show or muck
    events = [e for e in hand_events(watcher, hand) if e["kind"] in decided]
    told = [index for index, e in enumerate(events) if e["kind"] == "to_act"]
    assert len(told) >= 8  # called and checked down heads-up (and a show or muck, if any)
    for index in told:
        decision = events[index + 1]
        assert decision["kind"] != "to_act" and decision["seat"] == events[index]["seat"]
        if decision["kind"] in ("shown", "mucked"):  # the room shows or mucks: no clock
            assert events[index]["deadline"] is None
        else:
            assert events[index]["deadline"].endswith("Z")
    for client in clients:
        frames = client.frames
        for index, frame in enumerate(frames):
            if frame["type"] == "turn" and frame["hand"] == hand:
                before = frames[index - 1]
                assert before["type"] == "event" and before["event"]["kind"] == "to_act"
                assert before["event"]["seat"] == frame["seat"]
                assert before["event"]["deadline"] == frame["deadline"]
                assert before["seq"] == frame["seq"]
    watcher.close()
    for client in clients:
        client.close()
