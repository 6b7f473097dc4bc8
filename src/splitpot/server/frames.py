"""The frames a table sends, in the protocol's JSON: what the room adds to the core's
views and events (player ids, bots, connections, the clock, the dealer's scene), made
from the table host's values and its effects."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime
from time import monotonic, time

from splitpot.dealer import Scene
from splitpot.protocol import (
    JsonObject,
    event_message,
    frame,
    invite_message,
    to_act_event,
    unwatched_message,
    utc_text,
)
from splitpot.room import messages
from splitpot.room.clock import Vote
from splitpot.room.effects import OfferTurn, SayChat, ToAct
from splitpot.room.host import TableHost
from splitpot.table import TableEvent, TableView


def table(host: TableHost, view: TableView, connected: Callable[[int], bool]) -> str:
    """The whole table as ``view``'s viewer may see it, with the deadline of the turn or
    of the question to run it twice."""
    turn, vote = host.turn, host.vote
    clock = turn.deadline if turn is not None else None if vote is None else vote.deadline
    deadline = None if clock is None else wall_time(clock)
    return frame(
        messages.table(host, view, connected, deadline, seconds, lambda m: utc_text(wall_time(m)))
    )


def event(
    host: TableHost,
    seen: TableEvent,
    scene: Scene,
    seq: int,
    fairness: JsonObject | None,
    vote: Vote | None = None,
) -> str:
    """One of the table's events; the question to run it twice (``vote``: its clock)
    with its deadline and its seconds."""
    run_it: JsonObject | None = None
    if vote is not None:
        run_it = {
            "deadline": utc_text(wall_time(vote.deadline)),
            "seconds": seconds(vote.seconds),
        }
    return frame(messages.event(host, seen, scene, seq, fairness, run_it))


def room_event(table_id: str, event: JsonObject, seq: int) -> str:
    """An event the core does not know (a host's action, a player sat out too long, the
    all-in equity), the same for every watcher."""
    return frame(event_message(table_id, seq, event))


def to_act(table_id: str, told: ToAct) -> str:
    """Whose decision it is, with the turn's deadline and time bank (none: no clock)."""
    clock = told.turn
    deadline = None if clock is None else wall_time(clock.deadline)
    bank = None if clock is None else seconds(clock.expires - clock.deadline)
    return room_event(table_id, to_act_event(told.hand, told.seat, deadline, bank), told.seq)


def turn(table_id: str, offer: OfferTurn) -> str:
    """The ``turn`` message, with ``seq``, the seq of the table's last event when the
    turn began (the same turn sent again, after a ``watch`` or a ``hello``, has the same),
    and the seconds of time bank that follow the deadline."""
    clock = offer.turn
    message = messages.turn(table_id, offer, wall_time(clock.deadline))
    bank = seconds(clock.expires - clock.deadline)
    return frame(message | {"seq": offer.seq, "time_bank": bank})


def chat(table_id: str, said: SayChat) -> str:
    return frame(messages.chat(table_id, said))


def unwatched(table_id: str, reason: str, text: str) -> str:
    return frame(unwatched_message(table_id, reason, text))


def moved(table_id: str, to: str | None, text: str) -> str:
    """RULES.md 8: the tournament moved the player from ``table_id`` to table ``to``."""
    return frame({"type": "moved", "table": table_id, "to": to, "text": text})


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
