"""Helpers of the table's tests: seat players, deal seeded hands, play them out."""

from __future__ import annotations

from collections.abc import Sequence

from splitpot.cards import Card, Deck
from splitpot.engine import Action, Posted
from splitpot.table import Table, TableConfig, TableEvent


def table_of(names: dict[int, str], config: TableConfig, chips: int = 100) -> Table:
    table = Table(config)
    for seat, name in names.items():
        table.sit(seat, name, chips)
    return table


def deal(table: Table, seed: int = 0, draw: Sequence[Card] | None = None) -> None:
    """Deal a hand from a seeded deck; a draw for the button, when one is needed, uses
    cards of its own (RULES.md 4.1): ``draw``, or another seeded deck."""
    table.deal(Deck(seed).cards, draw=draw or Deck(seed + 1000).cards)


def posts(table: Table) -> list[tuple[str, str, int]]:
    """The posts of the hand in play: (name, kind, chips)."""
    assert table.hand is not None
    names = table.hand.names
    return [
        (names[e.player], e.kind.value, e.amount)
        for e in table.hand.hand.events
        if isinstance(e, Posted)
    ]


def posts_of(table: Table, name: str) -> list[tuple[str, int]]:
    return [(kind, amount) for who, kind, amount in posts(table) if who == name]


def act(table: Table, *actions: str) -> list[TableEvent]:
    """Each action ("call", "raise 8") by the seat to act; the events they caused."""
    events: list[TableEvent] = []
    for action in actions:
        seat = table.seat_to_act
        assert seat is not None
        events += table.act(seat, Action.parse(action))
    return events


def finish(table: Table) -> None:
    """Everyone checks or folds; losing hands muck."""
    while table.hand is not None:
        seat = table.seat_to_act
        assert seat is not None
        legal = table.hand.hand.legal_actions()
        if legal.muck:
            table.act(seat, Action.muck())
        else:
            table.act(seat, Action.check() if legal.check else Action.fold())


def deal_until_dealt(
    table: Table, name: str, seeds: range, draw: Sequence[Card] | None = None
) -> None:
    """Play hands out until one deals ``name`` in; that hand is left in play."""
    for seed in seeds:
        deal(table, seed, draw)
        assert table.hand is not None
        if name in table.hand.names:
            return
        finish(table)
    raise AssertionError(f"{name} was not dealt in over seeds {seeds}")
