"""A table host's values and tells as the protocol's messages (PROTOCOL.md), for every
shell that speaks the protocol: the room's actor (``server/frames.py``, which adds the
wall clock and serialises each once) and the offline game (``client/local.py``)."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime

from splitpot.dealer import Scene
from splitpot.protocol import (
    JsonObject,
    chat_message,
    encode_event,
    encode_state,
    event_message,
    table_message,
    turn_message,
    utc_text,
)
from splitpot.room.effects import OfferTurn, SayChat
from splitpot.room.host import TableHost
from splitpot.room.seating import WallClock
from splitpot.table import TableEvent, TableView


def players(host: TableHost) -> dict[int, str]:
    """The room's player id of each occupied seat."""
    return {seat: str(occupant.player_id) for seat, occupant in host.occupants.items()}


def table(
    host: TableHost,
    view: TableView,
    connected: Callable[[int], bool],
    deadline: datetime | None = None,
    bank: Callable[[float], float] = float,
    wall: WallClock = lambda _: None,
) -> JsonObject:
    """The whole table as ``view``'s viewer may see it, with each seat's bot, connection
    and away marks (and the viewer's own showdown preference), the turn's clock (``bank``:
    a time bank in seconds as the wire gives it), and who waits for a seat (``wall``: a
    moment of the host's clock as the wire writes it)."""
    state = encode_state(view, host.info(), players(host))
    for seat_json in state["seats"]:  # type: ignore[union-attr]
        assert isinstance(seat_json, dict)
        seat = int(seat_json["seat"]) - 1  # type: ignore[arg-type]
        occupant = host.occupants.get(seat)
        if occupant is not None:
            seat_json["bot"] = occupant.bot is not None
            seat_json["connected"] = occupant.bot is not None or connected(occupant.player_id)
            seat_json["away"] = host.away(seat)
            seat_json["time_bank"] = bank(host.clock.bank(seat))
            if seat == view.viewer:
                seat_json["muck_losing"] = occupant.muck_losing
    state["deadline"] = None if deadline is None else utc_text(deadline)
    state |= host.seating.to_json(wall)
    if host.tournament is not None:  # RULES.md 8: the level, its blinds, the next
        state["tournament"] = host.tournament_json(wall)
    return table_message(host.id, host.seq, state)


def event(
    host: TableHost,
    seen: TableEvent,
    scene: Scene,
    seq: int,
    fairness: JsonObject | None,
    run_it: JsonObject | None = None,
) -> JsonObject:
    """One of the table's events as one viewer sees it (``seen``), in the dealer's words;
    ``run_it``: what the room adds to the question to run it twice (its clock)."""
    encoded = encode_event(
        seen, host.id, scene, host.names(), players=players(host), fairness=fairness
    )
    if run_it is not None and encoded["kind"] == "run_it":
        encoded |= run_it
    return event_message(host.id, seq, encoded)


def turn(table_id: str, offer: OfferTurn, deadline: datetime | None) -> JsonObject:
    return turn_message(table_id, offer.hand, offer.seat, offer.legal, deadline)


def chat(table_id: str, said: SayChat) -> JsonObject:
    person = said.person
    return chat_message(table_id, str(person.id), person.name, said.seat, said.text)


__all__ = ["chat", "event", "players", "table", "turn"]
