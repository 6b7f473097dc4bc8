"""A game of one person against bots at one table: what the terminal front ends drive.

The session holds the table, the bots and the source of shuffled decks; it plays the
bots' turns and takes the person's commands as text (``fold``, ``call``, ``raise 8``,
``last 3``, ``help``, ``quit``, ...), answering an illegal one with the reason and the
legal ones.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from splitpot.bots import Bot, make_bot
from splitpot.cards import CardError, Deck, format_cards, parse_cards
from splitpot.engine import Action, HandEnded, HandView, LegalActions
from splitpot.evaluate import best_high, best_low
from splitpot.history.report import chat_lines, hand_summary
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Variant
from splitpot.simulation import play_bots
from splitpot.table import HISTORY_SIZE, Table, TableConfig, TableError, TableHand

STRUCTURES = ("limit", "pot-limit", "no-limit", "mixed")
DEFAULT_STAKES = {"limit": "2/4", "pot-limit": "1/2", "no-limit": "1/2", "mixed": "4/8"}
GAME_NAMES = {
    Variant.O8: "Omaha Hi/Lo",
    Variant.OMAHA: "Omaha",
    Variant.BIGO: "Big O",
    Variant.HILO_NO_QUALIFIER: "Omaha Hi/Lo without a qualifier",
}
MAX_NAME = 20  # characters: a seat of the full-screen table holds the name
HELP = (
    "Commands:",
    "  fold, check, call   as the words say",
    "  bet N               the first bet of a round, to a total of N",
    "  raise N             raise a bet, to a total of N this round",
    "  allin               all your chips",
    "  show, muck          at the showdown: show your hand or give it up unseen",
    f"  last, last N        the last hand, or the hand N back (up to {HISTORY_SIZE}), whole",
    "  help                this list",
    "  quit                leave the table (in a hand: asks once, then folds it)",
)


class SettingError(ValueError):
    """A game setting (stakes, buy-in, name, number of hands) that the table cannot play."""


def parse_stakes(structure: str, text: str) -> tuple[int, int]:
    """Stakes ``S/B`` as the structure reads them (RULES.md 3): limit and mixed stakes are
    the bets, the big bet twice the small one; pot and no limit stakes are the blinds, the
    big blind at least the small one; mixed small bets divide by 4 (the pot-limit blinds)."""
    small_text, slash, big_text = text.strip().partition("/")
    if not (slash and small_text.isdecimal() and big_text.isdecimal()) or (
        int(small_text) == 0 or int(big_text) == 0
    ):
        raise SettingError(f"stakes are two whole amounts above 0 like 2/4, not {text!r}")
    small, big = int(small_text), int(big_text)
    if structure in ("limit", "mixed") and big != 2 * small:
        raise SettingError(
            f"{structure} stakes are a small bet and a big bet of twice as much, "
            f"like {DEFAULT_STAKES[structure]}, not {text!r}"
        )
    if structure == "limit" and small < 2:  # RULES.md 4.1: the small blind is half of it
        raise SettingError(
            f"limit stakes need a small bet of at least 2 (the small blind is half of it), "
            f"like 2/4, not {text!r}"
        )
    if structure == "mixed" and small % 4:
        raise SettingError(
            "mixed stakes need a small bet divisible by 4 (the pot-limit rounds play blinds "
            f"of a quarter and a half of it), like 4/8, not {text!r}"
        )
    if big < small:
        raise SettingError(
            f"{structure} stakes are the small and the big blind, the big blind at least the "
            f"small one, like {DEFAULT_STAKES[structure]}, not {text!r}"
        )
    return small, big


def table_config(variant: str, structure: str, stakes: str | None, seats: int) -> TableConfig:
    """A table from command-line words. Limit stakes are the bets (2/4: blinds 1 and 2);
    pot and no limit stakes are the blinds; mixed stakes are the limit bets, and the pot
    limit rounds play with blinds of a quarter and a half of the small bet."""
    if structure not in STRUCTURES:
        raise SettingError(f"unknown structure {structure!r}; structures: {', '.join(STRUCTURES)}")
    small, big = parse_stakes(structure, stakes or DEFAULT_STAKES[structure])
    betting: FixedLimit | PotLimit | NoLimit | Mixed
    if structure == "limit":
        betting = FixedLimit(small, big)
    elif structure == "pot-limit":
        betting = PotLimit(small, big)
    elif structure == "no-limit":
        betting = NoLimit(small, big)
    else:
        betting = Mixed(FixedLimit(small, big), PotLimit(small // 4, small // 2))
    return TableConfig(Variant.parse(variant), betting, seats=seats)


def game_title(variant: Variant, betting: FixedLimit | PotLimit | NoLimit) -> str:
    """The game as a hand's first line names it: "Omaha Hi/Lo, Pot Limit 1/2"."""
    return f"{GAME_NAMES[variant]}, {betting.name} {betting.stakes}"


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a command: the lines to show, and whether the session is over."""

    lines: tuple[str, ...]
    over: bool = False


class GameSession:
    """One person (seat 0) against bots in the other seats, for ``max_hands`` hands at
    most (None: until the person quits or goes broke)."""

    def __init__(
        self,
        config: TableConfig,
        *,
        name: str = "Hero",
        bots: list[Bot] | None = None,
        buy_in: int | None = None,
        seed: int | None = None,
        max_hands: int | None = None,
    ) -> None:
        if max_hands is not None and max_hands < 1:
            raise SettingError(f"the number of hands must be 1 or more, not {max_hands}")
        if not 0 < len(name.strip()) <= MAX_NAME or not name.isprintable():
            raise SettingError(
                f"a player's name is 1 to {MAX_NAME} printable characters, not {name!r}"
            )
        name = name.strip()
        if any(_is_card(word) for word in name.split()):
            raise SettingError(f"the name {name!r} reads as a card: choose another")
        low, high = config.min_buy_in, config.max_buy_in
        if buy_in is not None and not low <= buy_in <= high:
            raise SettingError(f"the buy-in at this table is {low} to {high} chips, not {buy_in}")
        self.bots = bots or [
            make_bot("sensible", f"Bot {i}", None if seed is None else seed + i)
            for i in range(1, config.seats)
        ]
        if name in {bot.name for bot in self.bots}:
            raise SettingError(f"the name {name!r} is a bot's: choose another")
        self.table = Table(config)
        self.name = name
        self.buy_in = buy_in or high
        self.max_hands = max_hands
        self.table.sit(0, name, self.buy_in)
        for seat, bot in enumerate(self.bots, start=1):
            self.table.sit(seat, bot.name, self.buy_in)
        self._shuffle = random.Random(seed)
        self._seeded = seed is not None
        self.current: TableHand | None = None
        self._printed = 0
        self._quitting = False  # "quit" was typed once in a hand: the next one leaves
        self.hands_started = 0

    # --------------------------------------------------------------- state

    @property
    def stack(self) -> int:
        seat = self.table.seats[0]
        return seat.stack if seat is not None else 0

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

    @property
    def quitting(self) -> bool:
        """Whether "quit" was given once in a hand and waits to be given again."""
        return self._quitting

    def in_hand(self) -> bool:
        """Whether the person holds live cards in a hand still being played."""
        view, index = self.view(), self.my_index()
        if self.table.hand is None or view is None or index is None:
            return False
        return not view.folded[index]

    def title(self) -> str:
        """The game for a header: the structure of the hand being played (or of the first
        hand) and, in a mixed game, that it is mixed."""
        config = self.table.config
        if self.current is not None:
            betting = self.current.hand.config.betting
        elif isinstance(config.betting, Mixed):
            betting = config.betting.betting_for(0)
        else:
            betting = config.betting
        title = game_title(config.variant, betting)
        return f"{title} ({config.betting.name})" if isinstance(config.betting, Mixed) else title

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
        """Deal the next hand (bots that went broke buy in again) and play the bots' turns.

        A hand can be over before anyone acts (heads-up, a small blind all in by posting):
        its lines are reported like those of any other hand."""
        if self.stack == 0:
            return Reply(("You have no chips left.", *self.summary()), over=True)
        if self.max_hands is not None and self.hands_started >= self.max_hands:
            last = f"That was the last of your {_count(self.max_hands, 'hand')}."
            return Reply((last, *self.summary()), over=True)
        for seat, player in enumerate(self.table.seats):
            if seat and player is not None and player.stack == 0:
                self.table.add_chips(seat, self.buy_in)
        deck, draw = (self._deck() for _ in range(2))
        previous = self.current
        try:
            current = self.table.start_hand(deck.cards, draw=draw.cards)
        except TableError as error:
            return Reply((f"Cannot deal: {error}", *self.summary()), over=True)
        self.current = current
        self.hands_started += 1
        self._printed = 0
        variant, betting = current.hand.config.variant, current.hand.config.betting
        lines = [f"*** Hand {current.number}: {game_title(variant, betting)} ***"]
        if previous is not None and previous.hand.config.betting != betting:
            lines.append(f"The game changes to {betting.name} {betting.stakes}")
        return Reply((*lines, *self._play_bots()))

    def _deck(self) -> Deck:
        return Deck(seed=self._shuffle.getrandbits(64)) if self._seeded else Deck()

    def command(self, text: str) -> Reply:
        """One line from the person: an action, ``last [N]``, ``help`` or ``quit``."""
        words = text.lower().split()
        word = words[0] if words else ""
        confirmed, self._quitting = self._quitting, False
        if word in ("quit", "exit") and len(words) == 1:
            if self.in_hand() and not confirmed:
                self._quitting = True
                lost = _lost(self._put_in(), "have")
                return Reply((f"Quitting now folds your hand{lost}. Quit again to leave.",))
            return self.quit()
        if word == "help" and len(words) == 1:
            return Reply(HELP)
        if word == "last":
            return Reply(tuple(self._last_command(words[1:])))
        legal = self.legal()
        if legal is None:
            return Reply(("It is not your turn.",))
        try:
            self.table.act(0, Action.parse(text))  # "bet" facing a bet is refused, as is "raise"
        except ValueError as error:  # with no bet: the engine names the right word
            return Reply((f"Not now: {error}.", f"You may: {', '.join(legal.describe())}"))
        return Reply(tuple(self._play_bots()))

    def quit(self) -> Reply:
        """Leave the table. A hand in play is given up (folded; mucked at the showdown), the
        bots play it out, and the summary counts the chips it cost."""
        lines: list[str] = []
        put = self._put_in() if self.in_hand() else None
        while self.table.hand is not None:
            legal = self.legal()
            if legal is not None:
                self.table.act(0, Action.muck() if legal.muck else Action.fold())
            lines += self._play_bots()
        if put is not None:
            number = self.table.history[-1].number
            lines.append(f"You folded hand {number} to leave{_lost(put, 'had')}.")
        return Reply((*lines, *self.summary()), over=True)

    def _put_in(self) -> int:
        """The chips the person has put into the hand in play."""
        view, index = self.view(), self.my_index()
        assert self.current is not None and view is not None and index is not None
        return self.current.hand.starting_stacks[index] - view.stacks[index]

    def _last_command(self, words: list[str]) -> list[str]:
        if not words:
            return self.last_hand()
        if len(words) == 1 and words[0].isdecimal():
            return self.last_hand(int(words[0]))
        return [f"last takes how many hands back, like 'last 3', not {' '.join(words)!r}"]

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

    def result_lines(self) -> list[str]:
        """How the hand just over ended: who won which pot, and the person's result
        (nothing while a hand is being played)."""
        current, index = self.current, self.my_index()
        if current is None or self.table.hand is not None:
            return []
        events = current.hand.events
        ended = next(i for i, event in enumerate(events) if isinstance(event, HandEnded))
        lines = [f"Hand {current.number} is over."]
        if index is not None:
            net = current.hand.stacks[index] - current.hand.starting_stacks[index]
            result = f"win {net}" if net > 0 else f"lose {-net}" if net else "break even"
            lines = [f"Hand {current.number} is over: you {result}."]
        return lines + chat_lines(current.hand, current.names, index, ended)

    def last_hand(self, back: int = 1) -> list[str]:
        """A hand of the last 50, whole, as the person may see it (RULES.md 6)."""
        history = self.table.history
        if not history:
            return ["No finished hand to show yet."]
        if not 1 <= back <= len(history):
            kept = len(history)
            return [
                f"No hand {back} back: {_count(kept, 'finished hand')} kept, 'last 1' to "
                f"'last {kept}' (the table keeps the last {HISTORY_SIZE})."
            ]
        played = history[-back]
        viewer = played.seats.index(0) if 0 in played.seats else None
        game = game_title(played.hand.config.variant, played.hand.config.betting)
        title = f"Hand {played.number}: {game} (button: seat {played.button_seat + 1})"
        return hand_summary(played.hand, played.names, viewer, title)

    def summary(self) -> list[str]:
        net = self.stack - self.buy_in
        return [
            f"Session over: {_count(self.table.hands_played, 'hand')} played.",
            f"{self.name}: {self.stack} chips, {net:+d} on the buy-in of {self.buy_in}.",
        ]

    # --------------------------------------------------------------- the table

    def seat_lines(self) -> list[str]:
        """Each seat: name, the button, stack, and bet or fold in the hand."""
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
        return lines

    def board_line(self) -> str:
        view = self.view()
        if view is None:
            return ""
        board = format_cards([c for c in view.board if c is not None], " ") or "(none yet)"
        return f"Board: {board}   Pot: {view.pot}"

    def cards_line(self) -> str:
        """The person's hole cards with their best high and low as a hint."""
        view = self.view()
        if view is None or view.hole is None:
            return ""
        hint = self.hint()
        cards = format_cards([c for c in view.hole if c is not None], " ")
        return f"Your cards: {cards}" + (f"   ({hint})" if hint else "")

    def move_line(self) -> str:
        legal = self.legal()
        return f"Your move: {', '.join(legal.describe())}" if legal is not None else ""

    def table_lines(self) -> list[str]:
        """The table as text: seats, stacks, bets, the button, pots, board, your cards and
        your legal actions."""
        extra = (self.board_line(), self.cards_line(), self.move_line())
        return self.seat_lines() + [line for line in extra if line]


def _is_card(word: str) -> bool:
    """Whether a word of a name would read as a card in the dealer's chat ("As")."""
    try:
        return len(parse_cards(word)) == 1
    except CardError:
        return False


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}{'' if number == 1 else 's'}"


def _lost(chips: int, have: str) -> str:
    """The chips a fold loses, in words: ": the 6 chips you have put in are lost"."""
    if chips == 0:
        return f" (you {have} put no chips in)"
    return f": the {_count(chips, 'chip')} you {have} put in {'is' if chips == 1 else 'are'} lost"
