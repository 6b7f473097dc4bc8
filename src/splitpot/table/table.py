"""A table: hands in sequence, as a pure and deterministic state (RULES.md section 6).

The table seats players, checks buy-ins, moves the button, decides who is dealt in and
what each seat posts, starts each ``Hand`` and settles it. It keeps no clock and draws no
cards of its own: a time-out is a command (``time_out``) and every deck is an input.

Blinds follow the dead-button rule (TDA): the big blind moves to the next player each
hand, the small blind is last hand's big blind, and the button is last hand's small blind
seat, so no one skips the big blind or pays it twice in a row when players join, leave
or bust.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field, replace
from typing import Any

from splitpot.cards import Card
from splitpot.engine import (
    Action,
    Hand,
    HandResult,
    HandSetupError,
    IllegalActionError,
    Post,
    PostKind,
    Share,
)
from splitpot.engine.hand import deal_order
from splitpot.frozen import quick_init
from splitpot.rules import FixedLimit, GameConfig, Mixed, NoLimit, PotLimit
from splitpot.table.events import (
    BombPotCalled,
    ChipsAdded,
    HandStarted,
    KillDue,
    PlayerLeft,
    PlayerSat,
    RabbitHunted,
    RunItAnswered,
    SatIn,
    SatOut,
    StackEdited,
    StakesChanged,
    StraddleChosen,
    TableEvent,
    by_seat,
)
from splitpot.table.model import (
    DoubleBoard,
    Seat,
    Straddle,
    TableConfig,
    TableError,
    TableHand,
)
from splitpot.table.view import TableView, table_view

HISTORY_SIZE = 50
MAX_STACK = 10**12  # chips one stack may hold after a host's edit (the protocol's MAX_CHIPS)
PLACEHOLDER_DECK = tuple(Card.from_code(code) for code in range(52))  # a dry run's deck


@dataclass(frozen=True, slots=True)
class NextHand:
    """The next hand as it will start, before its deck is known."""

    events: list[TableEvent]  # up to and including HandStarted
    seats_dealt: tuple[int, ...]  # the table seats dealt in, in dealing order

    @property
    def started(self) -> HandStarted:
        started = self.events[-1]
        assert isinstance(started, HandStarted)
        return started


@quick_init
@dataclass(frozen=True, slots=True)
class _Blinds:
    """Where this hand's button and blinds are, and the blinds it passes over."""

    button: int
    small_place: int  # a seat, even when the small blind is dead
    big: int
    fresh: bool  # the game (re)starts: a draw for the button, no extra posts
    wait_from: int  # new and returning players from this seat up to the big blind wait
    missed_big: tuple[int, ...] = ()
    missed_small: tuple[int, ...] = ()


@dataclass
class Table:
    """A table of ``config.seats`` seats and the hands played at it."""

    config: TableConfig
    seats: list[Seat | None] = field(init=False)
    button_seat: int | None = field(default=None, init=False)
    hand: TableHand | None = field(default=None, init=False)
    history: deque[TableHand] = field(init=False)
    hands_played: int = field(default=0, init=False)

    def __post_init__(self) -> None:
        self.seats = [None] * self.config.seats
        self.history = deque(maxlen=HISTORY_SIZE)
        self._small_blind_place: int | None = None  # a seat, even when the blind is dead
        self._big_blind_seat: int | None = None
        self._round = 0  # mixed games: which structure's turn (RULES.md 3)
        self._round_progress = 0  # seats the button has moved, or hands, in this round
        self.bomb_called = False  # RULES.md 7: the host called a bomb pot for the next hand
        self.kill_seat: int | None = None  # RULES.md 7: the seat that kills the next hand
        self._answers: dict[int, bool] = {}  # RULES.md 7: answers to running it twice
        self._rabbit_hunted: int | None = None  # the last hand whose rabbit was shown

    # ------------------------------------------------------------ snapshots

    def snapshot(self) -> dict[str, Any]:
        """The table between hands as JSON-able values: a shell stores it before each deal,
        so that the deal and the hand's logged actions rebuild the table exactly."""
        if self.hand is not None:
            raise TableError("a snapshot is taken between hands")
        return {
            "seats": [None if s is None else asdict(s) for s in self.seats],
            "button": self.button_seat,
            "small_blind_place": self._small_blind_place,
            "big_blind_seat": self._big_blind_seat,
            "round": self._round,
            "round_progress": self._round_progress,
            "hands_played": self.hands_played,
            "bomb_called": self.bomb_called,
            "kill_seat": self.kill_seat,
        }

    @classmethod
    def restore(cls, config: TableConfig, snapshot: Mapping[str, Any]) -> Table:
        """The table of a ``snapshot`` (see ``snapshot``)."""
        table = cls(config)
        try:
            seats = snapshot["seats"]
            if len(seats) != config.seats:
                raise TableError(
                    "the snapshot has {seats} seats, the table {table}",
                    seats=len(seats),
                    table=config.seats,
                )
            table.seats = [None if s is None else Seat(**s) for s in seats]
            table.button_seat = snapshot["button"]
            table._small_blind_place = snapshot["small_blind_place"]
            table._big_blind_seat = snapshot["big_blind_seat"]
            table._round = snapshot["round"]
            table._round_progress = snapshot["round_progress"]
            table.hands_played = snapshot["hands_played"]
            table.bomb_called = snapshot.get("bomb_called", False)
            table.kill_seat = snapshot.get("kill_seat")
        except (KeyError, TypeError) as error:
            raise TableError("not a table snapshot: {error}", error=str(error)) from error
        return table

    # ------------------------------------------------------------- seating

    def sit(
        self, seat: int, name: str, buy_in: int, *, post_now: bool = False, kept: bool = False
    ) -> list[TableEvent]:
        """Seat a player with a buy-in; they wait for the big blind unless ``post_now``.

        ``kept``: the chips are those a system of record kept for the player at this table
        (a room restarting), not a buy-in, so the buy-in range does not apply."""
        self.check_sit(seat, name, buy_in, kept=kept)
        post_now = post_now or self.config.tournament  # RULES.md 8: moved in, dealt in
        self.seats[seat] = Seat(name, buy_in, post_now=post_now)
        return [PlayerSat(seat, name, buy_in, post_now)]

    def check_sit(self, seat: int, name: str, buy_in: int, *, kept: bool = False) -> None:
        """Raise the ``TableError`` that ``sit`` would, changing nothing."""
        self._check_seat_number(seat)
        if not isinstance(name, str) or not name.strip():
            raise TableError("a player needs a name, not {name}", name=repr(name))
        if self.seats[seat] is not None:
            raise TableError("seat {seat} is taken", seat=seat + 1)
        if any(s is not None and s.name == name for s in self.seats):
            raise TableError("{name} is already seated", name=name)
        if kept:
            if isinstance(buy_in, bool) or not isinstance(buy_in, int) or buy_in < 0:
                raise TableError(
                    "chips kept must be a whole number of chips, not {value}", value=repr(buy_in)
                )
        else:
            self._check_buy_in(buy_in, 0)

    def leave(self, seat: int) -> list[TableEvent]:
        """Take the player out of the seat between hands, with their chips."""
        player = self._occupant(seat)
        if self._in_hand(seat):
            raise TableError("{name} is in the hand: leave when it is over", name=player.name)
        self.seats[seat] = None
        if self.kill_seat == seat:  # docs/rules.md: a killer who leaves takes the kill along
            self.kill_seat = None
        return [PlayerLeft(seat, player.name, player.stack)]

    def add_chips(self, seat: int, chips: int) -> list[TableEvent]:
        """A top-up between hands, up to the table's maximum buy-in."""
        self.check_add_chips(seat, chips)
        player = self._occupant(seat)
        player.stack += chips
        return [ChipsAdded(seat, player.name, chips, player.stack)]

    def edit_stack(self, seat: int, chips: int) -> list[TableEvent]:
        """The host adds chips to a stack (``chips`` > 0) or takes them (< 0), between
        hands and beyond the buy-in's bounds (docs/rules.md "The host's stack edits")."""
        self.check_edit_stack(seat, chips)
        player = self._occupant(seat)
        player.stack += chips
        return [StackEdited(seat, player.name, chips, player.stack)]

    def check_edit_stack(self, seat: int, chips: int) -> None:
        """Raise the ``TableError`` that ``edit_stack`` would, changing nothing."""
        player = self._occupant(seat)
        if isinstance(chips, bool) or not isinstance(chips, int) or chips == 0:
            raise TableError(
                "a stack edit is a whole number of chips other than 0, not {chips}",
                chips=repr(chips),
            )
        if self._in_hand(seat):
            raise TableError("a stack is edited between hands (RULES.md 3: table stakes)")
        if player.stack + chips < 0:
            raise TableError(
                "{name} has {stack}: {chips} cannot be taken",
                name=player.name,
                stack=player.stack,
                chips=-chips,
            )
        if player.stack + chips > MAX_STACK:
            raise TableError("a stack holds at most {most} chips", most=MAX_STACK)

    def check_add_chips(self, seat: int, chips: int) -> None:
        """Raise the ``TableError`` that ``add_chips`` would, changing nothing."""
        player = self._occupant(seat)
        if self._in_hand(seat):
            raise TableError("no chips may be added during a hand (RULES.md 3: table stakes)")
        self._check_buy_in(chips, player.stack)

    def sit_out(self, seat: int) -> list[TableEvent]:
        player = self._occupant(seat)
        player.sitting_out = True
        return [SatOut(seat, player.name)]

    def sit_in(self, seat: int, *, post_now: bool = False) -> list[TableEvent]:
        """Come back; with blinds owed, post them now (``post_now``) or wait for the big blind."""
        player = self._occupant(seat)
        player.sitting_out = False
        player.post_now = post_now
        return [SatIn(seat, player.name, post_now)]

    def choose_straddle(self, seat: int, straddle: Straddle) -> list[TableEvent]:
        """RULES.md 7: straddle the next time in the straddle's seat, always, or not."""
        player = self._occupant(seat)
        if not self.config.straddle:
            raise TableError("this table plays no straddle")
        if not isinstance(straddle, Straddle):
            raise TableError("a straddle is off, next or always, not {value}", value=repr(straddle))
        player.straddle = straddle.value
        return [StraddleChosen(seat, player.name, straddle)]

    def call_bomb_pot(self) -> list[TableEvent]:
        """RULES.md 7: the next hand is a bomb pot (the host's call)."""
        if not self.config.bomb_pot:
            raise TableError("this table plays no bomb pots")
        if self.bomb_called:
            raise TableError("a bomb pot is already called for the next hand")
        self.bomb_called = True
        return [BombPotCalled(self.config.bomb_pot)]

    @property
    def run_it_seats(self) -> tuple[int, ...]:
        """The seats asked to run it twice, while the hand waits for their answers."""
        current = self.hand
        if current is None:
            return ()
        return tuple(current.seats[p] for p in current.hand.run_it_players)

    def answer_run_it(self, seat: int, yes: bool) -> list[TableEvent]:
        """RULES.md 7: a player's answer; twice when every player asked agreed, once as
        soon as one says no."""
        self._check_seat_number(seat)
        if not isinstance(yes, bool):
            raise TableError(
                "the answer to run it twice is yes or no, not {value}", value=repr(yes)
            )
        asked = self.run_it_seats
        if not asked:
            raise TableError("no one is being asked to run it twice")
        if seat not in asked:
            raise TableError("seat {seat} is not asked to run it twice", seat=seat + 1)
        if seat in self._answers:
            raise TableError("seat {seat} has already answered", seat=seat + 1)
        current = self.hand
        assert current is not None
        self._answers[seat] = yes
        events: list[TableEvent] = [RunItAnswered(current.number, seat, yes)]
        if not yes:
            return events + self._run_it(1)
        if len(self._answers) == len(asked):
            return events + self._run_it(2)
        return events

    def run_it_timed_out(self) -> list[TableEvent]:
        """RULES.md 7: a player not answering in time counts as no: the board is dealt once."""
        if not self.run_it_seats:
            raise TableError("no one is being asked to run it twice")
        return self._run_it(1)

    def _run_it(self, times: int) -> list[TableEvent]:
        current = self.hand
        assert current is not None
        self._answers = {}
        events = by_seat(current.number, current.hand.run_it(times), current.seats)
        return events + self._settle_if_over()

    def rabbit_hunt(self, seat: int) -> list[TableEvent]:
        """RULES.md 7: show the board that would have come in the last hand, to a player
        dealt in who asks; once a hand."""
        self._check_seat_number(seat)
        if not self.config.rabbit_hunt:
            raise TableError("this table plays no rabbit hunt")
        last = self.history[-1] if self.history else None
        if last is None or seat not in last.seats:
            raise TableError("seat {seat} was not dealt in the last hand", seat=seat + 1)
        if self._rabbit_hunted == last.number:
            raise TableError("the rabbit of hand {number} is already shown", number=last.number)
        cards = last.hand.rabbit()
        if not cards:
            raise TableError("hand {number} saw its whole board", number=last.number)
        self._rabbit_hunted = last.number
        return [RabbitHunted(last.number, seat, tuple(cards))]

    # ---------------------------------------------------------------- hands

    def draw_for_button(self, cards: Sequence[Card]) -> int:
        """RULES.md 4.1: the first button goes to the highest card (suits: s > h > d > c).

        The cards are dealt one to each player sitting in, from the first seat clockwise.
        """
        players = self._ready()
        if len(cards) < len(players):
            raise TableError(
                "the draw for the button needs {needed} cards, not {cards}",
                needed=len(players),
                cards=len(cards),
            )
        drawn = dict(zip(players, cards, strict=False))
        return max(drawn, key=lambda seat: drawn[seat])

    @property
    def draws_for_button(self) -> bool:
        """Whether the next deal draws for the button (RULES.md 4.1): the game (re)starts
        with a hand that is no bomb pot. Else ``deal`` needs no ``draw``."""
        return not self._bomb_due() and self._restarts(self._ready())

    @property
    def latest(self) -> TableHand | None:
        """The hand in play, or else the last one played (a hand over as soon as it was
        dealt is settled at once and already in the history)."""
        return self.hand or (self.history[-1] if self.history else None)

    def next_hand(self, draw: Sequence[Card] | None = None) -> NextHand:
        """What ``deal`` with this ``draw`` will start with, whatever the deck: the events
        up to the hand's start (a change of stakes, ``HandStarted``) and the seats in
        dealing order. Nothing changes: a room announces a hand before its deck exists
        (FAIRNESS.md)."""
        probe = Table.restore(self.config, self.snapshot())
        if self.history:  # the last hand's stakes, to tell a change
            probe.history.append(self.history[-1])
        events = probe.deal(PLACEHOLDER_DECK, draw=draw)
        started = next(i for i, event in enumerate(events) if isinstance(event, HandStarted))
        played = probe.latest
        assert played is not None
        order = [played.seats[p] for p in deal_order(len(played.seats), played.hand.button)]
        return NextHand(events[: started + 1], tuple(order))

    def deal(
        self, deck: Sequence[Card | None], *, draw: Sequence[Card] | None = None
    ) -> list[TableEvent]:
        """Deal the next hand with this deck order; return its events so far.

        When the game starts (or starts again), the button is drawn with ``draw``, cards of
        their own (RULES.md 4.1), never the deck the hand is dealt from. A hand that is over
        before anyone acts (heads-up, a small blind all in by posting) is settled at once
        and returned like any other. Everything is worked out before anything changes: an
        error leaves the table as it was.
        """
        if self.hand is not None:
            raise TableError("a hand is already being played")
        ready = self._ready()
        if len(ready) < 2:
            raise TableError("at least two players with chips must be sitting in")
        if self._bomb_due():
            return self._deal_bomb_pot(ready, deck)
        blinds = self._place_blinds(ready, draw)
        dealt = ready if blinds.fresh else self._dealt(ready, blinds)
        if len(dealt) < 2:
            raise TableError("at least two players must be dealt in")
        button_seat, small_place = blinds.button, blinds.small_place
        if len(dealt) == 2:  # heads-up: the button posts the small blind (RULES.md 4.1)
            small_place = button_seat = next(s for s in dealt if s != blinds.big)
        small_seat = small_place if small_place in dealt and small_place != blinds.big else None
        round_, progress, base = self._betting(button_seat)
        betting = self._killed(base, dealt)
        posts, owed = self._posts(dealt, small_seat, blinds, betting)
        posts = self._kill_and_straddle(posts, dealt, blinds.big, base, betting)
        hand = self._start_hand(dealt, button_seat, betting, posts, deck, bomb=False)
        self._commit_blinds(blinds, dealt, owed)
        for post in posts:  # a straddle chosen for the next time was this time's
            player = self._seated(dealt[post.player])
            if post.kind is PostKind.STRADDLE and player.straddle == Straddle.NEXT.value:
                player.straddle = Straddle.OFF.value
        self.button_seat, self._small_blind_place, self._big_blind_seat = (
            button_seat,
            small_place,
            blinds.big,
        )
        self._round, self._round_progress = round_, progress
        events: list[TableEvent] = []
        last = self.history[-1].base_betting if self.history else None
        if last is not None and last != base:
            events.append(StakesChanged(base))
        drawn = tuple(zip(self._ready(), draw or (), strict=False)) if blinds.fresh else ()
        return events + self._begin(dealt, button_seat, hand, base, drawn)

    def _start_hand(
        self,
        dealt: list[int],
        button_seat: int,
        betting: FixedLimit | PotLimit | NoLimit,
        posts: list[Post],
        deck: Sequence[Card | None],
        *,
        bomb: bool,
    ) -> Hand:
        """The engine's hand of these seats, with the table's options (RULES.md 7)."""
        options = self.config
        double = options.double_board is DoubleBoard.ALWAYS or (
            bomb and options.double_board is DoubleBoard.BOMB_POTS
        )
        config = GameConfig(
            options.variant,
            betting,
            0 if bomb else options.ante,
            options.rake,
            boards=2 if double else 1,
            run_it_twice=options.run_it_twice,
        )
        button_index = max(
            (i for i, s in enumerate(dealt) if s <= button_seat), default=len(dealt) - 1
        )
        stacks = [self._seated(s).stack for s in dealt]
        try:
            return Hand(config, stacks, button_index, posts, deck)
        except HandSetupError as error:
            raise TableError.passed(error) from error

    def _begin(
        self,
        dealt: list[int],
        button_seat: int,
        hand: Hand,
        base: FixedLimit | PotLimit | NoLimit,
        drawn: tuple[tuple[int, Card], ...] = (),
    ) -> list[TableEvent]:
        """Make ``hand`` the hand in play: its start, its first events, settled at once
        when it is over before anyone acts."""
        names = tuple(self._seated(s).name for s in dealt)
        number = self.hands_played + 1
        stacks = hand.starting_stacks
        events: list[TableEvent] = [
            HandStarted(
                number,
                button_seat,
                tuple(dealt),
                names,
                tuple(stacks),
                self.config.variant,
                hand.config.betting,
                drawn,
            )
        ]
        self.hand = TableHand(number, tuple(dealt), names, button_seat, hand, base)
        events += by_seat(number, hand.events, self.hand.seats)
        return events + self._settle_if_over()

    def _bomb_due(self) -> bool:
        """RULES.md 7: the host called a bomb pot, or the table deals one every N hands;
        a bomb pot needs a button, so the game's first hand is never one."""
        options = self.config
        if not options.bomb_pot or self.button_seat is None:
            return False
        every = options.bomb_every
        return self.bomb_called or (every > 0 and (self.hands_played + 1) % every == 0)

    def _deal_bomb_pot(self, ready: list[int], deck: Sequence[Card | None]) -> list[TableEvent]:
        """RULES.md 7: every player sitting in puts the bomb in, dead; no blinds, the button
        stays, and no blind is owed or settled by it (docs/rules.md: a player who owes a
        blind is dealt in and still owes it after)."""
        structure = self.config.betting
        betting = structure.betting_for(self._round) if isinstance(structure, Mixed) else structure
        bomb = self.config.bomb_pot * betting.big_blind
        posts = [Post(index, PostKind.BOMB, bomb) for index in range(len(ready))]
        assert self.button_seat is not None
        hand = self._start_hand(ready, self.button_seat, betting, posts, deck, bomb=True)
        self.bomb_called = False
        return self._begin(ready, self.button_seat, hand, betting)

    def _killed(
        self, base: FixedLimit | PotLimit | NoLimit, dealt: list[int]
    ) -> FixedLimit | PotLimit | NoLimit:
        """RULES.md 7: a kill pot raises the bets by the kill's ratio (2/4 to 3/6 or 4/8)."""
        kill = self.config.kill
        if kill is None or self.kill_seat not in dealt or not isinstance(base, FixedLimit):
            return base
        return replace(
            base,
            small_bet=int(base.small_bet * kill.ratio),
            big_bet=int(base.big_bet * kill.ratio),
            small_blind=base.small_blind,
            big_blind=base.big_blind,
        )

    def _kill_and_straddle(
        self,
        posts: list[Post],
        dealt: list[int],
        big: int,
        base: FixedLimit | PotLimit | NoLimit,
        betting: FixedLimit | PotLimit | NoLimit,
    ) -> list[Post]:
        """The kill blind (RULES.md 7: instead of the killer's blind, live, acting last
        before the flop) and the straddle (left of the big blind, four or more dealt in)."""
        index = {seat: i for i, seat in enumerate(dealt)}
        kill = self.config.kill
        if betting != base and kill is not None and self.kill_seat is not None:
            killer = index[self.kill_seat]
            posts = [
                p
                for p in posts
                if not (p.player == killer and p.kind in (PostKind.SMALL_BLIND, PostKind.BIG_BLIND))
            ]
            posts.append(Post(killer, PostKind.KILL, int(base.big_blind * kill.ratio)))
            return posts
        if not self.config.straddle or isinstance(betting, FixedLimit) or len(dealt) < 4:
            return posts
        seat = dealt[(index[big] + 1) % len(dealt)]
        player = self._seated(seat)
        straddle = 2 * betting.big_blind
        owed = [p for p in posts if p.player == index[seat] and p.kind is not PostKind.ANTE]
        ante = self.config.ante
        if player.straddle == Straddle.OFF.value or owed or player.stack - ante <= straddle:
            return posts  # docs/rules.md: one who posts a blind owed, or is short, does not
        return [*posts, Post(index[seat], PostKind.STRADDLE, straddle)]

    def act(self, seat: int, action: Action) -> list[TableEvent]:
        """Apply the action of the player in ``seat``, who must be the one to act; return
        the events it caused. An illegal action raises and changes nothing."""
        current = self._hand_to_act(seat)
        events = by_seat(current.number, current.hand.apply(action), current.seats)
        return events + self._settle_if_over()

    def play(self, seat: int, action: Action) -> None:
        """``act`` for a caller that reads the hand itself rather than the table's events
        (the bots' simulation): the same action, checks and settling, no events built."""
        self._hand_to_act(seat).hand.apply(action)
        self._settle_if_over()

    def check_act(self, seat: int, action: Action) -> None:
        """Raise what ``act`` would (a ``TableError``, an ``IllegalActionError``), changing
        nothing: an action is refused before anything of it is logged."""
        self._hand_to_act(seat).hand.check(action)

    def time_out_action(self, seat: int) -> Action:
        """RULES.md 6: what a player out of time does: check if possible, else fold (at
        the showdown, muck)."""
        legal = self._hand_to_act(seat, timed=True).hand.legal_actions()
        return Action.check() if legal.check else legal.give_up()

    def time_out(self, seat: int) -> list[TableEvent]:
        """RULES.md 6: the time ran out: check if possible, else fold; then sit out (in a
        tournament, away but still dealt in: RULES.md 8)."""
        events = self.act(seat, self.time_out_action(seat))
        player = self._occupant(seat)
        player.sitting_out = True
        return [*events, SatOut(seat, player.name, timed_out=True)]

    def view(self, viewer: int | None) -> TableView:
        """The table as the player in seat ``viewer`` (None: a watcher) may see it now."""
        seen = table_view(
            viewer,
            self.config.variant,
            self.seats,
            self.hand,
            self.button_seat,
            self.hands_played,
        )
        own = self.seats[viewer] if viewer is not None else None
        straddle = None if own is None or not self.config.straddle else own.straddle
        return replace(
            seen, bomb_called=self.bomb_called, kill_seat=self.kill_seat, straddle=straddle
        )

    @property
    def next_big_blind(self) -> int | None:
        """The seat that posts the big blind next hand by the dead-button rule, or None
        while the button is still to be drawn (a tournament's balancing: RULES.md 8)."""
        ready = self._ready()
        if self.button_seat is None or self._big_blind_seat is None or not ready:
            return None
        return self._next(self._big_blind_seat, ready)

    @property
    def players_ready(self) -> list[int]:
        """The seats that would be dealt in if the game (re)started now."""
        return self._ready()

    @property
    def seat_to_act(self) -> int | None:
        if self.hand is None or self.hand.hand.to_act is None:
            return None
        return self.hand.seats[self.hand.hand.to_act]

    def chips(self) -> int:
        """All chips at the table: stacks, plus the hand in play."""
        outside = sum(
            s.stack for i, s in enumerate(self.seats) if s is not None and not self._in_hand(i)
        )
        return outside + (self.hand.hand.chips_in_play() if self.hand is not None else 0)

    # ------------------------------------------------------------ internals

    def _hand_to_act(self, seat: int, timed: bool = False) -> TableHand:
        """The hand in play, where ``seat`` is to act (else a ``TableError``; ``timed``: a
        time-out, for which no one to act is the fault)."""
        self._check_seat_number(seat)
        current = self.hand
        if timed and (current is None or self.seat_to_act is None):
            raise TableError("no one is to act")
        if current is None:
            raise TableError("no hand is being played")
        if self.seat_to_act != seat:
            raise TableError("seat {seat} is not to act", seat=seat + 1)
        return current

    def _in_hand(self, seat: int) -> bool:
        return self.hand is not None and seat in self.hand.seats

    def _check_seat_number(self, seat: int) -> None:
        if type(seat) is int and 0 <= seat < self.config.seats:
            return  # the common case first: a seat is checked at every action
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TableError("a seat is a whole number, not {seat}", seat=repr(seat))
        if not 0 <= seat < self.config.seats:
            raise TableError(
                "there is no seat {seat}: the table has {seats}",
                seat=seat + 1,
                seats=self.config.seats,
            )

    def _occupant(self, seat: int) -> Seat:
        """The player in ``seat``, a number from a caller (checked)."""
        self._check_seat_number(seat)
        return self._seated(seat)

    def _seated(self, seat: int) -> Seat:
        """The player in ``seat``, a seat the table itself chose (dealt in, owing a blind)."""
        player = self.seats[seat]
        if player is None:
            raise TableError("seat {seat} is empty", seat=seat + 1)
        return player

    def _check_buy_in(self, chips: int, stack: int) -> None:
        if isinstance(chips, bool) or not isinstance(chips, int):
            raise TableError("a buy-in is a whole number of chips, not {chips}", chips=repr(chips))
        low, high = self.config.min_buy_in, self.config.max_buy_in
        if stack == 0 and chips < low:
            raise TableError("the minimum buy-in is {least}, not {chips}", least=low, chips=chips)
        if chips <= 0 or stack + chips > high:
            raise TableError(
                "{chips} more would make {stack}: the maximum is {most}",
                chips=chips,
                stack=stack + chips,
                most=high,
            )

    def _ready(self) -> list[int]:
        """Seats whose players have chips and are sitting in (in a tournament, every
        player with chips: RULES.md 8, the absent are dealt in)."""
        return [i for i, s in enumerate(self.seats) if s is not None and not self._absent(s)]

    def _absent(self, player: Seat) -> bool:
        return player.stack == 0 if self.config.tournament else player.absent

    def _next(self, seat: int, among: Sequence[int]) -> int:
        for step in range(1, self.config.seats + 1):
            candidate = (seat + step) % self.config.seats
            if candidate in among:
                return candidate
        raise TableError("no player to move to")

    def _restarts(self, ready: list[int]) -> bool:
        """The game (re)starts: no button yet, or fewer than two of the players ``ready``
        who owe no blinds."""
        regulars = [s for s in ready if not self._seated(s).owes_blinds]
        return self.button_seat is None or len(regulars) < 2

    def _place_blinds(self, ready: list[int], draw: Sequence[Card] | None) -> _Blinds:
        """The button and blinds of the next hand (the dead-button rule), and who they pass."""
        if self._restarts(ready):
            if draw is None:
                raise TableError(
                    "the game starts: the button is drawn with cards of its own (pass draw=)"
                )
            button = self.draw_for_button(draw)
            small_place = button if len(ready) == 2 else self._next(button, ready)
            big = self._next(small_place, ready)
            return _Blinds(button, small_place, big, fresh=True, wait_from=button)
        assert self._big_blind_seat is not None and self._small_blind_place is not None
        last_big = self._big_blind_seat
        big = self._next(last_big, ready)
        # Last hand's big blind seat is the small blind's place, and last hand's small
        # blind place is the button's (a dead button when no one there is dealt in).
        small_place, button, wait_from = last_big, self._small_blind_place, self._small_blind_place
        if button in (big, small_place):
            # The big blind came round to last hand's small blind: no one sits in after
            # last hand's big blind up to it. The hand is heads-up, the button posting the
            # small blind, and every other player sat down between the button and the big
            # blind: they wait until the button has passed (RULES.md 6, joining).
            button, wait_from = small_place, (big + 1) % self.config.seats
        seats = self.config.seats
        passed = [(last_big + step) % seats for step in range(1, (big - last_big) % seats)]
        missed_big = tuple(seat for seat in passed if self._misses(seat))
        missed_small = (small_place,) if self._misses(small_place) else ()
        return _Blinds(button, small_place, big, False, wait_from, missed_big, missed_small)

    def _misses(self, seat: int) -> bool:
        """Whether a blind passing this seat is missed by its player (RULES.md 6)."""
        player = self.seats[seat]
        return player is not None and self._absent(player) and not player.waiting

    def _dealt(self, ready: list[int], blinds: _Blinds) -> list[int]:
        """Who is dealt in: regulars, the big blind, and those posting to play now. RULES.md
        6: a new or returning player on the button or in the small blind's place (from
        ``wait_from`` up to the big blind) waits until the button has passed."""
        seats = self.config.seats
        dealt = []
        for seat in ready:
            player = self._seated(seat)
            waits = (seat - blinds.wait_from) % seats < (blinds.big - blinds.wait_from) % seats
            if seat == blinds.big or not player.owes_blinds or (player.post_now and not waits):
                dealt.append(seat)
        return dealt

    def _posts(
        self,
        dealt: list[int],
        small: int | None,
        blinds: _Blinds,
        betting: FixedLimit | PotLimit | NoLimit,
    ) -> tuple[list[Post], dict[int, int]]:
        """Every post of the hand, and the dead chips each dealt seat still owes after it.

        A player who owes more than their stack posts the live big blind first, then the
        dead small blind, then older dead debts (the order of RULES.md 6); the rest stays
        owed (docs/rules.md).
        """
        index = {seat: i for i, seat in enumerate(dealt)}
        posts = (
            [Post(index[s], PostKind.ANTE, self.config.ante) for s in dealt]
            if self.config.ante
            else []
        )
        if small is not None:
            posts.append(Post(index[small], PostKind.SMALL_BLIND, betting.small_blind))
        posts.append(Post(index[blinds.big], PostKind.BIG_BLIND, betting.big_blind))
        owed: dict[int, int] = {}
        for seat in dealt:
            player = self._seated(seat)
            left = player.stack - sum(p.amount for p in posts if p.player == index[seat])
            dead = player.dead_owed
            if self.config.tournament:  # RULES.md 8: a player moved in posts nothing extra
                owed[seat] = 0
                continue
            if not blinds.fresh and seat not in (small, blinds.big):
                if player.waiting or player.missed_big:
                    live = min(betting.big_blind, max(left, 0))
                    if live:
                        posts.append(Post(index[seat], PostKind.LIVE, live))
                    left -= live
                if player.missed_big or player.missed_small:
                    dead += betting.small_blind
            paid = min(dead, max(left, 0))
            if paid:
                posts.append(Post(index[seat], PostKind.DEAD, paid))
            owed[seat] = dead - paid
        return posts, owed

    def _commit_blinds(self, blinds: _Blinds, dealt: list[int], owed: dict[int, int]) -> None:
        """Record what the hand's blinds settled and what they passed (RULES.md 6)."""
        for seat in blinds.missed_big:
            self._seated(seat).missed_big = True
        for seat in blinds.missed_small:
            self._seated(seat).missed_small = True
        for seat in dealt:
            player = self._seated(seat)
            player.waiting = player.post_now = player.missed_big = player.missed_small = False
            player.dead_owed = owed[seat]

    def _betting(self, button: int) -> tuple[int, int, FixedLimit | PotLimit | NoLimit]:
        """This hand's structure, with the mixed game's round and its progress: the
        structure turns once the button has gone round the table (an orbit, however many
        players join or leave), or after ``period`` hands (RULES.md 3)."""
        betting = self.config.betting
        if not isinstance(betting, Mixed):
            return 0, 0, betting
        round_, progress = self._round, self._round_progress
        if self.button_seat is not None:
            moved = (button - self.button_seat) % self.config.seats
            progress += 1 if betting.period else moved
            if progress >= (betting.period or self.config.seats):
                round_, progress = round_ + 1, 0
        return round_, progress, betting.betting_for(round_)

    def _settle_if_over(self) -> list[TableEvent]:
        """Settle a hand that is over: stacks back to the seats, and a kill for the next
        hand when its pot was scooped (RULES.md 7)."""
        current = self.hand
        if current is None or not current.hand.is_over:
            return []
        for seat, stack in zip(current.seats, current.hand.stacks, strict=True):
            self._seated(seat).stack = stack
        self.history.append(current)
        self.hands_played += 1
        self.hand = None
        self._answers = {}
        return self._kill_after(current)

    def _kill_after(self, played: TableHand) -> list[TableEvent]:
        """RULES.md 7: a player who alone wins the whole of a pot (both halves of the main
        pot and every side pot they are in) of at least the kill size kills the next hand.
        No scoop, no kill; a bomb pot neither starts nor spends one."""
        kill, result = self.config.kill, played.hand.result
        if kill is None or result is None:
            return []
        if any(p.kind is PostKind.BOMB for p in played.hand.posts):
            return []
        scooper = _scooper(result)
        won = sum(a.amount for a in result.awards if a.player == scooper)
        if scooper is None or won < (kill.size or 10 * played.base_betting.big_blind):
            self.kill_seat = None
            return []
        seat = played.seats[scooper]
        player = self._seated(seat)
        self.kill_seat = seat
        return [KillDue(seat, player.name, int(played.base_betting.big_blind * kill.ratio))]


def _scooper(result: HandResult) -> int | None:
    """The player who alone won the whole of the main pot and of every side pot they were
    in, if any (RULES.md 7)."""
    main = {award.player for award in result.awards if award.pot == 0 and award.amount}
    if len(main) != 1:
        return None
    (player,) = main
    for index, pot in enumerate(result.pots):
        if player in pot.eligible:
            paid = [a for a in result.awards if a.pot == index and a.amount]
            if any(a.player != player or a.share is not Share.WHOLE for a in paid):
                return None
    return player


__all__ = [
    "HISTORY_SIZE",
    "IllegalActionError",
    "Seat",
    "Table",
    "TableConfig",
    "TableError",
    "TableHand",
]
