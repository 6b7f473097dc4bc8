"""The limits players meet, as settings of ``splitpot serve`` (docs/deploy.md "Limits"):
each one's default (``RoomOptions``' too), its largest value and its help. Light to
import: the command line reads it before the server's packages load."""

from __future__ import annotations

from dataclasses import dataclass

from splitpot.i18n import marked


@dataclass(frozen=True, slots=True)
class Limit:
    default: int
    most: int
    help: str  # a message of the catalogues, with {default}


LIMITS = {
    "guests_per_minute": Limit(
        30, 1_000_000, marked("new guests one address may make a minute (default {default})")
    ),
    "hand_lists_per_minute": Limit(
        60,
        1_000_000,
        marked("lists of a table's hands one address may ask for a minute (default {default})"),
    ),
    "hands_per_minute": Limit(
        600, 1_000_000, marked("single hands one address may ask for a minute (default {default})")
    ),
    "bot_seats": Limit(
        100,
        100_000,
        marked("bots seated at once in the whole room, --bots' table aside (default {default})"),
    ),
}
