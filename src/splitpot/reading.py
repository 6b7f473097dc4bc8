"""Reading what comes from outside (hand histories, deal records): a bounded read of a
file, JSON with every failure named, lines one at a time, and values cut short for an
error message. Standard library only: ``splitpot.verify`` must run with nothing else."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

MAX_FILE_BYTES = 64 * 1024 * 1024  # a history or a table's records: far more than a day's play


class FileTooLarge(ValueError):
    """A file past MAX_FILE_BYTES: refused before it is read whole."""


def read_bounded(path: str | Path) -> bytes:
    """The bytes of a file given from outside, refused past MAX_FILE_BYTES. Reads at most one
    byte more than the limit, so that a device or a pipe that never ends (``/dev/zero``)
    is refused too, in bounded time and memory."""
    with open(path, "rb") as file:
        data = file.read(MAX_FILE_BYTES + 1)
    if len(data) > MAX_FILE_BYTES:
        raise FileTooLarge(
            f"the file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB, the most splitpot "
            "reads; split it"
        )
    return data


def shown(value: Any, most: int = 60) -> str:
    """``repr(value)`` for an error message, cut to ``most`` characters: a file's 20 MB
    string is named, not printed."""
    text = repr(value)
    return text if len(text) <= most else f"{text[:most]}... ({len(text)} characters)"


def why_unread(error: OSError | ValueError) -> str:
    """Why a file could not be read, without repeating its name: "No such file or
    directory", "Is a directory", "Permission denied", or the reader's reason."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error)


def parse_json(text: str, line: int = 1) -> Any:
    """JSON ``text`` (starting at ``line`` of its file), or ValueError saying where and why:
    nesting too deep for Python's parser and integers past its digit limit included."""
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise JsonProblem(
            f"not valid JSON at line {line + error.lineno - 1}, column {error.colno}: {error.msg}",
            error.pos >= len(text.rstrip()),
        ) from None
    except RecursionError:
        raise JsonProblem(f"JSON nested too deep (from line {line})", False) from None
    except ValueError as error:  # an integer of more than 4300 digits
        problem = f"not a number splitpot reads (from line {line}): {error}"
        raise JsonProblem(problem, False) from None


class JsonProblem(ValueError):
    """JSON that cannot be read; ``at_end``: the text ends before the document does."""

    def __init__(self, message: str, at_end: bool) -> None:
        super().__init__(message)
        self.at_end = at_end


def numbered_lines(text: str) -> Iterator[tuple[int, str]]:
    """Each line of ``text`` with its number from 1, one at a time: a 50 MB file of short
    lines is not held as millions of strings at once."""
    start, number = 0, 1
    while start < len(text):
        end = text.find("\n", start)
        end = len(text) if end < 0 else end
        yield number, text[start:end]
        start, number = end + 1, number + 1
