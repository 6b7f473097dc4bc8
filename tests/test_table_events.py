"""The table as the source of events keyed by seat, and of per-seat views (DESIGN.md)."""

import random

import pytest

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.engine import HoleCardsDealt, Shown
from splitpot.rules import PotLimit, Variant
from splitpot.table import (
    HandFinished,
    HandStarted,
    InHand,
    PlayerSat,
    SeatStatus,
    Table,
    TableConfig,
    TableError,
    TableEvent,
    seen_by,
)

SEATS = {1: "Ann", 2: "Bob", 4: "Cy", 6: "Dee"}  # seats 0, 3 and 5 stay empty


def play(hands: int, seed: int) -> tuple[Table, list[TableEvent], list[dict[object, object]]]:
    """Bots play ``hands`` hands; every event, and every seat's view after each event."""
    table = Table(TableConfig(Variant.O8, PotLimit(1, 2), seats=7))
    events: list[TableEvent] = []
    for seat, name in SEATS.items():
        events += table.sit(seat, name, 200)
    bots = {seat: make_bot("random", name, seed + seat) for seat, name in SEATS.items()}
    shuffle = random.Random(seed)
    views = []
    for _ in range(hands):
        for seat in SEATS:
            player = table.seats[seat]
            if player is not None and player.stack == 0:
                events += table.add_chips(seat, 200)
        events += table.deal(Deck(shuffle.getrandbits(32)).cards, draw=Deck(1).cards)
        while table.hand is not None:
            seat = table.seat_to_act
            assert seat is not None
            hand = table.hand.hand
            assert hand.to_act is not None
            action = bots[seat].decide(hand.view(hand.to_act), Variant.O8)
            events += table.act(seat, action)
            views.append({v: table.view(v) for v in (*SEATS, None)} | {"chips": table.chips()})
    return table, events, views


def test_events_name_table_seats_and_each_hand_ends_with_the_seats_stacks() -> None:
    table, events, _ = play(40, seed=3)
    assert [e.seat for e in events[:4] if isinstance(e, PlayerSat)] == [1, 2, 4, 6]
    started = [e for e in events if isinstance(e, HandStarted)]
    finished = [e for e in events if isinstance(e, HandFinished)]
    assert [e.number for e in started] == [e.number for e in finished] == list(range(1, 41))
    dealt = {e.number: set(e.seats) for e in started}
    for event in events:
        if isinstance(event, InHand) and hasattr(event.event, "player"):
            assert event.event.player in dealt[event.number]  # type: ignore[union-attr]
    last = finished[-1]
    for seat, stack in last.stacks:
        assert table.seats[seat].stack == stack  # type: ignore[union-attr]


def test_a_viewer_sees_only_their_own_hole_cards_until_shown() -> None:
    _, events, views = play(30, seed=5)
    for event in events:
        if not (isinstance(event, InHand) and isinstance(event.event, HoleCardsDealt)):
            continue
        for viewer in (*SEATS, None):
            cards = seen_by(event, viewer).event.cards  # type: ignore[union-attr]
            if viewer == event.event.player:
                assert None not in cards
            else:
                assert set(cards) == {None}
    shown_any = False
    for by_viewer in views:
        for viewer, view in by_viewer.items():
            if viewer == "chips":
                continue
            for seat_view in view.seats:  # type: ignore[attr-defined]
                if seat_view is None or seat_view.cards is None:
                    continue
                shown_any |= seat_view.seat != viewer
                assert seat_view.seat == viewer or seat_view.status is not SeatStatus.FOLDED
    assert shown_any  # some hands were shown at the showdown, and were seen by all


def test_shown_cards_are_in_every_view_and_views_add_up_to_the_table_chips() -> None:
    table, events, views = play(25, seed=11)
    shown = [e for e in events if isinstance(e, InHand) and isinstance(e.event, Shown)]
    assert shown
    checked = 0
    for by_viewer in views:
        chips = by_viewer.pop("chips")
        for view in by_viewer.values():
            if view.hand is None:  # type: ignore[attr-defined]
                continue
            seats = [s for s in view.seats if s is not None]  # type: ignore[attr-defined]
            in_front = sum(s.stack + s.bet for s in seats)
            middle = sum(p.amount for p in view.hand.pots)  # type: ignore[attr-defined]
            assert in_front + middle == chips
            assert view.hand.total == middle + sum(s.bet for s in seats)  # type: ignore[attr-defined]
            checked += 1
    assert checked > 100
    assert table.chips() == sum(s.stack for s in table.seats if s is not None)


def test_a_snapshot_and_the_same_deal_and_actions_rebuild_the_table_exactly() -> None:
    """What crash recovery relies on: restore the table stored before a deal, deal the
    same deck and replay the hand's actions: the same hand, the same table."""
    table, _, _ = play(7, seed=2)
    table.sit_out(4)
    snapshot = table.snapshot()
    deck = Deck(99).cards
    table.deal(deck)
    rebuilt = Table.restore(table.config, snapshot)
    rebuilt.deal(deck)
    bots = {seat: make_bot("random", name, seat) for seat, name in SEATS.items()}
    actions = 0
    while table.hand is not None:
        hand = table.hand.hand
        seat = table.seat_to_act
        assert seat is not None and hand.to_act is not None
        action = bots[seat].decide(hand.view(hand.to_act), Variant.O8)
        assert rebuilt.act(seat, action) == table.act(seat, action)
        for viewer in (*SEATS, None):
            assert rebuilt.view(viewer) == table.view(viewer)
        actions += 1
    assert actions > 0 and rebuilt.hand is None
    assert rebuilt.snapshot() == table.snapshot()


def test_a_snapshot_is_refused_during_a_hand_and_a_bad_one_is_named() -> None:
    table, _, _ = play(1, seed=1)
    table.deal(Deck(4).cards)
    with pytest.raises(TableError, match="a snapshot is taken between hands"):
        table.snapshot()
    with pytest.raises(TableError, match="not a table snapshot: 'seats'"):
        Table.restore(table.config, {})
