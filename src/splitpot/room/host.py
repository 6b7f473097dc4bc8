"""A table's host: the room's own rules around the pure table (DESIGN.md "The room").

``TableHost`` seats and unseats players, runs the clock and the time bank, sits out the
absent, takes the host's commands, announces each hand with its fair deal's commitments
and waits for the players' entropy, plays the bots, and records every hand. It is pure,
like h11's ``Connection``: ``handle(command, now)`` and ``tick(now)`` are generators of
``effects`` (work for the store, which the shell does and answers, and what to tell the
people at the table); ``next_timer()`` says when ``tick`` is due. The room's actor
(``server/actor.py``) and the offline game (``client/local.py``) drive the same host.

Seats are the table's (from 0) inside; the protocol's wire seats (from 1) appear only
where the fair deal and the store number them so.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Generator, Mapping
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import Any

from splitpot.bots import Bot, make_bot, run_it_answer
from splitpot.cards import parse_cards
from splitpot.dealer import Scene, scenes
from splitpot.engine import Action, IllegalActionError, RunItOffered, Shown
from splitpot.history.model import TournamentRecord
from splitpot.history.splitpot_json import to_json
from splitpot.history.table_log import record_of
from splitpot.i18n import Said, said, said_n
from splitpot.protocol import (
    ErrorCode,
    HostAction,
    JsonObject,
    ProtocolError,
    TableInfo,
    equity_event,
    hand_id,
)
from splitpot.room.clock import REFILL_PER_HAND, RUN_IT_SECONDS, ActionClock, Turn, Vote
from splitpot.room.commands import (
    WAIT_FOR_THE_DEAL,
    Act,
    Chat,
    ChooseStraddle,
    Commit,
    HostCommand,
    Leave,
    Person,
    Preferences,
    Rabbit,
    Reveal,
    RunIt,
    Sit,
    SitIn,
    SitOut,
    TableCommand,
    TopUp,
    WaitingList,
)
from splitpot.room.deal import PendingDeal, rabbit_revealed
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
    Presence,
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
from splitpot.room.refusals import worded
from splitpot.room.runout import FaceUp, runout_parts
from splitpot.room.seating import (
    MAX_WAITING,
    OFFER_SECONDS,
    REQUEST_SECONDS,
    Seating,
    SeatOffer,
    SeatRequest,
    WallClock,
)
from splitpot.room.settings import SettingsError, TableSettings, parse_settings
from splitpot.room.tournament_table import (
    POLL_SECONDS,
    TournamentOrders,
    TournamentPlay,
    refuse_at_tournament,
)
from splitpot.table import (
    MAX_STACK,
    HandFinished,
    HandStarted,
    InHand,
    RabbitHunted,
    SatOut,
    Table,
    TableError,
    TableEvent,
)

Steps = Generator[Effect, Any, None]  # what the host asks, answered by its shell

CHAT_RATE = (5, 10.0)  # at most 5 lines in 10 seconds per player
PLAYER_IDS = "player_ids"  # a record's room player id of each player (who sees which cards)
DEAL_SECRET = "deal_secret"  # a record's fair deal: what proves it (room/deal.py)
STACK_EDITS = "stack_edits"  # the table's record: the host's edits waiting for a hand's end
# The action log's entries of the question to run it twice (RULES.md 7), between the
# hand's actions: a seat's answer (amount 1: yes, 0: no), and the time running out (the
# seat of the first player who had not answered). Replaying them replays the runs.
RUN_IT_ANSWER = "run_it"
RUN_IT_TIMEOUT = "run_it_timeout"


@dataclass(frozen=True, slots=True)
class HostOptions:
    """The pace of a table: seconds between hands and more for a run-out or a showdown,
    the players' time to reveal their entropy, a bot's thinking time, and how long a
    table of bots alone deals, then stays open; ``clock_scale`` speeds every clock."""

    hand_pause: float = 3.0
    street_pause: float = 1.5
    show_pause: float = 0.7
    reveal_wait: float = 2.0
    bot_delay: float = 0.8
    idle_pause: float = 120.0
    idle_close: float = 1800.0
    clock_scale: float = 1.0
    empty_close: float = 7 * 24 * 3600.0  # an empty table, unwatched, waits a week


@dataclass
class Occupant:
    """Who sits in a seat, as the room knows them (the table knows only the name)."""

    player_id: int
    name: str
    bot: Bot | None = None
    leaving: bool = False  # cash out when the hand ends
    removed: bool = False  # the host removes the player at the end of the hand
    stack_edit: int = 0  # the host's edits waiting for the end of the hand (chips, net)
    edit_author: int = 0  # the host who made them
    hands_out: int = 0  # hands dealt while sitting out
    muck_losing: bool = True  # a hand that cannot win is mucked at the showdown, else shown


@dataclass
class HandInPlay:
    """What the room keeps of the hand being played beyond the table's state."""

    id: str
    serial: int
    started_at: datetime
    secret: dict[str, Any] | None  # the fair deal's secrets (room/deal.py)
    votes: int = 0  # entries of the question to run it twice in its action log
    answered: set[int] = field(default_factory=set)  # the seats that answered it
    face_up: FaceUp = field(default_factory=dict)  # the hands turned up for a run-out


class TableHost:
    """One table's room rules; its state changes only inside the steps of ``handle``,
    ``tick`` and ``schedule``. A restored table comes with its state (``recovery.py``)."""

    def __init__(
        self,
        table_id: str,
        settings: TableSettings,
        host_id: int,
        options: HostOptions | None = None,
        *,
        table: Table | None = None,
        occupants: dict[int, Occupant] | None = None,
        house: bool = False,
        paused: bool = False,
        banned: frozenset[int] = frozenset(),
        next_settings: TableSettings | None = None,
        playing: HandInPlay | None = None,
        scene: Scene | None = None,
        tournament: TournamentPlay | None = None,
    ) -> None:
        self.id = table_id
        self.settings = settings
        self.host_id = host_id
        self.options = options or HostOptions()
        self.table = table or Table(settings.config())
        self.occupants = occupants or {}  # seat -> who sits there
        self.house = house  # the operator's table (serve --bots): never left to close
        self.paused = paused
        self.banned = banned  # players the host keeps out
        self.next_settings = next_settings  # the host's stakes, from the next hand
        self.playing = playing  # the hand in play (or just over, its result unwritten)
        self.last_deal: tuple[str, dict[str, Any]] | None = None  # the last hand's id, secret
        self.scene = scene or Scene(self.table.config.variant)  # the dealer's view of it
        scale = self.options.clock_scale
        self.clock = ActionClock(
            settings.action_seconds * scale,
            settings.time_bank_seconds * scale,
            REFILL_PER_HAND * scale,
        )
        self.seq = 0  # the number of the last event told
        self.turn: Turn | None = None
        self.turn_seq = 0  # the seq of the event that began the turn
        self.vote: Vote | None = None  # the players are asked to run it twice
        self.closing = False  # the host closes the table: at once, or when the hand ends
        self.ending_session = False  # the host ends the session when the hand ends
        self.closed = False
        self.idle = False  # a table of bots alone for idle_pause: it deals no more
        self.pending: PendingDeal | None = None  # a hand announced, its cards not dealt
        self.commitments: dict[int, bytes] = {}  # player id -> u for their next hand
        self.pots: deque[int] = deque(maxlen=50)  # the last hands' pots, for the lobby
        self.hand_times: deque[float] = deque(maxlen=50)  # when they were dealt
        self._deal_at: float | None = None
        self._act_for_at: float | None = None
        self._extra_pause = 0.0  # more time before the next deal: a run-out, hands shown
        self._to_act_told: tuple[str, int] | None = None
        self._alone_since: float | None = None
        self._watched = False
        self._chat: dict[int, deque[float]] = {}
        self._last_now: float | None = None  # the moment of the last schedule
        self._between_since: float | None = None  # a tournament table's last hand ended
        self.seating = Seating()  # seat requests, the waiting list, the seat offered
        self.tournament = tournament  # RULES.md 8: the tournament this table plays in

    # ------------------------------------------------------------ what the shell asks

    def next_timer(self) -> float | None:
        """The moment ``tick`` is due (a deal, a decision made for a seat, a turn's time
        running out, a seat request or offer running out, a table left alone), or None."""
        moments = [m for m in (self._deal_at, self._act_for_at, self._idle_at()) if m is not None]
        if self.turn is not None:
            moments.append(self.turn.expires)
        if self.vote is not None:
            moments.append(self.vote.deadline)
        if (seating := self.seating.next_deadline()) is not None:
            moments.append(seating)
        if self.tournament is not None and self.table.hand is None and self._last_now is not None:
            moment = self.tournament.next_moment(self._last_now, self.table.hands_played)
            if moment is not None:
                moments.append(moment)
        return min(moments) if moments else None

    def must_wait(self, command: TableCommand) -> bool:
        """Whether the command waits for the deal announced (it changes the table)."""
        return self.pending is not None and isinstance(command, WAIT_FOR_THE_DEAL)

    def watchers(self, watched: bool, now: float) -> None:
        """Whether anyone watches the table now (a human there keeps a table of bots
        going)."""
        self._watched = watched
        self._mind_humans(now)

    def seat_of(self, player_id: int | None) -> int | None:
        return None if player_id is None else self.seats_by_player().get(player_id)

    def seats_by_player(self) -> dict[int, int]:
        """The seat of each player seated here, by their room player id."""
        return {occupant.player_id: seat for seat, occupant in self.occupants.items()}

    def info(self) -> TableInfo:
        """The protocol's facts of the table."""
        return self.settings.info(self.id, self.table.config, self.host_id, self.paused)

    def names(self) -> dict[int, str]:
        """Player names by seat: those seated, and those of the last hand (who may have
        left since)."""
        names: dict[int, str] = {}
        table = self.table
        if table.history:
            last = table.history[-1]
            names = dict(zip(last.seats, last.names, strict=True))
        if table.hand is not None:
            names |= dict(zip(table.hand.seats, table.hand.names, strict=True))
        return names | {seat: o.name for seat, o in self.occupants.items()}

    def away(self, seat: int) -> bool:
        """Whether the seat's player is away (sat out, or out of time): not dealt in, and
        their decisions in a hand they are still in are made at once."""
        player = self.table.seats[seat]
        return player is not None and player.sitting_out

    def between_hands(self) -> bool:
        """No hand in play, announced, or waiting for its result to be written."""
        return self.table.hand is None and self.playing is None and self.pending is None

    def hold(self) -> None:
        """No hand is dealt from now on (the room is stopping: its tables go to other
        processes between hands); nothing is kept of it."""
        self.paused = True

    def seat(self, seat: int, person: Person, buy_in: int, bot: Bot | None = None) -> None:
        """A player (``bot``: played by it) sits down at a table that is not yet running
        (the store has the seat already)."""
        self.table.sit(seat, person.name, buy_in)
        self.occupants[seat] = Occupant(person.id, person.name, bot)

    def hands_per_hour(self, now: float) -> int:
        return sum(1 for dealt in self.hand_times if dealt >= now - 3600)

    # ------------------------------------------------------------ commands

    def handle(self, command: TableCommand, now: float) -> Steps:
        """One person's command: refused (``ProtocolError``, nothing changed) before any
        work is asked, or done step by step."""
        if self.tournament is not None:
            refuse_at_tournament(command)
        match command:
            case Sit():
                yield from self._sit(command, now)
            case Act():
                yield from self._act(command, now)
            case SitOut():
                yield from self._sit_out(command)
            case SitIn():
                yield from self._sit_in(command)
            case Preferences():
                self.occupants[self._own_seat(command.person)].muck_losing = command.muck_losing
            case TopUp():
                yield from self._top_up_command(command)
            case Leave():
                yield from self._leave_command(command.person)
            case Commit():
                self._own_seat(command.person)
                self.commitments[command.person.id] = command.commitment
            case Reveal():
                yield from self._reveal(command, now)
            case Chat():
                yield self._chat_line(command, now)
            case HostCommand():
                yield from self._host_command(command, now)
            case RunIt():
                yield from self._run_it(command, now)
            case Rabbit():
                seat = self._own_seat(command.person)
                hunted = self.table.rabbit_hunt(seat)
                yield self._publish(hunted, self._rabbit_fairness(hunted))
            case ChooseStraddle():
                seat = self._own_seat(command.person)
                yield self._publish(self.table.choose_straddle(seat, command.straddle))
            case WaitingList():
                yield from self._waiting_list(command)

    def _sit(self, command: Sit, now: float) -> Steps:
        """Sit down; at a table of seats by approval, ask the host for the seat (the
        host sits at once); a seat held for another is taken (docs/room.md)."""
        person, seat, buy_in = command.person, command.seat, command.buy_in
        self._check_sit(person, seat, buy_in)
        waiting = len(self.seating.waiting)
        if waiting and self.seating.held_for(seat) != person:
            raise ProtocolError(
                ErrorCode.NOT_NOW,
                said_n(
                    "{count} player waits for a seat here: join the waiting list",
                    "{count} players wait for a seat here: join the waiting list",
                    waiting,
                ),
            )
        if self.settings.approval and person.id != self.host_id:
            yield from self._ask_for_seat(command, now)
            return
        yield from self._seat_person(person, seat, buy_in, command.post_now)

    def _check_sit(self, person: Person, seat: int, buy_in: int) -> None:
        """Refuse a sit-down (or a request, or its approval) that cannot be, by why."""
        config = self.table.config
        self._check_not_seated(person)
        if not 0 <= seat < config.seats:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                said(
                    "there is no seat {seat}: the table has {seats}",
                    seat=seat + 1,
                    seats=config.seats,
                ),
            )
        if self.table.seats[seat] is not None:
            raise ProtocolError(ErrorCode.SEAT_TAKEN, said("seat {seat} is taken", seat=seat + 1))
        if any(o.name == person.name for o in self.occupants.values()):
            raise ProtocolError(
                ErrorCode.NAME_TAKEN,
                said("a player named {name} sits at this table", name=person.name),
            )
        low, high = config.min_buy_in, config.max_buy_in
        if not low <= buy_in <= high:
            raise ProtocolError(
                ErrorCode.BUY_IN,
                said(
                    "the buy-in is {low} to {high}, not {amount}", low=low, high=high, amount=buy_in
                ),
            )
        held = self.seating.held_for(seat)
        if held is not None and held.id != person.id:
            raise ProtocolError(
                ErrorCode.SEAT_TAKEN,
                said("seat {seat} is held for {name}", seat=seat + 1, name=held.name),
            )
        self.table.check_sit(seat, person.name, buy_in)

    def _seat_person(self, person: Person, seat: int, buy_in: int, post_now: bool) -> Steps:
        """The checked sit-down: kept, then told; off the waiting list."""
        yield TakeSeat(seat, person.id, buy_in)
        events = self.table.sit(seat, person.name, buy_in, post_now=post_now)
        self.occupants[seat] = Occupant(person.id, person.name)
        self.clock.forget(seat)
        self.seating.drop(person.id)
        self.seating.requests.pop(seat, None)  # a request approved: answered
        yield self._publish(events)
        yield Seated(person.id)

    # ------------------------------------------------------------ waiting for a seat

    def _ask_for_seat(self, command: Sit, now: float) -> Steps:
        """A request for the seat, held for the player until the host answers or it runs
        out (``REQUEST_SECONDS``)."""
        person, seat = command.person, command.seat
        self._check_not_asked(person)
        yield Seated(person.id)  # the asker watches: the answer comes to the table
        seconds = REQUEST_SECONDS * self.options.clock_scale
        request = SeatRequest(person, seat, command.buy_in, command.post_now, now + seconds)
        self.seating.requests[seat] = request
        offer = self.seating.offer
        self.seating.drop(person.id)  # off the list: the request holds the seat now
        if offer is not None and offer.person.id == person.id:
            yield self._announce(_offered(offer, "asked"))
        fields = _asked(request) | {"state": "asked", "seconds": seconds}
        text = said(
            "{name} asks for seat {seat} with {amount}",
            name=person.name,
            seat=seat + 1,
            amount=command.buy_in,
        )
        yield self._announce(fields, text)

    def _check_not_seated(self, person: Person) -> None:
        """One seat a player at a table."""
        where = self.seat_of(person.id)
        if where is not None:
            raise ProtocolError(
                ErrorCode.ALREADY_SEATED,
                said("{name} already sits in seat {seat}", name=person.name, seat=where + 1),
            )

    def _check_not_asked(self, person: Person) -> None:
        """One request a player at a time: refused while theirs waits for the host."""
        asked = self.seating.request_of(person.id)
        if asked is not None:
            raise ProtocolError(
                ErrorCode.NOT_NOW,
                said(
                    "{name} has asked for seat {seat} already: wait for the host",
                    name=person.name,
                    seat=asked.seat + 1,
                ),
            )

    def _answer_request(
        self, action: HostAction, seat: int, stack: int | None
    ) -> Generator[Effect, Any, tuple[Said, Person]]:
        """The host's approve (with the stack asked, or ``stack``) or reject."""
        request = self.seating.requests.get(seat)
        if request is None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, said("nobody asks for seat {seat}", seat=seat + 1)
            )
        person = request.person
        if action is HostAction.REJECT:
            del self.seating.requests[seat]
            return said("The host turns down {name}'s request", name=person.name), person
        buy_in = request.buy_in if stack is None else stack
        self._check_sit(person, seat, buy_in)  # refused: the request waits on
        yield from self._seat_person(person, seat, buy_in, request.post_now)
        return said("The host seats {name}", name=person.name), person

    def _waiting_list(self, command: WaitingList) -> Steps:
        """Join the full table's waiting list, or leave it."""
        person, seating = command.person, self.seating
        place = seating.in_line(person.id)
        if command.join:
            self._check_joining(person, place)
        elif place is None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE, said("{name} is not on the waiting list", name=person.name)
            )
        yield Seated(person.id)  # one waiting watches: the seat offered comes to the table
        if not command.join:
            seating.drop(person.id)
            text = said("{name} leaves the waiting list", name=person.name)
        else:
            seating.waiting.append(person)
            place = len(seating.waiting)
            text = said(
                "{name} joins the waiting list: number {place}", name=person.name, place=place
            )
        told: JsonObject = {
            "kind": "waiting_list",
            "hand": None,
            "player": str(person.id),
            "name": person.name,
            "joined": command.join,
            "waiting": len(seating.waiting),
        }
        yield self._announce(told, text)

    def _check_joining(self, person: Person, place: int | None) -> None:
        if place is not None:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                said("{name} is number {place} on the waiting list", name=person.name, place=place),
            )
        self._check_not_seated(person)
        self._check_not_asked(person)
        free = self._free_seat()
        if free is not None and not self.seating.waiting:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                said("seat {seat} is free: sit there, no need to wait", seat=free + 1),
            )
        if len(self.seating.waiting) >= MAX_WAITING:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                said("the waiting list is full: {most} players", most=MAX_WAITING),
            )

    def _free_seat(self) -> int | None:
        """The first seat nobody sits in and nobody holds."""
        for seat, player in enumerate(self.table.seats):
            if player is None and self.seating.held_for(seat) is None:
                return seat
        return None

    def _offer_seat(self, now: float) -> Steps:
        """A free seat, and players waiting for one: the first in line is offered it,
        held for them ``OFFER_SECONDS``."""
        seating = self.seating
        if seating.offer is not None or not seating.waiting or self.closed or self.closing:
            return
        seat = self._free_seat()
        if seat is None:
            return
        person = seating.waiting[0]
        seconds = OFFER_SECONDS * self.options.clock_scale
        seating.offer = SeatOffer(person, seat, now + seconds)
        told = _offered(seating.offer, "offered") | {"seconds": seconds}
        text = said(
            "Seat {seat} is free for {name}, first on the waiting list",
            seat=seat + 1,
            name=person.name,
        )
        yield self._announce(told, text)

    def _seating_due(self, now: float) -> Steps:
        """Requests the host left unanswered run out; a seat offered and not taken goes
        to the next in line (the first leaves the list)."""
        seating = self.seating
        for seat, request in sorted(seating.requests.items()):
            if request.deadline <= now:
                del seating.requests[seat]
                text = said(
                    "{name}'s request for seat {seat} runs out",
                    name=request.person.name,
                    seat=seat + 1,
                )
                yield self._announce(_asked(request) | {"state": "expired"}, text)
        offer = seating.offer
        if offer is not None and offer.deadline <= now:
            seating.drop(offer.person.id)
            told = _offered(offer, "expired")
            text = said(
                "{name} did not take seat {seat} in time",
                name=offer.person.name,
                seat=offer.seat + 1,
            )
            yield self._announce(told, text)

    def _leave_command(self, person: Person) -> Steps:
        """Leave the seat; one who asked for a seat withdraws the request."""
        request = self.seating.request_of(person.id)
        if request is not None and self.seat_of(person.id) is None:
            del self.seating.requests[request.seat]
            text = said(
                "{name} withdraws the request for seat {seat}",
                name=person.name,
                seat=request.seat + 1,
            )
            yield self._announce(_asked(request) | {"state": "withdrawn"}, text)
            return
        yield from self._leave(self._own_seat(person))

    # ------------------------------------------------------------ the host's stack edits

    def _edit_stack(
        self, seat: int, chips: int, author: int
    ) -> Generator[Effect, Any, Said | None]:
        """The host adds chips to a stack or takes them: at once between hands, else at
        the end of the hand (what is said then; None: the table's event says it)."""
        occupant = self.occupants.get(seat)
        if occupant is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, said("seat {seat} is empty", seat=seat + 1))
        if not self._in_hand(seat):
            yield from self._apply_stack_edit(seat, chips, author)
            return None
        if chips == 0:
            self._check_edit(seat, chips)
        waiting = self._stack_edits() | {occupant.player_id: [occupant.stack_edit + chips, author]}
        yield ChangeTable({STACK_EDITS: waiting})  # kept first: a restart applies it still
        occupant.stack_edit += chips
        occupant.edit_author = author
        name, amount = occupant.name, abs(chips)
        if chips > 0:
            return said(
                "The host adds {amount} to {name}'s stack at the end of the hand",
                amount=amount,
                name=name,
            )
        return said(
            "The host takes {amount} from {name}'s stack at the end of the hand",
            amount=amount,
            name=name,
        )

    def _apply_stack_edit(self, seat: int, chips: int, author: int, queued: bool = False) -> Steps:
        """A stack edit between hands: checked, kept in the ledger, told."""
        occupant = self.occupants[seat]
        self._check_edit(seat, chips)
        yield EditStack(occupant.player_id, chips, author, queued)
        yield self._publish(self.table.edit_stack(seat, chips))

    def _check_edit(self, seat: int, chips: int) -> None:
        """Refuse a stack edit the table would not take, in the table's words."""
        try:
            self.table.check_edit_stack(seat, chips)
        except TableError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, worded(error)) from error

    def _stack_edits(self) -> dict[int, list[int]]:
        """The host's edits waiting for the end of the hand, as the table's record keeps
        them: player id -> [chips, author]."""
        return {
            o.player_id: [o.stack_edit, o.edit_author]
            for o in self.occupants.values()
            if o.stack_edit
        }

    def settle_stack_edits(self) -> Steps:
        """The host's edits made during the hand, now it is over (or a restored table's,
        kept from a hand that ended before the crash): a take of more than the stack left
        takes the whole stack (docs/rules.md). Each is kept with its record's entry gone
        in one transaction; the entries of edits that came to nothing go last."""
        if not self._stack_edits():
            return
        for seat, occupant in sorted(self.occupants.items()):
            player = self.table.seats[seat]
            if player is None or not occupant.stack_edit:
                continue
            chips = min(max(occupant.stack_edit, -player.stack), MAX_STACK - player.stack)
            if chips:
                yield from self._apply_stack_edit(seat, chips, occupant.edit_author, queued=True)
            occupant.stack_edit = 0
        yield ChangeTable({STACK_EDITS: {}})

    def _act(self, command: Act, now: float) -> Steps:
        seat = self._own_seat(command.person)
        if command.seat is not None and command.seat != seat:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                said(
                    "seat {asked} is not yours: you sit in seat {seat}",
                    asked=command.seat + 1,
                    seat=seat + 1,
                ),
            )
        playing = self.playing
        if self.table.hand is None or playing is None:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, said("no hand is being played"))
        if command.hand is not None and command.hand != playing.id:
            raise _wrong_hand(command.hand, playing.id)
        if self.table.seat_to_act != seat:
            raise ProtocolError(
                ErrorCode.NOT_YOUR_TURN, said("seat {seat} is not to act", seat=seat + 1)
            )
        yield from self._apply(seat, command.action, now)

    def _sit_out(self, command: SitOut) -> Steps:
        seat = self._own_seat(command.person)
        yield from self._save_status(seat, Presence.SITTING_OUT)
        yield self._publish(self.table.sit_out(seat))

    def _sit_in(self, command: SitIn) -> Steps:
        seat = self._own_seat(command.person)
        yield from self._save_status(seat, Presence.WAITING)
        self.occupants[seat].hands_out = 0
        yield self._publish(self.table.sit_in(seat, post_now=command.post_now))

    def _top_up_command(self, command: TopUp) -> Steps:
        seat = self._own_seat(command.person)
        if self._in_hand(seat):
            raise ProtocolError(
                ErrorCode.NOT_NOW,
                said("seat {seat} is in the hand: top up between hands", seat=seat + 1),
            )
        yield from self._top_up(seat, command.amount)

    def _reveal(self, command: Reveal, now: float) -> Steps:
        """FAIRNESS.md 3: the entropy behind a commitment the hand's start listed; the
        cards are dealt as soon as every player of the deal has revealed."""
        seat = self._own_seat(command.person) + 1
        pending = self.pending
        if pending is None:
            raise ProtocolError(
                ErrorCode.NOT_NOW,
                said("no hand is waiting for entropy, not {hand}", hand=command.hand),
            )
        if command.hand != pending.hand_id:
            raise ProtocolError(
                ErrorCode.WRONG_HAND,
                said(
                    "hand {dealt} is being dealt, not {hand}",
                    dealt=pending.hand_id,
                    hand=command.hand,
                ),
            )
        if pending.reveal(seat, command.entropy):
            yield from self._deal_cards(now)

    def _run_it(self, command: RunIt, now: float) -> Steps:
        """RULES.md 7: a player's answer, asked to run it twice; refused when they are not
        asked, in another hand, or answered already."""
        seat = self._own_seat(command.person)
        playing, vote = self.playing, self.vote
        if playing is not None and command.hand is not None and command.hand != playing.id:
            raise _wrong_hand(command.hand, playing.id)
        if vote is None or playing is None:
            raise ProtocolError(ErrorCode.NOT_NOW, said("no one is being asked to run it twice"))
        if seat not in self.table.run_it_seats:
            raise ProtocolError(
                ErrorCode.NOT_NOW, said("seat {seat} is not asked to run it twice", seat=seat + 1)
            )
        if seat in playing.answered:
            raise ProtocolError(
                ErrorCode.NOT_NOW, said("seat {seat} has already answered", seat=seat + 1)
            )
        yield from self._answer_run_it(seat, command.yes, now)

    def _answer_run_it(self, seat: int, yes: bool, now: float) -> Steps:
        """A seat's answer, logged, then told: once as soon as one says no, twice when
        every player asked agreed."""
        playing = self.playing
        assert playing is not None
        yield from self._log_entry(seat, RUN_IT_ANSWER, int(yes))
        playing.votes += 1
        playing.answered.add(seat)
        events = self.table.answer_run_it(seat, yes)
        if not self.table.run_it_seats:
            self.vote = None
        yield from self._tell(events, now)

    def _run_it_timed_out(self, now: float) -> Steps:
        """RULES.md 7: ten seconds passed; a player who did not answer counts as no, and
        the board is dealt once."""
        playing = self.playing
        assert playing is not None
        silent = [seat for seat in self.table.run_it_seats if seat not in playing.answered]
        yield from self._log_entry(silent[0], RUN_IT_TIMEOUT, None)
        playing.votes += 1
        self.vote = None
        yield from self._tell(self.table.run_it_timed_out(), now)

    def _ask_run_it(self, now: float) -> None:
        """RULES.md 7: the players still in are asked to run it twice: the question's
        clock starts (ten seconds, scaled like every clock)."""
        self.vote = Vote.ask(now, RUN_IT_SECONDS * self.options.clock_scale)

    def _room_answers(self) -> list[int]:
        """The seats asked to run it twice whose answer the room gives: a bot's (its own
        choice), and no for a player away, leaving, or gone."""
        playing = self.playing
        if self.vote is None or playing is None:
            return []
        seats = []
        for seat in self.table.run_it_seats:
            occupant = self.occupants.get(seat)
            decided = occupant is None or occupant.leaving or occupant.bot is not None
            if seat not in playing.answered and (decided or self.away(seat)):
                seats.append(seat)
        return seats

    def _answer_for(self, now: float) -> Steps:
        """The answers the room gives for seats asked to run it twice (``_room_answers``),
        until the question is settled."""
        current = self.table.hand
        for seat in self._room_answers():
            if self.vote is None or current is None:
                return
            occupant = self.occupants.get(seat)
            yes = False
            if occupant is not None and occupant.bot is not None and not occupant.leaving:
                view = current.hand.view(current.seats.index(seat))
                yes = run_it_answer(view, self.table.config.variant)
            yield from self._answer_run_it(seat, yes, now)

    def _chat_line(self, command: Chat, now: float) -> SayChat:
        person = command.person
        if not command.watching:
            self._own_seat(person)  # a player chats where they watch or sit
        sent = self._chat.setdefault(person.id, deque())
        count, window = CHAT_RATE
        while sent and now - sent[0] > window:
            sent.popleft()
        if len(sent) >= count:
            raise ProtocolError(
                ErrorCode.RATE_LIMITED,
                said_n(
                    "at most {count} chat line in {seconds} seconds",
                    "at most {count} chat lines in {seconds} seconds",
                    count,
                    seconds=format(window, "g"),
                ),
            )
        sent.append(now)
        return SayChat(person, self.seat_of(person.id), command.text)

    # ------------------------------------------------------------ the host's commands

    def _host_command(self, command: HostCommand, now: float) -> Steps:
        """docs/protocol.md "Host commands"; each is kept first, then told in the chat."""
        person, action = command.person, command.action
        if person.id != self.host_id:
            raise ProtocolError(
                ErrorCode.FORBIDDEN,
                said("only the host of table {table} may do that", table=self.id),
            )
        fields: JsonObject = {"action": action.value, "by": str(person.id)}
        in_hand = self.table.hand is not None
        if action is HostAction.PAUSE:
            yield ChangeTable({"paused": True})
            self.paused = True
            text = (
                said("The host pauses the game after this hand")
                if in_hand
                else said("The host pauses the game")
            )
        elif action is HostAction.RESUME:
            yield ChangeTable({"paused": False})
            self.paused = False
            text = said("The host resumes the game")
        elif action is HostAction.STAKES:
            assert command.small_blind is not None and command.big_blind is not None
            text = yield from self._new_stakes(command.small_blind, command.big_blind)
        elif action is HostAction.OPTIONS:
            assert command.options is not None
            text, options = yield from self._new_options(command.options)
            fields |= {"options": options}
        elif action is HostAction.BOMB_POT:
            called = self.table.call_bomb_pot()  # RULES.md 7 (refused: no bomb, or called)
            yield self._publish(called)
            text = None  # the dealer's words of bomb_pot_called say it
        elif action is HostAction.INVITE:
            text = yield from self._new_invite()
        elif action in (HostAction.APPROVE, HostAction.REJECT):
            assert command.seat is not None
            text, asked = yield from self._answer_request(action, command.seat, command.amount)
            fields |= {"seat": command.seat + 1, "player": str(asked.id)}
        elif action is HostAction.STACK:
            assert command.seat is not None and command.amount is not None
            text = yield from self._edit_stack(command.seat, command.amount, person.id)
            occupant = self.occupants[command.seat]
            fields |= {
                "seat": command.seat + 1,
                "player": str(occupant.player_id),
                "amount": command.amount,
            }
        elif action is HostAction.CLOSE:
            self.closing = True
            text = (
                said("The host closes the table at the end of the hand")
                if in_hand
                else said("The host closes the table")
            )
        elif action is HostAction.END_SESSION:
            if not self.settings.audit:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    said(
                        "table {table} was made without the audit: its sessions publish no salts",
                        table=self.id,
                    ),
                )
            self.ending_session = True
            text = (
                said(
                    "The host ends the session at the end of the hand: "
                    "every salt of its hands is published"
                )
                if in_hand
                else said("The host ends the session: every salt of its hands is published")
            )
        else:
            assert command.seat is not None
            text = yield from self._seat_command(action, command.seat)
            occupant = self.occupants[command.seat]
            fields |= {"seat": command.seat + 1, "player": str(occupant.player_id)}
        if action is HostAction.HOST:
            fields |= {"host": str(self.host_id)}
        told: JsonObject = {"kind": "host", "hand": None, **fields}
        yield self._announce(told | {"text": None} if text is None else told, text)
        if action in (HostAction.REMOVE, HostAction.BAN):
            assert command.seat is not None
            if not self._in_hand(command.seat):
                yield from self._leave(command.seat)
        elif in_hand:
            return
        elif action in (HostAction.STAKES, HostAction.OPTIONS):
            self.apply_stakes()
        elif action is HostAction.CLOSE:
            yield from self._close()
        elif action is HostAction.END_SESSION:
            yield from self._end_session()

    def _seat_command(self, action: HostAction, seat: int) -> Generator[Effect, Any, Said]:
        """The host's remove, ban or new host of the player in ``seat``."""
        occupant = self.occupants.get(seat)
        if occupant is None:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, said("seat {seat} is empty", seat=seat + 1))
        if action is HostAction.HOST:
            if occupant.bot is not None:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    said("seat {seat} is a bot: a bot cannot host", seat=seat + 1),
                )
            yield ChangeTable({}, occupant.player_id)
            self.host_id = occupant.player_id
            return said("{name} is now the host", name=occupant.name)
        ban = action is HostAction.BAN
        if ban:
            if occupant.bot is not None:
                raise ProtocolError(
                    ErrorCode.BAD_MESSAGE,
                    said("seat {seat} is a bot: remove it, not ban it", seat=seat + 1),
                )
            if occupant.player_id == self.host_id:
                raise ProtocolError(ErrorCode.BAD_MESSAGE, said("the host cannot ban themselves"))
            yield BanPlayer(occupant.player_id)
            self.banned |= {occupant.player_id}
        occupant.removed = True
        later = self._in_hand(seat)
        if ban:
            if later:
                return said("The host bans {name} at the end of the hand", name=occupant.name)
            return said("The host bans {name}", name=occupant.name)
        if later:
            return said("The host removes {name} at the end of the hand", name=occupant.name)
        return said("The host removes {name}", name=occupant.name)

    def _new_stakes(self, small_blind: int, big_blind: int) -> Generator[Effect, Any, Said]:
        """Check the host's new blinds (a ``SettingsError`` names what does not fit), keep
        them, and take them from the next hand."""
        blinds = {"small_blind": small_blind, "big_blind": big_blind}
        try:
            settings = parse_settings(self._settings_to_be().to_json() | blinds)
        except SettingsError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, worded(error)) from error
        yield ChangeTable(blinds)
        self.next_settings = settings
        stakes = settings.config().betting.stakes
        if self.table.hand is not None:
            return said("The host sets the stakes to {stakes} from the next hand", stakes=stakes)
        return said("The host sets the stakes to {stakes}", stakes=stakes)

    def _new_options(
        self, options: Mapping[str, Any]
    ) -> Generator[Effect, Any, tuple[Said, JsonObject]]:
        """Check the host's options (RULES.md 7: table settings, each refused by name as
        at the table's making), keep them, and take them from the next hand; what is said,
        and the options as the settings take them."""
        try:
            settings = parse_settings(self._settings_to_be().to_json() | dict(options))
        except SettingsError as error:
            raise ProtocolError(ErrorCode.BAD_MESSAGE, worded(error)) from error
        taken: JsonObject = {name: getattr(settings, name) for name in options}
        yield ChangeTable(dict(taken))
        self.next_settings = settings
        if self.table.hand is not None:
            return said("The host changes the table's options from the next hand"), taken
        return said("The host changes the table's options"), taken

    def _settings_to_be(self) -> TableSettings:
        """The settings of the next hand: the host's changes waiting, or those in force."""
        return self.next_settings or self.settings

    def _new_invite(self) -> Generator[Effect, Any, Said]:
        """A private table's new invite (kept first), given to the host alone: from now on
        the old one lets no one in."""
        if not self.settings.private:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                said("table {table} is public: it has no invite", table=self.id),
            )
        invite: str = yield MakeInvite()
        yield SendInvite(invite)
        return said("The host makes a new invite: the old one lets no one in any more")

    def apply_stakes(self) -> None:
        """The host's new stakes and options take effect (between hands)."""
        if self.next_settings is not None:
            self.settings, self.next_settings = self.next_settings, None
            self.table.config = self.settings.config()

    def _close(self) -> Steps:
        """Close the table between hands: a session it audits ends first, every player is
        cashed out in one transaction (a ``cash_out`` each, as at ``leave``), every
        watcher let go, and the table stopped until its host reopens it."""
        yield from self._end_session()
        yield CloseTable()
        events = [event for seat in sorted(self.occupants) for event in self.table.leave(seat)]
        self.occupants.clear()
        self.seating.clear()
        yield self._publish(events)
        self.closed = True
        yield Closed(f"The table {self.settings.name} is closed")

    def _end_session(self) -> Steps:
        """FAIRNESS.md "The end-of-session audit": at a table that announced it, the hands
        dealt since the last audit are one session, and every salt of their deals is
        published from now on, told to the table."""
        self.ending_session = False
        if not self.settings.audit:
            return
        audit: SessionEnded | None = yield EndSession()
        if audit is None:
            return
        first, last, number = audit.first_hand, audit.last_hand, audit.number
        text = (
            said(
                "Session {session} ends: every salt of hand #{first} is published",
                session=number,
                first=first,
            )
            if first == last
            else said(
                "Session {session} ends: every salt of hands #{first} to #{last} is published",
                session=number,
                first=first,
                last=last,
            )
        )
        yield self._announce(
            {
                "kind": "audit",
                "session": number,
                "first_hand": hand_id(self.id, first),
                "last_hand": hand_id(self.id, last),
            },
            text,
        )

    # ------------------------------------------------------------ timers

    def tick(self, now: float) -> Steps:
        """Whatever is due at ``now``: the next deal, a decision the room makes for a
        seat, a turn's or the run-it question's time running out, a seat request or
        offer running out, a table left alone."""
        if self._deal_at is not None and now >= self._deal_at:
            self._deal_at = None
            if self.pending is None:
                yield from self._deal(now)
            else:
                yield from self._deal_cards(now)
        elif self._act_for_at is not None and now >= self._act_for_at:
            self._act_for_at = None
            yield from self._act_for(now)
        elif self.vote is not None and now >= self.vote.deadline:
            yield from self._run_it_timed_out(now)
        elif self.turn is not None and now >= self.turn.expires:
            yield from self._time_out(self.turn.seat, now)
        elif (due := self.seating.next_deadline()) is not None and now >= due:
            yield from self._seating_due(now)
        elif (idle_at := self._idle_at()) is not None and now >= idle_at:
            yield from self._left_alone()

    def schedule(self, now: float) -> Steps:
        """After every command and tick, done or refused: who acts next, and when the
        next hand is dealt."""
        self._mind_humans(now)
        self._act_for_at = None
        yield from self._offer_seat(now)
        if self.pending is not None or self.closed:
            return  # the deal waits for the players' entropy until _deal_at
        table = self.table
        if table.hand is None:
            self.turn = None
            self._last_now = now
            if self.tournament is not None:
                if self._between_since is None:
                    self._between_since = now
                yield from self._between_tournament_hands(now)
                if self.closed:
                    return
            if self._deal_at is None and self._can_deal():
                # a tournament table's pause runs from the hand's end, while it waited
                # for its clearance (RULES.md 8: the director decides between hands)
                since = now if self._between_since is None else self._between_since
                self._deal_at = max(now, since + self.options.hand_pause + self._extra_pause)
            elif not self._can_deal():
                self._deal_at = None
            return
        if table.run_it_seats:
            self.turn = None
            if self.vote is None:  # a restored hand waits for the answers: a new clock
                self._ask_run_it(now)
            answers = self._room_answers()
            if answers:  # a bot thinks; a player away, leaving or gone says no at once
                bots = any(
                    self.occupants[s].bot is not None for s in answers if s in self.occupants
                )
                self._act_for_at = now + (self.options.bot_delay if bots else 0.0)
            return
        seat = table.seat_to_act
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
            self._act_for_at = now + self.options.bot_delay
        elif self.turn is None or self.turn.seat != seat:
            self.turn = self.clock.start(seat, now)
            yield from self._tell_to_act(seat)
            self.turn_seq = self.seq  # the turn follows the event that says it
            yield from self.offer_turn()
        yield from self._tell_to_act(seat)

    def offer_turn(self) -> Steps:
        """The player to act, on the clock, is offered their legal actions (again, to a
        connection that comes back)."""
        seat, turn, playing = self.table.seat_to_act, self.turn, self.playing
        if turn is None or seat is None or playing is None or self.table.hand is None:
            return
        occupant = self.occupants.get(seat)
        if occupant is not None:
            legal = self.table.hand.hand.legal_actions()
            yield OfferTurn(occupant.player_id, playing.id, seat, legal, turn, self.turn_seq)

    def _tell_to_act(self, seat: int) -> Steps:
        """Everyone learns whose decision it is, once per decision, with the clock of a
        player's turn (a bot or a player away decides with none)."""
        current, playing = self.table.hand, self.playing
        assert current is not None and playing is not None
        decision = (playing.id, len(current.hand.actions))
        if decision == self._to_act_told:
            return
        self._to_act_told = decision
        turn = self.turn if self.turn is not None and self.turn.seat == seat else None
        self.seq += 1
        yield ToAct(playing.id, seat, turn, self.seq)

    def _can_deal(self) -> bool:
        if self.paused or self.closed or self.closing or self.idle:
            return False
        tournament, table = self.tournament, self.table
        if tournament is not None:
            hands = table.hands_played
            if self._last_now is None or not tournament.may_deal(hands + 1, self._last_now, hands):
                return False
        return len(table.players_ready) >= 2

    def _mind_humans(self, now: float) -> None:
        """A table of bots alone (no human sits there or watches it) is left to itself from
        now: it pauses after ``idle_pause`` and closes after ``idle_close``; an empty one
        closes after ``empty_close`` (the house's table never). A human coming sets it
        going again."""
        humans = any(o.bot is None for o in self.occupants.values())
        if self.house or humans or self._watched or self.tournament is not None:
            self._alone_since, self.idle = None, False
        elif self._alone_since is None:
            self._alone_since = now

    def _idle_at(self) -> float | None:
        """When a table of bots alone pauses, or, paused so and between hands, closes;
        when an empty table closes."""
        if self._alone_since is None or self.closed:
            return None
        if not self.occupants:
            if not self.between_hands():
                return None
            return self._alone_since + self.options.empty_close
        if not self.idle:
            return self._alone_since + self.options.idle_pause
        if self.table.hand is None and self.pending is None:
            return self._alone_since + self.options.idle_close
        return None

    def _left_alone(self) -> Steps:
        """No human came for ``idle_pause`` seconds: no more hands; for ``idle_close`` (an
        empty table: ``empty_close``): the table closes (its host may reopen it)."""
        if not self.idle and self.occupants:
            self.idle = True
        else:
            yield from self._close()

    # ------------------------------------------------------------ the game

    def _apply(self, seat: int, action: Action, now: float) -> Steps:
        """Apply an action of the seat to act: checked, logged, then told."""
        self.table.check_act(seat, action)  # an illegal action is refused here
        yield from self._log(seat, action)
        events = self.table.act(seat, action)
        if self.turn is not None and self.turn.seat == seat:
            self.clock.stop(self.turn, now)
            self.turn = None
        yield from self._tell(events, now)

    def _log(self, seat: int, action: Action) -> Steps:
        """Log the action before it is applied: if the store refuses it, nothing changed
        and the room says so (the same action sent again is the same log entry)."""
        yield from self._log_entry(seat, action.kind.value, action.amount)

    def _log_entry(self, seat: int, kind: str, amount: int | None) -> Steps:
        """Log an entry of the hand in play (an action, or the run-it question's) before
        it is applied, numbered after the hand's actions and answers so far."""
        current, playing = self.table.hand, self.playing
        assert current is not None and playing is not None
        seq = len(current.hand.actions) + playing.votes + 1
        try:
            yield LogAction(playing.id, seq, seat + 1, kind, amount)
        except Exception:
            raise ProtocolError(
                ErrorCode.SERVER_ERROR, said("the room could not record that action: send it again")
            ) from None

    def _tell(self, events: list[TableEvent], now: float) -> Steps:
        """Tell events already logged; a hand they end has its result written first, and
        after it the players who asked to go leave. An all-in run-out is told with the
        hands' equity after they are turned up and after each street (of the first run:
        the question to run it twice comes between). The question starts its clock."""
        playing, finished = self.playing, self.table.hand is None
        if finished:
            yield from self._finish_hand()
        if any(isinstance(e, InHand) and isinstance(e.event, RunItOffered) for e in events):
            self._ask_run_it(now)
        told = 0
        before = playing.face_up if playing is not None else {}
        for part, face_up in runout_parts(events, before):
            yield self._publish(part)
            if face_up and playing is not None:
                playing.face_up = face_up
                yield from self._tell_equity(playing.id, face_up)
                told += 1
        shown = sum(isinstance(e, InHand) and isinstance(e.event, Shown) for e in events)
        self._extra_pause = (
            max(0, told - 1) * self.options.street_pause + shown * self.options.show_pause
        )
        if finished:
            yield from self._after_hand()

    def _tell_equity(self, hand: str, face_up: FaceUp) -> Steps:
        boards = tuple(tuple(c for c in board if c is not None) for board in self.scene.boards)
        result = yield WorkOutEquity(self.table.config.variant, face_up, boards)
        if result is not None:  # a courtesy of the felt: the hand goes on without
            two = boards if len(boards) == 2 else ()
            yield self._announce(equity_event(hand, sorted(face_up), boards[0], result, two))

    def _deal(self, now: float) -> Steps:
        """Announce the next hand with its deal's commitments (FAIRNESS.md steps 1 to 3);
        its cards are dealt once the players who committed reveal their entropy, or when
        their time is up (``reveal_wait``)."""
        if self.playing is not None:  # the last hand's result is not written yet: first that
            yield from self._finish_hand()
        yield from self._sit_out_limit()
        if not self._can_deal():
            return
        if self.tournament is not None:
            self._between_since = None
            yield from self._tournament_level(now)
        secrets: DealSecrets = yield DrawDeal()
        upcoming = self.table.next_hand(secrets.draw)
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
            secrets.draw,
            secrets.pre_order,
            secrets.seed,
        )
        yield self._publish(upcoming.events, fairness=self.pending.announcement())
        if self.pending.players:
            self._deal_at = now + self.options.reveal_wait
        else:
            yield from self._deal_cards(now)

    def _deal_cards(self, now: float) -> Steps:
        """Deal the announced hand from the deck its commitments and the entropy revealed
        make (FAIRNESS.md steps 4 to 6), the deal's secret kept with it."""
        pending = self.pending
        assert pending is not None
        self._deal_at = None
        try:
            events = yield from self._deal_announced(pending, now)
        finally:
            self.pending = None
        yield from self._tell(events, now)

    def _deal_announced(
        self, pending: PendingDeal, now: float
    ) -> Generator[Effect, Any, list[TableEvent]]:
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
            begun: HandBegun = yield StartHand(setup)  # kept first
            try:
                if begun.id != pending.hand_id:
                    raise TableError(
                        "the store numbers it {stored}, not {announced}",
                        stored=begun.id,
                        announced=pending.hand_id,
                    )
                events = self.table.deal(parse_cards(" ".join(deal.deck)), draw=pending.draw)
            except TableError:
                yield CancelHand(begun.id)
                raise
        except Exception:
            text = said("Hand #{number} is called off", number=pending.started.number)
            yield self._announce({"kind": "hand_cancelled", "hand": pending.hand_id}, text)
            raise
        start = next(i for i, event in enumerate(events) if isinstance(event, HandStarted))
        current = self.table.latest
        assert current is not None
        self.playing = HandInPlay(begun.id, begun.serial, begun.started_at, secret)
        self.hand_times.append(now)
        self.clock.hand_dealt(current.seats)
        for seat, occupant in self.occupants.items():
            player = self.table.seats[seat]
            if player is not None and player.sitting_out:
                occupant.hands_out += 1
        return events[start + 1 :]  # its start was told with its commitments

    def _sit_out_limit(self) -> Steps:
        """Before a deal: players sitting out too long lose their seat (``sit_out_hands``);
        never in a tournament (RULES.md 8: the absent are dealt in)."""
        if self.tournament is not None:
            return
        for seat, occupant in list(self.occupants.items()):
            player = self.table.seats[seat]
            if (
                player is not None
                and player.sitting_out
                and occupant.hands_out >= self.settings.sit_out_hands
            ):
                text = said_n(
                    "{name} has sat out {count} hand and leaves",
                    "{name} has sat out {count} hands and leaves",
                    occupant.hands_out,
                    name=occupant.name,
                )
                left: JsonObject = {"kind": "removed", "hand": None, "seat": seat + 1}
                yield self._announce(left, text)
                yield from self._leave(seat)

    def _finish_hand(self) -> Steps:
        """Record the result of the hand just settled (the ledger's hand result)."""
        playing = self.playing
        played = self.table.history[-1]
        hand = played.hand
        assert hand.result is not None and playing is not None
        hand_record = record_of(played, playing.id, playing.serial, self._tournament_record())
        record = to_json(hand_record, hand)
        ids = [self.occupants[seat].player_id for seat in played.seats]
        record[PLAYER_IDS] = ids  # whose cards each viewer may see in the history
        if playing.secret is not None:
            record[DEAL_SECRET] = playing.secret  # what proves the deal (room/deal.py)
        results = {
            player_id: hand.result.stacks[index] - hand.starting_stacks[index]
            for index, player_id in enumerate(ids)
        }
        yield FinishHand(
            playing.id,
            played.number,
            playing.serial,
            playing.started_at,
            record,
            results,
            hand.result.rake,
            (hand_record, hand),
        )
        self.pots.append(sum(pot.amount for pot in hand.result.pots) + hand.result.rake)
        self.last_deal = None if playing.secret is None else (playing.id, playing.secret)
        self.playing = None

    def _rabbit_fairness(self, hunted: list[TableEvent]) -> JsonObject | None:
        """The positions and salts of the rabbit's cards (FAIRNESS.md "More cards from the
        same deck"), when this process dealt the hand it hunts."""
        last = self.last_deal
        rabbit = next((e for e in hunted if isinstance(e, RabbitHunted)), None)
        if last is None or rabbit is None or last[0] != hand_id(self.id, rabbit.number):
            return None
        return rabbit_revealed(self.id, last[0], last[1], rabbit.cards)

    def _after_hand(self) -> Steps:
        """The host's new stakes take effect; players who asked to leave, or whom the
        host removed, go with their chips; a table its host closes closes now; a session
        the host ends ends; bots that went broke buy in again. In a tournament, the players
        out leave (RULES.md 8)."""
        if self.tournament is not None:
            yield from self._players_out()
            return
        self.apply_stakes()
        yield from self.settle_stack_edits()
        for seat, occupant in list(self.occupants.items()):
            if occupant.leaving or occupant.removed:
                yield from self._leave(seat)
        if self.closing:
            yield from self._close()
            return
        if self.ending_session:
            yield from self._end_session()
        yield from self._rebuy_bots()

    def _rebuy_bots(self) -> Steps:
        """A broke bot buys in again at once: left broke, it would not be dealt in, and a
        table of bots would stop."""
        for seat, occupant in list(self.occupants.items()):
            player = self.table.seats[seat]
            if occupant.bot is not None and player is not None and player.stack == 0:
                yield from self._top_up(seat, self.table.config.max_buy_in)

    def _act_for(self, now: float) -> Steps:
        """The decisions the room makes for a seat: a bot's, a leaving player's, a
        player's show or muck, the hand of a player away (stepped away or out of time).
        One the table refuses (a bot's bug) is taken as a time-out, so that the table
        never waits on it."""
        if self.vote is not None:
            yield from self._answer_for(now)
            return
        seat, current = self.table.seat_to_act, self.table.hand
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
            yield from self._time_out(seat, now)
            return
        elif occupant is not None and occupant.bot is not None:
            action = occupant.bot.decide(hand.view(hand.to_act), self.table.config.variant)
        else:
            return
        try:
            self.table.check_act(seat, action)
        except (IllegalActionError, TableError):  # a bot's bug: the table does not wait
            yield from self._time_out(seat, now)
            return
        yield from self._apply(seat, action, now)

    def _time_out(self, seat: int, now: float) -> Steps:
        """RULES.md 6: check if possible, else fold; then the player sits out (is away).
        The rest of the hand's decisions of a player away are made at once, the same way,
        until they sit in (docs/rules.md)."""
        player = self.table.seats[seat]
        if self.table.hand is None or player is None or self.table.seat_to_act != seat:
            return
        already_out = player.sitting_out
        yield from self._log(seat, self.table.time_out_action(seat))
        self.turn = None
        events = self.table.time_out(seat)
        if already_out:  # told once: the seat sits out already
            events = [e for e in events if not isinstance(e, SatOut)]
        yield from self._tell(events, now)
        if not already_out and seat in self.occupants:
            yield from self._save_status(seat, Presence.SITTING_OUT)

    def _top_up(self, seat: int, amount: int) -> Steps:
        occupant = self.occupants[seat]
        try:
            self.table.check_add_chips(seat, amount)  # refused here changes nothing
        except TableError as error:
            raise ProtocolError(ErrorCode.BUY_IN, str(error)) from error
        yield AddChips(occupant.player_id, amount)
        yield self._publish(self.table.add_chips(seat, amount))

    def _leave(self, seat: int) -> Steps:
        """Leave now between hands (cash out), or when the hand ends (folding in turn)."""
        occupant = self.occupants[seat]
        if self._in_hand(seat):
            if not occupant.leaving:
                yield from self._save_status(seat, Presence.LEAVING)
                occupant.leaving = True
            return
        yield CashOut(occupant.player_id)
        events = self.table.leave(seat)
        del self.occupants[seat]
        yield self._publish(events)
        if occupant.removed:
            reason = "banned" if occupant.player_id in self.banned else "removed"
            text = f"The host {reason} you from the table {self.settings.name}"
            yield LetGo(occupant.player_id, reason, text)

    def _save_status(self, seat: int, status: Presence) -> Steps:
        occupant = self.occupants.get(seat)
        if occupant is not None:
            yield SaveStatus(occupant.player_id, status)

    def finish_restored(self) -> Steps:
        """A restored hand that its log shows over (the crash came before its result was
        written): record its result now, and what follows a hand."""
        yield from self._finish_hand()
        yield from self._after_hand()

    # ------------------------------------------------------------ tournaments

    def tournament_news(self) -> None:
        """The director decided: a table waiting between hands asks the store at once."""
        if self.tournament is not None:
            self.tournament.check_at = None

    def _between_tournament_hands(self, now: float) -> Steps:
        """RULES.md 8: between hands a tournament table asks the store where its players
        are and whether it may deal its next hand; it asks again every POLL_SECONDS while
        it waits (the director balances the tables and clears each)."""
        tournament = self.tournament
        assert tournament is not None
        ready = self.table.hands_played + 1
        if tournament.over or self.pending is not None:
            return
        if tournament.cleared_for >= ready and len(self.table.players_ready) >= 2:
            return  # cleared, and able to deal (alone, it waits for players)
        if tournament.checked_for == ready and (
            tournament.check_at is not None and now < tournament.check_at
        ):
            return
        orders: TournamentOrders = yield CheckTournament(ready, self.table.next_big_blind)
        tournament.checked_for, tournament.check_at = ready, now + POLL_SECONDS
        tournament.elapsed, tournament.elapsed_at = orders.elapsed, now
        tournament.hand_for_hand = orders.hand_for_hand
        if not orders.finished:  # the winner stays to the end, moved nowhere
            yield from self._take_orders(orders)
        if orders.broken or orders.finished:
            tournament.over = True
            self.closed = True
            text = (
                said("The tournament is over")
                if orders.finished
                else said("Table {number} breaks", number=tournament.number)
            )
            yield Closed(str(text))
            return
        if orders.cleared:
            tournament.cleared_for = ready

    def _take_orders(self, orders: TournamentOrders) -> Steps:
        """The table's seats as the director left them: players moved away leave (their
        connections follow them), players moved here sit with their chips (RULES.md 8)."""
        tournament = self.tournament
        assert tournament is not None
        wanted = {s.player_id: s for s in orders.seats}
        for seat, occupant in list(self.occupants.items()):
            placed = wanted.get(occupant.player_id)
            if placed is not None and placed.seat == seat:
                continue
            del self.occupants[seat]
            yield self._publish(self.table.leave(seat))
            yield Moved(occupant.player_id, occupant.name)
        for placed in orders.seats:
            if placed.seat in self.occupants:
                continue
            bot = make_bot("sensible", placed.name) if placed.player_id in tournament.bots else None
            events = self.table.sit(placed.seat, placed.name, placed.chips, kept=True)
            self.occupants[placed.seat] = Occupant(placed.player_id, placed.name, bot)
            yield self._publish(events)
            yield Seated(placed.player_id)

    def _tournament_level(self, now: float) -> Steps:
        """The level of the hand about to be dealt (RULES.md 8: a new level from the next
        hand), told when it changes."""
        tournament = self.tournament
        assert tournament is not None
        position = tournament.position(now, self.table.hands_played)
        level = tournament.level_of(position)
        if position.level == tournament.level:
            return
        first = tournament.level < 0
        tournament.level = position.level
        self.settings = replace(
            self.settings,
            small_blind=level.small_blind,
            big_blind=level.big_blind,
            ante=level.ante,
        )
        self.table.config = self.settings.config()
        if first and position.level == 0:
            return
        text = (
            said(
                "Level {level}: blinds {small}/{big}, ante {ante}",
                level=position.level + 1,
                small=level.small_blind,
                big=level.big_blind,
                ante=level.ante,
            )
            if level.ante
            else said(
                "Level {level}: blinds {small}/{big}",
                level=position.level + 1,
                small=level.small_blind,
                big=level.big_blind,
            )
        )
        event: JsonObject = {
            "kind": "level",
            "level": position.level + 1,
            "small_blind": level.small_blind,
            "big_blind": level.big_blind,
            "ante": level.ante,
            **tournament.change_json(position),
        }
        yield self._announce(event, text)

    def tournament_json(self, wall: WallClock) -> JsonObject:
        """A tournament table's clock, as its state tells it (docs/protocol.md)."""
        tournament = self.tournament
        assert tournament is not None
        now = self._last_now if self._last_now is not None else tournament.elapsed_at
        return tournament.to_json(now, self.table.hands_played, wall)

    def _tournament_record(self) -> TournamentRecord | None:
        """What a tournament hand's history says of its tournament (docs/history.md)."""
        tournament = self.tournament
        if tournament is None:
            return None
        return TournamentRecord(
            tournament.id,
            tournament.name,
            tournament.buy_in,
            tournament.fee,
            max(tournament.level, 0) + 1,
            tournament.number,
        )

    def _players_out(self) -> Steps:
        """RULES.md 8: a player with no chips is out of the tournament and leaves the table
        (the store took their seat with the hand's result; the director places them)."""
        for seat, occupant in sorted(self.occupants.items()):
            player = self.table.seats[seat]
            if player is None or player.stack > 0:
                continue
            del self.occupants[seat]
            out: JsonObject = {
                "kind": "eliminated",
                "seat": seat + 1,
                "player": str(occupant.player_id),
            }
            yield self._announce(out, said("{name} is out of the tournament", name=occupant.name))
            yield self._publish(self.table.leave(seat))

    # ------------------------------------------------------------ telling

    def _publish(self, events: list[TableEvent], fairness: JsonObject | None = None) -> Publish:
        """The events, numbered in turn, with the dealer's scene before each."""
        before, self.scene = scenes(events, self.scene)
        first = self.seq + 1
        self.seq += len(events)
        if any(isinstance(event, HandFinished) for event in events):
            self.turn = None
        return Publish(tuple(events), tuple(before), first, fairness, self.vote)

    def _announce(self, event: JsonObject, text: Said | None = None) -> Announce:
        """A room event, numbered; ``text``: what it says, in each listener's language
        (the event carries it in English)."""
        self.seq += 1
        if text is None:
            return Announce(event, self.seq)
        return Announce(event | {"text": str(text)}, self.seq, text)

    # ------------------------------------------------------------ lookups

    def _showdown(self) -> bool:
        """Whether the decision in play is a show or a muck (only the showdown offers the
        muck)."""
        current = self.table.hand
        return current is not None and current.hand.legal_actions().muck

    def _in_hand(self, seat: int) -> bool:
        current = self.table.hand
        return current is not None and seat in current.seats

    def _own_seat(self, person: Person) -> int:
        seat = self.seat_of(person.id)
        if seat is None:
            raise ProtocolError(
                ErrorCode.NOT_SEATED,
                said("{name} does not sit at table {table}", name=person.name, table=self.id),
            )
        return seat


def _offered(offer: SeatOffer, state: str) -> JsonObject:
    """A ``seat_offer`` event: offered, taken up by a request (asked), or expired."""
    return {
        "kind": "seat_offer",
        "hand": None,
        "player": str(offer.person.id),
        "name": offer.person.name,
        "seat": offer.seat + 1,
        "state": state,
    }


def _asked(request: SeatRequest) -> JsonObject:
    """A ``seat_request`` event's fields (its ``state`` added by the caller)."""
    return {
        "kind": "seat_request",
        "hand": None,
        "player": str(request.person.id),
        "name": request.person.name,
        "seat": request.seat + 1,
        "buy_in": request.buy_in,
    }


def _wrong_hand(hand: str, playing: str) -> ProtocolError:
    """A command for a hand other than the one in play."""
    return ProtocolError(
        ErrorCode.WRONG_HAND,
        said("hand {hand} is not the hand in play ({playing})", hand=hand, playing=playing),
    )


__all__ = [
    "DEAL_SECRET",
    "PLAYER_IDS",
    "HandInPlay",
    "HostOptions",
    "Occupant",
    "Steps",
    "TableHost",
]
