"""The blind levels of a tournament (RULES.md 8, Levels): blinds and antes rising on a
schedule by minutes or by hands, stated before the start, with optional breaks."""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass, fields, replace
from enum import Enum
from itertools import pairwise
from typing import Any

from splitpot.tournament.errors import TournamentError

MAX_CHIPS = 10**12  # as the protocol's: any amount a client may name
MAX_LEVELS = 100
MAX_LENGTH = 1000  # minutes or hands of a level
MAX_BREAK = 1440  # minutes of a break: a day
ANTE_BIG_BLINDS = 10  # an ante is below ten big blinds
# The round numbers of the standard ladder's small blinds, in tenths of a power of ten:
# 1, 1.5, 2, 2.5, 3, 4, 5, 6 and 8 (1.5 and 2.5 only from 15 and 25 on: chips are whole).
ROUND_TENTHS = (10, 15, 20, 25, 30, 40, 50, 60, 80)


class LevelClock(Enum):
    """What a level's length counts: minutes of play (breaks apart) or hands dealt."""

    MINUTES = "minutes"
    HANDS = "hands"


@dataclass(frozen=True, slots=True)
class Level:
    """One level's blinds and ante (each player's), its length in the schedule's clock
    (minutes or hands), and the minutes of a break after it (the minutes clock only)."""

    small_blind: int
    big_blind: int
    ante: int = 0
    length: int = 10
    break_minutes: int = 0

    def __post_init__(self) -> None:
        whole("small_blind", self.small_blind, 1, MAX_CHIPS)
        whole("big_blind", self.big_blind, 1, MAX_CHIPS)
        if self.small_blind > self.big_blind:
            raise TournamentError(
                "{field}: the small blind {small} is above the big blind {big}",
                field="small_blind",
                small=self.small_blind,
                big=self.big_blind,
            )
        whole("ante", self.ante, 0, min(MAX_CHIPS, ANTE_BIG_BLINDS * self.big_blind - 1))
        whole("length", self.length, 1, MAX_LENGTH)
        whole("break_minutes", self.break_minutes, 0, MAX_BREAK)

    def to_json(self) -> dict[str, int]:
        return {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "ante": self.ante,
            "length": self.length,
            "break_minutes": self.break_minutes,
        }


@dataclass(frozen=True, slots=True)
class Position:
    """Where play is on the schedule: the level (0-based) a hand dealt now plays (on a
    break: the level after it; past the stated levels: an overtime level), whether play
    is on a break, and the seconds (minutes clock) or hands (hands clock) to the next
    change; None at the very last level (blinds at ``MAX_CHIPS``), which lasts for ever."""

    level: int
    on_break: bool
    remaining: float | int | None


@dataclass(frozen=True, slots=True)
class Schedule:
    """The levels in the order they are played, 1 to ``MAX_LEVELS`` of them, blinds never
    going down; after the last level's time come overtime levels of the same length, each
    doubling the blinds and ante of the one before (docs/rules.md: a tournament ends even
    when every player left is absent), up to ``MAX_CHIPS``."""

    clock: LevelClock
    levels: tuple[Level, ...]

    def __post_init__(self) -> None:
        if not 1 <= len(self.levels) <= MAX_LEVELS:
            raise TournamentError(
                "{field} must be a list of 1 to {most} levels, not {count}",
                field="levels",
                most=MAX_LEVELS,
                count=len(self.levels),
            )
        for index, (before, level) in enumerate(pairwise(self.levels), start=1):
            for name in ("small_blind", "big_blind"):
                if getattr(level, name) < getattr(before, name):
                    raise TournamentError(
                        "{field}: blinds never go down; {value} is below {before} "
                        "at the level before",
                        field=f"levels[{index}].{name}",
                        value=getattr(level, name),
                        before=getattr(before, name),
                    )
        for index, level in enumerate(self.levels):
            if not level.break_minutes:
                continue
            if self.clock is LevelClock.HANDS:
                raise TournamentError(
                    "{field}: breaks are only on the minutes clock",
                    field=f"levels[{index}].break_minutes",
                )
            if index == len(self.levels) - 1:
                raise TournamentError(
                    "{field}: the last level has no break after it",
                    field=f"levels[{index}].break_minutes",
                )

    @classmethod
    def from_json(cls, value: object) -> Schedule:
        """A schedule from its JSON: ``to_json``'s, or the standard ladder's arguments
        (``{"clock", "standard": {"length", "big_blind", "levels", "ante_from"}}``); a
        ``TournamentError`` names the bad field as a path (``levels[2].big_blind``,
        counting levels from 0)."""
        body = _object("schedule", value, required=("clock",), optional=("levels", "standard"))
        clocks = [clock.value for clock in LevelClock]
        if body["clock"] not in clocks:
            raise TournamentError(
                "{field} must be one of {names}, not {value}",
                field="clock",
                names=", ".join(clocks),
                value=repr(body["clock"]),
            )
        if "levels" in body and "standard" in body:
            raise TournamentError("{field}: give levels or standard, not both", field="schedule")
        if "standard" in body:
            ladder = _object(
                "standard",
                body["standard"],
                required=("length",),
                optional=("big_blind", "levels", "ante_from"),
            )
            try:
                return cls.standard(LevelClock(body["clock"]), **ladder)
            except TournamentError as error:
                raise _under("standard", error) from error
        if "levels" not in body:
            raise TournamentError("{field}: give levels or standard", field="schedule")
        raw = body["levels"]
        if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_LEVELS:
            raise TournamentError(
                "{field} must be a list of 1 to {most} levels, not {count}",
                field="levels",
                most=MAX_LEVELS,
                count=len(raw) if isinstance(raw, list) else repr(raw),
            )
        names = tuple(field.name for field in fields(Level))
        levels: list[Level] = []
        for index, item in enumerate(raw):
            where = f"levels[{index}]"
            level = _object(where, item, required=names[:2], optional=names[2:])
            try:
                levels.append(Level(**level))
            except TournamentError as error:
                raise _under(where, error) from error
        return cls(LevelClock(body["clock"]), tuple(levels))

    def to_json(self) -> dict[str, Any]:
        return {"clock": self.clock.value, "levels": [level.to_json() for level in self.levels]}

    @classmethod
    def standard(
        cls,
        clock: LevelClock,
        length: int,
        big_blind: int = 20,
        levels: int = 15,
        ante_from: int = 0,
    ) -> Schedule:
        """A default ladder of ``levels`` levels of ``length`` each, no breaks: blinds from
        ``big_blind`` (the small blind half of it, rounded down) rising about 1.5 times a
        level through round numbers (small blinds 10, 15, 25, 40, 60, 100, ...: each the
        round number nearest 1.5 times the one before), and from level ``ante_from``
        (counted from 1; 0: none) an ante of a tenth of the big blind (1 at least)."""
        whole("length", length, 1, MAX_LENGTH)
        whole("big_blind", big_blind, 2, MAX_CHIPS)
        whole("levels", levels, 1, MAX_LEVELS)
        whole("ante_from", ante_from, 0, levels)
        ladder: list[Level] = []
        small = big_blind // 2
        for number in range(1, levels + 1):
            big = big_blind if number == 1 else 2 * small
            if big > MAX_CHIPS:
                raise TournamentError(
                    "{field}: the blinds would pass {most} at level {number}",
                    field="levels",
                    most=MAX_CHIPS,
                    number=number,
                )
            ante = max(1, big // ANTE_BIG_BLINDS) if ante_from and number >= ante_from else 0
            ladder.append(Level(small, big, ante, length))
            small = _next_round(small)
        return cls(clock, tuple(ladder))

    def position(self, elapsed: float | int) -> Position:
        """Where play is after ``elapsed``: seconds since the start (minutes clock; a
        level's minutes, then its break's) or hands dealt (hands clock). A level's time
        runs from its start up to (not including) its end, when the next change comes."""
        if isinstance(elapsed, bool) or not isinstance(elapsed, int | float):
            raise TournamentError.untranslated(f"elapsed is a number, not {elapsed!r}")
        if math.isnan(elapsed) or elapsed < 0:
            raise TournamentError.untranslated(f"elapsed is 0 or more, not {elapsed!r}")
        if self.clock is LevelClock.HANDS and not isinstance(elapsed, int):
            raise TournamentError.untranslated(f"hands dealt are whole, not {elapsed!r}")
        last = len(self.levels) - 1
        start = 0
        for index, end, on_break in self._changes():
            if elapsed < end:
                level = index + 1 if on_break else index
                return Position(level, on_break, end - elapsed)
            start = end
        length = self.levels[last].length * (60 if self.clock is LevelClock.MINUTES else 1)
        most = self._overtime_levels()
        overtime = most if math.isinf(elapsed) else min(int((elapsed - start) // length), most)
        if overtime == most:
            return Position(last + overtime, False, None)
        return Position(last + overtime, False, start + (overtime + 1) * length - elapsed)

    def level(self, index: int) -> Level:
        """Level ``index`` (0-based): a stated one, or past them an overtime level, the
        last stated one's blinds and ante doubled once for each level beyond it."""
        if index < len(self.levels):
            return self.levels[index]
        last = self.levels[-1]
        times = 2 ** min(index - len(self.levels) + 1, self._overtime_levels())
        return replace(
            last,
            small_blind=last.small_blind * times,
            big_blind=last.big_blind * times,
            ante=last.ante * times,
        )

    def _overtime_levels(self) -> int:
        """How many overtime levels come before the blinds (or ante) would pass ``MAX_CHIPS``."""
        last = self.levels[-1]
        return max(0, (MAX_CHIPS // max(last.big_blind, last.ante)).bit_length() - 1)

    def next_change_at(self, elapsed: float | int) -> float | int | None:
        """The seconds since the start (or the hands dealt) at which the next change after
        ``elapsed`` comes: a level's end, or a break's; None at the last level."""
        remaining = self.position(elapsed).remaining
        return None if remaining is None else elapsed + remaining

    def _changes(self) -> Iterator[tuple[int, int, bool]]:
        """Each change before the last level, in order: the level (0-based) it ends or
        follows, when it comes (seconds or hands from the start), and whether it ends a
        break (True) or a level's play (False)."""
        unit = 60 if self.clock is LevelClock.MINUTES else 1
        at = 0
        for index, level in enumerate(self.levels[:-1]):
            at += level.length * unit
            yield index, at, False
            if level.break_minutes:
                at += level.break_minutes * 60
                yield index, at, True


def _next_round(small: int) -> int:
    """The standard ladder's next small blind: of the round numbers above ``small``, the
    nearest 1.5 times it (nearer by ratio; ties to the higher)."""
    below = [n for n in _round_numbers(2 * small) if small < n and 2 * n < 3 * small]
    above = next(n for n in _round_numbers(10 * small) if 2 * n >= 3 * small)
    if below and 4 * below[-1] * above > 9 * small * small:  # target^2 below their product
        return below[-1]
    return above


def _round_numbers(most: int) -> Iterator[int]:
    """The whole round numbers (``ROUND_TENTHS`` of a power of ten) up to ``most``, rising."""
    power = 1
    while True:
        for tenths in ROUND_TENTHS:
            if tenths * power % 10 == 0:
                if tenths * power // 10 > most:
                    return
                yield tenths * power // 10
        power *= 10


def _under(where: str, error: TournamentError) -> TournamentError:
    """``error`` in its own words, its field given the path ``where`` it lies under."""
    named = {**error.fields, "field": f"{where}.{error.fields['field']}"}
    return TournamentError(error.template, **named)


def _object(
    field: str, value: object, required: tuple[str, ...], optional: tuple[str, ...]
) -> dict[str, Any]:
    """A JSON object's fields, all of ``required`` and any of ``optional``; others refused."""
    if not isinstance(value, dict):
        raise TournamentError(
            "{field} must be a JSON object, not {value}", field=field, value=repr(value)
        )
    known = (*required, *optional)
    for name in value:
        if name not in known:
            raise TournamentError(
                "{field}: unknown field {name}; the fields are {names}",
                field=field,
                name=repr(name),
                names=", ".join(known),
            )
    for name in required:
        if name not in value:
            raise TournamentError(
                "{field} is missing", field=name if field == "schedule" else f"{field}.{name}"
            )
    return dict(value)


def whole(field: str, value: object, least: int, most: int) -> None:
    """Refuses ``value`` unless it is a whole number from ``least`` to ``most``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise TournamentError(
            "{field} must be a whole number, not {value}", field=field, value=repr(value)
        )
    if not least <= value <= most:
        raise TournamentError(
            "{field} must be from {least} to {most}, not {value}",
            field=field,
            least=least,
            most=most,
            value=value,
        )


__all__ = ["Level", "LevelClock", "Position", "Schedule", "whole"]
