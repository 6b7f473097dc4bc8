"""Omaha hand evaluation: best high and 8-or-better low, one hand or many at once."""

from splitpot.evaluate.batch import NO_LOW, evaluate_batch
from splitpot.evaluate.hands import HighHand, LowHand, best_high, best_high_low, best_low
from splitpot.evaluate.helper import HandHelp, hand_help
from splitpot.evaluate.ranking import HandCategory, high_strength, low_strength
from splitpot.evaluate.showdown import PlayerShowdown, Showdown, showdown, winners
from splitpot.evaluate.variants import Variant

__all__ = [
    "NO_LOW",
    "HandCategory",
    "HandHelp",
    "HighHand",
    "LowHand",
    "PlayerShowdown",
    "Showdown",
    "Variant",
    "best_high",
    "best_high_low",
    "best_low",
    "evaluate_batch",
    "hand_help",
    "high_strength",
    "low_strength",
    "showdown",
    "winners",
]
