"""A real room for tests: uvicorn on a free loopback port in a thread, and clients that
talk to it over real sockets (HTTP with httpx, the WebSocket with websockets)."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import os
import random
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from contextlib import ExitStack, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import httpx
import uvicorn
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from splitpot.room.recovery import replay_hand
from splitpot.server.app import create_app
from splitpot.server.main import listening_socket
from splitpot.server.options import RoomOptions
from splitpot.server.ws import BURST, RATE
from splitpot.store import HandLog, Store
from splitpot.table import Table, TableEvent

FAST = RoomOptions(
    hand_pause=0.05,
    street_pause=0.0,
    show_pause=0.0,
    bot_delay=0.0,
    db_retry=0.1,
    closing_wait=0.0,
    seed=7,
)
Frame = dict[str, Any]
Choose = Callable[["Client", Frame], Frame]  # a turn -> the act's fields (action, amount)
Found = TypeVar("Found")
_refs = itertools.count(1)


def eventually(check: Callable[[], Found], what: str, timeout: float = 60) -> Found:
    """Poll ``check`` until it gives something true, and give that back; fail naming
    ``what`` once ``timeout`` passes (generous: a test waits on what it needs, on a busy
    machine too)."""
    deadline = time.monotonic() + timeout
    while not (found := check()):
        assert time.monotonic() < deadline, f"{what}: not within {timeout:g} s"
        time.sleep(0.05)
    return found


def _ephemeral_floor() -> int:
    """The lowest port the kernel hands to an outgoing connection (Linux's default 32768)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


_WORKER = int(os.environ.get("PYTEST_XDIST_WORKER", "gw0").removeprefix("gw") or 0)
_SLICE = 1000  # ports each pytest-xdist worker picks among
_SLICE_FLOOR = _ephemeral_floor() - (_WORKER + 1) * _SLICE
_picks = itertools.count(random.randrange(_SLICE))


def free_port() -> int:
    """A free loopback port for a room in a child process, which binds it later (and again
    after a restart). Taken below the kernel's ephemeral range, so no test's outgoing
    connection can take it as its own end meanwhile (CI once lost a room's start to that),
    from this worker's slice so no other worker picks it, and in turn so no earlier room of
    this worker, stopped for a restart, is handed it again."""
    if _SLICE_FLOOR < 1024:  # a machine whose ephemeral range starts low: the kernel's pick
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            return int(probe.getsockname()[1])
    for _ in range(_SLICE):
        port = _SLICE_FLOOR + next(_picks) % _SLICE
        with socket.socket() as probe:
            try:
                probe.bind(("127.0.0.1", port))
            except OSError:
                continue  # another program's (a database's, a room still serving)
            return port
    raise RuntimeError(f"no free port in {_SLICE_FLOOR}..{_SLICE_FLOOR + _SLICE - 1}")


class _Uvicorn(uvicorn.Server):
    """uvicorn's server, whose ``stop`` ends its main loop at once: uvicorn itself looks
    at ``should_exit`` only every 0.1 s, a wait at the end of every room test."""

    stopping: asyncio.Event | None = None
    loop: asyncio.AbstractEventLoop | None = None

    async def main_loop(self) -> None:
        self.stopping, self.loop = asyncio.Event(), asyncio.get_running_loop()
        counter = 0
        should_exit = await self.on_tick(counter)
        while not should_exit:
            counter = (counter + 1) % 864000
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.stopping.wait(), 0.1)
            should_exit = await self.on_tick(counter)

    def stop(self) -> None:
        self.should_exit = True
        if self.loop is not None and self.stopping is not None:
            with contextlib.suppress(RuntimeError):  # the loop has ended already
                self.loop.call_soon_threadsafe(self.stopping.set)


class RoomServer:
    """A running room: ``url`` for HTTP, ``ws_url`` for the WebSocket."""

    def __init__(self, store: Store, options: RoomOptions = FAST, bots: int = 0) -> None:
        self.store = store
        self.socket = listening_socket("127.0.0.1", 0)
        self.port = int(self.socket.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        config = uvicorn.Config(
            create_app(store, options, bots=bots),
            log_level="warning",
            ws_max_size=64 * 1024,
        )
        self.server = _Uvicorn(config)
        self.thread = threading.Thread(
            target=self.server.run, kwargs={"sockets": [self.socket]}, daemon=True
        )

    def start(self) -> RoomServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the room did not start")
            time.sleep(0.02)
        return self

    def stop(self) -> None:
        self.server.stop()
        self.thread.join(timeout=40)

    def http(self, token: str | None = None) -> httpx.Client:
        headers = {} if token is None else {"Authorization": f"Bearer {token}"}
        return httpx.Client(base_url=self.url, timeout=10, headers=headers)

    def guest(self, name: str) -> tuple[str, str]:
        """A new guest: (player id, token)."""
        return new_guest(self.url, name)

    def create_table(self, token: str, **settings: Any) -> dict[str, Any]:
        return new_table(self.url, token, **settings)


def new_guest(url: str, name: str) -> tuple[str, str]:
    """A new guest made at the room (or the room's process) at ``url``: (player id, token)."""
    with httpx.Client(base_url=url, timeout=10) as http:
        answer = http.post("/api/guests", json={"name": name})
    answer.raise_for_status()
    body = answer.json()
    return str(body["player"]["id"]), str(body["token"])


def new_table(url: str, token: str, **settings: Any) -> dict[str, Any]:
    """A table opened by ``token``'s player at ``url``: the room's answer (table, invite)."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=url, timeout=10, headers=headers) as http:
        answer = http.post("/api/tables", json=settings)
    assert answer.status_code == 201, answer.text
    body: dict[str, Any] = answer.json()
    return body


@contextmanager
def running_room(store: Store, options: RoomOptions = FAST, bots: int = 0) -> Iterator[RoomServer]:
    room = RoomServer(store, options, bots).start()
    try:
        yield room
    finally:
        room.stop()


class Client:
    """One WebSocket client. A reader thread keeps every frame received, in order, in
    ``frames`` (and the raw text in ``raw``); ``wait`` reads them from a cursor that each
    match moves on, so no frame is missed between a command and its wait."""

    def __init__(
        self,
        room: RoomServer,
        token: str | None,
        *,
        hello: bool = True,
        lang: str | None = None,
        headers: dict[str, str] | None = None,
    ) -> None:
        """Connect; say ``hello`` (with ``lang`` if given) unless ``hello`` is False;
        ``headers``: extra headers of the WebSocket's upgrade (Accept-Language)."""
        self.token = token
        self._exit = ExitStack()
        self.socket: ClientConnection = self._exit.enter_context(
            connect(room.ws_url, max_size=2**22, open_timeout=10, additional_headers=headers)
        )
        self.frames: list[Frame] = []
        self.raw: list[str] = []
        self.cursor = 0  # where the next wait starts
        self.handled = 0  # frames the play loop has looked at
        self.answered: set[tuple[str, int]] = set()  # the turns it answered: (table, seq)
        self.refused: set[str] = set()  # refs of commands sent to be refused (``error``)
        self.seat: int | None = None  # the wire seat, once seated by ``sit``
        self._allowance, self._checked = BURST / 2, time.monotonic()  # see ``_paced``
        self.closed = threading.Event()
        self._arrived = threading.Condition()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if hello:
            greeting: Frame = {"type": "hello", "token": token} if token else {"type": "hello"}
            self.send(greeting | ({"lang": lang} if lang else {}))
            self.welcome = self.wait(lambda f: f["type"] in ("welcome", "error"))

    def _read(self) -> None:
        try:
            for text in self.socket:
                assert isinstance(text, str), "the room sends text frames"
                with self._arrived:
                    self.raw.append(text)
                    self.frames.append(json.loads(text))
                    self._arrived.notify_all()
        except ConnectionClosed:
            pass
        finally:
            with self._arrived:
                self.closed.set()
                self._arrived.notify_all()

    def send(self, message: Frame, *, paced: bool = True) -> None:
        """Send a command, within the room's limiter as a well-behaved client keeps
        (``paced``; a test of the limiter floods it)."""
        if paced:
            self._paced()
        self.send_text(json.dumps(message))

    def _paced(self) -> None:
        """Wait, if need be, so the commands stay within the room's limiter (RATE a
        second, BURST at once), with a margin: a test that plays many quick hands sends
        faster than that, and the frames may reach the room closer together than sent."""
        now = time.monotonic()
        rate = RATE * 0.8
        self._allowance = min(BURST / 2, self._allowance + (now - self._checked) * rate)
        self._checked = now
        if self._allowance < 1:
            time.sleep((1 - self._allowance) / rate)
            self._allowance, self._checked = 1.0, time.monotonic()
        self._allowance -= 1

    def send_text(self, text: str) -> None:
        self.socket.send(text)

    def skip(self) -> None:
        """Wait only for frames that arrive from now on."""
        with self._arrived:
            self.cursor = len(self.frames)

    def wait(self, matches: Callable[[Frame], bool], timeout: float = 10) -> Frame:
        """The first frame from the cursor on that matches; the cursor moves past it."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for index in range(self.cursor, len(self.frames)):
                    if matches(self.frames[index]):
                        self.cursor = index + 1
                        return self.frames[index]
                self.cursor = len(self.frames)
                left = deadline - time.monotonic()
                if left <= 0 or self.closed.is_set():
                    break
                self._arrived.wait(left)
        raise AssertionError(f"no such frame within {timeout} s; last: {self.frames[-3:]}")

    def error(self, message: Frame, timeout: float = 10) -> Frame:
        """Send a command that the room must refuse; its ``error`` (matched by ref)."""
        ref = f"r{next(_refs)}"
        self.refused.add(ref)
        self.send(message | {"ref": ref})
        return self.wait(lambda f: f["type"] == "error" and f.get("ref") == ref, timeout)

    def state(self, table: str) -> Frame:
        """The table as this client sees it now (``watch`` answers with a snapshot)."""
        self.skip()
        self.send({"type": "watch", "table": table})
        return dict(self.wait(lambda f: f["type"] == "table" and f["table"] == table)["state"])

    def sit(self, table: str, seat: int, buy_in: int, **fields: Any) -> Frame:
        """Take a seat; the snapshot the room answers with."""
        self.skip()
        self.send({"type": "sit", "table": table, "seat": seat, "buy_in": buy_in, **fields})
        answer = self.wait(lambda f: f["type"] in ("table", "error"))
        assert answer["type"] == "table", answer
        self.seat = seat
        return answer

    def events(self, kind: str, table: str | None = None) -> list[Frame]:
        """Every event of this kind received so far (the ``event`` objects)."""
        with self._arrived:
            return [
                f["event"]
                for f in self.frames
                if f["type"] == "event"
                and f["event"]["kind"] == kind
                and table in (None, f["table"])
            ]

    def hands_ended(self, table: str | None = None) -> int:
        return len(self.events("hand_ended", table))

    def close(self) -> None:
        self._exit.close()
        self._reader.join(timeout=5)


def is_event(kind: str) -> Callable[[Frame], bool]:
    return lambda f: f["type"] == "event" and f["event"]["kind"] == kind


def passive(client: Client, turn: Frame) -> Frame:
    """Check when free, else call, and show at the showdown: every hand goes to the
    showdown."""
    names = [entry["action"] for entry in turn["legal"]]
    for name in ("check", "call", "show", "allin"):
        if name in names:
            return {"action": name}
    raise AssertionError(f"no passive action in {turn['legal']}")


def bet_at_random(rng: random.Random, legal: dict[str, Frame], fold: float) -> Frame:
    """A seeded betting decision: fold (``fold`` of the time, when not free), raise the
    minimum now and then, else check or call."""
    roll = rng.random()
    if roll < fold and "check" not in legal:
        return {"action": "fold"}
    for name in ("raise", "bet"):
        if roll > 0.85 and name in legal:
            return {"action": name, "amount": legal[name]["min"]}
    return {"action": "check" if "check" in legal else "call"}


def play(
    clients: Sequence[Client],
    table: str,
    until: Callable[[], bool],
    choose: Choose = passive,
    timeout: float = 30,
) -> None:
    """Answer every turn these clients get at ``table`` with ``choose`` until ``until()``;
    no client may get an error but those the test has waited for. A turn that comes once
    ``until()`` holds is left unread, for the next call (``until`` may hold before the
    frames that made it so are read: a turn of the next hand behind them is not lost)."""
    deadline = time.monotonic() + timeout
    while not until():
        assert time.monotonic() < deadline, (
            f"play did not finish in {timeout} s; last frames: {[c.frames[-3:] for c in clients]}"
        )
        idle = True
        for client in clients:
            while client.handled < len(client.frames):
                frame = client.frames[client.handled]
                client.handled += 1
                idle = False
                read = client.handled <= client.cursor  # a frame the test has waited past
                assert frame["type"] != "error" or read or frame.get("ref") in client.refused, frame
                if frame["type"] != "turn" or frame["table"] != table:
                    continue
                if until():  # done: this turn is left for the next play to answer
                    client.handled -= 1
                    break
                if (table, frame["seq"]) in client.answered:
                    continue  # the same turn again, after a watch
                client.answered.add((table, frame["seq"]))
                act = {"type": "act", "table": table, "hand": frame["hand"]}
                client.send(act | choose(client, frame))
        if idle:
            time.sleep(0.002)


def play_hands(clients: Sequence[Client], table: str, hands: int, choose: Choose = passive) -> None:
    """Play until every client has seen ``hands`` more hands end at ``table``."""
    targets = [client.hands_ended(table) + hands for client in clients]

    def done() -> bool:
        return all(c.hands_ended(table) >= t for c, t in zip(clients, targets, strict=True))

    play(clients, table, done, choose)


def one_hand(
    host: Client, clients: Sequence[Client], table: str, choose: Choose = passive
) -> Frame:
    """Let exactly one hand be played at a paused table (``host`` is its host): resume,
    pause again once the hand is dealt, play it out. Its ``hand_started`` event."""
    host.skip()
    host.send({"type": "host", "table": table, "action": "resume"})
    started = host.wait(lambda f: is_event("hand_started")(f) and f["table"] == table)
    host.send({"type": "host", "table": table, "action": "pause"})
    host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    hand = started["event"]["hand"]
    play(clients, table, lambda: any(e["hand"] == hand for e in host.events("hand_ended")), choose)
    return dict(started["event"])


def posts(client: Client, hand: str) -> dict[int, dict[str, int]]:
    """What each seat posted in ``hand``: seat -> {post kind: amount}."""
    posted: dict[int, dict[str, int]] = {}
    for event in client.events("posted"):
        if event["hand"] == hand:
            posted.setdefault(event["seat"], {})[event["post"]] = event["amount"]
    return posted


def seated(state: Frame, seat: int) -> Frame:
    """One seat of a table's state (wire seat numbers)."""
    found: Frame = state["seats"][seat - 1]
    assert found["seat"] == seat
    return found


def paused_table(room: RoomServer, token: str, **settings: Any) -> tuple[str, Client]:
    """A new table whose host (``token``) watches it and has paused it: hands are then
    dealt one at a time by ``one_hand``. The table's id and the host's client."""
    table: str = room.create_table(token, **settings)["table"]["id"]
    host = Client(room, token)
    host.state(table)
    host.send({"type": "host", "table": table, "action": "pause"})
    host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    return table, host


def seated_game(
    room: RoomServer, names: Sequence[str], buy_in: int, **settings: Any
) -> tuple[str, list[Client]]:
    """Guests of these names at a new paused table whose host is the first, sitting in
    seats 1, 2, ... with ``buy_in`` each: the table's id and their clients, in order."""
    tokens = [room.guest(name)[1] for name in names]
    table, host = paused_table(room, tokens[0], **settings)
    clients = [host, *(Client(room, token) for token in tokens[1:])]
    for seat, client in enumerate(clients, start=1):
        client.sit(table, seat, buy_in)
    return table, clients


def big_blind(client: Client, hand: str) -> int:
    """The seat that posted the big blind in ``hand``."""
    return next(seat for seat, posted in posts(client, hand).items() if "big_blind" in posted)


def ledger(room: RoomServer, token: str) -> dict[str, Any]:
    """``GET /api/me/ledger`` for the player of ``token``."""
    with room.http(token) as http:
        answer = http.get("/api/me/ledger")
    assert answer.status_code == 200, answer.text
    body: dict[str, Any] = answer.json()
    return body


def chips_kept(store: Store) -> None:
    """The ledger's invariant: every chip is in a balance, on a table or with the house,
    and the three sum to zero (check_invariant raises if a transfer does not balance)."""
    totals = store.check_invariant()
    assert totals.balances + totals.on_tables + totals.house == 0, totals


def replay(hand: HandLog) -> tuple[Table, list[TableEvent]]:
    """The table after a stored hand's deal and logged actions (``room/recovery.py``)."""
    actions = [(action.seat, action.kind, action.amount) for action in hand.actions]
    return replay_hand(hand.setup, actions)
