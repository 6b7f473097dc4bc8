"""A player's private notes and colour tags on other players (issue 24) in the store:
written, replaced, read and deleted for their owner only; each refusal names the bad part
and changes nothing. On SQLite and PostgreSQL (tests/store_fixtures.py)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta

import pytest
from store_fixtures import StoreFactory

from splitpot.store import NotFound, Store, StoreError
from splitpot.store import notes as notes_module
from splitpot.store.notes import NOTE_LENGTH, BadNote, TooManyNotes
from splitpot.store.values import Note

START = datetime(2026, 12, 3, 9, 0, tzinfo=UTC)


def ticking() -> Iterator[datetime]:
    """A clock a second further at each reading."""
    moment = START
    while True:
        yield moment
        moment += timedelta(seconds=1)


@pytest.fixture
def clocked(make_store: StoreFactory) -> Store:
    moments = ticking()
    return make_store(clock=lambda: next(moments))


def guests(store: Store, *names: str) -> list[int]:
    return [store.create_guest(name).player.id for name in names]


def test_a_note_is_written_replaced_read_and_deleted_by_its_owner_only(clocked: Store) -> None:
    ann, bob, cy = guests(clocked, "Ann", "Bob", "Cy")
    assert clocked.notes_of(ann) == []
    kept = clocked.keep_note(ann, bob, "  limps every button\r\nthen folds  ", "red")
    assert kept is not None
    assert (kept.subject_id, kept.subject_name, kept.text, kept.colour) == (
        bob,
        "Bob",
        "limps every button\nthen folds",
        "red",
    )
    clocked.keep_note(ann, cy, "", "blue")  # a tag alone
    clocked.keep_note(bob, ann, "Ann bluffs", None)  # a note alone, Bob's own
    read = clocked.notes_of(ann)
    assert [(n.subject_name, n.text, n.colour) for n in read] == [
        ("Bob", "limps every button\nthen folds", "red"),
        ("Cy", "", "blue"),
    ]
    assert read[0] == kept and kept.updated_at.tzinfo is not None
    replaced = clocked.keep_note(ann, bob, "three-bets light", "green")
    assert replaced is not None and replaced.updated_at > kept.updated_at
    assert clocked.notes_of(ann)[0] == replaced
    assert [(n.subject_name, n.text) for n in clocked.notes_of(bob)] == [("Ann", "Ann bluffs")]
    assert clocked.notes_of(cy) == []  # nobody's notes are on Cy's side
    assert clocked.keep_note(ann, cy, " \n ", None) is None  # empty, no colour: deleted
    assert clocked.drop_note(ann, bob) is True
    assert clocked.drop_note(ann, bob) is False
    assert clocked.notes_of(ann) == []
    assert [n.text for n in clocked.notes_of(bob)] == ["Ann bluffs"]


def test_the_longest_text_and_any_script_are_kept_whole(store: Store) -> None:
    ann, bob = guests(store, "Ann", "Bob")
    text = ("Fold 🂡 ベット Ставка\t" * 200)[:NOTE_LENGTH]
    assert text == text.strip() and len(text) == NOTE_LENGTH
    store.keep_note(ann, bob, f"  {text}\n", "purple")  # trimmed before it is measured
    [note] = store.notes_of(ann)
    assert (note.text, note.colour) == (text, "purple")


@pytest.mark.parametrize(
    ("subject", "text", "colour", "error", "message"),
    [
        ("ann", "me", None, BadNote, "a note is on another player, not on yourself"),
        (0, "x", None, NotFound, "there is no player 0"),
        (2**40, "x", None, NotFound, f"there is no player {2**40}"),
        (10**6, "x", None, NotFound, f"there is no player {10**6}"),
        (
            "bob",
            "x" * (NOTE_LENGTH + 1),
            None,
            BadNote,
            "the note's text has 2001 characters: at most 2000",
        ),
        (
            "bob",
            "a\x00b",
            None,
            BadNote,
            "the note's text holds U+0000 (a control character), which a note cannot keep",
        ),
        (
            "bob",
            "a\ud800b",
            None,
            BadNote,
            "the note's text holds U+D800 (category Cs), which a note cannot keep",
        ),
        (
            "bob",
            "ring\x07",
            None,
            BadNote,
            "the note's text holds U+0007 (a control character), which a note cannot keep",
        ),
        (
            "bob",
            "x",
            "pink",
            BadNote,
            "the colour 'pink' is not one of red, orange, yellow, green, blue, purple, grey",
        ),
        ("bob", "x", "Red", BadNote, "the colour 'Red' is not one of red, orange"),
        ("bob", "x", "", BadNote, "the colour '' is not one of red"),
        ("bob", "x", "r" * 40, BadNote, f"the colour '{'r' * 20}…' is not one of"),
    ],
)
def test_each_bad_part_is_named_and_nothing_changes(
    store: Store,
    subject: str | int,
    text: str,
    colour: str | None,
    error: type[StoreError],
    message: str,
) -> None:
    ann, bob = guests(store, "Ann", "Bob")
    store.keep_note(ann, bob, "kept", "grey")
    before = store.notes_of(ann)
    subject_id = {"ann": ann, "bob": bob}.get(str(subject), subject)
    assert isinstance(subject_id, int)
    with pytest.raises(error) as refused:
        store.keep_note(ann, subject_id, text, colour)
    assert str(refused.value).startswith(message)
    assert store.notes_of(ann) == before
    if error is NotFound or subject == "ann":
        with pytest.raises(error, match=re.escape(message)):
            store.drop_note(ann, subject_id)


def test_a_player_keeps_a_bounded_number_of_notes(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past the cap a new note is refused; a note kept may still change, and one deleted
    makes room."""
    monkeypatch.setattr(notes_module, "NOTES_PER_PLAYER", 2)
    ann, bob, cy, dee = guests(store, "Ann", "Bob", "Cy", "Dee")
    store.keep_note(ann, bob, "one", None)
    store.keep_note(ann, cy, "two", None)
    with pytest.raises(TooManyNotes, match=r"^a player keeps at most 2 notes: delete one first$"):
        store.keep_note(ann, dee, "three", None)
    assert [n.subject_id for n in store.notes_of(ann)] == [bob, cy]
    changed = store.keep_note(ann, cy, "two, changed", "yellow")
    assert changed == Note(cy, "Cy", "two, changed", "yellow", changed.updated_at)
    store.keep_note(bob, dee, "Bob's own count", None)  # each player's cap is their own
    store.drop_note(ann, bob)
    store.keep_note(ann, dee, "three", None)
    assert [n.text for n in store.notes_of(ann)] == ["two, changed", "three"]
