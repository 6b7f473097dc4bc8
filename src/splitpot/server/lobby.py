"""A table as the lobby lists it (PROTOCOL.md "table summary"): the protocol's summary,
the one a ``table`` message holds, and what the lobby adds to choose a table by."""

from __future__ import annotations

import time
from typing import Any

from splitpot.protocol import table_summary
from splitpot.server.actor import TableActor
from splitpot.server.frames import info


def summary(actor: TableActor) -> dict[str, Any]:
    seated = [p for p in actor.table.seats if p is not None]
    hour_ago = time.time() - 3600
    return table_summary(info(actor), len(seated)) | {
        "waiting": sum(1 for p in seated if p.owes_blinds or p.sitting_out),
        "bots": sum(1 for o in actor.occupants.values() if o.bot is not None),
        "average_pot": sum(actor.pots) // len(actor.pots) if actor.pots else 0,
        "hands_per_hour": sum(1 for t in actor.hand_times if t >= hour_ago),
    }
