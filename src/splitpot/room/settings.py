"""A table's settings as the room takes them (PROTOCOL.md "Table settings"), checked
field by field, and the ``TableConfig`` they make."""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import asdict, dataclass, replace
from fractions import Fraction
from typing import Any

from splitpot.protocol import TableInfo
from splitpot.protocol.commands import OPTION_FIELDS
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Rake, Refusal, Variant
from splitpot.table import MAX_SEATS, DoubleBoard, Kill, TableConfig

STRUCTURES = ("limit", "pot-limit", "no-limit", "mixed")
KILLS = ("off", "half", "full")  # RULES.md 7: no kill pots, a half kill, a full kill
MAX_CHIPS = 10**12
MAX_NAME = 40


class SettingsError(Refusal):
    """A table setting that the room refuses; the message names the field (an English
    sentence with named fields, which the room says in the host's language)."""


@dataclass(frozen=True, slots=True)
class TableSettings:
    """What a host chooses. Stakes are the blinds; in limit the small bet is the big
    blind and the big bet twice it (RULES.md 4.1: 2/4 has blinds of 1 and 2); a mixed
    game's pot-limit rounds play these blinds and its limit rounds bets of 2 and 4 big
    blinds, so the blinds go up when the game turns to limit (RULES.md 3)."""

    name: str
    variant: str = "o8"
    structure: str = "pot-limit"
    small_blind: int = 1
    big_blind: int = 2
    seats: int = 6
    min_buy_in: int = 0  # 0: the structure's default (RULES.md 6)
    max_buy_in: int = 0
    private: bool = False
    action_seconds: int = 30
    time_bank_seconds: int = 60
    bots: int = 0
    sit_out_hands: int = 10  # a player sitting out this many hands loses the seat
    audit: bool = False  # every salt published when the session ends (FAIRNESS.md)
    cap_heads_up: bool = True  # limit and mixed: False lifts the cap heads-up (RULES.md 3)
    approval: bool = False  # seats by approval: a player asks, the host seats them
    # The home game's options (RULES.md 7), which the host may change between hands.
    ante: int = 0
    rake_percent: float = 0  # of each pot, 0 to 100 (0: no rake); exact as written (2.5)
    rake_cap: int = 0  # chips a hand at most (0: no cap)
    straddle: bool = False
    run_it_twice: bool = False
    rabbit_hunt: bool = False
    bomb_pot: int = 0  # big blinds each (0: no bomb pots)
    bomb_every: int = 0  # a bomb pot every N hands (0: when the host calls one)
    double_board: str = DoubleBoard.OFF.value  # off, bomb-pots or always
    kill: str = "off"  # fixed limit: off, half or full
    kill_size: int = 0  # the scoop that starts a kill, in chips (0: ten big blinds)
    tournament: int = 0  # the tournament a table belongs to (RULES.md 8; 0: a cash table)

    def config(self) -> TableConfig:
        """The table's configuration; a ``SettingsError`` names what does not fit: the
        game's and the stakes' words as the rules say them, each option's after its name."""
        try:
            variant = Variant.parse(self.variant)
        except ValueError as error:  # Variant.parse's own words, said again here
            raise SettingsError(
                "variant: unknown variant {value}; known variants: {known}",
                value=repr(self.variant),
                known=", ".join(v.value for v in Variant),
            ) from error
        try:
            config = TableConfig(
                variant,
                self.betting(),
                seats=self.seats,
                min_buy_in=self.min_buy_in,
                max_buy_in=self.max_buy_in,
                tournament=bool(self.tournament),
            )
        except Refusal as error:  # the rules' and the table's
            raise SettingsError.passed(error) from error
        for field, options in self._options():  # each option checked with those before it
            try:
                config = replace(config, **options())
            except SettingsError:  # named already
                raise
            except Refusal as error:  # the table's (or the rake's) words, after the name
                raise SettingsError("{field}: {reason}", field=field, reason=error) from error
        return config

    def _options(self) -> list[tuple[str, Any]]:
        """Each option's name and what it makes of the ``TableConfig`` (a function: the
        rake's and the kill's own checks run inside it), in the order they are checked:
        an option that needs another (``bomb_every`` a bomb) comes after it."""
        return [
            ("ante", lambda: {"ante": self.ante}),
            ("rake_percent", lambda: {"rake": self.rake()}),
            ("straddle", lambda: {"straddle": self.straddle}),
            ("run_it_twice", lambda: {"run_it_twice": self.run_it_twice}),
            ("rabbit_hunt", lambda: {"rabbit_hunt": self.rabbit_hunt}),
            ("bomb_pot", lambda: {"bomb_pot": self.bomb_pot}),
            ("bomb_every", lambda: {"bomb_every": self.bomb_every}),
            ("double_board", lambda: {"double_board": DoubleBoard(self.double_board)}),
            ("kill", lambda: {"kill": self.kill_pots()}),
        ]

    def rake(self) -> Rake | None:
        """The rake (RULES.md 5): ``rake_percent`` of each pot, exactly as written (2.5 is
        five halves), at most ``rake_cap`` a hand; none at 0."""
        if not self.rake_percent:
            if self.rake_cap:
                raise SettingsError("rake_cap: a cap needs a rake_percent above 0")
            return None
        percent = Fraction(str(self.rake_percent))
        exact = int(percent) if percent.denominator == 1 else percent
        return Rake(exact, self.rake_cap or None)

    def kill_pots(self) -> Kill | None:
        """RULES.md 7: the kill pots the table plays (``kill``), of ``kill_size``."""
        if self.kill == "off":
            if self.kill_size:
                raise SettingsError("kill_size: a kill size needs kill half or full")
            return None
        return Kill(full=self.kill == "full", size=self.kill_size)

    def betting(self) -> FixedLimit | PotLimit | NoLimit | Mixed:
        small, big, cap = self.small_blind, self.big_blind, self.cap_heads_up
        if small > big:
            raise SettingsError(
                "small_blind {small} is above big_blind {big}", small=small, big=big
            )
        if self.structure == "limit":
            return FixedLimit(big, 2 * big, small_blind=small, big_blind=big, cap_heads_up=cap)
        if not cap and self.structure != "mixed":  # docs/rules.md: refused, not ignored
            raise SettingsError(
                "cap_heads_up: {structure} has no cap to lift; the setting is for "
                "limit and mixed tables",
                structure=self.structure,
            )
        if self.structure == "pot-limit":
            return PotLimit(small, big)
        if self.structure == "no-limit":
            return NoLimit(small, big)
        limit = FixedLimit(2 * big, 4 * big, small_blind=big, big_blind=2 * big, cap_heads_up=cap)
        return Mixed(limit, PotLimit(small, big))

    def to_json(self) -> dict[str, Any]:
        """The settings as JSON; a cash table's without ``tournament`` (a host's setting it
        is not: ``parse_settings`` refuses it)."""
        document = asdict(self)
        if not self.tournament:
            del document["tournament"]
        return document

    def info(self, table_id: str, config: TableConfig, host_id: int, paused: bool) -> TableInfo:
        """The protocol's facts of a table of these settings (``config``: the one in
        force), for one run here or one known from the store."""
        return TableInfo(
            table_id,
            self.name,
            config,
            str(host_id),
            self.private,
            paused,
            self.action_seconds,
            self.time_bank_seconds,
            self.audit,
            self.approval,
        )


_FIELDS: dict[str, tuple[type, int, int]] = {
    # name: (type, least, most) -- strings by length, numbers by value (float: any
    # number, a fraction too)
    "name": (str, 1, MAX_NAME),
    "variant": (str, 1, 20),
    "structure": (str, 1, 20),
    "small_blind": (int, 1, MAX_CHIPS),
    "big_blind": (int, 1, MAX_CHIPS),
    "seats": (int, 2, MAX_SEATS),
    "min_buy_in": (int, 0, MAX_CHIPS),
    "max_buy_in": (int, 0, MAX_CHIPS),
    "private": (bool, 0, 1),
    "action_seconds": (int, 1, 600),
    "time_bank_seconds": (int, 0, 3600),
    "bots": (int, 0, MAX_SEATS - 1),
    "sit_out_hands": (int, 1, 1000),
    "audit": (bool, 0, 1),
    "cap_heads_up": (bool, 0, 1),
    "approval": (bool, 0, 1),
    "ante": (int, 0, MAX_CHIPS),
    "rake_percent": (float, 0, 100),
    "rake_cap": (int, 0, MAX_CHIPS),
    "straddle": (bool, 0, 1),
    "run_it_twice": (bool, 0, 1),
    "rabbit_hunt": (bool, 0, 1),
    "bomb_pot": (int, 0, 100),
    "bomb_every": (int, 0, 1000),
    "double_board": (str, 1, 20),
    "kill": (str, 1, 20),
    "kill_size": (int, 0, MAX_CHIPS),
}
_CHOICES: dict[str, tuple[str, ...]] = {  # the options' text settings of a few values
    "double_board": tuple(board.value for board in DoubleBoard),
    "kill": KILLS,
}
assert set(OPTION_FIELDS) <= set(_FIELDS)  # the host's ``options`` are table settings


def parse_settings(body: Mapping[str, Any]) -> TableSettings:
    """Table settings from a request's JSON; unknown fields are refused by name."""
    if not isinstance(body, Mapping):
        raise SettingsError("table settings are a JSON object")
    refuse_unknown(body, _FIELDS)
    values: dict[str, Any] = {}
    for field, value in body.items():
        kind, least, most = _FIELDS[field]
        if kind is bool:
            if not isinstance(value, bool):
                raise SettingsError(
                    "{field} must be true or false, not {value}", field=field, value=repr(value)
                )
        elif kind is float:
            number = isinstance(value, int | float) and not isinstance(value, bool)
            if not number or not math.isfinite(value):
                raise SettingsError(
                    "{field} must be a number, not {value}", field=field, value=repr(value)
                )
            _in_range(field, value, least, most)
        elif kind is int:
            if isinstance(value, bool) or not isinstance(value, int):
                raise SettingsError(
                    "{field} must be a whole number, not {value}", field=field, value=repr(value)
                )
            _in_range(field, value, least, most)
        else:
            if not isinstance(value, str):
                raise SettingsError(
                    "{field} must be text, not {value}", field=field, value=repr(value)
                )
            value = value.strip()
            if not least <= len(value) <= most or not value.isprintable():
                raise SettingsError(
                    "{field} must be {least} to {most} printable characters",
                    field=field,
                    least=least,
                    most=most,
                )
        values[field] = value
    if "name" not in values:
        raise SettingsError("name: a table needs a name")
    if values.get("structure", "pot-limit") not in STRUCTURES:
        raise SettingsError(
            "structure must be one of {names}, not {value}",
            names=", ".join(STRUCTURES),
            value=repr(values["structure"]),
        )
    for field, names in _CHOICES.items():
        if field in values and values[field] not in names:
            raise SettingsError(
                "{field} must be one of {names}, not {value}",
                field=field,
                names=", ".join(names),
                value=repr(values[field]),
            )
    settings = TableSettings(**values)
    if settings.bots >= settings.seats:
        raise SettingsError(
            "bots must leave a seat free: {bots} of {seats}",
            bots=settings.bots,
            seats=settings.seats,
        )
    settings.config()  # every rule of the game and the table, checked now
    return settings


def refuse_unknown(body: Mapping[str, Any], known: Iterable[str]) -> None:
    """Refuse the first field of ``body`` not among the ``known`` settings, by name."""
    names = list(known)
    unknown = sorted(set(body) - set(names))
    if unknown:
        raise SettingsError(
            "unknown setting {name}; settings are: {names}",
            name=repr(unknown[0]),
            names=", ".join(names),
        )


def _in_range(field: str, value: float, least: float, most: float) -> None:
    if not least <= value <= most:
        raise SettingsError(
            "{field} must be from {least} to {most}, not {value}",
            field=field,
            least=least,
            most=most,
            value=value,
        )


def settings_of(document: Mapping[str, Any]) -> TableSettings:
    """The settings a store's document holds (it holds more: the bots' ids, paused)."""
    fields = set(TableSettings.__dataclass_fields__)
    return TableSettings(**{k: v for k, v in document.items() if k in fields})


__all__ = ["KILLS", "STRUCTURES", "SettingsError", "TableSettings", "parse_settings", "settings_of"]
