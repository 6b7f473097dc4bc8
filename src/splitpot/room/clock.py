"""The action clock (RULES.md 6 "Time"): a time limit per decision, and a time bank that
is spent past the limit and refills slowly, a few seconds a hand; and the ten seconds of
the question to run it twice (RULES.md 7). Pure: the actor gives the time."""

from __future__ import annotations

from dataclasses import dataclass, field

REFILL_PER_HAND = 2.0  # seconds of time bank back for each hand dealt


@dataclass(frozen=True, slots=True)
class Turn:
    """A decision on the clock: ``deadline`` ends the action time, ``expires`` the bank."""

    seat: int
    started: float
    deadline: float
    expires: float


@dataclass
class ActionClock:
    action_seconds: float
    bank_seconds: float
    refill: float = REFILL_PER_HAND  # seconds of bank back for each hand dealt
    banks: dict[int, float] = field(default_factory=dict)

    def start(self, seat: int, now: float) -> Turn:
        deadline = now + self.action_seconds
        return Turn(seat, now, deadline, deadline + self.bank(seat))

    def bank(self, seat: int) -> float:
        return self.banks.get(seat, self.bank_seconds)

    def stop(self, turn: Turn, now: float) -> None:
        """The seat acted (or timed out) at ``now``: time past the limit comes off its bank."""
        over = max(0.0, now - turn.deadline)
        self.banks[turn.seat] = max(0.0, self.bank(turn.seat) - over)

    def hand_dealt(self, seats: tuple[int, ...]) -> None:
        for seat in seats:
            self.banks[seat] = min(self.bank_seconds, self.bank(seat) + self.refill)

    def forget(self, seat: int) -> None:
        """A new player in the seat starts with a full bank."""
        self.banks.pop(seat, None)


RUN_IT_SECONDS = 10.0  # RULES.md 7: the players asked to run it twice answer within ten seconds


@dataclass(frozen=True, slots=True)
class Vote:
    """The question to run it twice, on the clock (RULES.md 7): asked at ``started``, and
    no answer by ``deadline`` counts as no."""

    started: float
    deadline: float

    @classmethod
    def ask(cls, now: float, seconds: float) -> Vote:
        return cls(now, now + seconds)

    @property
    def seconds(self) -> float:
        return self.deadline - self.started
