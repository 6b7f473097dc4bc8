"""``splitpot serve``: the room on uvicorn (PROTOCOL.md "Starting the room")."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import gc
import logging
import os
import signal
import socket
from dataclasses import dataclass, replace

import h11
import uvicorn
from uvicorn.protocols.http.h11_impl import H11Protocol
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from splitpot.equity import calculate
from splitpot.evaluate import best_high
from splitpot.protocol import MAX_FRAME
from splitpot.server.app import create_app
from splitpot.server.connection import SEND_BUFFER
from splitpot.server.options import RoomOptions
from splitpot.store import default_database_path, open_store

# The collector's thresholds in the room (Python's are 700, 10, 10). With 5,000 clients
# the room tracked about a million objects (200 a connection; 112 now), and a full pass
# over them stopped every table for 0.7 to 0.9 s: young passes ten times rarer let more
# objects die before they are promoted, and full passes are ten times rarer (docs/load.md).
COLLECTOR_THRESHOLDS = (7_000, 10, 100)


@dataclass(frozen=True, slots=True)
class Transport:
    """How long the room waits on a quiet connection, whose X-Forwarded-For it believes,
    its event loop and its HTTP parser: ``splitpot serve --http-timeout``, ``--ws-ping``,
    ``--forwarded-allow-ips``, ``--loop``, ``--http``."""

    http_timeout: int = 10  # seconds to send a request's head, from connecting or an answer
    ws_ping: int = 20  # seconds between a WebSocket's pings, and to answer one
    forwarded_allow_ips: tuple[str, ...] = ()  # proxies (addresses, networks) believed
    loop: str = "uvloop"  # or "asyncio" (docs/load.md measures the two)
    http: str = "httptools"  # or "h11" (docs/load.md measures the two)


class TimedH11Protocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol, its keep-alive time-out also the deadline of a
    request's head: a connection that says nothing, or stops within a request line or its
    headers, is closed once it passes. (uvicorn arms it only after an answer, and stops it
    at the first byte that comes.)"""

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def _unset_keepalive_if_required(self) -> None:
        """Kept while the next request's head has not come whole (h11 still waits for it)."""
        if self.conn.their_state is not h11.IDLE or self.transport.is_closing():
            super()._unset_keepalive_if_required()


class TimedHttpToolsProtocol(HttpToolsProtocol):
    """uvicorn's HTTP/1.1 protocol on httptools (llhttp, in C), with the same deadline
    for a request's head as ``TimedH11Protocol``."""

    head_due = True  # no request's head has come whole since connecting or the last answer

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self.timeout_keep_alive_task = self.loop.call_later(
            self.timeout_keep_alive, self.timeout_keep_alive_handler
        )

    def on_headers_complete(self) -> None:
        self.head_due = False
        self._unset_keepalive_if_required()
        super().on_headers_complete()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self.head_due = True

    def _unset_keepalive_if_required(self) -> None:
        """Kept while the next request's head has not come whole."""
        if not self.head_due or self.transport.is_closing():
            super()._unset_keepalive_if_required()


HTTP_PROTOCOLS = {"h11": TimedH11Protocol, "httptools": TimedHttpToolsProtocol}


class OneLineUndecodable(logging.Filter):
    """uvicorn logs a WebSocket text message that is not UTF-8 with a traceback, though
    nothing failed (it closes the connection with 1007, as it should): one line instead."""

    def filter(self, record: logging.LogRecord) -> bool:
        error = record.exc_info[1] if record.exc_info else None
        if isinstance(error, UnicodeDecodeError):
            record.msg = "a WebSocket text message was not UTF-8 (%s): connection closed (1007)"
            record.args = (error,)
            record.exc_info = None
            record.exc_text = None
        return True


def paced_options() -> RoomOptions:
    """The room's options, with the pauses between hands, a run-out's streets and the
    hands shown, the bots' thinking time and the tables' lease taken from
    SPLITPOT_HAND_PAUSE, SPLITPOT_STREET_PAUSE, SPLITPOT_SHOW_PAUSE, SPLITPOT_BOT_DELAY and
    SPLITPOT_LEASE_SECONDS when set (tests run the room fast)."""
    defaults = RoomOptions()
    return RoomOptions(
        hand_pause=seconds_from("SPLITPOT_HAND_PAUSE", defaults.hand_pause),
        street_pause=seconds_from("SPLITPOT_STREET_PAUSE", defaults.street_pause),
        show_pause=seconds_from("SPLITPOT_SHOW_PAUSE", defaults.show_pause),
        bot_delay=seconds_from("SPLITPOT_BOT_DELAY", defaults.bot_delay),
        lease_seconds=seconds_from("SPLITPOT_LEASE_SECONDS", defaults.lease_seconds, 0.5),
    )


def seconds_from(variable: str, default: float, least: float = 0.0) -> float:
    """The environment variable's seconds (``least`` to 3600), or ``default`` when it is
    unset."""
    text = os.environ.get(variable)
    if text is None:
        return default
    try:
        seconds = float(text)
    except ValueError:
        seconds = -1.0
    if not least <= seconds <= 3600:
        raise SystemExit(f"{variable} is a number of seconds from {least:g} to 3600, not {text!r}")
    return seconds


def listening_socket(host: str, port: int) -> socket.socket:
    """The room's listening socket. Its connections' send buffers are bounded (inherited
    from it): the kernel holds at most SEND_BUFFER bytes for a client that stops reading,
    then the room's own bounded queue fills and the client is dropped."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    listener = socket.socket(family, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, SEND_BUFFER)
    listener.bind((host, port))
    listener.listen(2048)
    listener.set_inheritable(True)
    return listener


def claim_port(host: str, port: int) -> socket.socket:
    """The listening socket, or a ``ValueError`` saying in one line why the room cannot
    listen there and what to do (checked before the room says where to go)."""
    try:
        return listening_socket(host, port)
    except OSError as error:
        if error.errno == errno.EADDRINUSE:
            why = "is taken by another program (a room already running?)"
        elif error.errno == errno.EACCES:
            why = "needs more rights than this user has (ports below 1024)"
        elif error.errno in (errno.EADDRNOTAVAIL, errno.EAFNOSUPPORT) or isinstance(
            error, socket.gaierror
        ):
            why = "is not an address of this machine"
        else:
            why = f"cannot be listened on: {error.strerror or error}"
        raise ValueError(
            f"{host}:{port} {why}: choose another with --port (make run PORT=8001) or --host"
        ) from None


def network_addresses() -> list[str]:
    """This machine's address on its network, where friends reach a room listening on
    every interface (empty when there is no network): the one a datagram would leave
    from, found without sending anything."""
    with contextlib.suppress(OSError), socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        probe.connect(("192.0.2.1", 9))  # TEST-NET-1: routed like the world, never reached
        address = str(probe.getsockname()[0])
        if not address.startswith("127."):
            return [address]
    return []


def load_kernels() -> None:
    """Read the evaluator's and the equity's compiled kernels from numba's cache before
    serving: the first showdown and the first all-in's equity would read them on the room's
    loop, or holding the GIL, and every table would wait (150 and 200 ms, docs/load.md)."""
    best_high("AsKs2d3d", "Jd4d3c5h9s")
    calculate(["AsKs2d3d", "QhQcJhTc"], board="Jd4d3c", method="exact")


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bots: int = 0,
    options: RoomOptions | None = None,
    origins: tuple[str, ...] = (),
    redis: str | None = None,
    url: str | None = None,
    transport: Transport = Transport(),
) -> int:
    """Apply the migrations, open the room, print where to go, serve until SIGTERM or
    Ctrl-C (hands in play finish or are saved), and return 0. With ``redis``, join the
    room's other processes (``url``: where clients reach this one); ``transport``: its
    connections' time-outs and trusted proxies."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    where = db or f"sqlite:///{default_database_path()}"
    listener = claim_port(host, port)
    store = open_store(db)
    print(f"splitpot room: database {where}", flush=True)
    node = f"{socket.gethostname()}:{port}"  # the same name again after a restart
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # where a browser goes
    url = url or f"http://{shown}:{port}"
    options = replace(options or paced_options(), origins=origins, node=node, url=url)
    app = create_app(store, options, bots=bots, redis=redis)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        http=HTTP_PROTOCOLS[transport.http],
        loop=transport.loop,
        timeout_keep_alive=transport.http_timeout,
        ws_ping_interval=transport.ws_ping,
        ws_ping_timeout=transport.ws_ping,
        proxy_headers=bool(transport.forwarded_allow_ips),  # none believed unless named
        forwarded_allow_ips=list(transport.forwarded_allow_ips),
        ws_max_size=MAX_FRAME,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=40,
        ws_per_message_deflate=False,  # frames of a few hundred bytes: not worth the CPU
        ws="websockets-sansio",  # whose socket takes a client's waiting frames at once (ws.py)
    )
    logging.getLogger("uvicorn.error").addFilter(OneLineUndecodable())
    server = uvicorn.Server(config)
    print(f"splitpot room: listening on {host}:{port} (pages /, HTTP /api, WebSocket /ws)")
    if redis is not None:
        print(f"  one of the room's processes, through Redis at {redis}", flush=True)
    print(f"  open in a browser:    {url}/", flush=True)
    if host in ("0.0.0.0", "::", ""):
        for address in network_addresses():
            print(f"  friends on your network: http://{address}:{port}/", flush=True)
    print(f"  play in the terminal: splitpot play --server {url}", flush=True)
    # uvicorn sends SIGTERM or SIGINT to the process again once its graceful shutdown is
    # done; with these no-op handlers (restored then) the process returns 0 instead.
    for stop in (signal.SIGTERM, signal.SIGINT):
        signal.signal(stop, lambda *_: None)
    load_kernels()
    # Everything loaded so far (numba, SQLAlchemy, FastAPI, pydantic: some 165,000 objects
    # the collector tracks) lives as long as the process: kept out of its full passes,
    # which then pause every table about half as long (docs/load.md).
    gc.collect()
    gc.freeze()
    gc.set_threshold(*COLLECTOR_THRESHOLDS)
    try:
        server.run(sockets=[listener])
    finally:
        store.close()
    return 0
