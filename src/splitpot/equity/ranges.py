"""Omaha hand ranges in ProPokerTools' generic syntax (the subset in docs/equity.md).

A range is a set of hole-card hands. Patterns: exact cards (``AsKs2d3d``), ``*`` for any
card, ranks with or without suits (``AA**``, ``A2**``, ``AsKs**``), rank variables
(``RRON``: a pair and two other ranks), suit variables (``AxAyxy``: double-suited aces;
``xxyy``), a bare suit for any card of it; combined with ``,`` (union), ``:``
(intersection) and ``!`` (difference); and the macros ``$ds`` (double-suited), ``$ss``
(single-suited), ``$r`` (rainbow) and ``$np`` (no pair). A lone ``*`` is any hand.
Card text as ``parse_cards`` reads it works here too: ``10h`` for ``Th``, ``A♦`` for ``Ad``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from itertools import combinations, permutations

import numpy as np
import numpy.typing as npt

from splitpot.cards import RANKS, SUIT_SYMBOLS, SUITS
from splitpot.equity.errors import EquityError

RANK_VARIABLES = "BEFGILMNOPRUVWXYZ"  # upper case letters that are not ranks or suits
SUIT_VARIABLES = "wxyz"
MACROS = {"$ds": "double-suited", "$ss": "single-suited", "$r": "rainbow", "$np": "no pair"}
_SUIT_LETTERS = str.maketrans(SUIT_SYMBOLS)


class RangeError(EquityError):
    """A range that cannot be read; the message names the bad part."""


@dataclass(frozen=True)
class Range:
    """A set of hands: ``hands`` holds card codes, one sorted hand a row."""

    text: str
    hands: npt.NDArray[np.int64]

    def __len__(self) -> int:
        return len(self.hands)


@cache
def all_hands(size: int) -> npt.NDArray[np.int64]:
    """Every hand of ``size`` cards, card codes ascending in each row."""
    return np.array(list(combinations(range(52), size)), dtype=np.int64)


@dataclass(frozen=True, slots=True)
class _Token:
    rank: str | None  # an explicit rank, a rank variable, or None for any
    suit: str | None  # an explicit suit, a suit variable, or None for any


def _tokens(pattern: str, size: int) -> list[_Token]:
    tokens: list[_Token] = []
    at = 0
    while at < len(pattern):
        char = pattern[at]
        if char == "*":
            tokens.append(_Token(None, None))
            at += 1
        elif char in RANKS or char in RANK_VARIABLES:
            suit = pattern[at + 1] if at + 1 < len(pattern) else ""
            if suit and (suit in SUITS or suit in SUIT_VARIABLES):
                tokens.append(_Token(char, suit))
                at += 2
            else:
                tokens.append(_Token(char, None))
                at += 1
        elif char in SUITS or char in SUIT_VARIABLES:
            tokens.append(_Token(None, char))
            at += 1
        else:
            raise RangeError(
                f"{char!r} at position {at + 1} of {pattern!r} is not a rank, suit or *"
            )
    if len(tokens) > size:
        raise RangeError(f"{pattern!r} names {len(tokens)} cards; a hand here has {size}")
    return tokens + [_Token(None, None)] * (size - len(tokens))


def _match(pattern: str, size: int) -> npt.NDArray[np.bool_]:
    """Which of ``all_hands(size)`` the pattern matches: some order of the hand's cards
    meets every token, variables taking distinct values unlike the pattern's others."""
    tokens = _tokens(pattern, size)
    hands = all_hands(size)
    ranks, suits = hands >> 2, hands & 3
    explicit_ranks = {RANKS.index(t.rank) for t in tokens if t.rank and t.rank in RANKS}
    explicit_suits = {SUITS.index(t.suit) for t in tokens if t.suit and t.suit in SUITS}
    matched = np.zeros(len(hands), dtype=bool)
    seen_orders: set[tuple[tuple[str, int], ...]] = set()
    for order in permutations(range(size)):
        # Tokens that are alike need not be tried in every order.
        key = tuple(sorted((str(tokens[i]), position) for position, i in enumerate(order)))
        if key in seen_orders:
            continue
        seen_orders.add(key)
        ok = ~matched
        for attribute, values, explicit, names in (
            ("rank", ranks, explicit_ranks, RANKS),
            ("suit", suits, explicit_suits, SUITS),
        ):
            groups: dict[str, list[int]] = {}
            for position, index in enumerate(order):
                value = getattr(tokens[index], attribute)
                if value is None:
                    continue
                if value in names:
                    ok &= values[:, position] == names.index(value)
                else:
                    groups.setdefault(value, []).append(position)
            firsts = []
            for positions in groups.values():
                first = values[:, positions[0]]
                for other in positions[1:]:
                    ok &= values[:, other] == first
                for value in explicit:
                    ok &= first != value
                firsts.append(first)
            for a, b in combinations(firsts, 2):
                ok &= a != b
        matched |= ok
    return matched


def _macro(name: str, size: int) -> npt.NDArray[np.bool_]:
    hands = all_hands(size)
    suit_counts = np.stack([(hands & 3 == s).sum(axis=1) for s in range(4)], axis=1)
    ordered = -np.sort(-suit_counts, axis=1)
    rank_counts = np.stack([(hands >> 2 == r).sum(axis=1) for r in range(13)], axis=1)
    if name == "double-suited":
        chosen = (ordered[:, 0] == 2) & (ordered[:, 1] == 2)
    elif name == "single-suited":
        chosen = (ordered[:, 0] == 2) & (ordered[:, 1] < 2)
    elif name == "rainbow":
        chosen = ordered[:, 0] == 1 if size <= 4 else ordered[:, 1] == 1
    else:  # no pair
        chosen = rank_counts.max(axis=1) == 1
    return np.asarray(chosen, dtype=np.bool_)


def _term(text: str, size: int) -> npt.NDArray[np.bool_]:
    word = text.strip()
    if not word:
        raise RangeError("an empty part in the range")
    if word.startswith("$"):
        if word.lower() not in MACROS:
            raise RangeError(f"unknown macro {word!r}; macros: {', '.join(MACROS)}")
        return _macro(MACROS[word.lower()], size)
    if word == "*":
        return np.ones(len(all_hands(size)), dtype=bool)
    return _match(word, size)


def plain(text: str) -> str:
    """Card text in the letters of a range: ``10`` as ``T``, suit symbols as letters."""
    return text.replace("10", "T").translate(_SUIT_LETTERS)


def parse_range(text: str, size: int = 4) -> Range:
    """A range from its text; hands of ``size`` cards (4, or 5 for Big O)."""
    if not text.strip():
        raise RangeError("an empty range")
    union = np.zeros(len(all_hands(size)), dtype=bool)
    for part in plain(text).split(","):
        pieces = re.split(r"([:!])", part)
        current = _term(pieces[0], size)
        for operator, operand in zip(pieces[1::2], pieces[2::2], strict=True):
            other = _term(operand, size)
            current = current & other if operator == ":" else current & ~other
        union |= current
    return Range(text.strip(), all_hands(size)[union])


def is_exact_hand(text: str, size: int) -> bool:
    """Whether the text names exactly one hand's cards (``AsKs2d3d``)."""
    cleaned = re.sub(r"[\s,]", "", plain(text))
    return len(cleaned) == 2 * size and all(
        cleaned[i] in RANKS + "tjqka" and cleaned[i + 1] in SUITS for i in range(0, len(cleaned), 2)
    )
