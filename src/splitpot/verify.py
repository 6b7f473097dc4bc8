"""Check a hand's deal (FAIRNESS.md, splitpot-deal-v1) from its JSON record, with nothing
but the standard library: ``python -m splitpot.verify HAND.json`` or ``--chain FILE``.

Exit 0 with a short report when every check passes; 1 naming each check that failed; 2
when the file cannot be read.

The report's words are English here; ``splitpot verify --lang`` says them in another
language: each is made by ``say`` as a message and its fields (``Said``), which the
command's ``splitpot.i18n.Words`` translates (this module itself imports no more than the
standard library and splitpot's own).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

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


class Said(str):
    """Words of the report: the English text, and the message and fields it was made of,
    so that a reader of another language is told them in theirs (``spoken``)."""

    message: str
    fields: dict[str, Any]

    def __new__(cls, message: str, /, **fields: Any) -> Said:
        made = super().__new__(cls, message.format(**fields))
        made.message, made.fields = message, fields
        return made


def say(message: str, /, **fields: Any) -> Said:
    """A message of the report with its fields: English now, the reader's language when
    it is printed (marked here for the catalogues: ``splitpot.i18n``)."""
    return Said(message, **fields)


class Speaker(Protocol):
    """A language's words, as ``splitpot.i18n.Words`` says them."""

    def say(self, message: str, /, **fields: Any) -> str: ...

    def say_n(self, singular: str, plural: str, count: int, /, **fields: Any) -> str: ...


class _English:
    """The messages as they are written (English), with nothing to import."""

    def say(self, message: str, /, **fields: Any) -> str:
        return message.format(**fields)

    def say_n(self, singular: str, plural: str, count: int, /, **fields: Any) -> str:
        return (singular if count == 1 else plural).format(count=count, **fields)


ENGLISH: Speaker = _English()


def spoken(text: object, words: Speaker = ENGLISH) -> str:
    """Words of the report in the reader's language (text that is not ``Said``, as it is)."""
    if not isinstance(text, Said):
        return str(text)
    fields = {name: spoken(value, words) for name, value in text.fields.items()}
    return words.say(text.message, **fields)


def reason(error: BaseException) -> str:
    """What an error says: its ``Said`` message if it was made of one."""
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Said) else str(error)


@dataclass(frozen=True)
class Check:
    name: str
    passed: bool
    detail: str = ""


def _hex(value: Any, size: int, what: str) -> bytes:
    """``value`` as bytes, if it is lowercase hex of ``size`` bytes."""
    said = say("{what} is not {size} bytes of lowercase hex", what=what, size=size)
    if not isinstance(value, str) or len(value) != 2 * size or value != value.lower():
        raise fair.FairnessError(said)
    try:
        return bytes.fromhex(value)
    except ValueError:
        raise fair.FairnessError(said) from None


def _cards(text: Any, what: str) -> list[str]:
    if not isinstance(text, str):
        raise fair.FairnessError(
            say("{what} is {value}, not a string of cards", what=what, value=shown(text))
        )
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def _whole(value: Any, what: str, low: int, high: int) -> int:
    """A number of the record (a JSON number or its digits) from ``low`` to ``high``."""
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise fair.FairnessError(
            say("{what} is {value}, not a whole number", what=what, value=shown(value))
        )
    number = int(value) if isinstance(value, int) or (value.isdecimal() and len(value) < 10) else -1
    if not low <= number <= high:
        said = say(
            "{what} is {value}, not a number from {low} to {high}",
            what=what,
            value=shown(value),
            low=low,
            high=high,
        )
        raise fair.FairnessError(said)
    return number


def _text(value: Any, what: str) -> str:
    if not isinstance(value, str):
        raise fair.FairnessError(
            say("{what} is {value}, not a string", what=what, value=shown(value))
        )
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
        return [Check(say("fairness"), False, say("the record has no fairness object"))]
    try:
        checks = _checks(record, fairness)
        if announced is not None:
            checks += _announced(record, fairness, announced)
        if own is not None:
            checks += _own(fairness, announced, own)
        return checks
    except KeyError as error:
        missing = say("cannot be checked: the field {field} is missing", field=str(error))
        return [Check(say("record"), False, missing)]
    except (fair.FairnessError, TypeError, ValueError, IndexError, OverflowError) as error:
        return [
            Check(say("record"), False, say("cannot be checked: {reason}", reason=reason(error)))
        ]


def _checks(record: Mapping[str, Any], fairness: Mapping[str, Any]) -> list[Check]:
    checks, commitments, order = _shuffled(record, fairness)
    revealed = _revealed(fairness["revealed"], commitments, order, checks)
    return checks + _dealing_order(record, fairness, revealed)


def _shuffled(
    record: Mapping[str, Any], fairness: Mapping[str, Any]
) -> tuple[list[Check], list[bytes], list[int]]:
    """The deal's checks (the scheme, ``T``, each ``u``, ``D``, the hand), its 52
    commitments and the shuffle ``pi`` recomputed from the key (FAIRNESS.md steps 1-5)."""
    scheme = fairness["scheme"]
    checks = [Check(say("scheme"), scheme == fair.SCHEME, _named(scheme))]
    seed = _hex(fairness["server_seed"], fair.SEED_BYTES, "server_seed")
    served = fair.server_commitment(seed).hex()
    checks.append(Check(say("server seed"), served == fairness["server_commitment"], "T = H(t)"))
    entropy: dict[int, bytes] = {}
    for player in fairness["players"]:
        seat = _whole(player["seat"], say("a player's seat"), 0, 255)
        name = say("seat {seat}'s entropy", seat=seat)
        if player["entropy"] is None:
            checks.append(Check(name, True, say("not revealed: dealt without")))
            continue
        value = _hex(player["entropy"], fair.SEED_BYTES, name)
        made = fair.player_commitment(value).hex() == player["commitment"]
        checks.append(Check(name, made, "u = H(x)"))
        entropy[seat] = value
    commitments = [_hex(c, 32, say("a card commitment")) for c in fairness["commitments"]]
    deck = fair.deck_commitment(commitments)
    checks.append(Check(say("deck commitment"), deck.hex() == fairness["deck_commitment"], "D"))
    if fairness["table_id"] != record.get("table", fairness["table_id"]) or fairness[
        "hand_id"
    ] != record.get("id"):
        checks.append(Check(say("hand"), False, say("the fairness object is another hand's")))
    table_id = _text(fairness["table_id"], "table_id")
    key = fair.deal_key(table_id, _text(fairness["hand_id"], "hand_id"), deck, seed, entropy)
    return checks, commitments, fair.permutation(key)


def _revealed(
    entries: Any, commitments: Sequence[bytes], order: Sequence[int], checks: list[Check]
) -> dict[int, str]:
    """The cards revealed (``{position, card, salt}``), each checked against the commitment
    of its place in the deck (``order``: the shuffle), a check each added to ``checks``."""
    revealed: dict[int, str] = {}
    for entry in entries:
        position = _whole(entry["position"], say("a revealed position"), 0, len(fair.CARDS) - 1)
        card = _text(entry["card"], say("the card at position {position}", position=position))
        salt_at = say("the salt at position {position}", position=position)
        salt = _hex(entry["salt"], fair.SALT_BYTES, salt_at)
        matches = fair.card_commitment(salt, card) == commitments[order[position]]
        name = say("card {card} at position {position}", card=card, position=position)
        checks.append(Check(name, matches, "c = H(r, card)"))
        revealed[position] = card
    return revealed


def _seats_of(record: Mapping[str, Any]) -> list[int]:
    return [_whole(p["seat"], say("a player's seat"), 0, 255) for p in record["players"]]


def _hole_cards(record: Mapping[str, Any], seats: Sequence[int]) -> int:
    """How many hole cards each player was dealt, by the rules of the record's variant
    (FAIRNESS.md step 6: four, five in Big O), not by its hands; each hand must hold them."""
    game = record["game"]
    variant = game.get("variant") if isinstance(game, dict) else None
    if not isinstance(variant, str) or variant not in fair.HOLE_CARDS:
        known = ", ".join(fair.HOLE_CARDS)
        raise fair.FairnessError(
            say(
                "the record's variant is {value}, not one of {known}",
                value=shown(variant),
                known=known,
            )
        )
    hole_cards = fair.HOLE_CARDS[variant]
    holes = [_cards(hole, say("a player's hole cards")) for hole in record["holes"]]
    if len(holes) != len(seats):
        raise fair.FairnessError(
            say(
                "the record has {players} players and {hands} hands",
                players=len(seats),
                hands=len(holes),
            )
        )
    for seat, hole in zip(seats, holes, strict=True):
        if len(hole) != hole_cards:
            raise fair.FairnessError(
                say(
                    "seat {seat}'s hand holds {held} cards, where {variant} deals {dealt}",
                    seat=seat,
                    held=len(hole),
                    variant=variant,
                    dealt=hole_cards,
                )
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
    button = _whole(record["button"], say("the button"), 0, len(seats) - 1)
    order = fair.dealing_order(seats[button], seats)
    claimed = [_whole(seat, say("a seat dealt"), 0, 255) for seat in fairness["seats_dealt"]]
    hole_cards = _hole_cards(record, seats)
    from_button = say("from the button (seat {seat})", seat=seats[button])
    checks = [
        _derived(say("seats dealt"), order, claimed, _seat_list, from_button),
        _derived(say("hole cards"), hole_cards, fairness["hole_cards"], shown, say("each")),
    ]
    boards = _board_count(record)
    if len(order) * hole_cards + 8 * boards > len(fair.CARDS):  # the engine's deck_size
        raise fair.FairnessError(_too_many(len(order), hole_cards, boards))
    holes = fair.dealing_positions(len(order), hole_cards)[0]
    expected: dict[int, tuple[str, str]] = {}  # position -> (the card, where it went)
    for where, cards, positions in _boards(record, len(order), hole_cards):
        for position, card in zip(positions, cards, strict=False):
            expected.setdefault(position, (card, where))  # two runs share their first cards
    by_seat = {seat: index for index, seat in enumerate(seats)}
    for index, seat in enumerate(order):
        hole = _cards(record["holes"][by_seat[seat]], say("seat {seat}'s hole cards", seat=seat))
        for position, card in zip(holes[index], hole, strict=True):
            if card != UNKNOWN:
                expected[position] = (card, say("seat {seat}", seat=seat))
    return checks + _as_dealt(expected, revealed)


def _as_dealt(expected: Mapping[int, tuple[str, str]], revealed: Mapping[int, str]) -> list[Check]:
    """Each card expected at a deck position (with where it went) is the card revealed
    there; a position revealed where no card was expected fails."""
    checks: list[Check] = []
    for position, (card, where) in sorted(expected.items()):
        found = revealed.get(position)
        said = {"card": card, "where": where, "position": position}
        if found is None:
            detail = say("{card} to {where} from position {position}: not revealed", **said)
        else:
            detail = say("{card} to {where} from position {position}", **said)
        checks.append(Check(say("dealt {card}", card=card), found == card, detail))
    for position in sorted(set(revealed) - set(expected)):
        name = say("position {position}", position=position)
        checks.append(Check(name, False, say("revealed, but no card of the hand")))
    return checks


def _board_count(record: Mapping[str, Any]) -> int:
    """The boards a hand is dealt (RULES.md 7: 2, a double board), by its ``game``."""
    return _whole(record["game"].get("boards", 1), "game.boards", 1, 2)


def _too_many(seats: int, hole_cards: int, boards: int) -> str:
    if boards == 1:
        return say(
            "{seats} seats of {cards} hole cards are more than a deck deals",
            seats=seats,
            cards=hole_cards,
        )
    return say(
        "{seats} seats of {cards} hole cards on two boards are more than a deck deals",
        seats=seats,
        cards=hole_cards,
    )


def _boards(
    record: Mapping[str, Any], players: int, hole_cards: int
) -> list[tuple[str, list[str], list[int]]]:
    """Each board the record shows (the board, and ``boards``' second: a double board's,
    by ``game.boards`` 2, or a second run, by ``runs`` 2), its name, its cards and the
    deck positions RULES.md 7 deals its five cards from (FAIRNESS.md "More cards from the
    same deck"; ``fair.board_positions``)."""
    first = _cards(record["board"], say("the board"))
    double = _board_count(record) == 2
    runs = record.get("runs")
    twice = runs is not None and _whole(runs, "runs", 1, 2) == 2
    boards = record.get("boards") or [record["board"]]
    if boards[0] != record["board"]:
        said = say(
            "boards: the first board {cards} is not the board {board}",
            cards=shown(boards[0]),
            board=shown(record["board"]),
        )
        raise fair.FairnessError(said)
    second = _cards(boards[1], say("board {number}", number=2)) if len(boards) > 1 else []
    if second and double == twice:  # a second board is a double board's or a second run
        said = say("the record's second board is neither a double board's nor a second run's")
        raise fair.FairnessError(said)
    if twice:
        positions = fair.board_positions(players, hole_cards, 1, fair.runs_share(first, second))
    else:
        positions = fair.board_positions(players, hole_cards, 2 if double else 1)
    names = [say("the board"), say("board {number}", number=2)]
    return list(zip(names, [first, second], positions, strict=False))


def verify_rabbit(record: Mapping[str, Any], rabbit: Mapping[str, Any]) -> list[Check]:
    """FAIRNESS.md "More cards from the same deck": the cards a rabbit hunt showed (the
    ``rabbit`` event as a client received it, its ``fairness`` revealing each with its
    salt) are the cards of the hand's deck where the rest of each board would have come
    from, after the boards the hand's record shows. Checked under the record's deal (the
    key from its seeds), whose own checks are ``verify_hand``'s; a check that cannot be
    made fails with the reason, as there."""
    try:
        fairness, hunted = record["fairness"], rabbit["fairness"]
        _, commitments, order = _shuffled(record, fairness)
        checks = []
        if hunted["hand_id"] != fairness["hand_id"]:
            checks.append(Check(say("hand"), False, say("the fairness object is another hand's")))
        revealed = _revealed(hunted["revealed"], commitments, order, checks)
        seats = _seats_of(record)
        boards = _boards(record, len(seats), _hole_cards(record, seats))
        expected: dict[int, tuple[str, str]] = {}  # position -> (the card, where it went)
        for number, (_, cards, positions) in enumerate(boards, start=1):
            where = say("the rabbit")
            if len(boards) > 1:
                where = say("the rabbit of board {number}", number=number)
            hunted_cards = [
                _text(card, where)
                for street in rabbit["streets"]
                if _whole(street.get("board_number", 1), "board_number", 1, 2) == number
                for card in street["cards"]
            ]
            rest = positions[len(cards) :]  # where the rest of this board would have come
            said = say(
                "shows {count} of the {rest} to come after the {dealt} dealt",
                count=len(hunted_cards),
                rest=len(rest),
                dealt=len(cards),
            )
            checks.append(Check(where, len(hunted_cards) == len(rest), said))
            expected |= {p: (c, where) for p, c in zip(rest, hunted_cards, strict=False)}
        return checks + _as_dealt(expected, revealed)
    except KeyError as error:
        missing = say("cannot be checked: the field {field} is missing", field=str(error))
        return [Check(say("the rabbit"), False, missing)]
    except (
        fair.FairnessError,
        TypeError,
        ValueError,
        IndexError,
        OverflowError,
        AttributeError,
    ) as error:
        said = say("cannot be checked: {reason}", reason=reason(error))
        return [Check(say("the rabbit"), False, said)]


def _derived(name: str, derived: Any, claimed: Any, said: Any, how: str) -> Check:
    """A value derived from the rules, and the record's claim of it, which must agree."""
    if claimed != derived:
        detail = say(
            "{derived}, {how}; the record says {claimed}",
            derived=said(derived),
            how=how,
            claimed=said(claimed),
        )
    else:
        detail = say("{derived}, {how}", derived=said(derived), how=how)
    return Check(name, claimed == derived, detail)


def _seat_list(seats: Sequence[int]) -> str:
    return say("seats {seats}", seats=", ".join(map(str, seats))) if seats else say("no seat")


# ------------------------------------------------------------------ the announcement


KINDS_TOLD = ("hand_started", "hand_cancelled")  # what --announced reads of a client's events
RABBIT = "rabbit"  # and the rabbit hunts it was shown, each checked against its hand's record


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
        name = say("hand {hand}", hand=_named(self.hand))
        if self.announced is None:
            return Check(
                name,
                False,
                say("called off, but its announcement is not in {source}", source=source),
            )
        fairness = self.announced.get("fairness")
        if not isinstance(fairness, dict) or not fairness.get("players"):
            return Check(name, True, say("called off before any player's commitment was listed"))
        unsaid = "" if self.cancelled else say(" (with no hand_cancelled)")
        again = ""
        if self.again is not None and self.again.get("fairness") != fairness:
            again = say(" and dealt again under new commitments")
        elif self.again is not None:
            again = say(" and dealt again")
        detail = say(
            "was called off after the players could reveal their entropy{unsaid}{again}: a "
            "room that cancels until it likes the cards could do this",
            unsaid=unsaid,
            again=again,
        )
        return Check(name, False, detail)


@dataclass(frozen=True)
class Announcements:
    """What a client was told before the deals, in the order it was told: the announcement
    each hand was dealt under, and every announcement called off (FAIRNESS.md)."""

    hands: Mapping[str, Mapping[str, Any]]  # by hand id: its last announcement standing
    called_off: tuple[CalledOff, ...]
    rabbits: Mapping[str, Sequence[Mapping[str, Any]]]  # by hand id: its rabbit hunts shown


def announcements(loaded: Any) -> Announcements:
    """The ``hand_started`` and ``hand_cancelled`` events of a file in the order a client
    received them: one event, a list, each bare or as the frame that carried it (``{"type":
    "event", "table", "event"}``, whose table is kept with its event); and the ``rabbit``
    hunts it was shown, by the hand their ``fairness`` names. Anything else is skipped, so
    a client may keep all it received; the same announcement twice is one."""
    items = loaded if isinstance(loaded, list) else [loaded]
    events: list[Mapping[str, Any]] = []
    rabbits: dict[str, list[Mapping[str, Any]]] = {}
    for item in items:
        event = item.get("event") if isinstance(item, dict) and "event" in item else item
        if isinstance(event, dict) and event.get("kind") == RABBIT:
            revealed = event.get("fairness")
            hand = revealed.get("hand_id") if isinstance(revealed, dict) else event.get("hand")
            rabbits.setdefault(str(hand), []).append(event)
            continue
        if not isinstance(event, dict) or event.get("kind") not in KINDS_TOLD:
            continue
        if isinstance(item, dict) and "table" in item and "table" not in event:
            event = {**event, "table": item["table"]}
        events.append(event)
    standing: dict[str, Mapping[str, Any]] = {}
    last: dict[str, Mapping[str, Any]] = {}  # each hand's last event: the same again is one
    ends: list[tuple[int, str, Mapping[str, Any] | None, bool]] = []
    for index, event in enumerate(events):
        hand = _text(event.get("hand"), say("the hand of a {kind}", kind=event["kind"]))
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
        raise ValueError(say("the file holds no hand_started event (the announcement of a hand)"))
    called_off = tuple(
        CalledOff(hand, before, cancelled, _next_of(hand, events[index:]))
        for index, hand, before, cancelled in ends
    )
    return Announcements(standing, called_off, rabbits)


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
        return [
            Check(say("announced"), False, say("the hand was announced without its commitments"))
        ]
    same = (
        fairness["hand_id"] == started["hand"]
        and started.get("table", fairness["table_id"]) == fairness["table_id"]
    )
    checks = [Check(say("announced hand"), same, f"{_named(started['hand'])}")]
    fields = (
        ("deck_commitment", "D", say("announced deck commitment")),
        ("server_commitment", "T", say("announced server commitment")),
    )
    for field, name, check in fields:
        agrees = fairness[field] == announced[field]
        if agrees:
            detail = say("{name} as announced", name=name)
        else:
            detail = say("{name} is not the one announced", name=name)
        checks.append(Check(check, agrees, detail))
    told = {
        _whole(p["seat"], say("an announced seat"), 0, 255): p["commitment"]
        for p in announced["players"]
    }
    listed = {
        _whole(p["seat"], say("a player's seat"), 0, 255): p["commitment"]
        for p in fairness["players"]
    }
    for seat in sorted(set(told) | set(listed)):
        agrees = False
        if seat not in listed:
            detail = say("announced, missing from the record")
        elif seat not in told:
            detail = say("in the record, never announced")
        elif told[seat] == listed[seat]:
            detail, agrees = say("as announced"), True
        else:
            detail = say("not the one announced")
        checks.append(Check(say("seat {seat}'s commitment", seat=seat), agrees, detail))
    checks += [
        Check(
            say("seat {seat}'s entropy", seat=p["seat"]),
            True,
            say("missing: the room dealt without it"),
        )
        for p in fairness["players"]
        if p["entropy"] is None and p["seat"] in told
    ]
    seats = [_whole(s["seat"], say("an announced seat"), 0, 255) for s in started["seats"]]
    button = _whole(started["button"], say("the announced button"), 0, 255)
    order = fair.dealing_order(button, seats)
    dealt = [_whole(seat, say("a seat dealt"), 0, 255) for seat in fairness["seats_dealt"]]
    how = say("from the announced button (seat {seat})", seat=button)
    checks.append(_derived(say("announced dealing order"), order, dealt, _seat_list, how))
    record_seats = sorted(_seats_of(record))
    how = say("as announced")
    checks.append(_derived(say("announced seats"), sorted(seats), record_seats, _seat_list, how))
    return checks


def _own(fairness: Mapping[str, Any], started: Mapping[str, Any] | None, own: Own) -> list[Check]:
    """The player's own entropy: announced under its commitment, in the record, and so in
    the key (every revealed card is checked under that key)."""
    commitment = fair.player_commitment(own.entropy).hex()
    checks = []
    if started is not None:
        told = {p["seat"]: p["commitment"] for p in started["fairness"]["players"]}
        agrees = own.seat in told and told[own.seat] == commitment
        if own.seat not in told:
            detail = say("the announcement left out your commitment")
        else:
            detail = say("announced") if agrees else say("another was announced")
        checks.append(Check(say("your commitment"), agrees, detail))
    mine = [p for p in fairness["players"] if p["seat"] == own.seat]
    dealt = bool(mine) and mine[0]["entropy"] == own.entropy.hex()
    if not mine:
        detail = say("seat {seat} is not among the deal's players", seat=own.seat)
    elif mine[0]["entropy"] is None:
        detail = say("missing: the room dealt without your entropy")
    else:
        detail = say("in the deal") if dealt else say("not yours")
    checks.append(Check(say("your entropy"), dealt, detail))
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
        raise ValueError(say("chain.private is not a list of deck positions"))
    deck = _cards(record["deck"], say("the deck"))
    hidden = {deck[p] for p in private if 0 <= p < len(deck)}
    public = dict(record)
    if isinstance(chain, dict):
        public["chain"] = {key: value for key, value in chain.items() if key != "private"}
    public["you"] = None
    public["deck"] = "".join(UNKNOWN if card in hidden else card for card in deck)
    public["holes"] = [
        "".join(UNKNOWN if card in hidden else card for card in _cards(hole, say("hole cards")))
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
        name = say("hand {hand}", hand=_named(record.get("id")))
        if not isinstance(chain, dict):
            return [*checks, Check(name, False, say("the record has no chain"))]
        try:
            before = _hex(chain["previous"], 32, "chain.previous")
        except fair.FairnessError as error:
            return [*checks, Check(name, False, reason(error))]
        except KeyError as error:
            return [*checks, Check(name, False, str(error))]
        if previous is not None and before != previous:
            return [*checks, Check(name, False, say("does not follow the hand before it"))]
        try:
            made = chain_hash(before, public_view(record))
        except (KeyError, TypeError) as error:
            return [*checks, Check(name, False, say("cannot be hashed: {reason}", reason=error))]
        except (ValueError, RecursionError) as error:  # a lone surrogate; nested too deep
            said = say("cannot be hashed: {reason}", reason=reason(error))
            return [*checks, Check(name, False, said)]
        if made.hex() != chain.get("hash"):
            return [*checks, Check(name, False, say("its hash does not match its contents"))]
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
        return [Check(say("audit"), False, say("the file has no hands to audit (a list 'hands')"))]
    for hand in hands:
        name = say("hand {hand}", hand=_named(hand.get("hand") if isinstance(hand, dict) else hand))
        try:
            detail = _audited(hand)
        except (KeyError, TypeError, AttributeError) as error:
            checks.append(Check(name, False, say("cannot be checked: {reason}", reason=error)))
            continue
        except fair.FairnessError as error:
            checks.append(Check(name, False, reason(error)))
            continue
        checks.append(Check(name, detail.startswith("52 "), detail))
        opened[hand["hand"]] = hand["deck_commitment"]
    for record in records:
        fairness = record.get("fairness")
        name = say("record {hand}", hand=_named(record.get("id")))
        if not isinstance(fairness, dict) or record.get("id") not in opened:
            checks.append(Check(name, False, say("not among the hands audited")))
            continue
        agrees = fairness.get("deck_commitment") == opened[record["id"]]
        detail = say("D as audited") if agrees else say("D is not the audited")
        checks.append(Check(name, agrees, detail))
    return checks


def _audited(hand: Mapping[str, Any]) -> str:
    """One hand of an audit: what its 52 opened commitments are, or the first fault."""
    cards = [_text(c, say("an audited card")) for c in hand["cards"]]
    salts = [_hex(s, fair.SALT_BYTES, say("an audited salt")) for s in hand["salts"]]
    if len(cards) != len(fair.CARDS) or len(salts) != len(fair.CARDS):
        return say(
            "opens {cards} cards and {salts} salts, not 52 of each",
            cards=len(cards),
            salts=len(salts),
        )
    commitments = [fair.card_commitment(s, c) for s, c in zip(salts, cards, strict=True)]
    if fair.deck_commitment(commitments).hex() != hand["deck_commitment"]:
        return say("the opened commitments do not make its D")
    twice = sorted({card for card in cards if cards.count(card) > 1})
    if twice:
        return say("commits to {cards} more than once", cards=", ".join(twice))
    return say("52 different cards, as committed in D")


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
        byte = f"0x{error.object[error.start]:02x}"
        raise ValueError(
            say(
                "not UTF-8 text: byte {byte} at offset {offset}",
                byte=byte,
                offset=error.start,
            )
        ) from None
    if not text or text.isspace():
        raise ValueError(say("the file is empty"))
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
        raise ValueError(say("the file holds no hand record: its list of hands is empty"))
    raise ValueError(say("the file holds no hand record (a JSON object or a list of them)"))


def report(checks: Sequence[Check], out: Any, words: Speaker = ENGLISH) -> bool:
    for check in checks:
        said = spoken(check.name, words)
        if check.detail:
            said = words.say("{check}: {detail}", check=said, detail=spoken(check.detail, words))
        if check.passed:
            print(words.say("  ok   {check}", check=said), file=out)
        else:
            print(words.say("  FAIL {check}", check=said), file=out)
    return all(check.passed for check in checks) and bool(checks)


def description(words: Speaker = ENGLISH) -> str:
    """The command's description, in ``words``' language."""
    return words.say(
        "Check hands dealt by splitpot-deal-v1 (FAIRNESS.md) from their JSON records "
        "(GET /api/hands/ID), with nothing but Python's standard library; with --announced, "
        "against the hands' announcements as your client received them; with --audit, a "
        "session's audit. Exit status: 0 when every check passes, 1 naming each one that "
        "fails, 2 when a file cannot be read or the arguments do not fit."
    )


def configure(parser: argparse.ArgumentParser, words: Speaker = ENGLISH) -> None:
    """The command's arguments (``python -m splitpot.verify`` and ``splitpot verify``), their
    help in ``words``' language."""
    say = words.say
    parser.add_argument("files", nargs="*", type=Path, metavar="FILE", help=say("hand records"))
    parser.add_argument(
        "--chain",
        action="store_true",
        help=say("also check that the hands of each file follow one another (oldest first)"),
    )
    parser.add_argument(
        "--announced",
        type=Path,
        metavar="START",
        help=say(
            "the events your client received (one, a JSON list, or one a line): each record "
            "must be the deal its hand_started announced, and no hand may be called off "
            "(hand_cancelled, or announced again) after the players could reveal"
        ),
    )
    parser.add_argument(
        "--entropy",
        metavar="HEX",
        help=say("the entropy you revealed (64 hex digits; with --seat)"),
    )
    parser.add_argument("--seat", type=int, metavar="N", help=say("your seat (with --entropy)"))
    parser.add_argument(
        "--audit",
        type=Path,
        metavar="AUDIT",
        help=say(
            "a session's audit (GET /api/tables/ID/audit): every hand's 52 commitments "
            "are 52 different cards; the records given must be among its hands"
        ),
    )


def _own_arguments(args: argparse.Namespace) -> Own | None:
    """``--entropy`` and ``--seat``, both or neither."""
    if (args.entropy is None) != (args.seat is None):
        raise ValueError(say("--entropy and --seat go together: your entropy and your seat"))
    if args.entropy is None:
        return None
    if not 1 <= args.seat <= 255:
        raise ValueError(say("--seat {seat} is not a seat (1 to 255)", seat=args.seat))
    try:
        return Own(args.seat, _hex(args.entropy, fair.SEED_BYTES, "--entropy"))
    except fair.FairnessError as error:
        raise ValueError(reason(error)) from None


def _read(path: Path, reading: Callable[[Any], Any] = lambda loaded: loaded) -> Any:
    """A file given on the command line, as ``reading`` takes it; ValueError naming it."""
    try:
        return reading(_load(path))
    except (OSError, ValueError) as error:
        why = reason(error) if isinstance(reason(error), Said) else why_unread(error)
        raise ValueError(say("{path}: cannot be read: {reason}", path=path, reason=why)) from None


def run(args: argparse.Namespace) -> int:
    """The command: ``args.words`` (``splitpot verify --lang``) says the report, else
    English."""
    words: Speaker = getattr(args, "words", None) or ENGLISH
    try:
        own = _own_arguments(args)
        if not args.files and args.audit is None:
            raise ValueError(say("name the hand records to check (or --audit AUDIT)"))
        told = None if args.announced is None else _read(args.announced, announcements)
        audit = None if args.audit is None else _read(args.audit)
        if audit is not None and not isinstance(audit, dict):
            raise ValueError(
                say("{path}: not an audit (a JSON object with 'hands')", path=args.audit)
            )
        files = [(path, _read(path, _records)) for path in args.files]
    except ValueError as error:
        print(spoken(reason(error), words), file=sys.stderr)
        return 2
    passed = True
    if told is not None and told.called_off:
        print(words.say("{path}: hands called off", path=args.announced))
        checks = [called.check(str(args.announced)) for called in told.called_off]
        passed = report(checks, sys.stdout, words)
    for path, records in files:
        for record in records:
            announced = None
            if told is not None:
                announced = told.hands.get(str(record.get("id")))
                if announced is None:
                    said = words.say(
                        "hand {hand}: FAILED: no announcement of it in {path}",
                        hand=_named(record.get("id")),
                        path=args.announced,
                    )
                    print(said)
                    passed = False
                    continue
            checks = verify_hand(record, announced, own)
            for rabbit in [] if told is None else told.rabbits.get(str(record.get("id")), []):
                checks += verify_rabbit(record, rabbit)
            passed = report_hand(record, checks, words) and passed
        if args.chain:
            chain = words.say_n(
                "{path}: chain of {count} hands",
                "{path}: chain of {count} hands",
                len(records),
                path=path,
            )
            print(chain)
            passed = report(verify_chain(records), sys.stdout, words) and passed
    if audit is not None:
        hands = [record for _, records in files for record in records]
        print(words.say("{path}: audit", path=args.audit))
        passed = report(verify_audit(audit, hands), sys.stdout, words) and passed
    return 0 if passed else 1


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m splitpot.verify", description=description())
    configure(parser)
    return run(parser.parse_args(argv))


def report_hand(
    record: Mapping[str, Any], checks: Sequence[Check], words: Speaker = ENGLISH
) -> bool:
    failed = [check for check in checks if not check.passed]
    hand = _named(record.get("id"))
    if not failed:
        said = words.say_n(
            "hand {hand}: verified ({count} checks)",
            "hand {hand}: verified ({count} checks)",
            len(checks),
            hand=hand,
        )
    else:
        verdict = words.say_n("{count} check(s) FAILED", "{count} check(s) FAILED", len(failed))
        said = words.say_n(
            "hand {hand}: {verdict} ({count} checks)",
            "hand {hand}: {verdict} ({count} checks)",
            len(checks),
            hand=hand,
            verdict=verdict,
        )
    print(said)
    if failed:
        report(failed, sys.stdout, words)
    return not failed


if __name__ == "__main__":
    sys.exit(main())
