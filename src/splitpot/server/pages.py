"""The browser pages (PROTOCOL.md "Pages"): the lobby at ``/``, a table at
``/tables/{id}`` and their static files, served from the package's ``web`` folder with
no build step. The pages talk to the room only through the public protocol."""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter, FastAPI
from fastapi.responses import FileResponse
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send

WEB = Path(__file__).resolve().parent.parent / "web"

# Scripts, styles and sockets from the room only: no inline script, no other origin.
SECURITY_HEADERS = {
    "content-security-policy": (
        "default-src 'self'; img-src 'self' data:; style-src 'self'; connect-src 'self'; "
        "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
    ),
    "x-content-type-options": "nosniff",
    "referrer-policy": "same-origin",
    "cache-control": "no-cache",
}

router = APIRouter()


def page(name: str) -> FileResponse:
    return FileResponse(WEB / name, media_type="text/html", headers=SECURITY_HEADERS)


@router.get("/", include_in_schema=False)
async def lobby() -> FileResponse:
    return page("lobby.html")


@router.get("/tables/{table_id}", include_in_schema=False)
async def table(table_id: str) -> FileResponse:
    """The table page; its script reads the table's id (and an invite) from the URL."""
    return page("table.html")


@router.get("/fairness", include_in_schema=False)
async def fairness() -> FileResponse:
    """What the verifiable deal proves and what it does not (FAIRNESS.md), in plain words."""
    return page("fairness.html")


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
