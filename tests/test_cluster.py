"""The room on several processes (issue: many server processes, many machines): real
``splitpot serve`` processes on loopback ports, one PostgreSQL database, one Redis. Any
process serves any player at any table: commands go to the table's owner and its frames
come back through Redis; a killed owner's tables move and their hands resume; a paused
owner that lost its table writes nothing; Redis restarting loses nothing but time; a
stopping process hands its tables over between hands. No chip is lost in any of it."""

from __future__ import annotations

import json
import signal
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import httpx
import pytest
import redis
from cluster_process import (
    OwnRedis,
    guest,
    lobby,
    owner,
    processes,
    redis_or_skip,
    runs,
)
from room_helpers import Client, Frame, is_event, new_table, play, play_hands, replay
from room_process import LEASE, WAIT, Serve, check_chips, check_hands_against_ledger
from store_fixtures import fresh_postgres_database

from splitpot.cli import main
from splitpot.client.remote import Connection, socket_url
from splitpot.server.placement import Node, deal, least_loaded
from splitpot.store import HandStatus, Store


@pytest.fixture
def database_url() -> Iterator[str]:
    """The processes share one database: PostgreSQL (several machines reach it); the
    store fixtures' ``store`` is opened on it too."""
    with fresh_postgres_database() as url:
        yield url


@pytest.fixture
def redis_url() -> str:
    return redis_or_skip()


@pytest.fixture(autouse=True)
def short_leases(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("SPLITPOT_LEASE_SECONDS", str(LEASE))


@dataclass
class At:
    """A process's address, as a client found it in a welcome's ``servers``."""

    url: str

    @property
    def ws_url(self) -> str:
        return socket_url(self.url)


def player(room: Serve | At, name: str) -> Client:
    _, token = guest(room, name)  # type: ignore[arg-type]
    return Client(room, token)  # type: ignore[arg-type]


def in_order(client: Client, table: str) -> None:
    """The client got the table's events in order, none missing and none twice: each
    event's ``seq`` follows the one before, or the ``table`` message it follows."""
    expected = None
    for frame in client.frames:
        if frame.get("table") != table:
            continue
        if frame["type"] == "table":
            expected = frame["seq"] + 1
        elif frame["type"] == "event":
            assert expected is None or frame["seq"] == expected, (frame, expected)
            expected = frame["seq"] + 1


def private(client: Client, table: str) -> None:
    """No hole card reached the client but its own seat's."""
    for frame in client.frames:
        if frame["type"] == "event" and frame["table"] == table:
            event = frame["event"]
            if event["kind"] == "dealt" and event["cards"] is not None:
                assert event["seat"] == client.seat, frame


def in_a_hand(client: Client, table: str) -> bool:
    """The client has seen an action of the hand in play at the table."""
    kinds = [
        f["event"]["kind"]
        for f in client.frames
        if f["type"] == "event" and f["table"] == table and f["event"]["kind"] != "to_act"
    ]
    started = max((i for i, k in enumerate(kinds) if k == "hand_started"), default=None)
    if started is None:
        return False
    return "acted" in kinds[started:] and "hand_ended" not in kinds[started:]


def table_again(client: Client, table: str) -> Frame:
    return client.wait(lambda f: f["type"] == "table" and f["table"] == table, WAIT)


def test_players_at_any_process_play_at_tables_run_by_any(
    database_url: str, redis_url: str, store: Store, tmp_path: Path
) -> None:
    """Three processes; the bots' table runs in the first, a new table goes to the
    least-loaded; players spread over the three play at both, every frame in order and
    cut for its receiver; every lobby lists both tables."""
    with processes(database_url, redis_url, tmp_path, 3) as (first, second, third):
        bots = first.bots_table()
        assert runs(first, store, bots["id"])
        _, host = guest(third, "Hal")
        other = new_table(third.url, host, name="Second", seats=4, bots=1)["table"]
        assert not runs(first, store, other["id"]), "a new table went to the busiest process"
        ann, bob, cy, dee = (
            player(room, name)
            for room, name in ((second, "Ann"), (third, "Bob"), (first, "Cy"), (second, "Dee"))
        )
        ann.sit(bots["id"], 1, bots["max_buy_in"])
        bob.sit(bots["id"], 5, bots["max_buy_in"])
        cy.sit(other["id"], 3, other["max_buy_in"])
        dee.sit(other["id"], 4, other["max_buy_in"])
        watcher = Client(third, None)  # type: ignore[arg-type]
        watcher.send({"type": "watch", "table": bots["id"]})
        table_again(watcher, bots["id"])
        play_hands([ann, bob], bots["id"], 2)
        play_hands([cy, dee], other["id"], 2)
        deadline = time.monotonic() + WAIT
        while True:  # the lobbies agree, through Redis, on what each table holds
            listed = [lobby(room) for room in (first, second, third)]
            counts = [{t: entry["players"] for t, entry in seen.items()} for seen in listed]
            if counts[0] == counts[1] == counts[2] == {bots["id"]: 5, other["id"]: 3}:
                break
            assert time.monotonic() < deadline, counts
            time.sleep(0.1)
        for client, table in ((ann, bots), (bob, bots), (cy, other), (dee, other)):
            in_order(client, table["id"])
            private(client, table["id"])
        # the watcher's frames come from the first process through Redis: the second
        # hand's end may still be on its way when the players have seen it
        deadline = time.monotonic() + WAIT
        while watcher.hands_ended(bots["id"]) < 2:
            assert time.monotonic() < deadline, watcher.frames[-3:]
            time.sleep(0.05)
        in_order(watcher, bots["id"])
        private(watcher, bots["id"])
        for client in (ann, bob, cy, dee, watcher):
            client.close()
    check_chips(store)
    assert check_hands_against_ledger(store) >= 4


@pytest.mark.parametrize("link", ["127.0.0.1:0", "off"], ids=["direct link", "Redis alone"])
def test_a_routed_players_commands_and_frames_take_the_direct_link_when_there_is_one(
    database_url: str, redis_url: str, store: Store, tmp_path: Path, link: str
) -> None:
    """A player at one process plays at a table another runs: with the direct links
    (serve's default) her commands and their frames go between the two processes without
    Redis, which hears none of them once the link is up; with ``--link off`` all of them
    go through Redis. Either way every frame comes in order and no chip is lost."""
    flags = ("--link", link)
    with processes(database_url, redis_url, tmp_path, 2, flags=flags) as (first, second):
        bots = first.bots_table()
        ann = player(second, "Ann")
        ann.sit(bots["id"], 1, bots["max_buy_in"])

        def her_actions() -> int:
            return sum(e["seat"] == ann.seat for e in ann.events("acted", bots["id"]))

        heard = redis.Redis.from_url(redis_url).pubsub()
        prefix = f"splitpot:{store.room_id()}:"
        heard.psubscribe(f"{prefix}table:*", f"{prefix}node:*")
        assert heard.get_message(timeout=WAIT)["type"] == "psubscribe"
        assert heard.get_message(timeout=WAIT)["type"] == "psubscribe"

        def through_redis() -> list[str]:
            """The commands and batches Redis carried since the last look."""
            kinds = []
            while (message := heard.get_message(timeout=0.5)) is not None:
                kinds.append(json.loads(message["data"])["t"])
            return [kind for kind in kinds if kind in ("command", "items")]  # not questions

        def acts(count: int) -> list[str]:
            """Play until Ann has acted ``count`` times more: what Redis carried meanwhile."""
            through_redis()
            enough = her_actions() + count
            play([ann], bots["id"], lambda: her_actions() >= enough)
            return through_redis()

        acts(2)  # the links open on the first messages each way
        deadline = time.monotonic() + WAIT
        while link != "off" and acts(1):  # a link slow to open on a busy machine
            assert time.monotonic() < deadline, "no link came up: Redis carried everything"
        kinds = acts(3)
        heard.close()
        in_order(ann, bots["id"])
        ann.close()
    if link == "off":
        assert kinds.count("command") >= 3 and kinds.count("items") >= 3, kinds
    else:
        assert kinds == [], "through Redis, with a link up"
    check_chips(store)


def test_killing_a_busy_tables_owner_moves_the_table_and_its_hand_resumes(
    database_url: str, redis_url: str, store: Store, tmp_path: Path
) -> None:
    """kill -9 of the process that runs a table in a hand: another takes it within a few
    seconds and resumes the hand from its log; players at the other processes get the
    whole table again and play on; the one at the dead process reconnects to the next
    address it was given. No chip is lost and no action is applied twice."""
    with processes(database_url, redis_url, tmp_path, 3) as (first, second, third):
        bots = first.bots_table()
        table = bots["id"]
        ann, bob, cy = player(second, "Ann"), player(third, "Bob"), player(first, "Cy")
        for client, seat in ((ann, 1), (bob, 5), (cy, 6)):
            client.sit(table, seat, bots["max_buy_in"])
        play([ann, bob, cy], table, lambda: in_a_hand(ann, table), timeout=WAIT)
        for client in (ann, bob):
            client.skip()
        first.kill()
        killed = time.monotonic()
        in_play = {hand.id: hand.actions for hand in store.unfinished_hands()}
        assert in_play, "the kill came between hands"
        servers = cy.welcome["servers"]
        assert servers[0] == first.url and len(servers) == 3
        cy.close()
        cy = Client(At(servers[1]), cy.token)  # type: ignore[arg-type]
        cy.seat = 6
        for client in (ann, bob, cy):
            table_again(client, table)
        took = time.monotonic() - killed
        assert not runs(first, store, table)
        ended = ann.hands_ended(table)

        def resumed_and_one_more() -> bool:
            finished = all(store.hand(h).status is HandStatus.FINISHED for h in in_play)
            return finished and ann.hands_ended(table) >= ended + 2

        play([ann, bob, cy], table, resumed_and_one_more, timeout=2 * WAIT)
        for client in (ann, bob, cy):
            in_order(client, table)
            private(client, table)
            client.close()
    print(f"the table moved {took:.1f} s after the kill (leases of {LEASE} s)")
    assert took < 3 * LEASE + 3
    for hand_id, logged in in_play.items():  # resumed where its log stopped
        assert store.hand_log(hand_id).actions[: len(logged)] == logged
    for hand in store.table_hands(table, 1000):
        replay(store.hand_log(hand.id))  # each action once, in the order the engine took
    check_chips(store)
    check_hands_against_ledger(store)


def test_a_paused_owner_that_lost_its_table_never_writes_for_it_again(
    database_url: str, redis_url: str, store: Store, tmp_path: Path
) -> None:
    """The table's owner is paused (SIGSTOP) past its lease: the other process takes the
    table and plays on. Woken, the first still thinks it runs the table, but the fencing
    number refuses its writes and it lets the table go: every hand's log replays, once."""
    with processes(database_url, redis_url, tmp_path, 2) as (first, second):
        bots = first.bots_table()
        table = bots["id"]
        ann = player(second, "Ann")
        ann.sit(table, 1, bots["max_buy_in"])
        play_hands([ann], table, 1)
        assert first.process is not None
        # the table's answer to a watch comes after its answers to every command sent
        # before it: nothing ann sent is left unanswered when the first process pauses
        # (an act it applied but had not answered would come back as try_again). The
        # watch's own answer may still be on its way, a batch behind the table it sent:
        # cut off by the pause, it comes back as try_again five seconds later, as the
        # protocol says of a table that does not answer (seen 1 run in 4 beside a busy loop)
        ann.refused.add("watch-before-pause")
        ann.send({"type": "watch", "table": table, "ref": "watch-before-pause"})
        table_again(ann, table)
        ann.skip()
        first.process.send_signal(signal.SIGSTOP)
        try:
            table_again(ann, table)  # from the second, which runs the table now
            assert runs(second, store, table)
            play_hands([ann], table, 1)
        finally:
            first.process.send_signal(signal.SIGCONT)
        play_hands([ann], table, 2)
        assert runs(second, store, table)
        in_order(ann, table)
        ann.close()
        log = first.log().read_text()
        assert f"table {table}: another process runs it now" in log, log
    for hand in store.table_hands(table, 1000):
        replay(store.hand_log(hand.id))  # each action once, in the order the engine took
    check_chips(store)
    check_hands_against_ledger(store)


def test_redis_restarting_loses_nothing_and_the_room_goes_on(
    database_url: str, store: Store, tmp_path: Path
) -> None:
    """The first process starts with no Redis to be found: it runs its tables alone, and
    joins when Redis comes. Then Redis is killed and started again under the two: routed
    play pauses, then the player at the other process gets the table whole again and
    plays on; the lobby lists it again and new tables are placed again."""
    own = OwnRedis(tmp_path)

    def redis_comes(first: Serve) -> None:
        assert first.bots_table()["players"] == 3  # its own table, dealt without Redis
        own.start()

    try:
        with processes(database_url, own.url, tmp_path, 2, redis_comes) as (first, second):
            bots = first.bots_table()
            table = bots["id"]
            ann = player(second, "Ann")
            ann.sit(table, 1, bots["max_buy_in"])
            play_hands([ann], table, 1)
            own.kill()
            time.sleep(1.0)
            ann.skip()
            own.start()
            table_again(ann, table)
            play_hands([ann], table, 2)
            deadline = time.monotonic() + WAIT
            while table not in lobby(second):
                assert time.monotonic() < deadline, "the lobby never listed the table again"
                time.sleep(0.1)
            _, host = guest(first, "Hal")
            made = []
            for name in ("One", "Two"):
                made.append(new_table(first.url, host, name=name, seats=2)["table"]["id"])
            assert any(runs(second, store, made_here) for made_here in made), [
                owner(store, t) for t in made
            ]
            in_order(ann, table)
            ann.close()
    finally:
        own.kill()
    check_chips(store)
    check_hands_against_ledger(store)


def test_a_stopping_process_hands_its_table_over_and_players_elsewhere_play_on(
    database_url: str, redis_url: str, store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """SIGTERM to a table's owner: it finishes the hand in play (its player at the other
    process acts through Redis meanwhile), hands the table over at once and exits 0; the
    player never reconnects and plays on at the table's new owner."""
    monkeypatch.setenv("SPLITPOT_LEASE_SECONDS", "5")  # a handover that waited would show
    with processes(database_url, redis_url, tmp_path, 2) as (first, second):
        bots = first.bots_table()
        table = bots["id"]
        ann = player(second, "Ann")
        ann.sit(table, 1, bots["max_buy_in"])
        play([ann], table, lambda: in_a_hand(ann, table), timeout=WAIT)
        in_play = [hand.id for hand in store.unfinished_hands()]
        assert first.process is not None
        stopping = time.monotonic()
        first.process.send_signal(signal.SIGTERM)
        ann.skip()

        def moved() -> bool:
            return any(f["type"] == "table" for f in ann.frames[ann.cursor :])

        play([ann], table, moved, timeout=WAIT)
        took = time.monotonic() - stopping
        assert first.process.wait(WAIT) == 0
        assert runs(second, store, table)
        play_hands([ann], table, 1)
        in_order(ann, table)
        assert not ann.closed.is_set()
        ann.close()
    print(f"handed over {took:.1f} s after SIGTERM (leases of 5 s)")
    assert took < 5
    for hand_id in in_play:
        assert store.hand(hand_id).status is HandStatus.FINISHED
    assert not any(h.status is HandStatus.CANCELLED for h in store.table_hands(table, 1000))
    check_chips(store)
    check_hands_against_ledger(store)


@pytest.mark.parametrize(
    ("flags", "words"),
    [
        (["--redis", "127.0.0.1:6379"], "a Redis URL is redis://host[:port][/db]"),
        (["--redis", "http://127.0.0.1:6379"], "a Redis URL is redis://host[:port][/db]"),
        (["--redis", "redis://127.0.0.1:port"], "has a port that is not a number"),
        (["--url", "cards.example:8000"], "an origin is http(s)://host[:port]"),
        (["--link", "7300"], "a link address is HOST:PORT (or off), not '7300'"),
        (["--link", ":7300"], "a link address is HOST:PORT (or off), not ':7300'"),
        (["--link", "10.0.0.5:port"], "the port in '10.0.0.5:port' is not a number from 0"),
        (["--link", "10.0.0.5:65536"], "the port in '10.0.0.5:65536' is not a number from 0"),
        (["--link", "0.0.0.0:7300"], "the other processes reach this one at, not 0.0.0.0"),
    ],
)
def test_serve_refuses_a_bad_redis_or_address_by_name(
    flags: list[str], words: str, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main(["serve", *flags])
    assert stopped.value.code == 2
    assert words in capsys.readouterr().err


def test_a_terminal_client_goes_on_at_the_next_process_when_its_own_dies(
    database_url: str, redis_url: str, store: Store, tmp_path: Path
) -> None:
    """The terminal client's connection learns the room's processes from its welcome;
    when its own is killed it reconnects to the next and watches its table again, which
    comes whole from the table's new owner."""
    with processes(database_url, redis_url, tmp_path, 2) as (first, second):
        table = first.bots_table()["id"]
        _, token = guest(first, "Ann")
        connection = Connection(socket_url(first.url), token, patience=WAIT)
        seen: list[Frame] = []
        try:
            assert connection.open()["servers"] == [first.url, second.url]
            connection.send({"type": "watch", "table": table})
            seen += receive(connection, lambda f: f["type"] == "table")
            first.kill()
            seen += receive(connection, lambda f: f["type"] == "reconnected")
            assert connection.url == socket_url(second.url)
            seen += receive(connection, lambda f: f["type"] == "table" and f["table"] == table)
            seen += receive(connection, is_event("hand_ended"))
        finally:
            connection.close()
        assert all(f["type"] != "error" or f["code"] == "try_again" for f in seen), seen


def test_a_logout_at_one_process_ends_that_sessions_sockets_at_every_process(
    database_url: str, redis_url: str, tmp_path: Path
) -> None:
    """A token logged out at one process: its WebSocket at another is closed at once
    (through Redis), and no process lets it say hello again; the same player's other
    session plays on."""
    with processes(database_url, redis_url, tmp_path, 2) as (first, second):
        table = first.bots_table()
        with httpx.Client(base_url=first.url, timeout=5) as http:
            made = http.post("/api/accounts", json={"name": "Lou", "password": "l0u-s3cret-pw"})
            assert made.status_code == 201, made.text
            other = http.post("/api/sessions", json={"name": "Lou", "password": "l0u-s3cret-pw"})
            assert other.status_code == 200, other.text
        token, kept_token = made.json()["token"], other.json()["token"]
        stolen = Client(second, token)  # type: ignore[arg-type]
        stolen.sit(table["id"], 1, table["max_buy_in"])
        kept = Client(second, kept_token)  # type: ignore[arg-type]
        with httpx.Client(base_url=first.url, timeout=5) as http:
            ended = http.delete("/api/sessions", headers={"Authorization": f"Bearer {token}"})
            assert ended.status_code == 204, ended.text
        assert stolen.closed.wait(WAIT), "the logged-out token's socket elsewhere is still open"
        assert stolen.socket.close_code == 1008
        assert not kept.closed.is_set(), "the player's other session was closed too"
        for room in (first, second):
            refused = Client(room, token)  # type: ignore[arg-type]
            assert refused.welcome["code"] == "unauthorized", refused.welcome
            assert refused.welcome["message"] == "the token is unknown or logged out"
            refused.close()
        kept.send({"type": "watch", "table": table["id"]})
        assert table_again(kept, table["id"])["table"] == table["id"]
        kept.close()


def receive(connection: Connection, matches: Callable[[Frame], bool]) -> list[Frame]:
    """The frames up to the first that matches (within WAIT seconds)."""
    frames: list[Frame] = []
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        frame = connection.receive(timeout=1)
        if frame is not None:
            frames.append(frame)
            if matches(frame):
                return frames
    raise AssertionError(f"no such frame within {WAIT} s; last: {frames[-3:]}")


def test_free_tables_are_dealt_to_the_least_loaded_processes() -> None:
    """A dead process's tables spread over the living, the least loaded first, and every
    process deals them alike (the same loads give the same deal)."""
    loads = {"b/1": 3, "c/1": 2}
    assert deal(["t4", "t2", "t3"], loads) == {"t2": "c/1", "t3": "b/1", "t4": "c/1"}
    assert loads == {"b/1": 3, "c/1": 2}  # the beats' loads are left as they were
    assert deal([], loads) == {}
    assert least_loaded([]) is None
    nodes = [Node("a/1", "http://a", 4, 10, 0.1), Node("b/1", "http://b", 4, 3, 0.1)]
    assert least_loaded(nodes) == nodes[1]  # as many tables: the fewer connections
