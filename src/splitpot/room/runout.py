"""All-in equity on the felt: when the hands are turned face up for an all-in run-out
(RULES.md 5), the room tells each hand's exact hi/lo equity, then again after each street
dealt. Every card it uses is already face up for everyone."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from splitpot.cards import Card, format_cards
from splitpot.engine import BoardDealt, TurnedFaceUp
from splitpot.equity import EquityResult, calculate
from splitpot.rules import Variant
from splitpot.table import InHand, TableEvent

FaceUp = dict[int, tuple[Card, ...]]  # table seat -> the cards turned up


def runout_parts(events: Sequence[TableEvent]) -> Iterator[tuple[list[TableEvent], FaceUp]]:
    """``events`` cut where an equity is due, each part with the hands face up so far
    (empty: none due): after the last hand turned up, and after each street that follows."""
    face_up: FaceUp = {}
    part: list[TableEvent] = []
    for index, event in enumerate(events):
        part.append(event)
        inner = event.event if isinstance(event, InHand) else None
        if isinstance(inner, TurnedFaceUp):
            face_up[inner.player] = inner.cards
            following = events[index + 1] if index + 1 < len(events) else None
            if not (isinstance(following, InHand) and isinstance(following.event, TurnedFaceUp)):
                yield part, dict(face_up)
                part = []
        elif isinstance(inner, BoardDealt) and face_up:
            yield part, dict(face_up)
            part = []
    if part:
        yield part, {}


def equity(variant: Variant, face_up: FaceUp, board: Sequence[Card]) -> EquityResult:
    """Each face-up hand's exact equity on ``board`` (players in seat order)."""
    hands = [format_cards(face_up[seat], "") for seat in sorted(face_up)]
    return calculate(hands, board=format_cards(board, ""), variant=variant, method="exact")
