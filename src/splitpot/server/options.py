"""How a room runs: its pace, its limits, its place among the room's processes; tests
make it faster and seeded (``RoomOptions``)."""

from __future__ import annotations

from dataclasses import dataclass

from splitpot.room.host import HostOptions
from splitpot.server.limits import LIMITS


@dataclass(frozen=True, slots=True)
class RoomOptions:
    hand_pause: float = 3.0  # seconds between hands, to read the result
    street_pause: float = 1.5  # seconds more for each street of an all-in run-out
    show_pause: float = 0.7  # seconds more for each hand shown at the showdown
    reveal_wait: float = 2.0  # seconds players have to reveal their entropy at a deal
    bot_delay: float = 0.8  # seconds a bot "thinks"
    db_retry: float = 0.5  # seconds between tries while the database is away
    origins: tuple[str, ...] = ()  # pages on other origins allowed to open the WebSocket
    node: str | None = None  # this process's name among the room's (default: host:pid)
    lease_seconds: float = 5.0  # a table's lease, renewed three times as often
    # where this process listens for the others' direct links (server/link.py; port 0: a
    # free one), None for none: Redis carries everything
    link: tuple[str, int] | None = ("127.0.0.1", 0)
    # the limits players meet (server/limits.py; load tests raise them): new guests, GET
    # .../hands (up to 50 hands each) and GET /api/hands/{id} one address may ask a minute
    guests_per_minute: int = LIMITS["guests_per_minute"].default
    hand_lists_per_minute: int = LIMITS["hand_lists_per_minute"].default
    hands_per_minute: int = LIMITS["hands_per_minute"].default
    closing_wait: float = 10.0  # seconds a stopping room lets hands in play finish
    idle_pause: float = 120.0  # seconds a table of bots deals with no human there, then pauses
    idle_close: float = 1800.0  # seconds with no human before such a table closes
    empty_close: float = 7 * 24 * 3600.0  # seconds an empty table waits, then closes
    bot_seats: int = LIMITS["bot_seats"].default  # bots seated at once (the house's aside)
    schedule_seconds: float = 20.0  # seconds between looks for the clubs' weekly games due
    seed: int | None = None  # tests only: the decks' shuffles from this seed (None: secret)
    clock_scale: float = 1.0  # tests only: every table's clock runs this much faster
    url: str | None = None  # where clients reach this process (http://host:port)

    def host(self) -> HostOptions:
        """The tables' pace (``room/host.py``)."""
        return HostOptions(
            self.hand_pause,
            self.street_pause,
            self.show_pause,
            self.reveal_wait,
            self.bot_delay,
            self.idle_pause,
            self.idle_close,
            self.clock_scale,
            self.empty_close,
        )
