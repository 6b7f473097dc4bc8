"""Hand histories of tournament hands (RULES.md 8): a hand dealt by a real tournament table
(antes, tournament chips) carries its TournamentRecord through splitpot JSON, PokerStars
text (the header PokerStars prints: the tournament's number and entry, the level in Roman
numerals, the table ``'<tournament> <table>'``) and OHH (``tournament_info``); the
corpus's real PokerStars tournament hands read with their tournament; a JSON document
whose tournament is bad is refused, naming the field."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import jsonschema_rs
import pytest
from corpus import corpus_files
from test_ohh import SCHEMA

from splitpot.cards import Deck, parse_cards
from splitpot.cli import main
from splitpot.engine import Action, ActionKind, Hand
from splitpot.history import HandRecord, HistoryError
from splitpot.history.files import read_history
from splitpot.history.model import TournamentRecord
from splitpot.history.ohh import ohh_document, read_tournament
from splitpot.history.pokerstars import read_pokerstars, roman, roman_number, write_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.splitpot_json import dumps, from_json, to_json
from splitpot.history.table_log import record_of
from splitpot.rules import PotLimit, Variant
from splitpot.table import Table, TableConfig

STARTED = datetime(2026, 3, 1, 20, 30, tzinfo=UTC)
SUNDAY = TournamentRecord(id=77, name="Sunday Hi/Lo", buy_in=100, fee=10, level=14, table=3)
FREEROLL = TournamentRecord(id=78, name="", buy_in=0, fee=0, level=1, table=1)
SERIAL = 48213


def tournament_hand(tournament: TournamentRecord = SUNDAY) -> tuple[HandRecord, Hand]:
    """A hand of a tournament table (RULES.md 8: the absent dealt in, antes of 5 at the
    10/20 level, 1500 chips each): Ann on the button calls, the blinds check it down and
    every hand is shown."""
    config = TableConfig(
        Variant.O8, PotLimit(10, 20), seats=6, min_buy_in=1, ante=5, tournament=True
    )
    table = Table(config)
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        table.sit(seat, name, 1500)
    table.deal(Deck(9).cards, draw=parse_cards("As 2c 2d"))  # Ann draws the button
    while table.hand is not None:
        to_act = table.seat_to_act
        assert to_act is not None
        legal = table.hand.hand.legal_actions()
        if legal.show:
            table.act(to_act, Action.show())
        else:
            table.act(to_act, Action.check() if legal.check else Action.call())
    played = table.history[-1]
    return record_of(played, serial=SERIAL, tournament=tournament), played.hand


def pokerstars_text(record: HandRecord, hand: Hand) -> str:
    return write_pokerstars(record, hand, started=STARTED, hero=0, max_seats=6)


def as_pokerstars_carries(record: HandRecord) -> HandRecord:
    """The record as PokerStars text carries it: numbered by its serial (the text's only
    id), the game by PokerStars' name, no deck (the boards and the hands seen instead),
    the rake as recorded ("Rake 0")."""
    return replace(
        record,
        id=str(record.serial),
        serial=None,
        game="Omaha Hi/Lo Pot Limit",
        deck=None,
        rake=0,
    )


# ------------------------------------------------------------------ each format


def test_the_hand_is_a_tournament_hand_with_antes_in_tournament_chips() -> None:
    record, hand = tournament_hand()
    assert record.tournament == SUNDAY and record.serial == SERIAL
    assert record.config.ante == 5
    assert [(p.kind.value, p.amount) for p in record.posts][:3] == [("ante", 5)] * 3
    assert hand.result is not None and sum(hand.result.stacks) == 4500


def test_splitpot_json_carries_the_tournament_and_reads_back_equal() -> None:
    record, hand = tournament_hand()
    document = to_json(record, hand)
    assert document["tournament"] == {
        "id": 77,
        "name": "Sunday Hi/Lo",
        "buy_in": 100,
        "fee": 10,
        "level": 14,
        "table": 3,
    }
    text = dumps(document)
    back = from_json(json.loads(text))
    assert replace(back, outcome=None, game=record.game) == record  # "o8": the game's code
    assert dumps(to_json(back, replay_record(back).hand)) == text


def test_a_cash_hand_has_no_tournament_in_json() -> None:
    record, hand = tournament_hand()
    cash = replace(record, tournament=None)
    document = to_json(cash, hand)
    assert "tournament" not in document
    assert from_json(json.loads(dumps(document))).tournament is None


def test_pokerstars_text_reads_back_to_an_equal_record_that_replays_alike() -> None:
    """What PokerStars text carries reads back equal, the tournament and the antes (the
    table's ante) included; the actions are the record's, then the shows the text prints;
    the replay agrees with the text and ends at the same stacks."""
    record, hand = tournament_hand()
    (read,), problems = read_pokerstars(pokerstars_text(record, hand))
    assert problems == []
    assert read.tournament == SUNDAY
    betting = tuple(a for a in read.actions if a.action.kind is not ActionKind.SHOW)
    assert replace(read, outcome=None, actions=betting) == as_pokerstars_carries(record)
    replayed = replay_record(read)
    assert replayed.agrees is True
    assert replayed.hand.result is not None and hand.result is not None
    assert replayed.hand.result.stacks == hand.result.stacks


def test_pokerstars_header_lines_are_those_pokerstars_prints() -> None:
    record, hand = tournament_hand()
    lines = pokerstars_text(record, hand).strip().splitlines()
    assert lines[:10] == [
        "PokerStars Hand #48213: Tournament #77, 100+10 Omaha Hi/Lo Pot Limit - Level XIV "
        "(10/20) - 2026/03/01 20:30:00 UTC [2026/03/01 15:30:00 ET]",
        "Table '77 3' 6-max Seat #1 is the button",
        "Seat 1: Ann (1500 in chips)",
        "Seat 2: Bob (1500 in chips)",
        "Seat 3: Cy (1500 in chips)",
        "Ann: posts the ante 5",
        "Bob: posts the ante 5",
        "Cy: posts the ante 5",
        "Bob: posts small blind 10",
        "Cy: posts big blind 20",
    ]
    assert "Total pot 75 | Rake 0" in lines
    assert lines[-1] == "Tournament name: Sunday Hi/Lo"
    assert not any("$" in line for line in lines)  # tournament chips, not money


def test_a_freeroll_is_printed_as_pokerstars_prints_one_and_has_no_name_line() -> None:
    record, hand = tournament_hand(FREEROLL)
    text = pokerstars_text(record, hand)
    assert text.startswith(
        "PokerStars Hand #48213: Tournament #78, Freeroll  Omaha Hi/Lo Pot Limit - Level I "
        "(10/20) - "
    )
    assert text.splitlines()[1] == "Table '78 1' 6-max Seat #1 is the button"
    assert "Tournament name" not in text
    (read,), _ = read_pokerstars(text)
    assert read.tournament == FREEROLL


def test_tournament_chips_are_printed_without_the_rooms_currency() -> None:
    record, hand = tournament_hand()
    text = pokerstars_text(replace(record, unit="0.01", currency="$"), hand)
    assert "Seat 1: Ann (1500 in chips)" in text and "$" not in text


@pytest.mark.parametrize("name", ["Two\nlines", " Spaced", "Spaced ", "Para\u2029graph"])
def test_a_name_pokerstars_text_cannot_carry_is_refused_naming_it(name: str) -> None:
    record, hand = tournament_hand(replace(SUNDAY, name=name))
    with pytest.raises(HistoryError, match="cannot carry the tournament name"):
        pokerstars_text(record, hand)


def test_replay_check_reads_a_file_of_tournament_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The ``splitpot replay --check`` path: the file reads as PokerStars text, each
    hand with its tournament, and every hand agrees."""
    record, hand = tournament_hand()
    other, _ = tournament_hand(replace(SUNDAY, level=15, table=4))
    path = tmp_path / "tournament.txt"
    path.write_text(
        pokerstars_text(record, hand) + pokerstars_text(replace(other, serial=SERIAL + 1), hand)
    )
    history = read_history(path)
    assert history.format == "pokerstars"
    assert [r.tournament for r in history.hands] == [SUNDAY, replace(SUNDAY, level=15, table=4)]
    assert main(["replay", "--check", str(path)]) == 0
    assert capsys.readouterr().out.endswith("2 of 2 hands agree with their files\n")


@pytest.mark.parametrize("level", [*range(1, 60), 99, 444, 1994, 3999, 4000])
def test_levels_are_roman_numerals_both_ways(level: int) -> None:
    assert roman_number(roman(level)) == level


def test_roman_numerals_as_written() -> None:
    assert [roman(n) for n in (1, 4, 9, 14, 40, 90, 400, 1994)] == [
        "I", "IV", "IX", "XIV", "XL", "XC", "CD", "MCMXCIV",
    ]  # fmt: skip
    assert [roman_number(text) for text in ("IIII", "VX", "IC", "", "XIIV")] == [None] * 5
    with pytest.raises(HistoryError, match="levels count from 1"):
        roman(0)


def test_a_tournament_header_without_a_level_or_its_table_is_reported() -> None:
    record, hand = tournament_hand()
    text = pokerstars_text(record, hand)
    no_level = text.replace("Level XIV ", "Level XIIII ")
    (problem,) = read_pokerstars(no_level)[1]
    assert "has no level" in problem.reason and not problem.skipped
    elsewhere = text.replace("Table '77 3'", "Table 'Sunday 3'")
    (problem,) = read_pokerstars(elsewhere)[1]
    assert problem.reason == (
        "the table 'Sunday 3' of tournament #77 is not named '<tournament> <table>'"
    )


# ------------------------------------------------------------------ OHH


def test_ohh_writes_the_specs_tournament_info_and_reads_it_back() -> None:
    record, hand = tournament_hand()
    document = ohh_document(record, hand, started=STARTED, table="ignored", seats=6)
    jsonschema_rs.validate(SCHEMA, document)
    ohh = document["ohh"]
    assert ohh["tournament"] is True
    assert ohh["tournament_info"] == {
        "tournament_number": "77",
        "name": "Sunday Hi/Lo",
        "currency": "XPM",
        "buyin_amount": 100,
        "fee_amount": 10,
        "splitpot_level": 14,
    }
    assert (ohh["table_name"], ohh["currency"], ohh["ante_amount"]) == ("77 3", "XPM", 5)
    assert read_tournament(json.loads(json.dumps(document))) == SUNDAY


def test_an_ohh_cash_hand_has_no_tournament() -> None:
    record, hand = tournament_hand()
    document = ohh_document(replace(record, tournament=None), hand, started=STARTED)
    assert document["ohh"]["tournament"] is False and "tournament_info" not in document["ohh"]
    assert read_tournament(document) is None


def _ohh_with(change: dict[str, Any], info: dict[str, Any] | None = None) -> dict[str, Any]:
    record, hand = tournament_hand()
    document = ohh_document(record, hand, started=STARTED)
    document["ohh"] |= change
    if info is not None:
        document["ohh"]["tournament_info"] |= info
    return document


@pytest.mark.parametrize(
    ("change", "info", "message"),
    [
        ({"tournament": "yes"}, None, "ohh.tournament is 'yes', not true or false"),
        ({"tournament_info": []}, None, "ohh.tournament_info is [], not an object"),
        ({}, {"tournament_number": "T#77"}, "ohh.tournament_info.tournament_number is 'T#77'"),
        ({}, {"buyin_amount": 1.5}, "ohh.tournament_info.buyin_amount is 1.5"),
        ({}, {"splitpot_level": 0}, "ohh.tournament_info.splitpot_level is 0"),
        ({"table_name": "Sunday 3"}, None, "ohh.table_name is 'Sunday 3'"),
    ],
)
def test_a_bad_ohh_tournament_is_refused_naming_the_field(
    change: dict[str, Any], info: dict[str, Any] | None, message: str
) -> None:
    with pytest.raises(HistoryError, match=f"^{re.escape(message)}"):
        read_tournament(_ohh_with(change, info))


def test_an_ohh_tournament_without_a_field_names_it() -> None:
    document = _ohh_with({})
    del document["ohh"]["tournament_info"]["fee_amount"]
    with pytest.raises(
        HistoryError, match=r"^ohh\.tournament_info: the field 'fee_amount' is missing$"
    ):
        read_tournament(document)


# ------------------------------------------------------------------ bad JSON


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        (None, "77", "tournament is '77', not an object or null"),
        ("id", "77", "tournament.id is '77', not a whole number"),
        ("id", 0, "tournament.id is 0, not a number of 1 to 30 digits"),
        ("id", 10**30, f"tournament.id is {10**30}, not a number of 1 to 30 digits"),
        ("name", 5, "tournament.name is 5, not a string"),
        ("buy_in", -1, "tournament.buy_in is -1, not from 0 to"),
        ("fee", 2.5, "tournament.fee is 2.5, not a whole number"),
        ("level", 0, "tournament.level is 0, not from 1 to"),
        ("table", True, "tournament.table is True, not a whole number"),
    ],
)
def test_a_bad_json_tournament_is_refused_naming_the_field(
    field: str | None, value: object, message: str
) -> None:
    record, hand = tournament_hand()
    document = to_json(record, hand)
    if field is None:
        document["tournament"] = value
    else:
        document["tournament"][field] = value
    with pytest.raises(HistoryError, match=f"^{re.escape(message)}"):
        from_json(document)


@pytest.mark.parametrize("field", ["id", "name", "buy_in", "fee", "level", "table"])
def test_a_json_tournament_without_a_field_names_it(field: str) -> None:
    record, hand = tournament_hand()
    document = to_json(record, hand)
    del document["tournament"][field]
    with pytest.raises(HistoryError, match=f"^tournament: the field '{field}' is missing$"):
        from_json(document)


def test_a_null_json_tournament_is_a_cash_hand() -> None:
    record, hand = tournament_hand()
    document = to_json(record, hand) | {"tournament": None}
    assert from_json(document).tournament is None


# ------------------------------------------------------------------ the corpus


def _corpus_hands(path_end: str) -> list[HandRecord]:
    path = next((p for p in corpus_files("pokerstars") if str(p).endswith(path_end)), None)
    if path is None:
        pytest.skip(f"the shared corpus has no {path_end}")
    history = read_history(path)
    assert [u.reason for u in history.unreadable if not u.skipped] == []
    return history.hands


def test_a_corpus_tournament_hand_reads_with_its_tournament_and_agrees() -> None:
    """``$11+$1 USD``: buy-in and fee in cents of the entry's money, the entry as written
    kept beside; level XV; table 23 of tournament 18272685271857837393; antes of 1000."""
    (record,) = _corpus_hands("tour/Stars/Flop/PLO8-6max-USD-11-1-202105.Chico.Converted.txt")
    assert record.tournament == TournamentRecord(18272685271857837393, "", 1100, 100, 15, 23)
    assert record.extra == {"buy_in": "$11+$1 USD"}
    assert (record.unit, record.currency, record.config.ante) == ("1", "", 1000)
    assert replay_record(record).agrees is True


def test_a_corpus_knockout_keeps_its_bounty_in_the_entry_as_written() -> None:
    """``$1.08+$0.27+$0.15 USD``: the buy-in, the bounty (neither prize pool nor fee) and
    the fee; the levels rise through the file."""
    hands = _corpus_hands("tour/Stars/Flop/NLO8-USD-STT-201109.Knockout.sample.txt")
    assert len(hands) == 73
    first = hands[0].tournament
    assert first == TournamentRecord(447493868, "", 108, 15, 1, 1)
    assert {h.extra["buy_in"] for h in hands} == {"$1.08+$0.27+$0.15 USD"}
    levels = [h.tournament.level for h in hands if h.tournament is not None]
    assert levels == sorted(levels) and levels[-1] > 1
    assert all(replay_record(h).agrees is True for h in hands)


def test_a_corpus_home_game_shootout_has_an_entry_of_chips_and_a_match_round() -> None:
    """``{Dazzle's Room} Tournament #743144019, 100+9 8-Game (...) - Match Round I, Level
    I``: an entry of play chips, nothing kept beside it."""
    hands = _corpus_hands("tour/Stars/Mixed/8-Game-2max-STT-play-100-201306.homeGame.shootout.txt")
    assert hands and all(h.extra == {} for h in hands)
    assert {
        (h.tournament.id, h.tournament.buy_in, h.tournament.fee) for h in hands if h.tournament
    } == {(743144019, 100, 9)}
