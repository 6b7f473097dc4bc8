"""The lobby in a browser: signing in as a guest, the table list and its filters, a new
private table's invite link, and the page's icon."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from room_helpers import RoomServer


def test_a_guest_signs_in_and_finds_the_tables_with_the_filters(
    room: RoomServer, players: Any
) -> None:
    _, token = room.guest("Holly")
    pot = room.create_table(token, name="Potters", structure="pot-limit")["table"]["id"]
    fixed = room.create_table(token, name="Fixers", structure="limit", seats=2)["table"]["id"]
    cy = players("Cy", signed_in=False)
    cy.open_lobby()
    cy.sign_in_as_guest()
    expect(cy.page.locator("#who")).to_contain_text("Cy")
    rows = cy.page.locator("#tables [data-table]")
    expect(rows).to_have_count(2)
    expect(cy.page.locator(f'#tables [data-table="{fixed}"]')).to_contain_text("Fixers")
    expect(cy.page.locator(f'#tables [data-table="{fixed}"]')).to_contain_text("0/2")
    cy.page.locator("select[name=filter-structure]").select_option("limit")
    expect(rows).to_have_count(1)
    expect(rows).to_have_attribute("data-table", fixed)
    cy.page.locator("select[name=filter-structure]").select_option("")
    expect(rows).to_have_count(2)
    cy.open_from_lobby(pot)
    expect(cy.page.locator("#felt .seat")).to_have_count(6)


def test_a_private_table_opens_with_its_invite_link(room: RoomServer, players: Any) -> None:
    dee = players("Dee")
    dee.open_lobby()
    table = dee.create_table(name="Dee's kitchen", private=True, seats=4)
    assert "invite=" in dee.page.url
    link = dee.page.locator("#invite-link")
    expect(link).to_have_value(dee.page.url)
    with room.http() as http:
        assert http.get("/api/tables").json()["tables"] == []
    eve = players("Eve")
    eve.page.goto(link.input_value())
    eve.wait_until_drawn()
    eve.sit(2, 100)
    expect(dee.seat(2).locator(".name")).to_have_text("Eve")
    assert table in eve.page.url


def test_the_pages_have_an_icon(room: RoomServer, players: Any) -> None:
    fay = players("Fay", signed_in=False)
    fay.open_lobby()
    icon = fay.page.locator("link[rel=icon]").get_attribute("href")
    for path in (icon, "/favicon.ico"):
        answer = fay.page.request.get(room.url + str(path))
        assert answer.ok and answer.headers["content-type"].startswith("image/svg+xml"), path


def test_accounts_sign_up_log_in_and_a_taken_name_is_refused_inline(
    room: RoomServer, players: Any
) -> None:
    with room.http() as http:
        assert http.post("/api/accounts", json={"name": "Hal", "password": "hal-secret"}).is_success
    ida = players("Ida", signed_in=False)
    ida.tolerate(r"\b409\b")  # the room refuses the taken name: that is the point
    ida.open_lobby()
    ida.page.get_by_role("button", name="Sign in").click()
    dialog = ida.page.locator("dialog#signin")
    dialog.locator("input[name=name]").fill("hal")
    dialog.locator("input[name=password]").fill("another-secret")
    dialog.get_by_role("button", name="Sign up").click()
    expect(dialog.locator("[role=alert]").filter(has_text="taken")).to_be_visible()
    expect(dialog).to_be_visible()

    dialog.locator("input[name=name]").fill("Ida")
    dialog.locator("input[name=password]").fill("ida-secret")
    dialog.get_by_role("button", name="Sign up").click()
    expect(dialog).to_be_hidden()
    expect(ida.page.locator("#who")).to_contain_text("Ida")
    ida.page.get_by_role("button", name="Sign out").click()
    expect(ida.page.locator("#who")).not_to_contain_text("Ida")
    assert ida.page.evaluate("localStorage.getItem('splitpot.identity')") is None

    ida.page.get_by_role("button", name="Sign in").click()
    dialog.locator("input[name=name]").fill("Ida")
    dialog.locator("input[name=password]").fill("ida-secret")
    dialog.get_by_role("button", name="Log in").click()
    expect(dialog).to_be_hidden()
    expect(ida.page.locator("#who")).to_contain_text("Ida")


def test_a_table_made_with_the_audit_is_announced_so_in_the_lobby(
    room: RoomServer, players: Any
) -> None:
    gus = players("Gus")
    gus.open_lobby()
    table = gus.create_table(name="Audited game", audit=True, seats=4)
    with room.http() as http:
        [listed] = http.get("/api/tables").json()["tables"]
    assert (listed["id"], listed["audit"]) == (table, True)
    hal = players("Hal")
    hal.open_lobby()
    row = hal.page.locator(f'#tables [data-table="{table}"]')
    expect(row.locator(".badge.audit")).to_have_text("Audited")
