"""The frames a table sends, in the protocol's JSON: what the room adds to the core's
views and events (player ids, bots, connections, host, the dealer's scene)."""

from __future__ import annotations

from datetime import UTC, datetime
from time import monotonic, time
from typing import TYPE_CHECKING

from splitpot.dealer import Scene
from splitpot.engine import LegalActions
from splitpot.protocol import (
    JsonObject,
    TableInfo,
    chat_message,
    encode_event,
    encode_state,
    event_message,
    frame,
    invite_message,
    table_message,
    turn_message,
    unwatched_message,
    utc_text,
)
from splitpot.server.clock import Turn
from splitpot.store import Player
from splitpot.table import TableConfig, TableEvent, TableView

if TYPE_CHECKING:
    from splitpot.server.actor import TableActor
    from splitpot.server.settings import TableSettings


def info(actor: TableActor) -> TableInfo:
    return table_info(actor.id, actor.settings, actor.table.config, actor.host_id, actor.paused)


def table_info(
    table_id: str, settings: TableSettings, config: TableConfig, host_id: int, paused: bool
) -> TableInfo:
    """The protocol's facts of a table: for one run here, or one known from the store."""
    return TableInfo(
        table_id,
        settings.name,
        config,
        str(host_id),
        settings.private,
        paused,
        settings.action_seconds,
        settings.time_bank_seconds,
        settings.audit,
    )


def players(actor: TableActor) -> dict[int, str]:
    return {seat: str(occupant.player_id) for seat, occupant in actor.occupants.items()}


def table(actor: TableActor, view: TableView) -> str:
    """The whole table as ``view``'s viewer may see it, with each seat's bot, connection
    and away marks (and the viewer's own showdown preference), and the turn's clock."""
    state = encode_state(view, info(actor), players(actor))
    for seat_json in state["seats"]:  # type: ignore[union-attr]
        assert isinstance(seat_json, dict)
        seat = int(seat_json["seat"]) - 1  # type: ignore[arg-type]
        occupant = actor.occupants.get(seat)
        if occupant is not None:
            seat_json["bot"] = occupant.bot is not None
            seat_json["connected"] = actor.connected(seat)
            seat_json["away"] = actor.away(seat)
            seat_json["time_bank"] = seconds(actor.clock.bank(seat))
            if seat == view.viewer:
                seat_json["muck_losing"] = occupant.muck_losing
    turn = actor.turn
    state["deadline"] = None if turn is None else utc_text(wall_time(turn.deadline))
    return frame(table_message(actor.id, actor.seq, state))


def event(
    actor: TableActor,
    seen: TableEvent,
    scene: Scene,
    seq: int,
    fairness: JsonObject | None = None,
) -> str:
    names = actor.names()
    encoded = encode_event(
        seen, actor.id, scene, names, players=players(actor), fairness=fairness
    )
    return frame(event_message(actor.id, seq, encoded))


def room_event(actor: TableActor, event: JsonObject, seq: int) -> str:
    """An event the core does not know (a host's action, a player sat out too long, the
    all-in equity, whose decision it is), the same for every watcher."""
    return frame(event_message(actor.id, seq, event))


def turn(actor: TableActor, hand: str, seat: int, legal: LegalActions, clock: Turn) -> str:
    """The ``turn`` message, with ``seq``, the seq of the table's last event when the
    turn began (the same turn sent again, after a ``watch`` or a ``hello``, has the same),
    and the seconds of time bank that follow the deadline."""
    message = turn_message(actor.id, hand, seat, legal, wall_time(clock.deadline))
    bank = seconds(clock.expires - clock.deadline)
    return frame(message | {"seq": actor.turn_seq, "time_bank": bank})


def chat(actor: TableActor, player: Player, text: str) -> str:
    seat = actor.seat_of(player.id)
    return frame(chat_message(actor.id, str(player.id), player.name, seat, text))


def unwatched(table_id: str, reason: str, text: str) -> str:
    return frame(unwatched_message(table_id, reason, text))


def invite(table_id: str, token: str) -> str:
    return frame(invite_message(table_id, token))


def seconds(span: float) -> float:
    """A span of time as the wire gives it: seconds, to a tenth."""
    return round(span, 1)


# The wall clock at the monotonic clock's zero, read once: a moment is always told as the
# same time (a turn's deadline in its to_act event and in its turn message agree).
_WALL_AT_ZERO = time() - monotonic()


def wall_time(moment: float) -> datetime:
    """A monotonic moment as a UTC time."""
    return datetime.fromtimestamp(_WALL_AT_ZERO + moment, UTC)
