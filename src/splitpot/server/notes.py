"""The room's HTTP API for notes (issue 24; docs/protocol.md "Notes"): a player's private
notes and colour tags on other players, read, written and deleted by their owner alone
(nothing of them is in any other answer or frame)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Path
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict

from splitpot.i18n import said
from splitpot.protocol import ErrorCode, ProtocolError, utc_text
from splitpot.server.http import REFUSALS, Caller, RoomDep, needs
from splitpot.store import NotFound, Player
from splitpot.store.notes import COLOURS, TooManyNotes
from splitpot.store.players import LARGEST_ID
from splitpot.store.values import Note

router = APIRouter(prefix="/api", responses=REFUSALS)

PlayerId = Annotated[str, Path(description="the id of the player the note is on")]


class NoteBody(BaseModel):
    """A note as written: ``text`` (trimmed; at most 2,000 characters) and ``colour`` (one
    of the palette, or null). Both empty: the note is deleted."""

    model_config = ConfigDict(extra="forbid")
    text: str = ""
    colour: str | None = None


async def owner(player: Caller) -> Player:
    """The caller, who needs a session: refused (401) before the body is read."""
    return needs(player)


Owner = Annotated[Player, Depends(owner)]


def note_json(note: Note) -> dict[str, Any]:
    return {
        "player": str(note.subject_id),  # ids are text
        "name": note.subject_name,
        "text": note.text,
        "colour": note.colour,
        "updated": utc_text(note.updated_at),
    }


def subject_id(text: str) -> int:
    """A player's id from the path: digits naming a player that can exist, else no such
    player (as one that does not exist)."""
    if len(text) <= len(str(LARGEST_ID)) and text.isascii() and text.isdigit():
        return int(text)
    raise ProtocolError(ErrorCode.NOT_FOUND, said("there is no player {player}", player=repr(text)))


def refused(error: NotFound | TooManyNotes) -> ProtocolError:
    """The store's refusal of a note in the room's codes: an unknown player is
    ``not_found``, a note past the cap ``rate_limited`` (as a host's tables past theirs)."""
    code = ErrorCode.NOT_FOUND if isinstance(error, NotFound) else ErrorCode.RATE_LIMITED
    return ProtocolError(code, error.said or str(error))


@router.get("/me/notes")
async def my_notes(room: RoomDep, player: Owner) -> dict[str, Any]:
    """Every note of the caller's, by player id, and the palette of tags."""
    kept = await room.db(room.store.notes_of, player.id)
    return {"notes": [note_json(note) for note in kept], "colours": list(COLOURS)}


@router.put("/me/notes/{player_id}")
async def keep_note(
    player_id: PlayerId, body: NoteBody, room: RoomDep, player: Owner
) -> dict[str, Any]:
    """Write (or replace) the caller's note on a player: the note kept, or null when the
    text and the colour were both empty (the note is deleted)."""
    subject = subject_id(player_id)
    room.guard.note_changed(player.id)
    try:
        note = await room.db(room.store.keep_note, player.id, subject, body.text, body.colour)
    except (NotFound, TooManyNotes) as error:
        raise refused(error) from error
    return {"note": None if note is None else note_json(note)}


@router.delete("/me/notes/{player_id}", status_code=204)
async def drop_note(player_id: PlayerId, room: RoomDep, player: Owner) -> Response:
    """Delete the caller's note on a player (none there: nothing to do)."""
    subject = subject_id(player_id)
    room.guard.note_changed(player.id)
    try:
        await room.db(room.store.drop_note, player.id, subject)
    except NotFound as error:
        raise refused(error) from error
    return Response(status_code=204)
