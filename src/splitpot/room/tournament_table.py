"""A tournament table's part in its tournament, as its host keeps it (RULES.md 8): the
level its next hand plays, the director's clearance to deal it, and the commands a
tournament table refuses.

Between hands the host asks the store where its players are (``CheckTournament``): who
sits here now (players moved in or out by the director), whether the next hand may be
dealt (the director clears every table waiting between hands, all at once when the tables
play hand for hand), and whether the table has broken or the tournament ended.
"""

from __future__ import annotations

from dataclasses import dataclass

from splitpot.i18n import said
from splitpot.protocol import ErrorCode, JsonObject, ProtocolError
from splitpot.room.commands import HostCommand, Leave, Sit, TableCommand, TopUp, WaitingList
from splitpot.room.seating import WallClock
from splitpot.tournament.levels import Level, LevelClock, Position, Schedule

POLL_SECONDS = 0.2  # between a table's questions to the store while it waits to deal


@dataclass(frozen=True, slots=True)
class TournamentSeat:
    """A player the store seats at this table now (0-based seat), with their chips."""

    seat: int
    player_id: int
    name: str
    chips: int


@dataclass(frozen=True, slots=True)
class TournamentOrders:
    """The store's answer to ``CheckTournament``: the table's seats as the director left
    them, the clearance of the hand the table waits to deal, and the seconds the
    tournament has run (its level clock)."""

    seats: tuple[TournamentSeat, ...]
    cleared: bool
    elapsed: float
    broken: bool = False
    finished: bool = False
    hand_for_hand: bool = False


@dataclass
class TournamentPlay:
    """What a tournament table's host keeps of its tournament."""

    id: int
    number: int
    name: str
    schedule: Schedule
    buy_in: int = 0
    fee: int = 0
    bots: frozenset[int] = frozenset()  # the tournament's bots: played here when moved in
    cleared_for: int = 0  # the hand number the director cleared
    checked_for: int = 0  # the hand number the table last asked about
    check_at: float | None = None  # when to ask again (the host's clock)
    elapsed: float = 0.0  # the tournament's seconds at ``elapsed_at``
    elapsed_at: float = 0.0
    hand_for_hand: bool = False
    over: bool = False  # the table broke, or the tournament ended
    level: int = -1  # the level of the hand dealt last (0-based; -1: none yet)

    def position(self, now: float, hands_played: int) -> Position:
        """The level clock now: by minutes from the tournament's start, or by the hands
        this table has dealt (docs/rules.md)."""
        if self.schedule.clock is LevelClock.HANDS:
            return self.schedule.position(hands_played)
        return self.schedule.position(self.elapsed + max(0.0, now - self.elapsed_at))

    def level_of(self, position: Position) -> Level:
        return self.schedule.level(position.level)

    def change_json(self, position: Position) -> JsonObject:
        """What comes after ``position``'s level (docs/protocol.md ``level``): the next
        level's blinds and ante, and the hands (hands clock) or seconds (minutes clock) to
        it; all null when none comes."""
        remaining = position.remaining
        if remaining is None:
            return {"next_level": None, "hands_left": None, "seconds_left": None}
        following = self.schedule.level(position.level + 1)
        by_hands = self.schedule.clock is LevelClock.HANDS
        return {
            "next_level": {
                "small_blind": following.small_blind,
                "big_blind": following.big_blind,
                "ante": following.ante,
            },
            "hands_left": int(remaining) if by_hands else None,
            "seconds_left": None if by_hands else round(float(remaining), 3),
        }

    def may_deal(self, hand: int, now: float, hands_played: int) -> bool:
        """Cleared for ``hand``, not on a break, the table still playing."""
        return (
            not self.over
            and self.cleared_for >= hand
            and not self.position(now, hands_played).on_break
        )

    def next_moment(self, now: float, hands_played: int) -> float | None:
        """When the host must look again: the next question to the store, or a break's end."""
        if self.over:
            return None
        # a question already asked and answered is no moment to wake for (a table cleared
        # to deal would wake at once, again and again, for its whole pause)
        moments = [m for m in (self.check_at,) if m is not None and m > now]
        position = self.position(now, hands_played)
        if position.on_break and position.remaining is not None:
            moments.append(now + float(position.remaining))
        return min(moments) if moments else None

    def to_json(self, now: float, hands_played: int, wall: WallClock) -> JsonObject:
        """The tournament's clock as a table's state tells it (docs/protocol.md)."""
        position = self.position(now, hands_played)
        level = self.level_of(position)
        change = self.change_json(position)
        by_minutes = self.schedule.clock is LevelClock.MINUTES
        remaining = position.remaining if by_minutes else None
        return {
            "id": str(self.id),
            "name": self.name,
            "table_number": self.number,
            "level": position.level + 1,
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            "on_break": position.on_break,
            "changes_at": None if remaining is None else wall(now + float(remaining)),
            "hands_left": change["hands_left"],
            "next_level": change["next_level"],
            "hand_for_hand": self.hand_for_hand,
        }


def refuse_at_tournament(command: TableCommand) -> None:
    """RULES.md 8: the director seats and moves the players of a tournament table; no one
    sits down, leaves with chips, buys more, or hosts it."""
    if isinstance(command, Sit | WaitingList):
        raise ProtocolError(
            ErrorCode.FORBIDDEN,
            said("a tournament's players are seated by the tournament: register in its lobby"),
        )
    if isinstance(command, Leave):
        raise ProtocolError(
            ErrorCode.FORBIDDEN,
            said(
                "a tournament is played to the end: a player away is dealt in and checks or "
                "folds (sit out to step away)"
            ),
        )
    if isinstance(command, TopUp):
        raise ProtocolError(
            ErrorCode.FORBIDDEN, said("no chips are added in a tournament (RULES.md 8)")
        )
    if isinstance(command, HostCommand):
        raise ProtocolError(
            ErrorCode.FORBIDDEN, said("the tournament's director runs this table, not a host")
        )


__all__ = [
    "POLL_SECONDS",
    "TournamentOrders",
    "TournamentPlay",
    "TournamentSeat",
    "refuse_at_tournament",
]
