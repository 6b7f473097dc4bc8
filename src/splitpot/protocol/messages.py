"""The room's messages (PROTOCOL.md, WebSocket), each a dict ready for ``frame``, which
serialises it once for all its receivers."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import datetime

import orjson

from splitpot.engine import LegalActions
from splitpot.protocol.encode import Json, JsonObject, encode_legal, utc_text
from splitpot.protocol.errors import ErrorCode, ProtocolError, Ref


def frame(message: Mapping[str, Json]) -> str:
    """A message as one WebSocket text frame: compact JSON, text not escaped to ASCII;
    the text ``json.dumps(message, separators=(",", ":"), ensure_ascii=False)`` writes,
    in a tenth of its time (orjson; docs/load.md)."""
    return orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS).decode()


def welcome(player: str | None, name: str | None = None, lang: str = "en") -> JsonObject:
    """The answer to ``hello``: the player's id and name, or null for a watcher, and the
    language the room speaks to this connection."""
    who: JsonObject | None = None if player is None else {"id": player, "name": name}
    return {"type": "welcome", "player": who, "lang": lang}


def table_message(table: str, seq: int, state: JsonObject) -> JsonObject:
    """The whole table as its receiver may see it (``encode_state``); ``seq`` is that of
    the table's last event, so the next event carries ``seq + 1``."""
    return {"type": "table", "table": table, "seq": seq, "state": state}


def event_message(table: str, seq: int, event: JsonObject) -> JsonObject:
    """One event (``encode_event``); ``seq`` rises by one per table."""
    return {"type": "event", "table": table, "seq": seq, "event": event}


def turn_message(
    table: str, hand: str, seat: int, legal: LegalActions, deadline: datetime | None
) -> JsonObject:
    """To the player in table seat ``seat``, to act in ``hand`` by ``deadline``."""
    return {
        "type": "turn",
        "table": table,
        "hand": hand,
        "seat": seat + 1,
        "legal": encode_legal(legal),
        "deadline": None if deadline is None else utc_text(deadline),
    }


def chat_message(table: str, player: str, name: str, seat: int | None, text: str) -> JsonObject:
    """A player's chat line; ``from`` names them, with their seat (null: a watcher)."""
    sender: JsonObject = {"id": player, "name": name, "seat": None if seat is None else seat + 1}
    return {"type": "chat", "table": table, "from": sender, "text": text}


def unwatched_message(table: str, reason: str, text: str) -> JsonObject:
    """The room stops sending this connection the table: the host removed (``removed``)
    or banned (``banned``) its player, or the table closed (``closed``)."""
    return {"type": "unwatched", "table": table, "reason": reason, "text": text}


def invite_message(table: str, invite: str) -> JsonObject:
    """A private table's new invite, to its host's connections only."""
    return {"type": "invite", "table": table, "invite": invite}


def error_message(code: ErrorCode, message: str, ref: Ref = None) -> JsonObject:
    """A refused command (nothing changed), with its ``ref`` when it had one."""
    error: JsonObject = {"type": "error", "code": code.value, "message": message}
    if ref is not None:
        error["ref"] = ref
    return error


def refused(error: ProtocolError) -> JsonObject:
    """The ``error`` message of a ``ProtocolError``."""
    return error_message(error.code, error.message, error.ref)


def http_error(code: ErrorCode, message: str) -> JsonObject:
    """An HTTP error's body (PROTOCOL.md): ``{"error": {"code", "message"}}``."""
    return {"error": {"code": code.value, "message": message}}


__all__ = [
    "chat_message",
    "error_message",
    "event_message",
    "frame",
    "http_error",
    "refused",
    "table_message",
    "turn_message",
    "welcome",
]
