"""One table of the room as an actor (DESIGN.md "The room"): one asyncio task owns the
``Table``, its clock and its bots; commands reach it through a queue and nothing else
touches it, so no lock is needed.

Order of work for every change: the pure table decides (an illegal command raises and
changes nothing), the store records it (an action before its event goes out), then the
events go to every connection as that connection's player may see them.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from splitpot.bots import Bot, make_bot
from splitpot.cards import Deck, parse_cards
from splitpot.dealer import Scene, scenes
from splitpot.engine import Action, IllegalActionError, Shown
from splitpot.fair import GENESIS
from splitpot.history.splitpot_json import to_json
from splitpot.history.table_log import record_of
from splitpot.protocol import (
    ErrorCode,
    HostAction,
    JsonObject,
    ProtocolError,
    Ref,
    equity_event,
    error_message,
    frame,
    hand_id,
    to_act_event,
)
from splitpot.server import frames
from splitpot.server.clock import REFILL_PER_HAND, ActionClock, Turn
from splitpot.server.connection import Connection
from splitpot.server.dealing import PendingDeal
from splitpot.server.errors import no_table, refusal
from splitpot.server.frames import seconds, wall_time
from splitpot.server.hands import CHAIN, DEAL_SECRET, PLAYER_IDS, chain_link
from splitpot.server.lobby import facts
from splitpot.server.runout import FaceUp, equity, runout_parts
from splitpot.server.settings import TableSettings, parse_settings
from splitpot.store import FencedOut, HandStatus, Player, SeatStatus
from splitpot.store import Hand as StoredHand
from splitpot.table import (
    HandFinished,
    HandStarted,
    InHand,
    SatOut,
    Table,
    TableError,
    TableEvent,
    seen_by,
)

if TYPE_CHECKING:
    from splitpot.server.room import Room

log = logging.getLogger("splitpot.room")

CHAT_RATE = (5, 10.0)  # at most 5 lines in 10 seconds per player
# Commands that change the table wait while an announced hand waits for its players'
# entropy: the hand is dealt to the table it was announced at.
WAIT_FOR_THE_DEAL = frozenset({"sit", "sit_out", "sit_in", "top_up", "leave", "host"})


@dataclass
class Occupant:
    """Who sits in a seat, as the room knows them (the table knows only the name)."""

    player_id: int
    name: str
    bot: Bot | None = None
    leaving: bool = False  # cash out when the hand ends
    removed: bool = False  # the host removes the player at the end of the hand
    hands_out: int = 0  # hands dealt while sitting out
    muck_losing: bool = True  # a hand that cannot win is mucked at the showdown, else shown


@dataclass
class Command:
    """A command for the table; ``done`` answers it (an error, or None). A command that
    waits for the deal is answered at once and, if it then fails, refused to its
    connection in an ``error`` frame with its ``ref``."""

    connection: Connection | None
    name: str
    fields: dict[str, Any] = field(default_factory=dict)
    ref: Ref = None
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class TableActor:
    """The task behind one table: ``submit`` commands, it answers and publishes."""

    def __init__(
        self,
        room: Room,
        table_id: str,
        settings: TableSettings,
        host_id: int,
        table: Table | None = None,
    ) -> None:
        self.room = room
        self.id = table_id
        self.settings = settings
        self.host_id = host_id
        self.table = table or Table(settings.config())
        self.occupants: dict[int, Occupant] = {}
        self.watchers: set[Connection] = set()
        # watchers let in (by the invite, as host or player): they may sit and chat without
        # showing the invite again, until the host makes a new one
        self.admitted: set[Connection] = set()
        self.banned: frozenset[int] = frozenset()  # players the host keeps out
        self.house = False  # the operator's table (serve --bots): never left to close
        self.seq = 0
        self.hand_id: str | None = None
        self.hand_serial: int | None = None  # the room's number of the hand in play
        self.paused = False
        self.closed = False
        self.closing = False  # the host closes the table: at once, or when the hand ends
        self.ending_session = False  # the host ends the session when the hand ends
        self.idle = False  # a table of bots with no human for idle_pause: it deals no more
        self._alone_since: float | None = None  # when its bots were last left alone
        self.next_settings: TableSettings | None = None  # the host's stakes, from next hand
        scale = room.options.clock_scale
        self.clock = ActionClock(
            settings.action_seconds * scale,
            settings.time_bank_seconds * scale,
            REFILL_PER_HAND * scale,
        )
        self.turn: Turn | None = None
        self.turn_seq = 0  # the seq of the last event when the turn began: names the turn
        self._queue: asyncio.Queue[Command] = asyncio.Queue()
        self._deal_at: float | None = None
        self._extra_pause = 0.0  # more time before the next deal: a run-out, hands shown
        self._to_act_told: tuple[str, int] | None = None  # the decision last told to_act
        self.commitments: dict[int, bytes] = {}  # player id -> u for their next hand
        self.pending: PendingDeal | None = None  # a hand announced, its cards not dealt
        self._deferred: list[Command] = []  # commands that wait for the pending deal
        self.deal_secret: dict[str, Any] | None = None  # the fair deal of the hand in play
        self.hand_started_at = datetime.now(UTC)  # when the hand in play was dealt
        self.chain_head = GENESIS  # the hash of the table's last hand record
        self._act_for_at: float | None = None
        self._chat: dict[int, deque[float]] = {}
        self._task: asyncio.Task[None] | None = None
        self.scene = Scene(self.table.config.variant)
        self.pots: deque[int] = deque(maxlen=50)  # the last hands' pots, for the lobby
        self.hand_times: deque[float] = deque(maxlen=50)

    # ------------------------------------------------------------ the task

    def start(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table {self.id}")
        self._schedule()  # the turn's clock runs from now

    async def stop(self) -> None:
        """Stop the table's task; commands still waiting are refused (the table is gone
        from this process: stopped, or run by another now)."""
        self.closed = True
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        waiting = [*self._deferred, *(self._queue.get_nowait() for _ in range(self._queue.qsize()))]
        for command in waiting:
            self._refuse(command, self._gone())

    def _gone(self) -> ProtocolError:
        message = f"table {self.id} is not open in this process"
        return ProtocolError(ErrorCode.UNKNOWN_TABLE, message)

    async def submit(self, command: Command) -> None:
        """Queue a command and wait for its answer (raises ``ProtocolError``)."""
        if self.closed:
            raise self._gone()
        self._queue.put_nowait(command)
        await command.done

    def submit_nowait(self, command: Command) -> None:
        """Queue a command whose answer nobody waits for (a connection going away)."""
        self._queue.put_nowait(command)

    async def _run(self) -> None:
        try:
            await self._rebuy_bots()  # a table restored with a broke bot
        except Exception:
            log.exception("table %s: a bot could not buy in", self.id)
        self._schedule()  # after a bot's buy-in, a deal may be due
        while not self.closed:
            wait = self._next_timer()
            try:
                # Commands already waiting go first: a move sent in time is not timed out
                # because the table was busy when its deadline passed.
                if self._queue.empty():
                    command = await asyncio.wait_for(self._queue.get(), wait)
                else:
                    command = self._queue.get_nowait()
            except TimeoutError:
                await self._on_timer()
                continue
            if self.pending is not None and command.name in WAIT_FOR_THE_DEAL:
                # done once the cards are dealt; answered now, so that the client's next
                # command (its reveal for this very deal) does not wait behind it
                self._deferred.append(command)
                if not command.done.done():
                    command.done.set_result(None)
                continue
            await self._answer(command)
            self._schedule()

    async def _answer(self, command: Command) -> None:
        try:
            await self._handle(command)
        except Exception as error:  # a refusal, or a bug: answer, keep the table alive
            failure = refusal(error)
            if failure.code is ErrorCode.SERVER_ERROR:
                log.exception("table %s: %s failed", self.id, command.name)
            self._refuse(command, failure)
        else:
            if not command.done.done():
                command.done.set_result(None)

    @staticmethod
    def _refuse(command: Command, failure: ProtocolError) -> None:
        """Answer a command with its refusal: to the waiting sender, or, when it was
        answered before it ran (it waited for the deal), to its connection."""
        if not command.done.done():
            command.done.set_exception(failure)
        elif command.connection is not None:
            error = error_message(failure.code, failure.message, command.ref)
            command.connection.send(frame(error))

    # ------------------------------------------------------------ timers

    def _next_timer(self) -> float | None:
        moments = [m for m in (self._deal_at, self._act_for_at, self._idle_at()) if m is not None]
        if self.turn is not None:
            moments.append(self.turn.expires)
        if not moments:
            return None
        return max(0.0, min(moments) - time.monotonic())

    async def _on_timer(self) -> None:
        now = time.monotonic()
        try:
            if self._deal_at is not None and now >= self._deal_at:
                self._deal_at = None
                await (self._deal() if self.pending is None else self._deal_cards())
            elif self._act_for_at is not None and now >= self._act_for_at:
                self._act_for_at = None
                await self._act_for()
            elif self.turn is not None and now >= self.turn.expires:
                await self._time_out(self.turn.seat)
            elif (idle_at := self._idle_at()) is not None and now >= idle_at:
                await self._left_alone()
        except FencedOut:
            pass  # another process runs the table now: the room has let it go
        except Exception:
            log.exception("table %s: timer failed", self.id)
        self._schedule()

    def _schedule(self) -> None:
        """After every change: who acts next, and when the next hand is dealt."""
        now = time.monotonic()
        self._mind_humans(now)
        self._act_for_at = None
        if self.pending is not None:
            return  # the deal waits for the players' entropy until _deal_at
        current = self.table.hand
        if current is None:
            self.turn = None
            if self._deal_at is None and self._can_deal():
                self._deal_at = now + self.room.options.hand_pause + self._extra_pause
            elif not self._can_deal():
                self._deal_at = None
            return
        seat = self.table.seat_to_act
        if seat is None:
            return
        occupant = self.occupants.get(seat)
        if occupant is not None and (
            occupant.leaving or self.away(seat) or (occupant.bot is None and self._showdown())
        ):
            # decided at once: leave folds, a player away checks or folds, a player's
            # show or muck follows their preference (no clock, never a time-out)
            self.turn = None
            self._act_for_at = now
        elif occupant is not None and occupant.bot is not None:
            self.turn = None
            self._act_for_at = now + self.room.options.bot_delay
        elif self.turn is None or self.turn.seat != seat:
            self.turn = self.clock.start(seat, now)
            self._tell_to_act(seat)
            self.turn_seq = self.seq  # the turn follows the event that says it
            self._send_turn()
        self._tell_to_act(seat)

    def _can_deal(self) -> bool:
        if self.paused or self.closed or self.closing or self.idle:
            return False
        ready = [s for s, p in enumerate(self.table.seats) if p is not None and not p.absent]
        return len(ready) >= 2

    def _mind_humans(self, now: float) -> None:
        """A table of bots alone (no human sits there or watches it) is left to itself from
        now: it pauses after ``idle_pause`` and closes after ``idle_close`` (the house's
        table never). A human coming sets it going again."""
        bots_only = bool(self.occupants) and all(o.bot is not None for o in self.occupants.values())
        watched = any(not connection.closed for connection in self.watchers)
        if self.house or not bots_only or watched:
            self._alone_since, self.idle = None, False
        elif self._alone_since is None:
            self._alone_since = now

    def _idle_at(self) -> float | None:
        """When a table of bots alone pauses, or, paused so and between hands, closes."""
        if self._alone_since is None:
            return None
        options = self.room.options
        if not self.idle:
            return self._alone_since + options.idle_pause
        if self.table.hand is None and self.pending is None:
            return self._alone_since + options.idle_close
        return None

    async def _left_alone(self) -> None:
        """No human came for ``idle_pause`` seconds: no more hands; for ``idle_close``: the
        table closes (its host may reopen it)."""
        if not self.idle:
            self.idle = True
            log.info("table %s: bots alone for a while: no more hands", self.id)
        else:
            log.info("table %s: bots alone for long: the table closes", self.id)
            await self._close()

    # ------------------------------------------------------------ commands

    async def _handle(self, command: Command) -> None:
        handler: Callable[[Command], Any] = getattr(self, f"_cmd_{command.name}")
        if command.connection is not None and command.name not in ("watch", "unwatch"):
            await self._check_visible(command.connection, None)  # watch brings the invite
        await handler(command)

    async def _cmd_watch(self, command: Command) -> None:
        connection = command.connection
        assert connection is not None
        await self._check_visible(connection, command.fields.get("invite"))
        self._watch(connection)
        connection.send(self._snapshot_frame(connection))
        self._send_turn(only=connection)

    async def _cmd_unwatch(self, command: Command) -> None:
        if command.connection is not None:
            self.watchers.discard(command.connection)
            self.admitted.discard(command.connection)

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
        if await self.room.may_see(facts(self), invite, connection.player):
            return
        if connection in self.watchers:  # let in by the invite that the host replaced
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "the host made a new invite: watch again with it"
            )
        raise no_table(self.id)

    async def _cmd_sit(self, command: Command) -> None:
        player = self._player(command)
        seat, buy_in = command.fields["seat"], command.fields["buy_in"]
        config = self.table.config
        where = self.seat_of(player.id)
        if where is not None:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED, f"{player.name} already sits in seat {where + 1}"
            )
        if not 0 <= seat < config.seats:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"there is no seat {seat + 1}: the table has {config.seats}"
            )
        if self.table.seats[seat] is not None:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, f"seat {seat + 1} is taken")
        if any(o.name == player.name for o in self.occupants.values()):
            raise ProtocolError(
                ErrorCode.NAME_TAKEN, f"a player named {player.name} sits at this table"
            )
        low, high = config.min_buy_in, config.max_buy_in
        if not low <= buy_in <= high:
            raise ProtocolError(ErrorCode.BUY_IN, f"the buy-in is {low} to {high}, not {buy_in}")
        events = self.table.sit(
            seat, player.name, buy_in, post_now=bool(command.fields.get("post_now"))
        )
        try:
            await self.room.db(self.room.store.sit, self.id, seat + 1, player.id, buy_in)
        except Exception:
            self.table.leave(seat)  # the store refused: the seat is free again
            raise
        self.occupants[seat] = Occupant(player.id, player.name)
        self.clock.forget(seat)
        self._publish(events)
        if command.connection is not None:
            self._watch(command.connection)
            command.connection.send(self._snapshot_frame(command.connection))

    async def _cmd_act(self, command: Command) -> None:
        seat = self._own_seat(self._player(command))
        named = command.fields.get("seat")
        if named is not None and named != seat:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, f"seat {named + 1} is not yours: you sit in seat {seat + 1}"
            )
        hand = command.fields.get("hand")
        if self.table.hand is None or self.hand_id is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "no hand is being played")
        if hand is not None and hand != self.hand_id:
            raise ProtocolError(
                ErrorCode.WRONG_HAND, f"hand {hand} is not the hand in play ({self.hand_id})"
            )
        if self.table.seat_to_act != seat:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, f"seat {seat + 1} is not to act")
        await self._apply(seat, command.fields["action"])

    async def _cmd_sit_out(self, command: Command) -> None:
        seat = self._own_seat(self._player(command))
        self._publish(self.table.sit_out(seat))
        await self._save_status(seat, SeatStatus.SITTING_OUT)

    async def _cmd_sit_in(self, command: Command) -> None:
        seat = self._own_seat(self._player(command))
        self.occupants[seat].hands_out = 0
        self._publish(self.table.sit_in(seat, post_now=bool(command.fields.get("post_now"))))
        await self._save_status(seat, SeatStatus.WAITING)

    async def _cmd_preferences(self, command: Command) -> None:
        """The player's choice at the showdown from now on: muck a losing hand, or show it."""
        seat = self._own_seat(self._player(command))
        self.occupants[seat].muck_losing = bool(command.fields["muck_losing"])

    async def _cmd_top_up(self, command: Command) -> None:
        seat = self._own_seat(self._player(command))
        if self._in_hand(seat):
            raise ProtocolError(
                ErrorCode.NOT_NOW, f"seat {seat + 1} is in the hand: top up between hands"
            )
        await self._top_up(seat, command.fields["amount"])

    async def _cmd_leave(self, command: Command) -> None:
        seat = self._own_seat(self._player(command))
        await self._leave(seat)

    async def _cmd_commit(self, command: Command) -> None:
        """FAIRNESS.md 3: a player's commitment for the next hand they are dealt into."""
        player = self._player(command)
        self._own_seat(player)
        self.commitments[player.id] = bytes.fromhex(command.fields["commitment"])

    async def _cmd_reveal(self, command: Command) -> None:
        """FAIRNESS.md 3: the entropy behind a commitment the hand's start listed; the
        cards are dealt as soon as every player of the deal has revealed."""
        player = self._player(command)
        seat = self._own_seat(player) + 1
        pending, hand = self.pending, command.fields["hand"]
        if pending is None:
            raise ProtocolError(ErrorCode.NOT_NOW, f"no hand is waiting for entropy, not {hand}")
        if hand != pending.hand_id:
            raise ProtocolError(
                ErrorCode.WRONG_HAND, f"hand {pending.hand_id} is being dealt, not {hand}"
            )
        if pending.reveal(seat, bytes.fromhex(command.fields["entropy"])):
            await self._deal_cards()

    async def _cmd_chat(self, command: Command) -> None:
        player = self._player(command)
        if command.connection not in self.watchers:
            self._own_seat(player)  # a player chats where they watch or sit
        text = str(command.fields["text"])  # checked by the protocol: one line, trimmed
        now = time.monotonic()
        sent = self._chat.setdefault(player.id, deque())
        count, window = CHAT_RATE
        while sent and now - sent[0] > window:
            sent.popleft()
        if len(sent) >= count:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED, f"at most {count} chat lines in {window:g} seconds"
            )
        sent.append(now)
        frame = frames.chat(self, player, text)
        for connection in list(self.watchers):
            connection.send(frame)

    async def _cmd_host(self, command: Command) -> None:
        """A host's command (docs/protocol.md "Host commands"); each is told in the
        table's chat."""
        player = self._player(command)
        if player.id != self.host_id:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, f"only the host of table {self.id} may do that"
            )
        action: HostAction = command.fields["action"]
        fields: JsonObject = {"action": action.value, "by": str(player.id)}
        if action is HostAction.PAUSE:
            self.paused = True
            text = "The host pauses the game" + (" after this hand" if self.table.hand else "")
        elif action is HostAction.RESUME:
            self.paused = False
            text = "The host resumes the game"
        elif action is HostAction.STAKES:
            text = self._new_stakes(command.fields["small_blind"], command.fields["big_blind"])
        elif action is HostAction.INVITE:
            assert command.connection is not None
            text = await self._new_invite(command.connection)
        elif action is HostAction.CLOSE:
            self.closing = True
            later = " at the end of the hand" if self.table.hand else ""
            text = f"The host closes the table{later}"
        elif action is HostAction.END_SESSION:
            if not self.settings.audit:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    f"table {self.id} was made without the audit: its sessions publish no salts",
                )
            self.ending_session = True
            later = " at the end of the hand" if self.table.hand else ""
            text = f"The host ends the session{later}: every salt of its hands is published"
        else:
            seat: int = command.fields["seat"]
            occupant = self.occupants.get(seat)
            if occupant is None:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, f"seat {seat + 1} is empty")
            if action is HostAction.HOST:
                if occupant.bot is not None:
                    raise ProtocolError(
                        ErrorCode.BAD_MESSAGE, f"seat {seat + 1} is a bot: a bot cannot host"
                    )
                self.host_id = occupant.player_id
                text = f"{occupant.name} is now the host"
            else:
                text = await self._remove(seat, occupant, ban=action is HostAction.BAN)
            fields |= {"seat": seat + 1, "player": str(occupant.player_id)}
        await self._keep(action)
        if action is HostAction.HOST:
            fields |= {"host": str(self.host_id)}
        self._announce(text, fields)
        if action in (HostAction.REMOVE, HostAction.BAN):
            if not self._in_hand(command.fields["seat"]):
                await self._leave(command.fields["seat"])
        elif action is HostAction.STAKES and self.table.hand is None:
            self.apply_stakes()
        elif action is HostAction.CLOSE and self.table.hand is None:
            await self._close()
        elif action is HostAction.END_SESSION and self.table.hand is None:
            await self._end_session()

    async def _remove(self, seat: int, occupant: Occupant, *, ban: bool) -> str:
        """The host removes the player in ``seat``, and with ``ban`` keeps them out for
        good (stored first): they go with their chips when the hand ends, and their
        connections stop watching the table."""
        if ban:
            if occupant.bot is not None:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE, f"seat {seat + 1} is a bot: remove it, not ban it"
                )
            if occupant.player_id == self.host_id:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, "the host cannot ban themselves")
            await self.room.db(self.room.store.ban, self.id, occupant.player_id)
            self.banned |= {occupant.player_id}
        occupant.removed = True
        later = " at the end of the hand" if self._in_hand(seat) else ""
        return f"The host {'bans' if ban else 'removes'} {occupant.name}{later}"

    async def _new_invite(self, connection: Connection) -> str:
        """A private table's new invite (stored first), given to the host's connections
        only. From now on the old one lets no one in, and a watcher it let in must watch
        again with the new one to sit or chat."""
        if not self.settings.private:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, f"table {self.id} is public: it has no invite"
            )
        invite = await self.room.db(self.room.store.new_invite, self.id)
        self.admitted = {
            c for c in self.admitted
            if c.player_id == self.host_id or self.seat_of(c.player_id) is not None
        }  # fmt: skip
        frame = frames.invite(self.id, invite)
        for host in {connection, *(c for c in self.watchers if c.player_id == self.host_id)}:
            host.send(frame)
        return "The host makes a new invite: the old one lets no one in any more"

    async def _close(self) -> None:
        """Close the table between hands: every player cashed out in one transaction (a
        ``cash_out`` each, as at ``leave``), every watcher let go, and the table stopped
        until its host reopens it. A table that announced the audit publishes it first."""
        await self._end_session()
        await self.room.db(self.room.store.close_table, self.id)
        events = [event for seat in sorted(self.occupants) for event in self.table.leave(seat)]
        self.occupants.clear()
        self._publish(events)
        for connection in list(self.watchers):
            self._end_watch(connection, "closed", f"The table {self.settings.name} is closed")
        self.room.retire(self)

    async def _end_session(self) -> None:
        """FAIRNESS.md "The end-of-session audit": at a table that announced it, the hands
        dealt since the last audit are one session, and every salt of their deals is
        published from now on (``GET /api/tables/{id}/audit``), told to the table."""
        self.ending_session = False
        if not self.settings.audit:
            return
        audit = await self.room.db(self.room.store.end_session, self.id)
        if audit is None:
            return
        first, last = audit.first_hand, audit.last_hand
        hands = f"hand #{first}" if first == last else f"hands #{first} to #{last}"
        self._room_event(
            {
                "kind": "audit",
                "session": audit.number,
                "first_hand": hand_id(self.id, first),
                "last_hand": hand_id(self.id, last),
                "text": f"Session {audit.number} ends: every salt of {hands} is published",
            }
        )

    async def _keep(self, action: HostAction) -> None:
        """The host's change in the store, so that it outlives a restart."""
        store = self.room.store
        if action in (HostAction.PAUSE, HostAction.RESUME):
            await self.room.db(store.change_table, self.id, {"paused": self.paused})
        elif action is HostAction.HOST:
            await self.room.db(store.change_table, self.id, {}, self.host_id)
        elif action is HostAction.STAKES and self.next_settings is not None:
            stakes = self.next_settings
            blinds = {"small_blind": stakes.small_blind, "big_blind": stakes.big_blind}
            await self.room.db(store.change_table, self.id, blinds)

    def _new_stakes(self, small_blind: int, big_blind: int) -> str:
        """Check the host's new blinds (a ``SettingsError`` names what does not fit) and
        keep them for the next hand."""
        blinds = {"small_blind": small_blind, "big_blind": big_blind}
        settings = parse_settings(self.settings.to_json() | blinds)
        self.next_settings = settings
        later = " from the next hand" if self.table.hand is not None else ""
        return f"The host sets the stakes to {settings.config().betting.stakes}{later}"

    def apply_stakes(self) -> None:
        """The host's new stakes take effect (between hands)."""
        if self.next_settings is not None:
            self.settings, self.next_settings = self.next_settings, None
            self.table.config = self.settings.config()

    # ------------------------------------------------------------ the game

    async def _apply(self, seat: int, action: Action) -> None:
        """Apply an action of the seat to act: decide, record, then tell everyone."""
        current = self.table.hand
        assert current is not None and self.hand_id is not None
        events = self.table.act(seat, action)
        if self.turn is not None and self.turn.seat == seat:
            self.clock.stop(self.turn, time.monotonic())
            self.turn = None
        await self._record(current.hand.actions, seat, events)

    async def _record(self, actions: list[Action], seat: int, events: list[TableEvent]) -> None:
        """Log the action the table has just taken (the last of the hand's ``actions``, and
        numbered so in the log), then tell it. If the store refuses it, the table goes back
        to what the log holds: nothing unlogged is ever told."""
        assert self.hand_id is not None
        action = actions[-1]
        try:
            await self.room.log_action(
                self.hand_id, len(actions), seat + 1, action.kind.value, action.amount
            )
        except FencedOut:
            raise  # another process runs the table now: nothing of it is told from here
        except Exception:
            log.exception("table %s: the log refused an action; back to the log", self.id)
            await self._reload()
            raise ProtocolError(
                ErrorCode.SERVER_ERROR, "the room could not record that action: send it again"
            ) from None
        await self._tell(events)

    async def _reload(self) -> None:
        """The hand in play as its log holds it (the table's state before the refused
        change), told to everyone afresh."""
        from splitpot.server.recovery import replay  # recovery builds actors: import late

        assert self.hand_id is not None
        self.table, _ = replay(await self.room.db(self.room.store.hand_log, self.hand_id))
        self.turn = None
        for connection in list(self.watchers):
            connection.send(self._snapshot_frame(connection))

    async def _tell(self, events: list[TableEvent]) -> None:
        """Publish events already logged; a hand they end has its result written first,
        and after it the players who asked to go leave. An all-in run-out is told with
        the hands' equity after they are turned up and after each street."""
        hand_id, finished = self.hand_id, self.table.hand is None
        if finished:
            await self._finish_hand()
        told = 0
        for part, face_up in runout_parts(events):
            self._publish(part)
            if face_up and hand_id is not None:
                await self._tell_equity(hand_id, face_up)
                told += 1
        shown = sum(isinstance(e, InHand) and isinstance(e.event, Shown) for e in events)
        options = self.room.options
        self._extra_pause = max(0, told - 1) * options.street_pause + shown * options.show_pause
        if finished:
            await self._after_hand()

    async def _tell_equity(self, hand_id: str, face_up: FaceUp) -> None:
        board = [card for card in self.scene.board if card is not None]
        try:
            result = await asyncio.to_thread(equity, self.table.config.variant, face_up, board)
        except Exception:  # the felt's figures are a courtesy: the hand goes on without
            log.exception("table %s: no equity for hand %s", self.id, hand_id)
            return
        self._room_event(equity_event(hand_id, sorted(face_up), board, result))

    async def _deal(self) -> None:
        """Announce the next hand with its deal's commitments (FAIRNESS.md steps 1 to 3);
        its cards are dealt once the players who committed reveal their entropy, or when
        their time is up (``reveal_wait``)."""
        if self.hand_id is not None:  # the last hand's result is not written yet: first that
            await self._finish_hand()
        await self._between_hands()
        if not self._can_deal():
            return
        draw = Deck(self.room.seed())
        upcoming = self.table.next_hand(draw.cards)
        seats_dealt = [seat + 1 for seat in upcoming.seats_dealt]
        commitments = {
            seat + 1: self.commitments.pop(occupant.player_id)
            for seat, occupant in self.occupants.items()
            if occupant.player_id in self.commitments and seat + 1 in seats_dealt
        }
        self.pending = PendingDeal.announce(
            hand_id(self.id, upcoming.started.number),
            upcoming.started,
            seats_dealt,
            commitments,
            self.table.config.variant.hole_cards,
            draw.cards,
            self.room.rng(),
        )
        self._publish(upcoming.events, fairness=self.pending.announcement())
        if self.pending.players:
            self._deal_at = time.monotonic() + self.room.options.reveal_wait
        else:
            await self._deal_cards()

    async def _deal_cards(self) -> None:
        """Deal the announced hand from the deck its commitments and the entropy revealed
        make (FAIRNESS.md steps 4 to 6), the deal's secret kept with it; then the commands
        that waited for the deal."""
        pending = self.pending
        assert pending is not None
        self._deal_at = None
        try:
            events = await self._deal_announced(pending)
            await self._tell(events)
        finally:
            self.pending = None
            deferred, self._deferred = self._deferred, []
            for command in deferred:
                await self._answer(command)

    async def _deal_announced(self, pending: PendingDeal) -> list[TableEvent]:
        """Record and deal the hand; its events after the start already told. A hand that
        cannot be made, recorded or dealt is called off: nothing of it was dealt."""
        try:
            deal, secret = pending.deal(self.id), pending.secret()
            setup = {
                "snapshot": self.table.snapshot(),
                "settings": self.settings.to_json(),
                "deck": deal.deck,
                "draw": [str(card) for card in pending.draw],
                "fairness": secret,
            }
            stored = await self.room.db(self.room.store.start_hand, self.id, setup)  # first
            try:
                if stored.id != pending.hand_id:
                    raise TableError(f"the store numbers it {stored.id}, not {pending.hand_id}")
                events = self.table.deal(parse_cards(" ".join(deal.deck)), draw=pending.draw)
            except TableError:
                await self.room.db(self.room.store.cancel_hand, stored.id)
                raise
        except Exception:
            text = f"Hand #{pending.started.number} is called off"
            self._room_event({"kind": "hand_cancelled", "hand": pending.hand_id, "text": text})
            raise
        start = next(i for i, event in enumerate(events) if isinstance(event, HandStarted))
        if events[start] != pending.started:  # a bug: next_hand foretells the deal
            log.error("table %s: hand %s is not the hand announced", self.id, stored.id)
        current = self.table.latest
        assert current is not None
        self.hand_id, self.deal_secret = stored.id, secret
        self.hand_serial = stored.serial
        self.hand_started_at = stored.started_at
        self.hand_times.append(time.time())
        self.clock.hand_dealt(current.seats)
        for seat, occupant in self.occupants.items():
            player = self.table.seats[seat]
            if player is not None and player.sitting_out:
                occupant.hands_out += 1
        return events[start + 1 :]  # its start was told with its commitments

    async def _between_hands(self) -> None:
        """Before a deal: players sitting out too long lose their seat (``sit_out_hands``)."""
        for seat, occupant in list(self.occupants.items()):
            player = self.table.seats[seat]
            if (
                player is not None
                and player.sitting_out
                and (occupant.hands_out >= self.settings.sit_out_hands)
            ):
                self._announce(
                    f"{occupant.name} has sat out {occupant.hands_out} hands and leaves",
                    {"seat": seat + 1},
                    kind="removed",
                )
                await self._leave(seat)

    async def _finish_hand(self) -> None:
        """Record the result of the hand just settled (the ledger's hand result)."""
        played = self.table.history[-1]
        hand = played.hand
        assert hand.result is not None and self.hand_id is not None
        assert self.hand_serial is not None
        record = to_json(record_of(played, self.hand_id, self.hand_serial), hand)
        ids = [self.occupants[seat].player_id for seat in played.seats]
        record[PLAYER_IDS] = ids  # whose cards each viewer may see in the history
        if self.deal_secret is not None:
            record[DEAL_SECRET] = self.deal_secret  # hands.py reveals what a reader may see
        finished = StoredHand(
            self.hand_id, self.id, played.number, self.hand_serial, HandStatus.FINISHED,
            self.hand_started_at, None, record,
        )  # fmt: skip
        # the record as anyone sees it, replayed: off the event loop
        link = await asyncio.to_thread(chain_link, self.chain_head, finished)
        record[CHAIN] = link
        results: dict[int, int] = {}
        for index, player_id in enumerate(ids):
            results[player_id] = hand.result.stacks[index] - hand.starting_stacks[index]
        await self.room.db(
            self.room.store.finish_hand, self.hand_id, record, results, hand.result.rake
        )
        self.chain_head = bytes.fromhex(link["hash"])
        self.pots.append(sum(pot.amount for pot in hand.result.pots) + hand.result.rake)
        self.hand_id = None

    async def _after_hand(self) -> None:
        """The host's new stakes take effect; players who asked to leave, or whom the
        host removed, go with their chips; bots that went broke buy in again; a table
        its host closes closes now."""
        self.apply_stakes()
        for seat, occupant in list(self.occupants.items()):
            if occupant.leaving or occupant.removed:
                await self._leave(seat)
        if self.closing:
            await self._close()
            return
        if self.ending_session:
            await self._end_session()
        await self._rebuy_bots()

    async def _rebuy_bots(self) -> None:
        """A broke bot buys in again at once: left broke, it would not be dealt in, and a
        table of bots would stop."""
        for seat, occupant in list(self.occupants.items()):
            player = self.table.seats[seat]
            if occupant.bot is not None and player is not None and player.stack == 0:
                await self._top_up(seat, self.table.config.max_buy_in)

    async def _act_for(self) -> None:
        """The decisions the room makes for a seat: a bot's, a leaving player's, a
        player's show or muck, the hand of a player away (stepped away or out of time).
        One the table refuses (a bot's bug) is taken as a time-out, so that the table
        never waits on it."""
        seat = self.table.seat_to_act
        current = self.table.hand
        if seat is None or current is None:
            return
        occupant = self.occupants.get(seat)
        hand = current.hand
        assert hand.to_act is not None
        legal = hand.legal_actions()
        if occupant is not None and occupant.leaving:
            action = legal.give_up()
        elif occupant is not None and occupant.bot is None and legal.muck:
            action = Action.show() if legal.show and not occupant.muck_losing else Action.muck()
        elif self.away(seat):
            await self._time_out(seat)
            return
        elif occupant is not None and occupant.bot is not None:
            action = occupant.bot.decide(hand.view(hand.to_act), self.table.config.variant)
        else:
            return
        try:
            await self._apply(seat, action)
        except (IllegalActionError, TableError):
            log.exception("table %s: seat %d cannot %s", self.id, seat + 1, action)
            await self._time_out(seat)

    async def _time_out(self, seat: int) -> None:
        """RULES.md 6: check if possible, else fold; then the player sits out (is away).
        The rest of the hand's decisions of a player away are made at once, the same way,
        until they sit in (docs/rules.md)."""
        current = self.table.hand
        player = self.table.seats[seat]
        if current is None or player is None or self.table.seat_to_act != seat:
            return
        self.turn = None
        already_out = player.sitting_out
        events = self.table.time_out(seat)
        if already_out:  # told once: the seat sits out already
            events = [e for e in events if not isinstance(e, SatOut)]
        await self._record(current.hand.actions, seat, events)
        if not already_out:
            await self._save_status(seat, SeatStatus.SITTING_OUT)

    async def _top_up(self, seat: int, amount: int) -> None:
        try:
            events = self.table.add_chips(seat, amount)  # refused here changes nothing
        except TableError as error:
            raise ProtocolError(ErrorCode.BUY_IN, str(error)) from error
        try:
            await self.room.db(
                self.room.store.top_up, self.id, self.occupants[seat].player_id, amount
            )
        except Exception:
            player = self.table.seats[seat]
            assert player is not None
            player.stack -= amount  # the store refused: take the chips back off the table
            raise
        self._publish(events)

    async def _leave(self, seat: int) -> None:
        """Leave now between hands (cash out), or when the hand ends (folding in turn)."""
        occupant = self.occupants[seat]
        if self._in_hand(seat):
            if not occupant.leaving:
                occupant.leaving = True
                await self._save_status(seat, SeatStatus.LEAVING)
            return
        events = self.table.leave(seat)
        await self.room.db(self.room.store.leave, self.id, occupant.player_id)
        del self.occupants[seat]
        self._publish(events)
        if occupant.removed:
            self._shut_out(occupant.player_id)

    def _shut_out(self, player_id: int) -> None:
        """Every connection of a player the host removed (or banned) stops watching."""
        reason = "banned" if player_id in self.banned else "removed"
        text = f"The host {reason} you from the table {self.settings.name}"
        for connection in list(self.watchers):
            if connection.player_id == player_id:
                self._end_watch(connection, reason, text)

    async def _save_status(self, seat: int, status: SeatStatus) -> None:
        occupant = self.occupants.get(seat)
        if occupant is not None:
            await self.room.db(self.room.store.set_seat_status, self.id, occupant.player_id, status)

    # ------------------------------------------------------------ publishing

    def _publish(self, events: list[TableEvent], fairness: JsonObject | None = None) -> None:
        """Each event to each connection, as its player may see it; a frame is serialised
        once for all the connections that see it alike. ``fairness``: the commitments of a
        hand's start."""
        before, self.scene = scenes(events, self.scene)
        for event, scene in zip(events, before, strict=True):
            self.seq += 1
            public = seen_by(event, None)
            shared: str | None = None
            for connection in list(self.watchers):
                if connection.closed:
                    self.watchers.discard(connection)
                    self.admitted.discard(connection)
                    continue
                seen = seen_by(event, self.seat_of(connection.player_id))
                if seen == public:
                    if shared is None:
                        shared = frames.event(self, public, scene, self.seq, fairness)
                    connection.send(shared)
                else:
                    connection.send(frames.event(self, seen, scene, self.seq, fairness))
            if isinstance(event, HandFinished):
                self.turn = None

    def _announce(self, text: str, fields: JsonObject, kind: str = "host") -> None:
        """A line in the table's chat from the room itself (host actions are logged)."""
        self._room_event({"kind": kind, "hand": None, **fields, "text": text})

    def _room_event(self, event: JsonObject) -> None:
        """An event of the room's own, the same for every watcher, numbered in turn."""
        self.seq += 1
        frame = frames.room_event(self, event, self.seq)
        for connection in list(self.watchers):
            connection.send(frame)

    def _tell_to_act(self, seat: int) -> None:
        """Everyone learns whose decision it is, once per decision, with the clock of a
        player's turn (a bot or a player away decides with none)."""
        current = self.table.hand
        assert current is not None and self.hand_id is not None
        decision = (self.hand_id, len(current.hand.actions))
        if decision == self._to_act_told:
            return
        self._to_act_told = decision
        turn = self.turn if self.turn is not None and self.turn.seat == seat else None
        deadline = None if turn is None else wall_time(turn.deadline)
        bank = None if turn is None else seconds(turn.expires - turn.deadline)
        self._room_event(to_act_event(self.hand_id, seat, deadline, bank))

    def _send_turn(self, only: Connection | None = None) -> None:
        seat = self.table.seat_to_act
        if self.turn is None or seat is None or self.hand_id is None:
            return
        occupant = self.occupants.get(seat)
        if occupant is None:
            return
        assert self.table.hand is not None
        legal = self.table.hand.hand.legal_actions()
        frame = frames.turn(self, self.hand_id, seat, legal, self.turn)
        for connection in [only] if only is not None else list(self.watchers):
            if connection.player_id == occupant.player_id:
                connection.send(frame)

    def _snapshot_frame(self, connection: Connection) -> str:
        return frames.table(self, self.table.view(self.seat_of(connection.player_id)))

    def names(self) -> dict[int, str]:
        """Player names by seat: those seated, and those of the last hand (who may have
        left since)."""
        names: dict[int, str] = {}
        if self.table.history:
            last = self.table.history[-1]
            names = dict(zip(last.seats, last.names, strict=True))
        current = self.table.hand
        if current is not None:
            names |= dict(zip(current.seats, current.names, strict=True))
        return names | {seat: o.name for seat, o in self.occupants.items()}

    # ------------------------------------------------------------ lookups

    def seat_of(self, player_id: int | None) -> int | None:
        if player_id is None:
            return None
        for seat, occupant in self.occupants.items():
            if occupant.player_id == player_id:
                return seat
        return None

    def connected(self, seat: int) -> bool:
        occupant = self.occupants.get(seat)
        if occupant is None:
            return False
        if occupant.bot is not None:
            return True
        return any(c.player_id == occupant.player_id and not c.closed for c in self.watchers)

    def away(self, seat: int) -> bool:
        """Whether the seat's player is away (sat out, or out of time): not dealt in, and
        their decisions in a hand they are still in are made at once."""
        player = self.table.seats[seat]
        return player is not None and player.sitting_out

    def _showdown(self) -> bool:
        """Whether the decision in play is a show or a muck (only the showdown offers the
        muck)."""
        current = self.table.hand
        return current is not None and current.hand.legal_actions().muck

    def _in_hand(self, seat: int) -> bool:
        current = self.table.hand
        return current is not None and seat in current.seats

    def _player(self, command: Command) -> Player:
        connection = command.connection
        if connection is None or connection.player is None:
            raise ProtocolError(
                ErrorCode.FORBIDDEN, "say hello with a token first: watchers only watch"
            )
        return connection.player

    def _own_seat(self, player: Player) -> int:
        seat = self.seat_of(player.id)
        if seat is None:
            raise ProtocolError(
                ErrorCode.NOT_SEATED, f"{player.name} does not sit at table {self.id}"
            )
        return seat

    def add_bot(self, seat: int, player: Player, seed: int | None = None) -> None:
        """A seat played by the sensible bot (labelled as a bot to everyone)."""
        self.occupants[seat] = Occupant(
            player.id, player.name, make_bot("sensible", player.name, seed)
        )

    def add_player(self, seat: int, player_id: int, name: str) -> None:
        """A player the store has in this seat (when a table is restored)."""
        self.occupants[seat] = Occupant(player_id, name)

    async def finish_recovered_hand(self) -> None:
        """A restored hand that the log shows over: record its result now."""
        await self._finish_hand()
        await self._after_hand()
