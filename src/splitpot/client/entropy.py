"""A player's part in the fair deal (FAIRNESS.md 3): a commitment to secret random bytes
ahead of each hand, and those bytes revealed when the hand's start lists the seat."""

from __future__ import annotations

import secrets
from typing import Any

from splitpot.client.state import RoomMessage
from splitpot.fair import SEED_BYTES, player_commitment


class Entropy:
    """The commitment this client has sent for its next hand, if any."""

    def __init__(self) -> None:
        self._secret: bytes | None = None

    @property
    def committed(self) -> bool:
        return self._secret is not None

    @property
    def commitment(self) -> str | None:
        """The commitment sent for the next hand, as hex."""
        return None if self._secret is None else player_commitment(self._secret).hex()

    def commit(self, table: str) -> RoomMessage:
        """A new commitment for the player's next hand."""
        self._secret = secrets.token_bytes(SEED_BYTES)
        commitment = player_commitment(self._secret).hex()
        return {"type": "commit", "table": table, "commitment": commitment}

    def answer(self, table: str, seat: int | None, started: dict[str, Any]) -> list[RoomMessage]:
        """For a ``hand_started`` event: the reveal, if it lists this seat's commitment,
        then a commitment for the hand after."""
        fairness = started.get("fairness") or {}
        listed = {player["seat"] for player in fairness.get("players", [])}
        if self._secret is None or seat not in listed:
            return []
        secret, self._secret = self._secret, None
        reveal = {
            "type": "reveal",
            "table": table,
            "hand": started["hand"],
            "entropy": secret.hex(),
        }
        return [reveal, self.commit(table)]
