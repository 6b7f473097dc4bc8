"""The payout table (RULES.md 8, Prizes): the share of the prize pool each place wins, by
the number of entrants, stated before the start; prizes in whole chips summing to the pool."""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

from splitpot.tournament.errors import TournamentError

HUNDRED = Fraction(100)
MIN_ENTRANTS = 2  # a tournament of one is no tournament
MAX_ROWS = 100  # rows of a table a host writes
MAX_PLACES = 1000  # places paid by one row a host writes
MAX_TEXT = 40  # a percent written as text ("100/3"), in characters
STANDARD = "standard"
WINNER_TAKES_ALL = "winner-takes-all"


@dataclass(frozen=True, slots=True)
class PayoutRow:
    """The percents of the pool paid, 1st place first, to events of up to ``most_entrants``
    entrants (None: any number above the row before)."""

    most_entrants: int | None
    percents: tuple[Fraction, ...]

    def __post_init__(self) -> None:
        most = self.most_entrants
        if most is not None and (isinstance(most, bool) or not isinstance(most, int)):
            raise TournamentError(
                "entrants must be a whole number or null, not {value}", value=repr(most)
            )
        if most is not None and most < MIN_ENTRANTS:
            raise TournamentError(
                "entrants: a tournament has at least {least} entrants, not {value}",
                least=MIN_ENTRANTS,
                value=most,
            )
        if not self.percents:
            raise TournamentError("percents: a row pays at least one place")
        if len(self.percents) > MAX_PLACES:
            raise TournamentError(
                "percents: a row pays at most {most} places, not {places}",
                most=MAX_PLACES,
                places=len(self.percents),
            )
        before: Fraction | None = None
        for index, percent in enumerate(self.percents):
            if percent <= 0:
                raise TournamentError(
                    "percents[{index}]: {value} is not above 0", index=index, value=said(percent)
                )
            if before is not None and percent > before:
                raise TournamentError(
                    "percents[{index}]: {value} is more than the place before it ({before}); "
                    "a better place never wins less",
                    index=index,
                    value=said(percent),
                    before=said(before),
                )
            before = percent
        total = sum(self.percents, Fraction(0))
        if total != HUNDRED:
            raise TournamentError("percents: they add up to {total}, not 100", total=said(total))
        if most is not None and len(self.percents) > most:
            raise TournamentError(
                "percents: {places} places paid, more than the row's {most} entrants",
                places=len(self.percents),
                most=most,
            )

    def to_json(self) -> dict[str, Any]:
        return {
            "entrants": self.most_entrants,
            "percents": [percent_json(percent) for percent in self.percents],
        }


_STANDARD_ROWS = (
    PayoutRow(2, (HUNDRED,)),
    PayoutRow(6, (Fraction(65), Fraction(35))),
    PayoutRow(10, (Fraction(50), Fraction(30), Fraction(20))),
)


@dataclass(frozen=True, slots=True)
class PayoutTable:
    """Payout rows by ascending entrants; every row pays no more places than the fewest
    entrants it covers. ``curve``: the standard table, whose events above its last row pay
    about the top 15% on a decreasing curve (``standard_percents``)."""

    rows: tuple[PayoutRow, ...]
    curve: bool = False

    def __post_init__(self) -> None:
        if not self.rows:
            raise TournamentError("payouts: a table has at least one row")
        if len(self.rows) > MAX_ROWS:
            raise TournamentError(
                "payouts: a table has at most {most} rows, not {rows}",
                most=MAX_ROWS,
                rows=len(self.rows),
            )
        if self.curve and self.rows != _STANDARD_ROWS:
            raise TournamentError.untranslated("the curve is the standard table's alone")
        least = MIN_ENTRANTS  # the fewest entrants of the row
        for index, row in enumerate(self.rows):
            last = index == len(self.rows) - 1
            if row.most_entrants is None and not last:
                raise TournamentError(
                    "payouts[{index}].entrants: only the last row may be null", index=index
                )
            if row.most_entrants is not None and row.most_entrants < least:
                raise TournamentError(
                    "payouts[{index}].entrants: {value} is not above the row before's {before}",
                    index=index,
                    value=row.most_entrants,
                    before=least - 1,
                )
            if row.most_entrants is not None and last and not self.curve:
                raise TournamentError(
                    "payouts[{index}].entrants: the last row must be null (any number above "
                    "the row before), not {value}",
                    index=index,
                    value=row.most_entrants,
                )
            if len(row.percents) > least:
                raise TournamentError(
                    "payouts[{index}].percents: {places} places paid, but the row starts at "
                    "{least} entrants",
                    index=index,
                    places=len(row.percents),
                    least=least,
                )
            least = (row.most_entrants or least) + 1

    @classmethod
    def standard(cls) -> PayoutTable:
        """RULES.md 8's examples: heads-up 100%; 3 to 6 entrants 65/35; 7 to 10 50/30/20;
        11 and more about the top 15% (``standard_percents``)."""
        return cls(_STANDARD_ROWS, curve=True)

    @classmethod
    def winner_takes_all(cls) -> PayoutTable:
        return cls((PayoutRow(None, (HUNDRED,)),))

    @classmethod
    def from_json(cls, value: object) -> PayoutTable:
        """A table from JSON: "standard", "winner-takes-all", or a list of rows
        ``{"entrants": 6, "percents": [65, 35]}`` (the last ``"entrants": null``); percents
        are numbers as written (33.5) or text ("100/3"). Errors name the field."""
        if value == STANDARD:
            return cls.standard()
        if value == WINNER_TAKES_ALL:
            return cls.winner_takes_all()
        if not isinstance(value, list):
            raise TournamentError(
                'payouts must be "standard", "winner-takes-all" or a list of rows, not {value}',
                value=shown(value),
            )
        if len(value) > MAX_ROWS:
            raise TournamentError(
                "payouts: a table has at most {most} rows, not {rows}",
                most=MAX_ROWS,
                rows=len(value),
            )
        rows = tuple(_row_json(index, row) for index, row in enumerate(value))
        return cls(rows)

    def to_json(self) -> str | list[dict[str, Any]]:
        if self.curve:
            return STANDARD
        if self == PayoutTable.winner_takes_all():
            return WINNER_TAKES_ALL
        return [row.to_json() for row in self.rows]

    def percents_for(self, entrants: int) -> tuple[Fraction, ...]:
        """The percents of the pool paid to an event of ``entrants``, 1st place first."""
        if isinstance(entrants, bool) or not isinstance(entrants, int):
            raise TournamentError.untranslated(f"entrants must be an int, not {entrants!r}")
        if entrants < MIN_ENTRANTS:
            raise TournamentError(
                "entrants: a tournament has at least {least} entrants, not {value}",
                least=MIN_ENTRANTS,
                value=entrants,
            )
        for row in self.rows:
            if row.most_entrants is None or entrants <= row.most_entrants:
                return row.percents
        return standard_percents(entrants)  # only the curve's table has rows that end

    def places_paid(self, entrants: int) -> int:
        return len(self.percents_for(entrants))

    def prizes(self, pool: int, entrants: int) -> tuple[int, ...]:
        """Chips per place, 1st first: each place's percent of ``pool`` rounded down, and
        the chips that rounding leaves one each to the top places, so they sum to ``pool``."""
        if isinstance(pool, bool) or not isinstance(pool, int):
            raise TournamentError.untranslated(f"the pool must be an int, not {pool!r}")
        if pool < 0:
            raise TournamentError("pool: {value} chips is below 0", value=pool)
        return split(pool, self.percents_for(entrants))


def split(pool: int, percents: tuple[Fraction, ...]) -> tuple[int, ...]:
    """``pool`` by ``percents`` (summing to 100) in whole chips: rounded down, and the odd
    chips (fewer than the places) one each to the top places."""
    prizes = [pool * percent.numerator // (100 * percent.denominator) for percent in percents]
    odd = pool - sum(prizes)
    for place in range(odd):
        prizes[place] += 1
    return tuple(prizes)


def paid_places(entrants: int) -> int:
    """The standard table's places paid above 10 entrants: the top 15%, rounded up, and
    never fewer than the three that 7 to 10 entrants pay."""
    return max(3, math.ceil(Fraction(15, 100) * entrants))


@lru_cache(maxsize=64)
def standard_percents(entrants: int) -> tuple[Fraction, ...]:
    """The standard curve: each place paid gets a floor of 1.5 buy-ins (150% of the pool
    over the entrants), and what is left goes by 1/place (1st 1, 2nd 1/2, ...), counted in
    units of 1/10000 of the pool (finer when more than 100 places are paid), the units left
    by rounding one each to the top places: never rising, summing to exactly 100."""
    places = paid_places(entrants)
    units = 10_000
    while units < 100 * places:
        units *= 10
    floor = units * 3 // (2 * entrants)
    scale = places * 1_000_000  # weights scale // place are strictly decreasing
    weights = [scale // place for place in range(1, places + 1)]
    extra = units - floor * places
    total = sum(weights)
    shares = [floor + extra * weight // total for weight in weights]
    for place in range(units - sum(shares)):
        shares[place] += 1
    return tuple(Fraction(100 * share, units) for share in shares)


def said(number: Fraction) -> str:
    """A percent as a person writes it: 35, 33.5, or 100/3 (no decimal ends)."""
    value = percent_json(number)
    return str(value)


def percent_json(number: Fraction) -> int | float | str:
    """A percent for JSON: a whole number, a decimal that reads back exactly, or "n/d"."""
    number = Fraction(number)
    if number.denominator == 1:
        return number.numerator
    decimal = float(number)
    if Fraction(str(decimal)) == number:
        return decimal
    return f"{number.numerator}/{number.denominator}"


def shown(value: object) -> str:
    """A bad JSON value as the message quotes it, cut short."""
    text = repr(value)
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 3] + "..."


def _row_json(index: int, value: object) -> PayoutRow:
    if not isinstance(value, Mapping):
        raise TournamentError(
            "payouts[{index}] must be an object with entrants and percents, not {value}",
            index=index,
            value=shown(value),
        )
    for name in value:
        if name not in ("entrants", "percents"):
            raise TournamentError(
                "payouts[{index}]: unknown field {name}; a row has entrants and percents",
                index=index,
                name=shown(name),
            )
    for name in ("entrants", "percents"):
        if name not in value:
            raise TournamentError("payouts[{index}].{name} is missing", index=index, name=name)
    entrants = value["entrants"]
    if entrants is not None and (isinstance(entrants, bool) or not isinstance(entrants, int)):
        raise TournamentError(
            "payouts[{index}].entrants must be a whole number or null, not {value}",
            index=index,
            value=shown(entrants),
        )
    percents = value["percents"]
    if not isinstance(percents, list):
        raise TournamentError(
            "payouts[{index}].percents must be a list of numbers, not {value}",
            index=index,
            value=shown(percents),
        )
    if len(percents) > MAX_PLACES:
        raise TournamentError(
            "payouts[{index}].percents: a row pays at most {most} places, not {places}",
            index=index,
            most=MAX_PLACES,
            places=len(percents),
        )
    exact = tuple(_percent_json(index, place, percent) for place, percent in enumerate(percents))
    try:
        return PayoutRow(entrants, exact)
    except TournamentError as error:
        raise TournamentError("payouts[{index}].{reason}", index=index, reason=error) from error


def _percent_json(index: int, place: int, value: object) -> Fraction:
    """A percent as written: a number (33.5 is 67/2, not the float's binary value) or text
    ("33.5", "100/3")."""
    try:
        if isinstance(value, int) and not isinstance(value, bool):
            return Fraction(value)
        if isinstance(value, float) and math.isfinite(value):
            return Fraction(str(value))
        if isinstance(value, str) and len(value) <= MAX_TEXT:
            return Fraction(value.strip())
    except (ValueError, ZeroDivisionError):
        pass
    raise TournamentError(
        'payouts[{index}].percents[{place}] must be a number (or text such as "100/3"), '
        "not {value}",
        index=index,
        place=place,
        value=shown(value),
    )


__all__ = [
    "MIN_ENTRANTS",
    "PayoutRow",
    "PayoutTable",
    "paid_places",
    "split",
    "standard_percents",
]
