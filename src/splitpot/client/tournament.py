"""A tournament as the terminal shows it (RULES.md 8; docs/protocol.md "Tournaments"): the
clock of a tournament's table (the level, its blinds and ante, the time or the hands to
the next level, hand for hand), the lobby (players left, average stack, level, prize pool,
payouts, standings, tables), a player's finish, and a line for each tournament listed.

Pure: the room's JSON in, lines out; the time now is given, never read here.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from splitpot.dealer import game_short_name
from splitpot.i18n import ENGLISH, Words, marked
from splitpot.rules import Variant
from splitpot.tournament.errors import TournamentError
from splitpot.tournament.levels import Schedule

Json = Mapping[str, Any]  # an object of the room's JSON, decoded

STANDINGS_SHOWN = 10  # rows of the lobby's standings shown (and the player's own)
STRUCTURE_NAMES = {  # a structure's id, as the rules name it (the catalogues hold these)
    "limit": "Fixed Limit",
    "pot-limit": "Pot Limit",
    "no-limit": "No Limit",
    "mixed": "Mixed Limit / Pot Limit",
}
STATUS_WORDS = {
    "registering": marked("registering"),
    "running": marked("running"),
    "finished": marked("finished"),
    "cancelled": marked("cancelled"),
}
KIND_WORDS = {"sit-and-go": marked("sit-and-go"), "scheduled": marked("scheduled")}


@dataclass(frozen=True, slots=True)
class Blinds:
    """A level's blinds and ante (each player's), in tournament chips."""

    small_blind: int
    big_blind: int
    ante: int = 0

    @classmethod
    def from_json(cls, value: Json) -> Blinds:
        return cls(int(value["small_blind"]), int(value["big_blind"]), int(value.get("ante") or 0))


@dataclass(frozen=True, slots=True)
class TournamentClock:
    """A tournament table's clock as its state tells it (the ``tournament`` block), kept
    up to date by the table's events: ``level`` (a new level from the next hand) and each
    hand's end (one hand fewer to the next level, on the hands clock)."""

    id: str
    name: str
    table_number: int | None
    level: int  # from 1
    blinds: Blinds
    on_break: bool = False  # play waits for a break's end; ``level`` and ``blinds`` follow it
    changes_at: datetime | None = None  # minutes clock: when the next change comes
    hands_left: int | None = None  # hands clock: the hands this table plays to the next level
    next_level: Blinds | None = None  # None: the last level, or not known
    last_level: bool = False  # the very last level (blinds at the largest): nothing follows
    hand_for_hand: bool = False

    @classmethod
    def from_json(cls, block: Json) -> TournamentClock:
        upcoming = block.get("next_level")
        hands_left = block.get("hands_left")
        return cls(
            id=str(block["id"]),
            name=str(block.get("name", "")),
            table_number=block.get("table_number"),
            level=int(block["level"]),
            blinds=Blinds.from_json(block),
            on_break=bool(block.get("on_break")),
            changes_at=moment(block.get("changes_at")),
            hands_left=None if hands_left is None else int(hands_left),
            next_level=None if upcoming is None else Blinds.from_json(upcoming),
            last_level=upcoming is None,
            hand_for_hand=bool(block.get("hand_for_hand")),
        )

    def after_hand(self) -> TournamentClock:
        """A hand of this table ended: on the hands clock, one hand fewer to the next level."""
        if self.hands_left is None:
            return self
        return replace(self, hands_left=max(0, self.hands_left - 1))

    def at_level(self, event: Json, now: datetime) -> TournamentClock:
        """The room's ``level`` event, received at ``now``: the level of the hands from the
        next on, and what follows it (the next level, and the hands or seconds to it: none
        at the very last level)."""
        upcoming = event.get("next_level")
        hands_left = event.get("hands_left")
        seconds_left = event.get("seconds_left")
        return replace(
            self,
            level=int(event["level"]),
            blinds=Blinds.from_json(event),
            on_break=False,
            changes_at=None
            if seconds_left is None
            else now + timedelta(seconds=float(seconds_left)),
            hands_left=None if hands_left is None else int(hands_left),
            next_level=None if upcoming is None else Blinds.from_json(upcoming),
            last_level=upcoming is None,
        )


def moment(text: object) -> datetime | None:
    """A time of the room's JSON (UTC ISO 8601: "2025-01-31T12:00:30.250Z"), or None."""
    if not isinstance(text, str):
        return None
    try:
        return datetime.fromisoformat(text)
    except ValueError:
        return None


def schedule_of(lobby: Json) -> Schedule | None:
    """The schedule of a lobby's settings, or None where it has none the client reads."""
    settings = lobby.get("settings")
    if not isinstance(settings, Mapping) or "schedule" not in settings:
        return None
    try:
        return Schedule.from_json(settings["schedule"])
    except TournamentError:
        return None


def span(seconds: float) -> str:
    """A time to wait as a clock shows it: "4:05", "1:02:09" (never below 0:00)."""
    whole = max(0, int(seconds + 0.999))  # a second begun counts
    hours, rest = divmod(whole, 3600)
    minutes, seconds_left = divmod(rest, 60)
    if hours:
        return f"{hours}:{minutes:02d}:{seconds_left:02d}"
    return f"{minutes}:{seconds_left:02d}"


def blinds_words(blinds: Blinds, words: Words = ENGLISH) -> str:
    """ "25/50" or "25/50, ante 5"."""
    small, big = words.number(blinds.small_blind), words.number(blinds.big_blind)
    if blinds.ante:
        return words.say(
            "{small}/{big}, ante {ante}", small=small, big=big, ante=words.number(blinds.ante)
        )
    return f"{small}/{big}"


def level_words(level: int, blinds: Blinds, words: Words = ENGLISH) -> str:
    """ "Level 3: blinds 25/50, ante 5", as the room's ``level`` event says it."""
    return words.say(
        "Level {level}: blinds {blinds}", level=level, blinds=blinds_words(blinds, words)
    )


def clock_line(
    clock: TournamentClock,
    now: datetime,
    words: Words = ENGLISH,
    schedule: Schedule | None = None,
) -> str:
    """The tournament's line over its table: its name and table, the level, what comes
    next and when, and hand for hand. Past a level's time the next level starts with the
    next hand, or, where the schedule has a break after the level, when the break ends."""
    say = words.say
    head = (
        say("{name}, table {number}", name=clock.name, number=clock.table_number)
        if clock.table_number is not None
        else clock.name
    )
    parts = [head, level_words(clock.level, clock.blinds, words)]
    upcoming = next_words(clock, now, words, schedule)
    if upcoming:
        parts.append(upcoming)
    if clock.hand_for_hand:
        parts.append(say("hand for hand"))
    return words.say_p("list", "; ").join(part for part in parts if part)


def next_words(
    clock: TournamentClock, now: datetime, words: Words = ENGLISH, schedule: Schedule | None = None
) -> str:
    """What comes next on the clock, in words ("" when it is not known)."""
    say = words.say
    if clock.last_level:
        return say("the last level")
    if clock.on_break and clock.changes_at is not None:
        left = (clock.changes_at - now).total_seconds()
        return say("on a break: play resumes in {time}", time=span(left))
    upcoming = clock.next_level
    if upcoming is None:
        return ""
    blinds = blinds_words(upcoming, words)
    if clock.hands_left is not None:
        if clock.hands_left <= 0:
            return say("next level {blinds} from the next hand", blinds=blinds)
        return words.say_n(
            "next level {blinds} in {count} hand",
            "next level {blinds} in {count} hands",
            clock.hands_left,
            blinds=blinds,
        )
    if clock.changes_at is None:
        return ""
    left = (clock.changes_at - now).total_seconds()
    if left > 0:
        return say("next level {blinds} in {time}", blinds=blinds, time=span(left))
    pause = _break_after(schedule, clock.level - 1)
    if pause and left + pause > 0:
        return say(
            "a break: play resumes in {time} with blinds {blinds}",
            time=span(left + pause),
            blinds=blinds,
        )
    return say("next level {blinds} from the next hand", blinds=blinds)


def _break_after(schedule: Schedule | None, index: int) -> int:
    """The seconds of the break after level ``index`` (0: none, or not known)."""
    if schedule is None or not 0 <= index < len(schedule.levels):
        return 0
    return 60 * schedule.levels[index].break_minutes


# ---------------------------------------------------------------- the lobby


def fact(lobby: Json, name: str) -> Any:
    """A fact of a tournament's summary: the lobby's own, else its settings' (the variant,
    the buy-in, the most entrants: the lobby holds the settings as made)."""
    if lobby.get(name) is not None:
        return lobby[name]
    settings = lobby.get("settings")
    return settings.get(name) if isinstance(settings, Mapping) else None


def entrant_of(lobby: Json, player: str | None) -> Json | None:
    """The player's row among the lobby's entrants, or None."""
    if player is None:
        return None
    for entrant in lobby.get("entrants") or ():
        if str(entrant.get("player")) == player:
            return dict(entrant)
    return None


def game_words(summary: Json, words: Words = ENGLISH) -> str:
    """The game of a tournament: "Omaha Hi/Lo, Pot Limit" (as the room names it when the
    client does not know the variant)."""
    variant = str(fact(summary, "variant") or "")
    try:
        game = game_short_name(Variant.parse(variant), words)
    except ValueError:
        game = variant
    structure = str(fact(summary, "structure") or "")
    named = STRUCTURE_NAMES.get(structure)
    return words.say(
        "{game}, {structure}", game=game, structure=words.say(named) if named else structure
    )


def entry_words(summary: Json, words: Words = ENGLISH) -> str:
    """ "buy-in 100 + fee 10", "buy-in 100", or "free"."""
    buy_in, fee = int(fact(summary, "buy_in") or 0), int(fact(summary, "fee") or 0)
    if fee:
        return words.say(
            "buy-in {buy_in} + fee {fee}", buy_in=words.number(buy_in), fee=words.number(fee)
        )
    if buy_in:
        return words.say("buy-in {buy_in}", buy_in=words.number(buy_in))
    return words.say("free")


def summary_line(summary: Json, words: Words = ENGLISH) -> str:
    """One tournament of the list: "7. Sunday (sit-and-go, registering): Omaha Hi/Lo, Pot
    Limit, buy-in 100 + fee 10, 3 of 6 entrants"."""
    say = words.say
    kind = KIND_WORDS.get(str(fact(summary, "kind")))
    status = STATUS_WORDS.get(str(summary.get("status")))
    return say(
        "{id}. {name} ({kind}, {status}): {game}, {entry}, {entries} of {most} entrants",
        id=summary["id"],
        name=summary.get("name", ""),
        kind=say(kind) if kind else fact(summary, "kind"),
        status=say(status) if status else summary.get("status"),
        game=game_words(summary, words),
        entry=entry_words(summary, words),
        entries=words.number(int(summary.get("entries") or 0)),
        most=words.number(int(fact(summary, "most_entrants") or 0)),
    )


def lobby_lines(
    lobby: Json, player: str | None, now: datetime, words: Words = ENGLISH
) -> list[str]:
    """The lobby in words: the tournament, its state, the players left and the average
    stack, the level, the prize pool and the payouts, the standings (the first rows and
    the player's own) and the tables; and, once the player is out, their place."""
    say, number = words.say, words.number
    lines = [summary_line(lobby, words)]
    status = str(lobby.get("status"))
    if status == "registering":
        lines.append(_start_words(lobby, now, words))
    else:
        left = int(lobby.get("players_left") or 0)
        lines.append(
            say(
                "Players left: {left} of {entries}; average stack {average}",
                left=number(left),
                entries=number(int(lobby.get("entries") or 0)),
                average=number(int(lobby.get("average_stack") or 0)),
            )
        )
    level = lobby.get("level")
    if isinstance(level, Mapping) and status == "running":
        lines.append(_lobby_level(level, now, words))
    if lobby.get("hand_for_hand"):
        lines.append(say("The tables play hand for hand."))
    lines.append(
        say(
            "Prize pool: {pool} ({entry})",
            pool=number(int(lobby.get("prize_pool") or 0)),
            entry=entry_words(lobby, words),
        )
    )
    payouts = [
        say("{place}. {prize}", place=row["place"], prize=number(int(row["prize"])))
        for row in lobby.get("payouts") or ()
    ]
    if payouts:
        lines.append(say("Payouts: {places}", places=words.say_p("list", ", ").join(payouts)))
    lines += _standings(lobby, player, words)
    tables = [
        say(
            "table {number} ({id}): {players}",
            number=table["number"],
            id=table["id"],
            players=words.say_n("{count} player", "{count} players", int(table["players"])),
        )
        for table in lobby.get("tables") or ()
        if not table.get("broken")
    ]
    if tables and status == "running":
        lines.append(say("Tables: {tables}", tables=words.say_p("list", ", ").join(tables)))
    finish = finish_line(lobby, player, words)
    if finish:
        lines.append(finish)
    return lines


def _start_words(lobby: Json, now: datetime, words: Words) -> str:
    """When a tournament still registering starts."""
    entries = words.number(int(lobby.get("entries") or 0))
    most = words.number(int(fact(lobby, "most_entrants") or 0))
    start = moment(fact(lobby, "start_at"))
    if start is not None:
        return words.say(
            "Registering: {entries} of {most} entrants; it starts in {time}",
            entries=entries,
            most=most,
            time=span((start - now).total_seconds()),
        )
    return words.say(
        "Registering: {entries} of {most} entrants; it starts when its seats are full",
        entries=entries,
        most=most,
    )


def _lobby_level(level: Json, now: datetime, words: Words) -> str:
    """The level now, by the lobby's minutes clock, and when it changes."""
    said = level_words(int(level["level"]), Blinds.from_json(level), words)
    changes = moment(level.get("changes_at"))
    if changes is None:
        return said
    left = span((changes - now).total_seconds())
    if level.get("on_break"):
        return words.say("{level}; on a break: play resumes in {time}", level=said, time=left)
    return words.say("{level}; the next level in {time}", level=said, time=left)


def _standings(lobby: Json, player: str | None, words: Words) -> list[str]:
    """The entrants, those still in first by chips, then those out by place: the first
    ``STANDINGS_SHOWN`` rows, and the player's own row wherever it is."""
    entrants = list(lobby.get("entrants") or ())
    if not entrants:
        return []
    lines = [words.say("Standings:")]
    for rank, entrant in enumerate(entrants, start=1):
        own = player is not None and str(entrant.get("player")) == player
        if rank <= STANDINGS_SHOWN or own:
            lines.append("  " + _standing(rank, entrant, own, words))
    hidden = len(entrants) - (len(lines) - 1)
    if hidden > 0:
        lines.append("  " + words.say_n("... and {count} more", "... and {count} more", hidden))
    return lines


def _standing(rank: int, entrant: Json, own: bool, words: Words) -> str:
    say = words.say
    name = str(entrant.get("name", ""))
    if own:
        name = say("{name} (you)", name=name)
    if entrant.get("out"):
        place = entrant.get("place")
        prize = entrant.get("prize")
        if place is None:
            return say("{rank}. {name}: out", rank=rank, name=name)
        if prize:
            return say(
                "{rank}. {name}: out in place {place}, prize {prize}",
                rank=rank,
                name=name,
                place=place,
                prize=words.number(int(prize)),
            )
        return say("{rank}. {name}: out in place {place}", rank=rank, name=name, place=place)
    chips = words.number(int(entrant.get("chips") or 0))
    if entrant.get("table_number") is not None:
        return say(
            "{rank}. {name}: {chips} at table {table}, seat {seat}",
            rank=rank,
            name=name,
            chips=chips,
            table=entrant["table_number"],
            seat=entrant.get("seat"),
        )
    return say("{rank}. {name}: {chips}", rank=rank, name=name, chips=chips)


def finish_line(lobby: Json, player: str | None, words: Words = ENGLISH) -> str:
    """The player's finish, once the lobby has placed them ("" before, or for one who is
    no entrant): their place of the entries, and their prize."""
    entrant = entrant_of(lobby, player)
    if entrant is None or entrant.get("place") is None:
        return ""
    place, prize = int(entrant["place"]), int(entrant.get("prize") or 0)
    entries = words.number(int(lobby.get("entries") or 0))
    name = lobby.get("name", "")
    if place == 1:
        return words.say(
            "You win {name}: first of {entries}, a prize of {prize}.",
            name=name,
            entries=entries,
            prize=words.number(prize),
        )
    if prize:
        return words.say(
            "You finish {name} in place {place} of {entries}: a prize of {prize}.",
            name=name,
            place=place,
            entries=entries,
            prize=words.number(prize),
        )
    return words.say(
        "You finish {name} in place {place} of {entries}.",
        name=name,
        place=place,
        entries=entries,
    )


def placed(lobby: Json, player: str | None) -> bool:
    """Whether the player's tournament is over for them and their place is known: out and
    placed, or the tournament finished with their place."""
    entrant = entrant_of(lobby, player)
    if entrant is None or entrant.get("place") is None:
        return False
    return bool(entrant.get("out")) or lobby.get("status") == "finished"


def table_of(lobby: Json, player: str | None) -> str | None:
    """The table where the lobby seats the player, while they are in; else None."""
    entrant = entrant_of(lobby, player)
    if entrant is None or entrant.get("out") or not entrant.get("table"):
        return None
    return str(entrant["table"])


def tournaments_lines(summaries: Sequence[Json], words: Words = ENGLISH) -> list[str]:
    """The room's tournaments, one a line."""
    return [summary_line(summary, words) for summary in summaries]


__all__ = [
    "Blinds",
    "TournamentClock",
    "clock_line",
    "entrant_of",
    "fact",
    "finish_line",
    "lobby_lines",
    "moment",
    "placed",
    "schedule_of",
    "span",
    "summary_line",
    "table_of",
    "tournaments_lines",
]
