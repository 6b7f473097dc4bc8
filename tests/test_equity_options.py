"""Equity on two boards (RULES.md 7): a double board and a board run twice, each board's
hi/lo figures against an independent count of every pair of runouts dealt from the same
remaining deck; the room's equity event and the hand helper with a board each."""

from fractions import Fraction
from itertools import permutations

import pytest

from splitpot.cards import Card, CardError, parse_cards
from splitpot.equity import EquityError, calculate
from splitpot.evaluate import best_high, best_low, hand_help
from splitpot.protocol import encode_help, equity_event


def shares(holes: list[tuple[Card, ...]], board: list[Card]) -> list[tuple[Fraction, Fraction]]:
    """Each player's part of one board's half of the pot in Omaha Hi/Lo: (of the high
    half, of the low half), with the scalar evaluator (no low: the high takes both)."""
    highs = [best_high(h, board).strength for h in holes]
    lows = [(low.strength if (low := best_low(h, board, 8)) else 0) for h in holes]
    high_winners = [i for i, v in enumerate(highs) if v == max(highs)]
    low_winners = [i for i, v in enumerate(lows) if max(lows) > 0 and v == max(lows)]
    high_part = Fraction(1, 2) if low_winners else Fraction(1)
    result = []
    for i in range(len(holes)):
        high = high_part / len(high_winners) if i in high_winners else Fraction(0)
        low = Fraction(1, 2) / len(low_winners) if i in low_winners else Fraction(0)
        result.append((high, low))
    return result


def brute_force(
    hands: list[str], first: str, second: str
) -> tuple[list[list[Fraction]], list[Fraction]]:
    """Every ordered way to finish both boards from the cards no one has seen (first the
    first board's missing cards, then the second's, without replacement): each board's
    expected share of its part for each player, and of the whole pot."""
    holes = [tuple(parse_cards(h)) for h in hands]
    one, two = parse_cards(first), parse_cards(second)
    used = {c for h in holes for c in h} | set(one) | set(two)
    rest = [Card.from_code(c) for c in range(52) if Card.from_code(c) not in used]
    need_one, need_two = 5 - len(one), 5 - len(two)
    per_board = [[Fraction(0)] * len(hands) for _ in range(2)]
    whole = [Fraction(0)] * len(hands)
    deals = 0
    for drawn in permutations(rest, need_one + need_two):
        board_one = [*one, *drawn[:need_one]]
        board_two = [*two, *drawn[need_one:]]
        for number, board in enumerate((board_one, board_two)):
            for player, (high, low) in enumerate(shares(holes, board)):
                per_board[number][player] += high + low
                whole[player] += (high + low) / 2
        deals += 1
    return [[s / deals for s in board] for board in per_board], [s / deals for s in whole]


@pytest.mark.parametrize(
    ("hands", "first", "second"),
    [
        # A double board on the turn: each board's river from the same deck.
        (["As2d3c9h", "KsKhQdJc"], "7c8c4dTs", "2s5hJdQs"),
        # The board run twice from the turn: the runs share four cards, a river each.
        (["Ah2h3c4c", "As2s5d6d", "KhKdQsJs"], "7c8s9d2c", "7c8s9d2c"),
        # The second run dealt its river already, the first still to come.
        (["AsKs2d3d", "QhQcJhTc"], "7c8c9dTd", "7c8c9dTd5s"),
    ],
)
def test_each_board_matches_a_count_of_every_pair_of_runouts(
    hands: list[str], first: str, second: str
) -> None:
    result = calculate(hands, board=first, boards=2, second_board=second, method="exact")
    per_board, whole = brute_force(hands, first, second)
    assert len(result.boards) == 2
    for number in range(2):
        assert [p.equity for p in result.boards[number]] == per_board[number]
    assert [p.equity for p in result.players] == whole
    assert result.method == "exact"


def test_a_run_twice_before_the_runs_shares_the_board_and_halves_the_pot() -> None:
    """No second board given: both runs start from the same cards, so they are alike;
    the whole pot's figures are the mean of the boards'."""
    hands = ["AsKs2d3d", "QhQcJhTc"]
    twice = calculate(hands, board="7c8c9dTd", boards=2, method="exact")
    once = calculate(hands, board="7c8c9dTd", method="exact")
    first, second = twice.boards
    assert [p.equity for p in first] == [p.equity for p in second]
    assert [p.equity for p in twice.players] == [p.equity for p in once.players]
    for whole, one, two in zip(twice.players, first, second, strict=True):
        assert whole.high_equity == (one.high_equity + two.high_equity) / 2
        assert whole.low_equity == (one.low_equity + two.low_equity) / 2
        assert whole.scoop == (one.scoop + two.scoop) / 2


def test_a_double_board_is_not_the_same_as_one_board() -> None:
    """A low on one board and none on the other: the boards' figures differ, and the
    other board's cards are out of the first board's deck."""
    hands = ["As2d3c9h", "KsKhQdJc"]
    result = calculate(hands, board="7c8c4dTs", boards=2, second_board="KdKcQhJs", method="exact")
    first, second = result.boards
    assert first[0].low_possible > 0  # 7-8-4 on the first board: a low can come
    assert second[0].low_possible == 0  # K-K-Q-J: none on the second
    assert second[1].high_win == 1  # four kings
    assert first[0].equity != second[0].equity


def test_one_board_has_no_board_figures() -> None:
    result = calculate(["AsKs2d3d", "QhQcJhTc"], board="7c8c9d", method="exact")
    assert result.boards == ()


def test_two_boards_refusals() -> None:
    hands = ["AsKs2d3d", "QhQcJhTc"]
    with pytest.raises(ValueError, match="1 or 2 boards, not 3"):
        calculate(hands, boards=3)
    with pytest.raises(ValueError, match="a second board needs boards=2"):
        calculate(hands, board="7c8c9d", second_board="2c3c4c")
    with pytest.raises(CardError, match="0, 3, 4 or 5 cards, not 2"):
        calculate(hands, board="7c8c9d", boards=2, second_board="2c3c")
    # Ten hands of four and two boards need 50 cards: one board fits, two do not.
    with pytest.raises(EquityError, match="two boards need 50 cards; 49 are in play"):
        calculate(["*"] * 10, boards=2, dead="2h3h4h", method="monte-carlo")


def test_the_monte_carlo_path_gives_each_board_too() -> None:
    hands = ["As2d3c9h", "KsKhQdJc"]
    result = calculate(
        hands, board="7c8c4d", boards=2, second_board="KdKcQh", method="monte-carlo",
        samples=20_000, seed=7,
    )  # fmt: skip
    exact = calculate(hands, board="7c8c4d", boards=2, second_board="KdKcQh", method="exact")
    assert result.method == "monte-carlo"
    for sampled, known in zip(result.boards, exact.boards, strict=True):
        for player, truth in zip(sampled, known, strict=True):
            assert abs(float(player.equity - truth.equity)) < 5 * player.errors["equity"] + 1e-9


def test_the_equity_event_tells_each_board() -> None:
    hands = ["As2d3c9h", "KsKhQdJc"]
    first, second = parse_cards("7c8c4dTs"), parse_cards("2s5hJdQs")
    result = calculate(hands, board="7c8c4dTs", boards=2, second_board="2s5hJdQs", method="exact")
    event = equity_event("t1-4", [0, 3], first, result, boards=[first, second])
    assert event["street"] == "turn"
    assert [s["seat"] for s in event["seats"]] == [1, 4]
    boards = event["boards"]
    assert [b["board_number"] for b in boards] == [1, 2]
    assert boards[1]["board"] == ["2s", "5h", "Jd", "Qs"]
    assert boards[0]["seats"][0]["equity"] == round(float(result.boards[0][0].equity), 4)
    assert boards[1]["seats"][1]["low"] == round(float(result.boards[1][1].low_equity), 4)
    whole = event["seats"][0]["equity"]
    halves = (boards[0]["seats"][0]["equity"] + boards[1]["seats"][0]["equity"]) / 2
    assert abs(whole - halves) < 1e-4
    single = equity_event("t1-4", [0, 3], first, calculate(hands, board="7c8c4dTs"))
    assert "boards" not in single


def test_the_hand_helper_names_the_best_hands_on_each_board() -> None:
    hole = "As2d3c9h"
    on_first, on_second = hand_help("o8", hole, "7c8c4d"), hand_help("o8", hole, "KdKcQh")
    helped = encode_help(on_first, boards=[on_first, on_second])
    first, second = helped["boards"]
    assert first["board_number"] == 1 and second["board_number"] == 2
    assert first["low"]["cards"] == ["As", "2d", "8c", "7c", "4d"]  # 8-7-4-2-A
    assert second["low"] is None and second["low_possible"] is False
    assert second["high"]["name"] == "a pair of Kings"
    assert helped["text"] == first["text"]
    assert "boards" not in encode_help(on_first)
