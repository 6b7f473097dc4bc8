"""Tournament levels (RULES.md 8, Levels): the schedule's JSON and its refusals naming the
field, where play is at any time or hand count (breaks, the last level for ever), and the
standard ladder."""

from __future__ import annotations

import json
import math
import re
from itertools import pairwise
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from splitpot.tournament.errors import TournamentError
from splitpot.tournament.levels import MAX_CHIPS, Level, LevelClock, Position, Schedule

MINUTES = LevelClock.MINUTES
HANDS = LevelClock.HANDS


def level(small: object, big: object, **extra: object) -> dict[str, object]:
    return {"small_blind": small, "big_blind": big, **extra}


def schedule(*levels: object, clock: str = "minutes") -> dict[str, object]:
    return {"clock": clock, "levels": list(levels)}


# --- JSON in and out ---------------------------------------------------------------------


def test_a_schedule_is_read_from_json_with_the_defaults_filled_in() -> None:
    read = Schedule.from_json(
        schedule(
            level(10, 20, ante=0, length=15, break_minutes=5),
            level(15, 30, ante=3),
            level(25, 50),
        )
    )
    assert read.clock is MINUTES
    assert read.levels == (
        Level(10, 20, 0, 15, 5),
        Level(15, 30, 3, 10, 0),
        Level(25, 50, 0, 10, 0),
    )
    hands = Schedule.from_json(schedule(level(1, 2, length=8), level(1, 3), clock="hands"))
    assert hands.clock is HANDS and hands.levels == (Level(1, 2, length=8), Level(1, 3))


def test_to_json_writes_every_field_and_reads_back_the_same_schedule() -> None:
    original = Schedule(MINUTES, (Level(5, 10, 1, 12, 3), Level(10, 20, 2, 12)))
    written = original.to_json()
    assert written == {
        "clock": "minutes",
        "levels": [
            {"small_blind": 5, "big_blind": 10, "ante": 1, "length": 12, "break_minutes": 3},
            {"small_blind": 10, "big_blind": 20, "ante": 2, "length": 12, "break_minutes": 0},
        ],
    }
    assert Schedule.from_json(json.loads(json.dumps(written))) == original


@given(
    clock=st.sampled_from(LevelClock),
    steps=st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, 50), st.integers(1, 60)),
        min_size=1,
        max_size=20,
    ),
    breaks=st.lists(st.integers(0, 30), min_size=20, max_size=20),
)
@settings(max_examples=60)
def test_any_valid_schedule_goes_through_json_unchanged(
    clock: LevelClock, steps: list[tuple[int, int, int]], breaks: list[int]
) -> None:
    small, big, levels = 1, 2, []
    for index, (up_small, up_big, length) in enumerate(steps):
        small, big = small + up_small, max(big + up_big, small + up_small)
        last = index == len(steps) - 1
        pause = breaks[index] if clock is MINUTES and not last else 0
        levels.append(Level(small, big, big // 10, length, pause))
    original = Schedule(clock, tuple(levels))
    assert Schedule.from_json(json.loads(json.dumps(original.to_json()))) == original


BAD_JSON: list[tuple[object, str, str]] = [
    # (the JSON, the field named, the English said)
    ([], "schedule", "schedule must be a JSON object, not []"),
    ({"levels": [level(1, 2)]}, "clock", "clock is missing"),
    ({"clock": "minutes"}, "schedule", "schedule: give levels or standard"),
    (
        {"clock": "seconds", "levels": [level(1, 2)]},
        "clock",
        "clock must be one of minutes, hands, not 'seconds'",
    ),
    (
        {"clock": "hands", "levels": [level(1, 2)], "name": "x"},
        "schedule",
        "schedule: unknown field 'name'; the fields are clock, levels",
    ),
    (schedule(), "levels", "levels must be a list of 1 to 100 levels, not 0"),
    (
        {"clock": "minutes", "levels": {"0": level(1, 2)}},
        "levels",
        "levels must be a list of 1 to 100 levels, not {'0': ",
    ),
    (
        schedule(*[level(1, 2)] * 101),
        "levels",
        "levels must be a list of 1 to 100 levels, not 101",
    ),
    (
        schedule(level(1, 2), [1, 2]),
        "levels[1]",
        "levels[1] must be a JSON object, not [1, 2]",
    ),
    (schedule(level(1, 2), {"small_blind": 2}), "levels[1].big_blind", "is missing"),
    (
        schedule(level(1, 2), level(1, 2, straddle=4)),
        "levels[1]",
        "levels[1]: unknown field 'straddle'; the fields are small_blind, big_blind, ante, "
        "length, break_minutes",
    ),
    (
        schedule(level(1, 2), level(1, 2), level(2, "20")),
        "levels[2].big_blind",
        "levels[2].big_blind must be a whole number, not '20'",
    ),
    (
        schedule(level(10, 20.0)),
        "levels[0].big_blind",
        "levels[0].big_blind must be a whole number, not 20.0",
    ),
    (
        schedule(level(True, 2)),
        "levels[0].small_blind",
        "levels[0].small_blind must be a whole number, not True",
    ),
    (
        schedule(level(0, 2)),
        "levels[0].small_blind",
        "levels[0].small_blind must be from 1 to 1000000000000, not 0",
    ),
    (
        schedule(level(1, 10**12 + 1)),
        "levels[0].big_blind",
        "levels[0].big_blind must be from 1 to 1000000000000, not 1000000000001",
    ),
    (
        schedule(level(10, 20), level(30, 20)),
        "levels[1].small_blind",
        "levels[1].small_blind: the small blind 30 is above the big blind 20",
    ),
    (
        schedule(level(10, 20, ante=-1)),
        "levels[0].ante",
        "levels[0].ante must be from 0 to 199, not -1",
    ),
    (
        schedule(level(10, 20, ante=200)),
        "levels[0].ante",
        "levels[0].ante must be from 0 to 199, not 200",
    ),
    (
        schedule(level(10, 20), level(10, 20, length=0)),
        "levels[1].length",
        "levels[1].length must be from 1 to 1000, not 0",
    ),
    (
        schedule(level(10, 20, length=None)),
        "levels[0].length",
        "levels[0].length must be a whole number, not None",
    ),
    (
        schedule(level(10, 20, break_minutes=-5), level(20, 40)),
        "levels[0].break_minutes",
        "levels[0].break_minutes must be from 0 to 1440, not -5",
    ),
    (
        schedule(level(10, 20), level(25, 50), level(20, 40)),
        "levels[2].small_blind",
        "levels[2].small_blind: blinds never go down; 20 is below 25 at the level before",
    ),
    (
        schedule(level(10, 20), level(10, 30), level(10, 25)),
        "levels[2].big_blind",
        "levels[2].big_blind: blinds never go down; 25 is below 30 at the level before",
    ),
    (
        schedule(level(1, 2, break_minutes=5), level(2, 4), clock="hands"),
        "levels[0].break_minutes",
        "levels[0].break_minutes: breaks are only on the minutes clock",
    ),
    (
        schedule(level(1, 2, break_minutes=5), level(2, 4, break_minutes=5)),
        "levels[1].break_minutes",
        "levels[1].break_minutes: the last level has no break after it",
    ),
]


@pytest.mark.parametrize(("value", "field", "said"), BAD_JSON)
def test_bad_json_is_refused_naming_the_field(value: object, field: str, said: str) -> None:
    with pytest.raises(TournamentError) as refused:
        Schedule.from_json(value)
    assert refused.value.fields["field"] == field
    assert said in str(refused.value)
    assert str(refused.value).startswith(field)
    assert "{" in refused.value.template  # a sentence with fields, for the catalogues


def test_a_level_made_in_code_is_checked_too_naming_its_own_field() -> None:
    with pytest.raises(TournamentError, match=r"^small_blind: the small blind 3 is above"):
        Level(3, 2)
    with pytest.raises(TournamentError, match=r"^ante must be from 0 to 19, not 20$"):
        Level(1, 2, ante=20)
    assert Level(1, 2, ante=19).ante == 19  # below ten big blinds
    with pytest.raises(TournamentError, match=r"^levels must be a list of 1 to 100 levels"):
        Schedule(MINUTES, ())
    with pytest.raises(TournamentError, match=r"^levels\[1\]\.big_blind: blinds never go"):
        Schedule(HANDS, (Level(1, 3), Level(1, 2)))


# --- where play is -----------------------------------------------------------------------

# Level 0: 10 minutes then a 5-minute break; level 1: 20 minutes; level 2: 1 minute then a
# 2-minute break; level 3: the last.
WITH_BREAKS = Schedule(
    MINUTES,
    (
        Level(10, 20, length=10, break_minutes=5),
        Level(15, 30, length=20),
        Level(25, 50, length=1, break_minutes=2),
        Level(40, 80, 8, length=30),
    ),
)


@pytest.mark.parametrize(
    ("elapsed", "expected"),
    [
        (0, Position(0, False, 600)),
        (1, Position(0, False, 599)),
        (599, Position(0, False, 1)),
        (599.25, Position(0, False, 0.75)),
        (600, Position(1, True, 300)),  # the break: the level after it is the one shown
        (750, Position(1, True, 150)),
        (899, Position(1, True, 1)),
        (900, Position(1, False, 1200)),
        (2099, Position(1, False, 1)),
        (2100, Position(2, False, 60)),  # no break after level 1: straight on
        (2159, Position(2, False, 1)),
        (2160, Position(3, True, 120)),
        (2279.5, Position(3, True, 0.5)),
        (2280, Position(3, False, 1800)),  # the last stated level, 30 minutes
        (2280 + 30 * 60, Position(4, False, 1800)),  # overtime: 80/160, 30 minutes
        (2280 + 33 * 30 * 60 - 1, Position(35, False, 1)),
        (2280 + 33 * 30 * 60, Position(36, False, None)),  # 80 * 2**33 > 10**12 / 2: the end
        (10**9, Position(36, False, None)),
        (math.inf, Position(36, False, None)),
    ],
)
def test_position_on_the_minutes_clock_counts_breaks_in_the_seconds(
    elapsed: float, expected: Position
) -> None:
    assert WITH_BREAKS.position(elapsed) == expected
    at = WITH_BREAKS.next_change_at(elapsed)
    assert at == (None if expected.remaining is None else elapsed + expected.remaining)


def test_an_integer_elapsed_gives_integer_seconds_remaining() -> None:
    remaining = WITH_BREAKS.position(700).remaining
    assert remaining == 200 and isinstance(remaining, int)


HANDS_LADDER = Schedule(HANDS, (Level(1, 2, length=5), Level(2, 4, length=3), Level(3, 6)))


@pytest.mark.parametrize(
    ("dealt", "expected", "change"),
    [
        (0, Position(0, False, 5), 5),
        (4, Position(0, False, 1), 5),  # one more hand at these blinds
        (5, Position(1, False, 3), 8),  # the sixth hand plays the second level
        (7, Position(1, False, 1), 8),
        (8, Position(2, False, 10), 18),  # the last stated level: 10 hands (the default)
        (9, Position(2, False, 9), 18),
        (18, Position(3, False, 10), 28),  # overtime: 6/12
        (10**6, Position(39, False, None), None),  # 6 * 2**37 > 10**12 / 2: no more
    ],
)
def test_position_on_the_hands_clock_counts_hands_dealt(
    dealt: int, expected: Position, change: int | None
) -> None:
    assert HANDS_LADDER.position(dealt) == expected
    assert HANDS_LADDER.next_change_at(dealt) == change


def test_past_the_last_level_the_blinds_and_ante_double_each_level_up_to_the_largest() -> None:
    """docs/rules.md (Tournaments, overtime): a tournament ends even when every player
    left is absent: past the stated levels the blinds keep rising."""
    for clock in LevelClock:
        only = Schedule(clock, (Level(50, 100, 10, length=1),))
        assert only.position(0) == Position(0, False, 60 if clock is MINUTES else 1)
        assert only.level(0) == Level(50, 100, 10, length=1)
        assert only.level(1) == Level(100, 200, 20, length=1)
        assert only.level(3) == Level(400, 800, 80, length=1)
        assert only.level(33).big_blind == 100 * 2**33 <= MAX_CHIPS < 100 * 2**34
        assert only.level(34) == only.level(99) == only.level(33)  # never past MAX_CHIPS
        assert only.position(10**9) == Position(33, False, None)
        assert only.next_change_at(10**9) is None
    ante_above = Schedule(HANDS, (Level(1, 2, 15),))  # an ante of 15: it reaches the cap first
    assert ante_above.level(10**3).ante <= MAX_CHIPS < 2 * ante_above.level(10**3).ante


@pytest.mark.parametrize("elapsed", [-1, -0.5, math.nan, -math.inf, "10", True, None])
def test_an_impossible_elapsed_is_refused(elapsed: Any) -> None:
    with pytest.raises(TournamentError):
        WITH_BREAKS.position(elapsed)


def test_the_hands_clock_refuses_a_fraction_of_a_hand() -> None:
    with pytest.raises(TournamentError, match="whole"):
        HANDS_LADDER.position(2.5)


@given(
    lengths=st.lists(st.tuples(st.integers(1, 20), st.integers(0, 10)), min_size=1, max_size=8),
    elapsed=st.integers(0, 20 * 8 * 60 * 2),
)
@settings(max_examples=200)
def test_position_holds_until_the_change_it_announces_then_moves_on(
    lengths: list[tuple[int, int]], elapsed: int
) -> None:
    last = len(lengths) - 1
    levels = tuple(
        Level(1 + index, 2 + index, length=length, break_minutes=0 if index == last else pause)
        for index, (length, pause) in enumerate(lengths)
    )
    ladder = Schedule(MINUTES, levels)
    here = ladder.position(elapsed)
    assert here.level >= 0
    if here.remaining is None:
        assert ladder.level(here.level + 1) == ladder.level(here.level) and not here.on_break
        assert ladder.position(elapsed + 10**6) == here
        return
    assert here.remaining > 0
    change = elapsed + here.remaining
    before = ladder.position(change - 1)
    assert (before.level, before.on_break) == (here.level, here.on_break)
    after = ladder.position(change)
    assert (after.level, after.on_break) != (here.level, here.on_break)
    if here.on_break:  # a break ends into the level it announced
        assert (after.level, after.on_break) == (here.level, False)
    else:  # a level ends into a break before the next level, or into the next level
        assert after.level == here.level + 1
        assert after.on_break == (ladder.level(here.level).break_minutes > 0)


def test_the_sum_of_lengths_and_breaks_is_when_the_last_level_starts() -> None:
    total = sum(lv.length * 60 + lv.break_minutes * 60 for lv in WITH_BREAKS.levels[:-1])
    assert WITH_BREAKS.position(total - 1).remaining == 1
    assert WITH_BREAKS.position(total) == Position(3, False, 30 * 60)


# --- the standard ladder -----------------------------------------------------------------


def is_round(chips: int) -> bool:
    """1, 1.5, 2, 2.5, 3, 4, 5, 6 or 8 times a power of ten."""
    power = 10 ** (len(str(chips)) - 1)
    return chips * 10 // power in (10, 15, 20, 25, 30, 40, 50, 60, 80) and (chips * 10 % power == 0)


def test_the_default_ladder_is_the_usual_one() -> None:
    ladder = Schedule.standard(MINUTES, 12)
    assert ladder.clock is MINUTES
    assert [(lv.small_blind, lv.big_blind) for lv in ladder.levels] == [
        (10, 20),
        (15, 30),
        (25, 50),
        (40, 80),
        (60, 120),
        (100, 200),
        (150, 300),
        (250, 500),
        (400, 800),
        (600, 1200),
        (1000, 2000),
        (1500, 3000),
        (2500, 5000),
        (4000, 8000),
        (6000, 12000),
    ]
    assert {(lv.ante, lv.length, lv.break_minutes) for lv in ladder.levels} == {(0, 12, 0)}


@pytest.mark.parametrize("big_blind", [2, 3, 4, 7, 10, 20, 25, 50, 99, 100, 150, 1000, 12345])
def test_the_ladder_rises_about_half_again_a_level_through_round_numbers(big_blind: int) -> None:
    ladder = Schedule.standard(HANDS, 6, big_blind=big_blind, levels=30)
    levels = ladder.levels
    assert len(levels) == 30 and ladder.clock is HANDS
    assert (levels[0].small_blind, levels[0].big_blind) == (big_blind // 2, big_blind)
    for before, after in pairwise(levels):
        assert after.small_blind > before.small_blind and after.big_blind > before.big_blind
        assert 1.15 <= after.big_blind / before.big_blind <= 2
    for index, lv in enumerate(levels[1:], start=1):
        assert is_round(lv.small_blind), (index, lv)
        assert lv.big_blind == 2 * lv.small_blind
        assert lv.length == 6 and lv.ante == 0
    for before, after in pairwise(levels[5:]):  # on the ladder's steps by the sixth level
        assert 1.5 <= after.big_blind / before.big_blind <= 5 / 3


@pytest.mark.parametrize(("ante_from", "first"), [(0, None), (1, 0), (4, 3), (15, 14)])
def test_antes_start_at_the_level_asked_counted_from_one(ante_from: int, first: int | None) -> None:
    ladder = Schedule.standard(MINUTES, 10, ante_from=ante_from)
    antes = [lv.ante for lv in ladder.levels]
    if first is None:
        assert antes == [0] * 15
        return
    assert antes[:first] == [0] * first
    assert all(ante > 0 for ante in antes[first:])
    assert antes[first:] == [max(1, lv.big_blind // 10) for lv in ladder.levels[first:]]


def test_a_small_ladder_still_has_an_ante_of_a_chip_at_least() -> None:
    ladder = Schedule.standard(HANDS, 10, big_blind=2, levels=3, ante_from=1)
    assert [(lv.small_blind, lv.big_blind, lv.ante) for lv in ladder.levels] == [
        (1, 2, 1),
        (2, 4, 1),
        (3, 6, 1),
    ]


def test_the_standard_ladder_goes_through_json_and_positions_by_its_length() -> None:
    ladder = Schedule.standard(MINUTES, 15, big_blind=100, levels=10, ante_from=3)
    assert Schedule.from_json(ladder.to_json()) == ladder
    assert ladder.position(15 * 60 * 4 + 30) == Position(4, False, 15 * 60 - 30)
    by_hands = Schedule.standard(HANDS, 7)
    assert by_hands.position(7 * 14) == Position(14, False, 7)
    assert by_hands.position(7 * 14 - 1) == Position(13, False, 1)


@pytest.mark.parametrize(
    ("arguments", "said"),
    [
        ({"length": 0}, "length must be from 1 to 1000, not 0"),
        ({"length": 10.5}, "length must be a whole number, not 10.5"),
        ({"big_blind": 1}, "big_blind must be from 2 to 1000000000000, not 1"),
        ({"levels": 0}, "levels must be from 1 to 100, not 0"),
        ({"levels": 101}, "levels must be from 1 to 100, not 101"),
        ({"levels": 5, "ante_from": 6}, "ante_from must be from 0 to 5, not 6"),
        ({"ante_from": -1}, "ante_from must be from 0 to 15, not -1"),
        ({"levels": 100}, "levels: the blinds would pass 1000000000000 at level 55"),
    ],
)
def test_a_standard_ladder_out_of_bounds_is_refused(arguments: dict[str, Any], said: str) -> None:
    values: dict[str, Any] = {"length": 10} | arguments
    with pytest.raises(TournamentError) as refused:
        Schedule.standard(MINUTES, **values)
    assert str(refused.value) == said


def test_the_standard_ladder_is_named_in_json_by_its_arguments() -> None:
    """docs/protocol.md: ``"standard"`` instead of ``levels`` makes the room's ladder (the
    page's form sends it: one ladder, made in one place)."""
    named = {"length": 3, "big_blind": 50, "levels": 6, "ante_from": 4}
    made = Schedule.from_json({"clock": "hands", "standard": named})
    assert made == Schedule.standard(HANDS, 3, big_blind=50, levels=6, ante_from=4)
    assert Schedule.from_json({"clock": "minutes", "standard": {"length": 5}}) == (
        Schedule.standard(MINUTES, 5)
    )


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ({"clock": "hands"}, "schedule: give levels or standard"),
        (
            {"clock": "hands", "standard": {"length": 2}, "levels": []},
            "schedule: give levels or standard, not both",
        ),
        ({"clock": "hands", "standard": {}}, "standard.length is missing"),
        ({"clock": "hands", "standard": {"length": 0}}, "standard.length must be from 1"),
        (
            {"clock": "hands", "standard": {"length": 2, "levels": 3, "ante_from": 4}},
            "standard.ante_from must be from 0 to 3, not 4",
        ),
        ({"clock": "hands", "standard": {"length": 2, "blinds": 3}}, "unknown field 'blinds'"),
        ({"clock": "hands", "standard": [2]}, "standard must be a JSON object"),
    ],
)
def test_a_bad_standard_ladder_is_refused_naming_its_field(body: Any, said: str) -> None:
    with pytest.raises(TournamentError, match=re.escape(said)):
        Schedule.from_json(body)
