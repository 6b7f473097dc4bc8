"""A game of one person against bots at one table: what the terminal front ends drive.

The session holds the table, the bots and the source of shuffled decks; it plays the
bots' turns and takes the person's commands as text (``fold``, ``call``, ``raise 8``,
...), answering an illegal one with the reason and the legal ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from splitpot.bots import Bot, make_bot
from splitpot.cards import Deck, format_cards
from splitpot.engine import Action, ActionKind, HandView, LegalActions
from splitpot.evaluate import best_high, best_low
from splitpot.history.report import chat_lines, hand_summary
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Variant
from splitpot.simulation import play_bots
from splitpot.table import Table, TableConfig, TableError, TableHand

STRUCTURES = ("limit", "pot-limit", "no-limit", "mixed")
DEFAULT_STAKES = {"limit": "2/4", "pot-limit": "1/2", "no-limit": "1/2", "mixed": "4/8"}


def parse_stakes(text: str) -> tuple[int, int]:
    small, slash, big = text.partition("/")
    if not slash or not small.isdigit() or not big.isdigit() or int(small) <= 0 or int(big) <= 0:
        raise ValueError(f"stakes are two whole amounts like 2/4, not {text!r}")
    return int(small), int(big)


def table_config(variant: str, structure: str, stakes: str | None, seats: int) -> TableConfig:
    """A table from command-line words. Limit stakes are the bets (2/4: blinds 1 and 2);
    pot and no limit stakes are the blinds; mixed stakes are the limit bets, and the pot
    limit rounds play with blinds of a quarter and a half of the small bet."""
    if structure not in STRUCTURES:
        raise ValueError(f"unknown structure {structure!r}; structures: {', '.join(STRUCTURES)}")
    small, big = parse_stakes(stakes or DEFAULT_STAKES[structure])
    betting: FixedLimit | PotLimit | NoLimit | Mixed
    if structure == "limit":
        betting = FixedLimit(small, big)
    elif structure == "pot-limit":
        betting = PotLimit(small, big)
    elif structure == "no-limit":
        betting = NoLimit(small, big)
    else:
        if small % 4:
            raise ValueError(f"mixed stakes need a small bet divisible by 4, not {small}")
        betting = Mixed(FixedLimit(small, big), PotLimit(small // 4, small // 2))
    return TableConfig(Variant.parse(variant), betting, seats=seats)


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a command: the lines to show, and whether the session is over."""

    lines: tuple[str, ...]
    over: bool = False


class GameSession:
    """One person (seat 0) against bots in the other seats."""

    def __init__(
        self,
        config: TableConfig,
        *,
        name: str = "Hero",
        bots: list[Bot] | None = None,
        buy_in: int | None = None,
        seed: int | None = None,
    ) -> None:
        self.table = Table(config)
        self.name = name
        self.buy_in = buy_in or config.max_buy_in
        self.table.sit(0, name, self.buy_in)
        count = config.seats - 1
        self.bots = bots or [
            make_bot("sensible", f"Bot {i}", None if seed is None else seed + i)
            for i in range(1, count + 1)
        ]
        for seat, bot in enumerate(self.bots, start=1):
            self.table.sit(seat, bot.name, self.buy_in)
        self._shuffle = random.Random(seed)
        self._seeded = seed is not None
        self.current: TableHand | None = None
        self._printed = 0
        self.hands_started = 0

    # --------------------------------------------------------------- state

    @property
    def stack(self) -> int:
        seat = self.table.seats[0]
        return seat.stack if seat is not None else 0

    @property
    def my_turn(self) -> bool:
        return self.table.seat_to_act == 0

    def my_index(self) -> int | None:
        if self.current is None or 0 not in self.current.seats:
            return None
        return self.current.seats.index(0)

    def view(self) -> HandView | None:
        index = self.my_index()
        return None if self.current is None else self.current.hand.view(index)

    def legal(self) -> LegalActions | None:
        view = self.view()
        return view.legal if view is not None else None

    def hint(self) -> str:
        """The person's best high and low right now, as a hint."""
        view = self.view()
        if view is None or view.hole is None:
            return ""
        board = [c for c in view.board if c is not None]
        hole = [c for c in view.hole if c is not None]
        if len(board) < 3:
            return ""
        variant = self.table.config.variant
        words = f"high: {best_high(hole, board).name}"
        if variant.has_low:
            low = best_low(hole, board, variant.low_qualifier)
            words += f"; low: {low.name if low else 'none yet'}"
        return words

    # -------------------------------------------------------------- commands

    def next_hand(self) -> Reply:
        """Deal the next hand (bots that went broke buy in again) and play the bots' turns."""
        if self.stack == 0:
            return Reply(("You have no chips left.", *self.summary()), over=True)
        for seat, player in enumerate(self.table.seats):
            if seat and player is not None and player.stack == 0:
                self.table.add_chips(seat, self.buy_in)
        deck = Deck(seed=self._shuffle.getrandbits(64)) if self._seeded else Deck()
        try:
            self.current = self.table.start_hand(deck.cards)
        except TableError as error:
            return Reply((f"Cannot deal: {error}", *self.summary()), over=True)
        self.hands_started += 1
        self._printed = 0
        header = f"*** Hand {self.current.number} ***"
        return Reply((header, *self._play_bots()))

    def command(self, text: str) -> Reply:
        """One line from the person: an action, ``last`` or ``quit``."""
        word = text.strip().lower()
        if word in ("quit", "exit"):
            return Reply(tuple(self.summary()), over=True)
        if word == "last":
            return Reply(tuple(self.last_hand()))
        legal = self.legal()
        if legal is None:
            return Reply(("It is not your turn.",))
        try:
            action = Action.parse(word)
            if action.kind in (ActionKind.BET, ActionKind.RAISE) and legal.bet_or_raise is not None:
                action = Action(legal.bet_or_raise, action.amount)  # "bet" and "raise" alike
            self.table.act(action)
        except ValueError as error:
            return Reply((f"Not now: {error}.", f"You may: {', '.join(legal.describe())}"))
        return Reply(tuple(self._play_bots()))

    def _play_bots(self) -> list[str]:
        play_bots(self.table, dict(enumerate(self.bots, start=1)))
        return self.new_lines()

    def new_lines(self) -> list[str]:
        """The dealer's chat since the last call, as the person may see it."""
        if self.current is None:
            return []
        hand = self.current.hand
        lines = chat_lines(hand, self.current.names, self.my_index(), self._printed)
        self._printed = len(hand.events)
        return lines

    def last_hand(self, back: int = 1) -> list[str]:
        """A hand of the last 50, whole, as the person may see it."""
        history = self.table.history
        if not history or not 1 <= back <= len(history):
            return ["No finished hand to show yet."]
        played = history[-back]
        viewer = played.seats.index(0) if 0 in played.seats else None
        title = f"Hand {played.number} (button: seat {played.button_seat + 1})"
        return hand_summary(played.hand, played.names, viewer, title)

    def summary(self) -> list[str]:
        net = self.stack - self.buy_in
        return [
            f"Session over: {self.table.hands_played} hands played.",
            f"{self.name}: {self.stack} chips, {net:+d} on the buy-in of {self.buy_in}.",
        ]

    def table_lines(self) -> list[str]:
        """The table as text: seats, stacks, bets, the button, pots, board and your cards."""
        view = self.view()
        current = self.current
        lines = []
        for seat, player in enumerate(self.table.seats):
            if player is None:
                continue
            mark = " (button)" if current is not None and seat == current.button_seat else ""
            status = ""
            if view is not None and current is not None and seat in current.seats:
                index = current.seats.index(seat)
                bet = view.bets[index]
                status = " folded" if view.folded[index] else (f" bet {bet}" if bet else "")
                stack = view.stacks[index]
            else:
                stack = player.stack
            lines.append(f"Seat {seat + 1}: {player.name}{mark}: {stack}{status}")
        if view is not None:
            board = format_cards([c for c in view.board if c is not None], " ") or "(none yet)"
            lines.append(f"Board: {board}   Pot: {view.pot}")
            if view.hole is not None:
                hint = self.hint()
                cards = format_cards([c for c in view.hole if c is not None], " ")
                lines.append(f"Your cards: {cards}" + (f"   ({hint})" if hint else ""))
        legal = self.legal()
        if legal is not None:
            lines.append(f"Your move: {', '.join(legal.describe())}")
        return lines
