"""The terminal game at the room, over the network (PROTOCOL.md): a guest identity and
the lobby over HTTP (httpx), the table over the WebSocket (websockets), and a connection
that comes back by itself after a drop (``hello`` again with the same token; the room then
sends the whole table, and the turn when it is the player's).
"""

from __future__ import annotations

import json
import logging
import threading
import time
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import ExitStack
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import httpx
from websockets.exceptions import ConnectionClosed, WebSocketException
from websockets.sync.client import ClientConnection, connect

from splitpot.client.announced import Announcements, unrevealed, verdict
from splitpot.client.entropy import Entropy
from splitpot.client.game import Game, Reply, help_text
from splitpot.client.identity import Identities
from splitpot.client.state import Frame, RoomMessage, TableClient
from splitpot.client.stats import stats_lines, stats_scope
from splitpot.client.tournament import (
    entrant_of,
    fact,
    finish_line,
    lobby_lines,
    placed,
    schedule_of,
    table_of,
)
from splitpot.dealer import game_title
from splitpot.i18n import ENGLISH, Language, Words
from splitpot.protocol import betting_from_json
from splitpot.rules import Variant

RECONNECTED = "reconnected"  # the connection's own frame: it dropped and is open again
LOBBY = "tournament_lobby"  # the game's own frame: the tournament's lobby, read over HTTP
POLL_SECONDS = 1.0  # how often the lobby is read while the game waits on it
OPENING = 30  # watches of a tournament's table tried before its refusal is believed
# The commands whose answer is awaited before the person is asked again.
AWAITED = ("act", "run_it", "sit", "sit_out", "sit_in", "leave", "top_up")


def seated_help(words: Words = ENGLISH) -> tuple[str, ...]:
    """The room's own commands, for the help."""
    say = words.say
    return (
        say("  sit [SEAT [BUYIN]]  sit down (the first free seat, the most chips, by default)"),
        say("  sit out, sit in     miss the next hands, or come back"),
        say("  top up [N], rebuy   add chips between your hands (up to the most a buy-in takes)"),
        say(
            "  show losing on|off  show your losing hands at the showdown "
            "(off: mucked, the default)"
        ),
        say(
            "  verify, verify N    check the last hand's deal (or N back) against its announcement"
        ),
        say("  stats [table]       the hi/lo statistics of this session (or the whole table)"),
    )


def tournament_help(words: Words = ENGLISH) -> tuple[str, ...]:
    """The commands of a tournament's table, for the help."""
    say = words.say
    return (
        say("  lobby, tournament   the tournament: players left, level, prizes, standings"),
        say("  sit out, sit in     step away (your hands are still dealt), or come back"),
        say(
            "  verify, verify N    check the last hand's deal (or N back) against its announcement"
        ),
        say("  stats [table]       the hi/lo statistics of this session (or the whole table)"),
    )


SEATED_HELP = seated_help()


class RemoteError(ConnectionError):
    """The room could not be reached, or refused the client; the message says which."""


class UnknownToken(RemoteError):
    """The room does not know the token the client said hello with (a room started
    afresh, or a session ended): a new guest is needed."""


def socket_url(url: str) -> str:
    """The room's WebSocket for its web address: http://host:8000 -> ws://host:8000/ws."""
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https") or not parts.netloc:
        raise RemoteError(f"the room's address is http://HOST:PORT or https://..., not {url!r}")
    scheme = "wss" if parts.scheme == "https" else "ws"
    return urlunsplit((scheme, parts.netloc, parts.path.rstrip("/") + "/ws", "", ""))


NO_TABLE = ("forbidden", "unknown_table")  # why a watch can be refused
EARLY = "commit-with-sit"  # the ref of the commitment sent right behind a sit
FAIR_DEAL = "fair-deal"  # the ref of a reveal or commitment sent as a hand starts
MOOT = ("unknown_table", "not_seated")  # a seat command refused as its seat or table ended

# The WebSocket's own reports (a keepalive ping unanswered, with its traceback) are kept
# off the screen: the client says in one line that the connection dropped, or is lost.
SOCKET_LOG = logging.getLogger("splitpot.client.socket")
SOCKET_LOG.addHandler(logging.NullHandler())
SOCKET_LOG.propagate = False


class Lobby:
    """The room's HTTP API as the terminal game uses it: a guest identity, the public
    tables, and the last hands of a table as the player may see them."""

    def __init__(
        self,
        url: str,
        timeout: float = 10.0,
        invite: str | None = None,
        words: Words = ENGLISH,
    ) -> None:
        self.url = url.rstrip("/")
        self.words = words
        self.servers = [self.url]  # the room's processes (its welcome names them)
        self.token: str | None = None
        self.invite = invite  # a private table's invite, sent with every table request
        self._http = httpx.Client(timeout=timeout)

    def _call(self, method: str, path: str, **options: Any) -> httpx.Response:
        """A request to the process in use, or, when it cannot be reached, the others."""
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        if self.words.language is not Language.ENGLISH:  # the room's messages in it too
            headers["Accept-Language"] = self.words.language.value
        others = [server for server in self.servers if server != self.url]
        failure: httpx.HTTPError | None = None
        for url in [self.url, *others]:
            try:
                answer = self._http.request(method, url + path, headers=headers, **options)
            except httpx.HTTPError as error:
                failure = error
                continue
            self.url = url
            break
        else:
            said = self.words.say(
                "cannot reach the room at {url}: {reason}", url=self.url, reason=failure
            )
            raise RemoteError(said) from failure
        if answer.is_error:
            try:
                message = answer.json()["error"]["message"]
            except (ValueError, KeyError, TypeError):
                message = answer.text[:200]
            raise RemoteError(
                self.words.say(
                    "the room refused {method} {path}: {reason}",
                    method=method,
                    path=path,
                    reason=message,
                )
            )
        return answer

    def guest(self, name: str) -> None:
        """Become a new guest named ``name``: the token is kept for every later call."""
        self.token = str(self._call("POST", "/api/guests", json={"name": name}).json()["token"])

    def tables(self) -> list[dict[str, Any]]:
        tables: list[dict[str, Any]] = self._call("GET", "/api/tables").json()["tables"]
        return tables

    def hands(self, table: str) -> list[str]:
        """The ids of the table's last hands, newest first (RULES.md 6: the last 50)."""
        answer = self._call("GET", f"/api/tables/{table}/hands", params=self._params(limit=50))
        return [str(hand["id"]) for hand in answer.json()["hands"]]

    def hand_record(self, hand: str) -> dict[str, Any]:
        """One hand's splitpot JSON record, as the player may see it."""
        record: dict[str, Any] = self._call(
            "GET", f"/api/hands/{hand}", params=self._params()
        ).json()
        return record

    def hand_text(self, hand: str) -> list[str]:
        """One hand as PokerStars text, as the player may see it."""
        answer = self._call("GET", f"/api/hands/{hand}", params=self._params(format="pokerstars"))
        return answer.text.strip().splitlines()

    def tournaments(self, finished: bool = False) -> list[dict[str, Any]]:
        """The room's public tournaments (``finished``: the ended ones too)."""
        params = {"finished": "true"} if finished else {}
        found: list[dict[str, Any]] = self._call("GET", "/api/tournaments", params=params).json()[
            "tournaments"
        ]
        return found

    def tournament(self, tournament: str, invite: str | None = None) -> dict[str, Any]:
        """A tournament's lobby (docs/protocol.md "Tournaments")."""
        params = {"invite": invite} if invite else {}
        path = f"/api/tournaments/{tournament}"
        lobby: dict[str, Any] = self._call("GET", path, params=params).json()
        return lobby

    def register(self, tournament: str, invite: str | None = None) -> None:
        """Enter the tournament: its buy-in and fee from the player's balance."""
        body = {"invite": invite} if invite else {}
        self._call("POST", f"/api/tournaments/{tournament}/register", json=body)

    def stats(self, table: str, scope: str) -> dict[str, Any]:
        """The table's statistics over ``scope`` (docs/protocol.md "Statistics")."""
        path = f"/api/tables/{table}/stats"
        answer: dict[str, Any] = self._call("GET", path, params=self._params(scope=scope)).json()
        return answer

    def _params(self, **params: Any) -> dict[str, Any]:
        return params | ({"invite": self.invite} if self.invite else {})

    def close(self) -> None:
        self._http.close()


class Connection:
    """The room's WebSocket for one player. ``receive`` gives the room's frames; when the
    connection drops it is opened again (``hello`` with the same token, and the last
    ``watch`` again), and ``receive`` gives ``{"type": "reconnected"}``; after
    ``patience`` seconds of failed tries it raises ``RemoteError``. A room of several
    processes names them in its welcome (``servers``): the tries go round them."""

    def __init__(
        self, url: str, token: str, patience: float = 60.0, words: Words = ENGLISH
    ) -> None:
        self.url = url
        self.words = words  # the language asked of the room in the hello
        self.urls = [url]  # the room's processes' sockets, the one in use first
        self.servers: list[str] = []  # their web addresses, as the last welcome named them
        self.token = token
        self.patience = patience
        self.socket: ClientConnection | None = None  # the live connection
        self.closed = False  # closed by this side: no reconnecting
        self._watch: RoomMessage | None = None
        self._lock = threading.Lock()
        self._sockets = ExitStack()  # every connection opened, each closed at the end

    def open(self) -> Frame:
        """Connect and say hello; the room's ``welcome``."""
        try:
            socket = self._sockets.enter_context(
                connect(self.url, open_timeout=10, max_size=2**22, logger=SOCKET_LOG)
            )
        except (OSError, TimeoutError, WebSocketException) as error:
            said = self.words.say(
                "cannot reach the room at {url}: {reason}", url=self.url, reason=error
            )
            raise RemoteError(said) from error
        try:
            hello = {"type": "hello", "token": self.token, "lang": self.words.language.value}
            socket.send(json.dumps(hello))
            welcome: dict[str, Any] = json.loads(socket.recv(timeout=10))
            if welcome.get("type") != "welcome":
                refused = UnknownToken if welcome.get("code") == "unauthorized" else RemoteError
                raise refused(
                    self.words.say(
                        "the room refused the hello: {reason}", reason=welcome.get("message")
                    )
                )
            self._learn(welcome.get("servers"))
            if self._watch is not None:
                socket.send(json.dumps(self._watch))
        except RemoteError:  # a ConnectionError, so an OSError: said as it is
            socket.close()
            raise
        except (OSError, TimeoutError, WebSocketException) as error:
            socket.close()
            said = self.words.say(
                "the room at {url} did not answer: {reason}", url=self.url, reason=error
            )
            raise RemoteError(said) from error
        with self._lock:
            self.socket = socket
        return welcome

    def _learn(self, servers: object) -> None:
        """The room's processes, as its welcome names them (this one first)."""
        if not isinstance(servers, list):
            return
        known = {}  # web address -> its socket
        for server in servers:
            try:
                known[str(server).rstrip("/")] = socket_url(str(server))
            except RemoteError:
                continue
        self.servers = list(known)
        self.urls = [self.url, *(url for url in known.values() if url != self.url)]

    def send(self, command: RoomMessage) -> bool:
        """Send a command; False when the connection is down (it is being opened again,
        and the command is not sent: the room will say where the game stands)."""
        if command.get("type") == "watch":
            self._watch = command
        with self._lock:
            socket = self.socket
        if socket is None:
            return False
        try:
            socket.send(json.dumps(command))
        except (OSError, WebSocketException):
            return False
        return True

    def receive(self, timeout: float | None = None) -> Frame | None:
        """The next frame (None: none within ``timeout``, or closed by this side)."""
        socket = self.socket
        if socket is None or self.closed:
            return None
        try:
            text = socket.recv(timeout=timeout)
        except TimeoutError:
            return None
        except (ConnectionClosed, OSError):
            if self.closed:
                return None
            self._reopen()
            return {"type": RECONNECTED}
        frame: dict[str, Any] = json.loads(text)
        return frame

    def _reopen(self) -> None:
        """Try again and again, a little longer between tries, for ``patience`` seconds."""
        with self._lock:
            self.socket = None
        give_up, pause, tried = time.monotonic() + self.patience, 0.05, 0
        while True:
            try:
                self.open()
                return
            except RemoteError as error:
                if self.closed or time.monotonic() + pause > give_up:
                    patience = f"{self.patience:g}"
                    raise RemoteError(
                        self.words.say(
                            "the connection to the room dropped and did not come back in "
                            "{seconds} s: {reason}",
                            seconds=patience,
                            reason=error,
                        )
                    ) from error
            tried += 1  # the same process once more, then round the others
            self.url = self.urls[tried % len(self.urls)]
            time.sleep(pause)
            pause = min(2 * pause, 2.0)

    def close(self) -> None:
        self.closed = True
        self._sockets.close()


class RemoteGame(Game):
    """The person at a table of the room at ``url``, as a guest called ``name``: at
    ``table``, or at the one they pick from the lobby; for ``max_hands`` hands at most.
    Or an entrant of ``tournament`` (RULES.md 8): registered if not yet, then at the
    table where the tournament seats them, following them to each table it moves them
    to, until they are out and placed, or have won.

    The line game reads a line when the game waits for one: the table to watch, the seat
    to take, each turn, while the person sits out, and when they have no chips left."""

    def __init__(
        self,
        url: str,
        name: str,
        *,
        table: str | None = None,
        invite: str | None = None,
        max_hands: int | None = None,
        patience: float = 60.0,
        announced: Path | None = None,
        identities: Identities | None = None,
        new: bool = False,
        words: Words = ENGLISH,
        tournament: str | None = None,
    ) -> None:
        """``invite``: a private table's invite, or with ``tournament`` the tournament's.
        ``announced``: the folder where the hands' announcements are kept (FAIRNESS.md
        "What the player's own client checks"); None keeps them in memory only.
        ``identities``: where the guest is kept from one run to the next (None: a new
        guest, kept nowhere); ``new``: a new guest all the same, kept in the old one's place.
        ``words``: the person's language, asked of the room too (``lang`` in the hello)."""
        super().__init__(TableClient(table, words), name)
        self.url = url
        self.table_id = table
        self.max_hands = max_hands
        self.patience = patience
        self.rooms = Lobby(url, invite=None if tournament else invite, words=words)
        self.tournament_id = tournament  # the tournament the person plays, or watches
        self.tournament_invite = invite if tournament else None
        self.entrant = tournament is not None  # the person plays in it (not just watches)
        self.player_id: str | None = None  # the room's id of the person (its welcome's)
        self._seeking = False  # an entrant without a table: the lobby says where they sit
        self._closed: set[str] = set()  # tables the room sends no more of
        self._entries: int | None = None  # the entries last told while registering
        self._lobby_failed = False  # the last read of the lobby failed (told once)
        self._refused = 0  # watches refused in a row (a tournament's table not open yet)
        self._asked_schedule = False  # the lobby was read for the levels' schedule
        self._moved_text: list[str] = []  # a move's words, until the lobby names the table
        self.connection: Connection | None = None
        self._tables: list[dict[str, Any]] | None = None  # the lobby, while choosing
        self._asked: tuple[object, ...] | None = None  # where a command left the game
        self._hands: list[str] = []  # the table's last hands (``last``), newest first
        self.entropy = Entropy()  # the fair deal: our commitment for the next hand
        self.folder = announced
        self.announced: Announcements | None = None  # what the room told before each deal
        self._checker = ThreadPoolExecutor(1, thread_name_prefix="deal-checks")
        self._checks: list[Future[list[str]]] = []  # each finished hand's, in order
        self.leaving = False  # the person asked to leave: the game ends when they have
        self.identities = identities
        self.new = new

    @property
    def help_lines(self) -> tuple[str, ...]:
        common = help_text(self.words)
        if self.tournament_id is not None or self.client.tournament is not None:
            # The tournament seats its players, and plays no straddle and no rabbit hunt:
            # the commands of a cash table go (the commands are English in every language).
            cash = ("straddle", "rabbit", "wait", "quit")
            kept = [line for line in common if line.split()[0].rstrip(",") not in cash]
            quit_line = self.words.say(
                "  quit                leave the screen; your seat stays in the tournament"
            )
            return (*kept[:-2], *tournament_help(self.words), *kept[-2:], quit_line)
        return (*common[:-2], *seated_help(self.words), *common[-2:])

    # ------------------------------------------------------------ the game

    def start(self) -> Reply:
        """A guest identity, the WebSocket, then the table or the lobby."""
        socket_url(self.url)  # a bad address is refused before the room is asked
        said = self._sign_in()
        if self.tournament_id is not None:
            return self._enter(said)
        if self.table_id is not None:
            return Reply((*said, *self._watch(self.table_id)))
        tables = self.rooms.tables()
        say = self.words.say
        if not tables:
            none = say("The room at {url} has no public table yet.", url=self.url)
            return Reply((*said, none), over=True)
        self._tables = tables
        lines = [say("Tables:"), *(f"  {line}" for line in self.lobby())]
        return Reply((*said, *lines, say("Pick a table: its number (enter: the first).")))

    def _sign_in(self) -> list[str]:
        """The guest kept for this name at this room, or a new one (then kept), and the
        WebSocket open; what the person is told of it."""
        kept = None
        if self.identities is not None and not self.new:
            kept = self.identities.token(self.url, self.name)
        if kept is not None:
            self.rooms.token = kept
            try:
                self._connect(kept)
                return [
                    self.words.say(
                        "You play as {name} again, the guest you were at this room "
                        "(--new for a new one).",
                        name=self.name,
                    )
                ]
            except UnknownToken:
                pass  # the room has forgotten that guest: a new one
        self.rooms.guest(self.name)
        assert self.rooms.token is not None
        self._connect(self.rooms.token)
        return self._keep(self.rooms.token)

    def _connect(self, token: str) -> None:
        """The WebSocket, hello said with ``token``; the room's processes learnt."""
        self.connection = Connection(socket_url(self.url), token, self.patience, self.words)
        welcome = self.connection.open()
        player = welcome.get("player")
        if isinstance(player, dict) and player.get("id") is not None:
            self.player_id = str(player["id"])
        if self.connection.servers:
            self.rooms.servers = self.connection.servers

    def _keep(self, token: str) -> list[str]:
        """Keep a new guest's token for the next runs; a line if it cannot be kept."""
        if self.identities is None:
            return []
        try:
            self.identities.keep(self.url, self.name, token)
        except OSError as error:
            return [
                self.words.say(
                    "Your guest could not be kept in {path} ({reason}): the next run is a new "
                    "guest.",
                    path=self.identities.path,
                    reason=error.strerror,
                )
            ]
        return []

    def lobby(self) -> list[str]:
        tables = enumerate(self._tables or (), 1)
        return [f"{n}. {_table_words(table, self.words)}" for n, table in tables]

    def waiting(self) -> bool:
        """The lobby; a seat to take; a turn; or sitting out. Not while a command the
        person gave is still on its way (the game waits for the room's answer)."""
        if self._tables is not None:
            return True
        if not self.client.summary or self.leaving or self._seeking:
            return False
        if self._asked is not None and self._asked == self._prompt():
            return False
        me, client = self.client.me(), self.client
        if client.tournament is not None and self.entrant:
            # Out (the lobby places them), or moved (the next table comes): nothing to ask.
            away = me is not None and me.status == "sitting_out"
            return me is not None and (client.turn is not None or client.vote is not None or away)
        asked = client.turn is not None or client.vote is not None
        return me is None or asked or me.status == "sitting_out" or client.broke()

    def listen(self) -> Iterator[Frame]:
        """The room's frames as they come, until the connection is closed; a connection
        that cannot be opened again ends them with ``{"type": "lost", "message"}``."""
        read = 0.0  # when the tournament's lobby was read last
        while self.connection is not None and not self.connection.closed:
            timed = self.tournament_id is not None or self.client.tournament is not None
            try:
                frame = self.connection.receive(POLL_SECONDS if timed else None)
            except RemoteError as error:
                yield {"type": "lost", "message": str(error)}
                return
            if frame is not None:
                yield frame
            if self._lobby_wanted() and time.monotonic() - read >= POLL_SECONDS:
                read = time.monotonic()
                yield self._read_lobby()

    def _lobby_wanted(self) -> bool:
        """Whether the game waits on the tournament's lobby: for the entrant's table, for
        their place once out, or for the schedule that tells the levels to come."""
        if self.tournament_id is None:
            return False
        out = self.entrant and self.client.out
        return self._seeking or out or (self.client.schedule is None and not self._asked_schedule)

    def _read_lobby(self) -> Frame:
        """The tournament's lobby as the game's own frame (read on the frames' thread)."""
        assert self.tournament_id is not None
        self._asked_schedule = True  # once for it (a watcher may not see a private lobby)
        try:
            lobby = self.rooms.tournament(self.tournament_id, self.tournament_invite)
        except RemoteError as error:
            return {"type": LOBBY, "error": str(error)}
        return {"type": LOBBY, "lobby": lobby}

    def take(self, frame: Frame) -> Reply:
        kind = frame.get("type")
        if kind == LOBBY:
            return self._lobby_news(frame)
        if kind == "moved":
            return self._moved(frame)
        if self._seeking and self.client.table is None and kind in ("table", "event", "turn"):
            return Reply(())  # another table of the player's (a hello's): not the tournament's
        reply = self._take(frame)
        if reply.over or self.client.tournament is None:
            if kind == "unwatched" and frame.get("table") == self.client.table:
                return Reply((*reply.lines, *self.summary()), over=True)  # nothing more comes
            return reply
        if self.tournament_id is None:
            self.tournament_id = self.client.tournament.id  # a tournament's table, watched
        if self.client.viewer is not None:
            self.entrant = True
        if kind == "unwatched" and frame.get("table") == self.client.table:
            self._closed.add(str(frame["table"]))
            if not self.entrant:
                return Reply((*reply.lines, *self.summary()), over=True)
            self._seeking = not self.client.out  # the lobby says where, or the place
        return reply

    def _seat_gone(self, refused: Frame) -> bool:
        """Whether a refusal is of a seat command the end of the entrant's seat made moot
        (out, the winner, or moved): their commitment for a hand no more to come, say."""
        gone = self.entrant and self.client.tournament is not None and self.client.viewer is None
        return gone and refused.get("code") in MOOT

    def _opening(self) -> bool:
        """Whether an entrant's watch refused may be of a table the tournament has made
        and the room not opened yet: tried again with the lobby, ``OPENING`` times."""
        if not self.entrant or self.tournament_id is None or self._refused >= OPENING:
            return False
        self._refused += 1
        return True

    def _enter(self, said: list[str]) -> Reply:
        """An entrant's start: the lobby; registered if not yet; then the table where the
        tournament seats them, or a wait for its start (the lobby is read meanwhile)."""
        assert self.tournament_id is not None
        say, tournament = self.words.say, self.tournament_id
        lobby = self.rooms.tournament(tournament, self.tournament_invite)
        name, status = lobby.get("name", ""), lobby.get("status")
        lines = list(said)
        if entrant_of(lobby, self.player_id) is not None:
            lines.append(say("You are in {name}.", name=name))
        elif status in ("registering", "running"):
            self.rooms.register(tournament, self.tournament_invite)
            lobby = self.rooms.tournament(tournament, self.tournament_invite)
            lines.append(say("You are registered in {name}.", name=name))
        else:
            lines.append(say("{name} is over; you were not in it.", name=name))
            return Reply(tuple(lines), over=True)
        self._seeking = True
        news = self._lobby_news({"type": LOBBY, "lobby": lobby})
        return Reply((*lines, *news.lines), over=news.over)

    def _lobby_news(self, frame: Frame) -> Reply:
        """The tournament's lobby, read again: the schedule learnt; for an entrant waiting,
        the entries so far, then the table to watch; once out (or the winner), the place."""
        if "error" in frame:
            failed, self._lobby_failed = self._lobby_failed, True
            waiting = self._seeking or self.client.out
            return Reply(() if failed or not waiting else (str(frame["error"]),))
        lobby, say = frame["lobby"], self.words.say
        self._lobby_failed = False
        if self.client.schedule is None:
            self.client.schedule = schedule_of(lobby)
        if not self.entrant or not (self._seeking or self.client.out):
            return Reply(())
        if placed(lobby, self.player_id):
            self._seeking = False
            finish = finish_line(lobby, self.player_id, self.words)
            return Reply((finish, *self.summary()), over=True)
        status = lobby.get("status")
        if status == "cancelled":
            said = say(
                "{name} is called off: too few entrants. Every entry is paid back.",
                name=lobby.get("name", ""),
            )
            return Reply((said, *self.summary()), over=True)
        table = table_of(lobby, self.player_id)
        if self._seeking and table is not None and table not in self._closed:
            self._seeking, moved, self._moved_text = False, self._moved_text, []
            return Reply((*moved, *self._watch(table)))
        entries = int(lobby.get("entries") or 0)
        if self._seeking and status == "registering" and entries != self._entries:
            self._entries = entries
            return Reply((self._entries_words(lobby, entries),))
        return Reply(())

    def _entries_words(self, lobby: Frame, entries: int) -> str:
        """The entries so far of a tournament still registering, and when it starts."""
        said = {
            "entries": self.words.number(entries),
            "most": self.words.number(int(fact(lobby, "most_entrants") or 0)),
        }
        if fact(lobby, "kind") == "scheduled":
            return self.words.say(
                "{entries} of {most} entrants: the tournament starts at its time ('lobby' "
                "tells when).",
                **said,
            )
        return self.words.say(
            "{entries} of {most} entrants: the tournament starts when its seats are full.", **said
        )

    def _moved(self, frame: Frame) -> Reply:
        """RULES.md 8: the tournament moved the player to another table; the game follows
        them there on the same connection (or, not told where, the lobby says)."""
        if frame.get("table") != self.client.table:
            return Reply(())
        lines = [str(frame["text"])] if frame.get("text") else []
        self._closed.add(str(frame["table"]))
        self._asked = None
        to = frame.get("to")
        if not to:  # told once the lobby names the table (at the end, there is none)
            self._seeking, self._moved_text = True, lines
            return Reply(())
        return Reply((*lines, *self._watch(str(to))))

    def _take(self, frame: Frame) -> Reply:
        kind = frame.get("type")
        if kind == "lost":
            return Reply((str(frame["message"]),), over=True)
        if kind == RECONNECTED:
            self._asked = None
            return Reply((self.words.say("The connection dropped; it is open again."),))
        if kind == "error" and frame.get("ref") == EARLY:
            self.entropy = Entropy()  # the seat was refused: the commitment with it too
            return Reply(())
        if kind == "error" and frame.get("ref") == FAIR_DEAL and frame.get("code") in MOOT:
            # The hand ended and its table closed (a tournament's last) before this client
            # read its start: nothing is left to commit to.
            self.entropy = Entropy()
            return Reply(())
        if kind in ("error", "table"):
            self._asked = None  # the answer came: the game stands where the room says
        watching = self.client.viewer is None and not self.client.summary
        if kind == "error" and watching and frame.get("code") in NO_TABLE and self._opening():
            self._seeking = True  # its table is not open yet: the lobby is read again
            return Reply(())
        if kind == "error" and not watching and self._seat_gone(frame):
            self.entropy = Entropy()  # a commitment sent for a hand the seat will not play
            return Reply(())
        reply = super().take(frame)
        if kind == "error" and watching and frame.get("code") in NO_TABLE:
            raise RemoteError(
                self.words.say(
                    "table {table}: {reason}", table=self.client.table, reason=frame.get("message")
                )
            )
        lines = list(reply.lines)
        if kind == "table" and watching and self.client.summary:
            self._refused = 0
            lines += self._welcome()
        lines += self._fair_deal(frame) + self._broke(frame)
        if self.buy_in is None and self.client.me() is not None and self.client.tournament is None:
            me = self.client.me()
            assert me is not None
            self.buy_in = me.stack
        if (
            not reply.over
            and self.max_hands is not None
            and self.client.tournament is None
            and self.client.hands_played >= self.max_hands
            and not self.leaving
        ):
            leaving = self.send({"type": "leave", "table": self.client.table})  # first: in time
            lines += self._checked(frame)
            lines.append(self.last_of(self.max_hands))
            return self._reply(lines + leaving)
        if reply.over:  # the hands' checks before the session's summary
            return Reply((*self._checked(frame, wait=True), *lines), over=True)
        return Reply((*lines, *self._checked(frame)))

    def _broke(self, frame: Frame) -> list[str]:
        """At the end of the hand that took the person's last chip: how to play on."""
        event = frame.get("event") if frame.get("type") == "event" else None
        if event is None or event.get("kind") != "hand_ended" or not self.client.broke():
            return []
        if self.client.tournament is not None:
            return []  # out of the tournament: its event says so
        low, high = self.client.summary["min_buy_in"], self.client.summary["max_buy_in"]
        return [
            self.words.say(
                "You have no chips left: 'top up' ({low} to {high}) to play on, or quit.",
                low=low,
                high=high,
            )
        ]

    def _checked(self, frame: Frame, wait: bool = False) -> list[str]:
        """A hand's end starts its check (the record fetched on a thread of its own, so
        the game answers the room meanwhile); the words of the checks done so far, in
        order, or with ``wait`` of every check started."""
        event = frame.get("event") if frame.get("type") == "event" else None
        if event is not None and event.get("kind") == "hand_ended":
            hand = str(event.get("hand"))
            self._checks.append(self._checker.submit(self._check_hand, hand))
        lines: list[str] = []
        while self._checks and (wait or self._checks[0].done()):
            lines += self._checks.pop(0).result()
        return lines

    def _fair_deal(self, frame: Frame) -> list[str]:
        """Commit once seated; reveal when a hand's start lists the seat (FAIRNESS.md 3);
        keep every announcement and hold each finished hand's record against it."""
        table, seat = self.client.table, self.client.viewer
        event = frame.get("event") if frame.get("type") == "event" else None
        kind = None if event is None else event.get("kind")
        if self.connection is None or table is None:
            return []
        if self.announced is None or self.announced.table != table:
            self.announced = Announcements(self.folder, self.url, table, self.words)
        lines: list[str] = []
        commands = []
        if event is not None and kind == "hand_started":
            dealt = seat is not None and any(s["seat"] == seat for s in event.get("seats", []))
            lines += self.announced.started(
                event, seat if dealt else None, self.entropy.commitment if dealt else None
            )
            if seat is not None:
                commands = self.entropy.answer(table, seat, event)
        elif event is not None and kind == "hand_cancelled":
            lines += self.announced.cancelled(str(event.get("hand")))
        if seat is not None and not self.entropy.committed and not commands:
            commands = [self.entropy.commit(table)]
        for command in commands:
            if command["type"] == "reveal":
                self.announced.revealed(str(command["hand"]), str(command["entropy"]))
            self.connection.send(command | {"ref": FAIR_DEAL})
        return lines

    def _verify_command(self, words: list[str]) -> list[str]:
        """``verify [N]``: the deal of the hand N back checked against its announcement."""
        say = self.words.say
        if len(words) > 1 or (words and not words[0].isdecimal()):
            given = repr(" ".join(words))
            return [
                say("verify takes how many hands back, like 'verify 3', not {given}", given=given)
            ]
        back, kept = int(words[0]) if words else 1, self.hands_kept()
        if not 1 <= back <= kept:
            return [
                self.words.say_n(
                    "No hand {back} back: {count} finished hand kept.",
                    "No hand {back} back: {count} finished hands kept.",
                    kept,
                    back=back,
                )
            ]
        hand = self._hands[back - 1]
        return self._check_hand(hand) or [
            say(
                "Hand {hand}: this client kept no announcement of it (it was not here when the "
                "hand was announced), so only the record itself can be checked: splitpot verify.",
                hand=hand,
            )
        ]

    def _stats_command(self, words: list[str]) -> list[str]:
        """``stats [session|table]``: the table's hi/lo statistics (client/stats.py)."""
        table = self.client.table
        if table is None:
            return [self.words.say("No table yet: stats are a table's.")]
        try:
            scope = stats_scope(words, self.words)
            return stats_lines(self.rooms.stats(table, scope), self.words)
        except (ValueError, RemoteError) as error:
            return [str(error)]

    def _check_hand(self, hand: str) -> list[str]:
        """A hand's record against its announcement, in words (nothing if none was kept)."""
        if self.announced is None or self.announced.of(hand) is None:
            return []
        try:
            record = self.rooms.hand_record(hand)
        except RemoteError as error:
            return [
                self.words.say(
                    "Hand {hand} could not be fetched to check its deal: {reason}",
                    hand=hand,
                    reason=error,
                )
            ]
        own = self.announced.of(hand)
        seat = None if own is None else own.seat
        checks = self.announced.check(record)
        return verdict(hand, checks, self.words) + unrevealed(record, seat, self.words)

    def command(self, text: str) -> Reply:
        """In the lobby: a table's number or id (``quit`` and ``help`` as ever)."""
        word = text.strip().lower()
        if self._tables is None and word in ("lobby", "tournament"):
            return Reply(tuple(self._lobby_command()))
        if self._tables is None and word in ("quit", "exit") and self._in_tournament():
            return self.quit()
        if self._tables is None and word.split()[:1] == ["verify"]:
            return Reply(tuple(self._verify_command(word.split()[1:])))
        if self._tables is None and word.split()[:1] == ["stats"]:
            return Reply(tuple(self._stats_command(word.split()[1:])))
        if self._tables is None or word in ("quit", "exit", "help"):
            return super().command(text)
        tables = self._tables
        chosen = tables[0] if not word else None
        for number, table in enumerate(tables, start=1):
            if word in (str(number), str(table["id"]).lower()):
                chosen = table
        if chosen is None:
            said = self.words.say(
                "Pick a table by its number, 1 to {most}, not {given}.",
                most=len(tables),
                given=repr(text),
            )
            return Reply((said,))
        self._tables = None
        return Reply(tuple(self._watch(str(chosen["id"]))))

    def _in_tournament(self) -> bool:
        """Whether the person plays a tournament and sits at its table."""
        return self.entrant and self.client.tournament is not None and self.client.me() is not None

    def _lobby_command(self) -> list[str]:
        """``lobby`` (or ``tournament``): the tournament's lobby in words."""
        tournament = self.tournament_id
        if tournament is None:
            return [self.words.say("This is no tournament's table: 'lobby' is a tournament's.")]
        try:
            lobby = self.rooms.tournament(tournament, self.tournament_invite)
        except RemoteError as error:
            return [str(error)]
        if self.client.schedule is None:
            self.client.schedule = schedule_of(lobby)
        return lobby_lines(lobby, self.player_id, self.client.clock(), self.words)

    def quit(self) -> Reply:
        """At a tournament's table the person leaves the screen, not the tournament: no
        one leaves a tournament with chips (RULES.md 8)."""
        if not self._in_tournament():
            return super().quit()
        said = self.words.say(
            "You leave the screen, not the tournament: your hands are dealt and your blinds "
            "posted while you are away (splitpot play --tournament {id} brings you back).",
            id=self.tournament_id,
        )
        return Reply((said, *self.summary()), over=True)

    def summary(self) -> list[str]:
        """At a tournament, the hands played (its chips are not the room's)."""
        if self.tournament_id is None or not self.entrant:
            return super().summary()
        played = self.client.hands_played
        return [
            self.words.say_n(
                "Session over: {count} hand played.", "Session over: {count} hands played.", played
            )
        ]

    def send(self, command: RoomMessage) -> list[str]:
        assert self.connection is not None
        if command["type"] == "leave":
            self.leaving = True
        if command["type"] in AWAITED:
            self._asked = self._prompt()
        if not self.connection.send(command):
            # Wait for the connection to come back (the room then says where the game
            # stands) rather than read more lines that cannot be sent.
            self._asked, self.leaving = self._prompt(), False
            return [self.words.say("Not sent: the connection dropped (it is being opened again).")]
        if command["type"] == "sit" and not self.entropy.committed:
            # The commitment right behind the seat (the room takes them in order): a hand
            # dealt as the person sits down has their entropy too.
            early = self.entropy.commit(str(command["table"])) | {"ref": EARLY}
            if not self.connection.send(early):
                self.entropy = Entropy()  # not sent: committed once the seat is seen
        return []

    def table_lines(self) -> list[str]:
        """The table, and for a player sitting out how to come back."""
        me = self.client.me()
        back = [self.words.say("You sit out: 'sit in' to play again, or quit.")]
        return self.client.table_lines() + (back if me and me.status == "sitting_out" else [])

    def hands_kept(self) -> int:
        if self.client.table is None:
            return 0
        self._hands = self.rooms.hands(self.client.table)
        return len(self._hands)

    def hand_back(self, back: int) -> list[str]:
        hand = self._hands[back - 1]
        return self.rooms.hand_text(hand) + self._check_hand(hand)

    def close(self) -> None:
        self._checker.shutdown(cancel_futures=True)
        if self.connection is not None:
            self.connection.close()
        self.rooms.close()

    # ------------------------------------------------------------ helpers

    def _watch(self, table: str) -> list[str]:
        if self.client.table is not None and self.client.table != table:
            self.client.follow(table)  # a tournament's next table: its snapshot comes
            self.entropy = Entropy()  # a commitment is a table's: a new one there
        self.client.table = table
        watch: RoomMessage = {"type": "watch", "table": table}
        if self.rooms.invite:
            watch["invite"] = self.rooms.invite
        return self.send(watch)

    def _welcome(self) -> list[str]:
        """What a watcher is told once the table arrives: the game and how to sit (or,
        back at a seat kept since an earlier run, where they sit)."""
        summary, free, me = self.client.summary, self.client.free_seats(), self.client.me()
        say = self.words.say
        where = f"{summary['name']}: {self.client.title()}"
        if me is None and self.client.tournament is not None:
            return [say("You watch {table}.", table=where)]
        if me is not None:
            self._tables = None  # a seat is kept: no table to choose
            return [
                self.words.say_n(
                    "You sit in seat {seat} at {table}, with {count} chip.",
                    "You sit in seat {seat} at {table}, with {count} chips.",
                    me.stack,
                    seat=me.seat,
                    table=where,
                )
            ]
        if not free:
            return [say("You watch {table}. Every seat is taken: wait, or quit.", table=where)]
        low, high = summary["min_buy_in"], summary["max_buy_in"]
        seats = self.words.say_p("list", ", ").join(map(str, free))
        return [
            say(
                "You watch {table}. Free seats: {seats}; buy-in {low} to {high}.",
                table=where,
                seats=seats,
                low=low,
                high=high,
            ),
            say(
                "Sit down with 'sit' (seat {seat}, {chips} chips) or 'sit SEAT BUYIN'.",
                seat=free[0],
                chips=high,
            ),
        ]

    def _prompt(self) -> tuple[object, ...]:
        """What the person's waiting depends on: the turn, the question to run it twice,
        the seat, sitting out, chips."""
        me = self.client.me()
        seat = None if me is None else (me.status, me.stack)
        return (self.client.turn, self.client.vote, self.client.viewer, seat)


def _table_words(table: dict[str, Any], words: Words = ENGLISH) -> str:
    """A table of the lobby in one line: name, game, stakes, players."""
    game = table.get("game") or table.get("variant_name") or table.get("variant", "")
    stakes = f"{table.get('structure', '')} {table.get('stakes', '')}".strip()
    if words.language is not Language.ENGLISH:  # English: the room's own words, as ever
        try:  # the game and its structure as the rules name them, in the person's words
            betting = betting_from_json(table)
            game = game_title(Variant.parse(str(table["variant"])), words)
            stakes = f"{words.say(betting.name)} {betting.stakes}"  # the rules' name
        except (KeyError, TypeError, ValueError):
            pass  # a table the room describes otherwise: as it says
    players = words.say(
        "{players}/{seats} players", players=table.get("players", 0), seats=table.get("seats", "?")
    )
    return f"{table['name']} ({table['id']}): {game}, {stakes}, {players}"


__all__ = ["Connection", "Lobby", "RemoteError", "RemoteGame", "UnknownToken", "socket_url"]
