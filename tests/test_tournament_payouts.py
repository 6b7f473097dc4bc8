"""The payout table (RULES.md 8, Prizes): the examples of the rules, prizes in whole chips
summing to the pool, and tables read from JSON with errors naming the field."""

import math
from fractions import Fraction
from itertools import pairwise

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from splitpot.tournament.errors import TournamentError
from splitpot.tournament.payouts import PayoutRow, PayoutTable, split

STANDARD = PayoutTable.standard()


def test_heads_up_pays_the_winner_everything() -> None:
    """RULES.md 8: heads-up 100%."""
    assert STANDARD.percents_for(2) == (100,)
    assert STANDARD.prizes(3001, 2) == (3001,)


@pytest.mark.parametrize("entrants", [3, 4, 5, 6])
def test_a_six_seat_sit_and_go_pays_65_35(entrants: int) -> None:
    """RULES.md 8: a six-seat sit-and-go 65/35 (and so down to three entrants)."""
    assert STANDARD.percents_for(entrants) == (65, 35)
    assert STANDARD.prizes(600, entrants) == (390, 210)
    assert STANDARD.prizes(601, entrants) == (391, 210)  # 390.65 and 210.35: the chip to 1st


@pytest.mark.parametrize("entrants", [7, 8, 9, 10])
def test_nine_seats_pay_50_30_20(entrants: int) -> None:
    """RULES.md 8: nine seats 50/30/20 (seven to ten entrants)."""
    assert STANDARD.percents_for(entrants) == (50, 30, 20)
    assert STANDARD.prizes(900, entrants) == (450, 270, 180)
    assert STANDARD.prizes(11, entrants) == (6, 3, 2)  # 5.5, 3.3, 2.2: one odd chip, to 1st


@pytest.mark.parametrize(
    ("entrants", "paid"),
    [(11, 3), (20, 3), (21, 4), (40, 6), (100, 15), (101, 16), (1000, 150), (9999, 1500)],
)
def test_a_multi_table_event_pays_about_the_top_15_percent(entrants: int, paid: int) -> None:
    """RULES.md 8: a multi-table event pays about the top 15% (rounded up; never fewer
    places than the three of ten entrants), on a curve that never rises, summing to 100."""
    percents = STANDARD.percents_for(entrants)
    assert len(percents) == paid == STANDARD.places_paid(entrants)
    assert sum(percents) == 100
    assert all(percent > 0 for percent in percents)
    assert list(percents) == sorted(percents, reverse=True)
    assert percents[0] > percents[1]  # a winner, not a tie for first
    if paid <= 100:  # counted in 1/10000 of the pool: two decimals of a percent
        assert all((percent * 100).denominator == 1 for percent in percents)


def test_the_curve_of_a_hundred_entrants_reads_like_a_payout_table() -> None:
    """100 entrants: 15 paid, 1st about a quarter of the pool, each paid place at least
    1.5 buy-ins (a buy-in is 1% of this pool), each place more than the one below it."""
    percents = STANDARD.percents_for(100)
    assert 20 < percents[0] < 30
    assert percents[-1] >= Fraction(3, 2)
    assert all(better > worse for better, worse in pairwise(percents))


@given(st.integers(11, 20_000))
def test_every_paid_place_of_the_curve_wins_more_than_a_buy_in(entrants: int) -> None:
    percents = STANDARD.percents_for(entrants)
    assert len(percents) == max(3, math.ceil(entrants * 15 / 100))
    assert sum(percents) == 100
    assert percents[-1] * entrants / 100 > 1  # the last paid place's prize, in buy-ins
    assert list(percents) == sorted(percents, reverse=True)


def test_winner_takes_all_pays_one_place_whatever_the_entrants() -> None:
    table = PayoutTable.winner_takes_all()
    for entrants in (2, 9, 1000):
        assert table.percents_for(entrants) == (100,)
        assert table.prizes(12345, entrants) == (12345,)


def test_a_tournament_of_fewer_than_two_is_refused() -> None:
    with pytest.raises(TournamentError, match="at least 2 entrants, not 1"):
        STANDARD.percents_for(1)
    with pytest.raises(TournamentError, match="pool: -5 chips is below 0"):
        STANDARD.prizes(-5, 9)


@given(pool=st.integers(0, 10**15), entrants=st.integers(2, 5000))
def test_standard_prizes_sum_exactly_to_the_pool(pool: int, entrants: int) -> None:
    """Whole chips: each place its percent rounded down, the odd chips one each from the
    top; they sum to the pool and never rise."""
    prizes = STANDARD.prizes(pool, entrants)
    percents = STANDARD.percents_for(entrants)
    assert sum(prizes) == pool
    assert len(prizes) == len(percents)
    assert list(prizes) == sorted(prizes, reverse=True)
    extra = [prize - math.floor(pool * p / 100) for prize, p in zip(prizes, percents, strict=True)]
    assert set(extra) <= {0, 1}
    assert extra == sorted(extra, reverse=True)  # the odd chips went to the top places


@st.composite
def percents(draw: st.DrawFn, places: int = 40) -> tuple[Fraction, ...]:
    """Percents that never rise and sum to exactly 100 (fractions of any denominator)."""
    drawn = draw(st.lists(st.integers(1, 10**6), min_size=1, max_size=places))
    weights = sorted(drawn, reverse=True)
    total = sum(weights)
    return tuple(Fraction(100 * weight, total) for weight in weights)


@given(percents(), st.integers(0, 10**13))
@example((Fraction(40), Fraction(30), Fraction(30)), 5)  # 2 exactly, and the odd chip: 3
def test_any_table_splits_any_pool_into_whole_chips(
    shares: tuple[Fraction, ...], pool: int
) -> None:
    places = len(shares)
    rows = [PayoutRow(places - 1, (Fraction(100),))] if places > 2 else []
    table = PayoutTable((*rows, PayoutRow(None, shares)))
    prizes = table.prizes(pool, max(2, places))
    assert sum(prizes) == pool
    for prize, percent in zip(prizes, shares, strict=True):
        exact = pool * percent / 100  # rounded down, then perhaps an odd chip on top
        assert exact - 1 < prize <= exact + 1
    assert split(pool, shares) == prizes


@given(st.integers(1, 5), st.data())
def test_tables_read_back_from_their_json(count: int, data: st.DataObject) -> None:
    """A table's JSON (percents as numbers, 33.5, or text, "100/3") reads back equal."""
    least = 2  # the fewest entrants of the row: it pays no more places
    rows = []
    for index in range(count):
        shares = data.draw(percents(min(least, 40)))
        last = index == count - 1
        most = None if last else data.draw(st.integers(least, least + 50))
        rows.append(PayoutRow(most, shares))
        least = (most or 0) + 1
    table = PayoutTable(tuple(rows))
    assert PayoutTable.from_json(table.to_json()) == table


def test_the_named_tables_read_and_write_by_name() -> None:
    assert PayoutTable.from_json("standard") == STANDARD
    assert STANDARD.to_json() == "standard"
    assert PayoutTable.from_json("winner-takes-all") == PayoutTable.winner_takes_all()
    assert PayoutTable.winner_takes_all().to_json() == "winner-takes-all"


def test_a_table_of_rows_from_json() -> None:
    table = PayoutTable.from_json(
        [
            {"entrants": 6, "percents": [65, 35]},
            {"entrants": 20, "percents": [50, 30.5, "19.5"]},
            {"entrants": None, "percents": ["100/3", "100/3", "100/3"]},
        ]
    )
    assert table.percents_for(2) == table.percents_for(6) == (65, 35)
    assert table.percents_for(7) == (50, Fraction(61, 2), Fraction(39, 2))
    assert table.percents_for(21) == (Fraction(100, 3),) * 3
    assert table.prizes(100, 21) == (34, 33, 33)
    assert table.to_json() == [
        {"entrants": 6, "percents": [65, 35]},
        {"entrants": 20, "percents": [50, 30.5, 19.5]},
        {"entrants": None, "percents": ["100/3", "100/3", "100/3"]},
    ]


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ("top-heavy", 'payouts must be "standard", "winner-takes-all" or a list'),
        ({"entrants": None}, "payouts must be"),
        ([], "payouts: a table has at least one row"),
        ([7], r"payouts\[0\] must be an object with entrants and percents, not 7"),
        (
            [{"entrants": None, "percents": [100], "rake": 5}],
            r"payouts\[0\]: unknown field 'rake'",
        ),
        ([{"percents": [100]}], r"payouts\[0\]\.entrants is missing"),
        ([{"entrants": None}], r"payouts\[0\]\.percents is missing"),
        (
            [{"entrants": 6, "percents": [100]}, {"entrants": "many", "percents": [100]}],
            r"payouts\[1\]\.entrants must be a whole number or null, not 'many'",
        ),
        (
            [{"entrants": True, "percents": [100]}],
            r"payouts\[0\]\.entrants must be a whole number or null, not True",
        ),
        (
            [{"entrants": 1, "percents": [100]}, {"entrants": None, "percents": [100]}],
            r"payouts\[0\]\.entrants: a tournament has at least 2 entrants, not 1",
        ),
        (
            [{"entrants": 6, "percents": [65, 35]}, {"entrants": None, "percents": [50, 30, 19.5]}],
            r"payouts\[1\]\.percents: they add up to 99\.5, not 100",
        ),
        (
            [{"entrants": None, "percents": [60, 30, "1/3"]}],
            r"payouts\[0\]\.percents: they add up to 271/3, not 100",
        ),
        (
            [{"entrants": None, "percents": 100}],
            r"payouts\[0\]\.percents must be a list of numbers, not 100",
        ),
        (
            [{"entrants": None, "percents": []}],
            r"payouts\[0\]\.percents: a row pays at least one place",
        ),
        (
            [{"entrants": None, "percents": [100, "lots"]}],
            r"payouts\[0\]\.percents\[1\] must be a number .* not 'lots'",
        ),
        (
            [{"entrants": None, "percents": [100, None]}],
            r"payouts\[0\]\.percents\[1\] must be a number .* not None",
        ),
        (
            [{"entrants": None, "percents": [100, float("nan")]}],
            r"payouts\[0\]\.percents\[1\] must be a number",
        ),
        (
            [{"entrants": None, "percents": [110, -10]}],
            r"payouts\[0\]\.percents\[1\]: -10 is not above 0",
        ),
        (
            [{"entrants": None, "percents": [30, 70]}],
            r"payouts\[0\]\.percents\[1\]: 70 is more than the place before it \(30\)",
        ),
        (
            [{"entrants": 6, "percents": [100]}, {"entrants": 6, "percents": [65, 35]}],
            r"payouts\[1\]\.entrants: 6 is not above the row before's 6",
        ),
        (
            [{"entrants": None, "percents": [100]}, {"entrants": None, "percents": [65, 35]}],
            r"payouts\[0\]\.entrants: only the last row may be null",
        ),
        (
            [{"entrants": 6, "percents": [100]}, {"entrants": 9, "percents": [65, 35]}],
            r"payouts\[1\]\.entrants: the last row must be null \(any number above",
        ),
        (
            [{"entrants": None, "percents": [50, 30, 20]}],
            r"payouts\[0\]\.percents: 3 places paid, but the row starts at 2 entrants",
        ),
        (
            [{"entrants": 6, "percents": [65, 35]}, {"entrants": None, "percents": [10] * 10}],
            r"payouts\[1\]\.percents: 10 places paid, but the row starts at 7 entrants",
        ),
        (
            [{"entrants": None, "percents": [100]}] * 101,
            "payouts: a table has at most 100 rows, not 101",
        ),
    ],
)
def test_bad_json_is_refused_naming_the_field(value: object, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        PayoutTable.from_json(value)


def test_rows_made_in_code_are_checked_too() -> None:
    with pytest.raises(TournamentError, match="percents: they add up to 90, not 100"):
        PayoutRow(None, (Fraction(60), Fraction(30)))
    with pytest.raises(TournamentError, match="percents: 3 places paid, more than the row's 2"):
        PayoutRow(2, (Fraction(50), Fraction(30), Fraction(20)))
    with pytest.raises(TournamentError, match=r"payouts\[0\]\.entrants: the last row must be null"):
        PayoutTable((PayoutRow(6, (Fraction(100),)),))
