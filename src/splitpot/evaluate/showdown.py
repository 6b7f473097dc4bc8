"""One pot's showdown: every player's best high and low, the winners, and the shares."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

from splitpot.cards import (
    Card,
    CardError,
    CardsLike,
    DuplicateCardError,
    ensure_distinct,
    to_cards,
)
from splitpot.evaluate.hands import HighHand, LowHand, best_high, best_low
from splitpot.evaluate.variants import Variant


@dataclass(frozen=True, slots=True)
class PlayerShowdown:
    hole: tuple[Card, ...]
    high: HighHand
    low: LowHand | None
    share: Fraction  # of the pot: 1 a scoop, 1/2 a half, 1/4 a quarter, ...


@dataclass(frozen=True, slots=True)
class Showdown:
    variant: Variant
    board: tuple[Card, ...]
    players: tuple[PlayerShowdown, ...]
    high_winners: tuple[int, ...]
    low_winners: tuple[int, ...]  # empty when no low qualifies


def winners(hands: Sequence[HighHand | LowHand | None]) -> tuple[int, ...]:
    """Indices of the best hands (all of them when tied); None never wins."""
    present = [hand for hand in hands if hand is not None]
    if not present:
        return ()
    best = max(present)
    return tuple(i for i, hand in enumerate(hands) if hand is not None and hand == best)


def _read(owner: str, cards: CardsLike) -> tuple[Card, ...]:
    try:
        return to_cards(cards)
    except DuplicateCardError as error:
        raise DuplicateCardError(error.card, f"{owner}: ") from error
    except CardError as error:
        raise CardError(f"{owner}: {error}") from error


def showdown(variant: Variant | str, holes: Sequence[CardsLike], board: CardsLike) -> Showdown:
    """Every player's best hands and exact share of one pot that all of them contest."""
    variant = Variant.parse(variant)
    if not holes:
        raise ValueError("a showdown needs at least one player")
    hole_cards = [_read(f"player {index}", hole) for index, hole in enumerate(holes, start=1)]
    board_cards = _read("board", board)
    for index, cards in enumerate(hole_cards, start=1):
        if len(cards) != variant.hole_cards:
            raise CardError(
                f"player {index} holds {len(cards)} card(s); "
                f"{variant.value} deals {variant.hole_cards} hole cards"
            )
    ensure_distinct([card for cards in hole_cards for card in cards] + list(board_cards))
    highs = [best_high(cards, board_cards) for cards in hole_cards]
    lows: list[LowHand | None] = [
        best_low(cards, board_cards, variant.low_qualifier) if variant.has_low else None
        for cards in hole_cards
    ]
    high_winners, low_winners = winners(highs), winners(lows)
    # RULES.md 5: half to the best high, half to the best low; no low: high takes all.
    high_part = Fraction(1, 2) if low_winners else Fraction(1)
    shares = [Fraction(0)] * len(hole_cards)
    for index in high_winners:
        shares[index] += high_part / len(high_winners)
    for index in low_winners:
        shares[index] += (1 - high_part) / len(low_winners)
    players = tuple(
        PlayerShowdown(cards, high, low, share)
        for cards, high, low, share in zip(hole_cards, highs, lows, shares, strict=True)
    )
    return Showdown(variant, board_cards, players, high_winners, low_winners)
