"""Clubs over the room's HTTP API and WebSocket, on a real server over real sockets
(docs/protocol.md "Clubs"): joining by code, asking and being approved or rejected, roles,
a manager's table seen by members only, a weekly game that opens by itself at its time,
the club's ledger and settle-up after hands played, the log of every command, and every
manager's and owner's command refused to everyone else, each by name."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from room_helpers import FAST, Client, RoomServer, eventually, is_event, one_hand, running_room
from store_fixtures import cheap_hasher

from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.room.schedule import Weekly
from splitpot.server.schedule import open_due
from splitpot.store import Store, iso_time, open_store

OPTIONS = replace(FAST, schedule_seconds=0.05, guests_per_minute=10_000)
GAME = {
    "weekday": 4,
    "time": "20:00",
    "zone": "Europe/London",
    "settings": {"name": "Friday O8", "seats": 6, "small_blind": 1, "big_blind": 2},
}


class Clock:
    """The room's clock: the real one, moved on as far as the test says."""

    def __init__(self) -> None:
        self.ahead = timedelta()

    def __call__(self) -> datetime:
        return datetime.now(UTC) + self.ahead


@dataclass
class Room:
    server: RoomServer
    store: Store
    clock: Clock

    def guest(self, name: str) -> str:
        return self.server.guest(name)[1]

    def http(self, token: str) -> httpx.Client:
        return self.server.http(token)


def open_room(path: Path) -> Iterator[Room]:
    clock = Clock()
    store = open_store(f"sqlite:///{path}", password_hasher=cheap_hasher(), clock=clock)
    with running_room(store, OPTIONS) as server:
        yield Room(server, store, clock)
    store.close()


@pytest.fixture(scope="module")
def room(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Room]:
    """One room for the tests that do not move its clock: it reads Tuesday noon in London
    when they start, so that no weekly game of theirs (Friday 20:00) comes due meanwhile."""
    for opened in open_room(tmp_path_factory.mktemp("clubs") / "room.sqlite3"):
        tuesday_noon = Weekly(1, 12 * 60, "Europe/London").next_after(datetime.now(UTC))
        opened.clock.ahead = tuesday_noon - datetime.now(UTC)
        yield opened


@pytest.fixture
def own_room(tmp_path: Path) -> Iterator[Room]:
    """A room whose clock the test moves."""
    yield from open_room(tmp_path / "room.sqlite3")


def ok(answer: httpx.Response, status: int = 200) -> Any:
    assert answer.status_code == status, answer.text
    return answer.json() if answer.content else None


def refused(answer: httpx.Response, status: int, code: str, message: str) -> None:
    assert answer.status_code == status, answer.text
    assert answer.json() == {"error": {"code": code, "message": message}}


def new_club(room: Room, token: str, membership: str = "request") -> tuple[str, str]:
    """A club made by ``token``'s player: its id and invite code."""
    with room.http(token) as http:
        body = ok(
            http.post("/api/clubs", json={"name": "Friday club", "membership": membership}), 201
        )
    return body["club"]["id"], body["invite"]


def log_kinds(room: Room, token: str, club: str) -> list[str]:
    with room.http(token) as http:
        lines = ok(http.get(f"/api/clubs/{club}/log", params={"limit": 500}))["log"]
    return [line["kind"] for line in reversed(lines)]


def test_joining_asking_approval_and_roles(room: Room) -> None:
    ann, bob, cy, di = (room.guest(name) for name in ("Ann", "Bob", "Cy", "Di"))
    with room.http(ann) as http:
        made = ok(
            http.post("/api/clubs", json={"name": " Friday club ", "membership": "request"}), 201
        )
    club, code = made["club"]["id"], made["invite"]
    assert made["club"] | {"id": "", "created": ""} == {
        "id": "",
        "name": "Friday club",
        "owner": {"id": made["club"]["owner"]["id"], "name": "Ann"},
        "membership": "request",
        "members": 1,
        "role": "owner",
        "created": "",
    }
    with room.http(bob) as http:
        assert ok(http.get(f"/api/clubs/{club}"))["role"] is None
        joined = ok(http.post(f"/api/clubs/{club}/join", json={"code": code}))
        assert (joined["club"]["role"], joined["club"]["members"]) == ("member", 2)
        bob_id = ok(http.get(f"/api/clubs/{club}/members"))["members"][1]["player"]
    with room.http(cy) as http:
        assert ok(http.post(f"/api/clubs/{club}/join"))["club"]["role"] == "asked"
        refused(
            http.get(f"/api/clubs/{club}/lobby"),
            403,
            "forbidden",
            f"only a member of club {club} may see its lobby",
        )
    with room.http(di) as http:
        refused(
            http.post(f"/api/clubs/{club}/join", json={"code": "not-the-code"}),
            403,
            "forbidden",
            f"that is not the invite code of club {club}",
        )
        ok(http.post(f"/api/clubs/{club}/join", json={}))
    with room.http(ann) as http:
        members = ok(http.get(f"/api/clubs/{club}/members"))["members"]
        assert [(m["name"], m["role"]) for m in members] == [
            ("Ann", "owner"),
            ("Bob", "member"),
            ("Cy", "asked"),
            ("Di", "asked"),
        ]
        cy_id, di_id = members[2]["player"], members[3]["player"]
        approved = ok(http.post(f"/api/clubs/{club}/members/{cy_id}/approve"))["member"]
        assert (approved["name"], approved["role"]) == ("Cy", "member")
        ok(http.post(f"/api/clubs/{club}/members/{di_id}/reject"), 204)
        refused(
            http.post(f"/api/clubs/{club}/members/{di_id}/approve"),
            409,
            "not_now",
            f"Di has not asked to join club {club}",
        )
        promoted = ok(
            http.put(f"/api/clubs/{club}/members/{bob_id}/role", json={"role": "manager"})
        )
        assert promoted["member"]["role"] == "manager"
        changed = ok(http.patch(f"/api/clubs/{club}", json={"membership": "closed"}))
        assert changed["membership"] == "closed"
        code = ok(http.post(f"/api/clubs/{club}/invite"))["invite"]
    with room.http(di) as http:
        assert ok(http.get(f"/api/clubs/{club}"))["role"] is None
        refused(
            http.post(f"/api/clubs/{club}/join"),
            403,
            "forbidden",
            f"club {club} is closed: only its invite code lets one in",
        )
        assert (
            ok(http.post(f"/api/clubs/{club}/join", json={"code": code}))["club"]["role"]
            == "member"
        )
        ok(http.post(f"/api/clubs/{club}/leave"), 204)
        assert ok(http.get("/api/clubs"))["clubs"] == []
    with room.http(bob) as http:  # a manager removes a member
        ok(http.delete(f"/api/clubs/{club}/members/{cy_id}"), 204)
        assert [c["role"] for c in ok(http.get("/api/clubs"))["clubs"]] == ["manager"]
    assert log_kinds(room, ann, club) == [
        "created",
        "joined",
        "asked",
        "asked",
        "approved",
        "rejected",
        "role",
        "changed",
        "invite",
        "joined",
        "left",
        "removed",
    ]
    with room.http(ann) as http:
        [newest] = ok(http.get(f"/api/clubs/{club}/log", params={"limit": 1}))["log"]
        assert newest["actor"] == {"id": bob_id, "name": "Bob"}
        assert newest["fields"] == {"player": cy_id, "name": "Cy"}
        refused(http.get("/api/clubs/zzzzzzzz"), 404, "unknown_club", "there is no club 'zzzzzzzz'")
        refused(http.get("/api/clubs/NOT-ONE"), 404, "unknown_club", "there is no club 'NOT-ONE'")
    with httpx.Client(base_url=room.server.url) as anonymous:
        refused(
            anonymous.get(f"/api/clubs/{club}"),
            401,
            "unauthorized",
            "this needs a session: Authorization: Bearer TOKEN",
        )


def test_a_managers_table_is_seen_by_members_only(room: Room) -> None:
    ann, bob, stranger = (room.guest(name) for name in ("Ann", "Bob", "Sam"))
    club, code = new_club(room, ann)
    with room.http(bob) as http:
        ok(http.post(f"/api/clubs/{club}/join", json={"code": code}))
    with room.http(ann) as http:
        table = ok(
            http.post(f"/api/clubs/{club}/tables", json={"name": "Tonight", "seats": 4}), 201
        )["table"]
        assert (table["private"], table["club"]) == (True, {"id": club, "name": "Friday club"})
        refused(
            http.post(f"/api/clubs/{club}/tables", json={"name": "x", "seats": 11}),
            400,
            "bad_message",
            "seats must be from 2 to 10, not 11",
        )
    with room.http(bob) as http:
        seen = ok(http.get(f"/api/tables/{table['id']}"))
        assert (seen["name"], seen["club"]) == ("Tonight", {"id": club, "name": "Friday club"})
        lobby = ok(http.get(f"/api/clubs/{club}/lobby"))
        assert [t["id"] for t in lobby["tables"]] == [table["id"]]
        assert lobby["tables"][0]["club"]["id"] == club
        assert table["id"] not in [t["id"] for t in ok(http.get("/api/tables"))["tables"]]
    with room.http(stranger) as http:
        refused(
            http.get(f"/api/tables/{table['id']}"),
            404,
            "unknown_table",
            f"there is no table '{table['id']}'",
        )
    watcher = Client(room.server, stranger)
    member = Client(room.server, bob)
    try:
        watcher.send({"type": "watch", "table": table["id"], "ref": "w"})
        error = watcher.wait(lambda f: f["type"] == "error")
        assert error["code"] == "unknown_table"
        assert member.state(table["id"])["table"]["id"] == table["id"]
    finally:
        watcher.close()
        member.close()
    kinds = log_kinds(room, ann, club)
    assert kinds[-1] == "table_opened"


def test_the_club_ledger_and_settle_up_after_hands(room: Room) -> None:
    ann, bob, cy = (room.guest(name) for name in ("Ann", "Bob", "Cy"))
    club, code = new_club(room, ann)
    for token in (bob, cy):
        with room.http(token) as http:
            ok(http.post(f"/api/clubs/{club}/join", json={"code": code}))
    with room.http(ann) as http:
        table = ok(
            http.post(f"/api/clubs/{club}/tables", json={"name": "Tonight", "seats": 3}), 201
        )
    table_id = table["table"]["id"]
    clients = [Client(room.server, token) for token in (ann, bob, cy)]
    host = clients[0]
    try:
        host.state(table_id)
        host.send({"type": "host", "table": table_id, "action": "pause"})
        host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
        for seat, client in enumerate(clients, start=1):
            client.sit(table_id, seat, 200)
        # one at a time: the table is paused between them, so no hand ends while the test
        # reads; three at least, and on until one was no chop (chips changed hands)
        for played in range(1, 11):
            one_hand(host, clients, table_id)
            with room.http(bob) as http:
                nets = [p["net"] for p in ok(http.get(f"/api/tables/{table_id}/stats"))["players"]]
            if played >= 3 and any(nets):
                break
    finally:
        for client in clients:
            client.close()
    with room.http(bob) as http:
        stats = ok(http.get(f"/api/tables/{table_id}/stats"))
        ledger = ok(http.get(f"/api/clubs/{club}/ledger"))
        night = ok(http.get(f"/api/clubs/{club}/ledger", params={"table": table_id}))
        settle = ok(http.get(f"/api/clubs/{club}/settle"))
        future = ok(http.get(f"/api/clubs/{club}/ledger", params={"since": "2100-01-01T00:00:00"}))
    nets = {p["name"]: p["net"] for p in stats["players"]}
    assert {p["name"]: p["net"] for p in ledger["players"]} == nets
    assert sum(nets.values()) + ledger["rake"] == 0 and any(nets.values())
    assert ledger["hands"] == stats["hands"] == played
    assert all(p["tables"] == 1 and p["hands"] == ledger["hands"] for p in ledger["players"])
    assert night["players"] == ledger["players"] and night["table"] == table_id
    assert (future["players"], future["since"]) == ([], "2100-01-01T00:00:00.000Z")
    squared = dict.fromkeys(nets, 0)
    for payment in settle["payments"]:
        squared[payment["from"]] -= payment["amount"]
        squared[payment["to"]] += payment["amount"]
    assert squared == nets and settle["fewest"] is True
    outsider = room.guest("Di")
    with room.http(outsider) as http:
        refused(
            http.get(f"/api/clubs/{club}/settle"),
            403,
            "forbidden",
            f"only a member of club {club} may see its ledger",
        )


def test_a_weekly_game_opens_by_itself_at_its_time(own_room: Room) -> None:
    ann, bob, stranger = (own_room.guest(name) for name in ("Ann", "Bob", "Sam"))
    club, code = new_club(own_room, ann)
    with own_room.http(bob) as http:
        ok(http.post(f"/api/clubs/{club}/join", json={"code": code}))
    with own_room.http(ann) as http:
        game = ok(http.post(f"/api/clubs/{club}/games", json=GAME), 201)["game"]
    opening = datetime.fromisoformat(game["next"])
    assert (game["time"], game["zone"], game["host"]["name"], game["table"]) == (
        "20:00",
        "Europe/London",
        "Ann",
        None,
    )
    assert opening.weekday() == 4 and opening - own_room.clock() <= timedelta(days=7)
    with own_room.http(bob) as http:  # listed ahead
        assert [g["id"] for g in ok(http.get(f"/api/clubs/{club}/lobby"))["games"]] == [game["id"]]

    own_room.clock.ahead = opening + timedelta(seconds=1) - datetime.now(UTC)
    eventually(lambda: "game_opened" in log_kinds(own_room, ann, club), "the game opens")
    with own_room.http(bob) as http:
        lobby = ok(http.get(f"/api/clubs/{club}/lobby"))
    [table] = lobby["tables"]
    assert table["name"] == f"Friday O8 — {opening.date().isoformat()}"  # London's day
    assert (table["host"], table["seats"], table["club"]["id"]) == (game["host"]["id"], 6, club)
    [after] = lobby["games"]
    assert after["table"] == table["id"]
    assert datetime.fromisoformat(after["next"]) - opening == timedelta(days=7)
    with own_room.http(stranger) as http:
        refused(
            http.get(f"/api/tables/{table['id']}"),
            404,
            "unknown_table",
            f"there is no table '{table['id']}'",
        )

    # next week the room was down at 20:00 and starts at 20:50: the game opens late
    own_room.clock.ahead = opening + timedelta(days=7, minutes=50) - datetime.now(UTC)
    eventually(
        lambda: log_kinds(own_room, ann, club).count("game_opened") == 2, "the game opens again"
    )
    # the week after, it starts at 22:00: that opening is skipped, to the week after
    own_room.clock.ahead = opening + timedelta(days=14, hours=2) - datetime.now(UTC)
    eventually(lambda: "game_missed" in log_kinds(own_room, ann, club), "the game is missed")
    with own_room.http(ann) as http:
        lines = ok(http.get(f"/api/clubs/{club}/log"))["log"]
        lobby = ok(http.get(f"/api/clubs/{club}/lobby"))
    [first, late] = lobby["tables"]
    assert (first["id"], late["name"]) == (
        table["id"],
        f"Friday O8 — {(opening + timedelta(days=7)).date()}",
    )
    assert datetime.fromisoformat(lobby["games"][0]["next"]) - opening == timedelta(days=21)
    [missed, opened_late, opened] = [
        line for line in lines if line["kind"] in ("game_opened", "game_missed")
    ]
    assert [line["actor"] for line in (missed, opened_late, opened)] == [None, None, None]
    assert opened["fields"] == {"game": game["id"], "table": table["id"], "name": table["name"]}
    assert opened_late["fields"]["table"] == late["id"]
    skipped = iso_time(opening + timedelta(days=14))
    assert (missed["kind"], missed["fields"]) == (
        "game_missed",
        {"game": game["id"], "at": skipped},
    )


# ------------------------------------------------------------ every command, refused


@dataclass(frozen=True)
class Cast:
    """A club with a player of each role, a game and a table, for the refusals."""

    club: str
    tokens: dict[str, str]  # role -> token: owner, manager, member, asked, stranger
    ids: dict[str, str]  # role -> player id
    game: str


def cast(room: Room) -> Cast:
    tokens = {role: room.guest(role.title()) for role in ("owner", "manager", "member", "asked")}
    tokens["stranger"] = room.guest("Stranger")
    club, code = new_club(room, tokens["owner"])
    for role in ("manager", "member"):
        with room.http(tokens[role]) as http:
            ok(http.post(f"/api/clubs/{club}/join", json={"code": code}))
    with room.http(tokens["asked"]) as http:
        ok(http.post(f"/api/clubs/{club}/join"))
    with room.http(tokens["owner"]) as http:
        members = ok(http.get(f"/api/clubs/{club}/members"))["members"]
        ids = {m["name"].lower(): m["player"] for m in members}
        ok(http.put(f"/api/clubs/{club}/members/{ids['manager']}/role", json={"role": "manager"}))
        game = ok(http.post(f"/api/clubs/{club}/games", json=GAME), 201)["game"]["id"]
    return Cast(club, tokens, ids, game)


@pytest.fixture(scope="module")
def refusing(room: Room) -> Cast:
    """One club for every refusal: a refusal changes nothing (each test checks it)."""
    return cast(room)


# name: (method, path under the club, body, the refusal's words after "may")
MANAGERS: dict[str, tuple[str, str, dict[str, Any] | None, str]] = {
    "approve": (
        "POST",
        "/members/{asked}/approve",
        None,
        "a manager of club {club} may approve a request to join",
    ),
    "reject": (
        "POST",
        "/members/{asked}/reject",
        None,
        "a manager of club {club} may reject a request to join",
    ),
    "remove": ("DELETE", "/members/{member}", None, "a manager of club {club} may remove a member"),
    "invite": ("POST", "/invite", None, "a manager of club {club} may make a new invite code"),
    "open_table": (
        "POST",
        "/tables",
        {"name": "Mine"},
        "a manager of club {club} may open its tables",
    ),
    "add_game": ("POST", "/games", GAME, "a manager of club {club} may add a weekly game"),
    "stop_game": (
        "DELETE",
        "/games/{game}",
        None,
        "a manager of club {club} may stop a weekly game",
    ),
    "log": ("GET", "/log", None, "a manager of club {club} may read its log"),
}
OWNERS: dict[str, tuple[str, str, dict[str, Any] | None, str]] = {
    "change": ("PATCH", "", {"name": "Mine"}, "the owner of club {club} may change it"),
    "role": (
        "PUT",
        "/members/{member}/role",
        {"role": "manager"},
        "the owner of club {club} may change its roles",
    ),
    "remove_manager": (
        "DELETE",
        "/members/{manager}",
        None,
        "the owner of club {club} may remove a manager",
    ),
}
CASES = [(name, caller) for name in MANAGERS for caller in ("member", "asked", "stranger")] + [
    (name, caller) for name in OWNERS for caller in ("manager", "member", "stranger")
]


@pytest.mark.parametrize(("command", "caller"), CASES, ids=[f"{n}-by-{c}" for n, c in CASES])
def test_every_command_of_a_manager_or_owner_is_refused_to_others(
    room: Room, refusing: Cast, command: str, caller: str
) -> None:
    club = refusing
    method, path, body, words = (MANAGERS | OWNERS)[command]
    if command == "remove_manager" and caller != "manager":  # no manager: refused as one
        words = MANAGERS["remove"][3]
    url = f"/api/clubs/{club.club}" + path.format(game=club.game, **club.ids)
    owner = int(club.ids["owner"])
    before = room.store.club_log(club.club, owner, 500)
    with room.http(club.tokens[caller]) as http:
        answer = http.request(method, url, json=body)
    refused(answer, 403, "forbidden", "only " + words.format(club=club.club))
    # nothing done (read from the room's store, not to slow the test with more requests)
    assert room.store.club_log(club.club, owner, 500) == before
    members = room.store.club_members(club.club, owner)
    assert [(m.name, m.role.value) for m in members] == [
        ("Owner", "owner"),
        ("Manager", "manager"),
        ("Member", "member"),
        ("Asked", "asked"),
    ]
    games = [str(game.id) for game in room.store.weekly_games(club.club, owner)]
    assert (room.store.club_tables(club.club, owner), games) == ([], [club.game])
    assert room.store.club(club.club, owner).name == "Friday club"


def test_each_command_done_by_its_role_is_in_the_log(room: Room) -> None:
    """The same commands, given by those who may: each one line of the log."""
    club = cast(room)
    second = room.guest("Second")
    with room.http(second) as http:
        ok(http.post(f"/api/clubs/{club.club}/join"))
    with room.http(club.tokens["owner"]) as http:
        members = ok(http.get(f"/api/clubs/{club.club}/members"))["members"]
    second_id = next(m["player"] for m in members if m["name"] == "Second")
    before = len(log_kinds(room, club.tokens["owner"], club.club))
    base = f"/api/clubs/{club.club}"
    ids = club.ids
    done = [
        ("manager", "POST", f"/members/{ids['asked']}/approve", None),
        ("manager", "POST", f"/members/{second_id}/reject", None),
        ("manager", "POST", "/invite", None),
        ("manager", "POST", "/tables", {"name": "Mine"}),
        ("manager", "POST", "/games", GAME),
        ("manager", "DELETE", f"/games/{club.game}", None),
        ("manager", "DELETE", f"/members/{ids['member']}", None),
        ("owner", "PATCH", "", {"name": "Ours"}),
        ("owner", "PUT", f"/members/{ids['asked']}/role", {"role": "manager"}),
        ("owner", "DELETE", f"/members/{ids['manager']}", None),
    ]
    for who, method, path, body in done:
        with room.http(club.tokens[who]) as http:
            answer = http.request(method, base + path, json=body)
        assert answer.status_code < 300, (path, answer.text)
    assert log_kinds(room, club.tokens["owner"], club.club)[before:] == [
        "approved",
        "rejected",
        "invite",
        "table_opened",
        "game_added",
        "game_stopped",
        "removed",
        "changed",
        "role",
        "removed",
    ]


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"weekday": 7}, "weekday must be from 0 to 6, not 7"),
        ({"time": "25:00"}, "time must be HH:MM from 00:00 to 23:59, not '25:00'"),
        ({"zone": "Mars/Base"}, "zone: unknown time zone 'Mars/Base'"),
        ({"settings": {"name": "G", "seats": 11}}, "seats must be from 2 to 10, not 11"),
        (
            {"settings": {"name": "The longest Friday nights O8"}},
            "name: a weekly game's name is at most 27 characters (its tables add the date), "
            "not 'The longest Friday nights O8'",
        ),
        ({"host": "{member}"}, "host: player {member} is not a manager of club {club}"),
    ],
)
def test_a_bad_weekly_game_is_refused_by_name(
    room: Room, refusing: Cast, change: dict[str, Any], message: str
) -> None:
    fields = {"member": refusing.ids["member"], "club": refusing.club}
    body = GAME | {k: v.format(**fields) if isinstance(v, str) else v for k, v in change.items()}
    with room.http(refusing.tokens["owner"]) as http:
        answer = http.post(f"/api/clubs/{refusing.club}/games", json=body)
    refused(answer, 400, "bad_message", message.format(**fields))
    owner = int(refusing.ids["owner"])
    assert [str(g.id) for g in room.store.weekly_games(refusing.club, owner)] == [refusing.game]


@pytest.mark.parametrize(
    ("method", "path", "body", "status", "code", "message"),
    [
        ("POST", "/members/999999/approve", None, 404, "not_found", "no player 999999"),
        ("PATCH", "", {}, 400, "bad_message", "a change needs a name or a membership"),
        ("DELETE", "/games/99999", None, 400, "bad_message", "club {club} has no game 99999"),
        ("POST", "/join", {"code": "x"}, 409, "not_now", "Owner is already in club {club}"),
        ("POST", "/leave", None, 403, "forbidden", "the owner cannot leave club {club}"),
        (
            "PUT",
            "/members/{owner}/role",
            {"role": "member"},
            400,
            "bad_message",
            "the owner of club {club} stays its owner",
        ),
        (
            "PATCH",
            "",
            {"membership": "secret"},
            400,
            "bad_message",
            "membership must be open, request or closed, not 'secret'",
        ),
    ],
)
def test_a_command_that_does_not_fit_is_refused_by_name(
    room: Room,
    refusing: Cast,
    method: str,
    path: str,
    body: dict[str, Any] | None,
    status: int,
    code: str,
    message: str,
) -> None:
    fields = {"club": refusing.club, "owner": refusing.ids["owner"]}
    owner = int(refusing.ids["owner"])
    before = room.store.club_log(refusing.club, owner, 500)
    with room.http(refusing.tokens["owner"]) as http:
        answer = http.request(
            method, f"/api/clubs/{refusing.club}" + path.format(**fields), json=body
        )
    refused(answer, status, code, message.format(**fields))
    assert room.store.club_log(refusing.club, owner, 500) == before


class Refusing:
    """A room that cannot open a table (its host is past a limit): what the schedule does
    then, without a server."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.closing = False

    async def db(self, call: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        return call(*args, **kwargs)

    async def create_table(self, *args: Any, **kwargs: Any) -> tuple[dict[str, Any], None]:
        raise ProtocolError(ErrorCode.RATE_LIMITED, "a player may make at most 20 tables")


def test_a_game_that_cannot_open_says_why_in_the_log(tmp_path: Path) -> None:
    clock = Clock()
    store = open_store(
        f"sqlite:///{tmp_path}/r.sqlite3", password_hasher=cheap_hasher(), clock=clock
    )
    try:
        ann = store.create_guest("Ann").player.id
        club, _ = store.create_club("Club", "open", ann)
        when = Weekly(4, 20 * 60, "Europe/London")
        opening = when.next_after(clock())
        game = store.add_club_game(club.id, ann, {"name": "G"}, when, ann, opening)
        clock.ahead = opening + timedelta(seconds=1) - datetime.now(UTC)
        asyncio.run(open_due(Refusing(store)))
        [failed] = store.club_log(club.id, ann, 1)
        assert (failed.kind, failed.actor_id) == ("game_failed", None)
        assert failed.fields == {
            "game": str(game.id),
            "error": "a player may make at most 20 tables",
        }
        [moved] = store.weekly_games(club.id, ann)
        assert moved.next_at == opening + timedelta(days=7)  # next week tries again
    finally:
        store.close()
