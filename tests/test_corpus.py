"""Real hands (../shared/corpus): replaying them must agree with them to the chip."""

import json

import pytest
from corpus import CORPUS, corpus_files

from splitpot.cli import main
from splitpot.history.files import read_history
from splitpot.history.replay import replay_record


def _replays(kind: str) -> list[tuple[str, object]]:
    results = []
    for path in corpus_files(kind):
        try:
            history = read_history(path)
        except ValueError:
            continue  # not a hand history (fpdb's expected-result files, summaries)
        for record in history.hands:
            results.append((f"{path.name} #{record.id}", replay_record(record)))
    return results


def test_every_wsop_phh_hand_ends_at_its_finishing_stacks() -> None:
    replays = _replays("phh")
    assert len(replays) == 21
    disagreeing = [name for name, r in replays if not r.agrees]  # type: ignore[attr-defined]
    assert disagreeing == []


def test_every_readable_pokerstars_omaha_hand_agrees_to_the_chip() -> None:
    replays = _replays("pokerstars")
    ids = {name.split("#")[1] for name, _ in replays}
    assert len(ids) >= 141  # 119 Omaha Hi/Lo, 2 five-card Hi/Lo, 20 Omaha high
    disagreeing = [
        (name, r.differences)  # type: ignore[attr-defined]
        for name, r in replays
        if r.agrees is not True  # type: ignore[attr-defined]
    ]
    assert disagreeing == []


def test_other_games_and_broken_hands_are_reported_with_a_reason() -> None:
    reasons: dict[str, int] = {}
    for path in corpus_files("pokerstars"):
        try:
            history = read_history(path)
        except ValueError:
            continue
        for problem in history.unreadable:
            reasons[problem.reason] = reasons.get(problem.reason, 0) + 1
    assert reasons["Hold'em No Limit is not a game splitpot plays"] > 0
    assert reasons["Razz Limit is not a game splitpot plays"] > 0
    assert reasons["6 Card Omaha Pot Limit is not a game splitpot plays"] > 0
    assert reasons["the hand is cut off before its summary"] == 3
    assert reasons["the hand was cancelled"] == 1


def _one(path_end: str) -> object:
    path = next(p for p in corpus_files("pokerstars") if str(p).endswith(path_end))
    (record,) = read_history(path).hands
    return replay_record(record)


def test_quartered_hand_odd_chips_high_half_and_first_left_of_the_button() -> None:
    """Corpus README: main pot 4765 pays 2383 high and 1191 + 1191 low; side pot 86 pays
    43 high, 22 + 21 low."""
    replayed = _one("PLO8-9max-USD-STT-5.00-200505.hero.quartered.txt")
    names = replayed.record.names  # type: ignore[attr-defined]
    awards = [
        (a.pot, a.share.value, names[a.player], a.amount) for a in replayed.hand.result.awards
    ]  # type: ignore[attr-defined]
    assert awards == [
        (1, "high", "Hero", 43),
        (1, "low", "Player5", 22),
        (1, "low", "Hero", 21),
        (0, "high", "Player2", 2383),
        (0, "low", "Player5", 1191),
        (0, "low", "Hero", 1191),
    ]


def test_the_board_run_twice_replays_to_the_chip_each_run_paying_its_half() -> None:
    """RULES.md 7: hand 134782498345, all in before the flop and run twice: the pot less
    the $2 rake is cut in two, $8385.36 each; Hero's full house wins the first run,
    Player0's pair of Aces the second."""
    replayed = _one("PLO-6max-USD-200-400-201505.rit.leaves.table.txt")
    record, hand = replayed.record, replayed.hand  # type: ignore[attr-defined]
    assert replayed.agrees is True  # type: ignore[attr-defined]
    assert record.runs == 2 and hand.runs == 2
    assert [str(c) for c in record.second_board] == ["2d", "6c", "7h", "Qh", "8d"]
    awards = [(a.board, record.names[a.player], a.amount) for a in hand.result.awards]
    assert awards == [(0, "Hero", 838536), (1, "Player0", 838536)]


def test_short_all_in_raise_does_not_reopen_limit_betting() -> None:
    """Corpus README: 82.50 on a 300 bet is less than half a bet."""
    replayed = _one(
        "HEAD-9160081/HandHistories.Parser.UnitTests/SampleHandHistories/PokerStars/CashGame/HandActionTests/NeedsRaiseAdjusting.txt"
    )
    assert replayed.agrees is True  # type: ignore[attr-defined]
    assert replayed.hand.result.rake == 500  # type: ignore[attr-defined]


def test_replay_check_over_the_whole_corpus_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    files = [str(p) for p in corpus_files("phh")] + [
        str(p)
        for p in corpus_files("pokerstars")
        if p.suffix == ".txt" and "summaries" not in str(p)
    ]
    files = [f for f in files if "RIO" not in f and "PokerMaster" not in f]
    assert main(["replay", "--check", "--json", *files]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert len(hands) >= 165
    assert all(hand["agrees"] is True for hand in hands)
    assert CORPUS.is_dir()
