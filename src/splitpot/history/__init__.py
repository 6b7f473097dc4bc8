"""Hand histories: splitpot's JSON, PHH and PokerStars text, and their replay; OHH
(Open Hand History) written only."""

from splitpot.history.model import (
    HandRecord,
    HistoryError,
    PlayerRecord,
    RecordedAction,
    RecordedAward,
    RecordedOutcome,
    UnsupportedHand,
)

__all__ = [
    "HandRecord",
    "HistoryError",
    "PlayerRecord",
    "RecordedAction",
    "RecordedAward",
    "RecordedOutcome",
    "UnsupportedHand",
]
