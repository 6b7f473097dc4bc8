"""The ranking of five-card hands (RULES.md section 1), in plain Python.

High hands: every distinct five-card high hand gets a *strength* from 1 (7-5-4-3-2 off
suit) to 7462 (a royal flush); a greater strength is a better hand and equal strengths
tie. Low hands (ace-to-five): five different ranks, the ace counting as one; the
strength is ``8192 - mask`` where bit ``v - 1`` of ``mask`` is set for each low rank
``v`` (A=1 .. K=13), so a greater strength is a better low; 0 means no qualifying low.
Comparing masks compares the lows from the highest card down, as the rules say.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import IntEnum
from functools import cache
from itertools import combinations, combinations_with_replacement

from splitpot.cards import RANK_NAMES, RANKS

NO_LOW = 0
LOW_BASE = 8192
WHEEL_RANKS = (12, 3, 2, 1, 0)  # A-5-4-3-2 as rank indices, ace first


class HandCategory(IntEnum):
    """The nine categories of high hands, weakest first."""

    HIGH_CARD = 0
    ONE_PAIR = 1
    TWO_PAIR = 2
    THREE_OF_A_KIND = 3
    STRAIGHT = 4
    FLUSH = 5
    FULL_HOUSE = 6
    FOUR_OF_A_KIND = 7
    STRAIGHT_FLUSH = 8

    @property
    def label(self) -> str:
        return self.name.replace("_", " ").lower()


HighKey = tuple[HandCategory, tuple[int, ...]]


def high_key(ranks: Sequence[int], flush: bool) -> HighKey:
    """Category and tie-break ranks (most significant first) of five cards' ranks."""
    counts = Counter(ranks)
    if max(counts.values()) > 4:
        raise ValueError(f"five cards cannot hold ranks {sorted(ranks)}")
    groups = sorted(counts.items(), key=lambda item: (item[1], item[0]), reverse=True)
    ordered = tuple(rank for rank, _ in groups)
    shape = tuple(count for _, count in groups)
    straight_top: int | None = None
    if len(counts) == 5:
        descending = tuple(sorted(ranks, reverse=True))
        if descending[0] - descending[4] == 4:
            straight_top = descending[0]
        elif descending == WHEEL_RANKS:
            straight_top = 3  # the wheel is a Five-high straight (RULES.md 1)
    if straight_top is not None:
        category = HandCategory.STRAIGHT_FLUSH if flush else HandCategory.STRAIGHT
        return category, (straight_top,)
    if flush:
        return HandCategory.FLUSH, ordered
    category = {
        (4, 1): HandCategory.FOUR_OF_A_KIND,
        (3, 2): HandCategory.FULL_HOUSE,
        (3, 1, 1): HandCategory.THREE_OF_A_KIND,
        (2, 2, 1): HandCategory.TWO_PAIR,
        (2, 1, 1, 1): HandCategory.ONE_PAIR,
        (1, 1, 1, 1, 1): HandCategory.HIGH_CARD,
    }[shape]
    return category, ordered


@cache
def high_keys() -> tuple[HighKey, ...]:
    """Every distinct high hand, weakest first; strength s is ``high_keys()[s - 1]``."""
    keys = {
        high_key(ranks, False)
        for ranks in combinations_with_replacement(range(13), 5)
        if max(Counter(ranks).values()) <= 4
    }
    keys.update(high_key(ranks, True) for ranks in combinations(range(13), 5))
    return tuple(sorted(keys))


@cache
def _strength_of_key() -> dict[HighKey, int]:
    return {key: index + 1 for index, key in enumerate(high_keys())}


def high_strength(ranks: Sequence[int], flush: bool) -> int:
    """The strength (1..7462) of five cards with these rank indices."""
    return _strength_of_key()[high_key(ranks, flush)]


def _plural(rank: int) -> str:
    name = RANK_NAMES[rank]
    return name + ("es" if name == "Six" else "s")


def high_name(strength: int) -> str:
    """The hand in words, as card rooms write it: "a full house, Kings full of Queens"."""
    category, ranks = high_keys()[strength - 1]
    top = RANK_NAMES[ranks[0]]
    match category:
        case HandCategory.STRAIGHT_FLUSH if ranks[0] == 12:
            return "a royal flush"
        case HandCategory.STRAIGHT_FLUSH | HandCategory.STRAIGHT:
            bottom = "Ace" if ranks[0] == 3 else RANK_NAMES[ranks[0] - 4]
            return f"a {category.label}, {bottom} to {top}"
        case HandCategory.FOUR_OF_A_KIND:
            return f"four of a kind, {_plural(ranks[0])}"
        case HandCategory.FULL_HOUSE:
            return f"a full house, {_plural(ranks[0])} full of {_plural(ranks[1])}"
        case HandCategory.FLUSH:
            return f"a flush, {top} high"
        case HandCategory.THREE_OF_A_KIND:
            return f"three of a kind, {_plural(ranks[0])}"
        case HandCategory.TWO_PAIR:
            return f"two pair, {_plural(ranks[0])} and {_plural(ranks[1])}"
        case HandCategory.ONE_PAIR:
            return f"a pair of {_plural(ranks[0])}"
        case _:
            return f"high card {top}"


def low_value(rank: int) -> int:
    """A rank index's value in an ace-to-five low: A=1, 2=2, ..., K=13."""
    return 1 if rank == 12 else rank + 2


def low_strength(ranks: Sequence[int], qualifier: int | None = 8) -> int:
    """The low strength of five cards' rank indices, or NO_LOW (0) if they make none."""
    values = {low_value(rank) for rank in ranks}
    if len(values) != 5 or (qualifier is not None and max(values) > qualifier):
        return NO_LOW
    return LOW_BASE - sum(1 << (value - 1) for value in values)


def low_values(strength: int) -> tuple[int, ...]:
    """The five low values (A=1 .. K=13) of a low strength, highest first."""
    mask = LOW_BASE - strength
    return tuple(value for value in range(13, 0, -1) if mask >> (value - 1) & 1)


def low_name(strength: int) -> str:
    """A low as card rooms write it, highest card first: "8,6,4,2,A"."""
    return ",".join("A" if value == 1 else RANKS[value - 2] for value in low_values(strength))
