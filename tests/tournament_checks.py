"""What a finished tournament's lobby holds (RULES.md 8, Elimination and places; Prizes):
places 1 to N, where players out in one hand with equal stacks share theirs (each is given
the best of them), and the payout table's prizes, a shared place's split evenly."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from splitpot.tournament.payouts import PayoutTable


def check_places_and_prizes(entrants: list[dict[str, Any]], pool: int) -> tuple[int, ...]:
    """Assert the entrants' places and prizes; the payout table's prizes, best first."""
    places = sorted(entrant["place"] for entrant in entrants)
    # each place is one more than the players placed above it: 1, 2, 3, 3, 5, ...
    assert places == [1 + places.index(place) for place in places], places
    paid = PayoutTable.standard().prizes(pool, len(entrants))
    due = [*paid, *[0] * (len(entrants) - len(paid))]
    won: dict[int, list[int]] = defaultdict(list)
    for entrant in entrants:
        won[entrant["place"]].append(entrant["prize"] or 0)
    for place, prizes in won.items():
        shared = due[place - 1 : place - 1 + len(prizes)]
        assert sum(prizes) == sum(shared) and max(prizes) - min(prizes) <= 1, (place, prizes)
    return paid
