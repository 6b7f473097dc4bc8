"""The full-screen terminal game (Textual): the table, your cards, your legal actions
with their amounts, and the dealer's chat."""

from __future__ import annotations

from typing import ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical
from textual.widgets import Button, Footer, Header, Input, RichLog, Static

from splitpot.rules import PotLimit
from splitpot.session import GameSession


class PokerApp(App[list[str]]):
    """You against the bots. Keys: f fold (or muck), c check or call (or show), r the
    smallest raise, p the largest (the pot in pot limit), a all in, l the last hand,
    / type a command, q quit."""

    CSS = """
    #table { height: auto; border: round $accent; padding: 0 1; }
    #cards { height: auto; padding: 0 1; color: $success; }
    #actions { height: 3; }
    #actions Button { min-width: 12; margin: 0 1 0 0; }
    #command { width: 1fr; }
    #chat { border: round $secondary; }
    """
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f", "fold_muck", "Fold/Muck"),
        Binding("c", "check_call", "Check/Call"),
        Binding("r", "raise_min", "Min raise"),
        Binding("p", "raise_max", "Max/Pot"),
        Binding("a", "act('allin')", "All in"),
        Binding("l", "last_hand", "Last hand"),
        Binding("q", "quit_game", "Quit"),
        Binding("slash", "type_command", "Type a command"),
        Binding("escape", "leave_command", "Keys", show=False),
    ]
    AUTO_FOCUS = None  # keys act at once; "/" moves to the command line

    def __init__(self, session: GameSession, deal_delay: float = 1.5) -> None:
        super().__init__()
        self.session = session
        self.deal_delay = deal_delay
        self.shown: list[str] = []  # every line written to the chat, in order
        self.title = "splitpot"
        config = session.table.config
        self.sub_title = f"{config.variant.title}"

    def compose(self) -> ComposeResult:
        yield Header()
        with Vertical():
            yield Static(id="table")
            yield Static(id="cards")
            with Horizontal(id="actions"):
                yield Button("Fold", id="fold", variant="error")
                yield Button("Check", id="check_call", variant="primary")
                yield Button("Raise", id="raise_min")
                yield Button("Max", id="raise_max")
                yield Button("All in", id="allin", variant="warning")
                yield Input(placeholder="/ to type: raise 12, bet 4, last, quit", id="command")
            yield RichLog(id="chat", wrap=True, markup=False)
        yield Footer()

    def on_mount(self) -> None:
        self._show(self.session.next_hand().lines)

    # ------------------------------------------------------------ actions

    def action_act(self, command: str) -> None:
        reply = self.session.command(command)
        self._show(reply.lines)
        if reply.over:
            self.exit(list(reply.lines))

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
        self._show(self.session.last_hand())

    def action_quit_game(self) -> None:
        self.exit(self.session.summary())

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "fold":
            self.action_fold_muck()
        elif event.button.id == "allin":
            self.action_act("allin")
        elif event.button.id == "check_call":
            self.action_check_call()
        elif event.button.id == "raise_min":
            self.action_raise_min()
        elif event.button.id == "raise_max":
            self.action_raise_max()

    def on_input_submitted(self, event: Input.Submitted) -> None:
        event.input.value = ""
        self.set_focus(None)
        if event.value.strip():
            self.action_act(event.value)

    # ------------------------------------------------------------ display

    def _show(self, lines: tuple[str, ...] | list[str]) -> None:
        chat = self.query_one("#chat", RichLog)
        for line in lines:
            chat.write(line)
            self.shown.append(line)
        self._refresh_table()
        if self.session.table.hand is None and self.session.stack != 0:
            self.set_timer(self.deal_delay, self._next_hand)

    def _next_hand(self) -> None:
        if self.session.table.hand is not None:
            return
        reply = self.session.next_hand()
        self._show(reply.lines)
        if reply.over:
            self.exit(list(reply.lines))

    def _refresh_table(self) -> None:
        lines = self.session.table_lines()
        cards = [line for line in lines if line.startswith(("Your cards", "Your move"))]
        table = [line for line in lines if line not in cards]
        self.query_one("#table", Static).update("\n".join(table))
        self.query_one("#cards", Static).update("\n".join(cards) or "Waiting for the next hand...")
        legal = self.session.legal()
        check_call = self.query_one("#check_call", Button)
        raise_min = self.query_one("#raise_min", Button)
        raise_max = self.query_one("#raise_max", Button)
        allin = self.query_one("#allin", Button)
        fold = self.query_one("#fold", Button)
        for button in (check_call, raise_min, raise_max, allin, fold):
            button.disabled = legal is None
        if legal is None:
            return
        check_call.label = "Check" if legal.check else f"Call {legal.call}"
        fold.label = "Fold"
        fold.disabled = not legal.fold
        if legal.show or legal.muck:  # a hand that wins nothing may be shown or mucked
            check_call.label, fold.label = "Show", "Muck"
            check_call.disabled, fold.disabled = not legal.show, not legal.muck
        kind = legal.bet_or_raise
        raise_min.disabled = kind is None
        raise_max.disabled = kind is None or legal.min_to == legal.max_to
        allin.disabled = not legal.all_in
        if kind is None:
            raise_min.label, raise_max.label = "Raise", "Max"
            return
        # Pot limit: the largest raise is the pot (RULES.md 3), offered as such.
        hand = self.session.table.hand
        pot_limit = hand is not None and isinstance(hand.hand.config.betting, PotLimit)
        raise_min.label = f"{kind.value.capitalize()} {legal.min_to}"
        raise_max.label = f"{'Pot' if pot_limit else 'Max'} {legal.max_to}"


def run(session: GameSession) -> int:
    """Play in the terminal; print the session's summary at the end."""
    summary = PokerApp(session).run()
    print("\n".join(summary or session.summary()))
    return 0
