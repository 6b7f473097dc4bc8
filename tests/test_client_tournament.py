"""The terminal client at a tournament (RULES.md 8; docs/protocol.md "Tournaments"): the
clock of a tournament's table folded from its state and its ``level`` events and told in
a line; the lobby in words (players left, average stack, level, prizes, standings, the
player's place); and the network game following its player: registered, seated where the
lobby says, moved to another table by a ``moved`` frame on the same socket, out and
placed, or the winner when the last table closes. Frames are the contract's JSON."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from room_helpers import running_room

from splitpot.cli import main
from splitpot.client.identity import FOLDER_VARIABLE
from splitpot.client.lines import play_lines
from splitpot.client.remote import LOBBY, RemoteGame
from splitpot.client.state import TableClient
from splitpot.client.tournament import (
    Blinds,
    TournamentClock,
    clock_line,
    finish_line,
    lobby_lines,
    schedule_of,
    summary_line,
)
from splitpot.i18n import Language, words
from splitpot.store import Store
from splitpot.tournament.levels import Schedule

NOW = datetime(2025, 1, 31, 12, 0, 0, tzinfo=UTC)
Frame = dict[str, Any]


def wire_time(moment: datetime) -> str:
    """A time as the room writes it: UTC with milliseconds and a Z."""
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def block(**fields: Any) -> Frame:
    """A table state's ``tournament`` block: level 3 of Sunday at its table 2, by minutes,
    the next level in 4 minutes 12 seconds."""
    return {
        "id": "7",
        "name": "Sunday",
        "table_number": 2,
        "level": 3,
        "small_blind": 25,
        "big_blind": 50,
        "ante": 5,
        "on_break": False,
        "changes_at": wire_time(NOW + timedelta(seconds=252)),
        "hands_left": None,
        "next_level": {"small_blind": 40, "big_blind": 80, "ante": 8},
        "hand_for_hand": False,
    } | fields


def schedule(clock: str = "minutes", breaks: int = 0) -> Schedule:
    """Four levels of 10 (minutes or hands); ``breaks`` minutes after the third."""
    levels = [
        {"small_blind": 10, "big_blind": 20, "ante": 0, "length": 10},
        {"small_blind": 15, "big_blind": 30, "ante": 0, "length": 10},
        {"small_blind": 25, "big_blind": 50, "ante": 5, "length": 10, "break_minutes": breaks},
        {"small_blind": 40, "big_blind": 80, "ante": 8, "length": 10},
    ]
    return Schedule.from_json({"clock": clock, "levels": levels})


def snapshot(
    table: str = "k3x9pq2a",
    *,
    viewer: int | None = 1,
    tournament: Frame | None = None,
    seq: int = 4,
    stacks: tuple[int, int] = (1500, 1500),
) -> Frame:
    """A tournament table's state between hands: Hero in seat 1, Cy (a bot) in seat 2."""
    seats = [
        {"seat": 1, "player": "p1", "name": "Hero", "stack": stacks[0], "status": "ready"},
        {"seat": 2, "player": "p2", "name": "Cy", "stack": stacks[1], "status": "ready"},
    ]
    summary = {
        "id": table,
        "name": "Sunday #1",
        "variant": "o8",
        "structure": "pot-limit",
        "stakes": "25/50",
        "small_blind": 25,
        "big_blind": 50,
        "seats": 2,
        "players": 2,
        "min_buy_in": 0,
        "max_buy_in": 0,
    }
    state = {
        "table": summary,
        "viewer": viewer,
        "button": None,
        "hands_played": 0,
        "seats": seats,
        "hand": None,
        "tournament": tournament or block(),
    }
    return {"type": "table", "table": table, "seq": seq, "state": state}


def event(table: str, seq: int, kind: str, text: str | None = None, **fields: Any) -> Frame:
    body = {"kind": kind, "hand": None, "text": text} | fields
    return {"type": "event", "table": table, "seq": seq, "event": body}


def at_noon(client: TableClient) -> TableClient:
    client.clock = lambda: NOW
    return client


# ------------------------------------------------------------------ the clock


def test_the_clock_line_tells_the_level_and_the_time_to_the_next() -> None:
    client = at_noon(TableClient())
    client.receive(snapshot())
    assert client.clock_line() == (
        "Sunday, table 2; Level 3: blinds 25/50, ante 5; next level 40/80, ante 8 in 4:12"
    )
    assert client.table_lines()[:2] == [client.clock_line(), "Seat 1: Hero: 1500"]
    client.receive(snapshot(tournament=block(hand_for_hand=True, ante=0)))
    assert client.clock_line().endswith(
        "Level 3: blinds 25/50; next level 40/80, ante 8 in 4:12; hand for hand"
    )
    client.clock = lambda: NOW + timedelta(seconds=300)  # past the time: from the next hand
    assert client.clock_line().endswith(
        "next level 40/80, ante 8 from the next hand; hand for hand"
    )


def test_the_last_level_and_a_break_are_told_as_such() -> None:
    last = block(level=15, changes_at=None, next_level=None)
    assert TournamentClock.from_json(last).last_level
    assert clock_line(TournamentClock.from_json(last), NOW).endswith("; the last level")
    pause = block(on_break=True, level=4, small_blind=40, big_blind=80, ante=8)
    said = clock_line(TournamentClock.from_json(pause), NOW)
    assert (
        said == "Sunday, table 2; Level 4: blinds 40/80, ante 8; on a break: play resumes in 4:12"
    )


def test_past_a_levels_time_the_schedules_break_follows() -> None:
    """The room tells no event when a break begins: with the schedule the client knows
    the break after level 3 and counts down to its end."""
    clock = TournamentClock.from_json(block())
    later = NOW + timedelta(seconds=252 + 60)
    assert clock_line(clock, later, schedule=schedule(breaks=5)).endswith(
        "; a break: play resumes in 4:00 with blinds 40/80, ante 8"
    )
    assert clock_line(clock, later, schedule=schedule()).endswith(
        "; next level 40/80, ante 8 from the next hand"
    )


def test_the_hands_clock_counts_the_tables_hands_down() -> None:
    client = at_noon(TableClient())
    client.receive(
        snapshot(
            tournament=block(
                changes_at=None,
                hands_left=2,
                level=2,
                small_blind=15,
                big_blind=30,
                ante=0,
                next_level={"small_blind": 25, "big_blind": 50, "ante": 5},
            )
        )
    )
    assert client.clock_line().endswith(
        "Level 2: blinds 15/30; next level 25/50, ante 5 in 2 hands"
    )
    client.receive(event("k3x9pq2a", 5, "hand_ended", number=1, stacks=[], awards=[]))
    assert client.clock_line().endswith("next level 25/50, ante 5 in 1 hand")
    client.receive(event("k3x9pq2a", 6, "hand_ended", number=2, stacks=[], awards=[]))
    assert client.clock_line().endswith("next level 25/50, ante 5 from the next hand")
    # The new level: its ten hands, and the level after it, as the event tells them.
    said = client.receive(
        event(
            "k3x9pq2a",
            7,
            "level",
            "Level 3: blinds 25/50, ante 5",
            level=3,
            small_blind=25,
            big_blind=50,
            ante=5,
            next_level={"small_blind": 40, "big_blind": 80, "ante": 8},
            hands_left=10,
            seconds_left=None,
        )
    )
    assert said == ["Level 3: blinds 25/50, ante 5"]
    assert client.clock_line().endswith(
        "Level 3: blinds 25/50, ante 5; next level 40/80, ante 8 in 10 hands"
    )
    assert client.tournament is not None and client.tournament.blinds == Blinds(25, 50, 5)


def test_a_new_level_by_minutes_ends_when_the_event_says() -> None:
    """Level 4, its next level 60/120 in 15 minutes (a break and the level's 10): the
    clock counts from the moment the event came; at the very last level nothing follows."""
    clock = TournamentClock.from_json(block())
    level = {"level": 4, "small_blind": 40, "big_blind": 80, "ante": 8}
    following = {"small_blind": 60, "big_blind": 120, "ante": 12}
    four = clock.at_level(level | {"next_level": following, "seconds_left": 900.5}, NOW)
    assert four.changes_at == NOW + timedelta(seconds=900.5)
    assert four.next_level == Blinds(60, 120, 12) and not four.last_level
    assert four.blinds == Blinds(40, 80, 8) and four.level == 4 and four.hands_left is None
    last = clock.at_level(level | {"next_level": None, "seconds_left": None}, NOW)
    assert (last.changes_at, last.next_level, last.last_level) == (None, None, True)
    assert clock_line(last, NOW) == "Sunday, table 2; Level 4: blinds 40/80, ante 8; the last level"


# ------------------------------------------------------------------ out, and moved


def test_out_of_the_tournament_is_no_cash_out() -> None:
    """The viewer's ``eliminated`` and then their seat's ``player_left``: out, and not a
    player who left with chips (the game does not end there: the place comes later)."""
    client = TableClient()
    client.receive(snapshot(stacks=(0, 3000)))
    lines = client.receive(
        event("k3x9pq2a", 5, "eliminated", "Hero is out of the tournament", seat=1, player="p1")
    )
    assert lines == ["Hero is out of the tournament"] and client.out
    client.receive(
        event(
            "k3x9pq2a",
            6,
            "player_left",
            "Hero leaves the table with 0",
            seat=1,
            name="Hero",
            player="p1",
            stack=0,
        )
    )
    assert (client.viewer, client.left_with, client.me()) == (None, None, None)
    cash = TableClient()
    cash.receive(snapshot() | {"state": snapshot()["state"] | {"tournament": None}})
    cash.receive(
        event("k3x9pq2a", 5, "player_left", None, seat=1, name="Hero", player="p1", stack=1500)
    )
    assert cash.left_with == 1500


class Socket:
    """The game's connection, as a test holds it: what it sends, kept."""

    closed = False

    def __init__(self) -> None:
        self.sent: list[Frame] = []

    def send(self, command: Frame) -> bool:
        self.sent.append(command)
        return True

    def receive(self, timeout: float | None = None) -> Frame | None:
        time.sleep(min(timeout or 0.05, 0.05))  # nothing comes but what the test gives
        return None

    def close(self) -> None:
        self.closed = True


class Rooms:
    """The room's HTTP API as a test holds it: the tournament's lobby as the test sets it."""

    def __init__(self, lobby: Frame) -> None:
        self.lobby = lobby
        self.invite = None
        self.registered: list[str] = []

    def tournament(self, tournament: str, invite: str | None = None) -> Frame:
        return self.lobby

    def register(self, tournament: str, invite: str | None = None) -> None:
        self.registered.append(tournament)

    def close(self) -> None:
        pass


def lobby(**fields: Any) -> Frame:
    """The lobby of Sunday (id 7): two entrants, running, Hero at table k3x9pq2a."""
    return {
        "id": "7",
        "name": "Sunday",
        "kind": "sit-and-go",
        "status": "running",
        "variant": "o8",
        "structure": "pot-limit",
        "seats": 2,
        "buy_in": 100,
        "fee": 10,
        "entries": 2,
        "most_entrants": 2,
        "prize_pool": 200,
        "start_at": None,
        "private": False,
        "club": None,
        "settings": {"schedule": schedule().to_json()},
        "started_at": wire_time(NOW - timedelta(minutes=20)),
        "finished_at": None,
        "players_left": 2,
        "average_stack": 1500,
        "payouts": [{"place": 1, "prize": 200}],
        "level": {
            "level": 3,
            "clock": "minutes",
            "small_blind": 25,
            "big_blind": 50,
            "ante": 5,
            "on_break": False,
            "changes_at": wire_time(NOW + timedelta(seconds=252)),
        },
        "hand_for_hand": False,
        "registered": True,
        "host": "p9",
        "entrants": [
            {
                "player": "p2",
                "name": "Cy (bot)",
                "bot": True,
                "chips": 2000,
                "table": "k3x9pq2a",
                "table_number": 1,
                "seat": 2,
                "place": None,
                "out": False,
                "prize": None,
            },
            {
                "player": "p1",
                "name": "Hero",
                "bot": False,
                "chips": 1000,
                "table": "k3x9pq2a",
                "table_number": 1,
                "seat": 1,
                "place": None,
                "out": False,
                "prize": None,
            },
        ],
        "tables": [{"id": "k3x9pq2a", "number": 1, "players": 2, "broken": False}],
    } | fields


def out(place: int, prize: int | None = None) -> list[Frame]:
    """The entrants once Hero is out in ``place``."""
    cy, hero = lobby()["entrants"]
    return [cy, hero | {"chips": 0, "out": True, "place": place, "prize": prize, "table": None}]


def entrant_game(room_lobby: Frame) -> tuple[RemoteGame, Socket, Rooms]:
    """A network game of Sunday's entrant Hero (p1), signed in, its room a test's."""
    game = RemoteGame("http://127.0.0.1:1", "Hero", tournament="7")
    socket, rooms = Socket(), Rooms(room_lobby)
    game.connection, game.rooms, game.player_id = socket, rooms, "p1"  # type: ignore[assignment]
    game.client.clock = lambda: NOW
    return game, socket, rooms


def test_an_entrant_registers_then_watches_the_table_the_lobby_seats_them_at() -> None:
    waiting = lobby(status="registering", entries=1, entrants=[], tables=[], started_at=None)
    game, socket, rooms = entrant_game(waiting)
    game._sign_in = lambda: []  # type: ignore[method-assign]
    reply = game.start()
    assert rooms.registered == ["7"] and not reply.over
    assert reply.lines[0] == "You are registered in Sunday."
    assert reply.lines[1].startswith("1 of 2 entrants: the tournament starts when its seats")
    assert not game.waiting() and game._lobby_wanted()
    assert game.take({"type": LOBBY, "lobby": waiting}).lines == ()  # nothing new: no line
    reply = game.take({"type": LOBBY, "lobby": lobby()})
    assert socket.sent == [{"type": "watch", "table": "k3x9pq2a"}]
    reply = game.take(snapshot())
    assert reply.lines[0].startswith("You sit in seat 1 at Sunday #1: Omaha Hi/Lo, Pot Limit")
    assert game.client.schedule is not None and not game._lobby_wanted()
    assert game.buy_in is None  # tournament chips: no buy-in of the room's


def test_a_moved_player_follows_to_the_new_table_on_the_same_socket() -> None:
    game, socket, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot())
    game.take(
        event("k3x9pq2a", 5, "player_left", None, seat=1, name="Hero", player="p1", stack=1500)
    )
    assert game.client.viewer is None and not game.waiting()  # not over, and asks nothing
    reply = game.take(
        {
            "type": "moved",
            "table": "k3x9pq2a",
            "to": "m2b7c4d1",
            "text": "The tournament moves you to another table",
        }
    )
    assert reply.lines == ("The tournament moves you to another table",) and not reply.over
    assert socket.sent[-1] == {"type": "watch", "table": "m2b7c4d1"}
    assert game.client.table == "m2b7c4d1" and game.client.seats == []
    # A late event of the old table is not the new one's.
    assert (
        game.take(
            event("k3x9pq2a", 6, "sat_out", "Cy sits out", seat=2, name="Cy", timed_out=False)
        ).lines
        == ()
    )
    reply = game.take(snapshot("m2b7c4d1", tournament=block(table_number=3), seq=40))
    assert reply.lines[0].startswith("You sit in seat 1 at Sunday #1")
    assert game.client.clock_line().startswith("Sunday, table 3; Level 3")
    # Its commitment for the fair deal is sent to the new table.
    assert socket.sent[-1]["type"] == "commit" and socket.sent[-1]["table"] == "m2b7c4d1"


def test_out_the_game_waits_for_the_place_then_ends() -> None:
    game, _, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot(stacks=(0, 3000)))
    assert not game.waiting()  # no chips: no top-up at a tournament, nothing to ask
    game.take(
        event("k3x9pq2a", 5, "eliminated", "Hero is out of the tournament", seat=1, player="p1")
    )
    reply = game.take(
        event("k3x9pq2a", 6, "player_left", None, seat=1, name="Hero", player="p1", stack=0)
    )
    assert not reply.over and not game.waiting() and game._lobby_wanted()
    assert game.take({"type": LOBBY, "lobby": lobby()}).lines == ()  # not placed yet
    reply = game.take({"type": LOBBY, "lobby": lobby(entrants=out(2))})
    assert reply.over
    assert reply.lines == ("You finish Sunday in place 2 of 2.", "Session over: 0 hands played.")


def test_the_winner_is_told_when_the_last_table_closes() -> None:
    game, _, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot(stacks=(3000, 0)))
    reply = game.take(
        {
            "type": "unwatched",
            "table": "k3x9pq2a",
            "reason": "closed",
            "text": "The table is closed",
        }
    )
    assert reply.lines == ("The table is closed",) and not reply.over and game._lobby_wanted()
    cy, hero = lobby()["entrants"]
    still = lobby(status="running")  # the director has not placed them yet: the same table
    assert game.take({"type": LOBBY, "lobby": still}).lines == ()
    won = [hero | {"chips": 3000, "place": 1, "prize": 200}, cy | {"out": True, "place": 2}]
    reply = game.take({"type": LOBBY, "lobby": lobby(status="finished", entrants=won)})
    assert reply.over and reply.lines[0] == "You win Sunday: first of 2, a prize of 200."


def test_a_tournament_quit_leaves_the_screen_not_the_tournament() -> None:
    game, socket, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot())
    sent = len(socket.sent)
    reply = game.command("quit")
    assert reply.over and reply.lines[0].startswith("You leave the screen, not the tournament")
    assert len(socket.sent) == sent  # no leave: the tournament keeps the seat
    assert "lobby, tournament" in "\n".join(game.help_lines)
    assert "top up" not in "\n".join(game.help_lines)


def test_the_lobby_command_prints_the_lobby() -> None:
    game, _, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot())
    lines = game.command("lobby").lines
    assert lines == tuple(lobby_lines(lobby(), "p1", NOW))
    assert "Hero (you)" in "\n".join(lines)


# ------------------------------------------------------------------ the lobby in words


def test_the_lobby_in_words() -> None:
    assert lobby_lines(lobby(), "p1", NOW) == [
        "7. Sunday (sit-and-go, running): Omaha Hi/Lo, Pot Limit, buy-in 100 + fee 10, "
        "2 of 2 entrants",
        "Players left: 2 of 2; average stack 1500",
        "Level 3: blinds 25/50, ante 5; the next level in 4:12",
        "Prize pool: 200 (buy-in 100 + fee 10)",
        "Payouts: 1. 200",
        "Standings:",
        "  1. Cy (bot): 2000 at table 1, seat 2",
        "  2. Hero (you): 1000 at table 1, seat 1",
        "Tables: table 1 (k3x9pq2a): 2 players",
    ]
    ended = lobby_lines(lobby(status="finished", entrants=out(2, 0), players_left=1), "p1", NOW)
    assert "  2. Hero (you): out in place 2" in ended
    assert ended[-1] == "You finish Sunday in place 2 of 2."
    registering = lobby(status="registering", entries=1, entrants=[])
    assert lobby_lines(registering, None, NOW)[1] == (
        "Registering: 1 of 2 entrants; it starts when its seats are full"
    )


def test_the_lobby_takes_the_summarys_facts_from_its_settings_too() -> None:
    """A lobby whose variant, buy-in and most entrants are in its settings only."""
    facts = ("variant", "structure", "buy_in", "fee", "most_entrants", "kind")
    settings = {name: lobby()[name] for name in facts} | {"fee": 10}
    bare = {name: value for name, value in lobby().items() if name not in facts}
    assert lobby_lines(bare | {"settings": settings}, "p1", NOW) == lobby_lines(lobby(), "p1", NOW)


def test_a_long_standing_shows_the_first_rows_and_the_players_own() -> None:
    many = [
        {
            "player": f"p{n}",
            "name": f"P{n}",
            "chips": 5000 - n,
            "table": "t",
            "table_number": 1,
            "seat": 1,
            "place": None,
            "out": False,
            "prize": None,
        }
        for n in range(2, 30)
    ] + [{"player": "p1", "name": "Hero", "chips": 0, "out": True, "place": 29, "prize": None}]
    lines = lobby_lines(lobby(entrants=many, entries=29), "p1", NOW)
    rows = lines[lines.index("Standings:") + 1 :]
    assert rows[0] == "  1. P2: 4998 at table 1, seat 1"
    assert rows[10] == "  29. Hero (you): out in place 29"
    assert rows[11] == "  ... and 18 more"


def test_a_finish_with_a_prize_and_in_another_language() -> None:
    paid = lobby(entries=9, entrants=out(3, 180))
    assert finish_line(paid, "p1") == "You finish Sunday in place 3 of 9: a prize of 180."
    assert finish_line(lobby(), "p1") == ""  # not placed yet
    assert finish_line(paid, "p5") == ""  # no entrant
    japanese = words(Language.JAPANESE, "terminal")
    assert finish_line(paid, "p1", japanese)  # said, in what words the catalogue has
    assert summary_line(lobby(fee=0, buy_in=0)).endswith(
        "Omaha Hi/Lo, Pot Limit, free, 2 of 2 entrants"
    )


def test_the_schedule_comes_from_the_lobbys_settings() -> None:
    assert schedule_of(lobby()) == schedule()
    assert schedule_of(lobby(settings={})) is None
    assert schedule_of(lobby(settings={"schedule": {"clock": "weeks"}})) is None


@pytest.mark.parametrize("seconds", [0.2, 59.5, 3599.2])
def test_a_second_begun_counts(seconds: float) -> None:
    clock = TournamentClock.from_json(block(changes_at=wire_time(NOW + timedelta(seconds=seconds))))
    expected = {0.2: "0:01", 59.5: "1:00", 3599.2: "1:00:00"}[seconds]
    assert clock_line(clock, NOW).endswith(f"in {expected}")


# ------------------------------------------------------------------ at a real room

QUICK_LEVELS = {
    "clock": "hands",
    "levels": [
        {"small_blind": 10 * 2**n, "big_blind": 20 * 2**n, "ante": 0, "length": 2} for n in range(8)
    ],
}


@pytest.fixture
def client_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The client's data folder (its guests, the announced hands) in the test's folder."""
    folder = tmp_path / "client"
    monkeypatch.setenv(FOLDER_VARIABLE, str(folder))
    return folder


def hard(game: RemoteGame) -> Iterator[str]:
    """The person's lines: the lobby first, then the most they may bet each turn (all in,
    or the pot in pot limit; a call or a check when no more is allowed)."""
    yield "lobby"
    while True:
        legal = game.legal()
        if legal is None:
            yield "sit in"  # away (out of time): back
        elif legal.bet_or_raise is not None:
            yield f"{legal.bet_or_raise.value} {legal.max_to}"
        else:
            yield "allin" if legal.all_in else "call" if legal.call is not None else "check"


@pytest.mark.one_database
def test_the_terminal_client_registers_and_plays_a_sit_and_go_to_the_end(
    store: Store,
    client_folder: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Holly makes a heads-up sit-and-go with one bot; Carol finds it with ``splitpot
    tournaments``, enters it with ``splitpot play --tournament ID`` (registered by the
    client, which waits for her table), asks for the lobby, bets the most she may every turn, and
    is told her place, the lobby's, when the tournament is over for her."""
    with running_room(store) as room:
        _, token = room.guest("Holly")
        settings = {
            "name": "Practice",
            "seats": 2,
            "bots": 1,
            "buy_in": 100,
            "fee": 10,
            "starting_stack": 200,
            "schedule": QUICK_LEVELS,
        }
        with room.http(token) as http:
            made = http.post("/api/tournaments", json=settings)
        assert made.status_code == 201, made.text
        tournament = str(made.json()["tournament"]["id"])
        assert main(["tournaments", "--server", room.url]) == 0
        assert capsys.readouterr().out == (
            f"{tournament}. Practice (sit-and-go, registering): Omaha Hi/Lo, Pot Limit, "
            "buy-in 100 + fee 10, 1 of 2 entrants\n"
        )
        monkeypatch.setattr("splitpot.cli.play_lines", lambda game, _: play_lines(game, hard(game)))
        play = ["play", "--server", room.url, "--lines", "--tournament", tournament]
        assert main([*play, "--name", "Carol"]) == 0
        lines = capsys.readouterr().out.splitlines()
        with room.http(token) as http:
            final = http.get(f"/api/tournaments/{tournament}").json()
    assert final["status"] == "finished", "\n".join(lines[-40:])
    carol = next(e for e in final["entrants"] if e["name"] == "Carol")
    assert lines[0] == "You are registered in Practice."
    assert any(line.startswith("You sit in seat ") for line in lines)
    assert any(line.startswith("Practice, table 1; Level 1: blinds 10/20") for line in lines)
    assert "Standings:" in lines and any("Carol (you)" in line for line in lines)
    assert any(line.startswith("Your move: ") for line in lines)  # she acts in hand 1 or 2
    assert any(line.startswith("Carol raises to ") for line in lines)
    if carol["place"] == 1:
        assert lines[-2] == "You win Practice: first of 2, a prize of 200."
    else:
        assert "Carol is out of the tournament" in lines
        assert lines[-2] == "You finish Practice in place 2 of 2."
    assert lines[-1].startswith("Session over: ")
    assert "Refused" not in "\n".join(lines)
    assert "The tournament moves you to another table" not in lines  # one table: no move


def test_the_full_screen_game_heads_a_tournaments_table_with_its_clock() -> None:
    """The clock line over the seats, and no Sit or Top up: the tournament seats its
    players, with its own chips."""
    from rich.console import Console
    from textual.widgets import Button, Static

    from splitpot.client.game import Reply
    from splitpot.tui import PokerApp

    game, _, _ = entrant_game(lobby())
    game.client.receive(snapshot(stacks=(0, 3000)))  # broke: at a cash table, Top up

    async def shown() -> tuple[str, bool, bool]:
        app = PokerApp(game, opening=Reply(()))
        async with app.run_test(size=(120, 30)) as pilot:
            await pilot.pause()
            console = Console(width=120, record=True)
            console.print(app.query_one("#table", Static).content)
            offered = (
                bool(app.query_one("#sit", Button).display),
                bool(app.query_one("#top_up", Button).display),
            )
            app.exit([])
        return console.export_text(), *offered

    table, sit, top_up = asyncio.run(shown())
    assert table.splitlines()[0].strip() == (
        "Sunday, table 2; Level 3: blinds 25/50, ante 5; next level 40/80, ante 8 in 4:12"
    )
    assert (sit, top_up) == (False, False)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--tournament", "7"], "--tournament needs --server URL: tournaments are a room's"),
        (
            ["--server", "http://127.0.0.1:1", "--tournament", "7", "--table", "t1"],
            "--tournament ID seats you where the tournament does: no --table",
        ),
        (
            ["--server", "http://127.0.0.1:1", "--tournament", "7", "--hands", "3"],
            "--tournament plays to the end: no --hands",
        ),
    ],
)
def test_play_refuses_a_tournament_it_cannot_play(
    argv: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--lines", *argv]) == 2
    assert capsys.readouterr().err == f"splitpot play: error: {said}\n"


def test_the_tournaments_of_a_room_out_of_reach_are_one_line_and_status_1(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["tournaments", "--server", "http://127.0.0.1:1"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("splitpot tournaments: cannot reach the room at http://127.0.0.1:1")
    assert err.count("\n") == 1


def test_waiting_for_the_start_another_tables_snapshot_is_not_taken_for_the_tournaments() -> None:
    """A hello sends the table of every seat the player has: while the entrant waits for
    the tournament's table, a cash table's is not it."""
    waiting = lobby(status="registering", entrants=[], tables=[], started_at=None)
    game, socket, _ = entrant_game(waiting)
    game._sign_in = lambda: []  # type: ignore[method-assign]
    game.start()
    cash = snapshot("c4sh7ab1")
    cash["state"] = cash["state"] | {"tournament": None}
    assert game.take(cash).lines == () and game.client.table is None
    game.take({"type": LOBBY, "lobby": lobby()})
    assert socket.sent == [{"type": "watch", "table": "k3x9pq2a"}]
    assert game.take(snapshot()).lines[0].startswith("You sit in seat 1 at Sunday #1")


def test_a_refusal_of_a_command_the_seats_end_made_moot_is_not_told() -> None:
    """The last hand over, the winner's commitment for a hand that will not come is
    refused as the table closes: nothing to tell. A refusal while seated is told."""
    game, _, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot())
    refused = {"type": "error", "code": "unknown_table", "message": "table k3x9pq2a is gone"}
    assert game.take(refused).lines == ("Refused: table k3x9pq2a is gone.",)
    game.take(
        event(
            "k3x9pq2a",
            5,
            "player_left",
            "Hero leaves the table with 3000",
            seat=1,
            name="Hero",
            player="p1",
            stack=3000,
        )
    )
    assert game.take(refused).lines == ()


def test_moved_not_told_where_the_lobby_says_the_table_or_the_end() -> None:
    game, socket, _ = entrant_game(lobby())
    game.client.table = "k3x9pq2a"
    game.take(snapshot())
    moved = {"type": "moved", "table": "k3x9pq2a", "to": None, "text": "Moved"}
    assert game.take(moved).lines == () and game._lobby_wanted()
    cy, hero = lobby()["entrants"]
    there = lobby(entrants=[cy, hero | {"table": "m2b7c4d1", "table_number": 2}])
    assert game.take({"type": LOBBY, "lobby": there}).lines == ("Moved",)
    assert socket.sent[-1] == {"type": "watch", "table": "m2b7c4d1"}
    # The last table's end: the winner told no move, but the win.
    game.take(snapshot("m2b7c4d1", seq=9))
    game.take({"type": "moved", "table": "m2b7c4d1", "to": None, "text": "Moved"})
    won = [hero | {"place": 1, "prize": 200}, cy | {"out": True, "place": 2}]
    reply = game.take({"type": LOBBY, "lobby": lobby(status="finished", entrants=won)})
    assert reply.lines[0] == "You win Sunday: first of 2, a prize of 200." and reply.over
