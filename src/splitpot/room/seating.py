"""Who is waiting for a seat (docs/room.md "Seats by approval and the waiting list"): the
requests a host approves at a table of seats by approval, the full table's waiting
list, and the seat offered to the first in line. Pure values and their bookkeeping; the
table host decides when each changes and tells it."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from splitpot.protocol import JsonObject
from splitpot.room.commands import Person

WallClock = Callable[[float], str | None]  # a moment of the host's clock, on the wire
REQUEST_SECONDS = 120.0  # a request the host has not answered by then runs out
OFFER_SECONDS = 60.0  # the first in line has this long to take the seat offered
MAX_WAITING = 50  # players on one table's waiting list


@dataclass(frozen=True, slots=True)
class SeatRequest:
    """A player asks for ``seat`` with ``buy_in`` chips; the seat is held for them until
    the host answers or ``deadline`` passes."""

    person: Person
    seat: int
    buy_in: int
    post_now: bool
    deadline: float


@dataclass(frozen=True, slots=True)
class SeatOffer:
    """The seat freed for the first in line, held for them until ``deadline``."""

    person: Person
    seat: int
    deadline: float


@dataclass
class Seating:
    """The requests by seat, the waiting list in order, and the seat offered."""

    requests: dict[int, SeatRequest] = field(default_factory=dict)
    waiting: list[Person] = field(default_factory=list)
    offer: SeatOffer | None = None

    def held_for(self, seat: int) -> Person | None:
        """Whom the seat is held for: a request's player, or the offer's."""
        request = self.requests.get(seat)
        if request is not None:
            return request.person
        if self.offer is not None and self.offer.seat == seat:
            return self.offer.person
        return None

    def request_of(self, player_id: int) -> SeatRequest | None:
        return next((r for r in self.requests.values() if r.person.id == player_id), None)

    def in_line(self, player_id: int) -> int | None:
        """The player's place on the waiting list (from 1), or None."""
        for place, person in enumerate(self.waiting, start=1):
            if person.id == player_id:
                return place
        return None

    def drop(self, player_id: int) -> None:
        """The player is off the waiting list (and loses the seat offered to them)."""
        self.waiting = [person for person in self.waiting if person.id != player_id]
        if self.offer is not None and self.offer.person.id == player_id:
            self.offer = None

    def next_deadline(self) -> float | None:
        moments = [request.deadline for request in self.requests.values()]
        if self.offer is not None:
            moments.append(self.offer.deadline)
        return min(moments) if moments else None

    def clear(self) -> None:
        self.requests.clear()
        self.waiting.clear()
        self.offer = None

    def to_json(self, wall: WallClock) -> JsonObject:
        """The state's ``requests``, ``waiting_list`` and ``offer`` (docs/protocol.md),
        deadlines as the wire writes them (``wall``: a moment of the host's clock as text,
        or None where no clock runs)."""
        offer = self.offer
        return {
            "requests": [
                {
                    **_who(r.person),
                    "seat": r.seat + 1,
                    "buy_in": r.buy_in,
                    "deadline": wall(r.deadline),
                }
                for _, r in sorted(self.requests.items())
            ],
            "waiting_list": [_who(person) for person in self.waiting],
            "offer": None
            if offer is None
            else {**_who(offer.person), "seat": offer.seat + 1, "deadline": wall(offer.deadline)},
        }


def _who(person: Person) -> JsonObject:
    return {"player": str(person.id), "name": person.name}


__all__ = [
    "MAX_WAITING",
    "OFFER_SECONDS",
    "REQUEST_SECONDS",
    "SeatOffer",
    "SeatRequest",
    "Seating",
    "WallClock",
]
