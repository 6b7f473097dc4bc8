"""A weekly game's next opening (room/schedule.py): zones, the clock changes (a skipped
time, a doubled time), and the refusals of a bad day, time or zone."""

from __future__ import annotations

from datetime import UTC, date, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splitpot.room.schedule import ScheduleError, Weekly, weekly

MONDAY, FRIDAY, SUNDAY = 0, 4, 6


def utc(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_friday_at_eight_in_london_winter_and_summer() -> None:
    game = weekly(FRIDAY, "20:00", "Europe/London")
    assert game == Weekly(FRIDAY, 20 * 60, "Europe/London")
    assert game.next_after(utc("2026-12-03T08:00")) == utc("2026-12-04T20:00")  # GMT
    assert game.next_after(utc("2026-07-01T08:00")) == utc("2026-07-03T19:00")  # BST


def test_the_opening_itself_is_followed_by_next_weeks() -> None:
    game = weekly(FRIDAY, "20:00", "Europe/London")
    opening = utc("2026-12-04T20:00")
    assert game.next_after(opening - timedelta(seconds=1)) == opening
    assert game.next_after(opening) == utc("2026-12-11T20:00")


def test_the_wall_clock_time_holds_across_a_clock_change() -> None:
    """New York's clocks go back on 1 November 2026: the Friday game stays at 20:00."""
    game = weekly(FRIDAY, "20:00", "America/New_York")
    first = game.next_after(utc("2026-10-29T00:00"))
    assert first == utc("2026-10-31T00:00")  # 20:00 EDT
    assert game.next_after(first) == utc("2026-11-07T01:00")  # 20:00 EST


def test_a_skipped_time_opens_as_much_later_as_the_clock_jumped() -> None:
    """London skips 01:00 to 02:00 on 29 March 2026: a 01:30 game opens at 02:30 BST."""
    game = weekly(SUNDAY, "01:30", "Europe/London")
    opening = game.next_after(utc("2026-03-28T12:00"))
    assert opening == utc("2026-03-29T01:30")
    assert opening.astimezone(ZoneInfo("Europe/London")).strftime("%H:%M") == "02:30"
    assert weekly(SUNDAY, "02:30", "America/New_York").next_after(utc("2026-03-07T12:00")) == utc(
        "2026-03-08T07:30"
    )  # 03:30 EDT


def test_a_half_hour_jump_moves_a_skipped_time_half_an_hour() -> None:
    """Lord Howe Island skips 02:00 to 02:30 on 4 October 2026: 02:10 opens at 02:40."""
    game = weekly(SUNDAY, "02:10", "Australia/Lord_Howe")
    opening = game.next_after(utc("2026-10-01T00:00"))
    assert opening == utc("2026-10-03T15:40")
    assert opening.astimezone(ZoneInfo("Australia/Lord_Howe")).strftime("%H:%M") == "02:40"


def test_a_doubled_time_opens_the_first_time_and_once() -> None:
    """London shows 01:00 to 02:00 twice on 25 October 2026: 01:30 opens at the first
    (BST, 00:30 UTC), and the next opening is a week later, not an hour."""
    game = weekly(SUNDAY, "01:30", "Europe/London")
    opening = game.next_after(utc("2026-10-24T12:00"))
    assert opening == utc("2026-10-25T00:30")
    assert game.next_after(opening) == utc("2026-11-01T01:30")


def test_the_zones_day_not_utcs() -> None:
    """Monday 08:00 in Sydney is Sunday evening in UTC; its table carries Monday's date."""
    game = weekly(MONDAY, "08:00", "Australia/Sydney")
    opening = game.next_after(utc("2026-12-06T20:00"))  # Monday 07:00 in Sydney
    assert opening == utc("2026-12-06T21:00")
    assert game.local_date(opening) == date(2026, 12, 7)
    assert weekly(MONDAY, "08:05", "Asia/Kolkata").time == "08:05"


ZONES = ("UTC", "Europe/London", "America/New_York", "Australia/Lord_Howe", "Asia/Kolkata")


@given(
    st.integers(0, 6),
    st.integers(0, 24 * 60 - 1),
    st.sampled_from(ZONES),
    st.datetimes(datetime(2025, 1, 1), datetime(2030, 1, 1), timezones=st.just(UTC)),
)
def test_every_opening_is_within_a_week_on_its_day(
    day: int, minute: int, zone: str, moment: datetime
) -> None:
    game = Weekly(day, minute, zone)
    opening = game.next_after(moment)
    assert moment < opening <= moment + timedelta(days=7, hours=1)
    assert game.local_date(opening).weekday() == day
    local = opening.astimezone(ZoneInfo(zone))
    shift = (local.hour * 60 + local.minute - minute) % (24 * 60)
    assert shift in (0, 30, 60)  # the time itself, or moved on by a clock's jump


@pytest.mark.parametrize(
    ("day", "clock", "zone", "message"),
    [
        (7, "20:00", "UTC", "weekday must be from 0 to 6, not 7"),
        (-1, "20:00", "UTC", "weekday must be from 0 to 6, not -1"),
        (True, "20:00", "UTC", "weekday must be from 0 to 6, not True"),
        ("4", "20:00", "UTC", "weekday must be from 0 to 6, not '4'"),
        (4, "25:00", "UTC", "time must be HH:MM from 00:00 to 23:59, not '25:00'"),
        (4, "20:60", "UTC", "time must be HH:MM from 00:00 to 23:59, not '20:60'"),
        (4, "8:00", "UTC", "time must be HH:MM from 00:00 to 23:59, not '8:00'"),
        (4, 1200, "UTC", "time must be HH:MM from 00:00 to 23:59, not 1200"),
        (4, "20:00", "Mars/Base", "zone: unknown time zone 'Mars/Base'"),
        (4, "20:00", "../etc/passwd", "zone: unknown time zone '../etc/passwd'"),
        (4, "20:00", "", "zone must be an IANA time zone's name, not ''"),
        (4, "20:00", None, "zone must be an IANA time zone's name, not None"),
    ],
)
def test_a_bad_day_time_or_zone_is_refused_by_name(
    day: object, clock: object, zone: object, message: str
) -> None:
    with pytest.raises(ScheduleError) as refused:
        weekly(day, clock, zone)
    assert str(refused.value) == message
