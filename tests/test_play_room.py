"""``splitpot play --server URL``, as a player at a real room meets it: the line game in a
child process prints the table's events while it waits for a line, prompts "Your move" on
the player's turn, keeps its connection through waits longer than the room's ping, and
ends on one line when the room goes; a player who goes broke tops up; and the client keeps
its guest from one run to the next (``--new`` for a new one)."""

from __future__ import annotations

import asyncio
import io
import itertools
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from room_helpers import FAST, Client, RoomServer, ledger, play

from splitpot.cli import main, play_lines
from splitpot.client.identity import FOLDER_VARIABLE, Identities
from splitpot.client.remote import RemoteGame
from splitpot.client.state import TableClient
from splitpot.store import Store

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

PING = 0.5  # seconds: the room's WebSocket ping here
PONG = 2.0  # seconds a client has to answer one (a loaded machine may delay its answer)
SILENT = PING + PONG + PING  # a wait past which a client that never answered is closed
WAIT = 30.0  # seconds any one line may take to come


@pytest.fixture
def bots_room(store: Store) -> Iterator[RoomServer]:
    """A room whose house table has three bots, pinging each WebSocket every half second
    (serve's --ws-ping; 20 s by default) and closing one that does not answer in PONG."""
    room = RoomServer(store, FAST, bots=3)
    room.server.config.ws_ping_interval = PING
    room.server.config.ws_ping_timeout = PONG
    room.start()
    yield room
    room.stop()


@pytest.fixture(autouse=True)
def client_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data folder (its guests, the announced hands) in the test's folder."""
    folder = tmp_path / "client"
    monkeypatch.setenv(FOLDER_VARIABLE, str(folder))
    return folder


class Child:
    """``splitpot play`` in a child process: its stdout read line by line on a thread,
    and waited for with a deadline."""

    def __init__(self, *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-m", "splitpot.cli", "play", *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            bufsize=1,
        )
        self.lines: list[str] = []
        self.cursor = 0  # where the next wait starts
        self._arrived = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            with self._arrived:
                self.lines.append(line.rstrip("\n"))
                self._arrived.notify_all()

    def expect(self, matches: Callable[[str], bool], what: str, timeout: float = WAIT) -> str:
        """The first line from the cursor on that matches; the cursor moves past it."""
        deadline = time.monotonic() + timeout
        with self._arrived:
            while True:
                for index in range(self.cursor, len(self.lines)):
                    if matches(self.lines[index]):
                        self.cursor = index + 1
                        return self.lines[index]
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"no {what} in {timeout} s; last: {self.lines[-8:]}")
                self._arrived.wait(left)

    def say(self, line: str) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(line + "\n")
        self.process.stdin.flush()

    def end(self) -> tuple[int, str]:
        """The exit status and stderr, once the process has ended."""
        code = self.process.wait(WAIT)
        assert self.process.stderr is not None
        return code, self.process.stderr.read()


def passive_move(prompt: str) -> str:
    """Check when free, else call; show at the showdown: from the words of the prompt."""
    offered = [word.split()[0] for word in prompt.removeprefix("Your move: ").split(", ")]
    return next(word for word in ("check", "call", "show", "allin") if word in offered)


def test_the_line_game_prints_events_while_it_waits_and_prompts_your_move(
    bots_room: RoomServer,
) -> None:
    child = Child("--server", bots_room.url, "--lines", "--name", "Lin", "--hands", "2")
    try:
        child.expect(lambda line: line.startswith("Pick a table"), "lobby")
        child.say("1")
        child.expect(lambda line: line.startswith("You watch Bots' table"), "table")
        # Watching, the game waits for a line ("sit"): the bots' hands go on meanwhile,
        # printed as they come, over many of the room's pings.
        child.expect(lambda line: line.startswith("*** Hand "), "hand while waiting")
        time.sleep(SILENT)
        child.expect(lambda line: line.startswith("*** Hand "), "later hand while waiting")
        child.say("sit")
        child.expect(lambda line: line.startswith("Lin sits down in seat "), "seat")
        for turn in itertools.count():
            line = child.expect(
                lambda text: text.startswith(("Your move: ", "Session over: ")), "turn"
            )
            if line.startswith("Session over: "):
                break
            if turn == 0:
                time.sleep(SILENT)  # a person thinks longer than a ping and its answer
            child.say(passive_move(line))
        code, err = child.end()
    finally:
        child.process.kill()
    assert (code, err) == (0, "")
    assert "The connection dropped; it is open again." not in child.lines
    assert "That was the last of your 2 hands." in child.lines


def test_a_room_gone_for_good_ends_the_line_game_on_one_line(
    bots_room: RoomServer, capsys: pytest.CaptureFixture[str]
) -> None:
    """The room stops while the game waits for a line: the connection comes back no
    more, and the game ends on one line (no thread's traceback)."""
    game = RemoteGame(bots_room.url, "Sol", table=house_table(bots_room), patience=1)
    seated = threading.Event()
    failures: list[threading.ExceptHookArgs] = []

    def lines() -> Iterator[str]:
        yield "sit"
        seated.wait(WAIT)  # the person thinks until the room is gone
        yield from itertools.repeat("check")

    def stop_when_seated() -> None:
        deadline = time.monotonic() + WAIT
        while game.client.me() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        bots_room.stop()

    stopper = threading.Thread(target=stop_when_seated)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(threading, "excepthook", failures.append)
        stopper.start()
        with pytest.raises(ConnectionError) as lost:
            play_lines(game, lines())
        seated.set()
        stopper.join()
        game.close()
    assert str(lost.value).startswith(
        "the connection to the room dropped and did not come back in 1 s: cannot reach the room"
    )
    assert "\n" not in str(lost.value) and failures == []
    assert "Sol sits down in seat " in capsys.readouterr().out


def house_table(room: RoomServer) -> str:
    """The id of the room's table of bots."""
    with room.http() as http:
        return str(http.get("/api/tables").json()["tables"][0]["id"])


# ------------------------------------------------------------------ top up and rebuy


def all_in(game: RemoteGame) -> str:
    """All in whenever the game offers it; show at the showdown; else call or check."""
    legal = game.legal()
    if legal is None or not (legal.all_in or legal.show or legal.call is not None):
        return "check"
    return "allin" if legal.all_in else "show" if legal.show else "call"


def test_a_player_who_goes_broke_tops_up_in_the_terminal_client(room: RoomServer) -> None:
    """Carol goes all in until she has no chips: the client says how to play on and
    waits for her line; ``top up`` (by default the most a buy-in takes) brings her back,
    as the page's Top up does, and the ledger has it."""
    _, token = room.guest("Holly")
    settings = {"name": "Deep", "seats": 2, "structure": "no-limit"}
    settings |= {"min_buy_in": 20, "max_buy_in": 10000}
    table = str(room.create_table(token, **settings)["table"]["id"])
    holly = Client(room, token)
    holly.sit(table, 2, 10000)
    game = RemoteGame(room.url, "Carol", table=table, patience=10)

    def lines() -> Iterator[str]:
        yield "sit 1 20"
        while not game.client.broke():
            yield all_in(game)
        yield "top up"
        yield from itertools.repeat("quit")

    printed = io.StringIO()
    done = threading.Event()

    def carol() -> None:
        try:
            play_lines(game, lines())
        finally:
            done.set()

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", printed)
        player = threading.Thread(target=carol)
        player.start()
        play([holly], table, done.is_set, timeout=60)
        player.join(WAIT)
    entries = ledger(room, str(game.rooms.token))["entries"]
    game.close()
    holly.close()
    said = printed.getvalue().splitlines()
    broke = said.index("You have no chips left: 'top up' (20 to 10000) to play on, or quit.")
    assert any(line.startswith("Carol adds 10") for line in said[broke:]), said[broke:]
    assert "It is not your turn." not in said
    assert said[-2].startswith("Session over: ")
    assert [e["amount"] for e in entries if e["kind"] == "top_up"] == [-10000]


def test_top_up_and_rebuy_become_the_rooms_command() -> None:
    client = TableClient("t1")
    client.receive(seated_snapshot(stack=30))
    assert client.command("top up").send == {"type": "top_up", "table": "t1", "amount": 170}
    assert client.command("Top Up 50").send == {"type": "top_up", "table": "t1", "amount": 50}
    assert client.command("rebuy 80").send == {"type": "top_up", "table": "t1", "amount": 80}
    assert client.command("topup many").lines == (
        "top up takes a number of chips, like 'top up 170', not 'many'",
    )
    client.receive(seated_snapshot(stack=200))
    assert client.command("top up").lines == ("Your stack is at the table's maximum buy-in, 200.",)
    assert TableClient("t1").command("rebuy").lines == (
        "You have no seat to top up: sit down first.",
    )


def seated_snapshot(stack: int) -> dict[str, object]:
    """A table frame of t1 (buy-in 80 to 200) with the viewer in seat 1, between hands."""
    seat = {"seat": 1, "player": "p1", "name": "Carol", "stack": stack, "status": "ready"}
    summary = {"id": "t1", "name": "Home", "variant": "o8", "structure": "pot-limit",
               "small_blind": 1, "big_blind": 2, "min_buy_in": 80, "max_buy_in": 200}  # fmt: skip
    state = {"table": summary, "viewer": 1, "button": None, "seats": [seat], "hand": None}
    return {"type": "table", "table": "t1", "seq": 1, "state": state}


# ------------------------------------------------------------------ the same guest again


def test_the_client_keeps_its_guest_across_runs_and_new_makes_another(
    room: RoomServer,
    client_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Carol plays a hand, leaves and comes back: the same player (one Carol in the
    table's ledger); a token the room does not know gives way to a new guest; --new
    makes another Carol."""
    _, token = room.guest("Holly")
    table = str(room.create_table(token, name="Bots", bots=1, seats=2)["table"]["id"])
    kept = Identities(client_folder / "identities.json")
    kept.keep(room.url, "Carol", "a-token-the-room-never-gave")

    def run(*more: str) -> str:
        script = "\n".join(["sit", *(["check", "call", "show"] * 30)])
        monkeypatch.setattr("sys.stdin", io.StringIO(script + "\n"))
        join = ["play", "--server", room.url + "/", "--lines", "--table", table, "--hands", "1"]
        assert main([*join, "--name", "Carol", *more]) == 0
        return capsys.readouterr().out

    first = run()
    assert "You play as Carol again" not in first
    token = kept.token(room.url, "Carol")
    assert token not in (None, "a-token-the-room-never-gave")
    second = run()
    assert second.startswith(
        "You play as Carol again, the guest you were at this room (--new for a new one).\n"
    )
    assert kept.token(room.url, "Carol") == token
    assert "Carol" in players_in_ledger(room, table)
    assert not any(name.startswith("Carol #") for name in players_in_ledger(room, table))
    run("--new")
    assert kept.token(room.url, "Carol") not in (None, token)
    assert sum(name.startswith("Carol #") for name in players_in_ledger(room, table)) == 2
    assert (client_folder / "identities.json").stat().st_mode & 0o077 == 0


def players_in_ledger(room: RoomServer, table: str) -> set[str]:
    """The players named in the table's ledger ("Carol #12" where two share a name)."""
    with room.http() as http:
        rows = http.get(f"/api/tables/{table}/ledger.csv").text.splitlines()[1:]
    return {row.split(",")[5] for row in rows}


def test_new_needs_a_room(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--lines", "--new"]) == 2
    assert capsys.readouterr().err == (
        "splitpot play: error: --new needs --server URL (offline there is no guest to keep)\n"
    )


def test_the_full_screen_game_offers_top_up_between_the_players_hands() -> None:
    """The Top up button shows for a seated player short of the most a buy-in takes
    (broke, say), at the room only."""
    from textual.widgets import Button

    from splitpot.client.game import Reply
    from splitpot.session import GameSession, table_config
    from splitpot.tui import PokerApp

    game = RemoteGame("http://127.0.0.1:1", "Carol")  # never started: the frames are ours
    game.client.receive(seated_snapshot(stack=0))
    offline = GameSession(table_config("o8", "limit", None, 3), seed=3)

    async def shown(session: RemoteGame | GameSession) -> bool:
        app = PokerApp(session, opening=Reply(()))
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            offered = bool(app.query_one("#top_up", Button).display)
            app.exit([])  # ends as the game would (no leave to send: nothing is connected)
        return offered

    assert asyncio.run(shown(game))
    game.client.receive(seated_snapshot(stack=200))
    assert not asyncio.run(shown(game))
    assert not asyncio.run(shown(offline))
    game.close()
