"""The room links each finished hand into its table's chain over the hand's document made
from the hand it just played (``hand_document(..., played=...)``), not from its stored
record read and replayed: the two documents must be the same, for every reader and
format, or a player checking the chain against the document they fetch would fail."""

from __future__ import annotations

from typing import Any

import pytest
from stats_helpers import finished_hands

from splitpot.history import HistoryError
from splitpot.server.hands import PLAYER_IDS, chain_link, hand_document
from splitpot.store import HandStatus, StoredHand

TABLES: dict[str, dict[str, Any]] = {
    "o8 pot limit, rake": {"rake_percent": 5, "rake_cap": 3},
    "run it twice, double boards, bomb pots": {
        "run_it_twice": True,
        "double_board": "always",
        "bomb_pot": 2,
        "bomb_every": 3,
    },
    "limit, kill pots, rabbit": {
        "structure": "limit",
        "kill": "full",
        "kill_size": 8,
        "rabbit_hunt": True,
    },
    "big o no limit, antes, straddles": {
        "variant": "bigo",
        "structure": "no-limit",
        "ante": 1,
        "straddle": True,
    },
}


@pytest.mark.parametrize("settings", TABLES.values(), ids=TABLES.keys())
def test_the_document_of_the_hand_played_is_the_stored_records(settings: dict[str, Any]) -> None:
    finished = finished_hands(25, seed=7, players=5, **settings)
    for end in finished:
        stored = StoredHand(
            end.hand, "t1", end.number, end.serial, HandStatus.FINISHED, end.started_at,
            None, end.record,
        )  # fmt: skip
        for viewer in [None, *end.record[PLAYER_IDS]]:
            for format in ("json", "pokerstars", "phh"):
                read = document(stored, viewer, format)
                assert document(stored, viewer, format, end.played) == read
        previous = bytes(32)
        assert chain_link(previous, stored, end.played) == chain_link(previous, stored)


def document(stored: StoredHand, viewer: int | None, format: str, played: Any = None) -> Any:
    """The document, or the words of its refusal (PHH says no double board)."""
    try:
        return hand_document(stored, viewer, format, seats=6, played=played)
    except HistoryError as error:
        return str(error)
