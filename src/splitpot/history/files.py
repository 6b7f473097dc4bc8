"""Read hand-history files of any supported format, told apart by their content."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from splitpot.history.model import HandRecord, HistoryError, Unreadable, UnsupportedHand
from splitpot.history.phh import phh_hand, read_toml
from splitpot.history.pokerstars import HEADER, decode, read_pokerstars
from splitpot.history.splitpot_json import from_json, read_documents
from splitpot.reading import read_bounded


@dataclass
class HistoryFile:
    path: str
    format: str  # "splitpot-json", "phh" or "pokerstars"
    hands: list[HandRecord] = field(default_factory=list)
    unreadable: list[Unreadable] = field(default_factory=list)


def detect_format(text: str) -> str:
    head = text.lstrip("\ufeff \t\r\n")
    if not head:
        raise HistoryError("the file is empty")
    if head.startswith("{") or re.match(r"\[\s*(?:[{\]]|\Z)", head):  # not a TOML [table]
        return "splitpot-json"
    if any(HEADER.match(line.lstrip("\ufeff")) for line in head[:100_000].splitlines()[:50]):
        return "pokerstars"
    if "actions" in head and "variant" in head:
        return "phh"
    first = head[:100_000].splitlines()[0][:80]
    raise HistoryError(
        f"not a hand history splitpot reads (splitpot JSON, PHH or PokerStars text): "
        f"it begins {first!r}"
    )


def read_history(path: str | Path) -> HistoryFile:
    """Every hand of a file; hands that cannot be read are listed with the reason.

    Raises HistoryError (or OSError) when the file as a whole cannot be read: it is
    empty, larger than ``reading.MAX_FILE_BYTES``, not a history, it holds no hand, or no
    hand in it can be read (a file cut off in its only hand). Hands of other games,
    skipped on purpose, are not an error.
    """
    try:
        data = read_bounded(path)
    except ValueError as error:  # too large
        raise HistoryError(str(error)) from None
    text = decode(data)
    kind = detect_format(text)
    result = HistoryFile(str(path), kind)
    if kind == "pokerstars":
        result.hands, result.unreadable = read_pokerstars(text)
    elif kind == "splitpot-json":
        for number, doc in enumerate(read_documents(text), start=1):
            _collect(result, str(doc.get("id", number)), number, partial(from_json, doc))
    else:
        doc = read_toml(text)
        if "variant" in doc:  # one hand (.phh)
            _collect(result, Path(path).stem, 1, partial(phh_hand, doc, Path(path).stem))
        else:  # several hands, one table each (.phhs)
            for number, (name, table) in enumerate(doc.items(), start=1):
                _collect(result, name, number, partial(phh_hand, table, name))
    _check_some_hand(result)
    return result


def _check_some_hand(history: HistoryFile) -> None:
    """A file with no hand, or none that could be read, is an error, not an empty result."""
    if history.hands or any(problem.skipped for problem in history.unreadable):
        return
    if not history.unreadable:
        raise HistoryError(f"no hand found in this {history.format} file")
    first = history.unreadable[0]
    raise HistoryError(
        f"no hand could be read: hand {first.hand_id} ({first.where}): {first.reason}"
        + (f"; and {len(history.unreadable) - 1} more" if len(history.unreadable) > 1 else "")
    )


def _collect(
    result: HistoryFile, hand_id: str, number: int, read: Callable[[], HandRecord]
) -> None:
    try:
        result.hands.append(read())
    except UnsupportedHand as error:
        result.unreadable.append(Unreadable(hand_id, number, str(error), True))
    except ValueError as error:  # HistoryError, and the rules' errors (a blind of -1)
        result.unreadable.append(Unreadable(hand_id, number, str(error), False))
