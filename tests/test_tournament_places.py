"""Places of the players out in one hand and their prizes (RULES.md 8, Elimination and
places): the bigger stack at the start of the hand the better place; equal stacks share
places and prizes evenly, the odd chips by ascending player id; beyond the money, 0."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splitpot.tournament.errors import TournamentError
from splitpot.tournament.payouts import PayoutTable
from splitpot.tournament.places import Finish, finishes, places_in_hand, shares


def test_the_bigger_stack_at_the_start_of_the_hand_finishes_higher() -> None:
    """The spec's example: five left, A (200) and B (100) out in one hand: A 4th, B 5th."""
    a, b = 11, 12
    assert places_in_hand({a: 200, b: 100}, 5) == {a: (4, 4), b: (5, 5)}
    assert places_in_hand({b: 100, a: 200}, 5) == {a: (4, 4), b: (5, 5)}  # in any order
    assert places_in_hand({a: 50}, 9) == {a: (9, 9)}
    assert places_in_hand({}, 9) == {}


def test_three_out_at_once_take_the_last_three_places_by_stack() -> None:
    assert places_in_hand({1: 10, 2: 3000, 3: 700}, 8) == {2: (6, 6), 3: (7, 7), 1: (8, 8)}


def test_equal_stacks_share_their_places() -> None:
    """Six left; A (300) out with B and C (100 each): A 4th, B and C share 5th and 6th."""
    assert places_in_hand({1: 300, 7: 100, 3: 100}, 6) == {1: (4, 4), 7: (5, 6), 3: (5, 6)}
    assert places_in_hand({4: 80, 5: 80, 6: 80}, 4) == {4: (2, 4), 5: (2, 4), 6: (2, 4)}


def test_sharing_places_shares_their_prizes_evenly_the_odd_chips_by_ascending_id() -> None:
    """B (id 7) and C (id 3) share 5th and 6th, and 5th is the last place paid: they split
    its 9 chips, the odd chip to C, the lower id; A wins 4th's 11 alone."""
    prizes = (40, 25, 15, 11, 9)
    won = shares(prizes, {1: (4, 4), 7: (5, 6), 3: (5, 6)})
    assert won == {1: 11, 3: 5, 7: 4}
    three = shares((600, 250, 100, 50), {9: (2, 4), 2: (2, 4), 5: (2, 4)})  # 400 by three
    assert three == {2: 134, 5: 133, 9: 133}
    assert shares((600, 250, 100, 50), {8: (3, 4), 6: (3, 4)}) == {6: 75, 8: 75}


def test_places_beyond_the_money_win_nothing_but_are_kept() -> None:
    prizes = (500, 300, 200)
    assert shares(prizes, places_in_hand({1: 40, 2: 30}, 10)) == {1: 0, 2: 0}
    assert shares(prizes, places_in_hand({3: 90, 4: 90}, 4)) == {3: 100, 4: 100}  # 3rd, 4th
    assert shares((), {5: (2, 2)}) == {5: 0}


def test_finishes_of_a_hand_best_place_first() -> None:
    prizes = PayoutTable.standard().prizes(900, 9)  # 450, 270, 180
    assert prizes == (450, 270, 180)
    assert finishes({1: 300, 7: 100, 3: 100}, 4, prizes) == [
        Finish(1, 2, 1, 270),
        Finish(3, 3, 2, 90),
        Finish(7, 3, 2, 90),
    ]
    assert finishes({5: 20}, 9, prizes) == [Finish(5, 9, 1, 0)]


@pytest.mark.parametrize(
    ("busted", "left", "message"),
    [
        ({1: 10, 2: 20}, 2, "2 players out of 2 in one hand: one at least stays in"),
        ({1: 10}, 1, "1 players out of 1"),
        ({1: 10, 2: 0}, 5, "player 2: 0 chips at the start of the hand"),
        ({1: -3}, 5, "player 1: -3 chips"),
    ],
)
def test_impossible_hands_are_refused(busted: dict[int, int], left: int, message: str) -> None:
    with pytest.raises(TournamentError, match=message):
        places_in_hand(busted, left)


@pytest.mark.parametrize(
    ("prizes", "places", "message"),
    [
        ((10,), {1: (2, 3)}, "places 2 to 3 shared by 1 players"),
        ((10,), {1: (3, 2)}, "places 3 to 2 shared by 1 players"),
        ((10,), {1: (0, 0)}, "places 0 to 0 shared by 1 players"),
        ((10,), {1: (2, 3), 2: (2, 3), 3: (3, 3)}, "some are another player's"),
        ((10, -1), {1: (2, 2)}, "prize of place 2: -1 is not a whole number of chips"),
    ],
)
def test_inconsistent_places_or_prizes_are_refused(
    prizes: tuple[int, ...], places: dict[int, tuple[int, int]], message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        shares(prizes, places)


@given(
    st.dictionaries(st.integers(1, 10**6), st.integers(1, 8), min_size=1, max_size=30),
    st.integers(0, 40),
    st.lists(st.integers(0, 10**9), max_size=50),
)
def test_a_hands_places_and_prizes_add_up(
    busted: dict[int, int], above: int, paid: list[int]
) -> None:
    """Whoever is out and however many remain: the busted take exactly the last places,
    a bigger stack never a worse place, equal stacks the same places; the prizes they win
    add up to those places' prizes, and sharers' prizes differ by a chip at most, the
    extra chips to the lowest ids."""
    left = len(busted) + 1 + above
    prizes = sorted(paid, reverse=True)
    places = places_in_hand(busted, left)
    assert set(places) == set(busted)
    covered = sorted(
        place for best, worst in set(places.values()) for place in range(best, worst + 1)
    )
    assert covered == list(range(left - len(busted) + 1, left + 1))
    for one in busted:
        for other in busted:
            if busted[one] > busted[other]:
                assert places[one][1] < places[other][0]
            if busted[one] == busted[other]:
                assert places[one] == places[other]
    won = shares(prizes, places)
    assert set(won) == set(busted)
    assert sum(won.values()) == sum(prizes[left - len(busted) : left])
    for best, worst in set(places.values()):
        group = sorted(player for player in busted if places[player] == (best, worst))
        amounts = [won[player] for player in group]
        assert amounts == sorted(amounts, reverse=True)
        assert amounts[0] - amounts[-1] <= 1
        assert sum(amounts) == sum(prizes[best - 1 : worst])
    made = finishes(busted, left, prizes)
    assert made == sorted(made, key=lambda f: (f.place, f.player))
    assert {f.player: (f.place, f.place + f.shared - 1, f.prize) for f in made} == {
        player: (*places[player], won[player]) for player in busted
    }
