"""The best Omaha high and low of one player: exactly two hole cards and three board cards."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import total_ordering
from operator import attrgetter

from splitpot.cards import Card, CardError, CardsLike, ensure_distinct, format_cards, to_cards
from splitpot.evaluate import _kernels
from splitpot.evaluate.ranking import (
    HandCategory,
    high_keys,
    high_name,
    low_name,
    low_values,
)


@total_ordering
@dataclass(frozen=True, eq=False, slots=True)
class _Hand:
    """A hand value: greater is better; equal strengths tie whatever the cards."""

    strength: int
    cards: tuple[Card, ...] = field(default=())  # two hole cards, then three board cards

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.strength == other.strength

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, type(self)):
            return NotImplemented
        return self.strength < other.strength

    def __hash__(self) -> int:
        return hash((type(self).__name__, self.strength))

    @property
    def hole_cards(self) -> tuple[Card, ...]:
        return self.cards[:2]

    @property
    def board_cards(self) -> tuple[Card, ...]:
        return self.cards[2:]


class HighHand(_Hand):
    """A high hand: strength 1..7462, the five cards used, category and name."""

    __slots__ = ()

    @property
    def category(self) -> HandCategory:
        return high_keys()[self.strength - 1][0]

    @property
    def ranks(self) -> tuple[int, ...]:
        """Rank indices that decide ties, most significant first."""
        return high_keys()[self.strength - 1][1]

    @property
    def name(self) -> str:
        return high_name(self.strength)

    def __repr__(self) -> str:
        return f"HighHand({self.name!r}, {format_cards(self.cards, ' ')})"


class LowHand(_Hand):
    """An ace-to-five low: five different ranks; a better low has the greater strength."""

    __slots__ = ()

    @property
    def values(self) -> tuple[int, ...]:
        """The five low values (A=1 .. K=13), highest first."""
        return low_values(self.strength)

    @property
    def name(self) -> str:
        return low_name(self.strength)

    @property
    def nickname(self) -> str | None:
        return "the wheel" if self.values == (5, 4, 3, 2, 1) else None

    def __repr__(self) -> str:
        return f"LowHand({self.name!r}, {format_cards(self.cards, ' ')})"


def _checked(hole: CardsLike, board: CardsLike) -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    hole_cards, board_cards = to_cards(hole, distinct=False), to_cards(board, distinct=False)
    if len(hole_cards) not in (4, 5):
        raise CardError(f"an Omaha hand has 4 or 5 hole cards, not {len(hole_cards)}")
    if len(board_cards) not in (3, 4, 5):
        raise CardError(f"a board has 3, 4 or 5 cards, not {len(board_cards)}")
    ensure_distinct(hole_cards + board_cards)
    return hole_cards, board_cards


def _pack(cards: tuple[Card, ...]) -> int:
    """Six bits a card code, first card lowest: the scalar kernel's input."""
    packed = 0
    for card in reversed(cards):
        packed = packed << 6 | card.code
    return packed


_by_code = attrgetter("code")


def _best(
    hole_cards: tuple[Card, ...], board_cards: tuple[Card, ...], low_limit: int
) -> tuple[int, tuple[Card, ...]]:
    """The strength and the five cards of the best hand of checked cards: high with
    ``low_limit`` 0, else the best low under that limit (strength 0: none)."""
    strength, i, j, x, y, z = _kernels.best_combination(
        _pack(hole_cards),
        len(hole_cards),
        _pack(board_cards),
        len(board_cards),
        low_limit,
    )
    hole_used = sorted((hole_cards[i], hole_cards[j]), key=_by_code, reverse=True)
    board_used = sorted(
        (board_cards[x], board_cards[y], board_cards[z]), key=_by_code, reverse=True
    )
    return strength, (*hole_used, *board_used)


def best_high(hole: CardsLike, board: CardsLike) -> HighHand:
    """The best high hand of exactly two of ``hole`` and three of ``board`` (RULES.md 1)."""
    return HighHand(*_best(*_checked(hole, board), 0))


def best_low(hole: CardsLike, board: CardsLike, qualifier: int | None = 8) -> LowHand | None:
    """The best ace-to-five low, or None when no low qualifies.

    ``qualifier`` is the highest card a low may hold (8 for eight or better); None gives
    the game without a qualifier, where any five different ranks make a low.
    """
    limit = _low_limit(qualifier)
    return _low(*_checked(hole, board), limit)


def best_high_low(
    hole: CardsLike, board: CardsLike, qualifier: int | None = 8
) -> tuple[HighHand, LowHand | None]:
    """``best_high`` and ``best_low`` at once, the cards read and checked once (a
    showdown values every hand still in both ways)."""
    limit = _low_limit(qualifier)
    hole_cards, board_cards = _checked(hole, board)
    return HighHand(*_best(hole_cards, board_cards, 0)), _low(hole_cards, board_cards, limit)


def _low_limit(qualifier: int | None) -> int:
    """The kernel's limit for a low ``qualifier`` (see ``best_low``), checked."""
    if qualifier is not None and not 5 <= qualifier <= 13:
        raise ValueError(f"a low qualifier is a rank value from 5 to 13, not {qualifier}")
    return _kernels.low_limit(qualifier)


def _low(hole_cards: tuple[Card, ...], board_cards: tuple[Card, ...], limit: int) -> LowHand | None:
    """The best low of checked cards under the kernel's ``limit``, or None."""
    strength, cards = _best(hole_cards, board_cards, limit)
    return LowHand(strength, cards) if strength > 0 else None
