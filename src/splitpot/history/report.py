"""Awards in words, as a dealer reports them (RULES.md 5, 'Reporting')."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from itertools import groupby

from splitpot.engine import Award, HandResult, Share
from splitpot.evaluate import HighHand, LowHand


def money(chips: int, unit: str = "1", currency: str = "") -> str:
    """Chips in the file's money: 263750 cents is "$2637.50", 1500 cents "$15"."""
    if unit == "1":
        return f"{currency}{chips}"
    value = Decimal(chips) * Decimal(unit)
    text = f"{value:.2f}"
    return currency + (text[:-3] if text.endswith(".00") else text)


def pot_name(index: int, pots: int) -> str:
    if pots == 1:
        return "the pot"
    if index == 0:
        return "the main pot"
    return "the side pot" if pots == 2 else f"side pot {index}"


def low_words(low: LowHand) -> str:
    return f"{low.nickname}, {low.name}" if low.nickname else low.name


def hand_words(high: HighHand | None, low: LowHand | None) -> str:
    if high is not None and low is not None:
        return f"{low_words(low)}, and {high.name}"
    if low is not None:
        return low_words(low)
    return high.name if high is not None else ""


def _names(players: Sequence[str]) -> str:
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


def award_lines(
    result: HandResult,
    names: Sequence[str],
    unit: str = "1",
    currency: str = "",
    has_low: bool = True,
) -> list[str]:
    """One sentence per pot half: who won it, how much, with what."""
    lines: list[str] = []
    pots = len(result.pots)
    for (pot, share), group in groupby(result.awards, key=lambda a: (a.pot, a.share)):
        awards: list[Award] = list(group)
        winners = [names[a.player] for a in awards]
        amounts = sorted({a.amount for a in awards}, reverse=True)
        each = " each" if len(amounts) == 1 and len(awards) > 1 else ""
        amount = " and ".join(money(x, unit, currency) for x in amounts) + each
        where = pot_name(pot, pots)
        half = {Share.HIGH: "the high half of ", Share.LOW: "the low half of "}.get(share, "")
        first = awards[0]
        words = hand_words(first.high, first.low)
        with_hand = f", with {words}" if words else ""
        if share is Share.WHOLE and len(awards) == 1 and first.low is not None:
            verb = "scoops"
        else:
            verb = "split" if len(awards) > 1 else "wins"
        lines.append(f"{_names(winners)} {verb} {half}{where}, {amount}{with_hand}")
        no_low = share is Share.WHOLE and first.high is not None and first.low is None
        if has_low and no_low:
            lines.append(f"No low hand qualified for {where}")
    return lines
