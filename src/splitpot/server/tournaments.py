"""The room's tournaments (RULES.md 8): each is directed by one process at a time, under a
lease of its own with fencing (as each table is run under its own), so that a process
that dies, the director's own included, loses no chip, no place and no seat: another
takes the lease over and reads the tournament where the store holds it.

A director is a loop: read the tournament's state, ``decide`` (``room/director.py``),
write the decision in one fenced transaction, run the tables it opened here. Its tables
wait between hands for its clearance (``TableHost``), asking the store on their own.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, Protocol, TypeVar

from splitpot.room.director import Status, decide
from splitpot.room.tournament_settings import settings_from_json
from splitpot.room.tournament_table import TournamentOrders, TournamentPlay, TournamentSeat
from splitpot.server.options import RoomOptions
from splitpot.store import Store, TableRecord
from splitpot.store.errors import FencedOut
from splitpot.store.tournaments import TournamentError as TournamentConflict

T = TypeVar("T")


class Nudged(Protocol):
    def nudge(self) -> None: ...


class Asking(Protocol):
    """The room's other processes, as far as a director needs them (``Cluster``)."""

    def node_of(self, owner: str) -> str | None: ...

    async def ask(self, node: str, kind: str, body: dict[str, Any]) -> dict[str, Any]: ...


class Directing(Protocol):
    """What a tournament's director needs of its room: the store and its thread, the
    room's options and randomness, and to run a table it opened."""

    store: Store
    options: RoomOptions
    closing: bool

    @property
    def tables(self) -> Mapping[str, Nudged]: ...

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    def rng(self) -> random.Random | None: ...

    async def place(self, table_ids: list[str]) -> None: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    @property
    def node(self) -> str: ...

    @property
    def others(self) -> Asking | None: ...


log = logging.getLogger("splitpot.tournaments")

DIRECTOR_SECONDS = 0.2  # between a director's looks at its tournament
ENDED = (Status.FINISHED.value, Status.CANCELLED.value)


class Tournaments:
    """The tournaments this process directs, and what its tables ask of the store."""

    def __init__(self, room: Directing) -> None:
        self.room = room
        self.directed: dict[int, asyncio.Task[None]] = {}
        self._news: dict[int, asyncio.Event] = {}  # a table of it checked in: decide now
        self._draws = room.rng() or random.SystemRandom()

    def draw(self, n: int) -> int:
        """The director's randomness: a seat, a table's order (secret, or seeded in tests)."""
        return self._draws.randrange(n)

    async def take(self, tournament_id: int) -> bool:
        """Direct the tournament here if its lease can be had."""
        if tournament_id in self.directed:
            return True
        room = self.room
        claimed = await room.db(
            room.store.claim_tournament, tournament_id, room.options.lease_seconds
        )
        if not claimed:
            return False
        task = asyncio.create_task(self._direct(tournament_id), name=f"tournament {tournament_id}")
        self.directed[tournament_id] = task
        return True

    async def look_around(self) -> None:
        """Take the tournaments no process directs (never taken, or their director died)."""
        free = await self.room.db(self.room.store.free_tournaments)
        for tournament_id in free:
            if not self.room.closing:
                await self.take(tournament_id)

    async def renew(self) -> None:
        """Extend this process's tournament leases; stop directing those another took."""
        room = self.room
        lost = await room.db(room.store.renew_tournament_leases, room.options.lease_seconds)
        for tournament_id in lost:
            self._stop(tournament_id)

    async def close(self) -> None:
        """Stop directing (the room stops): each lease given up for another to take."""
        for tournament_id in list(self.directed):
            self._stop(tournament_id)
            with contextlib.suppress(Exception):
                await self.room.db(self.room.store.release_tournament, tournament_id)

    def _stop(self, tournament_id: int) -> None:
        task = self.directed.pop(tournament_id, None)
        if task is not None and task is not asyncio.current_task():
            task.cancel()

    async def _direct(self, tournament_id: int) -> None:
        """The director's loop; it ends with the tournament, or when its lease is lost. A
        decision the store refuses (an entrant came meanwhile) is made again; a director
        that fails gives its lease up for another look (here or elsewhere) to take."""
        room = self.room
        fenced = False
        try:
            while not room.closing:
                try:
                    if not await self._decide(tournament_id):
                        break
                except TournamentConflict as conflict:  # the state moved on: decide again
                    log.warning("tournament %s: %s", tournament_id, conflict)
                news = self._news.setdefault(tournament_id, asyncio.Event())
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(news.wait(), DIRECTOR_SECONDS)
                news.clear()
        except FencedOut:
            fenced = True
            log.warning("tournament %s: another process directs it now", tournament_id)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("tournament %s: its director stopped", tournament_id)
        finally:
            self.directed.pop(tournament_id, None)
            self._news.pop(tournament_id, None)
            if not fenced and not room.closing:
                with contextlib.suppress(Exception):
                    await room.db(room.store.release_tournament, tournament_id)

    async def _decide(self, tournament_id: int) -> bool:
        """One look: the state read, the decision written; False once it has ended."""
        room = self.room
        state = await room.db(room.store.tournament_state, tournament_id)
        if state.status.value in ENDED:
            return False
        decision = decide(state, room.store.now(), self.draw)
        if decision.changes or decision.hand_for_hand != state.hand_for_hand:
            opened = await room.db(room.store.apply_decision, tournament_id, decision)
            if opened:
                await room.place(opened)
            await self._tell_tables(tournament_id, [t.id for t in state.tables])
        return True

    def news(self, tournament_id: int) -> None:
        """One of the tournament's tables waits between hands: its director decides now
        rather than at its next look."""
        news = self._news.get(tournament_id)
        if news is not None:
            news.set()

    async def _tell_tables(self, tournament_id: int, table_ids: list[str]) -> None:
        """The director decided: each of the tournament's tables asks the store now, those
        run here through their queue, the others through their process."""
        room = self.room
        elsewhere = []
        for table_id in table_ids:
            actor = room.tables.get(table_id)
            if actor is not None:
                actor.nudge()
            else:
                elsewhere.append(table_id)
        if elsewhere and room.others is not None:
            owners = await room.db(room.store.tournament_table_owners, tournament_id)
            for table_id in elsewhere:
                if table_id in owners:
                    self._ask(owners[table_id], "nudge", {"table": table_id})

    def _ask(self, owner: str, kind: str, body: dict[str, Any]) -> None:
        """Tell the process holding ``owner``'s leases, without waiting: a message lost
        costs a poll's time, nothing more."""
        others = self.room.others
        node = None if others is None or owner == self.room.node else others.node_of(owner)
        if others is not None and node is not None:
            self.room.spawn(_quietly(others.ask(node, kind, body)))

    # ------------------------------------------------------------ its tables

    async def orders(
        self, table_id: str, ready: int, next_big_blind: int | None
    ) -> TournamentOrders:
        """A tournament table between hands: its seats now and its clearance (the store's
        ``table_check``, fenced by the table's lease)."""
        store = self.room.store
        checked = await self.room.db(store.table_check, table_id, ready, next_big_blind)
        if checked.tournament_id in self.directed:  # directed here: it decides now
            self.news(checked.tournament_id)
        elif checked.director is not None:  # directed elsewhere: that process is told
            body = {"tournament": checked.tournament_id}
            self._ask(checked.director, "tournament_news", body)
        started = checked.started_at
        elapsed = 0.0 if started is None else (store.now() - started).total_seconds()
        return TournamentOrders(
            tuple(
                TournamentSeat(seat.seat - 1, seat.player_id, seat.name, seat.chips)
                for seat in checked.seats
            ),
            checked.cleared,
            max(0.0, elapsed),
            broken=checked.broken,
            finished=checked.status in ENDED,
            hand_for_hand=checked.hand_for_hand,
        )

    async def play(self, record: TableRecord) -> TournamentPlay | None:
        """What a tournament table's host keeps of its tournament (None: a cash table)."""
        if not record.settings.get("tournament"):
            return None
        store = self.room.store
        place = await self.room.db(store.tournament_table, record.id)
        tournament = await self.room.db(store.tournament, place.tournament_id)
        settings = settings_from_json(tournament.settings)
        return TournamentPlay(
            tournament.id,
            place.number,
            tournament.name,
            settings.schedule,
            buy_in=settings.buy_in,
            fee=settings.fee,
            bots=place.bots,
        )


async def _quietly(asked: Coroutine[Any, Any, Any]) -> None:
    """A message to another process whose answer does not matter."""
    with contextlib.suppress(Exception):
        await asked


__all__ = ["DIRECTOR_SECONDS", "Tournaments"]
