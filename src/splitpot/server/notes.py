"""The room's HTTP API for notes (issue 24; docs/protocol.md)."""

from __future__ import annotations

from fastapi import APIRouter

from splitpot.server.http import REFUSALS

router = APIRouter(prefix="/api", responses=REFUSALS)
