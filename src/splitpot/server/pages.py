"""The browser pages (PROTOCOL.md "Pages"): the lobby at ``/``, a table at
``/tables/{id}`` and their static files, served from the package's ``web`` folder with
no build step. The pages talk to the room only through the public protocol."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI, Request
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
    "content-security-policy": POLICY.format(sockets=""),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-cache",
}


def page_headers(room: Room) -> dict[str, str]:
    """A page's headers: its policy lets it open the WebSocket of every process of the
    room (their addresses, as a welcome names them)."""
    sockets = "".join(f" {socket_origin(url)}" for url in room.servers())
    return SECURITY_HEADERS | {"content-security-policy": POLICY.format(sockets=sockets)}


def socket_origin(url: str) -> str:
    """http://host:8000 -> ws://host:8000 (https -> wss)."""
    return (
        "wss" + url.removeprefix("https")
        if url.startswith("https")
        else "ws" + url.removeprefix("http")
    )


router = APIRouter()


def page(request: Request, name: str) -> FileResponse:
    headers = page_headers(request.app.state.room)
    return FileResponse(WEB / name, media_type="text/html", headers=headers)


@router.get("/", include_in_schema=False)
async def lobby(request: Request) -> FileResponse:
    return page(request, "lobby.html")


@router.get("/tables/{table_id}", include_in_schema=False)
async def table(request: Request, table_id: str) -> FileResponse:
    """The table page; its script reads the table's id (and an invite) from the URL."""
    return page(request, "table.html")


@router.get("/fairness", include_in_schema=False)
async def fairness(request: Request) -> FileResponse:
    """What the verifiable deal proves and what it does not (FAIRNESS.md), in plain words."""
    return page(request, "fairness.html")


@router.get("/favicon.ico", include_in_schema=False)
async def favicon() -> FileResponse:
    return FileResponse(WEB / "favicon.svg", media_type="image/svg+xml", headers=SECURITY_HEADERS)


class Headed:
    """Static files with the pages' security headers."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def send_headed(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += [(k.encode(), v.encode()) for k, v in SECURITY_HEADERS.items()]
                message = {**message, "headers": headers}
            await send(message)

        await self.app(scope, receive, send_headed)


def mount(app: FastAPI) -> None:
    """The pages' routes and ``/static`` on ``app``."""
    app.include_router(router)
    app.mount("/static", Headed(StaticFiles(directory=WEB)), name="static")
