"""One table of the room as an actor (DESIGN.md "The room"): one asyncio task owns the
table's host (``room/host.py``, the room's rules, pure) and the connections watching it;
commands reach it through a queue and nothing else touches it, so no lock is needed.

The actor only queues, waits and does I/O: each command and each timer goes to the host,
whose steps it carries out in order: the store's work first (the host changes nothing
until it is done), then what to tell, cut for each connection as its player may see it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, Coroutine, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from splitpot.equity import EquityResult
from splitpot.i18n import Said, Words, said
from splitpot.protocol import ErrorCode, ProtocolError, Ref, error_message, frame
from splitpot.room.commands import Chat, TableCommand
from splitpot.room.effects import (
    AddChips,
    Announce,
    BanPlayer,
    CancelHand,
    CashOut,
    ChangeTable,
    CheckTournament,
    Closed,
    CloseTable,
    DealSecrets,
    DrawDeal,
    EditStack,
    Effect,
    EndSession,
    FinishHand,
    HandBegun,
    LetGo,
    LogAction,
    MakeInvite,
    Moved,
    OfferTurn,
    Publish,
    SaveStatus,
    SayChat,
    Seated,
    SendInvite,
    SessionEnded,
    StartHand,
    TakeSeat,
    ToAct,
    WorkOutEquity,
)
from splitpot.room.host import STACK_EDITS, Steps, TableHost
from splitpot.room.runout import equity
from splitpot.server import frames
from splitpot.server.connection import Connection
from splitpot.server.errors import no_table, refusal
from splitpot.server.hands import CHAIN, chain_link
from splitpot.server.lobby import TableFacts, facts
from splitpot.store import FencedOut, HandStatus, Player, SeatRecordStatus, Store, StoredHand
from splitpot.table import TableEvent, seen_by

if TYPE_CHECKING:
    from splitpot.server.tournaments import Tournaments

log = logging.getLogger("splitpot.room")
T = TypeVar("T")


class TableShell(Protocol):
    """What a table's actor needs of its room: the store and its thread, the batched
    action log and hands' starts and ends, the deal's secrets, who may see a table, and
    to be let go when closed."""

    store: Store

    async def db(self, call: Callable[..., T], *args: Any, **kwargs: Any) -> T: ...

    async def log_action(
        self, hand_id: str, seq: int, seat: int, kind: str, amount: int | None
    ) -> None: ...

    async def start_hand(self, table_id: str, setup: dict[str, Any]) -> StoredHand: ...

    async def finish_hand(
        self, hand_id: str, record: dict[str, Any], results: Mapping[int, int], rake: int
    ) -> StoredHand: ...

    def deal_secrets(self) -> DealSecrets: ...

    async def may_see(
        self, table: TableFacts, invite: str | None, player: Player | None
    ) -> bool: ...

    def retire(self, actor: TableActor) -> None: ...

    def spawn(self, work: Coroutine[Any, Any, Any]) -> None: ...

    @property
    def tournaments(self) -> Tournaments: ...


@dataclass
class Request:
    """A connection's command for the table; ``done`` answers it (an error, or None). A
    command that waits for the deal is answered at once and, if it then fails, refused to
    its connection in an ``error`` frame with its ``ref``. ``watch`` and ``unwatch`` are
    the actor's own; every other command is the host's."""

    connection: Connection | None
    command: TableCommand | Watch | Unwatch | Hold | Nudge
    ref: Ref = None
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


@dataclass(frozen=True, slots=True)
class Watch:
    invite: str | None = None


@dataclass(frozen=True, slots=True)
class Unwatch:
    pass


@dataclass(frozen=True, slots=True)
class Hold:
    """The room stops: no more hands here (``TableHost.hold``)."""


@dataclass(frozen=True, slots=True)
class Nudge:
    """The tournament's director decided: a table waiting between hands asks the store
    again now (``TableHost.tournament_news``), not at its next poll."""


class TableActor:
    """The task behind one table: ``submit`` requests, it answers and tells."""

    def __init__(self, room: TableShell, host: TableHost, chain_head: bytes) -> None:
        self.room = room
        self.host = host
        self.id = host.id
        self.chain_head = chain_head  # the hash of the table's last hand record
        self.watchers: set[Connection] = set()
        # watchers let in (by the invite, as host or player): they may sit and chat without
        # showing the invite again, until the host makes a new one
        self.admitted: set[Connection] = set()
        self.closed = False
        self._queue: asyncio.Queue[Request] = asyncio.Queue()
        self._deferred: list[Request] = []  # requests that wait for the announced deal
        self._task: asyncio.Task[None] | None = None

    # ------------------------------------------------------------ the task

    def start(self, first: Steps | None = None) -> None:
        """Run the table; ``first``: steps the table begins with (a restored hand's result)."""
        self._task = asyncio.create_task(self._run(first), name=f"table {self.id}")

    async def stop(self) -> None:
        """Stop the table's task; requests still waiting are refused (the table is gone
        from this process: stopped, or run by another now)."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        waiting = [*self._deferred, *(self._queue.get_nowait() for _ in range(self._queue.qsize()))]
        for request in waiting:
            _refuse(request, self._gone())

    def _gone(self) -> ProtocolError:
        message = f"table {self.id} is not open in this process"
        return ProtocolError(ErrorCode.UNKNOWN_TABLE, message)

    async def submit(self, request: Request) -> None:
        """Queue a request and wait for its answer (raises ``ProtocolError``)."""
        if self.closed:
            raise self._gone()
        self._queue.put_nowait(request)
        await request.done

    def hold(self) -> None:
        """No more hands at this table (the room is stopping), through the queue."""
        self.submit_nowait(Request(None, Hold()))

    def nudge(self) -> None:
        """The tournament's director decided something: look now (through the queue)."""
        if not self.closed:
            self.submit_nowait(Request(None, Nudge()))

    def submit_nowait(self, request: Request) -> None:
        """Queue a request whose answer nobody waits for (a connection going away): a
        refusal of it is dropped, not left for the loop to warn of."""
        request.done.add_done_callback(_drop_refusal)
        self._queue.put_nowait(request)

    async def _run(self, first: Steps | None) -> None:
        if first is not None:
            await self._steps_logged(first, "a restored hand could not be finished")
        await self._steps_logged(self.host.schedule(time.monotonic()), "a bot could not buy in")
        while not self.closed:
            wait = self._wait()
            try:
                # Requests already waiting go first: a move sent in time is not timed out
                # because the table was busy when its deadline passed.
                if self._queue.empty():
                    # a deadline on this task, not wait_for's task of its own for get()
                    async with asyncio.timeout(wait):
                        request = await self._queue.get()
                else:
                    request = self._queue.get_nowait()
            except TimeoutError:
                await self._steps_logged(self.host.tick(time.monotonic()), "timer failed")
                await self._after()
                continue
            command = request.command
            if not isinstance(command, Watch | Unwatch | Hold | Nudge) and self.host.must_wait(
                command
            ):
                # done once the cards are dealt; answered now, so that the client's next
                # command (its reveal for this very deal) does not wait behind it
                self._deferred.append(request)
                if not request.done.done():
                    request.done.set_result(None)
                continue
            await self._answer(request)
            await self._after()

    def _wait(self) -> float | None:
        moment = self.host.next_timer()
        return None if moment is None else max(0.0, moment - time.monotonic())

    async def _after(self) -> None:
        """After every change: who acts next and when the next hand is dealt; once an
        announced hand is dealt, the requests that waited for it."""
        host = self.host
        host.watchers(any(not c.closed for c in self.watchers), time.monotonic())
        await self._steps_logged(host.schedule(time.monotonic()), "scheduling failed")
        while host.pending is None and self._deferred and not self.closed:
            request = self._deferred.pop(0)
            await self._answer(request)
            await self._steps_logged(host.schedule(time.monotonic()), "scheduling failed")

    async def _answer(self, request: Request) -> None:
        try:
            await self._take(request)
        except Exception as error:  # a refusal, or a bug: answer, keep the table alive
            failure = refusal(error)
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("table %s: %s failed", self.id, type(request.command).__name__)
            _refuse(request, failure)
        else:
            if not request.done.done():
                request.done.set_result(None)

    async def _take(self, request: Request) -> None:
        connection, command = request.connection, request.command
        if isinstance(command, Hold):
            self.host.hold()
            return
        if isinstance(command, Nudge):
            self.host.tournament_news()
            return
        if isinstance(command, Unwatch):
            if connection is not None:
                self.watchers.discard(connection)
                self.admitted.discard(connection)
            return
        if connection is None:
            raise ProtocolError(ErrorCode.FORBIDDEN, "a command needs a connection")
        await self._check_visible(
            connection, command.invite if isinstance(command, Watch) else None
        )
        if isinstance(command, Watch):
            self._watch(connection)
            connection.send(self._snapshot(connection))
            await self._steps(self.host.offer_turn(), only=connection)
            return
        if isinstance(command, Chat):
            command = Chat(command.person, command.text, connection in self.watchers)
        await self._steps(self.host.handle(command, time.monotonic()), connection)

    async def _steps_logged(self, steps: Steps, what: str) -> None:
        """Steps the room itself began (a timer, a restored hand): a failure is logged,
        and the table goes on."""
        try:
            await self._steps(steps)
        except FencedOut:
            pass  # another process runs the table now: the room has let it go
        except Exception:
            log.exception("table %s: %s", self.id, what)

    async def _steps(
        self, steps: Steps, connection: Connection | None = None, *, only: Connection | None = None
    ) -> None:
        """Carry out the host's steps: each piece of work done (its answer sent back, its
        error thrown back), each tell sent. A table fenced out stops at once."""
        answer: Any = None
        failure: BaseException | None = None
        while True:
            try:
                effect = steps.send(answer) if failure is None else steps.throw(failure)
            except StopIteration:
                return
            answer, failure = None, None
            try:
                answer = await self._do(effect, connection, only)
            except FencedOut:
                steps.close()
                raise
            except Exception as error:
                failure = error

    # ------------------------------------------------------------ the work

    async def _do(
        self, effect: Effect, connection: Connection | None, only: Connection | None
    ) -> Any:
        """One step: the store's work (its answer), or a tell."""
        store, table = self.room.store, self.id
        match effect:
            case TakeSeat(seat=seat, player_id=player, buy_in=buy_in):
                return await self.room.db(store.sit, table, seat + 1, player, buy_in)
            case AddChips(player_id=player, amount=amount):
                return await self.room.db(store.top_up, table, player, amount)
            case EditStack(player_id=player, amount=amount, author_id=author, queued=queued):
                settled = STACK_EDITS if queued else None
                return await self.room.db(store.edit_stack, table, player, amount, author, settled)
            case CashOut(player_id=player):
                return await self.room.db(store.leave, table, player)
            case SaveStatus(player_id=player, status=status):
                seat_status = SeatRecordStatus(status.value)
                return await self.room.db(store.set_seat_status, table, player, seat_status)
            case LogAction():
                e = effect
                return await self.room.log_action(e.hand, e.seq, e.seat, e.kind, e.amount)
            case StartHand(setup=setup):
                stored = await self.room.start_hand(table, setup)
                return HandBegun(stored.id, stored.serial, stored.started_at)
            case CancelHand(hand=hand):
                return await self.room.db(store.cancel_hand, hand)
            case FinishHand():
                return await self._finish_hand(effect)
            case ChangeTable(changes=changes, host_id=host_id):
                return await self.room.db(store.change_table, table, changes, host_id)
            case BanPlayer(player_id=player):
                return await self.room.db(store.ban, table, player)
            case MakeInvite():
                invite: str = await self.room.db(store.new_invite, table)
                self.admitted = {c for c in self.admitted if self._keeps_seeing(c)}
                return invite
            case CloseTable():
                return await self.room.db(store.close_table, table)
            case EndSession():
                audit = await self.room.db(store.end_session, table)
                return (
                    None
                    if audit is None
                    else SessionEnded(audit.number, audit.first_hand, audit.last_hand)
                )
            case DrawDeal():
                return self.room.deal_secrets()
            case CheckTournament(ready=ready, next_big_blind=due):
                return await self.room.tournaments.orders(table, ready, due)
            case WorkOutEquity():
                return await self._equity(effect)
        self._tell(effect, connection, only)
        return None

    async def _finish_hand(self, finished: FinishHand) -> None:
        """The hand's result, its record linked into the table's chain (FAIRNESS.md) over
        its document as anyone sees it: built off the event loop."""
        record = finished.record
        stored = StoredHand(
            finished.hand, self.id, finished.number, finished.serial, HandStatus.FINISHED,
            finished.started_at, None, record,
        )  # fmt: skip
        link = await asyncio.to_thread(chain_link, self.chain_head, stored, finished.played)
        record[CHAIN] = link
        await self.room.finish_hand(finished.hand, record, finished.results, finished.rake)
        self.chain_head = bytes.fromhex(link["hash"])

    async def _equity(self, wanted: WorkOutEquity) -> EquityResult | None:
        try:
            return await asyncio.to_thread(equity, wanted.variant, wanted.face_up, wanted.boards)
        except Exception:  # the felt's figures are a courtesy: the hand goes on without
            log.exception("table %s: no equity", self.id)
            return None

    # ------------------------------------------------------------ telling

    def _tell(self, told: Effect, connection: Connection | None, only: Connection | None) -> None:
        match told:
            case Publish():
                self._publish(told)
            case Announce(event=event, seq=seq, said=None):
                self._to_all(frames.room_event(self.id, event, seq))
            case Announce(event=event, seq=seq, said=Said() as announced):
                self._to_all_in_words(
                    lambda words: frames.room_event(
                        self.id, event | {"text": announced.to(words)}, seq
                    )
                )
            case ToAct():
                self._to_all(frames.to_act(self.id, told))
            case OfferTurn(player_id=player):
                offer = frames.turn(self.id, told)
                for watcher in [only] if only is not None else list(self.watchers):
                    if watcher.player_id == player:
                        watcher.send(offer)
            case SayChat():
                self._to_all(frames.chat(self.id, told))
            case Seated(player_id=player):
                if connection is not None and connection.player_id == player:
                    self._watch(connection)  # the player's own command: this connection
                    connection.send(self._snapshot(connection))
                else:  # seated by the host: each of the player's connections watching
                    for watcher in [c for c in self.watchers if c.player_id == player]:
                        watcher.send(self._snapshot(watcher))
            case LetGo(player_id=player, reason=reason, text=text):
                for watcher in list(self.watchers):
                    if watcher.player_id == player:
                        self._end_watch(watcher, reason, text)
            case SendInvite(invite=invite):
                sent = frames.invite(self.id, invite)
                hosts = {c for c in self.watchers if c.player_id == self.host.host_id}
                for host in hosts | ({connection} if connection is not None else set()):
                    host.send(sent)
            case Moved(player_id=player):
                followers = [c for c in self.watchers if c.player_id == player]
                for follower in followers:
                    self.watchers.discard(follower)
                    follower.watching.pop(self.id, None)
                self.room.spawn(self._follow(player, followers))
            case Closed(text=text):
                for watcher in list(self.watchers):
                    self._end_watch(watcher, "closed", text)
                self.room.retire(self)

    async def _follow(self, player_id: int, followers: list[Connection]) -> None:
        """RULES.md 8: a player the tournament moved; their connections that watched here
        are told the table they sit at now (docs/protocol.md ``moved``), and watch it."""
        sits = await self.room.db(self.room.store.tables_of, player_id)
        to = next((table for table in sits if table != self.id), None)
        text = said("The tournament moves you to another table")
        for follower in followers:
            follower.send(frames.moved(self.id, to, text.to(follower.words)))

    def _publish(self, published: Publish) -> None:
        """Each event to each connection, as its player may see it and in its language; a
        frame is made once for all the connections that see it alike in one language:
        each seat's view is asked for once, and one that hides nothing more than the
        public's is the public's."""
        host = self.host
        seats = host.seats_by_player()
        audience: list[tuple[Connection, int | None]] = []  # each connection, its seat
        for connection in list(self.watchers):
            if connection.closed:
                self.watchers.discard(connection)
                self.admitted.discard(connection)
            else:
                player = connection.player_id
                audience.append((connection, None if player is None else seats.get(player)))
        for offset, (event, scene) in enumerate(
            zip(published.events, published.scenes, strict=True)
        ):
            seq = published.seq + offset
            public = seen_by(event, None)
            views: dict[int | None, TableEvent] = {None: public}  # by the viewer's seat
            made: dict[tuple[int | None, Words], str] = {}  # by the view's seat, and words
            for connection, seat in audience:
                seen = views.get(seat)
                if seen is None:
                    seen = seen_by(event, seat)
                    views[seat] = seen = public if seen is public or seen == public else seen
                words = connection.words
                frame_of = (None if seen is public else seat, words)
                text = made.get(frame_of)
                if text is None:
                    told = scene.speaking(words)
                    text = frames.event(host, seen, told, seq, published.fairness, published.vote)
                    made[frame_of] = text
                connection.send(text)

    def _to_all(self, sent: str) -> None:
        for connection in list(self.watchers):
            connection.send(sent)

    def _to_all_in_words(self, frame_in: Callable[[Words], str]) -> None:
        """The same frame to every watcher in its language, serialised once per language."""
        spoken: dict[Words, str] = {}
        for connection in list(self.watchers):
            if connection.words not in spoken:
                spoken[connection.words] = frame_in(connection.words)
            connection.send(spoken[connection.words])

    def _snapshot(self, connection: Connection) -> str:
        host = self.host
        view = host.table.view(host.seat_of(connection.player_id))
        return frames.table(host, view, self.connected)

    # ------------------------------------------------------------ watching

    def _watch(self, connection: Connection) -> None:
        """The connection, let see the table, receives its frames from now on."""
        self.watchers.add(connection)
        self.admitted.add(connection)

    def _end_watch(self, connection: Connection, reason: str, text: str) -> None:
        """The connection receives the table no more, and is told why (``unwatched``)."""
        self.watchers.discard(connection)
        self.admitted.discard(connection)
        connection.watching.pop(self.id, None)
        connection.send(frames.unwatched(self.id, reason, text))

    async def _check_visible(self, connection: Connection, invite: str | None) -> None:
        """A private table is seen by its host, its players and whoever has its invite
        (a connection watching it already showed it, until the host makes a new one); a
        banned player sees nothing of it (``Room.may_see``). To anyone else, any command is
        refused as at a table that does not exist: a stranger cannot tell it is there."""
        if connection in self.admitted:
            return
        if await self.room.may_see(facts(self.host), invite, connection.player):
            return
        if connection in self.watchers:  # let in by the invite that the host replaced
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "the host made a new invite: watch again with it"
            )
        raise no_table(self.id)

    def connected(self, player_id: int) -> bool:
        """Whether a connection of the player watches the table now."""
        return any(c.player_id == player_id and not c.closed for c in self.watchers)

    def _keeps_seeing(self, connection: Connection) -> bool:
        """A connection a new invite leaves in: its host's, or a seated player's."""
        player = connection.player_id
        return player == self.host.host_id or self.host.seat_of(player) is not None


def _drop_refusal(done: asyncio.Future[None]) -> None:
    if not done.cancelled():
        done.exception()  # retrieved: nobody waits for this answer


def _refuse(request: Request, failure: ProtocolError) -> None:
    """Answer a request with its refusal: to the waiting sender, or, when it was
    answered before it ran (it waited for the deal), to its connection."""
    if not request.done.done():
        request.done.set_exception(failure)
    elif request.connection is not None:
        error = error_message(failure.code, failure.told(request.connection.words), request.ref)
        request.connection.send(frame(error))


__all__ = ["Hold", "Request", "TableActor", "TableShell", "Unwatch", "Watch"]
