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


def runout_parts(
    events: Sequence[TableEvent], before: FaceUp | None = None
) -> Iterator[tuple[list[TableEvent], FaceUp]]:
    """``events`` cut where an equity is due, each part with the hands face up so far
    (empty: none due): after the last hand turned up, and after each street that follows
    on the first board (``before``: the hands turned up by earlier events, when the
    question to run it twice came between)."""
    face_up: FaceUp = dict(before or {})
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
        elif isinstance(inner, BoardDealt) and face_up and not _board_follows(events, index):
            yield part, dict(face_up)
            part = []
    if part:
        yield part, {}


def _board_follows(events: Sequence[TableEvent], index: int) -> bool:
    """The street just dealt goes on to the next board (a double board's second)."""
    dealt, following = events[index], events[index + 1] if index + 1 < len(events) else None
    return (
        isinstance(dealt, InHand)
        and isinstance(following, InHand)
        and isinstance(dealt.event, BoardDealt)
        and isinstance(following.event, BoardDealt)
        and following.event.street == dealt.event.street
    )


def equity(variant: Variant, face_up: FaceUp, boards: Sequence[Sequence[Card]]) -> EquityResult:
    """Each face-up hand's exact equity on the boards so far (players in seat order): two
    boards (a double board, or a board run twice) are completed from one remaining deck."""
    hands = [format_cards(face_up[seat], "") for seat in sorted(face_up)]
    first = format_cards(boards[0], "")
    if len(boards) < 2:
        return calculate(hands, board=first, variant=variant, method="exact")
    second = format_cards(boards[1], "")
    return calculate(
        hands, board=first, variant=variant, method="exact", boards=2, second_board=second
    )
