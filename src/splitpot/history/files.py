"""Read hand-history files of any supported format, told apart by their content."""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from splitpot.history.model import HandRecord, HistoryError, Unreadable, UnsupportedHand
from splitpot.history.phh import read_phh
from splitpot.history.pokerstars import HEADER, decode, read_pokerstars
from splitpot.history.splitpot_json import from_json, read_documents


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
    if head.startswith("{") or re.match(r"\[\s*[{\]]", head):  # not a TOML [table]
        return "splitpot-json"
    if any(HEADER.match(line.lstrip("\ufeff")) for line in head.splitlines()[:50]):
        return "pokerstars"
    if "actions" in head and "variant" in head:
        return "phh"
    first = head.splitlines()[0][:80]
    raise HistoryError(
        f"not a hand history splitpot reads (splitpot JSON, PHH or PokerStars text): "
        f"it begins {first!r}"
    )


def read_history(path: str | Path) -> HistoryFile:
    """Every hand of a file; hands that cannot be read are listed with the reason.

    Raises HistoryError (or OSError) when the file as a whole cannot be read: it is
    empty, it is not a history, it holds no hand, or no hand in it can be read (a file cut
    off in its only hand). Hands of other games, skipped on purpose, are not an error.
    """
    text = decode(Path(path).read_bytes())
    kind = detect_format(text)
    result = HistoryFile(str(path), kind)
    if kind == "pokerstars":
        result.hands, result.unreadable = read_pokerstars(text)
    elif kind == "splitpot-json":
        for number, doc in enumerate(read_documents(text), start=1):
            _collect(result, str(doc.get("id", number)), number, partial(from_json, doc))
    else:
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as error:
            raise HistoryError(f"not valid TOML: {error}") from error
        if "variant" in doc:  # one hand (.phh)
            _collect(result, Path(path).stem, 1, lambda: read_phh(text, Path(path).stem))
        else:  # several hands, one table each (.phhs)
            for number, (name, _) in enumerate(doc.items(), start=1):
                section = _section_text(text, name)
                _collect(result, name, number, partial(read_phh, section, name))
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


def _section_text(text: str, name: str) -> str:
    """The body of one ``[name]`` table of a .phhs file."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines) if line.strip() == f"[{name}]")
    end = next((i for i in range(start + 1, len(lines)) if lines[i].startswith("[")), len(lines))
    return "\n".join(lines[start + 1 : end])


def _collect(
    result: HistoryFile, hand_id: str, number: int, read: Callable[[], HandRecord]
) -> None:
    try:
        result.hands.append(read())
    except UnsupportedHand as error:
        result.unreadable.append(Unreadable(hand_id, number, str(error), True))
    except HistoryError as error:
        result.unreadable.append(Unreadable(hand_id, number, str(error), False))
