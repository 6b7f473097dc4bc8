"""Hands played by random bots on the room's own table host (``room/driver.py``), with a
seeded deck: their stored records (as the room finishes them) for the statistics' tests,
and the room's work at each hand's end."""

from __future__ import annotations

import random
from typing import Any

from splitpot.bots import RandomBot
from splitpot.history.splitpot_json import from_json
from splitpot.history.stats import StatsHand
from splitpot.room.commands import Person
from splitpot.room.driver import MemoryKeeper, run
from splitpot.room.effects import FinishHand
from splitpot.room.host import PLAYER_IDS, HostOptions, TableHost
from splitpot.room.settings import TableSettings

AT_ONCE = HostOptions(hand_pause=0, street_pause=0, show_pause=0, reveal_wait=0, bot_delay=0)


def played_records(
    hands: int, seed: int, players: int = 4, **settings: Any
) -> list[dict[str, Any]]:
    """The records of ``hands`` hands (oldest first) of ``players`` random bots, player
    ids 1, 2, ..., at a table of ``settings``; each bot buys in again when broke."""
    return [finished.record for finished in finished_hands(hands, seed, players, **settings)]


def finished_hands(hands: int, seed: int, players: int = 4, **settings: Any) -> list[FinishHand]:
    """The room's work at the end of each of those hands: its record, and the record as a
    value with the engine's hand."""
    host = TableHost("t1", TableSettings("Stats", **settings), 1, AT_ONCE)
    keeper = MemoryKeeper("t1", random.Random(seed))
    for seat in range(players):
        bot = RandomBot(f"Bot{seat + 1}", seed * 10 + seat)
        host.seat(seat, Person(seat + 1, bot.name), 200, bot)
    now = 0.0
    for _ in range(hands * 200):
        run(host.schedule(now), keeper)
        finished = [w for w in keeper.work if isinstance(w, FinishHand)]
        if len(finished) >= hands:
            return finished[:hands]
        due = host.next_timer()
        assert due is not None, "the bots stopped playing"
        now = max(now, due)
        run(host.tick(now), keeper)
    raise AssertionError(f"{hands} hands were not played")


def stats_hands(records: list[dict[str, Any]]) -> list[StatsHand]:
    """The records as the statistics read them (the room's own reading of a record)."""
    return [
        StatsHand(from_json(record), tuple(record[PLAYER_IDS]), number)
        for number, record in enumerate(records, start=1)
    ]
