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
from collections.abc import Sequence
from dataclasses import dataclass, field

from splitpot.cards import Card
from splitpot.engine import Action, Hand, HandSetupError, IllegalActionError, Post, PostKind
from splitpot.rules import FixedLimit, GameConfig, Mixed, NoLimit, PotLimit, Rake, Variant

HISTORY_SIZE = 50
MAX_SEATS = 10


class TableError(ValueError):
    """A table command that the rules do not allow now; the table is left unchanged."""


@dataclass(frozen=True, slots=True)
class TableConfig:
    """A table's game, stakes, size and buy-in range (RULES.md 6)."""

    variant: Variant
    betting: FixedLimit | PotLimit | NoLimit | Mixed
    seats: int = 6
    min_buy_in: int = 0  # 0: the default of the structure
    max_buy_in: int = 0
    ante: int = 0
    rake: Rake | None = None

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= MAX_SEATS:
            raise TableError(f"a table has 2 to {MAX_SEATS} seats, not {self.seats}")
        first = self.betting.betting_for(0) if isinstance(self.betting, Mixed) else self.betting
        if isinstance(first, FixedLimit):
            # RULES.md 6: the minimum is ten small bets; docs/rules.md: the maximum 100.
            low, high = 10 * first.small_bet, 100 * first.small_bet
        else:
            low, high = 40 * first.big_blind, 100 * first.big_blind  # RULES.md 6: 40 to 100 BB
        if self.min_buy_in == 0:
            object.__setattr__(self, "min_buy_in", low)
        if self.max_buy_in == 0:
            object.__setattr__(self, "max_buy_in", max(high, self.min_buy_in))
        if not 0 < self.min_buy_in <= self.max_buy_in:
            raise TableError(f"buy-in range {self.min_buy_in} to {self.max_buy_in} is empty")


@dataclass
class Seat:
    """A seated player, as the table keeps them between hands."""

    name: str
    stack: int
    sitting_out: bool = False
    waiting: bool = True  # not yet dealt in: waits for the big blind unless posting
    post_now: bool = False  # a new or returning player who posts a big blind to play now
    missed_blinds: bool = False  # sat out while the blinds passed: owes dead small + live big


@dataclass(frozen=True, slots=True)
class TableHand:
    """One hand of the table: its number, who sat where, and the engine's hand."""

    number: int
    seats: tuple[int, ...]  # the table seat of each player of the hand, clockwise
    names: tuple[str, ...]
    button_seat: int
    hand: Hand


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
        self._round_hands_left: int | None = None

    # ------------------------------------------------------------- seating

    def sit(self, seat: int, name: str, buy_in: int, *, post_now: bool = False) -> None:
        """Seat a player with a buy-in; they wait for the big blind unless ``post_now``."""
        self._check_seat_number(seat)
        if self.seats[seat] is not None:
            raise TableError(f"seat {seat + 1} is taken")
        if any(s is not None and s.name == name for s in self.seats):
            raise TableError(f"{name} is already seated")
        self._check_buy_in(buy_in, 0)
        self.seats[seat] = Seat(name, buy_in, post_now=post_now)

    def leave(self, seat: int) -> int:
        """Take the player out of the seat between hands; return their chips."""
        player = self._occupant(seat)
        if self.hand is not None and seat in self.hand.seats:
            raise TableError(f"{player.name} is in the hand: leave when it is over")
        self.seats[seat] = None
        return player.stack

    def add_chips(self, seat: int, chips: int) -> None:
        """A top-up between hands, up to the table's maximum buy-in."""
        player = self._occupant(seat)
        if self.hand is not None and seat in self.hand.seats:
            raise TableError("no chips may be added during a hand (RULES.md 3: table stakes)")
        self._check_buy_in(chips, player.stack)
        player.stack += chips

    def sit_out(self, seat: int) -> None:
        self._occupant(seat).sitting_out = True

    def sit_in(self, seat: int, *, post_now: bool = False) -> None:
        """Come back; with blinds owed, post them now (``post_now``) or wait for the big blind."""
        player = self._occupant(seat)
        player.sitting_out = False
        player.post_now = post_now

    # ---------------------------------------------------------------- hands

    @property
    def occupied(self) -> list[int]:
        return [i for i, s in enumerate(self.seats) if s is not None]

    def draw_for_button(self, cards: Sequence[Card]) -> int:
        """RULES.md 4.1: the first button goes to the highest card (suits: s > h > d > c)."""
        players = self._ready()
        if len(cards) < len(players):
            raise TableError("not enough cards to draw for the button")
        drawn = dict(zip(players, cards, strict=False))
        return max(drawn, key=lambda seat: drawn[seat])

    def start_hand(self, deck: Sequence[Card | None]) -> TableHand:
        """Deal the next hand with this deck order (the first hand draws for the button).

        Everything is worked out before anything changes: an error leaves the table as it was.
        """
        if self.hand is not None:
            raise TableError("a hand is already being played")
        ready = self._ready()
        if len(ready) < 2:
            raise TableError("at least two players with chips must be sitting in")
        missed: list[int] = []
        owing = [s for s in ready if self._occupant(s).waiting or self._occupant(s).missed_blinds]
        fresh = self.button_seat is None or len(ready) - len(owing) < 2  # a game (re)starts
        if fresh:
            button_seat = self.draw_for_button([c for c in deck if c is not None])
            small_place = button_seat if len(ready) == 2 else self._next(button_seat, ready)
            big = self._next(small_place, ready)
        else:
            assert self._big_blind_seat is not None and self._small_blind_place is not None
            big, missed = self._next_big_blind(ready)
            # Last hand's big blind seat is the small blind's place, and last hand's small
            # blind place is the button's (a dead button when that seat is empty).
            small_place, button_seat = self._big_blind_seat, self._small_blind_place
            if button_seat in (big, small_place):  # the game grew from heads-up
                button_seat = (small_place - 1) % self.config.seats
        dealt = ready if fresh else self._dealt(ready, big, button_seat)
        if len(dealt) < 2:
            raise TableError("at least two players must be dealt in")
        if len(dealt) == 2:  # heads-up: the button posts the small blind (RULES.md 4.1)
            small_place = button_seat = next(s for s in dealt if s != big)
        small_seat = small_place if small_place in dealt and small_place != big else None
        round_, hands_left, betting = self._betting()
        posts = self._posts(dealt, small_seat, big, betting, fresh)
        config = GameConfig(self.config.variant, betting, self.config.ante, self.config.rake)
        button_index = max(
            (i for i, s in enumerate(dealt) if s <= button_seat), default=len(dealt) - 1
        )
        stacks = [self._occupant(s).stack for s in dealt]
        try:
            hand = Hand(config, stacks, button_index, posts, deck)
        except HandSetupError as error:
            raise TableError(str(error)) from error
        for seat in missed:  # RULES.md 6: they sat out while the blinds passed
            self._occupant(seat).missed_blinds = True
        for seat in dealt:
            player = self._occupant(seat)
            player.waiting = player.post_now = player.missed_blinds = False
        self.button_seat, self._small_blind_place, self._big_blind_seat = (
            button_seat,
            small_place,
            big,
        )
        self._round, self._round_hands_left = round_, hands_left
        names = tuple(self._occupant(s).name for s in dealt)
        self.hand = TableHand(self.hands_played + 1, tuple(dealt), names, button_seat, hand)
        self._settle_if_over()
        return self.hand

    def act(self, action: Action) -> None:
        """Apply the action of the player to act in the current hand."""
        if self.hand is None:
            raise TableError("no hand is being played")
        self.hand.hand.apply(action)
        self._settle_if_over()

    def time_out(self, seat: int) -> None:
        """RULES.md 6: the time ran out: check if possible, else fold; then sit out."""
        current = self.hand
        if current is None or current.hand.to_act is None:
            raise TableError("no one is to act")
        if current.seats[current.hand.to_act] != seat:
            raise TableError(f"seat {seat + 1} is not to act")
        legal = current.hand.legal_actions()
        if legal.show or legal.muck:
            action = Action.muck()
        else:
            action = Action.check() if legal.check else Action.fold()
        self.act(action)
        self._occupant(seat).sitting_out = True

    @property
    def seat_to_act(self) -> int | None:
        if self.hand is None or self.hand.hand.to_act is None:
            return None
        return self.hand.seats[self.hand.hand.to_act]

    def chips(self) -> int:
        """All chips at the table: stacks, plus the hand in play."""
        seated = sum(s.stack for s in self.seats if s is not None)
        if self.hand is None:
            return seated
        in_hand = {seat: i for i, seat in enumerate(self.hand.seats)}
        outside = sum(
            s.stack for i, s in enumerate(self.seats) if s is not None and i not in in_hand
        )
        return outside + self.hand.hand.chips_in_play()

    # ------------------------------------------------------------ internals

    def _check_seat_number(self, seat: int) -> None:
        if not 0 <= seat < self.config.seats:
            raise TableError(f"there is no seat {seat + 1}: the table has {self.config.seats}")

    def _occupant(self, seat: int) -> Seat:
        self._check_seat_number(seat)
        player = self.seats[seat]
        if player is None:
            raise TableError(f"seat {seat + 1} is empty")
        return player

    def _check_buy_in(self, chips: int, stack: int) -> None:
        low, high = self.config.min_buy_in, self.config.max_buy_in
        if stack == 0 and chips < low:
            raise TableError(f"the minimum buy-in is {low}, not {chips}")
        if chips <= 0 or stack + chips > high:
            raise TableError(f"{chips} more would make {stack + chips}: the maximum is {high}")

    def _ready(self) -> list[int]:
        """Seats whose players have chips and are sitting in."""
        return [
            i
            for i, s in enumerate(self.seats)
            if s is not None and s.stack > 0 and not s.sitting_out
        ]

    def _next(self, seat: int, among: Sequence[int]) -> int:
        for step in range(1, self.config.seats + 1):
            candidate = (seat + step) % self.config.seats
            if candidate in among:
                return candidate
        raise TableError("no player to move to")

    def _next_big_blind(self, ready: list[int]) -> tuple[int, list[int]]:
        """The big blind moves to the next player sitting in; also the seats it passes
        whose players sit out (they miss their blinds)."""
        assert self._big_blind_seat is not None
        big = self._next(self._big_blind_seat, ready)
        passed = []
        seat = (self._big_blind_seat + 1) % self.config.seats
        while seat != big:
            player = self.seats[seat]
            if player is not None and player.sitting_out and not player.waiting:
                passed.append(seat)
            seat = (seat + 1) % self.config.seats
        return big, passed

    def _dealt(self, ready: list[int], big: int, button: int) -> list[int]:
        """Who is dealt in: regulars, the big blind, and those posting to play now; a new
        player in the small blind's place waits until the button has passed."""
        dealt = []
        for seat in ready:
            player = self._occupant(seat)
            owes = player.waiting or player.missed_blinds
            between = _clockwise_between(button, seat, big, self.config.seats)
            if seat == big or not owes or (player.post_now and not between):
                dealt.append(seat)
        return dealt

    def _posts(
        self,
        dealt: list[int],
        small: int | None,
        big: int,
        betting: FixedLimit | PotLimit | NoLimit,
        fresh: bool,
    ) -> list[Post]:
        index = {seat: i for i, seat in enumerate(dealt)}
        posts = (
            [Post(index[s], PostKind.ANTE, self.config.ante) for s in dealt]
            if self.config.ante
            else []
        )
        if small is not None:
            posts.append(Post(index[small], PostKind.SMALL_BLIND, betting.small_blind))
        posts.append(Post(index[big], PostKind.BIG_BLIND, betting.big_blind))
        for seat in dealt:
            player = self._occupant(seat)
            if fresh or seat in (small, big) or not (player.waiting or player.missed_blinds):
                continue
            posts.append(Post(index[seat], PostKind.LIVE, betting.big_blind))
            if player.missed_blinds:  # RULES.md 6: the small blind amount is dead
                posts.append(Post(index[seat], PostKind.DEAD, betting.small_blind))
        return posts

    def _betting(self) -> tuple[int, int | None, FixedLimit | PotLimit | NoLimit]:
        """This hand's structure, with the mixed game's round and hands left after it:
        the structure turns once the button has gone round, or after ``period`` hands."""
        betting = self.config.betting
        if not isinstance(betting, Mixed):
            return 0, None, betting
        round_, left = self._round, self._round_hands_left
        if left == 0:
            round_, left = round_ + 1, None
        if left is None:
            left = betting.period or len(self._ready())
        return round_, left - 1, betting.betting_for(round_)

    def _settle_if_over(self) -> None:
        current = self.hand
        if current is None or not current.hand.is_over:
            return
        for seat, stack in zip(current.seats, current.hand.stacks, strict=True):
            self._occupant(seat).stack = stack
        self.history.append(current)
        self.hands_played += 1
        self.hand = None


def _clockwise_between(start: int, seat: int, end: int, seats: int) -> bool:
    """Whether ``seat`` lies strictly between ``start`` and ``end`` going clockwise."""
    return 0 < (seat - start) % seats < (end - start) % seats


__all__ = [
    "HISTORY_SIZE",
    "IllegalActionError",
    "Seat",
    "Table",
    "TableConfig",
    "TableError",
    "TableHand",
]
