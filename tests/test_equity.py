"""The equity calculator: exact figures against brute force, Monte Carlo against exact,
the rule book's known values, and the range language."""

import json
from fractions import Fraction
from itertools import combinations

import pytest

from splitpot.cards import Card, CardError, DuplicateCardError, parse_cards
from splitpot.cli import main
from splitpot.equity import EquityError, NoDealError, RangeError, calculate, parse_range
from splitpot.evaluate import Variant, best_high, best_low


def brute_force(hands: list[str], board: str, variant: Variant) -> list[Fraction]:
    """Each player's expected share, board by board, with the scalar evaluator."""
    holes = [parse_cards(h) for h in hands]
    known = parse_cards(board)
    used = {c for h in holes for c in h} | set(known)
    rest = [Card.from_code(c) for c in range(52) if Card.from_code(c) not in used]
    totals = [Fraction(0)] * len(hands)
    boards = 0
    for extra in combinations(rest, 5 - len(known)):
        full = [*known, *extra]
        highs = [best_high(h, full).strength for h in holes]
        lows = [
            (low.strength if (low := best_low(h, full, variant.low_qualifier)) else 0)
            if variant.has_low
            else 0
            for h in holes
        ]
        high_winners = [i for i, v in enumerate(highs) if v == max(highs)]
        low_winners = [i for i, v in enumerate(lows) if max(lows) > 0 and v == max(lows)]
        high_part = Fraction(1, 2) if low_winners else Fraction(1)
        for i in high_winners:
            totals[i] += high_part / len(high_winners)
        for i in low_winners:
            totals[i] += Fraction(1, 2) / len(low_winners)
        boards += 1
    return [t / boards for t in totals]


@pytest.mark.parametrize(
    ("hands", "board", "variant"),
    [
        (["AsKs2d3d", "QhQcJhTc"], "7c8c9d", Variant.O8),
        (["Ah2h3c4c", "As2s5d6d", "KhKdQsJs"], "7c8s9d", Variant.O8),
        (["Ac2c3h4h", "Ad2d3s4s", "KcKhQdJd", "9h9s8c7d"], "5c6dTs", Variant.O8),
        (["AsKs2d3d", "QhQcJhTc"], "7c8c9dTd", Variant.O8),
        (["Ah2h3c4c", "As2s5d6d", "KhKdQsJs"], "7c8s9d2c", Variant.O8),
        (["AsKs2d3d", "QhQcJhTc"], "7c8c9d", Variant.OMAHA),
        (["AsKs2d3d", "QhQcJhTc", "9s9h8d7c"], "Jc8c2c", Variant.HILO_NO_QUALIFIER),
        (["AsKs2d3dTc", "QhQcJhTs5c"], "7c8c9d", Variant.BIGO),
    ],
)
def test_exact_equals_brute_force_to_the_last_fraction(
    hands: list[str], board: str, variant: Variant
) -> None:
    result = calculate(hands, board=board, variant=variant, method="exact")
    assert result.method == "exact"
    assert [p.equity for p in result.players] == brute_force(hands, board, variant)
    assert sum(p.equity for p in result.players) == 1


def test_known_values_heads_up_preflop() -> None:
    """AsKs2d3d against QhQcJhTc: 0.599996 to 0.400004, scoops 45.49% and 25.49%."""
    result = calculate(["AsKs2d3d", "QhQcJhTc"])
    assert result.method == "exact" and result.samples == 1_086_008
    first, second = result.players
    assert round(float(first.equity), 6) == 0.599996
    assert round(float(second.equity), 6) == 0.400004
    assert round(100 * float(first.scoop), 2) == 45.49
    assert round(100 * float(second.scoop), 2) == 25.49
    assert first.equity + second.equity == 1


def test_known_value_on_the_flop_7c8c9d() -> None:
    result = calculate(["AsKs2d3d", "QhQcJhTc"], board="7c8c9d")
    assert round(float(result.players[0].equity), 6) == 0.418293
    assert result.players[0].equity == Fraction(343, 820)


def test_the_figures_add_up() -> None:
    result = calculate(["Ac2c3h4h", "Ad2d3s4s", "KcKhQdJd"], board="5c6dTs")
    for player in result.players:
        assert player.scoop <= player.high_win
        assert player.low_win + player.low_tie <= player.low_possible
        assert player.high_win + player.high_tie <= 1
    a, b, c = result.players
    # The same low for the first two: every low they make, they tie (a quarter each
    # when a third player wins the high, three quarters to one that wins it too).
    assert a.low_win == b.low_win == 0 and a.low_tie == b.low_tie == a.low_possible > 0
    assert a.quarter > 0 and a.three_quarter > 0 and c.low_equity == 0
    assert sum(p.equity for p in result.players) == 1
    assert sum(p.high_equity for p in result.players) == 1


def test_monte_carlo_is_within_four_standard_errors_of_exact() -> None:
    hands = ["Ah2h3c4c", "As2s5d6d", "KhKdQsJs"]
    exact = calculate(hands, board="7c8s9d", method="exact")
    sampled = calculate(hands, board="7c8s9d", method="monte-carlo", samples=200_000, seed=7)
    assert sampled.method == "monte-carlo" and sampled.samples == 200_000
    for mine, truth in zip(sampled.players, exact.players, strict=True):
        for field in ("equity", "scoop", "high_win", "low_win", "quarter"):
            error = mine.errors[field]
            assert error > 0 or getattr(truth, field) == 0
            assert abs(float(getattr(mine, field)) - float(getattr(truth, field))) <= 4 * error, (
                field
            )


def test_monte_carlo_with_a_seed_repeats_and_random_hands_are_fair() -> None:
    first = calculate(["*", "*", "*"], method="monte-carlo", samples=60_000, seed=3)
    again = calculate(["*", "*", "*"], method="monte-carlo", samples=60_000, seed=3)
    assert [p.equity for p in first.players] == [p.equity for p in again.players]
    for player in first.players:  # three random hands: a third each
        assert abs(float(player.equity) - 1 / 3) <= 4 * player.errors["equity"]


def test_ranges_enumerate_exactly_when_small() -> None:
    hands = ["AsAhKsKh,AsAhQsQh", "2c3c4d5d"]
    result = calculate(hands, board="7c8s9dTh")
    assert result.method == "exact"
    kings = brute_force(["AsAhKsKh", "2c3c4d5d"], "7c8s9dTh", Variant.O8)
    queens = brute_force(["AsAhQsQh", "2c3c4d5d"], "7c8s9dTh", Variant.O8)
    assert result.players[0].equity == (kings[0] + queens[0]) / 2
    assert result.players[0].combinations == 2


def test_dead_cards_are_out_of_play() -> None:
    with_dead = calculate(["AsKs2d3d", "QhQcJhTc"], board="7c8c9d", dead="2c")
    assert with_dead.samples == 41 * 40 // 2 - 40  # 2c cannot come
    assert (
        with_dead.players[0].equity
        != calculate(["AsKs2d3d", "QhQcJhTc"], board="7c8c9d").players[0].equity
    )


@pytest.mark.parametrize(
    ("text", "count"),
    [
        ("AsKs2d3d", 1),
        ("AA**", 6961),
        ("A2**", 17316),
        ("RRON", 82368),
        ("RROO", 2808),
        ("AxAyxy", 864),
        ("xxyy", 36504),
        ("$ds", 36504),
        ("$ss", 158184),
        ("$r", 28561),
        ("$np", 183040),
        ("*", 270725),
        ("AA**:$ds", 864),
        ("A2**!AA**", 17316 - 1108),  # less AA2x (1092) and AAA2 (16)
        ("AA**,KK**", 13886),
        ("AA", 6961),
    ],
)
def test_range_sizes(text: str, count: int) -> None:
    assert len(parse_range(text)) == count


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("A2**?", "'\\?' at position 5 of 'A2\\*\\*\\?' is not a rank, suit or \\*"),
        ("AAAAA", "'AAAAA' names 5 cards; a hand here has 4"),
        ("$wheel", "unknown macro '\\$wheel'"),
        ("AA**,", "an empty part in the range"),
    ],
)
def test_bad_ranges_are_named(text: str, message: str) -> None:
    with pytest.raises(RangeError, match=message):
        parse_range(text)


def test_conflicts_are_named() -> None:
    with pytest.raises(DuplicateCardError, match="duplicate card: As"):
        calculate(["AsKs2d3d", "AsQcJhTc"])
    with pytest.raises(
        DuplicateCardError, match="player 2 and the board or dead cards: duplicate card: 7c"
    ):
        calculate(["AsKs2d3d", "7cQcJhTc"], board="7c8c9d")
    with pytest.raises(RangeError, match="player 2: no hand of 'AAAA' is left"):
        calculate(["KsQs2d3d", "AAAA"], dead="Ac")
    with pytest.raises(CardError, match="player 1: '1x' at position 4 is not a card"):
        calculate(["AsKs2d1x", "QhQcJhTc"])
    with pytest.raises(CardError, match="a board has 0, 3, 4 or 5 cards, not 2"):
        calculate(["AsKs2d3d", "QhQcJhTc"], board="7c8c")
    with pytest.raises(ValueError, match="equity needs 2 to 10 players, not 1"):
        calculate(["AsKs2d3d"])


@pytest.mark.parametrize(
    ("hands", "board", "names"),
    [
        (["AsAd2d3d", "AhAcKd*", "AhAc**"], "", "players 2 and 3 (AhAcKd*, AhAc**)"),
        (["AhAcKd*", "KsQs2d3d", "AhAc**"], "7c8c9d", "players 1 and 3 (AhAcKd*, AhAc**)"),
        # Player 1's As is part of it: without it AcAd.. and AhAs.. would fit.
        (
            ["AsKs2d3d", "AAKK:$ds", "AAQQ:$ds"],
            "",
            "players 1, 2 and 3 (AsKs2d3d, AAKK:$ds, AAQQ:$ds)",
        ),
        (["AsKs2d3d", "AA**", "*", "AA**"], "", "players 1, 2 and 4 (AsKs2d3d, AA**, AA**)"),
    ],
)
def test_hands_that_cannot_be_dealt_together_are_named(
    hands: list[str], board: str, names: str
) -> None:
    with pytest.raises(NoDealError) as raised:
        calculate(hands, board=board)
    assert str(raised.value) == (
        f"{names} cannot be dealt together: every deal of their hands has a card twice"
    )


def test_ranges_that_fit_too_rarely_stop_the_sampling() -> None:
    """Three hands of two aces never fit, and the search gives up before it can prove it:
    sampling stops once fewer than 1 deal in 1,000 fits, and says so."""
    with pytest.raises(NoDealError) as raised:
        calculate(["AA**", "*", "AA**", "AA**"], seed=1)
    assert str(raised.value) == (
        "players 1, 3 and 4 (AA**, AA**, AA**) fit together in 0 of 2,000,000 random deals, "
        "fewer than 1 in 1,000: too rare to sample"
    )


def test_known_hands_that_make_ranges_fit_tightly_still_work() -> None:
    """QsQh leave QcQd: the double-suited aces and queens must be AcAdQcQd, the aces and
    kings AhAsKhKs."""
    result = calculate(["QsQh2d3d", "AAKK:$ds", "AAQQ:$ds"], board="7c8c9d", method="exact")
    assert sum(p.equity for p in result.players) == 1
    assert result.samples == 666  # one deal: the 37 cards left make 666 turns and rivers


def test_sampled_ranges_that_clash_agree_with_exact() -> None:
    """Deals where range hands share a card are drawn again, which is the same as
    enumerating only the deals without a card twice."""
    hands = ["AsAhKsKh,AsAhQsQh", "QsJs**", "7h7s6d6c"]
    exact = calculate(hands, board="2c3c4d5h", method="exact")
    sampled = calculate(hands, board="2c3c4d5h", method="monte-carlo", samples=100_000, seed=2)
    for mine, truth in zip(sampled.players, exact.players, strict=True):
        assert abs(float(mine.equity) - float(truth.equity)) <= 4 * mine.errors["equity"]


def test_samples_over_several_kernel_calls_count_every_deal() -> None:
    """Sampling runs in calls of a million player-hands (Ctrl-C is heard between them);
    the shares of every deal made add up to exactly the deals asked for."""
    result = calculate(["*"] * 5, method="monte-carlo", samples=200_001, seed=4)
    assert result.samples == 200_001
    assert sum(p.equity for p in result.players) == 1


@pytest.mark.parametrize("samples", [0, -5])
def test_samples_must_be_positive(samples: int) -> None:
    with pytest.raises(
        EquityError, match=f"samples must be a positive number of deals, not {samples}"
    ):
        calculate(["AsKs2d3d", "QhQcJhTc"], samples=samples)


def test_cards_may_be_written_10h_and_with_suit_symbols() -> None:
    """README: card text may be written 10h or A♦; ranges take it too."""
    written = calculate(["10hA♠2d3d", "A♦K♦2s3s"], board="7c8c9d")
    plain = calculate(["ThAs2d3d", "AdKd2s3s"], board="7c8c9d")
    assert written == plain
    assert [p.hand for p in written.players] == ["ThAs2d3d", "AdKd2s3s"]
    assert (parse_range("A♦A♠**").hands == parse_range("AdAs**").hands).all()
    assert (parse_range("10h10c**").hands == parse_range("ThTc**").hands).all()


def test_there_must_be_cards_enough_for_every_hand_and_the_board() -> None:
    with pytest.raises(EquityError, match="9 hands of 5 cards and a board need 50 cards; 49"):
        calculate(["*"] * 9, variant="bigo", dead="2c3c4c")


def test_equity_cli_json_and_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["equity", "AsKs2d3d", "QhQcJhTc", "--board", "7c8c9d", "--json"]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["method"] == "exact" and result["samples"] == 820
    first = result["players"][0]
    assert first["hand"] == "AsKs2d3d" and round(first["equity"], 6) == 0.418293
    fields = {"equity", "high_win", "high_tie", "low_win", "low_tie", "scoop", "quarter"}
    assert set(first) >= fields | {"three_quarter", "low_possible"}
    assert main(["equity", "AsKs2d3d", "*", "--samples", "20000", "--seed", "1"]) == 0
    out = capsys.readouterr().out
    assert "Monte Carlo: 20,000 deals; standard error of equity at most" in out
    assert out.splitlines()[0].split()[:3] == ["hand", "equity", "high"]
    assert main(["equity", "AsKs2d3d", "AsQcJhTc"]) == 2
    assert "duplicate card: As" in capsys.readouterr().err
