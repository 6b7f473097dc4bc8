"""The configuration values (RULES.md 2 and 3)."""

from fractions import Fraction

import pytest

from splitpot.rules import (
    FixedLimit,
    GameConfig,
    Mixed,
    NoLimit,
    PotLimit,
    Rake,
    Structure,
    Variant,
)


def test_limit_blinds_are_half_the_small_bet_and_the_small_bet() -> None:
    """RULES.md 4.1: in limit the small blind is half the small bet (2/4: 1 and 2)."""
    betting = FixedLimit(2, 4)
    assert (betting.small_blind, betting.big_blind, betting.cap, betting.cap_heads_up) == (
        1,
        2,
        4,
        True,
    )
    assert FixedLimit(10, 20).small_blind == 5
    assert betting.structure is Structure.FIXED_LIMIT and betting.stakes == "2/4"


def test_pot_and_no_limit_smallest_bet_is_the_big_blind() -> None:
    assert PotLimit(1, 2).min_bet == 2 and NoLimit(5, 10).min_bet == 10


def test_mixed_alternates_limit_and_pot_limit_with_both_sets_of_blinds() -> None:
    mixed = Mixed(FixedLimit(4, 8), PotLimit(1, 2))
    assert [mixed.betting_for(r).structure for r in range(4)] == [
        Structure.FIXED_LIMIT, Structure.POT_LIMIT, Structure.FIXED_LIMIT, Structure.POT_LIMIT,
    ]  # fmt: skip
    assert mixed.betting_for(0).big_blind == 4 and mixed.betting_for(1).big_blind == 2


def test_rake_is_a_percentage_of_each_pot_rounded_down_up_to_the_cap() -> None:
    rake = Rake(Fraction(5), cap=3)
    assert rake.cuts([30]) == [1]
    assert rake.cuts([100, 20]) == [3, 0]
    assert Rake(5).cuts([100, 21]) == [5, 1]


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: FixedLimit(0, 4), "small_bet must be a whole number of chips, at least 1, not 0"),
        (lambda: PotLimit(1, -2), "big_blind must be a whole number of chips, at least 1, not -2"),
        (lambda: FixedLimit(2, 4, cap=0), "cap must be a whole number of bets, at least 1, not 0"),
        (lambda: Rake(Fraction(101)), "rake percent must be between 0 and 100"),
        (
            lambda: GameConfig(Variant.O8, NoLimit(1, 2), ante=-1),
            "ante must be a whole number of chips, at least 0, not -1",
        ),
    ],
)
def test_bad_configuration_is_rejected_with_the_reason(make: object, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        make()  # type: ignore[operator]
