"""Whether the players' hands and ranges can be dealt together, no card twice (RULES.md 1),
and, when they cannot, which players' hands are in each other's way.

A depth-first search picks one hand a player, the smallest lists first, within a budget.
When the budget runs out the search says nothing, and sampling has the last word (see
the calculator). A player who may hold any hand needs only enough cards left, and that
the deck holds enough cards for every hand and the board is the caller's to check.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import reduce

import numpy as np
import numpy.typing as npt

from splitpot.equity.errors import NoDealError

SEARCH_BUDGET = 5_000  # hands tried before the search gives up


def check_deal(
    names: Sequence[str],
    options: Sequence[npt.NDArray[np.int64]],
    any_hand: npt.NDArray[np.bool_],
) -> None:
    """Raise NoDealError naming players whose hands (one row of card codes each in
    ``options``) never fit together, none of them needlessly; return when a deal is
    found, or when the search runs out of budget. Players marked ``any_hand`` are left
    out of the search."""
    group = [p for p in range(len(options)) if not any_hand[p]]
    masks = {
        p: np.bitwise_or.reduce(np.uint64(1) << options[p].astype(np.uint64), axis=1) for p in group
    }
    if _fits(masks, group) is not False:
        return
    for player in list(group):
        fewer = [p for p in group if p != player]
        if _fits(masks, fewer) is False:
            group = fewer
    raise NoDealError(
        f"{players_text(names, group)} cannot be dealt together: "
        "every deal of their hands has a card twice"
    )


def players_text(names: Sequence[str], group: Sequence[int]) -> str:
    """``players 2 and 3 (AhAc**, AhAcKd*)``: who, and what each may hold."""
    numbers = [str(p + 1) for p in group]
    who = ", ".join(numbers[:-1]) + " and " + numbers[-1] if len(numbers) > 1 else numbers[0]
    plural = "s" if len(numbers) > 1 else ""
    return f"player{plural} {who} ({', '.join(names[p] for p in group)})"


def _fits(masks: Mapping[int, npt.NDArray[np.uint64]], group: Sequence[int]) -> bool | None:
    """Whether one hand each of ``group`` can be dealt without a card twice (None: the
    budget ran out first)."""
    order = sorted(group, key=lambda p: len(masks[p]))
    # The cards the later players' hands hold: hands alike on these are alike for them.
    cards = [np.bitwise_or.reduce(masks[p]) for p in order]
    later = [reduce(np.bitwise_or, cards[i + 1 :], np.uint64(0)) for i in range(len(order))]
    budget = [SEARCH_BUDGET]

    def search(depth: int, used: np.uint64) -> bool | None:
        if depth == len(order):
            return True
        hands = masks[order[depth]]
        for hand in np.unique(hands[(hands & used) == 0] & later[depth]):
            budget[0] -= 1
            if budget[0] < 0:
                return None
            found = search(depth + 1, used | hand)
            if found is not False:
                return found
        return False

    return search(0, np.uint64(0))
