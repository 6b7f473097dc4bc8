"""The Session tab's hi/lo statistics (stats.js) and the chart of chips (chart.js) on a
phone: the room's figures for each player, and a line per player in the SVG plot, with
its legend and its table."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import expect
from room_helpers import Client, RoomServer, is_event, paused_table, play_hands


def test_the_session_tab_shows_the_figures_and_a_line_per_player(
    room: RoomServer, players: Any
) -> None:
    ann = players("Ann", size="phone")
    assert ann.token is not None
    table, host = paused_table(room, ann.token, name="Stats", seats=2)
    bob = Client(room, room.guest("Bob")[1])
    host.sit(table, 1, 100)
    bob.sit(table, 2, 100)
    host.send({"type": "host", "table": table, "action": "resume"})
    play_hands([host, bob], table, 3)
    host.send({"type": "host", "table": table, "action": "pause"})
    host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")
    with room.http(ann.token) as http:
        stats = http.get(f"/api/tables/{table}/stats").json()
    ann.open_table(table)
    ann.page.get_by_role("button", name="Last hands").click()
    dialog = ann.page.locator("#hands-dialog")
    dialog.get_by_role("tab", name="Session").click()

    rows = dialog.locator(".stats-scroll .figures-table tbody tr")
    expect(rows).to_have_count(2)
    mine = stats["figures"][stats["you"]]
    row = dialog.locator(f'.figures-table tr[data-player="{stats["you"]}"]')
    expect(row.locator("th")).to_have_text("Ann (you)")
    expect(row.locator(".figure-hands")).to_have_text(str(mine["hands"]))
    vpip = mine["vpip"]["percent"]
    expect(row.locator(".figure-vpip")).to_have_text("–" if vpip is None else f"{round(vpip)}%")

    plot = dialog.locator("svg.chart-plot")
    expect(plot.locator("title")).to_have_text("Chips over the session")
    lines = plot.locator(".chart-line")
    expect(lines).to_have_count(2)
    for player, points in stats["chips"].items():
        line = plot.locator(f'.chart-line[data-series="{player}"]')
        expect(line.locator("circle")).to_have_count(len(points))
    expect(dialog.locator(".chart-legend li")).to_have_text(["Ann", "Bob"])
    box = plot.bounding_box()
    assert box is not None and box["width"] <= ann.page.viewport_size["width"]

    dialog.get_by_role("button", name="Whole table").click()
    expect(dialog.get_by_role("button", name="Whole table")).to_have_attribute(
        "aria-pressed", "true"
    )
    expect(plot.locator("title").or_(dialog.locator("svg.chart-plot title"))).to_have_text(
        "Chips over the table's hands"
    )
    for client in (host, bob):
        client.close()
