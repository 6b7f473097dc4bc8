"""A table host driven in a test (``room/driver.py``): its work kept in memory, the time a
number the test moves."""

from __future__ import annotations

import random
from typing import Any

from splitpot.engine import Action
from splitpot.room.commands import Act, Person, Sit
from splitpot.room.driver import MemoryKeeper, run
from splitpot.room.effects import Publish, Tell
from splitpot.room.host import HostOptions, TableHost
from splitpot.room.settings import TableSettings

OPTIONS = HostOptions(hand_pause=1.0, reveal_wait=2.0, bot_delay=0.5)
ANN, BOB, CY = Person(1, "Ann"), Person(2, "Bob"), Person(3, "Cy")


class Game:
    """A host and its work kept in memory; ``now`` is the test's clock."""

    def __init__(self, **settings: Any) -> None:
        self.host = TableHost("t1", TableSettings("Home", **settings), ANN.id, OPTIONS)
        self.keeper = MemoryKeeper("t1", random.Random(7))
        self.now = 0.0
        self.told: list[Tell] = []

    def do(self, command: Any) -> list[Tell]:
        """A command, then the host's schedule (as the actor runs them)."""
        told = run(self.host.handle(command, self.now), self.keeper)
        told += run(self.host.schedule(self.now), self.keeper)
        self.told += told
        return told

    def wait(self, seconds: float) -> list[Tell]:
        """Time passes: each timer due in it fires, in order."""
        until, told = self.now + seconds, []
        while (due := self.host.next_timer()) is not None and due <= until:
            self.now = max(self.now, due)
            told += run(self.host.tick(self.now), self.keeper)
            told += run(self.host.schedule(self.now), self.keeper)
        self.now = until
        self.told += told
        return told

    def act(self, action: Action) -> list[Tell]:
        host = self.host
        seat = host.table.seat_to_act
        assert seat is not None and host.playing is not None
        occupant = host.occupants[seat]
        return self.do(Act(Person(occupant.player_id, occupant.name), action, host.playing.id))

    def passive(self) -> None:
        """Check, else call, to the hand's end."""
        host = self.host
        while host.table.hand is not None:
            seat = host.table.seat_to_act
            if seat is None or host.occupants[seat].bot is not None or host.away(seat):
                self.wait(1.0)
                continue
            legal = host.table.hand.hand.legal_actions()
            if legal.muck:
                self.wait(0.0)
            else:
                self.act(Action.check() if legal.check else Action.call())


def events(told: list[Tell]) -> list[Any]:
    return [event for tell in told if isinstance(tell, Publish) for event in tell.events]


def seated(*people: Person, **settings: Any) -> Game:
    game = Game(**settings)
    for seat, person in enumerate(people):
        game.do(Sit(person, seat, 100))
    return game
