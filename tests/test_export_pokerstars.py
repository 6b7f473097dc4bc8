"""Exports that other tools read (issue 20): every hand's serial, unique in the room and
over its processes; PokerStars text as PokerStars writes it (the hand number, the time in
Eastern Time beside UTC, position tags, the hi/lo summary lines); a file of many hands
that ``splitpot replay --check`` reads back hand for hand; and a record whose hole cards
contradict its deck refused, naming the cards."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from alembic import command
from alembic.config import Config
from corpus import corpus_files
from engine_helpers import deal, play
from room_helpers import Client, Frame, RoomServer, is_event, seated_game
from room_helpers import play as play_turns
from room_helpers import play_hands as play_room_hands
from store_fixtures import SETUP, at_once

from splitpot.bots import make_bot
from splitpot.cli import main
from splitpot.engine import Action, Hand
from splitpot.history import HistoryError
from splitpot.history.pokerstars import pokerstars_time, read_pokerstars, write_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.splitpot_json import dumps, from_json, to_json
from splitpot.history.table_log import hand_record, record_of
from splitpot.rules import FixedLimit, GameConfig, Variant
from splitpot.session import table_config
from splitpot.simulation import simulate
from splitpot.store import HandSelection, Store
from splitpot.store.database import MIGRATIONS, WRITE
from splitpot.table import TableHand

LIMIT = GameConfig(Variant.O8, FixedLimit(2, 4))
HEADER = re.compile(r"^PokerStars Hand #(\d+):  ", re.MULTILINE)
CARD = re.compile(r"\b[2-9TJQKA][cdhs]\b")


def _over(hand: Hand) -> Hand:
    """The hand played out: a hand that need not show is mucked."""
    while not hand.is_over:
        hand.apply(Action.muck())
    return hand


# ------------------------------------------------------------------ the serial


def _table(store: Store, name: str) -> str:
    host = store.create_guest("Host").player.id
    table, _ = store.create_table(name, {"seats": 6, "variant": "o8"}, host)
    return table.id


def test_every_hand_gets_a_serial_unique_in_the_room_beside_its_text_id(
    make_store: Callable[..., Store],
) -> None:
    """Two processes on one database (two stores) start hands at two tables: each hand
    keeps its text id ("<table>-<number>") and gets the room's next serial, which every
    read of the hand gives back."""
    first, second = make_store(), make_store()
    tables = [_table(first, "One"), _table(second, "Two")]
    started = []
    for _ in range(3):
        for store, table in zip((first, second), tables, strict=True):
            hand = store.start_hand(table, SETUP)
            started.append(hand)
            store.cancel_hand(hand.id)
    serials = [hand.serial for hand in started]
    assert serials == sorted(serials) and len(set(serials)) == 6
    assert [hand.id for hand in started[:2]] == [f"{tables[0]}-1", f"{tables[1]}-1"]
    again = started[-1]
    assert second.hand(again.id).serial == again.serial
    assert [h.serial for h in first.table_hands(tables[0])] == serials[0::2][::-1]
    playing = first.start_hand(tables[0], SETUP)
    assert first.start_hand(tables[0], SETUP) == playing  # sent again: the same serial
    assert second.hand_log(playing.id).serial == playing.serial > max(serials)


def test_processes_starting_hands_at_once_never_share_a_serial(
    make_store: Callable[..., Store],
) -> None:
    """Several processes' stores start hands at the same moment, each at its own tables:
    the database gives every hand its own serial."""
    stores = [make_store() for _ in range(3)]
    tables = [[_table(store, f"T{i}") for i in range(2)] for store in stores]
    serials: list[int] = []

    def deal_hands(store: Store, own: list[str]) -> None:
        for _ in range(5):
            for table in own:
                hand = store.start_hand(table, SETUP)
                serials.append(hand.serial)
                store.cancel_hand(hand.id)

    assert at_once(deal_hands, zip(stores, tables, strict=True)) == []
    assert len(serials) == len(set(serials)) == 30


def test_the_migration_numbers_the_hands_already_played_in_their_order(store: Store) -> None:
    """A room's hands from before the serials get them, in the order they started."""
    table = _table(store, "Old")
    ids = []
    for _ in range(3):
        hand = store.start_hand(table, SETUP)
        store.cancel_hand(hand.id)
        ids.append(hand.id)
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    with store.engine.execution_options(**{WRITE: True}).begin() as connection:
        config.attributes["connection"] = connection
        command.downgrade(config, "0005")
        command.upgrade(config, "head")
    serials = [store.hand(hand_id).serial for hand_id in ids]
    assert serials == sorted(serials) and len(set(serials)) == 3
    assert store.start_hand(table, SETUP).serial > serials[-1]


def test_finished_hands_are_chosen_by_time_and_by_who_was_dealt_in(store: Store) -> None:
    """The export's choice of hands: the newest ``most`` finished hands, from ``since``
    and before ``until``, only those a player was dealt in."""
    host = store.create_guest("Host").player.id
    table, _ = store.create_table("T", {"seats": 6, "variant": "o8"}, host)
    ann, bob = (store.create_guest(name).player.id for name in ("Ann", "Bob"))
    store.sit(table.id, 1, ann, 100)
    store.sit(table.id, 2, bob, 100)
    finished = []
    for number in range(4):
        hand = store.start_hand(table.id, SETUP)
        dealt = {ann: 0, bob: 0} if number % 2 else {ann: 0}
        finished.append(store.finish_hand(hand.id, {"n": number}, dealt))
    store.start_hand(table.id, SETUP)  # in play: never exported
    ids = [hand.id for hand in finished]

    def chosen(**wanted: Any) -> list[str]:
        return [h.id for h in store.finished_hands(table.id, HandSelection(**wanted))]

    assert chosen(most=50) == ids[::-1]
    assert chosen(most=2) == ids[:1:-1]
    assert chosen(most=50, player_id=bob) == [ids[3], ids[1]]
    middle = finished[1].started_at
    assert chosen(most=50, since=middle) == ids[:0:-1]
    assert chosen(most=50, until=middle) == ids[:1]


# ------------------------------------------------------- PokerStars text, one hand


def test_a_room_hand_is_numbered_by_its_serial_and_reads_back() -> None:
    """The room's text id is no number for trackers (``#\\d+:``): the serial is; a record
    with neither is refused, naming the hand."""
    hand = _over(play(deal(LIMIT, [100, 100], ["KsKhQsQh", "JsJhTsTh"], "Kd9c7c5d2h"), "fold"))
    record = hand_record(hand, ("Ann", "Bob"), (2, 5), "jlym2e83-8")
    with pytest.raises(HistoryError, match="hand jlym2e83-8 has no number"):
        write_pokerstars(record, hand)
    text = write_pokerstars(replace(record, serial=48213), hand)
    assert text.startswith("PokerStars Hand #48213:  Omaha Hi/Lo Limit (2/4) - ")
    (read,), problems = read_pokerstars(text)
    assert (read.id, problems, replay_record(read).agrees) == ("48213", [], True)


@pytest.mark.parametrize(
    ("moment", "written"),
    [
        ((2026, 12, 2, 13, 30, 0), "2026/12/02 13:30:00 UTC [2026/12/02 8:30:00 ET]"),
        ((2026, 7, 2, 13, 30, 5), "2026/07/02 13:30:05 UTC [2026/07/02 9:30:05 ET]"),
        ((2026, 1, 1, 3, 0, 0), "2026/01/01 3:00:00 UTC [2025/12/31 22:00:00 ET]"),
    ],
)
def test_the_time_is_eastern_time_converted_beside_utc(
    moment: tuple[int, ...], written: str
) -> None:
    """Eastern Time (UTC-5, summer UTC-4, named "ET" all year as PokerStars does), the
    UTC time beside it, hours without a leading zero."""
    assert pokerstars_time(datetime(*moment, tzinfo=UTC)) == written


def test_the_time_has_the_form_of_pokerstars_own_files() -> None:
    """PokerStars' files with a clock not on ET: ``<local> <ZONE> [<ET> ET]``."""
    clock = r"\d{4}/\d\d/\d\d \d{1,2}:\d\d:\d\d"
    form = re.compile(rf" - {clock} [A-Z]+ \[{clock} ET\]$")
    headers = [
        line.strip().lstrip("\ufeff")
        for path in corpus_files("pokerstars")
        for line in path.read_bytes().decode("utf-8", "replace").splitlines()
        if "PokerStars Hand #" in line and "[" in line
    ]
    assert any(form.search(header) for header in headers)
    hand = _over(play(deal(LIMIT, [100, 100], ["KsKhQsQh", "JsJhTsTh"], "Kd9c7c5d2h"), "fold"))
    text = write_pokerstars(hand_record(hand, ("Ann", "Bob"), (1, 2), "1"), hand)
    assert form.search(text.splitlines()[0])


def test_the_summary_names_positions_and_hi_lo_hands_as_pokerstars_does() -> None:
    """Heads-up the button posts the small blind: ``(button) (small blind)``; a shown
    hand ``showed [..] and won (N) with HI: ..`` (LO only with a low), a losing one
    ``and lost with``; "No low hand qualified" after a pot with no low."""
    hand = play(
        deal(LIMIT, [100, 100], ["KsKhQsQh", "JsJhTsTh"], "Kd9c7c5d2h"),
        *("call", "check", "check", "check", "check", "check", "check", "check"),
    )
    record = hand_record(_over(hand), ("Ann", "Bob"), (2, 5), "1")  # seats 3 and 6
    lines = write_pokerstars(record, hand).strip().splitlines()
    assert lines[-2:] == [
        "Seat 3: Ann (button) (small blind) showed [Ks Kh Qs Qh] and won (4) with HI: three "
        "of a kind, Kings",
        "Seat 6: Bob (big blind) showed [Js Jh Ts Th] and lost with HI: a pair of Jacks",
    ]
    assert lines[lines.index("Ann collected 4 from pot") + 1] == "No low hand qualified"


def test_a_scoop_is_collected_in_two_halves_and_a_fold_names_its_street() -> None:
    """PokerStars prints a hi/lo scoop as two ``collected`` lines, one per half."""
    hand = play(
        deal(LIMIT, [100, 100, 100], ["As2s3dKd", "KcQcJsTs", "9h9d8h8d"], "Ah8c4hKh9s"),
        *("call", "call", "check", "bet 2", "fold", "call", "check", "check", "check", "check"),
    )
    text = write_pokerstars(hand_record(_over(hand), ("Ann", "Bob", "Cy"), (0, 1, 2), "2"), hand)
    lines = text.splitlines()
    assert lines.count("Ann collected 5 from pot") == 2 and "No low hand qualified" not in lines
    assert (
        "Seat 1: Ann (button) showed [As 2s 3d Kd] and won (10) with HI: two pair, Aces and "
        "Kings; LO: 8,4,3,2,A" in lines
    )
    assert "Seat 3: Cy (big blind) folded on the Flop" in lines
    (read,), _ = read_pokerstars(text)
    assert replay_record(read).agrees is True


def _summary_form(line: str) -> tuple[str, str] | None:
    """A summary seat line's position tags and its ending, with cards, amounts and hands
    taken out: ``("(button)", "showed [..] and won (N) with HI: H; LO: L")``."""
    seat = re.match(
        r"^Seat \d+: .+? (?P<tags>(?:\((?:button|small blind|big blind)\) ?)*)"
        r"(?P<end>(?:folded|showed|mucked|collected).*)$",
        line.strip().lstrip("\ufeff"),
    )
    if seat is None:
        return None
    end = re.sub(r"\[[^\]]*\]", "[..]", seat["end"].rstrip())
    end = re.sub(r"\(\$?[\d.,]+\)", "(N)", end)
    end = re.sub(r"with HI: [^;]+", "with HI: H", end)
    end = re.sub(r"LO: \S+", "LO: L", end)
    return seat["tags"].strip(), end


def _corpus_hi_lo_summary_forms() -> set[tuple[str, str]]:
    """The summary seat lines of the corpus's real (four-card) Omaha Hi/Lo hands."""
    forms = set()
    for path in corpus_files("pokerstars"):
        text = path.read_bytes().decode("utf-8", "replace")
        for hand in re.split(r"\n\s*\n", text):
            if "Omaha Hi/Lo" not in hand[:200] or "5 Card" in hand[:200]:
                continue
            forms |= {form for line in hand.splitlines() if (form := _summary_form(line))}
    return forms


def test_a_session_of_bot_hands_reads_back_and_writes_only_pokerstars_own_lines(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Many hands of each structure in one file: ``splitpot replay --check`` agrees with
    every one, and every summary line has a form PokerStars' own Omaha Hi/Lo files have
    (the tags and the ending each, with cards, amounts and hands taken out)."""
    corpus_tags = {tags for tags, _ in _corpus_hi_lo_summary_forms()}
    corpus_ends = {end for _, end in _corpus_hi_lo_summary_forms()}
    texts = []
    for structure in ("limit", "pot-limit", "no-limit"):
        config = table_config("o8", structure, None, 6)
        bots = [make_bot("sensible" if i % 2 else "random", f"P{i}", i) for i in range(6)]
        kept: list[TableHand] = []
        simulate(config, bots, 100, seed=3, played=kept.append)
        texts += [
            write_pokerstars(record_of(played, serial=1000 + len(texts) + i), played.hand, hero=0)
            for i, played in enumerate(kept)
        ]
    written = {
        form for text in texts for line in text.splitlines() if (form := _summary_form(line))
    }
    assert {tags for tags, _ in written} <= corpus_tags
    assert {end for _, end in written} <= corpus_ends
    path = tmp_path / "session.txt"
    path.write_text("".join(texts))
    assert main(["replay", "--check", str(path)]) == 0
    assert capsys.readouterr().out.endswith("300 of 300 hands agree with their files\n")


# ------------------------------------------------------- records against their deck


def test_replay_check_refuses_hole_cards_that_contradict_the_deck(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    hand = play(deal(LIMIT, [100, 100], ["KsKhQsQh", "JsJhTsTh"], "Kd9c7c5d2h"), "fold")
    document = to_json(hand_record(hand, ("Ann", "Bob"), (1, 2), "1"), hand)
    document["holes"][1] = "AsAd2c3c"
    path = tmp_path / "lying.json"
    path.write_text(dumps(document))
    assert main(["replay", "--check", str(path)]) == 1
    assert (
        "cannot be replayed under the rules: hand 1: Bob's hole cards As Ad 2c 3c contradict "
        "the deck, which deals Bob Js Jh Ts Th" in capsys.readouterr().out
    )


def test_a_record_with_unknown_hole_cards_agrees_with_its_deck() -> None:
    """Unknown cards (``??``) contradict nothing; the serial round-trips."""
    hand = play(deal(LIMIT, [100, 100], ["KsKhQsQh", "JsJhTsTh"], "Kd9c7c5d2h"), "fold")
    document = to_json(hand_record(hand, ("Ann", "Bob"), (1, 2), "t-1"), hand)
    document["holes"][1] = "Js??????"
    document = {"format": document["format"], "id": "t-1", "serial": 77} | document
    record = from_json(document)
    assert record.serial == 77 and replay_record(record).agrees is True
    assert dumps(to_json(record, replay_record(record).hand)) == dumps(document)


# ------------------------------------------------------------- a file from the room


def _sometimes_fold(client: Client, turn: Frame) -> Frame:
    """Fold one turn in four when it costs something, else check, call or show."""
    names = [entry["action"] for entry in turn["legal"]]
    if "fold" in names and "check" not in names and turn["seq"] % 4 == 0:
        return {"action": "fold"}
    for name in ("check", "call", "show", "allin"):
        if name in names:
            return {"action": name}
    raise AssertionError(f"no action in {turn['legal']}")


def _pause_after_the_hand(host: Client, clients: list[Client], table: str) -> None:
    """The host pauses; the hand in play is played out, and no other is dealt."""
    host.send({"type": "host", "table": table, "action": "pause"})
    host.wait(lambda f: is_event("host")(f) and f["event"]["action"] == "pause")

    def settled() -> bool:
        return len(host.events("hand_started", table)) == host.hands_ended(table)

    play_turns(clients, table, settled, _sometimes_fold)


def _export(room: RoomServer, token: str | None, table: str, **query: Any) -> str:
    with room.http(token) as http:
        answer = http.get(
            f"/api/tables/{table}/hands.txt", params={"format": "pokerstars", **query}
        )
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("text/plain")
    return answer.text


def _documents(room: RoomServer, token: str | None, table: str) -> list[dict[str, Any]]:
    """The table's hands as the JSON list gives them to this reader, oldest first."""
    with room.http(token) as http:
        listed = http.get(f"/api/tables/{table}/hands", params={"limit": 50})
    assert listed.status_code == 200
    hands: list[dict[str, Any]] = listed.json()["hands"]
    return hands[::-1]


def _replays(path: Path, text: str, capsys: pytest.CaptureFixture[str]) -> str:
    path.write_text(text)
    assert main(["replay", "--check", str(path)]) == 0
    return capsys.readouterr().out


@pytest.mark.one_database
def test_a_played_session_exported_as_one_file_replays_hand_for_hand(
    room: RoomServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Ann and Bob play, Cy joins: each one's file of the table's hands (Cy's own session,
    everyone's last 50, a time range) reads back with ``splitpot replay --check``, every
    hand agreeing, numbered by its serial, printing no card its reader may not see."""
    table, clients = seated_game(room, ["Ann", "Bob"], 200, name="Export", seats=6)
    ann = clients[0]
    ann.send({"type": "host", "table": table, "action": "resume"})
    play_room_hands(clients, table, 3, _sometimes_fold)
    cy_token = room.guest("Cy")[1]
    cy = Client(room, cy_token)
    cy.sit(table, 3, 200)
    clients.append(cy)
    play_room_hands(clients, table, 4, _sometimes_fold)
    _pause_after_the_hand(ann, clients, table)

    everyone = _documents(room, None, table)
    text = _export(room, None, table, limit=50)
    assert [int(n) for n in HEADER.findall(text)] == [doc["serial"] for doc in everyone]
    assert len({doc["serial"] for doc in everyone}) == len(everyone) >= 7
    out = _replays(tmp_path / "all.txt", text, capsys)
    assert out.endswith(f"{len(everyone)} of {len(everyone)} hands agree with their files\n")
    assert "Dealt to" not in text

    cys = [doc for doc in _documents(room, cy_token, table) if doc["you"] is not None]
    session = _export(room, cy_token, table, mine="true", limit=1000)
    assert [int(n) for n in HEADER.findall(session)] == [doc["serial"] for doc in cys]
    assert session.count("Dealt to Cy [") == len(cys) >= 1
    out = _replays(tmp_path / "cy.txt", session, capsys)
    assert out.endswith(f"{len(cys)} of {len(cys)} hands agree with their files\n")
    for document, hand_text in zip(cys, HEADER.split(session)[2::2], strict=True):
        known = "".join([*document["holes"], document["board"]])
        seen = {known[at : at + 2] for at in range(0, len(known), 2)}
        assert set(CARD.findall(hand_text)) <= seen, document["id"]

    third = datetime.fromisoformat(everyone[2]["started"])
    later = _export(room, cy_token, table, since=third.isoformat())
    assert HEADER.findall(later) == [str(doc["serial"]) for doc in everyone[2:]]
    naive = (third - timedelta(microseconds=1)).astimezone(UTC).replace(tzinfo=None)
    earlier = _export(room, cy_token, table, until=naive.isoformat())
    assert HEADER.findall(earlier) == [str(doc["serial"]) for doc in everyone[:2]]
    last = _export(room, None, table, limit=2)
    assert HEADER.findall(last) == [str(doc["serial"]) for doc in everyone[-2:]]
    for client in clients:
        client.close()


@pytest.mark.one_database
def test_a_session_file_needs_a_session_and_a_known_format(room: RoomServer) -> None:
    table, clients = seated_game(room, ["Ann", "Bob"], 200, name="Refusals")
    with room.http() as http:
        mine = http.get(f"/api/tables/{table}/hands.txt", params={"mine": "true"})
        assert mine.status_code == 401 and mine.json()["error"]["code"] == "unauthorized"
        other = http.get(f"/api/tables/{table}/hands.txt", params={"format": "phh"})
        assert other.status_code == 400 and other.json()["error"]["code"] == "bad_message"
        empty = http.get(f"/api/tables/{table}/hands.txt")
        assert (empty.status_code, empty.text) == (200, "")
        assert "attachment" in empty.headers["content-disposition"]
    for client in clients:
        client.close()


def test_the_room_hand_document_carries_its_serial() -> None:
    """The record the room keeps names the serial (``record_of(..., serial)``), and its
    JSON carries it right after the id."""
    hand = play(deal(LIMIT, [100, 100], ["KsKhQsQh", "JsJhTsTh"], "Kd9c7c5d2h"), "fold")
    record = hand_record(hand, ("Ann", "Bob"), (1, 2), "t-1")
    document = to_json(replace(record, serial=9), hand)
    assert list(document)[:3] == ["format", "id", "serial"] and document["serial"] == 9
    assert "serial" not in to_json(record, hand)
    assert json.loads(dumps(document))["serial"] == 9
