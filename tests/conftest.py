"""Shared test settings, the store's fixtures (SQLite and PostgreSQL) and a running room."""

import os
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, settings
from room_helpers import RoomServer, running_room

from splitpot.store import Store

pytest_plugins = ["store_fixtures"]

settings.register_profile(
    "default", deadline=None, suppress_health_check=[HealthCheck.too_slow], max_examples=200
)
settings.register_profile("ci", parent=settings.get_profile("default"), derandomize=True)
settings.load_profile("ci" if os.environ.get("CI") else "default")


@pytest.fixture
def room(store: Store) -> Iterator[RoomServer]:
    """A room on the test's database, on a free loopback port, stopped after the test."""
    with running_room(store) as server:
        yield server


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Tests marked ``one_database`` (the room's behaviour, whatever database keeps its
    records) run on SQLite only: what runs on PostgreSQL as well is the store's own tests
    and the room's crash, fault, lease, ledger, privacy and fuzz tests."""
    kept: list[pytest.Item] = []
    once: list[pytest.Item] = []
    for item in items:
        twin = item.get_closest_marker("one_database") and "[postgresql" in item.nodeid
        (once if twin else kept).append(item)
    if once:
        config.hook.pytest_deselected(items=once)
        items[:] = kept
