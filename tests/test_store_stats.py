"""The store's reads for the statistics (issue 24, store/hands.py): where a table's
session starts, its hands from a number on, and a player's hands and tables. On SQLite
and on PostgreSQL (tests/store_fixtures.py)."""

from __future__ import annotations

import pytest
from test_store import SETUP, table_with_players

from splitpot.store import NotFound, Store


def hands_of(store: Store, table_id: str, results: list[dict[int, int]]) -> list[str]:
    """Hands played and finished at the table with these results: their ids."""
    played = []
    for result in results:
        hand = store.start_hand(table_id, SETUP)
        store.finish_hand(hand.id, {"hand": hand.number}, result)
        played.append(hand.id)
    return played


def test_a_session_starts_after_the_table_emptied_or_its_session_ended(store: Store) -> None:
    table, (ann, bob) = table_with_players(store, 100, 100)
    assert store.session_start(table) == 1  # no hand yet: the next is the first
    hands_of(store, table, [{ann: 5, bob: -5}, {ann: -2, bob: 2}])
    assert store.session_start(table) == 1
    store.leave(table, bob)  # Ann stays: the table is not empty, the session goes on
    store.sit(table, 2, bob, 50)
    hands_of(store, table, [{ann: 1, bob: -1}])
    assert store.session_start(table) == 1
    store.leave(table, ann)
    store.leave(table, bob)  # no chip left at the table
    assert store.session_start(table) == 4  # one past the last hand
    store.sit(table, 1, ann, 100)
    store.sit(table, 2, bob, 100)
    hands_of(store, table, [{ann: 3, bob: -3}, {ann: 3, bob: -3}])
    assert store.session_start(table) == 4
    assert store.end_session(table) is not None  # the host ends the session
    assert store.session_start(table) == 6
    hands_of(store, table, [{ann: 0, bob: 0}])
    assert store.session_start(table) == 6
    assert [h.number for h in store.hands_from(table, 4, 10)] == [6, 5, 4]
    assert [h.number for h in store.hands_from(table, 1, 2)] == [6, 5]  # the newest two


def test_a_players_hands_and_tables(store: Store) -> None:
    first, (ann, bob) = table_with_players(store, 100, 100)
    second, (cy,) = table_with_players(store, 100)
    store.sit(second, 2, ann, 100)
    one = hands_of(store, first, [{ann: 1, bob: -1}, {ann: 0, bob: 0}])
    two = hands_of(store, second, [{ann: -4, cy: 4}])
    assert store.player_tables(ann) == sorted([first, second])
    assert store.player_tables(cy) == [second]
    assert [h.id for h in store.player_hands(ann, [first, second], 10)] == [two[0], *one[::-1]]
    assert [h.id for h in store.player_hands(ann, [first], 10)] == one[::-1]
    assert [h.id for h in store.player_hands(ann, [first, second], 1)] == two
    assert store.player_hands(bob, [second], 10) == []
    with pytest.raises(NotFound, match="no player"):
        store.player_tables(10**6)
    with pytest.raises(NotFound, match="no table 'nope'"):
        store.session_start("nope")
