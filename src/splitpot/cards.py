"""Cards, decks and card text (RULES.md section 1).

A card's integer code is ``4 * rank_index + suit_index`` with ranks 2..A as 0..12 and
suits c, d, h, s as 0..3; the batch evaluator works on arrays of these codes.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

RANKS = "23456789TJQKA"
SUITS = "cdhs"
SUIT_SYMBOLS = {"♣": "c", "♦": "d", "♥": "h", "♠": "s", "♧": "c", "♢": "d", "♡": "h", "♤": "s"}
RANK_NAMES = (
    "Two", "Three", "Four", "Five", "Six", "Seven", "Eight",
    "Nine", "Ten", "Jack", "Queen", "King", "Ace",
)  # fmt: skip
_SEPARATORS = " ,\t\n\r;"


class CardError(ValueError):
    """Card text that cannot be read, or a card given twice."""


class DuplicateCardError(CardError):
    """The same card appears twice in one deal (RULES.md 1: an error, never a silent fix)."""

    def __init__(self, card: Card, context: str = "") -> None:
        super().__init__(f"{context}duplicate card: {card}")
        self.card = card


@dataclass(frozen=True, order=True, slots=True)
class Card:
    """One playing card; cards order by rank, then by suit."""

    rank: int  # 0..12 for 2..A
    suit: int  # 0..3 for c, d, h, s
    # The integer code used by the batch evaluator: 4 * rank + suit.
    code: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        if not (0 <= self.rank < 13 and 0 <= self.suit < 4):
            raise CardError(f"no card has rank index {self.rank} and suit index {self.suit}")
        object.__setattr__(self, "code", 4 * self.rank + self.suit)

    def __hash__(self) -> int:
        return self.code

    @classmethod
    def from_code(cls, code: int) -> Card:
        if not 0 <= code < 52:
            raise CardError(f"{code} is not a card code (0..51)")
        return _BY_CODE[code]

    @classmethod
    def parse(cls, text: str) -> Card:
        """One card from text such as ``Ad``, ``10h`` or ``A♦``."""
        cards = parse_cards(text)
        if len(cards) != 1:
            raise CardError(f"{text!r} is not one card")
        return cards[0]

    def __str__(self) -> str:
        return RANKS[self.rank] + SUITS[self.suit]

    def __repr__(self) -> str:
        return f"Card({str(self)!r})"


_BY_CODE = tuple(Card(code // 4, code % 4) for code in range(52))
FULL_DECK: tuple[Card, ...] = _BY_CODE


def _read_card(chunk: str, start: int) -> tuple[Card, int] | None:
    """Read one card at ``chunk[start:]``; return it and the index after it."""
    if chunk.startswith("10", start):
        rank_text, at = "T", start + 2
    else:
        rank_text, at = chunk[start].upper(), start + 1
    if rank_text not in RANKS or at >= len(chunk):
        return None
    suit_text = SUIT_SYMBOLS.get(chunk[at], chunk[at].lower())
    if suit_text not in SUITS:
        return None
    return _BY_CODE[4 * RANKS.index(rank_text) + SUITS.index(suit_text)], at + 1


def parse_cards(text: str) -> tuple[Card, ...]:
    """Cards from text: ``AdKd3s2s``, ``Ad Kd``, ``ad,kd``, ``10h``, ``A♦``.

    Raises CardError naming the bad token and its position (1-based, counted in cards),
    or DuplicateCardError naming a card given twice.
    """
    cards: list[Card] = []
    for chunk in text.translate({ord(s): " " for s in _SEPARATORS}).split(" "):
        at = 0
        while at < len(chunk):
            read = _read_card(chunk, at)
            if read is None:
                width = 3 if chunk.startswith("10", at) else 2
                bad = chunk[at : at + width]
                raise CardError(f"{bad!r} at position {len(cards) + 1} is not a card")
            card, at = read
            cards.append(card)
    ensure_distinct(cards)
    return tuple(cards)


def ensure_distinct(cards: Iterable[Card]) -> None:
    """Raise DuplicateCardError for the first card that appears twice."""
    if isinstance(cards, (tuple, list)) and len({card.code for card in cards}) == len(cards):
        return
    seen: set[Card] = set()
    for card in cards:
        if card in seen:
            raise DuplicateCardError(card)
        seen.add(card)


CardsLike = str | Sequence[Card]


def to_cards(cards: CardsLike, *, distinct: bool = True) -> tuple[Card, ...]:
    """Accept card text or a sequence of Cards; return them as a tuple.

    With ``distinct`` (the default) a card given twice is an error; a caller that checks
    a whole deal at once passes False.
    """
    if isinstance(cards, str):
        return parse_cards(cards)
    result = tuple(cards)
    if not all(isinstance(card, Card) for card in result):
        bad = next(card for card in result if not isinstance(card, Card))
        raise CardError(f"{bad!r} is not a Card")
    if distinct:
        ensure_distinct(result)
    return result


def format_cards(cards: Iterable[Card], sep: str = "") -> str:
    return sep.join(str(card) for card in cards)


class Deck:
    """A 52-card deck shuffled by ``shuffler`` (a seed: ``random.Random(seed)``), dealt
    from the top. The core draws no secret randomness (DESIGN.md): a shell that deals for
    real passes ``random.SystemRandom()``, a test a seed."""

    def __init__(self, shuffler: random.Random | int) -> None:
        if isinstance(shuffler, int):
            shuffler = random.Random(shuffler)
        order = list(FULL_DECK)
        shuffler.shuffle(order)
        self.cards: tuple[Card, ...] = tuple(order)
        self._next = 0

    def __len__(self) -> int:
        """The number of cards not dealt yet."""
        return len(self.cards) - self._next

    def deal(self, count: int = 1) -> tuple[Card, ...]:
        if not 0 <= count <= len(self):
            raise CardError(f"cannot deal {count} cards: {len(self)} left in the deck")
        dealt = self.cards[self._next : self._next + count]
        self._next += count
        return dealt
