"""A tournament table's clock as its host keeps it (RULES.md 8): the level of its next
hand by minutes or by its own hands, no deal on a break and the moment it ends, and no
deal before the director's clearance."""

from __future__ import annotations

from splitpot.room.tournament_table import TournamentPlay
from splitpot.tournament.levels import Level, LevelClock, Schedule

BY_MINUTES = Schedule(
    LevelClock.MINUTES,
    (Level(10, 20, length=10, break_minutes=5), Level(20, 40, ante=5, length=10)),
)


def play(schedule: Schedule = BY_MINUTES, **fields: object) -> TournamentPlay:
    return TournamentPlay(7, 2, "Sunday", schedule, **fields)  # type: ignore[arg-type]


def test_no_hand_is_dealt_on_a_break_and_the_host_looks_again_when_it_ends() -> None:
    tournament = play(cleared_for=5, elapsed=600.0, elapsed_at=100.0)  # 10 minutes in
    assert not tournament.may_deal(5, 100.0, 4)  # the break after level 1
    assert tournament.next_moment(100.0, 4) == 100.0 + 300.0
    assert tournament.may_deal(5, 400.0, 4)  # five minutes later: level 2
    position = tournament.position(400.0, 4)
    assert (position.level, position.on_break) == (1, False)
    assert tournament.level_of(position) == Level(20, 40, ante=5, length=10)


def test_no_hand_is_dealt_before_the_director_clears_it() -> None:
    tournament = play(cleared_for=4, elapsed=0.0, elapsed_at=0.0)
    assert not tournament.may_deal(5, 1.0, 4)
    tournament.cleared_for = 5
    assert tournament.may_deal(5, 1.0, 4)
    tournament.over = True
    assert not tournament.may_deal(5, 1.0, 4) and tournament.next_moment(1.0, 4) is None


def test_levels_by_hands_follow_the_tables_own_hands() -> None:
    by_hands = Schedule(LevelClock.HANDS, (Level(10, 20, length=3), Level(15, 30, length=3)))
    tournament = play(by_hands, elapsed=9999.0)
    assert tournament.position(0.0, 2).level == 0
    assert tournament.position(0.0, 3).level == 1
    clock = tournament.to_json(0.0, 2, lambda moment: None)
    assert clock["hands_left"] == 1 and clock["changes_at"] is None
    assert clock["next_level"] == {"small_blind": 15, "big_blind": 30, "ante": 0}


def test_the_clock_by_minutes_says_when_the_level_changes() -> None:
    tournament = play(elapsed=60.0, elapsed_at=10.0)
    clock = tournament.to_json(10.0, 0, lambda moment: f"at {moment:.0f}")
    assert clock["level"] == 1 and clock["changes_at"] == "at 550"  # 9 minutes left
    assert clock["table_number"] == 2 and clock["id"] == "7"
