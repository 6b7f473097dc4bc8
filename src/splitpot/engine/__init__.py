"""The hand engine: one hand of Omaha as a pure, deterministic state machine."""

from splitpot.engine.actions import Action, ActionKind, LegalActions
from splitpot.engine.errors import HandSetupError, IllegalActionError
from splitpot.engine.events import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleCardsDealt,
    Mucked,
    Posted,
    PostKind,
    PotAwarded,
    RakeTaken,
    RoundEnded,
    Shown,
    Street,
    UncalledBetReturned,
    view,
)
from splitpot.engine.hand import Hand, HandResult, Phase, Post, arrange_deck, deal_order, replay
from splitpot.engine.pots import Award, Pot, Share, side_pots

__all__ = [
    "Acted",
    "Action",
    "ActionKind",
    "Award",
    "BoardDealt",
    "Event",
    "Hand",
    "HandEnded",
    "HandResult",
    "HandSetupError",
    "HoleCardsDealt",
    "IllegalActionError",
    "LegalActions",
    "Mucked",
    "Phase",
    "Post",
    "PostKind",
    "Posted",
    "Pot",
    "PotAwarded",
    "RakeTaken",
    "RoundEnded",
    "Share",
    "Shown",
    "Street",
    "UncalledBetReturned",
    "arrange_deck",
    "deal_order",
    "replay",
    "side_pots",
    "view",
]
