"""Open Hand History (history/ohh.py) against the published spec (hh-specs.handhistory.org,
1.4.7): every hand of played simulated sessions, for every reader, holds the spec's
required fields and validates against a schema written from the spec; a hand with a side
pot and a split hi/lo pot writes its pots as the rules award them; the room serves it."""

from __future__ import annotations

import json
from collections import defaultdict
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

import jsonschema_rs
import pytest
from engine_helpers import deal, play
from room_helpers import Client, RoomServer, is_event, passive
from room_helpers import play as play_room

from splitpot.bots import RandomBot
from splitpot.engine import Hand
from splitpot.history import HandRecord, HistoryError
from splitpot.history.ohh import ohh_document, write_ohh
from splitpot.history.report import revealed_holes
from splitpot.history.table_log import hand_record, record_of
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Variant
from splitpot.simulation import simulate
from splitpot.table import TableConfig, TableHand

STARTED = datetime(2026, 3, 1, 20, 30, tzinfo=UTC)

# The spec's required fields ("all fields are required unless otherwise stated"): the
# optional ones are table_handle, table_skin, flags, tournament_info (tournaments),
# tournament_bounties, hero_player_id (null or left out when observed), the blinds
# (1.4.4), bet_cap, display, player_bounty, is_sitting_out, a round's cards, an action's
# amount, is_allin and cards (1.4.0), a pot's rake (1.4.4) and jackpot, and a win's
# cashout_amount, cashout_fee, bonus_amount and contributed_rake (deprecated in 1.4.7).
REQUIRED = {
    "ohh": [
        "spec_version", "site_name", "network_name", "internal_version", "tournament",
        "game_number", "start_date_utc", "table_name", "game_type", "bet_limit",
        "table_size", "currency", "dealer_seat", "ante_amount", "players", "rounds", "pots",
    ],
    "bet_limit": ["bet_type"],
    "player": ["id", "seat", "name", "starting_stack"],
    "round": ["id", "street", "actions"],
    "action": ["action_number", "player_id", "action"],
    "pot": ["number", "amount", "player_wins"],
    "player_wins": ["player_id", "win_amount"],
}  # fmt: skip
GAME_TYPES = ["Holdem", "Omaha", "OmahaHiLo", "Stud", "StudHiLo", "Draw"]
STREETS = ["Preflop", "Flop", "Turn", "River", "Showdown"]
ACTIONS = [
    "Dealt Cards", "Mucks Cards", "Shows Cards", "Post Ante", "Post SB", "Post BB",
    "Straddle", "Post Dead", "Post Extra Blind", "Fold", "Check", "Bet", "Raise", "Call",
    "Added Chips", "Sits Down", "Stands Up", "Add to Pot", "Player Adjustment",
]  # fmt: skip
DECIMAL = {"type": "number"}
CARDS = {"type": "array", "items": {"type": "string", "pattern": "^[2-9TJQKA][shdc]$"}}


def _object(name: str, properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "required": REQUIRED[name], "properties": properties}


SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "type": "object",
    "required": ["ohh"],
    "additionalProperties": False,
    "properties": {
        "ohh": _object(
            "ohh",
            {
                "spec_version": {"type": "string", "pattern": r"^\d+\.\d+\.\d+$"},
                "site_name": {"type": "string"},
                "network_name": {"type": "string"},
                "internal_version": {"type": "string", "pattern": r"^\d+\.\d+\.\d+$"},
                "tournament": {"type": "boolean"},
                "game_number": {"type": "string"},
                "start_date_utc": {
                    "type": "string",
                    "pattern": r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z?$",
                },
                "table_name": {"type": "string"},
                "game_type": {"enum": GAME_TYPES},
                "bet_limit": _object(
                    "bet_limit",
                    {
                        "bet_type": {"enum": ["NL", "PL", "FL"]},
                        "bet_cap": {"type": ["number", "null"]},
                    },
                ),
                "table_size": {"type": "integer", "minimum": 1},
                "currency": {"type": "string", "pattern": "^[A-Z]{3}$"},
                "dealer_seat": {"type": "integer"},
                "small_blind_amount": {"type": ["number", "null"]},
                "big_blind_amount": {"type": ["number", "null"]},
                "ante_amount": DECIMAL,
                "hero_player_id": {"type": ["integer", "null"]},
                "flags": {"type": "array", "items": {"type": "string"}},
                "players": {
                    "type": "array",
                    "minItems": 2,
                    "items": _object(
                        "player",
                        {
                            "id": {"type": "integer"},
                            "seat": {"type": "integer"},
                            "name": {"type": "string"},
                            "starting_stack": DECIMAL,
                        },
                    ),
                },
                "rounds": {
                    "type": "array",
                    "minItems": 1,
                    "items": _object(
                        "round",
                        {
                            "id": {"type": "integer"},
                            "street": {"enum": STREETS},
                            "cards": {"anyOf": [CARDS, {"type": "null"}]},
                            "actions": {
                                "type": "array",
                                "items": _object(
                                    "action",
                                    {
                                        "action_number": {"type": "integer"},
                                        "player_id": {"type": "integer"},
                                        "action": {"enum": ACTIONS},
                                        "amount": {"type": ["number", "null"]},
                                        "is_allin": {"type": "boolean"},
                                        "cards": {"anyOf": [CARDS, {"type": "null"}]},
                                    },
                                ),
                            },
                        },
                    ),
                },
                "pots": {
                    "type": "array",
                    "minItems": 1,
                    "items": _object(
                        "pot",
                        {
                            "number": {"type": "integer", "minimum": 0},
                            "amount": DECIMAL,
                            "rake": {"type": ["number", "null"]},
                            "player_wins": {
                                "type": "array",
                                "items": _object(
                                    "player_wins",
                                    {"player_id": {"type": "integer"}, "win_amount": DECIMAL},
                                ),
                            },
                        },
                    ),
                },
            },
        )
    },
}
VALIDATOR = jsonschema_rs.validator_for(SCHEMA)


def check_spec(doc: dict[str, Any]) -> None:
    """The schema, and what the spec says in words: round 0 is the preflop; a round lists
    only its new board cards; no bet before the flop; showing is in the showdown round;
    actions are numbered in order; every id is a player's."""
    VALIDATOR.validate(doc)
    ohh = doc["ohh"]
    ids = {player["id"] for player in ohh["players"]}
    assert ohh["hero_player_id"] in ids | {None}
    assert ohh["dealer_seat"] in {player["seat"] for player in ohh["players"]}
    rounds = ohh["rounds"]
    assert [r["id"] for r in rounds] == list(range(len(rounds)))
    assert rounds[0]["street"] == "Preflop"
    new_cards = {"Preflop": 0, "Flop": 3, "Turn": 1, "River": 1, "Showdown": 0}
    numbers = []
    for played in rounds:
        assert len(played["cards"]) == new_cards[played["street"]]
        for action in played["actions"]:
            assert action["player_id"] in ids
            assert (action["action"] == "Bet") <= (played["street"] != "Preflop")
            showing = action["action"] in ("Shows Cards", "Mucks Cards")
            assert showing == (played["street"] == "Showdown"), action
            numbers.append(action["action_number"])
    assert numbers == sorted(set(numbers))
    assert [pot["number"] for pot in ohh["pots"]] == list(range(len(ohh["pots"])))
    for pot in ohh["pots"]:
        assert {win["player_id"] for win in pot["player_wins"]} <= ids


def check_chips(doc: dict[str, Any], hand: Hand) -> None:
    """The chips add up as the engine counted them: each pot (rake included) is its wins
    and its rake; what the actions put in, less the pots, is what came back uncalled; each
    player's stack ends as the engine's does."""
    result = hand.result
    assert result is not None
    ohh = doc["ohh"]
    put_in: defaultdict[int, int] = defaultdict(int)
    for played in ohh["rounds"]:
        for action in played["actions"]:
            put_in[action["player_id"]] += action.get("amount") or 0
    won: defaultdict[int, int] = defaultdict(int)
    for pot in ohh["pots"]:
        wins = [win["win_amount"] for win in pot["player_wins"]]
        assert sum(wins) + pot["rake"] == pot["amount"]
        for win in pot["player_wins"]:
            won[win["player_id"]] += win["win_amount"]
    assert sum(pot["rake"] for pot in ohh["pots"]) == result.rake
    returned = dict(result.uncalled)
    for player in ohh["players"]:
        p = player["id"]
        back = won[p] + returned.get(p, 0)
        assert player["starting_stack"] - put_in[p] + back == result.stacks[p], player
    in_pots = sum(pot["amount"] for pot in ohh["pots"])
    assert sum(put_in.values()) - in_pots == sum(returned.values())


def check_privacy(doc: dict[str, Any], hand: Hand, hero: int | None) -> None:
    """No card the reader may not see: the board and ``revealed_holes`` only."""
    seen = {str(card) for cards in revealed_holes(hand, hero).values() for card in cards}
    board = {str(card) for card in hand.board if card is not None}
    named = {
        card
        for played in doc["ohh"]["rounds"]
        for card in played["cards"] + [c for a in played["actions"] for c in a.get("cards") or []]
    }
    assert named <= seen | board
    dealt = [a for r in doc["ohh"]["rounds"] for a in r["actions"] if a["action"] == "Dealt Cards"]
    assert [a["player_id"] for a in dealt] == ([] if hero is None else [hero])


SESSIONS = [
    TableConfig(Variant.O8, PotLimit(1, 2), seats=6, min_buy_in=40, max_buy_in=200, rake=Rake(5)),
    TableConfig(Variant.OMAHA, NoLimit(1, 2), seats=4, min_buy_in=40, max_buy_in=100),
    TableConfig(Variant.BIGO, FixedLimit(2, 4), seats=5, min_buy_in=20, max_buy_in=60, ante=1),
]


@pytest.mark.parametrize("config", SESSIONS, ids=["o8-pot-limit", "omaha-no-limit", "bigo-limit"])
def test_every_hand_of_a_simulated_session_for_every_reader(config: TableConfig) -> None:
    bots = [RandomBot(f"Bot {i}", seed=i) for i in range(config.seats)]
    played: list[TableHand] = []
    simulate(config, bots, 60, seed=11, played=played.append)
    assert len(played) == 60
    side_pots = split_pots = 0
    for table_hand in played:
        record, hand = record_of(table_hand), table_hand.hand
        for hero in [None, *range(len(record.players))]:
            doc = ohh_document(record, hand, started=STARTED, hero=hero, seats=config.seats)
            check_spec(doc)
            check_chips(doc, hand)
            check_privacy(doc, hand, hero)
        pots = doc["ohh"]["pots"]
        side_pots += len(pots) > 1
        split_pots += any(len(pot["player_wins"]) > 1 for pot in pots)
    assert side_pots, "no side pot in the session"
    assert split_pots or not config.variant.has_low, "no split pot in a hi/lo session"


def test_a_side_pot_and_a_split_hi_lo_main_pot() -> None:
    """Ann all in for 20: the main pot of 60 goes half to her kings (high), half to
    Bob's A-2-3-5-7 (low); Bob's jacks and low scoop the side pot of 60 from Cy."""
    config = GameConfig(Variant.O8, NoLimit(1, 2))
    hand = deal(config, [20, 100, 100], ["KsKh9s8s", "Ac3sJdJh", "TdTh4c6c"], "2h5d7cKdQs")
    play(hand, "allin", "call", "call", "bet 30", "call", "check", "check", "check", "check")
    record = hand_record(hand, ["Ann", "Bob", "Cy"], [0, 2, 4], "k3x9pq2a-7")
    doc = ohh_document(record, hand, started=STARTED, table="Home game", seats=9)
    check_spec(doc)
    check_chips(doc, hand)
    ohh = doc["ohh"]
    assert (ohh["game_type"], ohh["bet_limit"], ohh["table_size"]) == (
        "OmahaHiLo",
        {"bet_type": "NL", "bet_cap": 0},
        9,
    )
    assert (ohh["game_number"], ohh["table_name"]) == ("k3x9pq2a-7", "Home game")
    assert ohh["start_date_utc"] == "2026-03-01T20:30:00Z"
    main, side = ohh["pots"]
    assert (main["number"], main["amount"], main["rake"], side["amount"]) == (0, 60, 0, 60)
    assert main["player_wins"] == [
        {"player_id": 0, "win_amount": 30},  # the high half
        {"player_id": 1, "win_amount": 30},  # the low half
    ]
    assert side["player_wins"] == [{"player_id": 1, "win_amount": 60}]  # a scoop
    preflop = ohh["rounds"][0]["actions"]
    assert [(a["player_id"], a["action"], a.get("amount"), a.get("is_allin")) for a in preflop] == [
        (1, "Post SB", 1, False),
        (2, "Post BB", 2, False),
        (0, "Raise", 20, True),
        (1, "Call", 19, False),
        (2, "Call", 18, False),
    ]
    showdown = ohh["rounds"][-1]
    assert showdown["street"] == "Showdown"
    assert {a["player_id"]: a["cards"] for a in showdown["actions"]} == {
        0: ["Ks", "Kh", "9s", "8s"],
        1: ["Ac", "3s", "Jd", "Jh"],
        2: ["Td", "Th", "4c", "6c"],
    }


def test_money_in_cents_and_a_file_of_hands() -> None:
    record, hand = heads_up(Variant.O8, (25, 50), 5000)
    record = replace(record, unit="0.01", currency="$")
    doc = ohh_document(record, hand, started=STARTED, hero=0)
    check_spec(doc)
    ohh = doc["ohh"]
    blinds = (ohh["small_blind_amount"], ohh["big_blind_amount"])
    assert (ohh["currency"], blinds) == ("USD", (0.25, 0.5))
    assert [p["starting_stack"] for p in ohh["players"]] == [50, 50]
    assert ohh["pots"][0]["player_wins"] == [{"player_id": 1, "win_amount": 0.5}]
    text = write_ohh([doc, doc])
    assert text.count("\n") == 3 and text.endswith("}\n")
    assert [json.loads(part) for part in text.split("\n\n")] == [doc, doc]
    chips = ohh_document(replace(record, currency=""), hand, started=STARTED)
    assert chips["ohh"]["currency"] == "XPM"


def heads_up(variant: Variant, blinds: tuple[int, int], stacks: int) -> tuple[HandRecord, Hand]:
    """A heads-up hand where the button (small blind) folds at once."""
    config = GameConfig(variant, PotLimit(*blinds))
    hand = play(deal(config, [stacks, stacks], ["AcKc2d3d", "QsQh9s8h"], "4h5h6c7dTs"), "fold")
    return hand_record(hand, ["Ann", "Bob"], [0, 1], "2"), hand


def test_hi_lo_without_a_qualifier_is_refused_by_name() -> None:
    record, hand = heads_up(Variant.HILO_NO_QUALIFIER, (1, 2), 100)
    with pytest.raises(HistoryError, match="OHH has no game type for Omaha Hi/Lo"):
        ohh_document(record, hand, started=STARTED)


@pytest.mark.one_database
def test_the_room_serves_each_reader_their_ohh(room: RoomServer) -> None:
    """GET /api/hands/{id}?format=ohh: Ann folds before the flop, so Bob's and a watcher's
    documents never hold her cards; hers has them dealt to her, the hero."""
    ann_token, bob_token = room.guest("Ann")[1], room.guest("Bob")[1]
    table = room.create_table(ann_token, name="OHH", seats=2)["table"]["id"]
    ann, bob = Client(room, ann_token), Client(room, bob_token)
    ann.sit(table, 1, 200)
    bob.sit(table, 2, 200)
    started = ann.wait(is_event("hand_started"))["event"]
    hand_id = started["hand"]

    def ann_folds(client: Client, turn: dict[str, Any]) -> dict[str, Any]:
        if client is ann and any(entry["action"] == "fold" for entry in turn["legal"]):
            return {"action": "fold"}
        return passive(client, turn)

    def ended() -> bool:
        return hand_id in {event["hand"] for event in ann.events("hand_ended")}

    play_room([ann, bob], table, ended, ann_folds)
    documents = {}
    for who, token in (("ann", ann_token), ("bob", bob_token), ("watcher", None)):
        with room.http(token) as http:
            answer = http.get(f"/api/hands/{hand_id}?format=ohh")
        assert answer.status_code == 200, answer.text
        assert answer.headers["content-type"].startswith("application/json")
        documents[who] = answer.json()
        check_spec(documents[who])
    names = [p["name"] for p in documents["ann"]["ohh"]["players"]]
    ann_id, bob_id = names.index("Ann"), names.index("Bob")
    assert documents["ann"]["ohh"]["hero_player_id"] == ann_id
    assert documents["bob"]["ohh"]["hero_player_id"] == bob_id
    assert documents["watcher"]["ohh"]["hero_player_id"] is None
    assert documents["ann"]["ohh"]["game_number"] == hand_id

    def cards_of(doc: dict[str, Any], player: int) -> list[str]:
        actions = [a for r in doc["ohh"]["rounds"] for a in r["actions"]]
        return [c for a in actions if a["player_id"] == player for c in a.get("cards") or []]

    assert len(cards_of(documents["ann"], ann_id)) == 4
    assert cards_of(documents["bob"], ann_id) == cards_of(documents["watcher"], ann_id) == []
    with room.http(ann_token) as http:
        refused = http.get(f"/api/hands/{hand_id}?format=ohhh")
        whole = http.get(f"/api/tables/{table}/hands.txt", params={"format": "ohh"})
    assert refused.status_code == 400
    assert whole.status_code == 200, whole.text
    assert 'filename="' + table + '-hands.ohh"' in whole.headers["content-disposition"]
    objects = [json.loads(part) for part in whole.text.split("\n\n")]  # the spec's file
    assert objects[-1] == documents["ann"] and all("ohh" in o for o in objects)
