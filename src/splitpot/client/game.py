"""A game that the terminal front ends drive (the line game, the full-screen game): a
table seen through a ``TableClient``, the person's words in, lines to show out.

What the front ends share lives here: the commands that are not the room's (``help``,
``last``, ``quit`` asked once in a hand), the table's picture, and the session's summary.
``splitpot.session.GameSession`` plays offline against bots, ``client.remote.RemoteGame``
at a table of the room.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Iterator
from dataclasses import dataclass

from splitpot.client.state import Frame, RoomMessage, TableClient
from splitpot.engine import LegalActions
from splitpot.i18n import ENGLISH, Words
from splitpot.table import HISTORY_SIZE


def help_text(words: Words = ENGLISH) -> tuple[str, ...]:
    """The commands, each with what it does (the commands themselves are typed in
    English in every language)."""
    say = words.say
    return (
        say("Commands:"),
        say("  fold, check, call   as the words say"),
        say("  bet N               the first bet of a round, to a total of N"),
        say("  raise N             raise a bet, to a total of N this round"),
        say("  allin               all your chips"),
        say("  show, muck          at the showdown: show your hand or give it up unseen"),
        say("  yes, no             when asked to run it twice: agree, or run it once"),
        say("  straddle next|always|off  straddle next time left of the big blind, always, or not"),
        say("  rabbit              after a hand ended early: the cards that would have come"),
        say("  wait, wait off      join a full table's waiting list, or leave it"),
        say(
            "  last, last N        the last hand, or the hand N back (up to {size}), whole",
            size=HISTORY_SIZE,
        ),
        say("  say TEXT            a line in the table's chat"),
        say("  help                this list"),
        say("  quit                leave the table (in a hand: asks once, then folds it)"),
    )


HELP = help_text()


@dataclass(frozen=True, slots=True)
class Reply:
    """The answer to a command: the lines to show, and whether the session is over."""

    lines: tuple[str, ...]
    over: bool = False


class Game(ABC):
    """One person at one table, as the front ends drive it.

    ``start`` opens the game; while ``waiting`` is true the game waits for the person's
    next line (``command``). Else the game moves on: a paced game (offline) when the
    front end calls ``advance`` (the next hand is dealt), the network game by the room's
    frames (``listen``, each given to ``take``), which come while a line is awaited too.
    Every reply may end the session (``Reply.over``).
    """

    paced = False  # True: the front end deals the next hand when it likes (offline)

    def __init__(self, client: TableClient, name: str) -> None:
        self.client = client
        self.words = client.words  # the person's language
        self.name = name
        self.buy_in: int | None = None  # the chips the person sat down with
        self._quitting = False  # "quit" was typed once in a hand: the next one leaves
        self._folded: tuple[int, int] | None = None  # (hand, chips in) given up to leave

    @property
    def help_lines(self) -> tuple[str, ...]:
        return help_text(self.words)

    # ------------------------------------------------------------ to implement

    @abstractmethod
    def start(self) -> Reply:
        """Open the game: the first hand, or the table's lobby."""

    @abstractmethod
    def waiting(self) -> bool:
        """Whether the game waits for the person's next line."""

    def advance(self) -> Reply:
        """Move a paced game on while it does not wait for the person (deal the next
        hand); a game at the room is moved on by the room's frames alone."""
        raise NotImplementedError(f"{type(self).__name__} is moved on by the room's frames")

    @abstractmethod
    def send(self, command: RoomMessage) -> list[str]:
        """Give the room a command; the lines its answer adds now."""

    @abstractmethod
    def hand_back(self, back: int) -> list[str]:
        """The hand ``back`` hands ago (1 to ``hands_kept``), whole, as the person may
        see it (RULES.md 6)."""

    @abstractmethod
    def hands_kept(self) -> int:
        """How many finished hands ``last_hand`` can reach back over."""

    def listen(self) -> Iterator[Frame]:
        """Frames the room sends unasked, as they come (the network game's)."""
        return iter(())

    def lobby(self) -> list[str]:
        """The tables to choose from, in words, while the game waits for a choice (the
        person answers with a table's number)."""
        return []

    def close(self) -> None:
        """Let go of what the game holds open (the network game's connection)."""
        return None

    # ------------------------------------------------------------ the picture

    @property
    def quitting(self) -> bool:
        """Whether "quit" was given once in a hand and waits to be given again."""
        return self._quitting

    @property
    def stack(self) -> int:
        me = self.client.me()
        if me is not None:
            return me.stack
        return self.client.left_with or 0

    def legal(self) -> LegalActions | None:
        return self.client.legal

    def in_hand(self) -> bool:
        return self.client.in_hand()

    def title(self) -> str:
        return self.client.title()

    def table_lines(self) -> list[str]:
        return self.client.table_lines()

    def result_lines(self) -> list[str]:
        """How the hand just over ended: the person's result and who won which pot
        (nothing while a hand is being played)."""
        return self.client.result_lines()

    # ------------------------------------------------------------ commands

    def command(self, text: str) -> Reply:
        """One line from the person: an action, ``say``, ``last [N]``, ``help``, ``quit``."""
        words = text.lower().split()
        word = words[0] if words else ""
        confirmed, self._quitting = self._quitting, False
        if word in ("quit", "exit") and len(words) == 1:
            if self.in_hand() and not confirmed:
                self._quitting = True
                chips, say_n = self.client.put_in(), self.words.say_n
                if chips == 0:
                    said = self.words.say(
                        "Quitting now folds your hand (you have put no chips in). "
                        "Quit again to leave."
                    )
                else:
                    said = say_n(
                        "Quitting now folds your hand: the {count} chip you have put in is "
                        "lost. Quit again to leave.",
                        "Quitting now folds your hand: the {count} chips you have put in are "
                        "lost. Quit again to leave.",
                        chips,
                    )
                return Reply((said,))
            return self.quit()
        if word == "help" and len(words) == 1:
            return Reply(self.help_lines)
        if word == "last":
            return Reply(tuple(self._last_command(words[1:])))
        outcome = self.client.command(text)
        lines = list(outcome.lines)
        if outcome.send is not None:
            lines += self.send(outcome.send)
        return self._reply(lines)

    def quit(self) -> Reply:
        """Leave the table: a hand in play is given up (folded in turn; mucked at the
        showdown) and the chips go with the person when it is over."""
        hand = self.client.hand
        if hand is not None and self.in_hand():
            self._folded = (hand.number, self.client.put_in())
        if self.client.viewer is None:
            return Reply(tuple(self.goodbye()), over=True)
        reply = self._reply(self.send({"type": "leave", "table": self.client.table}))
        if reply.over or self.client.hand is None:
            return reply
        return Reply((*reply.lines, self.words.say("You leave the table when this hand is over.")))

    def take(self, frame: Frame) -> Reply:
        """A frame the room sent unasked, folded in: the lines it adds."""
        return self._reply(self.client.receive(frame))

    def _reply(self, lines: list[str]) -> Reply:
        """Lines to show; once the person has left their seat, the session's end."""
        if self.client.left_with is not None and self.client.viewer is None:
            return Reply((*lines, *self.goodbye()), over=True)
        return Reply(tuple(lines))

    def _last_command(self, words: list[str]) -> list[str]:
        if len(words) > 1 or (words and not words[0].isdecimal()):
            given = repr(" ".join(words))
            return [
                self.words.say(
                    "last takes how many hands back, like 'last 3', not {given}", given=given
                )
            ]
        return self.last_hand(int(words[0]) if words else 1)

    def last_hand(self, back: int = 1) -> list[str]:
        """The last hand, or the hand ``back`` hands ago, or why there is none."""
        kept = self.hands_kept()
        if not kept:
            return [self.words.say("No finished hand to show yet.")]
        if not 1 <= back <= kept:
            return [
                self.words.say_n(
                    "No hand {back} back: {count} finished hand kept, 'last 1' to 'last {kept}' "
                    "(the table keeps the last {size}).",
                    "No hand {back} back: {count} finished hands kept, 'last 1' to 'last {kept}' "
                    "(the table keeps the last {size}).",
                    kept,
                    back=back,
                    kept=kept,
                    size=HISTORY_SIZE,
                )
            ]
        return self.hand_back(back)

    # ------------------------------------------------------------ the end

    def goodbye(self) -> list[str]:
        """The hand given up to leave, if any, and the summary."""
        lines = []
        if self._folded is not None:
            number, put = self._folded
            if put == 0:
                said = self.words.say(
                    "You folded hand {number} to leave (you had put no chips in).", number=number
                )
            else:
                said = self.words.say_n(
                    "You folded hand {number} to leave: the {count} chip you had put in is lost.",
                    "You folded hand {number} to leave: the {count} chips you had put in are lost.",
                    put,
                    number=number,
                )
            lines.append(said)
        return lines + self.summary()

    def summary(self) -> list[str]:
        w = self.words
        played = self.client.hands_played
        lines = [
            w.say_n(
                "Session over: {count} hand played.", "Session over: {count} hands played.", played
            )
        ]
        if self.buy_in is not None:
            net = self.stack - self.buy_in
            lines.append(
                w.say_n(
                    "{name}: {count} chips, {net} on the buy-in of {buy_in}.",
                    "{name}: {count} chips, {net} on the buy-in of {buy_in}.",
                    self.stack,
                    name=self.name,
                    net=signed(net, w),
                    buy_in=w.number(self.buy_in),
                )
            )
        return lines

    def last_of(self, hands: int) -> str:
        """The line that ends a session of ``hands`` hands."""
        return self.words.say_n(
            "That was the last of your {count} hand.",
            "That was the last of your {count} hands.",
            hands,
        )


def signed(number: int, words: Words = ENGLISH) -> str:
    """A gain or a loss with its sign: "+12", "-3", "+0"."""
    return ("-" if number < 0 else "+") + words.number(abs(number))


def counted(number: int, noun: str) -> str:
    """A number of things in English words: \"1 hand\", \"3 hands\"."""
    return f"{number} {noun}{'' if number == 1 else 's'}"


__all__ = ["HELP", "Game", "Reply", "counted", "help_text", "signed"]
