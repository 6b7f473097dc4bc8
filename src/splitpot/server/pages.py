"""The browser pages (PROTOCOL.md "Pages"): the lobby at ``/``, a table at
``/tables/{id}``, a club at ``/clubs/{id}``, a tournament at ``/tournaments/{id}`` and their
static files, served from the package's ``web`` folder with no build step. The pages talk
to the room only through the public protocol. And the security headers of every answer of
the room."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from splitpot.server.room import Room

WEB = Path(__file__).resolve().parent.parent / "web"

# Scripts, styles and sockets from the room only: no inline script, no other origin (but
# the WebSockets of the room's other processes, where a page goes when its own is gone).
POLICY = (
    "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'{sockets}; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
SECURITY_HEADERS = {
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-cache",
}


def security_headers(room: Room | None) -> list[tuple[bytes, bytes]]:
    """The headers of every answer: the policy lets a page open the WebSocket of every
    process of the room (their addresses, as a welcome names them)."""
    servers = room.servers() if room is not None else []
    policy = POLICY.format(sockets="".join(f" {socket_origin(url)}" for url in servers))
    headers = SECURITY_HEADERS | {"content-security-policy": policy}
    return [(name.encode(), value.encode()) for name, value in headers.items()]


def socket_origin(url: str) -> str:
    """http://host:8000 -> ws://host:8000 (https -> wss)."""
    return (
        "wss" + url.removeprefix("https")
        if url.startswith("https")
        else "ws" + url.removeprefix("http")
    )


class SecurityHeaders:
    """Every answer of the room carries the security headers, in this one place: pages,
    static files, the API's JSON, errors (a 500 too: this wraps the whole application)
    and a refused WebSocket's HTTP answer."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        await self.app(scope, receive, headed(scope, send))


ANSWER_STARTS = ("http.response.start", "websocket.http.response.start")  # an HTTP answer's head


def headed(scope: Scope, send: Send) -> Send:
    """``send`` with the security headers added to the start of an HTTP answer."""
    ours = security_headers(getattr(scope["app"].state, "room", None))
    names = {name for name, _ in ours}

    async def send_headed(message: Message) -> None:
        if message["type"] in ANSWER_STARTS:
            kept = [(k, v) for k, v in message.get("headers", []) if k.lower() not in names]
            message = {**message, "headers": kept + ours}
        await send(message)

    return send_headed


router = APIRouter()


def page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html")


@router.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return page("lobby.html")


@router.get("/tables/{table_id}", include_in_schema=False)
async def table(table_id: str) -> FileResponse:
    """The table page; its script reads the table's id (and an invite) from the URL."""
    return page("table.html")


@router.get("/clubs/{club_id}", include_in_schema=False)
async def club(club_id: str) -> FileResponse:
    """A club's page; its script reads the club's id (and an invite code) from the URL."""
    return page("club.html")


@router.get("/tournaments/{tournament_id}", include_in_schema=False)
async def tournament(tournament_id: str) -> FileResponse:
    """A tournament's lobby (RULES.md 8); its script reads the tournament's id (and an
    invite code) from the URL."""
    return page("tournament.html")


@router.get("/fairness", include_in_schema=False)
async def fairness() -> FileResponse:
    """What the verifiable deal proves and what it does not (FAIRNESS.md), in plain words."""
    return page("fairness.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml")


def mount(app: FastAPI) -> None:
    """The pages' routes and ``/static`` on ``app``."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=WEB), name="static")
