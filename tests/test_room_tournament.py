"""Tournaments in a real room (RULES.md 8), over real sockets, on SQLite and PostgreSQL:
a sit-and-go of bots and one player away played to the last player, with places, prizes
and the ledger checked; what a tournament table refuses; registration's refusals."""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from room_helpers import FAST, Client, Frame, RoomServer, eventually, running_room
from tournament_checks import check_places_and_prizes

from splitpot.store import Store

TOURNAMENT_FAST = replace(FAST, clock_scale=0.05)
QUICK_LEVELS = {
    "clock": "hands",
    "levels": [
        {"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "ante": 0, "length": 2}
        for n in range(10)
    ],
}


def post(room: RoomServer, token: str, path: str, body: Any = None) -> Any:
    with room.http(token) as http:
        return http.post(path, json=body)


def lobby(room: RoomServer, token: str, tournament: str) -> dict[str, Any]:
    with room.http(token) as http:
        answer = http.get(f"/api/tournaments/{tournament}")
    assert answer.status_code == 200, answer.text
    found: dict[str, Any] = answer.json()
    return found


def finished(room: RoomServer, token: str, tournament: str) -> dict[str, Any]:
    """The tournament's lobby entry once it has finished."""
    return eventually(
        lambda: (found := lobby(room, token, tournament))["status"] == "finished" and found,
        "it finishes",
        180,
    )


def sit_and_go(room: RoomServer, token: str, **settings: Any) -> str:
    body = {
        "name": "Practice",
        "seats": 4,
        "bots": 3,
        "buy_in": 100,
        "fee": 10,
        "starting_stack": 200,
        "schedule": QUICK_LEVELS,
        "action_seconds": 1,
        "time_bank_seconds": 0,
    } | settings
    answer = post(room, token, "/api/tournaments", body)
    assert answer.status_code == 201, answer.text
    return str(answer.json()["tournament"]["id"])


def test_a_sit_and_go_of_bots_is_played_to_the_last_player_and_its_prizes_paid(
    store: Store,
) -> None:
    with running_room(store, TOURNAMENT_FAST) as room:
        player, token = room.guest("Ann")
        tournament = sit_and_go(room, token)
        assert lobby(room, token, tournament)["status"] == "registering"
        registered = post(room, token, f"/api/tournaments/{tournament}/register")
        assert registered.status_code == 200, registered.text
        started = eventually(
            lambda: lobby(room, token, tournament)["status"] != "registering", "it starts", 180
        )
        assert started
        running = lobby(room, token, tournament)
        assert running["entries"] == 4 and running["prize_pool"] == 400
        assert [p["prize"] for p in running["payouts"]] == [260, 140]  # RULES.md 8: 65/35
        table = running["tables"][0]["id"]
        client = Client(room, token)  # Ann watches: away, she checks or folds
        try:
            state = client.state(table)
            assert state["tournament"]["level"] >= 1
            refused = client.error({"type": "sit", "table": table, "seat": 1, "buy_in": 200})
            assert refused["code"] == "forbidden"
            assert "register in its lobby" in refused["message"]
        finally:
            client.close()
        done = finished(room, token, tournament)
        assert check_places_and_prizes(done["entrants"], 400) == (260, 140)
        prizes = {e["player"]: e["prize"] or 0 for e in done["entrants"]}
        for entrant in done["entrants"]:
            assert store.balance(int(entrant["player"])) == prizes[entrant["player"]] - 110
        store.check_invariant()
        with room.http(token) as http:
            results = http.get(f"/api/tournaments/{tournament}/results").json()["results"]
            csv = http.get(f"/api/tournaments/{tournament}/results.csv").text
        assert [r["place"] for r in results] == sorted(e["place"] for e in done["entrants"])
        assert csv.splitlines()[0].startswith("place")
        assert player in {r["player"] for r in results}


@pytest.mark.parametrize(
    "database_url", ["sqlite"], indirect=True
)  # the clock's rule, not the store's
def test_two_absent_players_heads_up_are_blinded_on_past_the_schedule_to_a_winner(
    store: Store,
) -> None:
    """docs/rules.md (Tournaments, overtime): both away, each folds their small blind for
    ever at the schedule's one level; past it the blinds double every level until posting
    puts them all in, and the tournament ends."""
    with running_room(store, TOURNAMENT_FAST) as room:
        (ann, token), (bob, bob_token) = room.guest("Ann"), room.guest("Bob")
        one_level = {"clock": "hands", "levels": [{"small_blind": 10, "big_blind": 20}]}
        tournament = sit_and_go(
            room, token, seats=2, bots=0, starting_stack=300, schedule=one_level
        )
        for entrant in (token, bob_token):
            assert post(room, entrant, f"/api/tournaments/{tournament}/register").status_code == 200
        done = finished(room, token, tournament)
        assert sorted(e["place"] for e in done["entrants"]) == [1, 2]
        assert sorted(e["prize"] or 0 for e in done["entrants"]) == [0, 200]
        table = done["tables"][0]["id"]
        played = [h.record for h in store.table_hands(table, 500) if h.record is not None]
        last = max(played, key=lambda record: record["tournament"]["level"])
        assert last["tournament"]["level"] > 1 and last["game"]["big_blind"] >= 300
        store.check_invariant()
        assert {ann, bob} == {e["player"] for e in done["entrants"]}


# PostgreSQL only (the many processes' database; test_store_tournaments.py runs the same
# store work on both): it is the room's longest tournament test
@pytest.mark.parametrize("database_url", ["postgresql"], indirect=True)
def test_a_scheduled_tournament_balances_and_breaks_its_tables_to_a_winner(store: Store) -> None:
    """Fourteen players, away, over three tables of six: the tables balance and break
    between hands to the final table and a winner; each player moved gets ``moved`` on
    the same socket and, watching the new table there, sits at it; every place and prize
    lands, no chip lost."""
    paced = replace(TOURNAMENT_FAST, bot_delay=0.02, hand_pause=0.2)
    with running_room(store, paced) as room:
        guests = [room.guest(f"P{n}") for n in range(14)]
        token = guests[0][1]
        start = datetime.now(UTC) + timedelta(hours=1)  # its host starts it sooner
        answer = post(
            room,
            token,
            "/api/tournaments",
            {
                "name": "Sunday",
                "kind": "scheduled",
                "start_at": start.isoformat(),
                "seats": 6,
                "buy_in": 50,
                "starting_stack": 300,
                "schedule": QUICK_LEVELS,
                "action_seconds": 1,
                "time_bank_seconds": 0,
            },
        )
        assert answer.status_code == 201, answer.text
        tournament = str(answer.json()["tournament"]["id"])
        for _, entrant in guests:
            assert post(room, entrant, f"/api/tournaments/{tournament}/register").status_code == 200
        clients = {player: Client(room, entrant) for player, entrant in guests}
        try:
            assert post(room, token, f"/api/tournaments/{tournament}/start").status_code == 200
            running = eventually(
                lambda: (found := lobby(room, token, tournament))["status"] == "running" and found,
                "it runs",
                180,
            )
            assert sorted(t["players"] for t in running["tables"]) == [4, 5, 5]
            moves = follow_moves(room, token, tournament, clients)
        finally:
            for client in clients.values():
                client.close()
        found = lobby(room, token, tournament)
        assert moves >= 2, "two tables broke: their last players moved"
        assert [t["broken"] for t in found["tables"]] == [True, True, True]
        assert len(found["entrants"]) == 14
        paid = check_places_and_prizes(found["entrants"], 700)
        assert len(paid) == 3  # RULES.md 8: about the top 15%
        store.check_invariant()
        for table in found["tables"]:  # every table plays its own hands' levels
            played = [h for h in store.table_hands(table["id"], 500) if h.record is not None]
            assert played
            for hand in played:
                assert hand.record is not None
                level = (hand.number - 1) // 2  # two hands a level, and overtime's
                assert hand.record["tournament"]["level"] == level + 1
                assert hand.record["tournament"]["id"] == int(tournament)
                assert hand.record["game"]["big_blind"] == 20 * 2**level


def follow_moves(room: RoomServer, token: str, tournament: str, clients: dict[str, Client]) -> int:
    """Each client watches its player's table and, told ``moved``, the new one (the
    player sits there, with chips); the moves followed, once the tournament is over."""
    moves, handled = 0, dict.fromkeys(clients, 0)
    watched: dict[str, str] = {}
    deadline = time.monotonic() + 240  # a generous bound: the whole tournament
    while (found := lobby(room, token, tournament))["status"] == "running":
        assert time.monotonic() < deadline, (found["players_left"], found["tables"])
        at = {e["player"]: e["table"] for e in found["entrants"]}
        for player, client in clients.items():
            if player not in watched and at.get(player):
                watched[player] = at[player]
                client.send({"type": "watch", "table": at[player]})
            told = [f for f in client.frames[handled[player] :] if f["type"] == "moved"]
            handled[player] = len(client.frames)
            for moved in told:
                assert moved["table"] == watched.get(player), moved
                watched[player] = moved["to"]
                client.send({"type": "watch", "table": moved["to"]})
                arrives(client, player, moved["to"], lambda: lobby(room, token, tournament))
                moves += 1
        time.sleep(0.05)
    return moves


def arrives(client: Client, player: str, to: str, lobby_now: Callable[[], Frame]) -> None:
    """The moved player's watch of ``to`` shows them seated there (all in already,
    perhaps: a stack of 0) at once, or when that table's hand ends and it seats them; or,
    at this pace, the lobby says they went out or moved on first (a table broken is
    closed: unknown to a watch)."""

    def seated(frame: Frame) -> bool:
        if frame["type"] == "table" and frame["table"] == to:
            return any(s.get("player") == player for s in frame["state"]["seats"])
        return frame["type"] == "error" and frame["code"] == "unknown_table"

    deadline = time.monotonic() + 90  # a generous bound: one hand at that table
    while True:
        try:
            client.wait(seated, timeout=1)
            return
        except AssertionError:
            me = next(e for e in lobby_now()["entrants"] if e["player"] == player)
            if me["out"] or me["table"] != to:
                return
            assert time.monotonic() < deadline, (me, client.frames[-3:])


def test_registration_refusals_name_what_is_wrong_and_change_nothing(store: Store) -> None:
    """A bad setting, a second entry, an entry past the field, leaving after the start,
    another's start, a private tournament without its invite: each refused by name, no
    chip moved."""
    with running_room(store, TOURNAMENT_FAST) as room:
        _, token = room.guest("Ann")
        bob, bob_token = room.guest("Bob")
        _, cy_token = room.guest("Cy")
        bad = post(room, token, "/api/tournaments", {"name": "x", "seats": 11})
        assert bad.status_code == 400 and "seats must be from 2 to 10" in bad.text
        tournament = sit_and_go(room, token, bots=0, seats=2)
        assert post(room, bob_token, f"/api/tournaments/{tournament}/register").status_code == 200
        again = post(room, bob_token, f"/api/tournaments/{tournament}/register")
        assert again.status_code == 409 and again.json()["error"]["code"] == "not_now", again.text
        assert store.balance(int(bob)) == -110  # once
        assert post(room, bob_token, f"/api/tournaments/{tournament}/unregister").status_code == 200
        assert store.balance(int(bob)) == 0
        started = post(room, bob_token, f"/api/tournaments/{tournament}/start")
        assert started.status_code == 403 and "only the tournament's host" in started.text
        assert post(room, token, f"/api/tournaments/{tournament}/register").status_code == 200
        assert post(room, bob_token, f"/api/tournaments/{tournament}/register").status_code == 200
        full = post(room, cy_token, f"/api/tournaments/{tournament}/register")
        assert full.status_code == 409, full.text
        eventually(lambda: lobby(room, token, tournament)["status"] == "running", "it runs", 180)
        late = post(room, bob_token, f"/api/tournaments/{tournament}/unregister")
        assert late.status_code == 409, late.text
        assert store.balance(int(bob)) == -110
        private = post(
            room, token, "/api/tournaments", {"name": "Invite only", "registration": "invite"}
        )
        assert private.status_code == 201
        hidden, code = private.json()["tournament"]["id"], private.json()["invite"]
        with room.http(cy_token) as http:
            assert http.get(f"/api/tournaments/{hidden}").status_code == 404
            assert (
                http.get(f"/api/tournaments/{hidden}", params={"invite": code}).status_code == 200
            )
            listed = http.get("/api/tournaments").json()["tournaments"]
        assert hidden not in {t["id"] for t in listed}
        refused = post(room, cy_token, f"/api/tournaments/{hidden}/register")
        assert refused.status_code == 403 and "invite code" in refused.text
        assert (
            post(
                room, cy_token, f"/api/tournaments/{hidden}/register", {"invite": code}
            ).status_code
            == 200
        )
