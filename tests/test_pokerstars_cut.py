"""A PokerStars file cut short in its last hand's summary (the summary block and the blank
lines after it mark a hand whole): the hand is listed as cut off, never read as a whole
hand that then disagrees with its replay, while a file that ends right after a whole
summary, as many real files do, reads whole. The first cut is the one Hypothesis found in
``test_cli_garbage.py::test_a_pokerstars_file_cut_anywhere``: ``Total pot 348`` left as
``Total pot 34``."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import pytest
from test_history_tournament import SUNDAY, pokerstars_text, tournament_hand

from splitpot.cli import main
from splitpot.history.pokerstars import read_pokerstars
from splitpot.history.replay import replay_record

CUT = "the hand is cut off in its summary"
LAST_TOTAL = "Total pot 348 | Rake 0"  # the sixth hand's, of seed 7
LAST_BOARD = "Board [9h 5c Ks Td 2d]"
LAST_FIRST_SEAT = (
    "Seat 1: Seat 1 (sensible) (big blind) showed [4s Kc As Tc] and won (348) with HI: two "
    "pair, Kings and Tens"
)
LAST_MUCK = "Seat 4: Seat 4 (random) mucked [Ah Qh Kh 9c]"
LAST_LINE = "Seat 6: Seat 6 (random) (small blind) folded on the Flop"


@pytest.fixture(scope="module")
def played(tmp_path_factory: pytest.TempPathFactory) -> str:
    """The file of ``test_cli_garbage``: six hands simulated with seed 7, each followed
    by PokerStars' blank lines."""
    path = tmp_path_factory.mktemp("cut") / "played.txt"
    with contextlib.redirect_stdout(io.StringIO()):
        assert main(["simulate", "--hands", "6", "--seed", "7", "--history-out", str(path)]) == 0
    text = path.read_text()
    summary = f"{LAST_TOTAL}\n{LAST_BOARD}\n{LAST_FIRST_SEAT}\n"
    assert text.endswith(f"{LAST_LINE}\n\n\n") and text.count(summary) == 1
    return text


def _before(text: str, line: str, kept: int | None = None) -> str:
    """``text`` up to ``line`` (the last time it occurs), with ``kept`` characters of it
    (all of it when None)."""
    at = text.rindex(line)
    return text[: at + (len(line) if kept is None else kept)]


def _cut_reason(text: str) -> str:
    """Reads a file whose sixth hand is cut: the five before it read whole and agree, the
    sixth is unreadable (not skipped); returns why."""
    hands, problems = read_pokerstars(text)
    assert [hand.id for hand in hands] == ["1", "2", "3", "4", "5"]
    assert all(replay_record(hand).agrees is True for hand in hands)
    (problem,) = problems
    assert (problem.hand_id, problem.skipped) == ("6", False)
    return problem.reason


def test_the_total_pot_cut_inside_its_amount_is_a_hand_cut_off(played: str, tmp_path: Path) -> None:
    """Hypothesis' cut: ``Total pot 34`` read as the total pot made the hand disagree with
    its replay (exit status 1); it is a hand cut off, and the five before it agree."""
    cut = _before(played, LAST_TOTAL, len("Total pot 34"))
    assert cut.endswith("*** SUMMARY ***\nTotal pot 34")
    assert _cut_reason(cut) == f"{CUT}: the file ends inside 'Total pot 34'"
    path = tmp_path / "cut.txt"
    path.write_text(cut)
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        assert main(["replay", "--check", "--json", str(path)]) == 0
    report = json.loads(out.getvalue())
    assert [hand["id"] for hand in report["hands"]] == ["1", "2", "3", "4", "5"]
    assert [(u["id"], u["skipped"]) for u in report["unreadable"]] == [("6", False)]


@pytest.mark.parametrize(
    ("line", "kept", "reason"),
    [
        (LAST_TOTAL, len("Total p"), f"{CUT}: the file ends inside 'Total p'"),
        (
            LAST_TOTAL,
            len("Total pot 348 | Rake"),
            f"{CUT}: the file ends inside 'Total pot 348 | Rake'",
        ),
        (
            LAST_MUCK,
            len("Seat 4: Seat 4 (random) mucked [Ah Qh K"),
            f"{CUT}: the file ends inside 'Seat 4: Seat 4 (random) mucked [Ah Qh K'",
        ),
        (
            LAST_LINE,
            len("Seat 6: Seat 6 (random) (small blind) folded on the Fl"),
            f"{CUT}: the file ends inside 'Seat 6: Seat 6 (random) (small blind) folded on the Fl'",
        ),
        (
            LAST_LINE,
            len("Seat 6: Seat 6 (ran"),
            f"{CUT}: the file ends inside 'Seat 6: Seat 6 (ran'",
        ),
        (LAST_MUCK, None, f"{CUT}, before the line of seat 5"),  # a whole line, seats to come
        ("*** SUMMARY ***\n", None, f"{CUT}, before the total pot"),
        (LAST_FIRST_SEAT, None, f"{CUT}, before the line of seat 2"),
        (f"{LAST_FIRST_SEAT}\n", None, f"{CUT}, before the line of seat 2"),
    ],
)
def test_a_summary_cut_in_a_line_or_between_lines_is_a_hand_cut_off(
    played: str, line: str, kept: int | None, reason: str
) -> None:
    """Cut inside ``Total pot``, inside a seat's line, or after a whole line with the
    summary's total pot or seat lines still to come."""
    assert _cut_reason(_before(played, line, kept)) == reason


def test_a_total_pot_without_its_rake_is_cut_short_newline_or_not(played: str) -> None:
    """PokerStars prints the rake on the total pot's line (``| Rake 0``): a line without
    it was cut, though a newline was written after the cut."""
    cut = _before(played, LAST_TOTAL, len("Total pot 34")) + "\n"
    assert _cut_reason(cut) == f"{CUT}: 'Total pot 34' has no rake"


@pytest.mark.parametrize(
    "ending",
    ["", "\n", "\r\n", "\n\n"],
    ids=["no newline", "a newline", "crlf", "a blank line"],
)
def test_a_file_ending_after_a_whole_summary_reads_whole(played: str, ending: str) -> None:
    """Real files end right after the last seat's line, with or without a newline: the
    summary is whole, every hand reads and agrees."""
    text = played.rstrip() + ending
    hands, problems = read_pokerstars(text.replace("\n", "\r\n") if ending == "\r\n" else text)
    assert problems == []
    assert [hand.id for hand in hands] == ["1", "2", "3", "4", "5", "6"]
    assert all(replay_record(hand).agrees is True for hand in hands)


@pytest.mark.parametrize("ending", [f"{LAST_TOTAL}\n", LAST_BOARD, f"{LAST_BOARD}\n"])
def test_a_summary_of_the_pot_alone_reads_whole(played: str, ending: str) -> None:
    """A summary without seats' lines, as a hand written short: its total pot with the
    rake, and the board when the file stops inside it without a newline, whole."""
    hands, problems = read_pokerstars(_before(played, ending))
    assert problems == [] and [hand.id for hand in hands] == ["1", "2", "3", "4", "5", "6"]
    assert all(replay_record(hand).agrees is True for hand in hands)


def test_a_piece_of_the_next_hands_first_line_leaves_the_hand_before_whole(played: str) -> None:
    """Cut inside ``PokerStars Hand #6:``: the blank lines before it ended the fifth hand,
    which reads whole; the piece is no hand."""
    cut = _before(played, "PokerStars Hand #6:", len("PokerStars Hand "))
    hands, problems = read_pokerstars(cut)
    assert ([hand.id for hand in hands], problems) == (["1", "2", "3", "4", "5"], [])


def test_no_cut_in_the_last_summary_reads_as_a_hand_that_disagrees(played: str) -> None:
    """The sixth hand cut at every character of its summary: cut off, but where the
    summary is whole (its pot alone, or every seat's line) and the hand agrees."""
    hand = played[played.rindex("PokerStars Hand #6:") :].rstrip()
    summary = hand.index("*** SUMMARY ***")
    whole = []
    for at in range(summary, len(hand) + 1):
        read, problems = read_pokerstars(hand[:at])
        assert len(read) + len(problems) == 1
        if read:
            whole.append(hand[:at])
            assert replay_record(read[0]).agrees is True
            assert read[0].outcome is not None and read[0].outcome.total_pot == 348
    assert [text[text.rindex("\n", 0, len(text) - 1) + 1 :] for text in whole] == [
        f"{LAST_TOTAL}\n",
        LAST_BOARD,
        f"{LAST_BOARD}\n",
        LAST_LINE,
    ]


def test_a_tournament_name_cut_short_is_a_hand_cut_off() -> None:
    """RULES.md 8: splitpot's ``Tournament name:`` line closes a tournament hand's summary;
    a file stopping inside it cannot tell the whole name, and the hand is cut off. With
    its newline the hand is whole."""
    record, hand = tournament_hand()
    text = pokerstars_text(record, hand).rstrip()
    assert text.endswith("\nTournament name: Sunday Hi/Lo")
    (problem,) = read_pokerstars(text[: -len(" Hi/Lo")])[1]
    assert problem.reason == f"{CUT}: the file ends inside 'Tournament name: Sunday'"
    (read,), problems = read_pokerstars(text + "\n")
    assert problems == [] and read.tournament == SUNDAY
