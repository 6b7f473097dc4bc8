"""The fair deal in the page (FAIRNESS.md): the table page commits to its entropy once
seated and reveals it at the deal, so the room's record of the hand lists the seat's
entropy and verify.py passes it; the hands panel's Verify button shows the same checks as
verify.py, passing, or failing by name when the record was changed on its way; the page
/fairness and the links to it and back to the lobby."""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from dishonest import cheating
from feed import command, heads_up, showdown
from player import Player
from playwright.sync_api import Route, expect
from room_helpers import RoomServer

from splitpot.fair import player_commitment
from splitpot.verify import Check, Own, verify_hand


def sent(player: Player, kind: str) -> list[dict[str, Any]]:
    """The frames of ``kind`` the page sent, once it has sent one (waits up to 5 s)."""
    for _ in range(100):
        found = [frame for frame in player.sent if frame.get("type") == kind]
        if found:
            return found
        player.page.wait_for_timeout(50)
    raise AssertionError(f"the page sent no {kind}: {player.sent}")


def played_hand(room: RoomServer, players: Any, listed: bool = True) -> tuple[Player, str]:
    """Ann sits at a table through her page and plays one hand to the showdown against
    Bob on the wire; her page, the hand's id (its announcement as Ann's page got it in
    ``ANNOUNCED``). ``listed``: the room announces Ann's commitment (an honest one does)."""
    ann = players("Ann")
    assert ann.token is not None
    table, feed, bob = heads_up(room, ann.token, "Fair")
    ann.open_table(table)
    ann.sit(1, 100)
    feed.sit(2, 100)
    sent(ann, "commit")
    ann.page.wait_for_timeout(200)  # the commitment reaches the table before the deal
    commit = sent(ann, "commit")[-1]
    hand = feed.deal(1)
    started = feed.event("hand_started", hand=hand)
    ANNOUNCED[hand] = {**started, "table": table}
    ann_listed = [{"seat": 1, "commitment": commit["commitment"]}]
    assert started["fairness"]["players"] == (ann_listed if listed else [])
    feed.play(
        hand,
        {
            seat: command(client, table, showdown)
            for seat, client in ((1, feed.clients[1]), (2, bob))
        },
    )
    if started["fairness"]["players"]:
        reveal = next(f for f in sent(ann, "reveal") if f["hand"] == hand)
        assert reveal["table"] == table
    feed.close()
    return ann, hand


ANNOUNCED: dict[str, dict[str, Any]] = {}


def page_checks(player: Player, record: dict[str, Any]) -> list[Check]:
    """verify.py's checks of ``record`` as the page makes them: against the announcement
    the page received, with the entropy it revealed."""
    reveals = [f for f in player.sent if f.get("type") == "reveal" and f["hand"] == record["id"]]
    own = Own(1, bytes.fromhex(reveals[-1]["entropy"])) if reveals else None
    return verify_hand(record, ANNOUNCED[record["id"]], own)


def record_of(room: RoomServer, player: Player, hand: str) -> dict[str, Any]:
    with room.http(player.token) as http:
        answer = http.get(f"/api/hands/{hand}")
    assert answer.status_code == 200, answer.text
    record: dict[str, Any] = answer.json()
    return record


def shown(checks: list[Check]) -> list[str]:
    """The page's list items for verify.py's checks."""
    return [
        f"✓ {c.name}" if c.passed else f"✗ {c.name}" + (f": {c.detail}" if c.detail else "")
        for c in checks
    ]


def verify_on_page(player: Player, hand: str) -> Any:
    """Open the hand in the hands panel and press Verify; the list of checks."""
    page = player.page
    page.get_by_role("button", name="Last hands").click()
    page.locator(f'#hands-dialog [data-hand="{hand}"]').click()
    fair = page.get_by_role("region", name="Fair deal")
    expect(fair.get_by_role("link", name="How the deal is fair")).to_have_attribute(
        "href", "/fairness"
    )
    fair.get_by_role("button", name="Verify the deal").click()
    return fair.get_by_role("list", name="Checks of the deal").get_by_role("listitem")


def test_the_page_adds_its_entropy_and_the_verify_button_passes_the_deal(
    room: RoomServer, players: Any
) -> None:
    ann, hand = played_hand(room, players)
    record = record_of(room, ann, hand)
    fairness = record["fairness"]
    [mine] = fairness["players"]
    assert mine["seat"] == 1 and mine["entropy"] is not None
    assert mine["entropy"] == next(f for f in ann.sent if f.get("type") == "reveal")["entropy"]
    checks = verify_hand(record)
    assert [c.name for c in checks if not c.passed] == []
    assert "seat 1's entropy" in [c.name for c in checks]
    items = verify_on_page(ann, hand)
    on_page = page_checks(ann, record)
    assert [c.name for c in on_page if not c.passed] == []
    assert {"announced server commitment", "your entropy"} <= {c.name for c in on_page}
    expect(items).to_have_text(shown(on_page))
    expect(ann.page.get_by_role("status").filter(has_text="checks pass")).to_be_visible()
    expect(ann.page.locator("#fair-warnings")).to_be_hidden()


def flip(text: str) -> str:
    return ("1" if text[0] == "0" else "0") + text[1:]


def tamper_seed(fairness: dict[str, Any]) -> str:
    fairness["server_seed"] = flip(fairness["server_seed"])
    return "✗ server seed: T = H(t)"


def tamper_salt(fairness: dict[str, Any]) -> str:
    entry = fairness["revealed"][-1]
    entry["salt"] = flip(entry["salt"])
    return f"✗ card {entry['card']} at position {entry['position']}: c = H(r, card)"


@pytest.mark.parametrize("tamper", [tamper_seed, tamper_salt], ids=["server seed", "salt"])
def test_a_record_changed_on_its_way_fails_the_check_by_name(
    room: RoomServer, players: Any, tamper: Any
) -> None:
    ann, hand = played_hand(room, players)
    changed: list[dict[str, Any]] = []

    def change(route: Route) -> None:
        if "format=events" in route.request.url:  # the replayer's events: not the record
            route.continue_()
            return
        response = route.fetch()
        record = response.json()
        failing = tamper(record["fairness"])
        changed.append({"record": record, "failing": failing})
        route.fulfill(response=response, body=json.dumps(record))

    ann.page.route("**/api/hands/**", change)
    items = verify_on_page(ann, hand)
    expect(ann.page.get_by_role("status").filter(has_text="checks fail")).to_be_visible()
    seen = changed[-1]  # the page's own check at the hand's end may have gone first
    checks = page_checks(ann, seen["record"])
    expect(items).to_have_text(shown(checks))
    expect(items.filter(has_text=seen["failing"])).to_have_count(1)


@pytest.mark.parametrize(
    ("cheat", "warning"),
    [
        ("regrind", "announced server commitment (T is not the one announced)"),
        ("drop_entropy", "your entropy (missing: the room dealt without your entropy)"),
        ("reorder", "announced dealing order"),
        ("omit_commitment", "was announced without your commitment"),
    ],
)
def test_the_page_warns_at_once_when_the_room_cheats(
    room: RoomServer, players: Any, monkeypatch: pytest.MonkeyPatch, cheat: str, warning: str
) -> None:
    cheating(monkeypatch, cheat)
    ann, hand = played_hand(room, players, listed=cheat != "omit_commitment")
    alert = ann.page.get_by_role("alert", name="Warnings about the deal")
    expect(alert).to_be_visible()
    expect(alert).to_contain_text(warning)
    if cheat != "omit_commitment":
        verify_on_page(ann, hand)
        expect(ann.page.get_by_role("status").filter(has_text="checks fail")).to_be_visible()


def test_a_hand_called_off_after_the_reveals_is_told_and_counted(
    room: RoomServer, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cheating(monkeypatch, "cancel")
    ann = players("Ann")
    assert ann.token is not None
    table, feed, _ = heads_up(room, ann.token, "Fair")
    ann.open_table(table)
    ann.sit(1, 100)
    feed.sit(2, 100)
    sent(ann, "commit")
    ann.page.wait_for_timeout(200)  # the commitment reaches the table before the deal
    feed.deal(1)
    alert = ann.page.get_by_role("alert", name="Warnings about the deal")
    expect(alert).to_contain_text("called off after the players revealed their entropy")
    expect(alert).to_contain_text("hands called off after the reveals at this table: 1")
    feed.close()


def test_the_fairness_page_reads_on_a_phone_and_links_the_lobby(players: Any) -> None:
    visitor = players("Cy", signed_in=False, size="phone")
    page = visitor.page
    page.goto(f"{visitor.base_url}/")
    page.get_by_role("link", name="How the deal is fair").click()
    page.wait_for_url("**/fairness")
    expect(page.get_by_role("heading", level=1)).to_have_text("How the deal is fair")
    for name in ("What you can check", "What it does not prove", "Check a hand yourself"):
        expect(page.get_by_role("heading", name=name)).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, "wider than a phone"
    lobby = page.get_by_role("link", name="Lobby")
    box = lobby.bounding_box()
    assert box is not None and box["height"] >= 44, "a touch target"
    lobby.click()
    page.wait_for_url(f"{visitor.base_url}/")


# The boxes on the table page that the count of hands called off must not overlap.
NEIGHBOURS = """(mine) => {
  const rect = (node) => {
    const r = node.getBoundingClientRect();
    return r.width && r.height ? {name: node.id || node.className, x: r.left, y: r.top,
      right: r.right, bottom: r.bottom} : null;
  };
  const box = rect(document.querySelector(mine));
  const others = [".table-header", "#fair-warnings", "#fair-notices", "#felt", "#play", "#talk",
    "#side > :not(" + mine + ")", "#felt .seat"];
  const near = others.flatMap((selector) => [...document.querySelectorAll(selector)])
    .map(rect).filter(Boolean);
  return {box, near, width: document.documentElement.scrollWidth};
}"""


def test_the_count_of_hands_called_off_stays_on_the_table_after_a_reload(
    room: RoomServer, players: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    cheating(monkeypatch, "cancel")
    ann = players("Ann", size="phone")
    assert ann.token is not None
    table, feed, _ = heads_up(room, ann.token, "Fair")
    ann.open_table(table)
    count = ann.page.locator("#called-off")
    expect(count).to_be_hidden()  # none yet
    ann.sit(1, 100)
    feed.sit(2, 100)
    sent(ann, "commit")
    ann.page.wait_for_timeout(200)  # the commitment reaches the table before the deal
    feed.deal(1)
    alert = ann.page.get_by_role("alert", name="Warnings about the deal")
    expect(alert).to_contain_text("called off after the players revealed their entropy")
    words = "Hands called off after the reveals here: 1"
    expect(count).to_have_text(words)
    expect(count).to_be_visible()
    feed.close()
    ann.page.reload()
    ann.wait_until_drawn()
    expect(alert).to_be_hidden()  # the warning was told once; the count stays
    expect(count).to_have_text(words)
    expect(count).to_be_visible()
    count.scroll_into_view_if_needed()
    found = ann.page.evaluate(NEIGHBOURS, "#called-off")
    box = found["box"]
    assert box["x"] >= 0 and box["right"] <= 390, box
    assert found["width"] <= 390, "the page is wider than a phone"
    overlapping = [
        other
        for other in found["near"]
        if min(box["right"], other["right"]) - max(box["x"], other["x"]) > 1
        and min(box["bottom"], other["bottom"]) - max(box["y"], other["y"]) > 1
    ]
    assert not overlapping, f"{box} overlaps {overlapping}"


@pytest.mark.parametrize(
    ("cheat", "ann_seat", "bob_reveals"),
    [(None, 1, False), ("drop_entropy", 2, True)],
    ids=["Bob does not reveal", "the room drops Bob's entropy"],
)
def test_a_seat_dealt_in_without_its_entropy_is_told_by_seat_and_name(
    room: RoomServer,
    players: Any,
    monkeypatch: pytest.MonkeyPatch,
    cheat: str | None,
    ann_seat: int,
    bob_reveals: bool,
) -> None:
    """Bob, a client on the wire, commits; he does not reveal in time (the room waits
    ``reveal_wait`` and deals without him), or he does and the room leaves his entropy
    out: either way the record lists his commitment with ``entropy: null``, and Ann's page
    tells her which seat and who, as a notice (her own entropy is in the deal)."""
    if cheat is not None:
        cheating(monkeypatch, cheat)  # drops the lowest seat's entropy: Bob's
    ann = players("Ann")
    assert ann.token is not None
    table, feed, bob = heads_up(room, ann.token, "Fair")
    bob_seat = 3 - ann_seat
    ann.open_table(table)
    ann.sit(ann_seat, 100)
    start = len(feed.frames)
    bob.send({"type": "sit", "table": table, "seat": bob_seat, "buy_in": 100, "post_now": False})
    feed.event("player_sat", start, seat=bob_seat)
    entropy = secrets.token_bytes(32)
    bob.send({"type": "commit", "table": table, "commitment": player_commitment(entropy).hex()})
    sent(ann, "commit")
    ann.page.wait_for_timeout(200)  # the commitments reach the table before the deal
    start = len(feed.frames)
    feed.clients[1].send({"type": "host", "table": table, "action": "resume"})
    started = feed.event("hand_started", start)
    hand = started["hand"]
    assert {p["seat"] for p in started["fairness"]["players"]} == {1, 2}
    if bob_reveals:  # at once: the pause below waits for the deal
        bob.send({"type": "reveal", "table": table, "hand": hand, "entropy": entropy.hex()})
    feed.host(1, "pause")
    feed.play(
        hand,
        {seat: command(client, table, showdown) for seat, client in feed.clients.items()},
    )
    feed.close()
    record = record_of(room, ann, hand)
    listed = {p["seat"]: p["entropy"] for p in record["fairness"]["players"]}
    assert listed[bob_seat] is None and listed[ann_seat] is not None
    notices = ann.page.get_by_role("status", name="Notices about the deal")
    expect(notices).to_be_visible()
    told = (
        f"Seat {bob_seat} (Bob) was dealt in without their entropy:"
        " the room says they did not reveal in time."
    )
    expect(notices.get_by_role("listitem")).to_have_count(1)
    expect(notices.get_by_role("listitem")).to_contain_text(told)
    expect(ann.page.get_by_role("alert", name="Warnings about the deal")).to_be_hidden()
