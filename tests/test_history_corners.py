"""Hand histories in the corners: what the last-hands window reveals (RULES.md 6), award
wording for ties and odd chips (RULES.md 5), games PokerStars has no name for, and files
that hold no whole hand."""

import json
import re
from pathlib import Path

import pytest
from engine_helpers import deal, play

from splitpot.cards import parse_cards
from splitpot.cli import main
from splitpot.engine import Action, Hand, Share
from splitpot.history import HistoryError
from splitpot.history.files import read_history
from splitpot.history.pokerstars import game_name, read_pokerstars, write_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.report import award_lines, hand_summary, revealed_holes
from splitpot.history.splitpot_json import dumps, to_json
from splitpot.history.table_log import hand_record
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Variant

LIMIT = GameConfig(Variant.O8, FixedLimit(2, 4))
NO_LIMIT = GameConfig(Variant.O8, NoLimit(1, 2))

# ------------------------------------------------------------ last hands (RULES.md 6)

NAMES = ("Ann", "Bob", "Cy", "Dan", "Eve")
HOLES = ["AsAh4d2c", "4h2dKcQc", "QsQhJsTs", "JdJhTdTh", "7c7d6h5s"]
CY, DAN, EVE = 2, 3, 4  # Cy and Dan muck at the showdown; Eve folds before the flop
# Bob shows first (8-4-3-2-A and a pair of Kings); Cy's queens and Dan's jacks cannot
# beat him, and are offered the muck (RULES.md 5); Ann's aces show after them.
FOLDED_CARDS = ("7c", "7d", "6h", "5s")


def _to_the_showdown() -> Hand:
    """The rule book's limit hand (Cy holding queens) and two more players: Eve folds,
    Dan calls to the end; the showdown waits for Cy's choice."""
    return play(
        deal(LIMIT, [100] * 5, HOLES, "Ad8c3hKd9s"),
        *("call", "fold", "call", "call", "check"),  # Dan, Eve, Ann, Bob, Cy
        *("bet 2", "call", "call", "call"),
        *("bet 4", "call", "call", "call"),
        *("check", "check", "check", "check"),
    )


def _over() -> Hand:
    """The same hand with Cy and Dan mucking: over."""
    hand = _to_the_showdown()
    hand.apply(Action.muck())
    hand.apply(Action.muck())
    return hand


def _cards(player: int) -> tuple[str, ...]:
    return tuple(str(card) for card in parse_cards(HOLES[player]))


def test_a_hand_mucked_at_the_showdown_stays_hidden_until_the_hand_is_over() -> None:
    hand = _to_the_showdown()
    assert hand.to_act == CY
    hand.apply(Action.muck())
    assert hand.to_act == DAN and not hand.is_over
    assert set(revealed_holes(hand, None)) == {1}  # Bob showed; Cy's muck stays hidden
    assert set(revealed_holes(hand, EVE)) == {1, EVE}  # and Eve sees her own cards
    hand.apply(Action.muck())
    assert hand.is_over
    seen = revealed_holes(hand, None)
    assert set(seen) == {0, 1, CY, DAN}  # shown, shown, mucked, mucked; never Eve's fold
    assert tuple(map(str, seen[CY])) == _cards(CY)


@pytest.mark.parametrize("viewer", [None, 0, 1, CY, DAN, EVE])
def test_last_hands_show_showdown_mucks_and_never_a_fold(viewer: int | None) -> None:
    hand = _over()
    summary = "\n".join(hand_summary(hand, NAMES, viewer, "Hand 1"))
    assert "  Cy mucks Qs Qh Js Ts" in summary.splitlines()
    assert "  Dan mucks Jd Jh Td Th" in summary.splitlines()
    record = hand_record(hand, NAMES, range(5), "7")
    stars = write_pokerstars(record, hand, hero=viewer)
    assert "Seat 3: Cy (big blind) mucked [Qs Qh Js Ts]" in stars.splitlines()
    assert "Seat 4: Dan mucked [Jd Jh Td Th]" in stars.splitlines()
    assert "Seat 5: Eve folded before Flop (didn't bet)" in stars.splitlines()
    for text in (summary, stars):
        found = [card for card in FOLDED_CARDS if re.search(rf"\b{card}\b", text)]
        assert found == (list(FOLDED_CARDS) if viewer == EVE else [])
    if viewer == EVE:
        assert "  Dealt to Eve: 7c 7d 6h 5s" in summary.splitlines()
        assert "Dealt to Eve [7c 7d 6h 5s]" in stars.splitlines()


def test_the_written_mucks_read_back_as_known_cards_and_the_hand_agrees() -> None:
    hand = _over()
    stars = write_pokerstars(hand_record(hand, NAMES, range(5), "7"), hand, hero=EVE)
    assert (
        "Seat 1: Ann (button) showed [As Ah 4d 2c] and won (24) with HI: three of a kind, Aces; "
        "LO: 8,4,3,2,A" in stars.splitlines()
    )
    (record,), problems = read_pokerstars(stars)
    assert problems == []
    assert tuple(map(str, record.holes[CY])) == _cards(CY)
    assert tuple(map(str, record.holes[EVE])) == _cards(EVE)  # the hero's own cards
    replayed = replay_record(record)
    assert replayed.agrees is True and replayed.hand.stacks == hand.stacks


# ------------------------------------------------------------ award wording (RULES.md 5)


def _showdown(hand: Hand, *actions: str) -> Hand:
    play(hand, *actions)
    while not hand.is_over:  # a hand that wins nothing is offered the muck and takes it
        hand.apply(Action.muck())
    return hand


def _lines(hand: Hand, names: tuple[str, ...]) -> list[str]:
    assert hand.result is not None
    return award_lines(hand.result, names, has_low=hand.config.variant.has_low)


def test_a_one_chip_half_between_tied_players_names_who_gets_the_odd_chip() -> None:
    """Ann is all in for her small blind of 1: a main pot of 3 (2 high, 1 low) and a side
    pot of 2 (1 high, 1 low); Bob and Cy tie for low in both, Bob is first left of the
    button (Cy's) and gets each odd chip."""
    hand = deal(
        GameConfig(Variant.O8, PotLimit(1, 2)),
        [1, 100, 100],
        ["KsKh9c9d", "Ah3cJhJc", "Ad3dTsTc"],
        "2c6d7hKcQd",
        button=2,
    )
    hand = _showdown(hand, "call", "check", *["check"] * 6)
    assert [(a.pot, a.player, a.amount) for a in hand.result.awards if a.share is Share.LOW] == [
        (1, 1, 1),
        (1, 2, 0),
        (0, 1, 1),
        (0, 2, 0),
    ]
    lines = _lines(hand, ("Ann", "Bob", "Cy"))
    assert lines == [
        "Bob wins the high half of the side pot, 1, with a pair of Jacks",
        "Bob and Cy tie for the low half of the side pot, 1, with 7,6,3,2,A: Bob gets the odd chip",
        "Ann wins the high half of the main pot, 2, with three of a kind, Kings",
        "Bob and Cy tie for the low half of the main pot, 1, with 7,6,3,2,A: Bob gets the odd chip",
    ]
    assert not any(re.search(r"\b0\b", line) for line in lines)
    stars = write_pokerstars(hand_record(hand, ("Ann", "Bob", "Cy"), range(3), "3"), hand)
    assert "Cy collected" not in stars  # no "collected 0" for the tied player paid nothing
    (record,), _ = read_pokerstars(stars)
    assert replay_record(record).agrees is True


def test_quartered_low_half_with_an_odd_chip_says_who_has_it() -> None:
    """Pot 26 (Dan folds his 2 to Cy's raise to 8): Ann's kings take 13; Bob and Cy
    quarter the low half of 13, 7 and 6, Bob first left of Ann's button."""
    hand = deal(NO_LIMIT, [100] * 4, ["KsKh9c9d", "Ah3cJhJc", "Ad3dTsTc", "8c8d5h5s"], "2c6d7hKcQd")
    hand = _showdown(
        hand, "call", "call", "call", "raise 8", "fold", "call", "call", *["check"] * 9
    )
    assert _lines(hand, ("Ann", "Bob", "Cy", "Dan")) == [
        "Ann wins the high half of the pot, 13, with three of a kind, Kings",
        "Bob and Cy split the low half of the pot, 13, with 7,6,3,2,A: Bob 7 (the odd chip), Cy 6",
    ]


def test_quartered_low_half_that_splits_evenly() -> None:
    hand = _over()
    assert _lines(hand, NAMES) == [
        "Ann wins the high half of the pot, 16, with three of a kind, Aces",
        "Bob and Ann split the low half of the pot, 8 each, with 8,4,3,2,A",
    ]


WHEELS = ["Ac2c9h9d", "Ad2d9s9c"]  # on 3d4h5sKsQs: the wheel low and the wheel straight
BOTH = "the wheel, 5,4,3,2,A, and a straight, Ace to Five"


def test_same_players_tying_both_halves_split_the_whole_pot_as_one() -> None:
    hand = deal(NO_LIMIT, [100, 100], WHEELS, "3d4h5sKsQs")
    hand = _showdown(hand, "raise 13", "call", *["check"] * 6)
    assert _lines(hand, ("Ann", "Cy")) == [
        f"Cy and Ann tie for high and low and split the pot, 13 each, with {BOTH}"
    ]


def test_same_players_tying_both_halves_with_an_odd_chip() -> None:
    """Pot 27 (Bob's folded small blind in it): Cy is first left of the button, 14 and 13."""
    holes = [WHEELS[0], "KhKcQhJh", WHEELS[1]]
    hand = deal(NO_LIMIT, [100] * 3, holes, "3d4h5sKsQs")
    hand = _showdown(hand, "raise 13", "fold", "call", *["check"] * 6)
    assert _lines(hand, ("Ann", "Bob", "Cy")) == [
        f"Cy and Ann tie for high and low and split the pot, 27, with {BOTH}: "
        "Cy 14 (the odd chip), Ann 13"
    ]


def test_tied_high_with_no_low_and_a_high_only_game() -> None:
    hand = deal(NO_LIMIT, [100, 100], ["AcKc9h9d", "AdKd9s9c"], "3d4hJsKsQs")
    hand = _showdown(hand, "call", "check", *["check"] * 6)
    assert _lines(hand, ("Ann", "Cy")) == [
        "Cy and Ann split the pot, 2 each, with a pair of Kings",
        "No low hand qualified for the pot",
    ]
    omaha = GameConfig(Variant.OMAHA, NoLimit(1, 2))
    holes = ["AcKc9h9d", "7h7c6h6c", "AdKd9s9c"]
    hand = deal(omaha, [100] * 3, holes, "3d4hJsKsQs")
    hand = _showdown(hand, "raise 13", "fold", "call", *["check"] * 6)
    assert _lines(hand, ("Ann", "Bob", "Cy")) == [
        "Cy and Ann split the pot, 27, with a pair of Kings: Cy 14 (the odd chip), Ann 13"
    ]


def test_three_players_tying_a_two_chip_half_get_one_odd_chip_each() -> None:
    """Bob, Cy and Dan are all in for 1: a pot of 4, Ann's kings take the high half of 2;
    the low half of 2 among three tied lows pays one odd chip each to Bob and Cy, the
    first of them left of the button, and none to Dan (RULES.md 5)."""
    holes = ["KsKh9c9d", "Ah3cJhJc", "Ad3dTsTc", "As3s8h8d"]
    hand = deal(GameConfig(Variant.O8, PotLimit(1, 2)), [100, 1, 1, 1], holes, "2c6d7hKcQd")
    hand = _showdown(hand, "call", "call")
    assert _lines(hand, ("Ann", "Bob", "Cy", "Dan")) == [
        "Ann wins the high half of the pot, 2, with three of a kind, Kings",
        "Bob, Cy and Dan tie for the low half of the pot, 2, with 7,6,3,2,A: "
        "Bob and Cy get the odd chips, 1 each",
    ]


# ------------------------------------------- games PokerStars has no name for


def test_pokerstars_has_no_name_for_hi_lo_without_a_qualifier() -> None:
    """Decision (notes/history-rules.md): refuse, naming the variant, rather than write
    "Omaha Hi/Lo", which every reader would replay as eight or better."""
    assert game_name(Variant.O8) == "Omaha Hi/Lo"
    assert game_name(Variant.BIGO) == "5 Card Omaha Hi/Lo"
    assert game_name(Variant.OMAHA) == "Omaha"
    message = (
        "PokerStars text has no name for the game o-hilo-noq (Omaha Hi/Lo without a "
        "qualifier): write its hands as splitpot JSON or PHH"
    )
    with pytest.raises(HistoryError) as raised:
        game_name(Variant.HILO_NO_QUALIFIER)
    assert str(raised.value) == message
    config = GameConfig(Variant.HILO_NO_QUALIFIER, FixedLimit(2, 4))
    hand = _showdown(deal(config, [100, 100], WHEELS, "3d4h5sKsQs"), "fold")
    with pytest.raises(HistoryError) as raised:
        write_pokerstars(hand_record(hand, ("Ann", "Cy"), range(2), "1"), hand)
    assert str(raised.value) == message


# ------------------------------------------- files with no whole hand in them


def _finished_hand_text(hand_id: str) -> str:
    hand = _over()
    return write_pokerstars(hand_record(hand, NAMES, range(5), hand_id), hand)


def _read_error(path: Path) -> str:
    with pytest.raises(HistoryError) as raised:
        read_history(path)
    return str(raised.value)


@pytest.mark.parametrize("content", [b"", b"\n\n  \r\n", b"\xef\xbb\xbf\n"])
def test_an_empty_file_is_an_error_that_says_so(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "empty.txt"
    path.write_bytes(content)
    assert _read_error(path) == "the file is empty"


def test_a_file_cut_off_in_its_only_hand_names_the_lines(tmp_path: Path) -> None:
    lines = _finished_hand_text("1").splitlines()
    cut = lines.index("*** SHOW DOWN ***")
    path = tmp_path / "cut.txt"
    path.write_text("\n".join(lines[:cut]) + "\n")
    assert _read_error(path) == (
        f"no hand could be read: hand 1 (lines 1 to {cut}): the hand is cut off before its summary"
    )


def test_a_hand_cut_off_after_whole_ones_is_listed_with_its_lines(tmp_path: Path) -> None:
    whole = _finished_hand_text("1")
    cut = _finished_hand_text("2").splitlines()[:12]
    path = tmp_path / "growing.txt"
    path.write_text(whole + "\n".join(cut) + "\n")
    history = read_history(path)
    assert [record.id for record in history.hands] == ["1"]
    (problem,) = history.unreadable
    first = len(whole.splitlines()) + 1
    assert (problem.hand_id, problem.where) == ("2", f"lines {first} to {first + 11}")
    assert problem.reason == "the hand is cut off before its summary"


def test_a_file_of_other_games_only_is_read_with_every_hand_skipped(tmp_path: Path) -> None:
    path = tmp_path / "holdem.txt"
    path.write_text(_finished_hand_text("1").replace("Omaha Hi/Lo Limit", "Hold'em No Limit"))
    history = read_history(path)
    assert history.hands == [] and [p.skipped for p in history.unreadable] == [True]


def test_splitpot_json_with_no_hand_or_cut_off_names_the_line(tmp_path: Path) -> None:
    hand = _over()
    document = dumps(to_json(hand_record(hand, NAMES, range(5), "1"), hand))
    path = tmp_path / "hands.json"
    path.write_text("[]\n")
    assert _read_error(path) == "no hand found in this splitpot-json file"
    lines = document.splitlines()
    path.write_text("\n".join(lines[:20]) + "\n")
    assert _read_error(path) == "the file is cut off at line 20: a JSON document is not complete"
    one_line = json.dumps(json.loads(document))
    path.write_text(f"{one_line}\n{one_line[:300]}\n")
    assert _read_error(path) == "the file is cut off at line 2: a JSON document is not complete"
    path.write_text(f"{one_line}\n{one_line[:300]}]\n")
    assert _read_error(path).startswith("not valid JSON at line 2, column 301: ")


def test_replay_of_an_empty_file_says_so_and_fails(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "empty.txt"
    path.write_text("")
    assert main(["replay", "--check", str(path)]) != 0
    assert capsys.readouterr().err == f"splitpot replay: {path}: the file is empty\n"
