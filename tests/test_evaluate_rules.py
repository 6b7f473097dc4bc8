"""The rule book's hands (RULES.md 1 and 2): best high, best low, shares of a pot."""

from fractions import Fraction

import pytest

from splitpot.cards import CardError, DuplicateCardError, format_cards, parse_cards
from splitpot.evaluate import (
    HandCategory,
    LowHand,
    best_high,
    best_low,
    low_strength,
    showdown,
)


def test_seed_hand_ace_high_flush_and_the_wheel() -> None:
    """RULES.md 1, the seed hand: two hole cards and three board cards for each half."""
    high = best_high("Ad Kd 3s 2s", "Jd 4d 3c Qd 5h")
    assert high.category is HandCategory.FLUSH
    assert high.name == "a flush, Ace high"
    assert format_cards(high.hole_cards) == "AdKd"
    assert sorted(high.board_cards) == sorted(parse_cards("Jd Qd 4d"))
    low = best_low("Ad Kd 3s 2s", "Jd 4d 3c Qd 5h")
    assert low is not None
    assert low.name == "5,4,3,2,A"
    assert low.nickname == "the wheel"
    assert set(low.hole_cards) == set(parse_cards("Ad 2s"))
    assert set(low.board_cards) == set(parse_cards("5h 4d 3c"))


def test_a_royal_flush_against_a_wheel_splits_the_pot() -> None:
    result = showdown("o8", ["Js Ts 9h 9d", "2h 5h 8c 8d"], "As Ks Qs 4d 3c")
    royal, wheel = result.players
    assert royal.high.name == "a royal flush"
    assert royal.low is None
    assert wheel.low is not None and wheel.low.nickname == "the wheel"
    assert wheel.high.name == "a straight, Ace to Five"
    assert result.high_winners == (0,)
    assert result.low_winners == (1,)
    assert [p.share for p in result.players] == [Fraction(1, 2), Fraction(1, 2)]


TEN_LOWS_WEAKEST_FIRST = [
    "8-7-6-5-4", "8-7-6-5-3", "8-6-4-2-A", "8-4-3-2-A", "7-6-5-4-2",
    "7-6-5-2-A", "7-5-4-3-2", "6-5-4-3-2", "6-4-3-2-A", "5-4-3-2-A",
]  # fmt: skip


def _rank_indices(low: str) -> list[int]:
    return [12 if token == "A" else int(token) - 2 for token in low.split("-")]


def test_the_ten_lows_of_the_rule_book_rank_in_order() -> None:
    """RULES.md 1: lows compare from the highest card down; the lower card wins."""
    strengths = [low_strength(_rank_indices(low)) for low in TEN_LOWS_WEAKEST_FIRST]
    assert strengths == sorted(strengths)
    assert len(set(strengths)) == 10
    # and the same order when the evaluator finds them in real hands
    found = []
    for low in TEN_LOWS_WEAKEST_FIRST:
        ranks = ["A" if t == "A" else t for t in low.split("-")]
        suits = "cdhcd"
        hole = f"{ranks[0]}{suits[0]} {ranks[1]}{suits[1]} Ks Qs"
        board = " ".join(f"{r}{s}" for r, s in zip(ranks[2:], suits[2:], strict=True)) + " Kh Jh"
        hand = best_low(hole, board)
        assert hand is not None and hand.name == low.replace("-", ",")
        found.append(hand)
    assert found == sorted(found)
    assert max(found).nickname == "the wheel"


def test_8_6_4_2_a_beats_8_6_5_2_a_and_6_4_3_2_a_beats_6_5_4_3_2() -> None:
    assert low_strength(_rank_indices("8-6-4-2-A")) > low_strength(_rank_indices("8-6-5-2-A"))
    assert low_strength(_rank_indices("6-4-3-2-A")) > low_strength(_rank_indices("6-5-4-3-2"))


def test_four_hearts_in_the_hand_and_one_on_the_board_is_no_flush() -> None:
    """RULES.md 1, the Omaha rule: exactly two hole cards."""
    high = best_high("Ah Kh Qh Jh", "Th 9c 2d 5s 7c")
    assert high.category is HandCategory.HIGH_CARD
    assert high.name == "high card Ace"


def test_a_board_flush_needs_two_suited_hole_cards() -> None:
    one_heart = best_high("Th 9c 8c 7c", "Ah Kh Qh Jh 2h")
    assert one_heart.category is HandCategory.STRAIGHT
    assert one_heart.name == "a straight, Nine to King"
    two_hearts = best_high("Th 9h 8c 7c", "Ah Kh Qh Jh 2h")
    assert two_hearts.name == "a straight flush, Nine to King"
    assert format_cards(two_hearts.hole_cards) == "Th9h"


def test_a_paired_hand_can_still_make_a_low() -> None:
    low = best_low("Ac Ad 2c Kd", "3h 4s 7d Kc Qc")
    assert low is not None
    assert low.name == "7,4,3,2,A"


def test_a_board_with_two_low_ranks_gives_no_one_a_low() -> None:
    assert best_low("Ac 2d 3c 4d", "2h 3s Kd Qc Jc") is None
    result = showdown("o8", ["Ac 2d 3c 4d", "Kh Ks 9c 9d"], "2h 3s Kd Qc Jc")
    assert result.low_winners == ()
    assert [p.share for p in result.players] == [0, 1]


def test_a_board_with_three_low_cards_of_two_ranks_gives_no_low() -> None:
    assert best_low("Ac 4d 5c 6d", "2h 2s 3d Qc Jc") is None


@pytest.mark.parametrize(
    ("hole", "board", "name"),
    [
        ("Ac Ad 2c 3d", "As Ah Kd 9c 5s", "four of a kind, Aces"),
        ("Kc Kd Qc 3d", "Ks Qh Qd 9c 5s", "a full house, Kings full of Queens"),
        ("6c 6d Qc 3d", "6s 9h 9d 2c 5s", "a full house, Sixes full of Nines"),
        ("Ac Kd 2c 3d", "Qs Jh Td 9c 5s", "a straight, Ten to Ace"),
        ("Ac 2d Kc Kd", "3s 4h 5d 9c Js", "a straight, Ace to Five"),
        ("7c 7d 2c 3d", "7s Qh 9d 4c 5s", "three of a kind, Sevens"),
        ("Ac Kd 8c 3d", "As Kh 9d 4c 5s", "two pair, Aces and Kings"),
        ("Ac Ad 8c 3d", "Ks Qh 9d 4c 5s", "a pair of Aces"),
        ("5c 5d 5h 5s", "Ks Qh 9d 4c 2s", "a pair of Fives"),
        ("Ah 2h 3h 4h", "5h Kd Kc 9s 8s", "a pair of Kings"),
        ("2h 3h Ac Kc", "4h 5h 6h 9s 8s", "a straight flush, Two to Six"),
        ("Ah 2h 3c 4c", "5h Kh 4h 9s 8s", "a flush, Ace high"),
        ("Ah 2h 3c 4c", "5h 3h 4h 9s 8s", "a straight flush, Ace to Five"),
    ],
)
def test_names_in_the_words_of_card_rooms(hole: str, board: str, name: str) -> None:
    assert best_high(hole, board).name == name


def test_four_of_a_rank_in_the_hand_is_only_a_pair() -> None:
    assert best_high("5c 5d 5h 5s", "Ks Qh 9d 4c 2s").category is HandCategory.ONE_PAIR


def test_suits_never_break_ties() -> None:
    spades = best_high("As Ks 2c 3c", "Qs Js Ts 4d 4h")
    hearts = best_high("Ah Kh 2d 3d", "Qs Js Ts 4d 4h")
    assert spades.category is HandCategory.STRAIGHT_FLUSH
    assert hearts.name == "a straight, Ten to Ace"
    board = "Qd Jd Td 4c 4h"
    assert best_high("As Kc 2c 3c", board) == best_high("Ah Ks 2s 3s", board)
    low_a = best_low("Ac 2c Kd Kh", "3d 4d 5s Qc Jc")
    low_b = best_low("Ad 2d Ks Kc", "3d 4d 5s Qc Jc")
    assert low_a == low_b


def test_boards_of_three_and_four_cards() -> None:
    assert best_high("Ac Ad 2c 3d", "As Kd 9c").name == "three of a kind, Aces"
    low = best_low("Ac 2d 9c 9d", "3s 4h 7d Kc")
    assert low is not None and low.name == "7,4,3,2,A"


def test_no_qualifier_low_takes_any_five_different_ranks() -> None:
    assert best_low("Kc Qd 2c 2d", "Js Th 9d 3c 3h") is None
    low = best_low("Kc Qd 2c 2d", "Js Th 9d 3c 3h", qualifier=None)
    assert low is not None and low.name == "Q,T,9,3,2"


def test_big_o_uses_five_hole_cards_still_two_at_a_time() -> None:
    high = best_high("Ah Kh Qh Jh Th", "2h 3h 9d 4h 5c")
    assert high.name == "a flush, Ace high"
    assert len(high.hole_cards) == 2


def test_hand_values_compare_and_hash_by_strength_only() -> None:
    a = best_high("As Kc 2c 3c", "Qd Jd Td 4c 4h")
    b = best_high("Ah Ks 2s 3s", "Qd Jd Td 4c 4h")
    assert a == b and hash(a) == hash(b) and a.cards != b.cards
    assert max(a, best_high("Ac Ad 2h 3h", "Qd Jd Td 4c 4h")) is a
    low = best_low("Ac 2c Kd Kh", "3d 4d 5s Qc Jc")
    assert isinstance(low, LowHand)
    with pytest.raises(TypeError):
        _ = a < low  # type: ignore[operator]


@pytest.mark.parametrize(
    ("hole", "board", "message"),
    [
        ("Ad Kd 3s", "Jd 4d 3c Qd 5h", "an Omaha hand has 4 or 5 hole cards, not 3"),
        ("Ad Kd 3s 2s", "Jd 4d", "a board has 3, 4 or 5 cards, not 2"),
        ("Ad Kd 3s 2s", "Jd 4d Ad", "duplicate card: Ad"),
        ("Ad Kd 3s 2x", "Jd 4d Qd", "'2x' at position 4 is not a card"),
    ],
)
def test_bad_hands_are_rejected_with_the_reason(hole: str, board: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        best_high(hole, board)
    assert str(caught.value) == message


def test_a_low_qualifier_out_of_range_is_rejected() -> None:
    with pytest.raises(ValueError, match="from 5 to 13, not 4"):
        best_low("Ac 2d 9c 9d", "3s 4h 7d Kc", qualifier=4)


# Shares of one pot (RULES.md 5: halves, scoops, quartering).


def test_quartering_two_tied_lows_each_get_a_quarter() -> None:
    result = showdown("o8", ["Ac 4c Qh Qs", "Ad 4d 9h 9s", "Kh Jh Js Ts"], "Kc Kd 2h 3s 7d")
    assert result.high_winners == (2,)
    assert result.low_winners == (0, 1)
    assert [p.share for p in result.players] == [Fraction(1, 4), Fraction(1, 4), Fraction(1, 2)]


def test_three_quarters_for_the_high_winner_who_ties_the_low() -> None:
    result = showdown("o8", ["Ac 4c Kh Qs", "Ad 4d 9h 9s"], "Kc Kd 2h 3s 7d")
    assert [p.share for p in result.players] == [Fraction(3, 4), Fraction(1, 4)]


def test_a_scoop_takes_the_whole_pot() -> None:
    result = showdown("o8", ["AdKd3s2s", "7h7c8s9s"], "Jd4d3cQd5h")
    assert [p.share for p in result.players] == [1, 0]


def test_omaha_high_only_has_no_low_half() -> None:
    result = showdown("omaha", ["Js Ts 9h 9d", "2h 5h 8c 8d"], "As Ks Qs 4d 3c")
    assert result.low_winners == ()
    assert all(p.low is None for p in result.players)
    assert [p.share for p in result.players] == [1, 0]


def test_showdown_errors_name_the_player() -> None:
    with pytest.raises(CardError, match="player 2: '1x' at position 2 is not a card"):
        showdown("o8", ["AdKd3s2s", "7h1x8s9s"], "Jd4d3cQd5h")
    with pytest.raises(DuplicateCardError, match="duplicate card: Ad"):
        showdown("o8", ["AdKd3s2s", "AdQcQs5c"], "Jd4d3cQd5h")
    with pytest.raises(CardError, match="player 1 holds 5 card"):
        showdown("o8", ["AdKd3s2sTc"], "Jd4d3cQd5h")
    with pytest.raises(ValueError, match="unknown variant 'razz'"):
        showdown("razz", ["AdKd3s2s"], "Jd4d3cQd5h")
