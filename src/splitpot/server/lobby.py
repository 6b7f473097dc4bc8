"""A table as the lobby lists it (PROTOCOL.md "table summary")."""

from __future__ import annotations

import time
from typing import Any

from splitpot.server.actor import TableActor


def summary(actor: TableActor) -> dict[str, Any]:
    settings = actor.settings
    config = actor.table.config
    betting = config.betting
    seated = [p for p in actor.table.seats if p is not None]
    hour_ago = time.time() - 3600
    return {
        "id": actor.id,
        "name": settings.name,
        "variant": settings.variant,
        "game": config.variant.title,
        "structure": settings.structure,
        "stakes": betting.stakes,
        "small_blind": settings.small_blind,
        "big_blind": settings.big_blind,
        "seats": config.seats,
        "players": len(seated),
        "waiting": sum(1 for p in seated if p.owes_blinds or p.sitting_out),
        "bots": sum(1 for o in actor.occupants.values() if o.bot is not None),
        "private": settings.private,
        "min_buy_in": config.min_buy_in,
        "max_buy_in": config.max_buy_in,
        "action_seconds": settings.action_seconds,
        "time_bank_seconds": settings.time_bank_seconds,
        "average_pot": sum(actor.pots) // len(actor.pots) if actor.pots else 0,
        "hands_per_hour": sum(1 for t in actor.hand_times if t >= hour_ago),
        "host": str(actor.host_id),
        "paused": actor.paused,
    }
