"""``splitpot serve``: the room on uvicorn (PROTOCOL.md "Starting the room")."""

from __future__ import annotations

import logging

import uvicorn

from splitpot.protocol import MAX_FRAME
from splitpot.server.app import create_app
from splitpot.server.room import RoomOptions
from splitpot.store import default_database_path, open_store


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    db: str | None = None,
    bots: int = 0,
    options: RoomOptions | None = None,
) -> int:
    """Apply the migrations, open the room, print where to go, serve until SIGTERM or
    Ctrl-C (hands in play finish or are saved), and return 0."""
    logging.basicConfig(level=logging.INFO, format="%(levelname)s %(name)s: %(message)s")
    where = db or f"sqlite:///{default_database_path()}"
    store = open_store(db)
    print(f"splitpot room: database {where}", flush=True)
    app = create_app(store, options, bots=bots)
    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        ws_max_size=MAX_FRAME,
        log_level="warning",
        lifespan="on",
        timeout_graceful_shutdown=40,
    )
    server = uvicorn.Server(config)
    print(f"splitpot room: open http://{host}:{port}/", flush=True)
    print(f"  play in the terminal: splitpot play --server http://{host}:{port}", flush=True)
    try:
        server.run()
    finally:
        store.close()
    return 0
