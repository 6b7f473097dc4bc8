"""A tournament's settings as the room takes them (RULES.md 8, docs/protocol.md
"Tournaments"): checked field by field, every refusal naming its field, and the table
settings each of its tables plays at a level."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from splitpot.room.settings import (
    MAX_CHIPS,
    MAX_NAME,
    STRUCTURES,
    SettingsError,
    TableSettings,
    refuse_unknown,
)
from splitpot.rules import Refusal
from splitpot.table import MAX_SEATS
from splitpot.tournament.errors import TournamentError
from splitpot.tournament.levels import Level, LevelClock, Schedule, whole
from splitpot.tournament.payouts import PayoutTable

E = TypeVar("E", bound=StrEnum)
MAX_ENTRANTS = 1000  # a multi-table tournament's field at most (docs/room.md "Limits")


class Kind(StrEnum):
    SIT_AND_GO = "sit-and-go"  # one table, starts when full (or when its host starts it)
    SCHEDULED = "scheduled"  # multi-table, at ``start_at``


class Registration(StrEnum):
    OPEN = "open"  # anyone
    INVITE = "invite"  # with the tournament's invite code
    CLUB = "club"  # the club's members


@dataclass(frozen=True, slots=True)
class TournamentSettings:
    """What the host of a tournament chooses, stated before the start (RULES.md 8)."""

    name: str
    kind: Kind = Kind.SIT_AND_GO
    variant: str = "o8"
    structure: str = "pot-limit"
    seats: int = 6  # at each table
    starting_stack: int = 1500
    schedule: Schedule = field(default_factory=lambda: Schedule.standard(LevelClock.MINUTES, 5))
    payouts: PayoutTable = field(default_factory=PayoutTable.standard)
    buy_in: int = 0  # into the prize pool (0: a free roll)
    fee: int = 0  # the room's, stated apart (RULES.md 8)
    most_entrants: int = 0  # 0: a sit-and-go's seats; a scheduled one's MAX_ENTRANTS
    start_at: datetime | None = None  # a scheduled tournament's start (UTC)
    late_levels: int = 0  # registration stays open to the end of this level (0: none)
    registration: Registration = Registration.OPEN
    action_seconds: int = 30
    time_bank_seconds: int = 60
    bots: int = 0  # entrants that are bots, registered at once (a practice alone)

    def __post_init__(self) -> None:
        if not self.most_entrants:
            most = self.seats if self.kind is Kind.SIT_AND_GO else MAX_ENTRANTS
            object.__setattr__(self, "most_entrants", most)

    def table_settings(self, tournament_id: int, number: int, level: int) -> TableSettings:
        """The settings of table ``number`` at ``level`` (0-based): the level's blinds and
        ante, the tournament's game, size and clock; its ``tournament`` makes the table
        deal the absent in and owe no blinds (RULES.md 8)."""
        stakes = self.schedule.level(level)
        return TableSettings(
            name=f"{self.name[: MAX_NAME - 12]} · table {number}",
            variant=self.variant,
            structure=self.structure,
            small_blind=stakes.small_blind,
            big_blind=stakes.big_blind,
            ante=stakes.ante,
            seats=self.seats,
            private=True,  # seen from the tournament's lobby, not the cash lobby
            action_seconds=self.action_seconds,
            time_bank_seconds=self.time_bank_seconds,
            tournament=tournament_id,
        )

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind.value,
            "variant": self.variant,
            "structure": self.structure,
            "seats": self.seats,
            "starting_stack": self.starting_stack,
            "schedule": self.schedule.to_json(),
            "payouts": self.payouts.to_json(),
            "buy_in": self.buy_in,
            "fee": self.fee,
            "most_entrants": self.most_entrants,
            "start_at": None if self.start_at is None else self.start_at.isoformat(),
            "late_levels": self.late_levels,
            "registration": self.registration.value,
            "action_seconds": self.action_seconds,
            "time_bank_seconds": self.time_bank_seconds,
            "bots": self.bots,
        }


_WHOLE: dict[str, tuple[int, int]] = {  # name: (least, most)
    "seats": (2, MAX_SEATS),
    "starting_stack": (1, MAX_CHIPS),
    "buy_in": (0, MAX_CHIPS),
    "fee": (0, MAX_CHIPS),
    "most_entrants": (2, MAX_ENTRANTS),
    "late_levels": (0, 100),
    "action_seconds": (1, 600),
    "time_bank_seconds": (0, 3600),
    "bots": (0, MAX_ENTRANTS - 1),
}
_TEXT = ("name", "kind", "variant", "structure", "start_at", "registration")
_ALL = (*_TEXT, *_WHOLE, "schedule", "payouts")


def parse_tournament(body: Mapping[str, Any], now: datetime) -> TournamentSettings:
    """Tournament settings from a request's JSON; a ``SettingsError`` names the bad field
    (unknown fields too). A scheduled start must be in the future of ``now``."""
    if not isinstance(body, Mapping):
        raise SettingsError("tournament settings are a JSON object")
    refuse_unknown(body, _ALL)
    values: dict[str, Any] = {}
    for name, (least, most) in _WHOLE.items():
        if name in body:
            values[name] = _whole(name, body[name], least, most)
    for name in _TEXT:
        if name in body:
            value = body[name]
            if not isinstance(value, str) or not value.strip() or not value.isprintable():
                raise SettingsError("{field} must be printable text", field=name)
            values[name] = value.strip()
    if "name" not in values:
        raise SettingsError("name: a tournament needs a name")
    if len(values["name"]) > MAX_NAME:
        raise SettingsError(
            "{field} must be {least} to {most} printable characters",
            field="name",
            least=1,
            most=MAX_NAME,
        )
    values["kind"] = _choice("kind", values.get("kind", Kind.SIT_AND_GO.value), Kind)
    values["registration"] = _choice(
        "registration", values.get("registration", Registration.OPEN.value), Registration
    )
    if values.get("structure", "pot-limit") not in STRUCTURES:
        raise SettingsError(
            "structure must be one of {names}, not {value}",
            names=", ".join(STRUCTURES),
            value=repr(values["structure"]),
        )
    for name, parse in (("schedule", Schedule.from_json), ("payouts", PayoutTable.from_json)):
        if name in body:
            try:
                values[name] = parse(body[name])
            except Refusal as error:
                raise SettingsError("{field}: {reason}", field=name, reason=error) from error
    if "start_at" in values:
        values["start_at"] = _moment(values["start_at"], now)
    settings = TournamentSettings(**values)
    _check(settings)
    return settings


def _check(settings: TournamentSettings) -> None:
    """What the fields decide together: a start for a scheduled tournament only, a late
    registration within the schedule, bots at a sit-and-go, every level a game the table
    plays (checked on the level's table settings)."""
    if settings.kind is Kind.SCHEDULED and settings.start_at is None:
        raise SettingsError("start_at: a scheduled tournament needs a start")
    if settings.kind is Kind.SIT_AND_GO:
        if settings.start_at is not None:
            raise SettingsError("start_at: a sit-and-go starts when its seats are full")
        if settings.most_entrants > settings.seats:
            raise SettingsError(
                "most_entrants: a sit-and-go is one table of {seats}, not {most}",
                seats=settings.seats,
                most=settings.most_entrants,
            )
        if settings.late_levels:
            raise SettingsError("late_levels: a sit-and-go has no late registration")
    if settings.bots >= settings.most_entrants:
        raise SettingsError(
            "bots must leave a seat free: {bots} of {seats}",
            bots=settings.bots,
            seats=settings.most_entrants,
        )
    if settings.late_levels and settings.schedule.clock is not LevelClock.MINUTES:
        raise SettingsError("late_levels: a late registration needs levels by minutes")
    if settings.late_levels > len(settings.schedule.levels):
        raise SettingsError(
            "late_levels: the schedule has {levels} levels, not {late}",
            levels=len(settings.schedule.levels),
            late=settings.late_levels,
        )
    for index, level in enumerate(settings.schedule.levels):
        try:
            settings.table_settings(0, 1, index).config()
        except SettingsError as error:
            raise SettingsError(
                "schedule: level {level}: {reason}", level=index + 1, reason=error
            ) from error
        if level.big_blind > settings.starting_stack * 1000:
            raise SettingsError(
                "schedule: level {level}'s big blind {blind} is far above the starting "
                "stack {stack}",
                level=index + 1,
                blind=level.big_blind,
                stack=settings.starting_stack,
            )


def _whole(name: str, value: object, least: int, most: int) -> int:
    """A whole number from ``least`` to ``most``, refused naming ``name``."""
    try:
        whole(name, value, least, most)
    except TournamentError as error:
        raise SettingsError.passed(error) from error
    assert isinstance(value, int)
    return value


def _choice(name: str, value: str, kind: type[E]) -> E:
    try:
        return kind(value)
    except ValueError as error:
        raise SettingsError(
            "{field} must be one of {names}, not {value}",
            field=name,
            names=", ".join(k.value for k in kind),
            value=repr(value),
        ) from error


def _moment(text: str, now: datetime) -> datetime:
    """An ISO 8601 moment with its offset (``2026-12-04T20:00:00Z``), after ``now``."""
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as error:
        raise SettingsError(
            "start_at must be an ISO 8601 time such as 2026-12-04T20:00:00Z, not {value}",
            value=repr(text),
        ) from error
    if moment.tzinfo is None:
        raise SettingsError(
            "start_at needs its offset from UTC (Z or +01:00), not {value}", value=repr(text)
        )
    if moment <= now:
        raise SettingsError("start_at {value} is past", value=text)
    return moment


def settings_from_json(document: Mapping[str, Any]) -> TournamentSettings:
    """The settings a store's document holds (``to_json``), as they were checked."""
    values = dict(document)
    values["kind"] = Kind(values["kind"])
    values["registration"] = Registration(values["registration"])
    values["schedule"] = Schedule.from_json(values["schedule"])
    values["payouts"] = PayoutTable.from_json(values["payouts"])
    start = values.get("start_at")
    values["start_at"] = None if start is None else datetime.fromisoformat(start)
    return TournamentSettings(**values)


def level_stakes(settings: TableSettings, level: Level) -> TableSettings:
    """A tournament table's settings at ``level``: its blinds and ante (RULES.md 8: from
    the next hand)."""
    return replace(
        settings, small_blind=level.small_blind, big_blind=level.big_blind, ante=level.ante
    )
