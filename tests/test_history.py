"""Hand histories in and out: splitpot JSON, PHH, PokerStars text, and replay."""

import json
from pathlib import Path

import pytest
from corpus import corpus_files
from engine_helpers import deal, play

from splitpot.cli import main
from splitpot.engine import Action
from splitpot.history import HandRecord, HistoryError, PlayerRecord, RecordedAction
from splitpot.history.files import read_history
from splitpot.history.phh import EXTENSION, read_phh, write_phh
from splitpot.history.pokerstars import read_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.splitpot_json import dumps, from_json, to_json
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Variant

HAND = """\
PokerStars Hand #1: Omaha Hi/Lo Limit ($2/$4 USD) - 2024/01/01 12:00:00 ET
Table 'Test' 6-max Seat #1 is the button
Seat 1: Ann ($100 in chips)
Seat 2: Bob ($100 in chips)
Seat 3: Cy ($100 in chips)
Bob: posts small blind $1
Cy: posts big blind $2
*** HOLE CARDS ***
Ann: calls $2
Bob: calls $1
Cy: checks
*** FLOP *** [Ad 8c 3h]
Bob: bets $2
Cy: calls $2
Ann: calls $2
*** TURN *** [Ad 8c 3h] [Kd]
Bob: bets $4
Cy: calls $4
Ann: calls $4
*** RIVER *** [Ad 8c 3h Kd] [9s]
Bob: checks
Cy: checks
Ann: checks
*** SHOW DOWN ***
Bob: shows [4h 2d Kc Qc] (HI: a pair of Kings; LO: 8,4,3,2,A)
Cy: mucks hand
Ann: shows [As Ah 4d 2c] (HI: three of a kind, Aces; LO: 8,4,3,2,A)
Ann collected $12 from pot
Bob collected $6 from pot
Ann collected $6 from pot
*** SUMMARY ***
Total pot $24 | Rake $0
Board [Ad 8c 3h Kd 9s]
"""


def test_pokerstars_rule_book_hand_reads_and_agrees() -> None:
    (record,), problems = read_pokerstars(HAND)
    assert problems == []
    assert record.names == ("Ann", "Bob", "Cy") and record.button == 0
    assert record.unit == "0.01" and record.players[0].stack == 10000
    replayed = replay_record(record)
    assert replayed.agrees is True
    assert replayed.hand.stacks == (11000, 9800, 9200)


def test_pokerstars_disagreement_is_reported_with_both_sides() -> None:
    (record,), _ = read_pokerstars(HAND.replace("Bob collected $6", "Bob collected $7"))
    replayed = replay_record(record)
    assert replayed.agrees is False
    what = {(d.what, d.file, d.rules) for d in replayed.differences}
    assert ("chips back (collected + returned) of Bob", "700", "600") in what


@pytest.mark.parametrize(
    ("change", "reason"),
    [
        (("Bob: bets $4", "Bob: wiggles $4"), "'wiggles $4' is not an action splitpot knows"),
        (("[Ad 8c 3h]", "[Ad 8c 3x]"), "'3x' at position 3 is not a card"),
        (("*** SUMMARY ***", "*** SOMETHING ***"), "the hand is cut off before its summary"),
        (
            ("Omaha Hi/Lo Limit", "Hold'em No Limit"),
            "Hold'em No Limit is not a game splitpot plays",
        ),
    ],
)
def test_pokerstars_bad_hands_are_reported_and_reading_goes_on(
    change: tuple[str, str], reason: str
) -> None:
    broken = HAND.replace(*change).replace("PokerStars Hand #1", "PokerStars Hand #2")
    hands, problems = read_pokerstars(broken + "\n\n" + HAND)
    assert [r.id for r in hands] == ["1"]
    assert [(p.hand_id, p.reason) for p in problems] == [("2", reason)]


def test_pokerstars_out_of_turn_action_cannot_be_replayed() -> None:
    (record,), _ = read_pokerstars(
        HAND.replace("Ann: calls $2\nBob: calls $1", "Bob: calls $1\nAnn: calls $2")
    )
    with pytest.raises(HistoryError, match="action 1 \\(Bob: call\\): it is Ann's turn to act"):
        replay_record(record)


def _record_from_hand() -> HandRecord:
    config = GameConfig(Variant.O8, PotLimit(1, 2), rake=Rake(5, 3))
    hand = play(
        deal(config, [100, 90, 80], ["AsAh4d2c", "4h2dKcQc", "KsQsJsTs"], "Ad8c3hKd9s"),
        "raise 7",
        "call",
        "call",
    )
    players = tuple(
        PlayerRecord(name, seat, stack)
        for name, seat, stack in zip("ABC", (1, 4, 6), (100, 90, 80), strict=True)
    )
    return HandRecord(
        id="42",
        game="o8",
        config=config,
        players=players,
        button=0,
        posts=hand.posts,
        holes=tuple(hand.holes),
        board=tuple(c for c in hand.deck[13:16] + hand.deck[17:18] + hand.deck[19:20] if c),
        actions=tuple(
            RecordedAction(p, Action.parse(a))
            for p, a in [
                (0, "raise 7"),
                (1, "call"),
                (2, "call"),
                (1, "bet 21"),
                (2, "fold"),
                (0, "call"),
                (1, "check"),
                (0, "check"),
                (1, "check"),
                (0, "check"),
            ]
        ),
        deck=hand.deck,
    )


def test_splitpot_json_round_trips_exactly() -> None:
    record = _record_from_hand()
    replayed = replay_record(record)
    text = dumps(to_json(record, replayed.hand))
    again = from_json(json.loads(text))
    assert dumps(to_json(again, replay_record(again).hand)) == text
    assert replay_record(again).agrees is True  # its own result checks out


def test_splitpot_json_errors_name_the_problem() -> None:
    doc = to_json(_record_from_hand())
    with pytest.raises(HistoryError, match="not a splitpot hand"):
        from_json({**doc, "format": "other"})
    with pytest.raises(HistoryError, match="needs the field 'players'"):
        from_json({k: v for k, v in doc.items() if k != "players"})
    with pytest.raises(HistoryError, match="'Zz' at position 1 is not a card"):
        from_json({**doc, "board": "ZzKd3h"})


def test_phh_round_trip_of_every_wsop_hand() -> None:
    for path in corpus_files("phh"):
        record = read_phh(path.read_text(), path.stem)
        text = write_phh(record)
        again = read_phh(text)
        assert replay_record(again).hand.stacks == replay_record(record).hand.stacks
        assert replay_record(again).agrees is True
        assert write_phh(again) == text


def test_phh_extension_for_games_without_a_code() -> None:
    record = _record_from_hand()  # pot-limit Omaha Hi/Lo: PHH has no code for it
    text = write_phh(record)
    assert f'variant = "{EXTENSION}"' in text
    assert 'splitpot_variant = "o8"' in text and 'splitpot_structure = "pot-limit"' in text
    again = read_phh(text)
    assert again.config.variant is Variant.O8 and isinstance(again.config.betting, PotLimit)
    assert "splitpot_rake = 3" in text  # PHH has no rake field: the extension records it
    ours, theirs = replay_record(record), replay_record(again)
    by_name = dict(zip(record.names, ours.hand.stacks, strict=True))
    assert dict(zip(again.names, theirs.hand.stacks, strict=True)) == by_name
    assert theirs.agrees is True


def test_phh_unknown_variant_is_skipped_with_a_reason() -> None:
    from splitpot.history import UnsupportedHand

    with pytest.raises(UnsupportedHand, match="variant 'NT' is not an Omaha game"):
        read_phh(
            "variant = 'NT'\nantes = [0, 0]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n"
            "starting_stacks = [10, 10]\nactions = []\n"
        )


def test_format_detection_and_unreadable_files(tmp_path: Path) -> None:
    bad = tmp_path / "notes.txt"
    bad.write_text("hello\n")
    with pytest.raises(HistoryError, match="not a hand history splitpot reads"):
        read_history(bad)
    stars = tmp_path / "hands.txt"
    stars.write_bytes(b"\xef\xbb\xbf" + HAND.replace("\n", "\r\n").encode())
    history = read_history(stars)
    assert history.format == "pokerstars" and len(history.hands) == 1


def test_replay_cli_exit_status_and_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good, wrong, bad = tmp_path / "good.txt", tmp_path / "wrong.txt", tmp_path / "bad.txt"
    good.write_text(HAND)
    wrong.write_text(HAND.replace("Bob collected $6", "Bob collected $7"))
    bad.write_text("not a history")
    assert main(["replay", "--check", str(good)]) == 0
    out = capsys.readouterr().out
    assert "Ann wins the high half of the pot, $12, with three of a kind, Aces" in out
    assert "Bob and Ann split the low half of the pot, $6 each, with 8,4,3,2,A" in out
    assert "agrees with the file" in out
    assert main(["replay", "--check", str(wrong)]) == 1
    out = capsys.readouterr().out
    assert (
        "DIFFERS: chips back (collected + returned) of Bob: the file says 700, the rules give 600"
        in out
    )
    assert main(["replay", str(bad)]) == 2
    assert "not a hand history" in capsys.readouterr().err
    assert main(["replay", "--json", "--check", str(good)]) == 0
    (entry,) = json.loads(capsys.readouterr().out)["hands"]
    assert entry["id"] == "1" and entry["agrees"] is True
    assert entry["collected"] == {"Ann": 1800, "Bob": 600, "Cy": 0}
    assert entry["finishing_stacks"] == {"Ann": 11000, "Bob": 9800, "Cy": 9200}
    assert entry["pots"][0]["amount"] == 2400
    assert main(["replay", "--json", str(good)]) == 0
    assert json.loads(capsys.readouterr().out)["hands"][0]["agrees"] is None


def test_structures_in_json_round_trip() -> None:
    from splitpot.history.splitpot_json import _game, game_json

    for config in (
        GameConfig(Variant.BIGO, FixedLimit(10, 20, cap=5, cap_heads_up=False)),
        GameConfig(Variant.OMAHA, NoLimit(5, 10), ante=1),
        GameConfig(Variant.HILO_NO_QUALIFIER, PotLimit(1, 2, 4), rake=Rake(5, 3)),
    ):
        assert _game(game_json(config)) == config


def test_a_phhs_file_holds_several_hands(tmp_path: Path) -> None:
    paths = corpus_files("phh")[:2]
    sections = [f"[{path.stem}]\n{path.read_text()}" for path in paths]
    both = tmp_path / "two.phhs"
    both.write_text("\n".join(sections))
    history = read_history(both)
    assert history.format == "phh" and history.unreadable == []
    assert [r.id for r in history.hands] == [read_phh(p.read_text()).id for p in paths]
    assert all(replay_record(record).agrees for record in history.hands)
