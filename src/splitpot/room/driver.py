"""Driving a table host without a server (docs/architecture.md "The table host"): its
steps run at once, the store's work done in memory. The offline game plays on it, and the
host's own tests drive it so, with no network, no database and no clock."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

from splitpot.cards import Deck
from splitpot.fair import SEED_BYTES, PreOrder
from splitpot.protocol import hand_id
from splitpot.room.effects import (
    TELLS,
    DealSecrets,
    DrawDeal,
    Effect,
    HandBegun,
    LogAction,
    MakeInvite,
    StartHand,
    Tell,
    Work,
)
from splitpot.room.host import Steps


class Keeper(Protocol):
    """Who does a host's work and answers it (a store, or memory)."""

    def do(self, work: Work) -> Any: ...


@dataclass
class MemoryKeeper:
    """The store's work kept in memory: hands numbered as the table numbers them, the
    deal's secrets from a generator (a seeded one repeats the deals), each action logged
    in a list, everything else taken as done."""

    table_id: str
    shuffler: random.Random
    started_at: datetime = datetime(2026, 1, 1, tzinfo=UTC)
    work: list[Work] = field(default_factory=list)  # every piece of work, in order

    def do(self, work: Work) -> Any:
        self.work.append(work)
        match work:
            case StartHand(setup=setup):
                number = int(setup["snapshot"]["hands_played"]) + 1
                return HandBegun(hand_id(self.table_id, number), number, self.started_at)
            case DrawDeal():
                pre_order = PreOrder.draw(self.shuffler)
                seed = self.shuffler.randbytes(SEED_BYTES)
                return DealSecrets(pre_order, seed, Deck(self.shuffler).cards)
            case MakeInvite():
                return "invite"
        return None

    def logged(self) -> list[LogAction]:
        return [work for work in self.work if isinstance(work, LogAction)]


def run(steps: Steps, keeper: Keeper) -> list[Tell]:
    """Carry out a host's steps: the work done by ``keeper`` (its answer sent back, its
    error thrown back), the tells collected, in order."""
    tells: list[Tell] = []
    answer: Any = None
    failure: Exception | None = None
    while True:
        try:
            effect: Effect = steps.send(answer) if failure is None else steps.throw(failure)
        except StopIteration:
            return tells
        answer, failure = None, None
        if isinstance(effect, TELLS):
            tells.append(effect)
            continue
        try:
            answer = keeper.do(effect)
        except Exception as error:
            failure = error


__all__ = ["Keeper", "MemoryKeeper", "run"]
