"""The table page's host controls of issue 19: ban a seat (the banned player's page says
so and shows the table no more), make a new invite (the link and the page's address
change), close the table and reopen it from the page."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import expect
from room_helpers import FAST, RoomServer, running_room
from store_fixtures import cheap_hasher, fresh_sqlite_database

from splitpot.store import open_store


@pytest.fixture
def room(tmp_path: Path) -> Iterator[RoomServer]:
    """The room at a pace a page keeps up with on a busy machine: at FAST's (a hand every
    few dozen milliseconds) a page that falls 512 frames behind is dropped by the room, and
    a click sent meanwhile is lost with it."""
    store = open_store(
        fresh_sqlite_database(tmp_path / "room.sqlite3"), password_hasher=cheap_hasher()
    )
    try:
        with running_room(store, replace(FAST, hand_pause=0.4, bot_delay=0.05)) as server:
            yield server
    finally:
        store.close()


def test_the_host_bans_makes_a_new_invite_closes_and_reopens(
    room: RoomServer, players: Any
) -> None:
    holly, bob = players("Holly"), players("Bob")
    assert holly.token is not None
    created = room.create_table(holly.token, name="Friday", seats=3, private=True)
    table, invite = created["table"]["id"], created["invite"]
    holly.open_table(table, invite)
    bob.open_table(table, invite)
    bob.sit(2, 100)
    panel = holly.page.locator("#host-controls")
    expect(panel.locator("#host-seat-pick option")).to_have_count(1)
    panel.locator("#host-seat-pick").select_option("2")
    panel.get_by_role("button", name="Ban").click()
    expect(bob.page.locator("#table-message")).to_have_text(
        "The host banned you from the table Friday"
    )
    expect(bob.page.locator("#seats")).to_be_hidden()
    expect(holly.seat(2).get_by_role("button", name="Sit in seat 2")).to_be_visible()

    link = holly.page.locator("#invite-link")
    expect(link).to_have_value(f"{room.url}/tables/{table}?invite={invite}")
    holly.page.get_by_role("button", name="New invite").click()
    expect(link).not_to_have_value(f"{room.url}/tables/{table}?invite={invite}")
    fresh = next(f["invite"] for f in holly.received if f["type"] == "invite")
    expect(link).to_have_value(f"{room.url}/tables/{table}?invite={fresh}")
    assert holly.page.url.endswith(f"?invite={fresh}")

    holly.page.once("dialog", lambda dialog: dialog.accept())
    panel.get_by_role("button", name="Close the table").click()
    expect(holly.page.locator("#table-message")).to_have_text("The table Friday is closed")
    reopen = holly.page.get_by_role("button", name="Reopen the table")
    reopen.click()
    expect(reopen).to_be_hidden()
    expect(holly.seat(2).get_by_role("button", name="Sit in seat 2")).to_be_visible()
    expect(holly.page.locator("#table-message")).not_to_contain_text("closed")


def test_the_host_ends_an_audited_session_and_the_page_links_its_audit(
    room: RoomServer, players: Any
) -> None:
    holly = players("Holly")
    assert holly.token is not None
    table = room.create_table(holly.token, name="Audited", seats=3, bots=2, audit=True)
    table_id = table["table"]["id"]
    holly.open_table(table_id)
    info = holly.page.locator("#table-info")
    expect(info).to_contain_text("every salt published when the session ends")
    expect(holly.page.locator("#audit-link")).to_have_attribute(
        "href", f"{room.url}/api/tables/{table_id}/audit"
    )
    log = holly.page.locator("#dealer-log")
    expect(log).to_contain_text("wins", timeout=30_000)  # the bots have played a hand
    # paused first: the bots deal hands back to back, and the log keeps its last 300 lines
    holly.page.locator("#host-pause").click()
    expect(holly.page.locator("#host-paused")).to_be_visible()
    expect(log).to_contain_text("The host pauses the game", timeout=30_000)
    holly.page.once("dialog", lambda dialog: dialog.accept())
    holly.page.locator("#host-controls").get_by_role("button", name="End the session").click()
    expect(log).to_contain_text("Session 1 ends: every salt of hand", timeout=30_000)
    answer = holly.page.request.get(str(holly.page.locator("#audit-link").get_attribute("href")))
    assert answer.ok, answer.text()
    audit = answer.json()
    assert audit["session"] == 1 and audit["hands"] and len(audit["hands"][0]["salts"]) == 52
