"""Check a hand's deal (FAIRNESS.md, splitpot-deal-v1) from its JSON record, with nothing
but the standard library: ``python -m splitpot.verify HAND.json`` or ``--chain FILE``.

Exit 0 with a short report when every check passes; 1 naming each check that failed; 2
when the file cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from splitpot import fair
from splitpot.fair import chain_hash
from splitpot.reading import (
    JsonProblem,
    numbered_lines,
    parse_json,
    read_bounded,
    shown,
    why_unread,
)

UNKNOWN = "??"


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str = ""


def _hex(value: Any, size: int, what: str) -> bytes:
    """``value`` as bytes, if it is lowercase hex of ``size`` bytes."""
    if not isinstance(value, str) or len(value) != 2 * size or value != value.lower():
        raise fair.FairnessError(f"{what} is not {size} bytes of lowercase hex")
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise fair.FairnessError(f"{what} is not {size} bytes of lowercase hex") from None


def _cards(text: Any, what: str) -> list[str]:
    if not isinstance(text, str):
        raise fair.FairnessError(f"{what} is {shown(text)}, not a string of cards")
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """A number of the record (a JSON number or its digits) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise fair.FairnessError(f"{what} is {shown(value)}, not a whole number")
    number = int(value) if isinstance(value, int) or (value.isdecimal() and len(value) < 10) else -1
    if not low <= number <= high:
        raise fair.FairnessError(f"{what} is {shown(value)}, not a number from {low} to {high}")
    return number


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise fair.FairnessError(f"{what} is {shown(value)}, not a string")
    return value


@dataclass(frozen=True)
class Own:
    """What only the player knows: their seat and the entropy they revealed for the hand."""

    seat: int
    entropy: bytes


def verify_hand(
    record: Mapping[str, Any],
    announced: Mapping[str, Any] | None = None,
    own: Own | None = None,
) -> list[Check]:
    """Every check of FAIRNESS.md on one hand's record, in order; with the hand's
    ``announced`` start (the ``hand_started`` event as a client received it), the checks
    of "What the player's own client checks" too, and with ``own``, that the player's
    entropy is in the deal. A check that cannot be made (a missing or malformed field)
    fails with the reason."""
    fairness = record.get("fairness")
    if not isinstance(fairness, dict):
        return [Check("fairness", False, "the record has no fairness object")]
    try:
        checks = _checks(record, fairness)
        if announced is not None:
            checks += _announced(record, fairness, announced)
        if own is not None:
            checks += _own(fairness, announced, own)
        return checks
    except KeyError as error:
        return [Check("record", False, f"cannot be checked: the field {error} is missing")]
    except (fair.FairnessError, TypeError, ValueError, IndexError, OverflowError) as error:
        return [Check("record", False, f"cannot be checked: {error}")]


def _checks(record: Mapping[str, Any], fairness: Mapping[str, Any]) -> list[Check]:
    checks = [Check("scheme", fairness["scheme"] == fair.SCHEME, _named(fairness["scheme"]))]
    seed = _hex(fairness["server_seed"], fair.SEED_BYTES, "server_seed")
    served = fair.server_commitment(seed).hex()
    checks.append(Check("server seed", served == fairness["server_commitment"], "T = H(t)"))
    entropy: dict[int, bytes] = {}
    for player in fairness["players"]:
        seat = _whole(player["seat"], "a player's seat", 0, 255)
        if player["entropy"] is None:
            checks.append(Check(f"seat {seat}'s entropy", True, "not revealed: dealt without"))
            continue
        value = _hex(player["entropy"], fair.SEED_BYTES, f"seat {seat}'s entropy")
        made = fair.player_commitment(value).hex() == player["commitment"]
        checks.append(Check(f"seat {seat}'s entropy", made, "u = H(x)"))
        entropy[seat] = value
    commitments = [_hex(c, 32, "a card commitment") for c in fairness["commitments"]]
    deck = fair.deck_commitment(commitments)
    checks.append(Check("deck commitment", deck.hex() == fairness["deck_commitment"], "D"))
    if fairness["table_id"] != record.get("table", fairness["table_id"]) or fairness[
        "hand_id"
    ] != record.get("id"):
        checks.append(Check("hand", False, "the fairness object is another hand's"))
    table_id = _text(fairness["table_id"], "table_id")
    key = fair.deal_key(table_id, _text(fairness["hand_id"], "hand_id"), deck, seed, entropy)
    order = fair.permutation(key)
    revealed: dict[int, str] = {}
    for entry in fairness["revealed"]:
        position = _whole(entry["position"], "a revealed position", 0, len(fair.CARDS) - 1)
        card = _text(entry["card"], f"the card at position {position}")
        salt = _hex(entry["salt"], fair.SALT_BYTES, f"the salt at position {position}")
        matches = fair.card_commitment(salt, card) == commitments[order[position]]
        checks.append(Check(f"card {card} at position {position}", matches, "c = H(r, card)"))
        revealed[position] = card
    checks += _dealing_order(record, fairness, revealed)
    return checks


def _seats_of(record: Mapping[str, Any]) -> list[int]:
    return [_whole(p["seat"], "a player's seat", 0, 255) for p in record["players"]]


def _hole_cards(record: Mapping[str, Any], seats: Sequence[int]) -> int:
    """How many hole cards each player was dealt, by the rules of the record's variant
    (FAIRNESS.md step 6: four, five in Big O), not by its hands; each hand must hold them."""
    game = record["game"]
    variant = game.get("variant") if isinstance(game, dict) else None
    if not isinstance(variant, str) or variant not in fair.HOLE_CARDS:
        known = ", ".join(fair.HOLE_CARDS)
        raise fair.FairnessError(f"the record's variant is {shown(variant)}, not one of {known}")
    hole_cards = fair.HOLE_CARDS[variant]
    holes = [_cards(hole, "a player's hole cards") for hole in record["holes"]]
    if len(holes) != len(seats):
        raise fair.FairnessError(f"the record has {len(seats)} players and {len(holes)} hands")
    for seat, hole in zip(seats, holes, strict=True):
        if len(hole) != hole_cards:
            raise fair.FairnessError(
                f"seat {seat}'s hand holds {len(hole)} cards, where {variant} deals {hole_cards}"
            )
    return hole_cards


def _dealing_order(
    record: Mapping[str, Any], fairness: Mapping[str, Any], revealed: dict[int, str]
) -> list[Check]:
    """Each card the record shows sits at the place FAIRNESS.md step 6 deals it from: the
    order of dealing derived from the record's button and seats, the number of hole cards
    from its variant; the fairness object's own ``seats_dealt`` and ``hole_cards`` must
    agree with them."""
    seats = _seats_of(record)
    button = _whole(record["button"], "the button", 0, len(seats) - 1)
    order = fair.dealing_order(seats[button], seats)
    claimed = [_whole(seat, "a seat dealt", 0, 255) for seat in fairness["seats_dealt"]]
    hole_cards = _hole_cards(record, seats)
    checks = [
        _derived(
            "seats dealt", order, claimed, _seat_list, f"from the button (seat {seats[button]})"
        ),
        _derived("hole cards", hole_cards, fairness["hole_cards"], shown, "each"),
    ]
    if len(order) * hole_cards + 8 > len(fair.CARDS):  # the engine's deck_size
        raise fair.FairnessError(
            f"{len(order)} seats of {hole_cards} hole cards are more than a deck deals"
        )
    holes, board = fair.dealing_positions(len(order), hole_cards)
    expected: dict[int, tuple[str, str]] = {}  # position -> (the card, where it went)
    for position, card in zip(board, _cards(record["board"], "the board"), strict=False):
        expected[position] = (card, "the board")
    by_seat = {seat: index for index, seat in enumerate(seats)}
    for index, seat in enumerate(order):
        hole = _cards(record["holes"][by_seat[seat]], f"seat {seat}'s hole cards")
        for position, card in zip(holes[index], hole, strict=True):
            if card != UNKNOWN:
                expected[position] = (card, f"seat {seat}")
    for position, (card, where) in sorted(expected.items()):
        found = revealed.get(position)
        detail = f"{card} to {where} from position {position}"
        if found is None:
            detail += ": not revealed"
        checks.append(Check(f"dealt {card}", found == card, detail))
    for position in sorted(set(revealed) - set(expected)):
        checks.append(Check(f"position {position}", False, "revealed, but no card of the hand"))
    return checks


def _derived(name: str, derived: Any, claimed: Any, said: Any, how: str) -> Check:
    """A value derived from the rules, and the record's claim of it, which must agree."""
    detail = f"{said(derived)}, {how}"
    if claimed != derived:
        detail += f"; the record says {said(claimed)}"
    return Check(name, claimed == derived, detail)


def _seat_list(seats: Sequence[int]) -> str:
    return "seats " + ", ".join(map(str, seats)) if seats else "no seat"


# ------------------------------------------------------------------ the announcement


KINDS_TOLD = ("hand_started", "hand_cancelled")  # what --announced reads of a client's events


@dataclass(frozen=True)
class CalledOff:
    """A hand's announcement the room called off, by ``hand_cancelled`` or by announcing the
    hand again: after a reveal, a room could cancel until it likes the deal (FAIRNESS.md)."""

    hand: str
    announced: Mapping[str, Any] | None  # None: the file does not hold it
    cancelled: bool  # said by a hand_cancelled (else: by the next announcement alone)
    again: Mapping[str, Any] | None  # the hand's next announcement, if the file holds one

    def check(self, source: str) -> Check:
        """Failed when the announcement listed players' commitments (they could reveal)."""
        name = f"hand {_named(self.hand)}"
        if self.announced is None:
            return Check(name, False, f"called off, but its announcement is not in {source}")
        fairness = self.announced.get("fairness")
        if not isinstance(fairness, dict) or not fairness.get("players"):
            return Check(name, True, "called off before any player's commitment was listed")
        detail = "was called off after the players could reveal their entropy"
        if not self.cancelled:
            detail += " (with no hand_cancelled)"
        if self.again is not None:
            new = self.again.get("fairness") != fairness
            detail += " and dealt again" + (" under new commitments" if new else "")
        detail += ": a room that cancels until it likes the cards could do this"
        return Check(name, False, detail)


@dataclass(frozen=True)
class Announcements:
    """What a client was told before the deals, in the order it was told: the announcement
    each hand was dealt under, and every announcement called off (FAIRNESS.md)."""

    hands: Mapping[str, Mapping[str, Any]]  # by hand id: its last announcement standing
    called_off: tuple[CalledOff, ...]


def announcements(loaded: Any) -> Announcements:
    """The ``hand_started`` and ``hand_cancelled`` events of a file in the order a client
    received them: one event, a list, each bare or as the frame that carried it (``{"type":
    "event", "table", "event"}``, whose table is kept with its event). Anything else is
    skipped, so a client may keep all it received; the same announcement twice is one."""
    items = loaded if isinstance(loaded, list) else [loaded]
    events: list[Mapping[str, Any]] = []
    for item in items:
        event = item.get("event") if isinstance(item, dict) and "event" in item else item
        if not isinstance(event, dict) or event.get("kind") not in KINDS_TOLD:
            continue
        if isinstance(item, dict) and "table" in item and "table" not in event:
            event = {**event, "table": item["table"]}
        events.append(event)
    standing: dict[str, Mapping[str, Any]] = {}
    last: dict[str, Mapping[str, Any]] = {}  # each hand's last event: the same again is one
    ends: list[tuple[int, str, Mapping[str, Any] | None, bool]] = []
    for index, event in enumerate(events):
        hand = _text(event.get("hand"), f"the hand of a {event['kind']}")
        if last.get(hand) == event:
            continue
        last[hand] = event
        before = standing.pop(hand, None)
        if event["kind"] == "hand_cancelled":
            ends.append((index, hand, before, True))
            continue
        if before is not None:
            ends.append((index, hand, before, False))
        standing[hand] = event
    if not any(event["kind"] == "hand_started" for event in events):
        raise ValueError("the file holds no hand_started event (the announcement of a hand)")
    called_off = tuple(
        CalledOff(hand, before, cancelled, _next_of(hand, events[index:]))
        for index, hand, before, cancelled in ends
    )
    return Announcements(standing, called_off)


def _next_of(hand: str, events: Sequence[Mapping[str, Any]]) -> Mapping[str, Any] | None:
    """The first announcement of ``hand`` among ``events``."""
    return next((e for e in events if e["kind"] == "hand_started" and e.get("hand") == hand), None)


def _announced(
    record: Mapping[str, Any], fairness: Mapping[str, Any], started: Mapping[str, Any]
) -> list[Check]:
    """The record against the hand's announcement (FAIRNESS.md "What the player's own
    client checks"): the same hand, ``D``, ``T``, exactly the commitments announced, and
    the order of dealing derived from the announced button and seats."""
    announced = started["fairness"]
    if not isinstance(announced, dict):
        return [Check("announced", False, "the hand was announced without its commitments")]
    same = (
        fairness["hand_id"] == started["hand"]
        and started.get("table", fairness["table_id"]) == fairness["table_id"]
    )
    checks = [Check("announced hand", same, f"{_named(started['hand'])}")]
    for field, name in (("deck_commitment", "D"), ("server_commitment", "T")):
        agrees = fairness[field] == announced[field]
        detail = f"{name} as announced" if agrees else f"{name} is not the one announced"
        checks.append(Check(f"announced {field.replace('_', ' ')}", agrees, detail))
    told = {
        _whole(p["seat"], "an announced seat", 0, 255): p["commitment"]
        for p in announced["players"]
    }
    listed = {
        _whole(p["seat"], "a player's seat", 0, 255): p["commitment"] for p in fairness["players"]
    }
    for seat in sorted(set(told) | set(listed)):
        if seat not in listed:
            detail = "announced, missing from the record"
        elif seat not in told:
            detail = "in the record, never announced"
        else:
            detail = "as announced" if told[seat] == listed[seat] else "not the one announced"
        checks.append(Check(f"seat {seat}'s commitment", detail == "as announced", detail))
    checks += [
        Check(f"seat {p['seat']}'s entropy", True, "missing: the room dealt without it")
        for p in fairness["players"]
        if p["entropy"] is None and p["seat"] in told
    ]
    seats = [_whole(s["seat"], "an announced seat", 0, 255) for s in started["seats"]]
    button = _whole(started["button"], "the announced button", 0, 255)
    order = fair.dealing_order(button, seats)
    dealt = [_whole(seat, "a seat dealt", 0, 255) for seat in fairness["seats_dealt"]]
    how = f"from the announced button (seat {button})"
    checks.append(_derived("announced dealing order", order, dealt, _seat_list, how))
    record_seats = sorted(_seats_of(record))
    how = "as announced"
    checks.append(_derived("announced seats", sorted(seats), record_seats, _seat_list, how))
    return checks


def _own(fairness: Mapping[str, Any], started: Mapping[str, Any] | None, own: Own) -> list[Check]:
    """The player's own entropy: announced under its commitment, in the record, and so in
    the key (every revealed card is checked under that key)."""
    commitment = fair.player_commitment(own.entropy).hex()
    checks = []
    if started is not None:
        told = {p["seat"]: p["commitment"] for p in started["fairness"]["players"]}
        if own.seat not in told:
            detail = "the announcement left out your commitment"
        else:
            detail = "announced" if told[own.seat] == commitment else "another was announced"
        checks.append(Check("your commitment", detail == "announced", detail))
    mine = [p for p in fairness["players"] if p["seat"] == own.seat]
    if not mine:
        detail = f"seat {own.seat} is not among the deal's players"
    elif mine[0]["entropy"] is None:
        detail = "missing: the room dealt without your entropy"
    else:
        detail = "in the deal" if mine[0]["entropy"] == own.entropy.hex() else "not yours"
    checks.append(Check("your entropy", detail == "in the deal", detail))
    return checks


# ------------------------------------------------------------------ the chain


def public_view(record: Mapping[str, Any]) -> Mapping[str, Any]:
    """The record as anyone sees it, which the chain covers: a player's own copy names in
    ``chain.private`` the deck positions only its reader sees (their hole cards), and
    without them, their salts and ``you`` it is the public record."""
    chain = record.get("chain")
    private = chain.get("private", []) if isinstance(chain, dict) else []
    if not private and record.get("you") is None:
        return record
    if not isinstance(private, list) or not all(
        isinstance(p, int) and not isinstance(p, bool) for p in private
    ):
        raise ValueError("chain.private is not a list of deck positions")
    deck = _cards(record["deck"], "the deck")
    hidden = {deck[p] for p in private if 0 <= p < len(deck)}
    public = dict(record)
    if isinstance(chain, dict):
        public["chain"] = {key: value for key, value in chain.items() if key != "private"}
    public["you"] = None
    public["deck"] = "".join(UNKNOWN if card in hidden else card for card in deck)
    public["holes"] = [
        "".join(UNKNOWN if card in hidden else card for card in _cards(hole, "hole cards"))
        for hole in record["holes"]
    ]
    fairness = record.get("fairness")
    if isinstance(fairness, dict):
        revealed = [r for r in fairness["revealed"] if r.get("position") not in private]
        public["fairness"] = {**fairness, "revealed": revealed}
    return public


def verify_chain(records: Sequence[Mapping[str, Any]]) -> list[Check]:
    """The table's records in order, each ``chain`` (``previous``, ``hash``) following the
    one before, over the record as anyone sees it; stops at the first that does not fit."""
    checks: list[Check] = []
    previous: bytes | None = None
    for record in records:
        chain = record.get("chain")
        name = f"hand {_named(record.get('id'))}"
        if not isinstance(chain, dict):
            return [*checks, Check(name, False, "the record has no chain")]
        try:
            before = _hex(chain["previous"], 32, "chain.previous")
        except (fair.FairnessError, KeyError) as error:
            return [*checks, Check(name, False, str(error))]
        if previous is not None and before != previous:
            return [*checks, Check(name, False, "does not follow the hand before it")]
        try:
            made = chain_hash(before, public_view(record))
        except (KeyError, TypeError) as error:
            return [*checks, Check(name, False, f"cannot be hashed: {error}")]
        except (ValueError, RecursionError) as error:  # a lone surrogate; nested too deep
            return [*checks, Check(name, False, f"cannot be hashed: {error}")]
        if made.hex() != chain.get("hash"):
            return [*checks, Check(name, False, "its hash does not match its contents")]
        checks.append(Check(name, True, made.hex()[:16]))
        previous = made
    return checks


# ------------------------------------------------------------------ the audit


def verify_audit(
    audit: Mapping[str, Any], records: Sequence[Mapping[str, Any]] = ()
) -> list[Check]:
    """FAIRNESS.md "The end-of-session audit": each hand's 52 commitments, opened with
    every salt, are 52 different cards and make its ``D``; each record given has the
    ``D`` and commitments the audit opens."""
    checks: list[Check] = []
    opened: dict[str, str] = {}  # hand id -> D
    hands = audit.get("hands")
    if not isinstance(hands, list) or not hands:
        return [Check("audit", False, "the file has no hands to audit (a list 'hands')")]
    for hand in hands:
        name = f"hand {_named(hand.get('hand') if isinstance(hand, dict) else hand)}"
        try:
            detail = _audited(hand)
        except (KeyError, TypeError, AttributeError) as error:
            checks.append(Check(name, False, f"cannot be checked: {error}"))
            continue
        except fair.FairnessError as error:
            checks.append(Check(name, False, str(error)))
            continue
        checks.append(Check(name, detail.startswith("52 "), detail))
        opened[hand["hand"]] = hand["deck_commitment"]
    for record in records:
        fairness = record.get("fairness")
        name = f"record {_named(record.get('id'))}"
        if not isinstance(fairness, dict) or record.get("id") not in opened:
            checks.append(Check(name, False, "not among the hands audited"))
            continue
        agrees = fairness.get("deck_commitment") == opened[record["id"]]
        checks.append(Check(name, agrees, "D as audited" if agrees else "D is not the audited"))
    return checks


def _audited(hand: Mapping[str, Any]) -> str:
    """One hand of an audit: what its 52 opened commitments are, or the first fault."""
    cards = [_text(c, "an audited card") for c in hand["cards"]]
    salts = [_hex(s, fair.SALT_BYTES, "an audited salt") for s in hand["salts"]]
    if len(cards) != len(fair.CARDS) or len(salts) != len(fair.CARDS):
        return f"opens {len(cards)} cards and {len(salts)} salts, not 52 of each"
    commitments = [fair.card_commitment(s, c) for s, c in zip(salts, cards, strict=True)]
    if fair.deck_commitment(commitments).hex() != hand["deck_commitment"]:
        return "the opened commitments do not make its D"
    twice = sorted({card for card in cards if cards.count(card) > 1})
    if twice:
        return f"commits to {', '.join(twice)} more than once"
    return "52 different cards, as committed in D"


# ------------------------------------------------------------------ the command


def _named(value: Any) -> str:
    """A record's id or scheme as a report names it: as written, or cut when it is long."""
    text = str(value)
    return text if len(text) <= 60 else shown(value)


def _load(path: Path) -> Any:
    """A JSON file, or one JSON object a line (the table page's export)."""
    try:
        text = read_bounded(path).decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise ValueError(
            f"not UTF-8 text: byte 0x{error.object[error.start]:02x} at offset {error.start}"
        ) from None
    if not text or text.isspace():
        raise ValueError("the file is empty")
    try:
        return parse_json(text)
    except JsonProblem as whole:
        lines = ((n, line) for n, line in numbered_lines(text) if line.strip())
        number, line = next(lines)
        try:
            first = parse_json(line, number)
        except JsonProblem:
            raise whole from None  # one document, broken: where the whole file breaks
        rest = [parse_json(line, number) for number, line in lines]
        if not rest:
            raise whole from None
        return [first, *rest]


def _records(loaded: Any) -> list[Mapping[str, Any]]:
    """A file's hands, oldest first: one record, a list of them, or the answer of
    ``GET /api/tables/{id}/hands`` (``{"hands": [...]}``, newest first)."""
    if isinstance(loaded, dict) and isinstance(loaded.get("hands"), list):
        loaded = loaded["hands"][::-1]
    if isinstance(loaded, dict):
        return [loaded]
    if isinstance(loaded, list) and loaded and all(isinstance(item, dict) for item in loaded):
        return loaded
    if loaded == []:
        raise ValueError("the file holds no hand record: its list of hands is empty")
    raise ValueError("the file holds no hand record (a JSON object or a list of them)")


def report(checks: Sequence[Check], out: Any) -> bool:
    for check in checks:
        mark = "ok  " if check.passed else "FAIL"
        print(f"  {mark} {check.name}" + (f": {check.detail}" if check.detail else ""), file=out)
    return all(check.passed for check in checks) and bool(checks)


DESCRIPTION = (
    "Check hands dealt by splitpot-deal-v1 (FAIRNESS.md) from their JSON records "
    "(GET /api/hands/ID), with nothing but Python's standard library; with --announced, "
    "against the hands' announcements as your client received them; with --audit, a "
    "session's audit. Exit status: 0 when every check passes, 1 naming each one that "
    "fails, 2 when a file cannot be read or the arguments do not fit."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's arguments (``python -m splitpot.verify`` and ``splitpot verify``)."""
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help="hand records")
    parser.add_argument(
        "--chain",
        action="store_true",
        help="also check that the hands of each file follow one another (oldest first)",
    )
    parser.add_argument(
        "--announced",
        type=Path,
        metavar="START",
        help="the events your client received (one, a JSON list, or one a line): each record "
        "must be the deal its hand_started announced, and no hand may be called off "
        "(hand_cancelled, or announced again) after the players could reveal",
    )
    parser.add_argument(
        "--entropy", metavar="HEX", help="the entropy you revealed (64 hex digits; with --seat)"
    )
    parser.add_argument("--seat", type=int, metavar="N", help="your seat (with --entropy)")
    parser.add_argument(
        "--audit",
        type=Path,
        metavar="AUDIT",
        help="a session's audit (GET /api/tables/ID/audit): every hand's 52 commitments "
        "are 52 different cards; the records given must be among its hands",
    )


def _own_arguments(args: argparse.Namespace) -> Own | None:
    """``--entropy`` and ``--seat``, both or neither."""
    if (args.entropy is None) != (args.seat is None):
        raise ValueError("--entropy and --seat go together: your entropy and your seat")
    if args.entropy is None:
        return None
    if not 1 <= args.seat <= 255:
        raise ValueError(f"--seat {args.seat} is not a seat (1 to 255)")
    try:
        return Own(args.seat, _hex(args.entropy, fair.SEED_BYTES, "--entropy"))
    except fair.FairnessError as error:
        raise ValueError(str(error)) from None


def _read(path: Path, reading: Callable[[Any], Any] = lambda loaded: loaded) -> Any:
    """A file given on the command line, as ``reading`` takes it; ValueError naming it."""
    try:
        return reading(_load(path))
    except (OSError, ValueError) as error:
        raise ValueError(f"{path}: cannot be read: {why_unread(error)}") from None


def run(args: argparse.Namespace) -> int:
    try:
        own = _own_arguments(args)
        if not args.files and args.audit is None:
            raise ValueError("name the hand records to check (or --audit AUDIT)")
        told = None if args.announced is None else _read(args.announced, announcements)
        audit = None if args.audit is None else _read(args.audit)
        if audit is not None and not isinstance(audit, dict):
            raise ValueError(f"{args.audit}: not an audit (a JSON object with 'hands')")
        files = [(path, _read(path, _records)) for path in args.files]
    except ValueError as error:
        print(error, file=sys.stderr)
        return 2
    passed = True
    if told is not None and told.called_off:
        print(f"{args.announced}: hands called off")
        checks = [called.check(str(args.announced)) for called in told.called_off]
        passed = report(checks, sys.stdout)
    for path, records in files:
        for record in records:
            announced = None
            if told is not None:
                announced = told.hands.get(str(record.get("id")))
                if announced is None:
                    print(
                        f"hand {_named(record.get('id'))}: FAILED: no announcement of it "
                        f"in {args.announced}"
                    )
                    passed = False
                    continue
            passed = report_hand(record, verify_hand(record, announced, own)) and passed
        if args.chain:
            print(f"{path}: chain of {len(records)} hands")
            passed = report(verify_chain(records), sys.stdout) and passed
    if audit is not None:
        hands = [record for _, records in files for record in records]
        print(f"{args.audit}: audit")
        passed = report(verify_audit(audit, hands), sys.stdout) and passed
    return 0 if passed else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m splitpot.verify", description=DESCRIPTION)
    configure(parser)
    return run(parser.parse_args(argv))


def report_hand(record: Mapping[str, Any], checks: Sequence[Check]) -> bool:
    failed = [check for check in checks if not check.passed]
    verdict = "verified" if not failed else f"{len(failed)} check(s) FAILED"
    print(f"hand {_named(record.get('id'))}: {verdict} ({len(checks)} checks)")
    if failed:
        report(failed, sys.stdout)
    return not failed


if __name__ == "__main__":
    sys.exit(main())
