"""One process's numbered batches to another, taken in the order they were numbered though
two ways carry them (Redis, and the direct link: ``server/link.py``), so one may overtake
the other when a link comes up or goes down. A batch that comes early waits for those
before it; a batch that never comes is given up on (the frames it held are lost: the
receiver catches up on that sender's tables whole)."""

from __future__ import annotations

from typing import Generic, TypeVar

T = TypeVar("T")


class InOrder(Generic[T]):
    """The batches of one sender, numbered from 1."""

    def __init__(self) -> None:
        self.last = 0  # the number of the last batch taken
        self._early: dict[int, T] = {}

    @property
    def waiting(self) -> bool:
        """Some batch came before one numbered lower, which has not come yet."""
        return bool(self._early)

    def take(self, number: int, batch: T) -> list[T]:
        """The batches to handle now, in order, ``batch`` among them unless it comes early
        (kept for later) or late (one given up on, or twice: dropped)."""
        if number <= self.last:
            return []
        if number != self.last + 1:
            self._early[number] = batch
            return []
        ready = [batch]
        self.last = number
        while self.last + 1 in self._early:
            self.last += 1
            ready.append(self._early.pop(self.last))
        return ready

    def give_up(self) -> list[T]:
        """The batches that came early, in order, the ones missing before them lost."""
        ready = [self._early[number] for number in sorted(self._early)]
        if self._early:
            self.last = max(self._early)
            self._early.clear()
        return ready
