"""The terminal game as a client of the room's protocol: the TableClient folds real frames
(made by the protocol layer from a real table) into the picture a snapshot gives; the
person's words become the room's commands; and the network game plays hands at a real
room in process (uvicorn on a free port), through the line game, across a dropped
connection."""

from __future__ import annotations

import asyncio
import io
import itertools
import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest
from room_helpers import FAST, RoomServer, running_room

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.cli import main, play_lines
from splitpot.client.local import LocalTable
from splitpot.client.remote import FAIR_DEAL, RemoteError, RemoteGame, socket_url
from splitpot.client.state import TableClient
from splitpot.dealer import Scene, scenes
from splitpot.protocol import (
    TableInfo,
    encode_event,
    encode_legal,
    encode_state,
    event_message,
    legal_from_json,
    table_message,
    turn_message,
)
from splitpot.session import GameSession, table_config
from splitpot.store import Store
from splitpot.table import Table, TableEvent, seen_by
from splitpot.verify import verify_hand

pytestmark = pytest.mark.one_database  # the room's behaviour: on SQLite (conftest.py)

Picture = tuple[Any, ...]


@pytest.fixture
def paced_room(store: Store) -> Iterator[RoomServer]:
    """A room that pauses half a second between hands: a client playing ``--hands N``
    leaves before the next deal even on a busy machine (the test room's 50 ms may not
    leave it time)."""
    with running_room(store, replace(FAST, hand_pause=0.5)) as server:
        yield server


def picture(client: TableClient, *, in_hand: bool) -> Picture:
    """What a screen shows: between hands the stacks and who sits out (whether a player
    owes blinds no event says: the next deal shows it); in a hand also each seat's status,
    bet, cards seen and last action, the street, the board and the pot."""
    seats = tuple(
        (s.seat, s.name, s.stack, s.bet)
        + ((s.status, s.cards, s.last_action) if in_hand else (s.status == "sitting_out",))
        for s in client.occupied()
    )
    hand = client.hand
    shown = None if hand is None else (hand.id, hand.street, hand.board, hand.total)
    return client.viewer, client.button, seats, shown


class Framing:
    """Frames of a real table's events for the player in seat 1, one table call at a time,
    as the room makes them (``table``, ``info``, ``names``, ``players``, ``scene`` and
    ``seq`` set by the subclass)."""

    table: Table
    info: TableInfo
    names: dict[int, str]
    players: dict[int, str]
    scene: Scene
    seq: int

    def snapshot(self) -> dict[str, Any]:
        state = encode_state(self.table.view(0), self.info, self.players)
        return table_message("t1", self.seq, state)

    def frames(self, events: list[TableEvent]) -> list[dict[str, Any]]:
        before, self.scene = scenes(events, self.scene)
        frames = []
        for event, scene in zip(events, before, strict=True):
            self.seq += 1
            encoded = encode_event(seen_by(event, 0), "t1", scene, self.names, players=self.players)
            frames.append(event_message("t1", self.seq, encoded))
        current = self.table.hand
        if current is not None and self.table.seat_to_act == 0:
            legal = self.table.view(0).legal
            assert legal is not None
            frames.append(turn_message("t1", f"t1-{current.number}", 0, legal, None))
        return frames


class Dealer(Framing):
    """A real table of random bots, its events made into frames for the player in seat 1
    by the protocol layer, one table call at a time, as the room makes them."""

    def __init__(self, structure: str, seats: int, seed: int) -> None:
        self.config = table_config("o8", structure, None, seats)
        self.table = Table(self.config)
        self.bots = [make_bot("random", f"Bot {i}", seed * 10 + i) for i in range(seats)]
        for seat, bot in enumerate(self.bots):
            self.table.sit(seat, bot.name, self.config.min_buy_in)
        self.names = {seat: bot.name for seat, bot in enumerate(self.bots)}
        self.players = {seat: str(seat + 1) for seat in self.names}
        self.info = TableInfo("t1", "Test", self.config)
        self.scene = Scene(self.config.variant)
        self.seq = 0
        self.shuffle = random.Random(seed)

    def steps(self, hands: int) -> Iterator[list[dict[str, Any]]]:
        """The frames of each table call: a top-up, a player sitting out (between hands or
        during one) or back in, a deal, an action."""
        away: int | None = None  # one player at a time sits out now and then
        for _ in range(hands):
            for seat, player in enumerate(self.table.seats):
                if player is not None and player.stack == 0:
                    yield self.frames(self.table.add_chips(seat, self.config.min_buy_in))
            if away is not None:
                yield self.frames(self.table.sit_in(away))
                away = None
            elif self.shuffle.random() < 0.2:
                away = self.shuffle.randrange(len(self.bots))
                yield self.frames(self.table.sit_out(away))
            deck, draw = (Deck(self.shuffle.getrandbits(64)) for _ in range(2))
            yield self.frames(self.table.deal(deck.cards, draw=draw.cards))
            while (current := self.table.hand) is not None:
                seat = self.table.seat_to_act
                assert seat is not None and current.hand.to_act is not None
                if away is None and self.shuffle.random() < 0.03:  # sits out after this hand
                    away = seat
                    yield self.frames(self.table.sit_out(seat))
                view = current.hand.view(current.hand.to_act)
                action = self.bots[seat].decide(view, self.config.variant)
                yield self.frames(self.table.act(seat, action))


def snapshot_of(dealer: Dealer) -> TableClient:
    fresh = TableClient()
    fresh.receive(dealer.snapshot())
    return fresh


@pytest.mark.parametrize(
    ("structure", "seats", "seed"),
    [("no-limit", 6, 1), ("pot-limit", 4, 2), ("limit", 3, 3), ("mixed", 5, 4)],
)
def test_folded_frames_show_what_a_snapshot_shows_after_every_table_call(
    structure: str, seats: int, seed: int
) -> None:
    """Random bots (all-ins, side pots, showdowns, uncalled bets, busted bots buying in
    again): after the frames of each table call, the folded picture is the one a fresh
    snapshot of the table gives, and the seat to act holds the turn the engine gives."""
    dealer = Dealer(structure, seats, seed)
    client = TableClient()
    client.receive(dealer.snapshot())
    kinds: set[str] = set()
    for frames in dealer.steps(30):
        lines = client.receive_all(frames)
        kinds |= {f["event"]["kind"] for f in frames if f["type"] == "event"}
        in_hand = dealer.table.hand is not None
        assert picture(client, in_hand=in_hand) == picture(snapshot_of(dealer), in_hand=in_hand)
        legal = dealer.table.view(0).legal
        assert (client.legal is None) == (legal is None)
        if legal is not None and client.legal is not None:
            assert client.legal.describe() == legal.describe()
        texts = [f["event"]["text"] for f in frames if f["type"] == "event"]
        assert all(line in lines for text in texts if text for line in text.split("\n")[1:])
    assert client.hands_played == sum(0 in played.seats for played in dealer.table.history)
    assert {"shown", "uncalled", "pot_awarded", "hand_ended", "sat_out", "sat_in"} <= kinds
    assert structure != "mixed" or "stakes_changed" in kinds


def test_a_turn_reads_back_as_the_engines_legal_actions() -> None:
    config = table_config("o8", "pot-limit", None, 3)
    local = LocalTable(config, "Hero", [make_bot("random", f"B{i}", i) for i in (1, 2)], 200, 5)
    frames = local.deal()
    turn = next(f for f in frames if f["type"] == "turn")
    legal = local.table.view(0).legal
    assert legal is not None
    back = legal_from_json(turn["seat"], turn["legal"])
    assert back.describe() == legal.describe()
    assert encode_legal(back) == encode_legal(legal)


def test_words_become_the_rooms_commands() -> None:
    config = table_config("o8", "limit", None, 3)
    local = LocalTable(config, "Hero", [make_bot("sensible", f"B{i}", i) for i in (1, 2)], 200, 2)
    client = TableClient()
    client.receive(local.snapshot())
    assert client.command("call").lines == ("It is not your turn.",)
    client.receive_all(local.deal())
    turn = client.turn
    assert turn is not None and client.moves() == "fold, call 2, raise 4"
    act = {"type": "act", "table": "offline", "hand": turn.hand}
    assert client.command("raise 4").send == act | {"action": "raise", "amount": 4}
    assert client.command(" CALL ").send == act | {"action": "call"}
    assert client.command("raise").lines == (
        "Not now: raise needs one whole amount, e.g. 'raise 10'.",
        "You may: fold, call 2, raise 4",
    )
    assert client.command("say  good luck ").send == {
        "type": "chat", "table": "offline", "text": "good luck"
    }  # fmt: skip
    assert client.command("say").lines == ("say what? Like 'say good luck'.",)
    assert client.command("sit").lines == ("You sit in seat 1 already.",)
    assert client.command("sit out").send == {"type": "sit_out", "table": "offline"}
    show = client.command("show losing on")
    assert show.send == {"type": "preferences", "table": "offline", "muck_losing": False}
    assert show.lines == ("Your losing hands are shown at the showdown from now on.",)
    assert client.command("show losing off").send == {
        "type": "preferences", "table": "offline", "muck_losing": True
    }  # fmt: skip
    assert client.command("show losing maybe").lines == (
        "show losing takes on or off, not 'maybe'",
    )
    # A refusal from the table comes back as an error frame, in words, with the moves.
    lines = client.receive_all(local.send(act | {"action": "check"}))
    assert lines == ["Not now: cannot check: 2 to call.", "You may: fold, call 2, raise 4"]
    lines = client.receive_all(local.send({"type": "sit", "table": "offline"}))
    assert lines == ["Refused: sit.seat must be a whole number from 1 to 10, not null."]


def test_a_watcher_sits_in_the_first_free_seat_with_the_most_chips() -> None:
    config = table_config("o8", "pot-limit", None, 4)
    local = LocalTable(config, "Hero", [make_bot("sensible", "B1", 1)], 120)
    watcher = TableClient()
    state = dict(local.snapshot())
    state["state"] = dict(state["state"]) | {"viewer": None}  # as a watcher receives it
    watcher.receive(state)
    assert watcher.me() is None and watcher.free_seats() == [3, 4]
    assert watcher.command("sit").send == {
        "type": "sit", "table": "offline", "seat": 3, "buy_in": 200
    }  # fmt: skip
    assert watcher.command("sit 4 90").send == {
        "type": "sit", "table": "offline", "seat": 4, "buy_in": 90
    }  # fmt: skip
    assert watcher.command("sit here").lines == (
        "sit takes a seat and a buy-in, like 'sit 3 200', not 'here'",
    )


def test_an_event_the_snapshot_holds_is_not_folded_twice() -> None:
    config = table_config("o8", "limit", None, 3)
    local = LocalTable(config, "Hero", [make_bot("sensible", f"B{i}", i) for i in (1, 2)], 200, 3)
    frames = local.deal()
    client = TableClient()
    client.receive(local.snapshot())  # after the deal: it holds every event so far
    before = picture(client, in_hand=True)
    assert client.receive_all(frames) == [] and picture(client, in_hand=True) == before
    other = dict(frames[0]) | {"table": "elsewhere", "seq": 10**6}
    assert client.receive(other) == []  # another table's frame is not this table's


def test_a_room_address_gives_its_websocket() -> None:
    assert socket_url("http://127.0.0.1:8000") == "ws://127.0.0.1:8000/ws"
    assert socket_url("https://poker.example/room/") == "wss://poker.example/room/ws"
    with pytest.raises(RemoteError, match="not 'ftp://x'"):
        socket_url("ftp://x")


# ------------------------------------------------------------------ at the room


def bots_table(room: RoomServer, bots: int = 2) -> str:
    """A public table where ``bots`` bots wait, with one seat free."""
    _, token = room.guest("Holly")
    table = room.create_table(token, name="Bots", bots=bots, seats=bots + 1)
    return str(table["table"]["id"])


def passive() -> Iterator[str]:
    """Check when free, else fold; show at the showdown (a refused word costs a line).
    Never a call: at most a blind is lost a hand, so the player cannot bust before the
    hands a test asks for (calling the bots down could, and end the session early)."""
    while True:
        yield from ("check", "fold", "show")


def ledger_balance(room: RoomServer, game: RemoteGame) -> int:
    with room.http(game.rooms.token) as http:
        balance: int = http.get("/api/me/ledger").json()["balance"]
    return balance


def test_the_line_game_plays_hands_at_the_room_from_the_lobby(
    paced_room: RoomServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    bots_table(paced_room)
    script = "\n".join(["1", "sit 1 150", "say hello, bots", *itertools.islice(passive(), 120)])
    monkeypatch.setattr("sys.stdin", io.StringIO(script + "\n"))
    words = ["play", "--server", paced_room.url, "--lines", "--name", "Tess", "--hands", "2"]
    assert main(words) == 0
    out = capsys.readouterr().out
    assert "1. Bots (" in out and "Pick a table: its number (enter: the first)." in out
    assert "Tess sits down in seat 1 with 150" in out
    assert "Tess: hello, bots" in out
    assert "*** Hand " in out and "Dealt to Tess: " in out and "Your move: " in out
    assert out.count("Hand ") >= 2 and "That was the last of your 2 hands." in out
    final = out.rstrip().splitlines()
    assert final[-2] == "Session over: 2 hands played."
    left = next(line for line in final if line.startswith("Tess leaves the table with "))
    stack = int(left.rsplit(" ", 1)[1])
    assert stack >= 150 - 2 * 2  # no more than a big blind a hand
    assert final[-1] == f"Tess: {stack} chips, {stack - 150:+d} on the buy-in of 150."


def test_the_network_game_comes_back_after_a_dropped_connection(paced_room: RoomServer) -> None:
    """The connection drops at the person's turn: the client says hello again with the
    same token, the room sends the table and the turn again, the hand goes on; the chips
    the summary counts are the ledger's; the last hand is there, as the room keeps it (the
    bot alone deals no hand after the person has gone)."""
    table = bots_table(paced_room, bots=1)
    game = RemoteGame(paced_room.url, "Dora", table=table, max_hands=2, patience=10)

    def lines() -> Iterator[str]:
        yield "sit"
        words = passive()
        yield next(words)
        assert game.connection is not None and game.connection.socket is not None
        game.connection.socket.close()  # as a network would drop it
        yield from words

    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", printed)
        try:
            assert play_lines(game, lines()) == 0
            last = game.command("last").lines  # the room's history of the last hand
        finally:
            game.close()
    said = printed.getvalue().splitlines()
    assert "The connection dropped; it is open again." in said
    after = said[said.index("The connection dropped; it is open again.") :]
    assert any(line.startswith("Your move: ") for line in after)  # the turn came back
    assert said[-2] == "Session over: 2 hands played."
    assert game.buy_in == 200 and game.client.left_with is not None
    assert ledger_balance(paced_room, game) == game.client.left_with - 200
    assert last[0].startswith("PokerStars Hand #") and "Dealt to Dora [" in "\n".join(last)
    assert said[-1] == f"Dora: {game.stack} chips, {game.stack - 200:+d} on the buy-in of 200."


def test_a_room_out_of_reach_is_one_line_and_status_1(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from room_helpers import free_port

    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    url = f"http://127.0.0.1:{free_port()}"
    assert main(["play", "--server", url, "--lines"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"splitpot play: cannot reach the room at {url}: ")
    assert "Traceback" not in captured.err


def test_table_without_server_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO(""))
    assert main(["play", "--lines", "--table", "t1"]) == 2
    assert "--table and --invite need --server URL" in capsys.readouterr().err


def test_a_private_table_opens_with_its_invite_only(
    room: RoomServer, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _, token = room.guest("Holly")
    created = room.create_table(token, name="Friends", bots=1, seats=2, private=True)
    table, invite = str(created["table"]["id"]), str(created["invite"])
    words = "\n".join(["sit", *(["check", "call", "show"] * 30)])
    monkeypatch.setattr("sys.stdin", io.StringIO(words + "\n"))
    join = ["play", "--server", room.url, "--lines", "--table", table, "--hands", "1"]
    assert main([*join, "--name", "Una", "--invite", invite]) == 0
    assert "Una sits down in seat 1" in capsys.readouterr().out
    monkeypatch.setattr("sys.stdin", io.StringIO("sit\n"))
    assert main([*join, "--name", "Vic"]) == 1
    captured = capsys.readouterr()
    assert captured.err == f"splitpot play: table {table}: there is no table {table!r}\n"
    assert "Vic sits down" not in captured.out


def test_the_full_screen_game_picks_a_table_sits_plays_and_chats(room: RoomServer) -> None:
    """The lobby lists the room's tables; enter picks one, the Sit button sits down, the
    keys play the turns, a typed line chats, and q (twice in a hand) leaves."""
    from textual.widgets import Button

    from splitpot.tui import LobbyScreen, PokerApp

    bots_table(room)
    game = RemoteGame(room.url, "Tui", patience=10)

    async def until(pilot: Any, done: Callable[[], bool], what: str) -> None:
        for _ in range(400):
            if done():
                return
            await pilot.pause(0.02)
        raise AssertionError(f"no {what} in 8 s: {app.shown[-5:]}")

    app = PokerApp(game, two_colour=True)

    async def drive() -> list[str] | None:
        async with app.run_test(size=(100, 30)) as pilot:
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "lobby")
            await pilot.press("enter")
            await until(pilot, lambda: app.query_one("#sit", Button).display, "Sit button")
            assert any("Free seats: 1; buy-in 80 to 200." in line for line in app.shown)
            app.query_one("#sit", Button).press()  # (the table above it grows and shrinks)
            await until(pilot, lambda: game.client.me() is not None, "seat")
            await pilot.press("slash", *"say hi all", "enter")
            await until(pilot, lambda: "Tui: hi all" in app.shown, "chat line")
            await until(pilot, lambda: game.legal() is not None, "turn")
            assert app.query_one("#check_call", Button).display
            await pilot.press("c")
            await until(pilot, lambda: any(" Tui c" in f" {line}" for line in app.shown), "act")
            for _ in range(400):  # c at each turn (check, call or show) to the hand's end
                if game.client.hands_played >= 1:
                    break
                if game.legal() is not None:
                    await pilot.press("c")
                await pilot.pause(0.02)
            assert game.client.hands_played >= 1, app.shown[-5:]
            await pilot.press("q")
            await pilot.pause(0.05)
            if game.quitting:
                await pilot.press("q")
            await until(pilot, lambda: app.return_value is not None, "the end")
        return app.return_value

    summary = asyncio.run(drive())
    assert summary is not None and summary[-2].startswith("Session over: ")
    assert summary[-1].startswith("Tui: ") and summary[-1].endswith("on the buy-in of 200.")


def test_the_offline_game_chats_and_helps_through_the_same_commands() -> None:
    """Offline, a chat line comes back as the room would send it; the room's help adds
    the seat commands."""
    session = GameSession(table_config("o8", "limit", None, 3), seed=3)
    session.next_hand()
    assert session.command("say nice hand").lines == ("Hero: nice hand",)
    assert session.command("sit").lines == ("You sit in seat 1 already.",)
    assert session.command("sit out").lines == (
        "Refused: the offline table takes act, chat, leave, preferences, run_it, rabbit "
        "and straddle, not sit_out.",
    )
    assert session.legal() is not None  # still the person's turn
    remote = RemoteGame("http://127.0.0.1:1", "Ann")
    assert remote.command("help").lines == remote.help_lines
    assert "  sit [SEAT [BUYIN]]  sit down (the first free seat, the most chips, by default)" in (
        remote.help_lines
    )
    remote.close()


def test_a_fair_deal_command_outrun_by_its_tables_end_is_not_a_refusal() -> None:
    """A reveal or commitment sent as a hand starts can reach the room after that hand
    ended and its table closed (a tournament's last hand, run out all-in before the client
    read its start): its refusal is moot and says nothing; other refusals still show."""
    remote = RemoteGame("http://127.0.0.1:1", "Ann")
    try:
        remote.entropy.commit("t1")
        gone = "table t1 is not open in this process"
        moot = {"type": "error", "code": "unknown_table", "message": gone, "ref": FAIR_DEAL}
        assert remote.take(moot).lines == ()
        assert not remote.entropy.committed, "no commitment is left pending"
        bad = "entropy must be 64 hex digits"
        refused = {"type": "error", "code": "bad_message", "message": bad, "ref": FAIR_DEAL}
        assert remote.take(refused).lines == (f"Refused: {bad}.",)
    finally:
        remote.close()


def test_the_terminal_client_deals_its_entropy_into_every_hand(room: RoomServer) -> None:
    """FAIRNESS.md 3: the client commits once seated and reveals when a hand's start lists
    its seat; the room's records of its hands hold its entropy, and they verify."""
    table = bots_table(room, bots=1)
    game = RemoteGame(room.url, "Fay", table=table, max_hands=2, patience=10)
    printed = io.StringIO()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("sys.stdout", printed)
        try:
            assert play_lines(game, itertools.chain(["sit"], passive())) == 0
        finally:
            game.close()
    with room.http() as http:
        hands = http.get(f"/api/tables/{table}/hands").json()["hands"]
    mine = [h for h in hands if any(p["name"] == "Fay" for p in h["players"])]
    assert len(mine) >= 2
    for record in mine:
        fay = next(p["seat"] for p in record["players"] if p["name"] == "Fay")
        entropy = {p["seat"]: p["entropy"] for p in record["fairness"]["players"]}
        assert entropy.get(fay), f"hand {record['id']} was dealt without Fay's entropy"
        assert [c.name for c in verify_hand(record) if not c.passed] == []
