"""What one seat, or a watcher, may see of a table now (DESIGN.md: views, not state).

Seats are named by table seat, never by a hand's player index. Hole cards are the
viewer's own, and another seat's only once shown at the showdown (RULES.md 5 and 6).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from splitpot.cards import Card
from splitpot.engine import Acted, ActionKind, LegalActions, Street, side_pots
from splitpot.frozen import quick_init
from splitpot.rules import Betting, Variant
from splitpot.table.model import Seat, TableHand


class SeatStatus(Enum):
    PLAYING = "playing"  # dealt in this hand, not folded, chips behind
    ALL_IN = "all_in"
    FOLDED = "folded"
    READY = "ready"  # between hands: dealt in next hand
    WAITING = "waiting"  # owes blinds (waits for the big blind) or not in this hand
    SITTING_OUT = "sitting_out"


@quick_init
@dataclass(frozen=True, slots=True)
class SeatView:
    seat: int
    name: str
    stack: int
    bet: int  # in front of the seat this betting round
    status: SeatStatus
    hole_cards: int  # how many hole cards the seat holds (0 when not in the hand)
    cards: tuple[Card, ...] | None  # visible to this viewer: own, or shown
    last_action: str | None  # "raise 8", "check", ... this hand


@quick_init
@dataclass(frozen=True, slots=True)
class PotView:
    amount: int
    eligible: tuple[int, ...]  # seats


@quick_init
@dataclass(frozen=True, slots=True)
class HandState:
    number: int
    button: int  # the seat of the button (perhaps an empty seat: a dead button)
    street: Street
    board: tuple[Card, ...]
    pots: tuple[PotView, ...]  # the bets of this round not yet gathered in
    total: int  # everything in the middle, this round's bets included
    to_act: int | None  # a seat
    betting: Betting
    boards: tuple[tuple[Card, ...], ...] = ()  # every board, when there are two (RULES.md 7)
    run_it: tuple[int, ...] = ()  # the seats asked to run it twice, while they are
    runs: int | None = None  # the times the board is run, once the players were asked


@quick_init
@dataclass(frozen=True, slots=True)
class TableView:
    viewer: int | None  # a seat, or None for a watcher
    variant: Variant
    seats: tuple[SeatView | None, ...]  # every seat of the table, None when empty
    button: int | None
    hand: HandState | None
    legal: LegalActions | None  # when the viewer is to act
    hands_played: int
    bomb_called: bool = False  # RULES.md 7: the next hand is a bomb pot
    kill_seat: int | None = None  # RULES.md 7: the seat that kills the next hand
    straddle: str | None = None  # the viewer's own straddle choice (a Straddle's value)


def action_words(kind: str, to: int, added: int, all_in: bool) -> str:
    """An action as a seat's label shows it: "fold", "call 4", "raise 12 (all in)";
    ``to`` is the seat's bet after it, ``added`` the chips it put in (an ``Acted``)."""
    if kind in (ActionKind.FOLD.value, ActionKind.CHECK.value):
        return kind
    amount = added if kind == ActionKind.CALL.value else to
    return f"{kind} {amount}" + (" (all in)" if all_in else "")


def table_view(
    viewer: int | None,
    variant: Variant,
    seats: Sequence[Seat | None],
    current: TableHand | None,
    button: int | None,
    hands_played: int,
) -> TableView:
    """The table as the player in seat ``viewer`` (None: a watcher) may see it now."""
    if current is None:
        return TableView(
            viewer,
            variant,
            tuple(_between_hands(seat, player) for seat, player in enumerate(seats)),
            button,
            None,
            None,
            hands_played,
        )
    hand = current.hand
    index = current.seats.index(viewer) if viewer in current.seats else None
    seen = hand.view(index)
    last: dict[int, str] = {}
    for event in hand.events:
        if isinstance(event, Acted):
            words = action_words(event.kind.value, event.to, event.added, event.all_in)
            last[current.seats[event.player]] = words
    views: list[SeatView | None] = []
    for seat, player in enumerate(seats):
        if player is None or seat not in current.seats:
            views.append(_between_hands(seat, player, waiting=True))
            continue
        i = current.seats.index(seat)
        if seen.folded[i]:
            status = SeatStatus.FOLDED
        elif seen.stacks[i] == 0:
            status = SeatStatus.ALL_IN
        else:
            status = SeatStatus.PLAYING
        cards = seen.hole if i == index else seen.shown.get(i)
        visible = None if cards is None else tuple(c for c in cards if c is not None)
        views.append(
            SeatView(
                seat,
                player.name,
                seen.stacks[i],
                seen.bets[i],
                status,
                0 if seen.folded[i] else len(hand.holes[i]),
                visible,
                last.get(seat),
            )
        )
    live = [not folded for folded in seen.folded]
    gathered = [c - b for c, b in zip(hand.committed, seen.bets, strict=True)]
    pots = tuple(
        PotView(pot.amount, tuple(current.seats[p] for p in pot.eligible))
        for pot in side_pots(gathered, live, hand.pot - sum(hand.committed))
        if pot.amount
    )
    state = HandState(
        current.number,
        current.button_seat,
        seen.street,
        tuple(c for c in seen.board if c is not None),
        pots,
        seen.pot,
        None if seen.to_act is None else current.seats[seen.to_act],
        hand.config.betting,
        tuple(tuple(c for c in b if c is not None) for b in seen.boards)
        if len(seen.boards) > 1
        else (),
        tuple(current.seats[p] for p in hand.run_it_players),
        hand.runs,
    )
    return TableView(viewer, variant, tuple(views), button, state, seen.legal, hands_played)


def _between_hands(seat: int, player: Seat | None, waiting: bool = False) -> SeatView | None:
    if player is None:
        return None
    if player.sitting_out:
        status = SeatStatus.SITTING_OUT
    elif waiting or player.owes_blinds or player.stack == 0:
        status = SeatStatus.WAITING
    else:
        status = SeatStatus.READY
    return SeatView(seat, player.name, player.stack, 0, status, 0, None, None)


__all__ = [
    "HandState",
    "PotView",
    "SeatStatus",
    "SeatView",
    "TableView",
    "action_words",
    "table_view",
]
