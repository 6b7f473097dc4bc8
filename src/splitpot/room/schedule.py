"""A club's weekly game in time (issue 24): when a game of a weekday and a wall-clock time
in a time zone next opens after a given moment. Pure: the moment is an argument.

On the day a zone's clock changes, a wall-clock time may not exist (02:30 when 02:00
becomes 03:00) or exist twice (01:30 when 02:00 becomes 01:00). Both are read as
``zoneinfo`` reads a time with ``fold=0`` (RFC 5545 decides the same): a skipped time
opens as many minutes later as the clock skipped (03:30), a doubled time opens the first
time it is shown."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from splitpot.rules import Refusal

DAYS = 7  # weekday 0 is Monday, as ``date.weekday`` counts
HOUR = 60  # minutes
ZONE_LENGTH = 64  # characters of a zone's name (the store's column)
CLOCK = re.compile(r"(\d\d):(\d\d)")


class ScheduleError(Refusal):
    """A weekly game's day, time or zone that the room refuses, naming the field."""


@dataclass(frozen=True, slots=True)
class Weekly:
    """Every week on ``weekday`` (0 Monday .. 6 Sunday) at ``minute`` past midnight, by
    the wall clock of ``zone`` (an IANA name)."""

    weekday: int
    minute: int
    zone: str

    @property
    def time(self) -> str:
        """The wall-clock time, ``HH:MM``."""
        return f"{self.minute // HOUR:02d}:{self.minute % HOUR:02d}"

    def next_after(self, moment: datetime) -> datetime:
        """The first opening strictly after ``moment`` (aware), in UTC."""
        zone = ZoneInfo(self.zone)
        today = moment.astimezone(zone).date()
        ahead = (self.weekday - today.weekday()) % DAYS
        for weeks in (0, 1):
            opening = self.on(today + timedelta(days=ahead + DAYS * weeks))
            if opening > moment:
                return opening
        raise AssertionError("an opening a week later is always after the moment")

    def on(self, day: date) -> datetime:
        """The opening on ``day`` (a date in the zone), in UTC: a skipped time moved on by
        the clock's jump, a doubled time the first one (``fold=0``)."""
        wall = datetime.combine(day, time(self.minute // HOUR, self.minute % HOUR))
        return wall.replace(tzinfo=ZoneInfo(self.zone)).astimezone(UTC)

    def local_date(self, opening: datetime) -> date:
        """The date of an opening by the zone's calendar (a table's name carries it)."""
        return opening.astimezone(ZoneInfo(self.zone)).date()


def weekly(weekday: object, clock: object, zone: object) -> Weekly:
    """A weekly game's day, ``HH:MM`` time and zone as a request gives them, checked."""
    if isinstance(weekday, bool) or not isinstance(weekday, int) or not 0 <= weekday < DAYS:
        raise ScheduleError("weekday must be from 0 to 6, not {value}", value=repr(weekday))
    found = CLOCK.fullmatch(clock) if isinstance(clock, str) else None
    if found is None or int(found[1]) >= 24 or int(found[2]) >= HOUR:
        raise ScheduleError(
            "time must be HH:MM from 00:00 to 23:59, not {value}", value=repr(clock)
        )
    return Weekly(weekday, int(found[1]) * HOUR + int(found[2]), checked_zone(zone))


def checked_zone(zone: object) -> str:
    """An IANA time zone's name that this machine knows."""
    if not isinstance(zone, str) or not 0 < len(zone) <= ZONE_LENGTH:
        raise ScheduleError("zone must be an IANA time zone's name, not {value}", value=repr(zone))
    try:
        ZoneInfo(zone)
    except (ZoneInfoNotFoundError, ValueError) as error:  # ValueError: "../x", a bad key
        raise ScheduleError("zone: unknown time zone {value}", value=repr(zone)) from error
    return zone


__all__ = ["ScheduleError", "Weekly", "checked_zone", "weekly"]
