"""Places and their prizes (RULES.md 8, Elimination and places): players out in the same
hand finish in the order of their stacks at the start of it, more chips the higher place;
equal stacks share those places and split their prizes evenly."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from splitpot.tournament.errors import TournamentError

Places = tuple[int, int]  # the best and the worst place a player shares (equal: one place)


@dataclass(frozen=True, slots=True)
class Finish:
    """A player's finish: ``place`` is the best of the places shared by ``shared`` players
    (1 normally), and ``prize`` the chips they win."""

    player: int
    place: int
    shared: int
    prize: int


def places_in_hand(busted: Mapping[int, int], left_before: int) -> dict[int, Places]:
    """The places of the players out in one hand: ``busted`` maps each to their stack at
    the start of the hand, ``left_before`` counts the players still in before it. They take
    the last places, the bigger stacks the better ones; equal stacks share their places."""
    if isinstance(left_before, bool) or not isinstance(left_before, int):
        raise TournamentError.untranslated(f"left_before must be an int, not {left_before!r}")
    if len(busted) >= left_before:
        raise TournamentError(
            "{out} players out of {left} in one hand: one at least stays in",
            out=len(busted),
            left=left_before,
        )
    for player, stack in busted.items():
        if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
            raise TournamentError(
                "player {player}: {stack} chips at the start of the hand; a player dealt in "
                "has chips",
                player=player,
                stack=stack,
            )
    places: dict[int, Places] = {}
    best = left_before - len(busted) + 1
    for stack in sorted(set(busted.values()), reverse=True):
        sharing = sorted(player for player, start in busted.items() if start == stack)
        for player in sharing:
            places[player] = (best, best + len(sharing) - 1)
        best += len(sharing)
    return places


def shares(prizes: Sequence[int], places: Mapping[int, Places]) -> dict[int, int]:
    """Each player's prize: the players sharing places best..worst split the prizes of
    those places (0 beyond the places paid) evenly, the odd chips one each to them in
    ascending player id. Every player of ``places`` is in the result, with 0 or more."""
    for place, prize in enumerate(prizes, start=1):
        if isinstance(prize, bool) or not isinstance(prize, int) or prize < 0:
            raise TournamentError(
                "prize of place {place}: {prize} is not a whole number of chips",
                place=place,
                prize=prize,
            )
    groups: dict[Places, list[int]] = {}
    for player, shared in sorted(places.items()):
        groups.setdefault(shared, []).append(player)
    taken: set[int] = set()
    result: dict[int, int] = {}
    for (best, worst), players in groups.items():
        if not 1 <= best <= worst or len(players) != worst - best + 1:
            raise TournamentError(
                "places {best} to {worst} shared by {count} players",
                best=best,
                worst=worst,
                count=len(players),
            )
        if taken & set(range(best, worst + 1)):
            raise TournamentError(
                "places {best} to {worst}: some are another player's", best=best, worst=worst
            )
        taken.update(range(best, worst + 1))
        pool = sum(prizes[best - 1 : worst])  # beyond the paid places: nothing
        each, odd = divmod(pool, len(players))
        for order, player in enumerate(players):  # ascending ids: the odd chips first
            result[player] = each + (1 if order < odd else 0)
    return result


def finishes(busted: Mapping[int, int], left_before: int, prizes: Sequence[int]) -> list[Finish]:
    """The finishes of the players out in one hand (``places_in_hand``) with their prizes
    (``shares``), the best place first, then by player id."""
    places = places_in_hand(busted, left_before)
    won = shares(prizes, places)
    return sorted(
        (
            Finish(player, best, worst - best + 1, won[player])
            for player, (best, worst) in places.items()
        ),
        key=lambda finish: (finish.place, finish.player),
    )


__all__ = ["Finish", "Places", "finishes", "places_in_hand", "shares"]
