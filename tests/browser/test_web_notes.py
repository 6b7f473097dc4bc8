"""Private notes on other players in the table page (issue 24): Ann, on a phone, tags Bob
and writes a note from his seat; the tag shows on his plate with the note as its tooltip
and in the seat's label, after a reload too; Cy's browser shows nothing of it."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Locator, expect
from room_helpers import Client, RoomServer

NOTE = "limps the button, folds to a raise"


def shows_note(seat: Locator) -> None:
    """The seat shows Ann's red tag, her note as its tooltip and in its label."""
    mark = seat.locator(".note-button")
    expect(mark).to_have_attribute("data-note-colour", "red")
    expect(mark).to_have_accessible_name("Your note on Bob")
    expect(seat.locator(".plate")).to_have_attribute("title", NOTE)
    expect(seat).to_have_attribute("aria-label", re.compile(rf", tagged Red, your note: {NOTE}$"))


def test_a_note_and_its_tag_show_on_the_players_seat_for_its_owner_only(
    room: RoomServer, players: Any
) -> None:
    ann = players("Ann", size="phone")
    assert ann.token is not None
    bob_id, bob_token = room.guest("Bob")
    table = room.create_table(ann.token, name="Notes", seats=2)["table"]["id"]
    bob = Client(room, bob_token)
    bob.sit(table, 2, 100)
    asked: list[str] = []
    ann.page.on("request", lambda request: asked.append(request.url))
    ann.open_table(table)
    mark = ann.seat(2).locator(".note-button")
    expect(mark).to_have_accessible_name("Write a note on Bob")
    mark.click()
    dialog = ann.page.locator("dialog.note-dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_label("Note").fill(NOTE)
    dialog.get_by_label("Red").check()
    dialog.get_by_role("button", name="Save").click()
    expect(dialog).to_be_hidden()
    shows_note(ann.seat(2))  # drawn from the room's answer
    ann.page.reload()
    ann.wait_until_drawn()
    shows_note(ann.seat(2))  # from the notes fetched anew
    ann.page.screenshot(path="/tmp/notes-phone.png")
    notes_asked = [url for url in asked if "/api/me/notes" in url]
    assert notes_asked and all(url.startswith(ann.base_url) for url in asked)
    assert f"{ann.base_url}/api/me/notes/{bob_id}" in notes_asked

    cy = players("Cy")
    cy.open_table(table)
    other = cy.seat(2).locator(".note-button")
    expect(other).to_have_accessible_name("Write a note on Bob")
    expect(other).not_to_have_attribute("data-note-colour", re.compile(".*"))
    expect(cy.seat(2).locator(".plate")).not_to_have_attribute("title", re.compile(".*"))
    assert NOTE not in cy.page.content()
    bob.close()
