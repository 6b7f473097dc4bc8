"""The room's protocol: tables, events and turns as JSON, commands from JSON, and the
privacy of every frame (PROTOCOL.md, DESIGN.md: no message holds a card its receiver
may not see)."""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from fractions import Fraction

import pytest
from test_dealer import (
    ANN_ALL_IN_HOLES,
    O8_POT_LIMIT,
    act,
    deal_cards,
    seat_players,
    seat_to_act,
)

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.dealer import Scene, scenes
from splitpot.engine import (
    Acted,
    Action,
    ActionKind,
    BoardDealt,
    HoleCardsDealt,
    LegalActions,
    Shown,
    TurnedFaceUp,
)
from splitpot.protocol import (
    MAX_CHIPS,
    MAX_FRAME,
    Act,
    Chat,
    Commit,
    ErrorCode,
    Hello,
    JsonObject,
    Leave,
    ProtocolError,
    Reveal,
    Sit,
    SitIn,
    SitOut,
    TableInfo,
    TopUp,
    Watch,
    chat_message,
    encode_event,
    encode_legal,
    encode_state,
    error_message,
    event_message,
    frame,
    http_error,
    parse_command,
    read_frame,
    refused,
    table_message,
    turn_message,
    utc_text,
    welcome,
)
from splitpot.protocol.encode import options_json, table_summary
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Rake, Variant
from splitpot.table import (
    DoubleBoard,
    HandStarted,
    InHand,
    Kill,
    Straddle,
    Table,
    TableConfig,
    TableEvent,
    seen_by,
)

PLAYERS = {0: "p0", 1: "p1", 2: "p2"}
THREE = {0: ("Ann", 100), 1: ("Bob", 100), 2: ("Cy", 100)}
NAMES = {0: "Ann", 1: "Bob", 2: "Cy"}


def info_of(table: Table) -> TableInfo:
    return TableInfo("t7", "Home", table.config, host="p0")


def encoded(
    events: list[TableEvent], viewer: int | None, names: Mapping[int, str] = NAMES
) -> list[JsonObject]:
    before, _ = scenes(events, Scene(Variant.O8))
    return [
        encode_event(seen_by(event, viewer), "t7", scene, names, players=PLAYERS)
        for event, scene in zip(events, before, strict=True)
    ]


def round_trip(message: JsonObject) -> JsonObject:
    assert json.loads(frame(message)) == message
    return message


# ------------------------------------------------------------------ state


def test_state_of_a_hand_on_the_flop_for_a_player_and_a_watcher() -> None:
    table = seat_players(O8_POT_LIMIT, THREE)
    deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    for action in ("call", "call", "check", "bet 4"):
        table.act(seat_to_act(table), Action.parse(action))
    state = round_trip(encode_state(table.view(1), info_of(table), PLAYERS))
    assert state["table"] == {
        "id": "t7",
        "name": "Home",
        "variant": "o8",
        "variant_name": "Omaha Hi/Lo, eight or better",
        "structure": "pot-limit",
        "stakes": "1/2",
        "small_blind": 1,
        "big_blind": 2,
        "seats": 4,
        "players": 3,
        "min_buy_in": 1,
        "max_buy_in": 200,
        "private": False,
        "host": "p0",
        "paused": False,
        "action_seconds": None,
        "time_bank_seconds": None,
        "audit": False,
        "approval": False,
        "ante": 0,
        "rake_percent": 0,
        "rake_cap": 0,
        "straddle": False,
        "run_it_twice": False,
        "rabbit_hunt": False,
        "bomb_pot": 0,
        "bomb_every": 0,
        "double_board": "off",
        "kill": "off",
        "kill_size": 0,
    }
    assert (state["viewer"], state["button"], state["hands_played"]) == (2, 3, 0)
    assert state["seats"] == [
        {
            "seat": 1,
            "player": "p0",
            "name": "Ann",
            "stack": 94,
            "bet": 4,
            "status": "playing",
            "hole_cards": 4,
            "last_action": "bet 4",
        },
        {
            "seat": 2,
            "player": "p1",
            "name": "Bob",
            "stack": 98,
            "bet": 0,
            "status": "playing",
            "hole_cards": 4,
            "last_action": "check",
            "cards": ["Ah", "3c", "Jh", "Jc"],
        },
        {
            "seat": 3,
            "player": "p2",
            "name": "Cy",
            "stack": 98,
            "bet": 0,
            "status": "playing",
            "hole_cards": 4,
            "last_action": "call 2",
        },
        {"seat": 4, "player": None},
    ]
    assert state["hand"] == {
        "id": "t7-1",
        "number": 1,
        "button": 3,
        "street": "flop",
        "board": ["2c", "6d", "7h"],
        "boards": [],
        "run_it": [],
        "runs": None,
        "pots": [{"amount": 6, "eligible": [1, 2, 3]}],
        "total": 10,
        "to_act": 2,
        "structure": "pot-limit",
        "stakes": "1/2",
        "small_blind": 1,
        "big_blind": 2,
    }
    watcher = encode_state(table.view(None), info_of(table), PLAYERS)
    assert watcher["viewer"] is None
    assert '"cards"' not in json.dumps(watcher["seats"])


def test_state_between_hands_and_a_limit_and_a_mixed_table() -> None:
    config = TableConfig(Variant.BIGO, Mixed(FixedLimit(2, 4), PotLimit(1, 2)), seats=3)
    table = seat_players(config, {1: ("Bob", 20)})
    state = encode_state(table.view(None), info_of(table), PLAYERS)
    assert state["hand"] is None and state["button"] is None
    assert state["seats"] == [
        {"seat": 1, "player": None},
        {
            "seat": 2,
            "player": "p1",
            "name": "Bob",
            "stack": 20,
            "bet": 0,
            "status": "waiting",
            "hole_cards": 0,
            "last_action": None,
        },
        {"seat": 3, "player": None},
    ]
    summary = state["table"]
    assert isinstance(summary, dict)
    assert {k: summary[k] for k in ("structure", "stakes", "small_blind", "big_blind")} == {
        "structure": "mixed",
        "stakes": "2/4 and 1/2",
        "small_blind": 1,
        "big_blind": 2,
    }
    assert summary["limit"] == {
        "structure": "limit",
        "stakes": "2/4",
        "small_blind": 1,
        "big_blind": 2,
        "small_bet": 2,
        "big_bet": 4,
    }
    assert summary["period"] is None and summary["variant"] == "bigo"


def test_shown_cards_reach_everyone_while_the_loser_decides() -> None:
    """Heads-up, checked down: Bob, first left of the button, shows first; Ann, who
    cannot win, is offered the muck and the table waits: everyone sees Bob's cards, and
    only Ann her own."""
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 100), 1: ("Bob", 100)})
    deal_cards(table, {0: "QhJhTc8c", 1: "AcKc9h9d"}, "3d4h5sKsQs", button=0)
    for action in ("call", "check", *["check"] * 6):
        table.act(seat_to_act(table), Action.parse(action))
    assert table.seat_to_act == 0
    for viewer, expected in ((None, {2}), (1, {2}), (0, {1, 2})):
        seats = encode_state(table.view(viewer), info_of(table), PLAYERS)["seats"]
        assert isinstance(seats, list)
        shown = {s["seat"] for s in seats if isinstance(s, dict) and "cards" in s}
        assert shown == expected
    legal = table.view(0).legal
    assert legal is not None
    assert encode_legal(legal) == [{"action": "show"}, {"action": "muck"}]


# ------------------------------------------------------------------ events


def test_all_in_and_called_before_the_river_turns_every_hand_face_up_first() -> None:
    """RULES.md 5: with a player all in and no more betting possible, every hand still
    in is turned face up, for everyone, before the rest of the board is dealt."""
    table = seat_players(O8_POT_LIMIT, {0: ("Ann", 10), 1: ("Bob", 100)})
    deal_cards(table, {0: "QhJhTc8c", 1: "AcKc9h9d"}, "3d4h5sKsQs", button=0)
    table.act(seat_to_act(table), Action.parse("raise 6"))
    events = table.act(seat_to_act(table), Action.parse("call"))
    events += table.act(seat_to_act(table), Action.parse("check"))
    events += table.act(seat_to_act(table), Action.parse("allin"))
    events += table.act(seat_to_act(table), Action.parse("call"))
    frames = [round_trip(f) for f in encoded(events, viewer=None)]
    kinds = [f["kind"] for f in frames]
    first_face_up = kinds.index("face_up")
    assert kinds[first_face_up - 1] == "round_ended"
    assert kinds[first_face_up : first_face_up + 5] == [
        "face_up", "face_up", "board", "board", "shown"
    ]  # fmt: skip
    assert kinds.count("board") == 3
    faced = [(f["seat"], f["cards"], f["text"]) for f in frames if f["kind"] == "face_up"]
    assert faced == [
        (2, ["Ac", "Kc", "9h", "9d"], "Bob turns up Ac Kc 9h 9d"),
        (1, ["Qh", "Jh", "Tc", "8c"], "Ann turns up Qh Jh Tc 8c"),
    ]
    assert kinds.count("shown") == 2 and kinds[-1] == "hand_ended"


def test_every_event_of_a_hand_for_one_player() -> None:
    table = seat_players(O8_POT_LIMIT, {})
    events = table.sit(0, "Ann", 1) + table.sit(1, "Bob", 100) + table.sit(2, "Cy", 100)
    events += deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    events += act(table, "call", "check", *["check"] * 6)
    frames = [round_trip(e) for e in encoded(events, viewer=1)]
    kinds = Counter(str(f["kind"]) for f in frames)
    assert kinds == {
        "player_sat": 3,
        "hand_started": 1,
        "posted": 2,
        "dealt": 3,
        "acted": 8,
        "round_ended": 4,
        "board": 3,
        "shown": 3,
        "pot_awarded": 6,
        "hand_ended": 1,
    }
    by_kind = {str(f["kind"]): f for f in reversed(frames)}  # the first of each kind
    assert by_kind["player_sat"] == {
        "kind": "player_sat",
        "hand": None,
        "seat": 1,
        "name": "Ann",
        "player": "p0",
        "stack": 1,
        "post_now": False,
        "text": "Ann sits down in seat 1 with 1",
    }
    assert by_kind["hand_started"] == {
        "kind": "hand_started",
        "hand": "t7-1",
        "number": 1,
        "button": 3,
        "seats": [
            {"seat": 1, "name": "Ann", "stack": 1},
            {"seat": 2, "name": "Bob", "stack": 100},
            {"seat": 3, "name": "Cy", "stack": 100},
        ],
        "variant": "o8",
        "structure": "pot-limit",
        "stakes": "1/2",
        "small_blind": 1,
        "big_blind": 2,
        "draw": [{"seat": 1, "card": "2c"}, {"seat": 2, "card": "2d"}, {"seat": 3, "card": "As"}],
        "fairness": None,
        "text": "Hand #1: Omaha Hi/Lo, eight or better, Pot Limit 1/2, button seat 3\n"
        "Draw for the button: Ann 2c, Bob 2d, Cy As",
    }
    assert by_kind["posted"] == {
        "kind": "posted",
        "hand": "t7-1",
        "seat": 1,
        "post": "small_blind",
        "amount": 1,
        "all_in": True,
        "text": "Ann posts the small blind, 1 and is all in",
    }
    dealt = [f for f in frames if f["kind"] == "dealt"]
    assert [(f["seat"], f["count"], f["cards"], f["text"]) for f in dealt] == [
        (1, 4, None, None),
        (2, 4, ["Ah", "3c", "Jh", "Jc"], "Dealt to Bob: Ah 3c Jh Jc"),
        (3, 4, None, None),
    ]
    assert by_kind["acted"] == {
        "kind": "acted",
        "hand": "t7-1",
        "seat": 3,
        "action": "call",
        "to": 2,
        "added": 2,
        "all_in": False,
        "text": "Cy calls 2",
    }
    boards = [(f["street"], f["cards"], f["board"]) for f in frames if f["kind"] == "board"]
    assert boards == [
        ("flop", ["2c", "6d", "7h"], ["2c", "6d", "7h"]),
        ("turn", ["Kc"], ["2c", "6d", "7h", "Kc"]),
        ("river", ["Qd"], ["2c", "6d", "7h", "Kc", "Qd"]),
    ]
    assert by_kind["round_ended"] == {
        "kind": "round_ended",
        "hand": "t7-1",
        "street": "preflop",
        "pot": 5,
        "pots": [{"amount": 3, "eligible": [1, 2, 3]}, {"amount": 2, "eligible": [2, 3]}],
        "text": None,
    }
    assert by_kind["shown"] == {
        "kind": "shown",
        "hand": "t7-1",
        "seat": 1,
        "cards": ["Ks", "Kh", "9c", "9d"],
        "high": {"name": "three of a kind, Kings", "cards": ["Ks", "Kh", "Kc", "Qd", "7h"]},
        "low": None,
        "text": "Ann shows Ks Kh 9c 9d: three of a kind, Kings",
    }
    awards = [f for f in frames if f["kind"] == "pot_awarded"]
    assert [(f["pot"], f["share"], f["seat"], f["amount"]) for f in awards] == [
        (1, "high", 2, 1),
        (1, "low", 2, 1),
        (1, "low", 3, 0),
        (0, "high", 1, 2),
        (0, "low", 2, 1),
        (0, "low", 3, 0),
    ]
    assert awards[1]["low"] == {"name": "7,6,3,2,A", "cards": ["Ah", "3c", "7h", "6d", "2c"]}
    assert awards[1]["text"] == (
        "Bob and Cy tie for the low half of the side pot, 1, with 7,6,3,2,A: Bob gets the odd chip"
    )
    assert awards[2]["text"] is None
    ended = by_kind["hand_ended"]
    assert ended["stacks"] == [
        {"seat": 1, "stack": 2},
        {"seat": 2, "stack": 101},
        {"seat": 3, "stack": 98},
    ]
    assert ended["awards"] == [
        {k: v for k, v in f.items() if k not in ("kind", "hand", "text")} for f in awards
    ]


def test_table_events_fairness_uncalled_mucks_and_rake() -> None:
    """Heads-up limit then pot limit (a mixed game turning every hand), 10% rake capped
    at 1: Bob's kings win, Ann mucks; Bob tops up; Ann sits out and comes back; Bob
    times out and folds his small blind; Ann leaves."""
    betting = Mixed(FixedLimit(2, 4), PotLimit(1, 2), period=1)
    config = TableConfig(Variant.O8, betting, seats=4, rake=Rake(10, cap=1))
    table = seat_players(config, {0: ("Ann", 40), 1: ("Bob", 40)})
    events = deal_cards(table, {0: "QhJhTc8c", 1: "AcKc9h9d"}, "3d4h5sKsQs", button=0)
    events += act(table, "raise 4", "call", "bet 2", "call", *["check"] * 4)
    events += table.add_chips(1, 5) + table.sit_out(0) + table.sit_in(0, post_now=True)
    events += table.deal(Deck(4).cards)
    events += table.time_out(seat_to_act(table))
    events += table.leave(0)
    before, _ = scenes(events, Scene(Variant.O8))
    fairness: JsonObject = {"deck_commitment": "ab" * 32, "players": []}
    frames = [
        round_trip(
            encode_event(seen_by(e, None), "t7", s, NAMES, players=PLAYERS, fairness=fairness)
        )
        for e, s in zip(events, before, strict=True)
    ]
    by_kind = {str(f["kind"]): f for f in frames}  # the last of each kind
    assert by_kind["hand_started"]["fairness"] == fairness
    assert by_kind["hand_started"]["hand"] == "t7-2"
    assert {kind: by_kind[kind] for kind in ("mucked", "rake", "stakes_changed")} == {
        "mucked": {"kind": "mucked", "hand": "t7-1", "seat": 1, "text": "Ann mucks"},
        "rake": {"kind": "rake", "hand": "t7-1", "amount": 1, "text": "Rake: 1"},
        "stakes_changed": {
            "kind": "stakes_changed",
            "hand": None,
            "structure": "pot-limit",
            "stakes": "1/2",
            "small_blind": 1,
            "big_blind": 2,
            "text": "The game turns to Pot Limit 1/2",
        },
    }
    assert [f["text"] for f in frames if f["kind"] == "pot_awarded"] == [
        "Bob wins the pot, 11, with a pair of Kings\nNo low hand qualified for the pot",
        "Ann wins the pot, 2",
    ]
    assert [by_kind[kind] for kind in ("chips_added", "sat_in", "uncalled", "sat_out")] == [
        {
            "kind": "chips_added",
            "hand": None,
            "seat": 2,
            "name": "Bob",
            "amount": 5,
            "stack": 50,
            "text": "Bob adds 5 and has 50",
        },
        {
            "kind": "sat_in",
            "hand": None,
            "seat": 1,
            "name": "Ann",
            "post_now": True,
            "text": "Ann is back and posts to play now",
        },
        {
            "kind": "uncalled",
            "hand": "t7-2",
            "seat": 1,
            "amount": 1,
            "text": "Uncalled bet of 1 returned to Ann",
        },
        {
            "kind": "sat_out",
            "hand": None,
            "seat": 2,
            "name": "Bob",
            "timed_out": True,
            "text": "Bob is out of time and sits out",
        },
    ]
    assert by_kind["player_left"] == {
        "kind": "player_left",
        "hand": None,
        "seat": 1,
        "name": "Ann",
        "player": "p0",
        "stack": 35,
        "text": "Ann leaves the table with 35",
    }


# ------------------------------------------------------------------ turns


def test_legal_actions_as_a_list_with_totals() -> None:
    legal = LegalActions(
        0,
        fold=True,
        call=4,
        bet_or_raise=ActionKind.RAISE,
        min_to=8,
        max_to=18,
        all_in_to=18,
        all_in=True,
    )
    assert encode_legal(legal) == [
        {"action": "fold"},
        {"action": "call", "amount": 4},
        {"action": "raise", "min": 8, "max": 18},
        {"action": "allin", "amount": 18},
    ]
    opening = LegalActions(0, check=True, bet_or_raise=ActionKind.BET, min_to=2, max_to=2)
    assert encode_legal(opening) == [
        {"action": "check"},
        {"action": "bet", "min": 2, "max": 2},
    ]


def test_turn_message_from_a_real_table() -> None:
    table = seat_players(O8_POT_LIMIT, THREE)
    deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    for action in ("call", "call", "check", "bet 4"):
        table.act(seat_to_act(table), Action.parse(action))
    legal = table.view(1).legal
    assert legal is not None
    deadline = datetime(2025, 1, 31, 13, 0, 30, 250000, tzinfo=timezone(timedelta(hours=1)))
    assert round_trip(turn_message("t7", "t7-1", 1, legal, deadline)) == {
        "type": "turn",
        "table": "t7",
        "hand": "t7-1",
        "seat": 2,
        "legal": [
            {"action": "fold"},
            {"action": "call", "amount": 4},
            {"action": "raise", "min": 8, "max": 18},
        ],
        "deadline": "2025-01-31T12:00:30.250Z",
    }


def test_messages() -> None:
    bob = {"type": "welcome", "player": {"id": "p1", "name": "Bob"}, "lang": "en"}
    assert welcome("p1", "Bob") == bob
    assert welcome(None, lang="ja") == {"type": "welcome", "player": None, "lang": "ja"}
    assert table_message("t7", 3, {"button": None}) == {
        "type": "table",
        "table": "t7",
        "seq": 3,
        "state": {"button": None},
    }
    assert event_message("t7", 4, {"kind": "sat_out"})["seq"] == 4
    assert chat_message("t7", "p1", "Bob", 1, "gl") == {
        "type": "chat",
        "table": "t7",
        "from": {"id": "p1", "name": "Bob", "seat": 2},
        "text": "gl",
    }
    assert error_message(ErrorCode.SEAT_TAKEN, "seat 2 is taken", "r1") == {
        "type": "error",
        "code": "seat_taken",
        "message": "seat 2 is taken",
        "ref": "r1",
    }
    assert "ref" not in error_message(ErrorCode.RATE_LIMITED, "slow down")
    assert http_error(ErrorCode.FORBIDDEN, "no") == {
        "error": {"code": "forbidden", "message": "no"}
    }
    assert frame({"a": [1, "é"], "b": None}) == '{"a":[1,"é"],"b":null}'
    with pytest.raises(ValueError, match="time zone"):
        utc_text(datetime(2025, 1, 1))
    assert utc_text(datetime(2025, 1, 1, tzinfo=UTC)) == "2025-01-01T00:00:00.000Z"


# ------------------------------------------------------------------ commands

GOOD = [
    ({"type": "hello", "token": "abc"}, Hello("abc")),
    ({"type": "hello"}, Hello(None)),
    ({"type": "hello", "token": None, "ref": 7}, Hello(None, 7)),
    ({"type": "watch", "table": "t7", "extra": [1]}, Watch("t7")),
    ({"type": "watch", "table": "t7", "invite": "xyz"}, Watch("t7", "xyz")),
    ({"type": "sit", "table": "t7", "seat": 1, "buy_in": 80}, Sit("t7", 0, 80)),
    (
        {"type": "sit", "table": "t7", "seat": 10, "buy_in": 80, "post_now": True, "ref": "a"},
        Sit("t7", 9, 80, True, "a"),
    ),
    (
        {"type": "act", "table": "t7", "hand": "t7-1", "action": "fold"},
        Act("t7", "t7-1", Action.fold()),
    ),
    (
        {"type": "act", "table": "t7", "hand": "t7-1", "action": "call", "amount": None},
        Act("t7", "t7-1", Action.call()),
    ),
    (
        {"type": "act", "table": "t7", "hand": "t7-1", "action": "raise", "amount": 12},
        Act("t7", "t7-1", Action.raise_to(12)),
    ),
    (
        {"type": "act", "table": "t7", "hand": "t7-1", "action": "bet", "amount": 2},
        Act("t7", "t7-1", Action.bet(2)),
    ),
    ({"type": "act", "table": "t", "hand": "h", "action": "allin"}, Act("t", "h", Action.all_in())),
    ({"type": "act", "table": "t", "hand": "h", "action": "show"}, Act("t", "h", Action.show())),
    ({"type": "act", "table": "t", "hand": "h", "action": "muck"}, Act("t", "h", Action.muck())),
    ({"type": "act", "table": "t", "hand": "h", "action": "check"}, Act("t", "h", Action.check())),
    ({"type": "sit_out", "table": "t7"}, SitOut("t7")),
    ({"type": "sit_in", "table": "t7"}, SitIn("t7")),
    ({"type": "sit_in", "table": "t7", "post_now": True}, SitIn("t7", True)),
    ({"type": "leave", "table": "t7"}, Leave("t7")),
    ({"type": "top_up", "table": "t7", "amount": 50}, TopUp("t7", 50)),
    ({"type": "chat", "table": "t7", "text": "  nice hand "}, Chat("t7", "nice hand")),
    ({"type": "commit", "table": "t7", "commitment": "0f" * 32}, Commit("t7", "0f" * 32)),
    (
        {"type": "reveal", "table": "t7", "hand": "t7-2", "entropy": "a1" * 32},
        Reveal("t7", "t7-2", "a1" * 32),
    ),
]


@pytest.mark.parametrize(("message", "command"), GOOD)
def test_good_commands(message: dict[str, object], command: object) -> None:
    assert parse_command(message) == command
    assert read_frame(json.dumps(message)) == command


BAD = [
    ([1, 2], "a message must be a JSON object, not [1, 2]"),
    ({"token": "x"}, "type must be a message type, not null"),
    ({"type": 3}, "type must be a message type, not 3"),
    ({"type": "dance"}, 'unknown message type "dance"; types are: hello, watch, sit'),
    ({"type": "hello", "token": 5}, "hello.token must be text of 1 to 512 characters, not 5"),
    ({"type": "hello", "token": ""}, "hello.token must be text"),
    ({"type": "watch"}, "watch.table must be text of 1 to 64 characters, not null"),
    ({"type": "watch", "table": "t" * 65}, "watch.table must be text of 1 to 64"),
    ({"type": "watch", "table": "t", "invite": 1}, "watch.invite must be text"),
    (
        {"type": "sit", "table": "t", "seat": 0, "buy_in": 80},
        "sit.seat must be a whole number from 1 to 10, not 0",
    ),
    (
        {"type": "sit", "table": "t", "seat": 11, "buy_in": 80},
        "sit.seat must be a whole number from 1 to 10",
    ),
    (
        {"type": "sit", "table": "t", "seat": True, "buy_in": 80},
        "sit.seat must be a whole number from 1 to 10, not true",
    ),
    (
        {"type": "sit", "table": "t", "seat": 1.0, "buy_in": 80},
        "sit.seat must be a whole number from 1 to 10, not 1.0",
    ),
    (
        {"type": "sit", "table": "t", "seat": "1", "buy_in": 80},
        'sit.seat must be a whole number from 1 to 10, not "1"',
    ),
    ({"type": "sit", "table": "t", "seat": 1}, "sit.buy_in must be a whole number from 1 to"),
    (
        {"type": "sit", "table": "t", "seat": 1, "buy_in": 0},
        "sit.buy_in must be a whole number from 1 to",
    ),
    (
        {"type": "sit", "table": "t", "seat": 1, "buy_in": MAX_CHIPS + 1},
        f"sit.buy_in must be a whole number from 1 to {MAX_CHIPS}",
    ),
    (
        {"type": "sit", "table": "t", "seat": 1, "buy_in": 80, "post_now": 1},
        "sit.post_now must be true or false, not 1",
    ),
    ({"type": "act", "table": "t", "action": "fold"}, "act.hand must be text"),
    (
        {"type": "act", "table": "t", "hand": "h", "action": "dance"},
        'act.action must be one of fold, check, call, bet, raise, allin, show, muck, not "dance"',
    ),
    ({"type": "act", "table": "t", "hand": "h"}, "act.action must be one of"),
    (
        {"type": "act", "table": "t", "hand": "h", "action": "raise"},
        "act.amount must be a whole number from 1 to",
    ),
    (
        {"type": "act", "table": "t", "hand": "h", "action": "bet", "amount": -2},
        "act.amount must be a whole number from 1 to",
    ),
    (
        {"type": "act", "table": "t", "hand": "h", "action": "bet", "amount": False},
        "act.amount must be a whole number",
    ),
    (
        {"type": "act", "table": "t", "hand": "h", "action": "call", "amount": 4},
        "act.amount must be absent or null for call",
    ),
    (
        {"type": "act", "table": "t", "hand": "h", "action": "allin", "amount": 40},
        "act.amount must be absent or null for allin",
    ),
    ({"type": "sit_out"}, "sit_out.table must be text"),
    ({"type": "sit_in", "table": "t", "post_now": "yes"}, "sit_in.post_now must be true or false"),
    ({"type": "leave", "table": ["t"]}, "leave.table must be text"),
    ({"type": "top_up", "table": "t", "amount": 2.5}, "top_up.amount must be a whole number"),
    (
        {"type": "chat", "table": "t", "text": "   "},
        "chat.text must be one line of 1 to 500 characters",
    ),
    ({"type": "chat", "table": "t", "text": "a\nb"}, "chat.text must be one line"),
    ({"type": "chat", "table": "t", "text": "a\u009bb"}, "chat.text must be one line"),
    ({"type": "chat", "table": "t", "text": "a\u2028b"}, "chat.text must be one line"),
    ({"type": "chat", "table": "t", "text": "x" * 501}, "chat.text must be one line of 1 to 500"),
    (
        {"type": "commit", "table": "t", "commitment": "0F" * 32},
        "commit.commitment must be 64 lowercase hex digits",
    ),
    (
        {"type": "commit", "table": "t", "commitment": "0f" * 31},
        "commit.commitment must be 64 lowercase hex digits",
    ),
    ({"type": "reveal", "table": "t", "entropy": "0f" * 32}, "reveal.hand must be text"),
    (
        {"type": "reveal", "table": "t", "hand": "h", "entropy": 5},
        "reveal.entropy must be 64 lowercase hex digits",
    ),
]


@pytest.mark.parametrize(("message", "error"), BAD)
def test_bad_commands_name_the_field(message: object, error: str) -> None:
    with pytest.raises(ProtocolError) as refusal:
        parse_command(message)
    assert refusal.value.code is ErrorCode.BAD_MESSAGE
    assert refusal.value.message.startswith(error)
    assert refusal.value.ref is None


def test_an_error_echoes_a_good_ref_and_refuses_a_bad_one() -> None:
    with pytest.raises(ProtocolError) as refusal:
        parse_command({"type": "top_up", "table": "t", "amount": 0, "ref": "r-9"})
    assert refused(refusal.value) == {
        "type": "error",
        "code": "bad_message",
        "message": "top_up.amount must be a whole number from 1 to 1000000000000, not 0",
        "ref": "r-9",
    }
    for ref, shown in ((True, "true"), (2**53, str(2**53)), ("r" * 65, '"rrrr')):
        with pytest.raises(ProtocolError, match=f"^ref must be text .*, not {shown}") as bad:
            parse_command({"type": "leave", "table": "t", "ref": ref})
        assert bad.value.ref is None


def test_frames_that_are_not_messages() -> None:
    for data, error in (
        ("{", "a message must be JSON (Expecting property name"),
        (b"\xff", "a message must be JSON ('utf-8' codec can't decode"),
        ("[" * 40000 + "]" * 40000, f"a message must be at most {MAX_FRAME} bytes, not 80000"),
        ("[" * 4000 + "]" * 4000, "a message must be JSON (maximum recursion depth"),
        ("null", "a message must be a JSON object, not null"),
        ("NaN", "a message must be a JSON object, not NaN"),
    ):
        with pytest.raises(ProtocolError) as refusal:
            read_frame(data)
        assert refusal.value.code is ErrorCode.BAD_MESSAGE
        assert refusal.value.message.startswith(error), refusal.value.message


# ------------------------------------------------------------------ privacy

CODE = "[2-9TJQKA][cdhs]"
QUOTED = re.compile(f'"({CODE})"')
IN_WORDS = re.compile(f"(?<![A-Za-z0-9])({CODE})(?![A-Za-z0-9])")


def _walk(value: object) -> Iterator[tuple[str, object]]:
    if isinstance(value, dict):
        for key, inner in value.items():
            yield key, inner
            yield from _walk(inner)
    elif isinstance(value, list):
        for inner in value:
            yield from _walk(inner)


def cards_in(text: str) -> set[str]:
    """Every card a frame holds: in its card lists (walked), in any quoted string of two
    characters, and in the words of its ``text`` fields."""
    found = set(QUOTED.findall(text))
    for key, value in _walk(json.loads(text)):
        if key in ("cards", "board") and isinstance(value, list):
            found |= {str(card) for card in value}
        elif key == "card":
            found.add(str(value))
        elif key == "text" and isinstance(value, str):
            found |= set(IN_WORDS.findall(value))
    return found


@dataclass
class Sight:
    """What one receiver may see of the hand in play (PROTOCOL.md, 'Hole cards')."""

    own: set[str] = field(default_factory=set)
    seen: set[str] = field(default_factory=set)  # every card in this receiver's frames


@dataclass
class Room:
    """Plays a table as the room would, building each receiver's frames and checking
    each against what that receiver may see."""

    table: Table
    info: TableInfo
    players: dict[int, str] = field(default_factory=dict)
    scene: Scene = field(default_factory=lambda: Scene(Variant.O8))
    sights: dict[int | None, Sight] = field(default_factory=dict)
    public: set[str] = field(default_factory=set)  # the board and the hands shown
    holes: dict[int, set[str]] = field(default_factory=dict)
    folded: set[int] = field(default_factory=set)
    kinds: Counter[str] = field(default_factory=Counter)
    frames: int = 0
    folds: int = 0  # folded hands checked unseen by the other receivers

    @property
    def receivers(self) -> list[int | None]:
        return [*range(self.table.config.seats), None]

    def run(self, events: list[TableEvent]) -> None:
        before, self.scene = scenes(events, self.scene)
        names = {seat: p.name for seat, p in enumerate(self.table.seats) if p is not None}
        for event, scene in zip(events, before, strict=True):
            extra = self.learn(event)
            for viewer in self.receivers:
                encoded = encode_event(
                    seen_by(event, viewer), "t1", scene, names, players=self.players
                )
                self.kinds[str(encoded["kind"])] += 1
                self.check(viewer, frame(event_message("t1", 1, encoded)), extra)
        in_hand = self.table.hand is not None
        for viewer in self.receivers:
            state = encode_state(self.table.view(viewer), self.info, self.players)
            self.check(viewer, frame(table_message("t1", 1, state)), set(), in_hand)
            legal = self.table.view(viewer).legal
            if legal is not None and viewer is not None and self.table.hand is not None:
                turn = turn_message("t1", "t1-1", viewer, legal, None)
                self.check(viewer, frame(turn), set())

    def learn(self, event: TableEvent) -> set[str]:
        """What the event makes visible, before its frames go out; the cards of the
        draw for the button, visible in the hand's start alone."""
        if isinstance(event, HandStarted):
            self.end_of_hand()
            return {str(card) for _, card in event.draw}
        if not isinstance(event, InHand):
            return set()
        inner = event.event
        if isinstance(inner, HoleCardsDealt):
            cards = {str(c) for c in inner.cards}
            self.holes[inner.player] = cards
            self.sights.setdefault(inner.player, Sight()).own |= cards
        elif isinstance(inner, BoardDealt | Shown | TurnedFaceUp):
            self.public |= {str(c) for c in inner.cards}
        elif isinstance(inner, Acted) and inner.kind is ActionKind.FOLD:
            self.folded.add(inner.player)
        return set()

    def check(self, viewer: int | None, text: str, extra: set[str], in_hand: bool = True) -> None:
        sight = self.sights.setdefault(viewer, Sight())
        allowed = (sight.own | self.public | extra) if in_hand else set()
        cards = cards_in(text)
        assert cards <= allowed, f"seat {viewer} may not see {cards - allowed}: {text}"
        sight.seen |= cards - extra
        self.frames += 1

    def end_of_hand(self) -> None:
        """A folded hand was never seen by anyone but its owner."""
        for seat in self.folded:
            for viewer, sight in self.sights.items():
                if viewer != seat:
                    assert not sight.seen & self.holes[seat], f"seat {viewer} saw a fold"
            self.folds += 1
        self.sights, self.public, self.holes, self.folded = {}, set(), {}, set()


def play_room(
    variant: Variant, betting: FixedLimit | PotLimit | NoLimit | Mixed, players: int, seed: int
) -> Room:
    """Bots play ``hands`` hands at a table of ``players`` and one empty seat; players
    time out, come back, top up, leave and are replaced."""
    rake = Rake(5, cap=3) if seed % 2 else None
    config = TableConfig(variant, betting, seats=players + 1, rake=rake)
    table = Table(config)
    room = Room(table, TableInfo("t1", "Home", config))
    shuffle = random.Random(seed)
    bots = {seat: make_bot("random", f"P{seat}", seed * 100 + seat) for seat in range(players + 1)}
    for seat in range(players):
        room.players[seat] = f"id-{seat}"
        room.run(table.sit(seat, f"P{seat}", config.max_buy_in))
    for _ in range(HANDS):
        between_hands(room, shuffle)
        room.run(table.deal(Deck(shuffle.getrandbits(32)).cards, draw=Deck(seed).cards))
        while table.hand is not None:
            to_act = table.seat_to_act
            assert to_act is not None
            if shuffle.random() < 0.03:
                room.run(table.time_out(to_act))
            else:
                hand = table.hand.hand
                assert hand.to_act is not None
                action = bots[to_act].decide(hand.view(hand.to_act), variant)
                room.run(table.act(to_act, action))
    room.end_of_hand()
    return room


def between_hands(room: Room, shuffle: random.Random) -> None:
    table = room.table
    seated = [seat for seat, p in enumerate(table.seats) if p is not None]
    if shuffle.random() < 0.1:
        seat = shuffle.choice(seated)
        room.run(table.leave(seat))
        del room.players[seat]
        empty = next(s for s, p in enumerate(table.seats) if p is None and s != seat)
        room.players[empty] = f"id-new-{empty}"
        room.run(table.sit(empty, f"N{empty}", table.config.max_buy_in, post_now=True))
    for seat, player in enumerate(table.seats):
        if player is None:
            continue
        if player.stack == 0:
            room.run(table.add_chips(seat, table.config.min_buy_in))
        if player.sitting_out:
            room.run(table.sit_in(seat, post_now=shuffle.random() < 0.5))


HANDS = 20  # a game
GAMES: list[tuple[Variant, FixedLimit | PotLimit | NoLimit | Mixed, int, int]] = [
    (Variant.O8, PotLimit(1, 2), 6, 1),
    (Variant.OMAHA, NoLimit(1, 2), 2, 2),
    (Variant.BIGO, FixedLimit(2, 4), 5, 3),
    (Variant.HILO_NO_QUALIFIER, Mixed(FixedLimit(2, 4), PotLimit(1, 2), period=2), 4, 4),
    (Variant.O8, NoLimit(1, 2), 3, 5),
    (Variant.BIGO, PotLimit(1, 2), 2, 6),
    (Variant.OMAHA, Mixed(FixedLimit(2, 4), PotLimit(1, 2)), 6, 7),
    (Variant.HILO_NO_QUALIFIER, PotLimit(1, 2), 3, 8),
]


@pytest.fixture(scope="module")
def rooms() -> list[Room]:
    return [play_room(*game) for game in GAMES]


def test_no_frame_holds_a_card_its_receiver_may_not_see(rooms: list[Room]) -> None:
    """Every event and every snapshot after each table call, for every seat and a
    watcher, over 160 hands of every variant and structure (checked as they are played)."""
    assert sum(room.frames for room in rooms) > 30_000
    assert sum(room.folds for room in rooms) > 300
    assert sum(room.kinds["shown"] for room in rooms) > 500  # frames of hands shown


def test_the_games_cover_every_kind_of_event(rooms: list[Room]) -> None:
    kinds = sum((room.kinds for room in rooms), Counter[str]())
    assert set(kinds) == {
        "player_sat",
        "player_left",
        "sat_out",
        "sat_in",
        "chips_added",
        "stakes_changed",
        "hand_started",
        "posted",
        "dealt",
        "board",
        "acted",
        "round_ended",
        "uncalled",
        "face_up",
        "shown",
        "mucked",
        "rake",
        "pot_awarded",
        "hand_ended",
    }


def test_the_check_finds_a_card_sent_to_the_wrong_seat() -> None:
    """The privacy check can fail: another seat's deal, sent unfiltered, is caught; so
    is a card named only in the dealer's words."""
    table = seat_players(O8_POT_LIMIT, THREE)
    room = Room(table, info_of(table), dict(PLAYERS))
    events = deal_cards(table, ANN_ALL_IN_HOLES, "2c6d7hKcQd", button=2)
    room.run(events)
    dealt = next(e for e in events if isinstance(e, InHand) and isinstance(e.event, HoleCardsDealt))
    assert isinstance(dealt.event, HoleCardsDealt) and dealt.event.player == 0
    unfiltered = encode_event(dealt, "t1", Scene(Variant.O8), NAMES)
    with pytest.raises(AssertionError, match="seat 1 may not see"):
        room.check(1, frame(event_message("t1", 1, unfiltered)), set())
    spoken: JsonObject = {"kind": "x", "text": "Ann has Ks Kh"}
    with pytest.raises(AssertionError, match="seat 1 may not see"):
        room.check(1, frame(spoken), set())
    assert cards_in(frame({"text": "three of a kind, Aces; As"})) == {"As"}


def test_a_table_summary_names_the_home_game_options_it_plays() -> None:
    config = TableConfig(
        Variant.O8,
        FixedLimit(4, 8),
        seats=6,
        ante=1,
        rake=Rake(Fraction(5, 2), 6),
        rabbit_hunt=True,
        run_it_twice=True,
        bomb_pot=3,
        bomb_every=10,
        double_board=DoubleBoard.BOMB_POTS,
        kill=Kill(full=True, size=50),
    )
    summary = round_trip(table_summary(TableInfo("t7", "Home", config), 0))
    assert {key: summary[key] for key in options_json(config)} == {
        "ante": 1,
        "rake_percent": 2.5,
        "rake_cap": 6,
        "straddle": False,
        "run_it_twice": True,
        "rabbit_hunt": True,
        "bomb_pot": 3,
        "bomb_every": 10,
        "double_board": "bomb-pots",
        "kill": "full",
        "kill_size": 50,
    }


def test_a_snapshot_says_the_home_games_next_hand_and_the_viewers_own_straddle() -> None:
    """RULES.md 7: a page that comes back between hands learns a bomb pot is called, who
    kills the next hand, and its own straddle choice (no one else's seat shows one)."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=4, straddle=True, bomb_pot=2)
    table = Table(config)
    for seat, name in enumerate(("Ann", "Bob", "Cy")):
        table.sit(seat, name, 100)
    table.choose_straddle(1, Straddle.ALWAYS)
    table.call_bomb_pot()
    info = TableInfo("t7", "Home", config)
    players = {0: "p0", 1: "p1", 2: "p2"}
    state = round_trip(encode_state(table.view(1), info, players))
    assert (state["bomb_called"], state["kill_seat"]) == (True, None)
    assert [seat.get("straddle") for seat in state["seats"]] == [None, "always", None, None]
    watcher = round_trip(encode_state(table.view(None), info, players))
    assert all("straddle" not in seat for seat in watcher["seats"])
