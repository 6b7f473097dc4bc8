"""Check a hand's deal (FAIRNESS.md, splitpot-deal-v1) from its JSON record, with nothing
but the standard library: ``python -m splitpot.verify HAND.json`` or ``--chain FILE``.

Exit 0 with a short report when every check passes; 1 naming each check that failed; 2
when the file cannot be read.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Mapping, Sequence
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


def verify_hand(record: Mapping[str, Any]) -> list[Check]:
    """Every check of FAIRNESS.md on one hand's record, in order; a check that cannot be
    made (a missing or malformed field) fails with the reason."""
    fairness = record.get("fairness")
    if not isinstance(fairness, dict):
        return [Check("fairness", False, "the record has no fairness object")]
    try:
        return _checks(record, fairness)
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


def _dealing_order(
    record: Mapping[str, Any], fairness: Mapping[str, Any], revealed: dict[int, str]
) -> list[Check]:
    """Each card the record shows sits at the place FAIRNESS.md step 6 deals it from."""
    seats = [_whole(seat, "a seat dealt", 0, 255) for seat in fairness["seats_dealt"]]
    hole_cards = _whole(fairness["hole_cards"], "hole_cards", 1, 6)
    if len(seats) * hole_cards + 8 > len(fair.CARDS):  # the engine's deck_size
        raise fair.FairnessError(
            f"{len(seats)} seats of {hole_cards} hole cards are more than a deck deals"
        )
    holes, board = fair.dealing_positions(len(seats), hole_cards)
    expected: dict[int, tuple[str, str]] = {}  # position -> (the card, where it went)
    for position, card in zip(board, _cards(record["board"], "the board"), strict=False):
        expected[position] = (card, "the board")
    by_seat = {
        _whole(p["seat"], "a player's seat", 0, 255): i for i, p in enumerate(record["players"])
    }
    for index, seat in enumerate(seats):
        if seat not in by_seat or not 0 <= by_seat[seat] < len(record["holes"]):
            raise fair.FairnessError(f"seat {seat} was dealt in but has no player or hole cards")
        hole = _cards(record["holes"][by_seat[seat]], f"seat {seat}'s hole cards")
        for position, card in zip(holes[index], hole, strict=True):
            if card != UNKNOWN:
                expected[position] = (card, f"seat {seat}")
    checks = []
    for position, (card, where) in sorted(expected.items()):
        found = revealed.get(position)
        detail = f"{card} to {where} from position {position}"
        if found is None:
            detail += ": not revealed"
        checks.append(Check(f"dealt {card}", found == card, detail))
    for position in sorted(set(revealed) - set(expected)):
        checks.append(Check(f"position {position}", False, "revealed, but no card of the hand"))
    return checks


# ------------------------------------------------------------------ the chain


def verify_chain(records: Sequence[Mapping[str, Any]]) -> list[Check]:
    """The table's records in order, each ``chain`` (``previous``, ``hash``) following the
    one before; stops at the first that does not fit."""
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
            made = chain_hash(before, record)
        except (ValueError, RecursionError) as error:  # a lone surrogate; nested too deep
            return [*checks, Check(name, False, f"cannot be hashed: {error}")]
        if made.hex() != chain.get("hash"):
            return [*checks, Check(name, False, "its hash does not match its contents")]
        checks.append(Check(name, True, made.hex()[:16]))
        previous = made
    return checks


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
    "(GET /api/hands/ID), with nothing but Python's standard library. Exit status: 0 "
    "when every check passes, 1 naming each one that fails, 2 when a file cannot be read."
)


def configure(parser: argparse.ArgumentParser) -> None:
    """The command's arguments (``python -m splitpot.verify`` and ``splitpot verify``)."""
    parser.add_argument("files", nargs="+", type=Path, metavar="FILE", help="hand records")
    parser.add_argument(
        "--chain",
        action="store_true",
        help="also check that the hands of each file follow one another (oldest first)",
    )


def run(args: argparse.Namespace) -> int:
    passed = True
    for path in args.files:
        try:
            records = _records(_load(path))
        except (OSError, ValueError) as error:
            print(f"{path}: cannot be read: {why_unread(error)}", file=sys.stderr)
            return 2
        for record in records:
            passed = report_hand(record, verify_hand(record)) and passed
        if args.chain:
            print(f"{path}: chain of {len(records)} hands")
            passed = report(verify_chain(records), sys.stdout) and passed
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
