"""The table page of the host's room (issue 24): a seat asked for, approved by the host
with another stack; the host's stack edit; a full table's waiting list and the seat it
offers; the lobby's badges."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import expect
from room_helpers import RoomServer


def test_a_seat_is_asked_for_approved_with_another_stack_and_edited(
    room: RoomServer, players: Any
) -> None:
    holly, bob = players("Holly"), players("Bob")
    assert holly.token is not None
    table = room.create_table(holly.token, name="By approval", seats=3, approval=True)
    table_id = table["table"]["id"]
    holly.open_table(table_id)
    bob.open_table(table_id)
    bob.page.get_by_role("button", name="Sit in seat 2", exact=True).click()
    dialog = bob.page.locator("dialog#buy-in")
    expect(dialog.locator(".buy-in-approval")).to_be_visible()
    dialog.locator("input[name=buy_in]").fill("100")
    dialog.get_by_role("button", name="Ask for the seat").click()
    expect(dialog).to_be_hidden()
    expect(bob.page.locator("#seat-waiting-status")).to_contain_text(
        "You asked for seat 2 with 100: the host answers within"
    )

    expect(holly.seat(2)).to_contain_text("Held for Bob")
    requests = holly.page.locator("#host-requests")
    expect(requests).to_contain_text("Bob asks for seat 2 with 100")
    requests.locator("input[type=number]").fill("150")
    requests.get_by_role("button", name="Approve").click()
    expect(bob.seat(2)).to_have_class(re.compile(r"\bme\b"))
    expect(bob.stack(2)).to_contain_text("150")
    expect(requests).to_be_hidden()
    expect(bob.page.locator("#dealer-log")).to_contain_text("The host seats Bob")

    form = holly.page.locator("#host-seat")
    form.locator("#host-seat-pick").select_option("2")
    form.locator("#host-stack-amount").fill("-50")
    form.get_by_role("button", name="Edit the stack").click()
    expect(bob.page.locator("#dealer-log")).to_contain_text(
        "The host takes 50 from Bob's stack: 100"
    )
    expect(bob.stack(2)).to_contain_text("100")

    holly.page.once("dialog", lambda dialog: dialog.accept())
    holly.page.locator("#host-controls").get_by_role("button", name="Close the table").click()
    expect(holly.page.locator("#table-message")).to_have_text("The table By approval is closed")
    holly.page.get_by_role("button", name="A new table with these settings").click()
    expect(holly.page).not_to_have_url(re.compile(rf"/tables/{table_id}$"))
    expect(holly.page.locator("h1")).to_have_text("By approval")
    expect(holly.page.locator("#table-info")).to_contain_text("0 of 3")


def test_a_full_table_offers_its_freed_seat_to_the_first_in_line(
    room: RoomServer, players: Any
) -> None:
    holly, bob, cy = players("Holly"), players("Bob"), players("Cy")
    assert holly.token is not None
    table_id = room.create_table(holly.token, name="Two seats", seats=2)["table"]["id"]
    holly.open_table(table_id)
    holly.page.locator("#host-pause").click()  # no hand: Bob leaves at once
    expect(holly.page.locator("#dealer-log")).to_contain_text("The host pauses the game")
    holly.sit(1, 100)
    bob.open_table(table_id)
    bob.sit(2, 100)
    cy.open_table(table_id)
    cy.page.get_by_role("button", name="Join the waiting list").click()
    expect(cy.page.locator("#seat-waiting-status")).to_have_text(
        "You are number 1 on the waiting list of 1."
    )
    holly.page.goto(f"{room.url}/")
    row = holly.page.locator(f"tr[data-table='{table_id}']")
    expect(row.locator(".badge.waiting")).to_have_text("1 waiting")
    bob.page.get_by_role("button", name="Leave", exact=True).click()
    take = cy.page.get_by_role("button", name="Take the seat")
    expect(take).to_be_visible()
    expect(cy.page.locator("#seat-waiting-status")).to_contain_text("Seat 2 is yours")
    take.click()
    dialog = cy.page.locator("dialog#buy-in")
    dialog.locator("input[name=buy_in]").fill("100")
    dialog.get_by_role("button", name="Sit down").click()
    expect(cy.seat(2)).to_have_class(re.compile(r"\bme\b"))
    expect(cy.page.locator("#seat-waiting")).to_be_hidden()
