"""The full-screen terminal game (Textual): the table, your cards, your legal actions
with their amounts, and the chat (the dealer's lines and the players').

It drives a ``client.game.Game``: offline (``GameSession``) it deals the next hand itself
after a pause; at the room (``RemoteGame``) a worker thread reads the room's frames and
hands each to the game on the screen's own thread, and a lobby lists the tables. At a
tournament's table (RULES.md 8) the tournament's clock heads the table, its time counted
down each second."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import ClassVar

from rich.console import Group
from rich.table import Table as Grid
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.screen import Screen
from textual.timer import Timer
from textual.widgets import Button, Footer, Header, Input, OptionList, RichLog, Static

from splitpot.client.game import Game, Reply
from splitpot.client.state import Frame
from splitpot.engine import LegalActions
from splitpot.i18n import ENGLISH, Words, marked
from splitpot.rules import Structure

CARD = re.compile(r"\b([2-9TJQKA])([shdc])\b")
SYMBOLS = {"s": "♠", "h": "♥", "d": "♦", "c": "♣"}
# Four colours (spades in the text colour: black on a light screen, white on a dark one);
# two colours: the red suits red, the black suits in the text colour.
FOUR_COLOURS = {"s": "bold", "h": "bold red1", "d": "bold dodger_blue1", "c": "bold green3"}
TWO_COLOURS = {"s": "bold", "h": "bold red1", "d": "bold red1", "c": "bold"}


def keys_text(words: Words = ENGLISH) -> str:
    """The keys, for the help."""
    return words.say(
        "Keys: f fold (muck), c check or call (show), r the smallest bet or raise, p the pot "
        "(or the most), a all in, y or n when asked to run it twice: twice or once, l the last "
        "hand (again: one more back), / type a command, ? help, q quit."
    )


KEYS = keys_text()


def coloured(line: str, two_colour: bool = False) -> Text:
    """A line with each card as its rank and suit symbol in the suit's colour (no name
    reads as a card: the session refuses such names)."""
    colours = TWO_COLOURS if two_colour else FOUR_COLOURS
    text = Text()
    at = 0
    for card in CARD.finditer(line):
        text.append(line[at : card.start()])
        text.append(card[1] + SYMBOLS[card[2]], colours[card[2]])
        at = card.end()
    text.append(line[at:])
    return text


class LobbyScreen(Screen[int]):
    """The room's tables: pick one with the arrows and enter (q leaves)."""

    def __init__(self, tables: Sequence[str], words: Words = ENGLISH) -> None:
        super().__init__()
        self.tables = tables
        self.words = words

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(self.words.say("Pick a table (arrows, enter); q leaves."), id="lobby-help")
        yield OptionList(*self.tables, id="tables")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#tables", OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        self.dismiss(event.option_index)


class PokerApp(App[list[str]]):
    """A game at one table. Keys: f fold (or muck), c check or call (or show), r the
    smallest raise, p the largest (the pot in pot limit), a all in, y or n the answer when
    asked to run it twice, l the last hands, / type a command (say TEXT chats), ? help,
    q quit (asked once in a hand)."""

    CSS = """
    #table { height: auto; padding: 0 1; background: $boost; }
    #cards { height: auto; max-height: 4; padding: 0 1; }
    #actions { height: 1; margin: 1 0 0 0; }
    #actions Button { width: auto; min-width: 8; margin: 0 1 0 0; }
    #command { width: 1fr; }
    #chat { height: 1fr; min-height: 10; border: round $secondary; }
    #lobby-help { padding: 0 1; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fold_muck", marked("Fold/Muck")),
        Binding("c", "check_call", marked("Check/Call")),
        Binding("r", "raise_min", marked("Min raise")),
        Binding("p", "raise_max", marked("Max/Pot")),
        Binding("a", "act('allin')", marked("All in")),
        Binding("y", "act('yes')", marked("Run it twice"), show=False),
        Binding("n", "act('no')", marked("Run it once"), show=False),
        Binding("l", "last_hand", marked("Last hands")),
        Binding("q", "quit_game", marked("Quit")),
        Binding("slash", "type_command", marked("Command")),
        Binding("question_mark", "act('help')", marked("Help")),
        Binding("escape", "leave_command", marked("Keys"), show=False),
    ]
    AUTO_FOCUS = None  # keys act at once; "/" moves to the command line

    def __init__(
        self,
        session: Game,
        deal_delay: float = 2.0,
        two_colour: bool = False,
        opening: Reply | None = None,
    ) -> None:
        """``opening`` is the answer of ``session.start()`` when the caller has started
        the game already (to report a room out of reach before the screen opens)."""
        super().__init__()
        self.session = session
        self.words = words = session.words
        self._opening = opening
        # The keys' names in the footer, in the person's words.
        for key, binding in list(self._bindings.key_to_bindings.items()):
            self._bindings.key_to_bindings[key] = [
                replace(each, description=words.say(each.description)) if each.description else each
                for each in binding
            ]
        self.deal_delay = deal_delay
        self.two_colour = two_colour
        self.shown: list[str] = []  # every line written to the chat, in order
        self.title = "splitpot"
        self.sub_title = session.title()
        self._back = 0  # how far back the "l" key has gone since the last deal
        self._deal: Timer | None = None
        self._choosing = False  # the lobby is open
        self.farewell: list[str] = []  # the last lines, when the game ends without q

    def compose(self) -> ComposeResult:
        yield Header()
        yield Static(id="table")
        yield Static(id="cards")
        say = self.words.say
        with Horizontal(id="actions"):
            yield Button(say("Sit"), id="sit", variant="success", compact=True)
            yield Button(say("Top up"), id="top_up", variant="success", compact=True)
            yield Button(say("Fold"), id="fold", variant="error", compact=True)
            yield Button(say("Check"), id="check_call", variant="primary", compact=True)
            yield Button(say("Raise"), id="raise_min", compact=True)
            yield Button(say("Max"), id="raise_max", compact=True)
            yield Button(say("All in"), id="allin", variant="warning", compact=True)
            yield Button(say("Run it twice"), id="run_twice", variant="success", compact=True)
            yield Button(say("Run it once"), id="run_once", compact=True)
            yield Input(
                placeholder=say("/ to type: raise 12, say hi, last 3"), id="command", compact=True
            )
        yield RichLog(id="chat", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._answer(self._opening or self.session.start())
        self.run_worker(self._listen, thread=True, exit_on_error=False)
        self.set_interval(1.0, self._tick)

    def _tick(self) -> None:
        """A tournament's clock counts down the time to its next level."""
        if self.session.client.tournament is not None:
            self._refresh_table()

    def on_unmount(self) -> None:
        """Leaving another way than with q (ctrl+q) gives up a hand in play as q does;
        then the game lets go of the room (the worker thread's frames end)."""
        if self.return_value is None:
            self.farewell = list(self.session.quit().lines)
        self.session.close()

    # ------------------------------------------------------------ the room

    def _listen(self) -> None:
        """A worker thread: the room's frames, each handed to the game on the screen's
        thread (the game is only ever touched there)."""
        for frame in self.session.listen():
            try:
                self.call_from_thread(self._take, frame)
            except RuntimeError:  # the screen has closed: the frames are no one's now
                return

    def _take(self, frame: Frame) -> None:
        self._answer(self.session.take(frame))

    def _chose(self, index: int | None) -> None:
        self._choosing = False
        if index is not None:
            self.action_act(str(index + 1))

    # ------------------------------------------------------------ actions

    def action_act(self, command: str) -> None:
        reply = self.session.command(command)
        if command.strip().lower() == "help":
            reply = Reply((*reply.lines, keys_text(self.words)))
        self._answer(reply)
        if self.session.quitting:
            self.notify(reply.lines[0], title=self.words.say("Quit?"))

    def action_check_call(self) -> None:
        legal = self.session.legal()
        if legal is not None:
            self.action_act("show" if legal.show else "check" if legal.check else "call")

    def action_fold_muck(self) -> None:
        legal = self.session.legal()
        if legal is not None:
            self.action_act("muck" if legal.muck else "fold")

    def action_raise_min(self) -> None:
        legal = self.session.legal()
        if legal is not None and legal.bet_or_raise is not None:
            self.action_act(f"{legal.bet_or_raise.value} {legal.min_to}")

    def action_raise_max(self) -> None:
        legal = self.session.legal()
        if legal is not None and legal.bet_or_raise is not None:
            self.action_act(f"{legal.bet_or_raise.value} {legal.max_to}")

    def action_type_command(self) -> None:
        self.query_one("#command", Input).focus()

    def action_leave_command(self) -> None:
        self.set_focus(None)

    def action_last_hand(self) -> None:
        """The last hand; pressed again, one hand further back (RULES.md 6: the last 50),
        and past the oldest hand kept, the last one again."""
        kept = self.session.hands_kept()
        self._back = self._back % kept + 1 if kept else 1
        self._show(self.session.last_hand(self._back))

    def action_quit_game(self) -> None:
        self.action_act("quit")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.set_focus(None)  # the keys act at once again
        if event.button.id in ("sit", "top_up"):
            self.action_act(str(event.button.id).replace("_", " "))
        elif event.button.id == "fold":
            self.action_fold_muck()
        elif event.button.id == "allin":
            self.action_act("allin")
        elif event.button.id in ("run_twice", "run_once"):
            self.action_act("yes" if event.button.id == "run_twice" else "no")
        elif event.button.id == "check_call":
            self.action_check_call()
        elif event.button.id == "raise_min":
            self.action_raise_min()
        elif event.button.id == "raise_max":
            self.action_raise_max()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """A typed command; a leading slash is allowed, as in chat programs (/say hi)."""
        event.input.value = ""
        self.set_focus(None)
        text = event.value.strip().removeprefix("/")
        if text:
            self.action_act(text)

    # ------------------------------------------------------------ the game

    def _answer(self, reply: Reply) -> None:
        """Show a reply; leave when the session is over; offline, deal again when a hand
        is over; at the room, open the lobby while the game waits for a table."""
        self._show(reply.lines)
        session = self.session
        if reply.over:
            self.exit(list(reply.lines))
        elif session.paced and session.client.hand is None and self._deal is None:
            self._deal = self.set_timer(self.deal_delay, self._next_hand)
        elif session.lobby() and not self._choosing:
            self._choosing = True
            self.push_screen(LobbyScreen(session.lobby(), self.words), self._chose)
        elif self._choosing and not session.lobby() and isinstance(self.screen, LobbyScreen):
            self.screen.dismiss(None)  # a seat kept from an earlier run: no table to choose

    def _next_hand(self) -> None:
        self._deal = None
        if self.session.client.hand is None:
            self._back = 0
            self._answer(self.session.advance())

    # ------------------------------------------------------------ display

    def _text(self, lines: Iterable[str]) -> Text:
        return Text("\n").join(coloured(line, self.two_colour) for line in lines)

    def _show(self, lines: Sequence[str]) -> None:
        chat = self.query_one("#chat", RichLog)
        for line in lines:
            chat.write(coloured(line, self.two_colour))
            self.shown.append(line)
        self._refresh_table()

    def _refresh_table(self) -> None:
        client = self.session.client
        self.sub_title = client.title()
        seats = client.seat_lines()
        grid = Grid.grid(expand=True)
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        grid.add_column(ratio=1, no_wrap=True, overflow="ellipsis")
        rows = (len(seats) + 1) // 2  # seats down the left column, then the right one
        for row in range(rows):
            right = seats[row + rows] if row + rows < len(seats) else ""
            grid.add_row(self._text([seats[row]]), self._text([right]))
        # The board's row is always there, so the buttons below never move under the mouse.
        grid.add_row(self._text([client.board_line()]), "")
        if client.tournament is None:
            self.query_one("#table", Static).update(grid)
        else:  # RULES.md 8: the level, and what comes when, over the whole width
            clock = Text(client.clock_line(), "bold", overflow="ellipsis", no_wrap=True)
            self.query_one("#table", Static).update(Group(clock, grid))
        # The result of a hand stays until the next hand is dealt.
        lines = client.result_lines() or [client.cards_line(), client.move_line()]
        self.query_one("#cards", Static).update(self._text(line for line in lines if line))
        self._refresh_buttons(client.legal)
        # Asked to run it twice (RULES.md 7): the two answers.
        for answer in ("#run_twice", "#run_once"):
            self.query_one(answer, Button).display = client.vote is not None
        # At the room, a watcher may sit down, and a player add chips between their hands.
        # Not at a tournament's: the tournament seats its players, with its own chips.
        cash = client.tournament is None
        self.query_one("#sit", Button).display = (
            cash and client.viewer is None and bool(client.summary)
        )
        self.query_one("#top_up", Button).display = cash and self._may_top_up()

    def _may_top_up(self) -> bool:
        """At the room, a seated player short of the most a buy-in takes, not dealt in the
        hand in play (the room's rule for a top-up)."""
        client = self.session.client
        me, hand = client.me(), client.hand
        if me is None or self.session.paced or me.stack >= int(client.summary["max_buy_in"]):
            return False
        return hand is None or me.seat not in dict(hand.dealt)

    def _refresh_buttons(self, legal: LegalActions | None) -> None:
        """Label the buttons with their amounts and hide those not legal now."""
        buttons = {
            name: self.query_one(f"#{name}", Button)
            for name in ("fold", "check_call", "raise_min", "raise_max", "allin")
        }
        shown = dict.fromkeys(buttons, False)
        say = self.words.say
        if legal is not None and (legal.show or legal.muck):  # the showdown
            buttons["check_call"].label, buttons["fold"].label = say("Show"), say("Muck")
            shown["check_call"], shown["fold"] = legal.show, legal.muck
        elif legal is not None:
            buttons["fold"].label = say("Fold")
            if legal.check:
                buttons["check_call"].label = say("Check")
            else:
                buttons["check_call"].label = say("Call {amount}", amount=legal.call)
            shown["fold"], shown["allin"] = legal.fold, legal.all_in
            shown["check_call"] = legal.check or legal.call is not None
            kind = legal.bet_or_raise
            if kind is not None:
                if kind.value == "bet":
                    buttons["raise_min"].label = say("Bet {amount}", amount=legal.min_to)
                else:
                    buttons["raise_min"].label = say("Raise {amount}", amount=legal.min_to)
                # Pot limit: the largest raise is the pot (RULES.md 3), offered as such.
                betting = self.session.client.betting()
                pot = betting is not None and betting.structure is Structure.POT_LIMIT
                most = {"amount": legal.max_to}
                buttons["raise_max"].label = (
                    say("Pot {amount}", **most) if pot else say("Max {amount}", **most)
                )
                shown["raise_min"] = True
                # The largest is offered when it differs from the smallest and from all in.
                all_in = legal.all_in and legal.max_to == legal.all_in_to
                shown["raise_max"] = legal.min_to != legal.max_to and not all_in
        for name, button in buttons.items():
            button.display = shown[name]


def run(session: Game, two_colour: bool = False) -> int:
    """Play in the terminal; print the session's summary at the end. The game starts
    before the screen opens: a room out of reach is a ``ConnectionError`` here."""
    app = PokerApp(session, two_colour=two_colour, opening=session.start())
    print("\n".join(app.run() or app.farewell))
    return 0
