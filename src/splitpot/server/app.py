"""The room's ASGI application: the HTTP API, the WebSocket and the pages, around one
``Room`` that opens with the application and closes with it."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket

from splitpot import __version__
from splitpot.i18n import Words, negotiate, words
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.room.settings import TableSettings
from splitpot.server import clubs, http, languages, notes, pages, stats, tournament_api, ws
from splitpot.server.cluster import Cluster
from splitpot.server.errors import refusal
from splitpot.server.options import RoomOptions
from splitpot.server.room import Room
from splitpot.store import Store, StoreError

log = logging.getLogger("splitpot.room")

MAX_BODY = 64 * 1024  # bytes of a request body

STATUS = {
    ErrorCode.FORBIDDEN: 403,
    ErrorCode.UNAUTHORIZED: 401,
    ErrorCode.UNKNOWN_TABLE: 404,
    ErrorCode.UNKNOWN_HAND: 404,
    ErrorCode.UNKNOWN_CLUB: 404,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.RATE_LIMITED: 429,
    ErrorCode.NAME_TAKEN: 409,
    ErrorCode.NOT_NOW: 409,
    ErrorCode.SERVER_ERROR: 500,
}


def asking(request: Request) -> Words:
    """The words of the language a request asks in (its Accept-Language; else English)."""
    return words(negotiate(request.headers.get("accept-language")))


def error_response(code: ErrorCode, message: str) -> JSONResponse:
    return JSONResponse(
        {"error": {"code": code.value, "message": message}}, status_code=STATUS.get(code, 400)
    )


class BoundedBodies:
    """A request body is at most MAX_BODY bytes: refused by its Content-Length before it
    is read, and one sent in chunks (no Content-Length) as soon as it passes the limit."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        too_big = f"a request body is at most {MAX_BODY} bytes"
        length = dict(scope["headers"]).get(b"content-length", b"0").decode("latin-1")
        if not (length.isascii() and length.isdigit()) or int(length) > MAX_BODY:
            await error_response(ErrorCode.BAD_MESSAGE, too_big)(scope, receive, send)
            return
        read = 0

        async def bounded() -> Message:
            nonlocal read
            message = await receive()
            read += len(message.get("body", b""))
            if read > MAX_BODY:  # raised where the body is read: refused like a bad body
                raise ProtocolError(ErrorCode.BAD_MESSAGE, too_big)
            return message

        await self.app(scope, bounded, send)


class OwnHosts:
    """Requests and WebSockets whose Host names the room only (``Room.host_allowed``):
    another's refused with the room's JSON error, before anything else runs."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket") and not await own_host(scope, receive, send):
            return
        await self.app(scope, receive, send)


async def own_host(scope: Scope, receive: Receive, send: Send) -> bool:
    """Whether the request's Host names the room; if not, it is refused here."""
    room: Room = scope["app"].state.room
    host = dict(scope["headers"]).get(b"host", b"").decode("latin-1")
    local = (scope.get("server") or (None, None))[0]
    if room.guard.host_allowed(host, local):
        return True
    refused = f"the room does not answer to the host {host!r} (splitpot serve --url)"
    await error_response(ErrorCode.FORBIDDEN, refused)(scope, receive, send)
    return False


class DirectSocket:
    """The room's WebSocket, ``/ws``, straight to its handler past FastAPI's router and
    middleware (each a coroutine held for the connection's life): 112 objects a connection
    for the collector's full pass to visit instead of 203 (docs/load.md). Its Host is
    checked here as ``OwnHosts`` does, the refusal with the security headers; an accepted
    socket's frames go to the server's own ``send`` (no HTTP answer is left to head).
    Every other request goes on to the app."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket" or scope["path"] != ws.PATH:
            await self.app(scope, receive, send)
        elif await own_host(scope, receive, pages.headed(scope, send)):
            await ws.websocket(WebSocket(scope, receive, send), send)


class RoomApp(FastAPI):
    """FastAPI with the security headers around its whole stack, so that the answers of
    its outermost error handler (a 500) carry them too; the WebSocket goes past the stack
    (``DirectSocket``)."""

    def build_middleware_stack(self) -> ASGIApp:
        return DirectSocket(pages.SecurityHeaders(super().build_middleware_stack()))


def create_app(
    store: Store, options: RoomOptions | None = None, *, bots: int = 0, redis: str | None = None
) -> FastAPI:
    """The room on ``store``; with ``bots``, a public table where that many bots wait; with
    ``redis``, one process of a room that runs on several (docs/deploy.md)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        room = Room(store, options, None if redis is None else joined(store, redis, options))
        app.state.room = room
        await room.open()
        tables = await room.db(store.list_tables, include_private=True)
        if bots and not any(table.settings.get("house") for table in tables):  # any process's
            host = await room.db(store.create_guest, "The house")
            settings = TableSettings("Bots' table", bots=bots, seats=max(6, bots + 1))
            await room.create_table(settings, host.player, house=True)
        try:
            yield
        finally:
            await room.close()

    # No /docs or /redoc: their pages load scripts from a CDN, in the origin that keeps the
    # players' tokens. The API's description stays at /openapi.json.
    app = RoomApp(
        title="splitpot room",
        version=__version__,
        lifespan=lifespan,
        docs_url=None,
        redoc_url=None,
    )
    app.include_router(http.router)
    app.include_router(clubs.router)
    app.include_router(notes.router)
    app.include_router(stats.router)
    app.include_router(tournament_api.router)
    app.include_router(languages.router)
    pages.mount(app)

    app.add_middleware(BoundedBodies)
    app.add_middleware(OwnHosts)  # the outer: a foreign host's body is not even counted

    @app.exception_handler(ProtocolError)
    async def refused(request: Request, error: ProtocolError) -> JSONResponse:
        return error_response(error.code, error.told(asking(request)))

    @app.exception_handler(StoreError)
    async def store_refused(request: Request, error: StoreError) -> JSONResponse:
        failure = refusal(error)
        return error_response(failure.code, failure.told(asking(request)))

    @app.exception_handler(RequestValidationError)
    async def invalid(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for problem in error.errors():
            where = ".".join(str(part) for part in problem["loc"] if part != "body")
            problems.append(f"{where}: {problem['msg']}" if where else problem["msg"])
        return error_response(ErrorCode.BAD_MESSAGE, "; ".join(problems))

    @app.exception_handler(Exception)
    async def failed(request: Request, error: Exception) -> JSONResponse:
        """A bug: the client gets a plain error, never a traceback (the log has it)."""
        log.error("%s %s failed", request.method, request.url.path, exc_info=error)
        return error_response(ErrorCode.SERVER_ERROR, "the room could not do that; try again")

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, error: HTTPException) -> JSONResponse:
        if isinstance(error.__cause__, ProtocolError):  # a body refused while FastAPI read it
            return error_response(error.__cause__.code, error.__cause__.message)
        code = "not_found" if error.status_code == 404 else "bad_message"
        return JSONResponse(
            {"error": {"code": code, "message": str(error.detail)}},
            status_code=error.status_code,
        )

    return app


def joined(store: Store, redis: str, options: RoomOptions | None) -> Cluster:
    """This process's link to the room's others, through ``redis``."""
    options = options or RoomOptions()
    node = options.node or "room"
    url = options.url or "http://127.0.0.1"
    return Cluster(redis, store.room_id(), node, url, options.lease_seconds, options.link)
