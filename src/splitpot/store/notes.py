"""A player's private notes and colour tags on other players (issue 24): each kept, changed
and read for its owner only. Every check names the bad part and changes nothing."""

from __future__ import annotations

import unicodedata
from datetime import datetime

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from splitpot.i18n import said
from splitpot.store.errors import NotFound, StoreError
from splitpot.store.models import NoteRow, PlayerRow
from splitpot.store.players import LARGEST_ID
from splitpot.store.values import Note
from splitpot.text import code_point

NOTE_LENGTH = 2000  # characters of a note's text (the column's size)
NOTES_PER_PLAYER = 1000  # notes one player keeps, on as many others
COLOURS = ("red", "orange", "yellow", "green", "blue", "purple", "grey")  # the tags
LINE_BREAKS = frozenset("\n\t")  # the control characters a note keeps


class BadNote(StoreError):
    """A note refused: on oneself, too long a text, a character it cannot keep, a colour
    outside COLOURS."""


class TooManyNotes(StoreError):
    """A new note past NOTES_PER_PLAYER."""


def note_value(row: NoteRow, name: str) -> Note:
    return Note(row.subject_id, name, row.text, row.colour, row.updated_at)


def notes_of(session: Session, owner_id: int) -> list[Note]:
    """The owner's notes, by the id of the player each is on."""
    rows = session.execute(
        select(NoteRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == NoteRow.subject_id)
        .where(NoteRow.owner_id == owner_id)
        .order_by(NoteRow.subject_id)
    )
    return [note_value(row, name) for row, name in rows]


def keep_note(
    session: Session, owner_id: int, subject_id: int, text: str, colour: str | None, now: datetime
) -> Note | None:
    """The owner's note on the subject written (or replaced): ``text`` trimmed, ``colour``
    one of COLOURS or None. An empty text with no colour deletes the note (None)."""
    subject = _subject(session, owner_id, subject_id)
    cleaned = clean_text(text)
    check_colour(colour)
    # the owner's row locked: two new notes at once count each other against the cap
    session.get(PlayerRow, owner_id, with_for_update=True)
    if not cleaned and colour is None:
        _forget(session, owner_id, subject_id)
        return None
    row = session.get(NoteRow, (owner_id, subject_id))
    if row is None:
        kept = session.scalar(
            select(func.count()).select_from(NoteRow).where(NoteRow.owner_id == owner_id)
        )
        if (kept or 0) >= NOTES_PER_PLAYER:
            raise TooManyNotes(
                said(
                    "a player keeps at most {most} notes: delete one first",
                    most=NOTES_PER_PLAYER,
                )
            )
        row = NoteRow(owner_id=owner_id, subject_id=subject_id)
        session.add(row)
    row.text, row.colour, row.updated_at = cleaned, colour, now
    return note_value(row, subject.name)


def drop_note(session: Session, owner_id: int, subject_id: int) -> bool:
    """Delete the owner's note on the subject; True if there was one."""
    _subject(session, owner_id, subject_id)
    return _forget(session, owner_id, subject_id)


def _forget(session: Session, owner_id: int, subject_id: int) -> bool:
    row = session.get(NoteRow, (owner_id, subject_id))
    if row is not None:
        session.delete(row)
    return row is not None


def _subject(session: Session, owner_id: int, subject_id: int) -> PlayerRow:
    """The player a note is on: another, who exists."""
    if subject_id == owner_id:
        raise BadNote(said("a note is on another player, not on yourself"))
    row = session.get(PlayerRow, subject_id) if 0 < subject_id <= LARGEST_ID else None
    if row is None:
        raise NotFound(said("there is no player {player}", player=subject_id))
    return row


def clean_text(text: str) -> str:
    """The text as kept: line ends as \\n, trimmed; at most NOTE_LENGTH characters, with no
    control character but the line break and the tab (PostgreSQL keeps no NUL) and no lone
    surrogate (which no database encodes)."""
    cleaned = text.replace("\r\n", "\n").replace("\r", "\n").strip()
    if len(cleaned) > NOTE_LENGTH:
        raise BadNote(
            said(
                "the note's text has {length} characters: at most {most}",
                length=len(cleaned),
                most=NOTE_LENGTH,
            )
        )
    for char in cleaned:
        category = unicodedata.category(char)
        if (category == "Cc" and char not in LINE_BREAKS) or category == "Cs":
            raise BadNote(
                said(
                    "the note's text holds {char}, which a note cannot keep", char=code_point(char)
                )
            )
    return cleaned


def check_colour(colour: str | None) -> None:
    """A tag is one of COLOURS (or None: no tag)."""
    if colour is not None and colour not in COLOURS:
        shown = colour if len(colour) <= 20 else colour[:20] + "…"
        raise BadNote(
            said(
                "the colour {colour} is not one of {colours}",
                colour=repr(shown),
                colours=", ".join(COLOURS),
            )
        )
