"""A room of two processes (PostgreSQL and Redis): the page was loaded from the first,
which runs the table and is killed. The page connects to the second, the next address
its welcome named, and plays on there: the table comes whole from its new process."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Any

import pytest
from cluster_process import guest, processes, redis_or_skip
from player import Player, open_player, passive
from playwright.sync_api import expect
from room_helpers import Frame
from room_process import LEASE, WAIT
from store_fixtures import fresh_postgres_database


def frames_after(player: Player, start: int, matches: Any) -> Frame:
    """The first frame the page received from ``start`` on that matches (within WAIT)."""
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        for frame in player.received[start:]:
            if matches(frame):
                return frame
        player.page.wait_for_timeout(50)
    raise AssertionError(f"no such frame; last: {player.received[-3:]}")


def test_the_page_goes_on_at_the_rooms_next_process_when_its_own_dies(
    browser: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("SPLITPOT_LEASE_SECONDS", str(LEASE))
    redis_url = redis_or_skip()
    with fresh_postgres_database() as url, processes(url, redis_url, tmp_path, 2) as rooms:
        first, second = rooms
        bots = first.bots_table()
        context, ann = open_player(browser, first.url, "Ann", guest(first, "Ann"))
        try:
            ann.open_table(bots["id"])
            ann.sit(1, bots["max_buy_in"])
            expect(ann.seat(1)).to_have_class(re.compile(r"\bme\b"))
            welcome = next(f for f in ann.received if f["type"] == "welcome")
            assert welcome["servers"] == [first.url, second.url]
            # what the page asks of the dead process itself fails, as it must
            ann.tolerate(re.escape(first.url))
            ann.tolerate("WebSocket connection to .* failed")
            mark = len(ann.received)
            to_second = ann.page.expect_websocket(
                lambda socket: socket.url == second.ws_url, timeout=WAIT * 1000
            )
            with to_second:
                first.kill()
            expect(ann.page.locator("#connection")).to_have_text("Connected", timeout=WAIT * 1000)
            table = frames_after(ann, mark, lambda f: f["type"] == "table")
            assert table["state"]["seats"][0]["name"] == "Ann"
            expect(ann.seat(1)).to_have_class(re.compile(r"\bme\b"))
            turn = frames_after(ann, mark, lambda f: f["type"] == "turn")
            passive(ann, turn)
            acted = frames_after(
                ann,
                mark,
                lambda f: (
                    f["type"] == "event"
                    and f["event"]["kind"] == "acted"
                    and f["event"]["seat"] == 1
                    and f["event"]["hand"] == turn["hand"]
                ),
            )
            assert acted["table"] == bots["id"]
        finally:
            context.close()
        assert not ann.problems, ann.problems
