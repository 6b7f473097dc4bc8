"""The terminal client at a home game's table (RULES.md 7): real tables' frames (made by
the protocol layer, as the room makes them) folded into two boards or two runs, each share
labelled with its board, bomb and straddle posts, the question to run it twice answered,
the rabbit shown as never dealt; and the words for the new commands."""

from __future__ import annotations

import asyncio
from typing import Any

from test_client import Framing

from splitpot.bots import make_bot
from splitpot.cards import Deck
from splitpot.client.game import help_text
from splitpot.client.state import TableClient
from splitpot.dealer import Scene
from splitpot.engine import Action
from splitpot.equity import calculate
from splitpot.evaluate import Variant
from splitpot.protocol import (
    TableInfo,
    equity_event,
    event_message,
)
from splitpot.rules import FixedLimit, NoLimit, PotLimit
from splitpot.session import GameSession
from splitpot.table import DoubleBoard, Straddle, Table, TableConfig, TableEvent

NAMES = ("Ann", "Bob", "Cy", "Dee")


class Dealer(Framing):
    """A real table, its events made into frames for the player in seat 1 one table
    call at a time, as the room makes them."""

    def __init__(self, config: TableConfig, players: int, chips: int = 200) -> None:
        self.table = Table(config)
        for seat in range(players):
            self.table.sit(seat, NAMES[seat], chips)
        self.names = {seat: NAMES[seat] for seat in range(players)}
        self.players = {seat: str(seat + 1) for seat in self.names}
        self.info = TableInfo("t1", "Test", config)
        self.scene = Scene(config.variant)
        self.seq = 0
        self.client = TableClient()
        self.client.receive(self.snapshot())
        self.lines: list[str] = []

    def tell(self, events: list[TableEvent]) -> list[dict[str, Any]]:
        """The frames of ``events``, folded into the client too (its lines kept)."""
        frames = self.frames(events)
        self.lines += self.client.receive_all(frames)
        return frames

    def deal(self, seed: int) -> None:
        self.tell(self.table.deal(Deck(seed).cards, draw=Deck(seed + 1000).cards))

    def check_down(self) -> None:
        """Everyone checks (or calls what is due) to the showdown; every hand is shown."""
        while (current := self.table.hand) is not None and not self.table.run_it_seats:
            seat = self.table.seat_to_act
            assert seat is not None
            legal = current.hand.legal_actions()
            action = (
                Action.show()
                if legal.show
                else Action.check()
                if legal.check
                else Action.call()
                if legal.call is not None
                else Action.muck()
            )
            self.tell(self.table.act(seat, action))


def cards_of(board: Any) -> tuple[str, ...]:
    return tuple(str(card) for card in board if card is not None)


def test_a_double_board_bomb_pot_folds_into_both_boards_and_labelled_shares() -> None:
    """A bomb pot on two boards: the bombs go to the pot, not in front of the seats; each
    board is folded as it is dealt (and as a snapshot gives it); each share of the pot is
    told with its board, and the stacks come out as the table's."""
    config = TableConfig(
        Variant.O8, PotLimit(1, 2), bomb_pot=2, bomb_every=1, double_board=DoubleBoard.ALWAYS
    )
    dealer = Dealer(config, 3)
    client, table = dealer.client, dealer.table
    dealer.deal(6)  # the game's first hand is never a bomb pot: it needs a button
    while table.hand is not None:
        dealer.tell(table.act(table.seat_to_act or 0, Action.fold()))
    dealer.deal(7)
    assert client.hand is not None and client.hand.total == 12  # three bombs of 4
    assert [seat.bet for seat in client.occupied()] == [0, 0, 0]
    before = [p.stack for p in table.seats if p is not None]
    assert [seat.stack + 4 for seat in client.occupied()] == before
    current = table.hand
    assert current is not None
    engine = current.hand
    assert client.hand.boards == tuple(cards_of(b) for b in engine.boards)
    assert len(client.hand.boards[1]) == 3  # the flop on each board at once
    fresh = TableClient()
    fresh.receive(dealer.snapshot())
    assert fresh.hand is not None and fresh.hand.boards == client.hand.boards
    assert not fresh.hand.runs
    first, second = engine.boards
    assert client.board_line() == (
        f"Board 1: {' '.join(cards_of(first))}   Board 2: {' '.join(cards_of(second))}   Pot: 12"
    )
    dealer.check_down()
    assert client.hand is None and client.last is not None
    assert client.last.boards == tuple(cards_of(b) for b in engine.boards)
    assert [s.stack for s in client.occupied()] == [p.stack for p in table.seats if p is not None]
    result = engine.result
    assert result is not None and {a.board for a in result.awards} == {0, 1}
    told = client.result_lines()
    for award in result.awards:  # each share told with its board, by the dealer
        board = f"Board {award.board + 1}: "
        assert any(line.startswith(board) and NAMES[award.player] in line for line in told)


def test_the_question_to_run_it_twice_is_answered_and_both_runs_are_shown() -> None:
    """All in before the flop at a table that runs it twice: the client is asked, its
    "yes" is the room's command, and once both agree the runs are folded and named."""
    dealer = Dealer(TableConfig(Variant.O8, NoLimit(1, 2), run_it_twice=True), 2, chips=100)
    client, table = dealer.client, dealer.table
    assert client.command("yes").lines == ("No one is asking you to run it twice.",)
    dealer.deal(3)
    dealer.tell(table.act(table.seat_to_act or 0, Action.all_in()))
    dealer.tell(table.act(table.seat_to_act or 0, Action.call()))
    assert table.run_it_seats == (0, 1)
    assert client.vote is not None and client.vote.hand == "t1-1"
    assert "Run it twice? Answer yes or no." in dealer.lines
    assert client.move_line() == "Run it twice? yes or no"
    send = {"type": "run_it", "table": "t1", "hand": "t1-1"}
    assert client.command("yes").send == send | {"yes": True}
    assert client.command("N").send == send | {"yes": False}
    dealer.tell(table.answer_run_it(0, True))
    assert client.vote is None  # answered
    dealer.tell(table.answer_run_it(1, True))
    last = client.last
    assert last is not None and last.runs
    engine = table.history[-1].hand
    assert last.boards == tuple(cards_of(b) for b in engine.boards)
    assert client.board_line() == (
        f"First run: {' '.join(last.boards[0])}   Second run: {' '.join(last.boards[1])}   Pot: 0"
    )
    told = client.result_lines()
    assert any(line.startswith("First run: ") for line in told)
    assert any(line.startswith("Second run: ") for line in told)
    assert [s.stack for s in client.occupied()] == [p.stack for p in table.seats if p]


def test_the_question_names_its_seconds_and_a_snapshot_asks_again() -> None:
    client = TableClient()
    dealer = Dealer(TableConfig(Variant.O8, NoLimit(1, 2), run_it_twice=True), 2, chips=100)
    dealer.deal(3)
    dealer.tell(dealer.table.act(dealer.table.seat_to_act or 0, Action.all_in()))
    client.receive(dealer.snapshot())
    frames = dealer.tell(dealer.table.act(dealer.table.seat_to_act or 0, Action.call()))
    asked = next(f for f in frames if f["event"]["kind"] == "run_it")
    asked["event"] |= {"seconds": 10, "deadline": "2026-01-01T00:00:10.000Z"}
    lines = client.receive_all(frames)
    assert "Run it twice? Answer yes or no within 10 seconds (no answer: no)." in lines
    assert client.vote is not None and client.vote.deadline == "2026-01-01T00:00:10.000Z"
    fresh = TableClient()
    fresh.receive(dealer.snapshot())  # a reconnect while the players are asked
    assert fresh.vote is not None and fresh.vote.hand == "t1-1"


def test_a_straddle_is_posted_in_front_and_chosen_by_words() -> None:
    """The straddle is a live bet in front of its seat; ``straddle next|always|off`` is
    the room's command, refused in words where the table plays none."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), straddle=True)
    dealer = Dealer(config, 4)
    client, table = dealer.client, dealer.table
    outcome = client.command("straddle Next")
    assert outcome.send == {"type": "straddle", "table": "t1", "straddle": "next"}
    assert outcome.lines == ("You straddle the next time you are left of the big blind.",)
    assert client.command("straddle sometimes").lines == (
        "straddle takes next, always or off, not 'sometimes'",
    )
    dealer.tell(table.choose_straddle(1, Straddle.NEXT))  # Bob: left of the big blind
    dealer.deal(5)
    bets = {seat.name: seat.bet for seat in client.occupied()}
    straddler = next(name for name, bet in bets.items() if bet == 4)
    assert straddler == NAMES[1] and bets == {"Ann": 2, "Bob": 4, "Cy": 0, "Dee": 1}
    assert any("posts the straddle, 4" in line for line in dealer.lines)
    plain = Dealer(TableConfig(Variant.O8, FixedLimit(2, 4)), 2)
    assert plain.client.command("straddle next").lines == ("This table plays no straddle.",)
    assert plain.client.command("rabbit").lines == ("This table does not hunt the rabbit.",)


def test_the_rabbit_is_shown_as_never_dealt() -> None:
    """A hand over before the flop; the rabbit asked for: its cards are the deck's next
    ones, shown in the chat and under the hand's result, marked as never dealt."""
    config = TableConfig(Variant.O8, FixedLimit(2, 4), rabbit_hunt=True)
    dealer = Dealer(config, 2)
    client, table = dealer.client, dealer.table
    assert client.command("rabbit").send == {"type": "rabbit", "table": "t1"}
    dealer.deal(9)
    dealer.tell(table.act(table.seat_to_act or 0, Action.fold()))
    assert client.hand is None
    dealer.tell(table.rabbit_hunt(0))
    streets = table.history[-1].hand.rabbit()
    said = ", ".join(f"{d.street.label} {' '.join(cards_of(d.cards))}" for d in streets)
    line = f"Rabbit hunt, never dealt: {said}"
    assert line in dealer.lines
    assert client.result_lines()[-1] == line
    assert client.last is not None and client.last.board == ()  # nothing was dealt


def test_the_help_names_the_new_commands() -> None:
    said = "\n".join(help_text())
    assert "yes, no" in said and "straddle next|always|off" in said and "rabbit" in said


def play_offline(game: GameSession, answer: str, hands: int) -> list[str]:
    """The offline game for ``hands`` hands: all in at each turn, ``answer`` when asked
    to run it twice; every line it says."""
    reply = game.start()
    lines = list(reply.lines)
    while not reply.over and game.hands_started <= hands:
        if not game.waiting():
            reply = game.advance()
        elif game.client.vote is not None:
            reply = game.command(answer)
        else:
            assert game.client.turn is not None
            reply = game.command("allin")
        lines += reply.lines
    return lines


def test_the_offline_game_asks_the_person_to_run_it_twice() -> None:
    """Offline, the hand waits for the person's answer (the bot's comes after it), and
    the board is run twice when both agree; chips are neither made nor lost."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=2, run_it_twice=True)
    game = GameSession(config, bots=[make_bot("sensible", "Bot 1", 0)], seed=0, max_hands=1)
    lines = play_offline(game, "yes", 1)
    asked = lines.index("Run it twice? Answer yes or no.")
    assert lines[asked + 1 : asked + 4] == [
        "Hero agrees to run it twice",
        "Bot 1 agrees to run it twice",
        "The board is run twice",
    ]
    assert any(line.startswith("Second run, river: ") for line in lines)
    last = game.client.last
    assert last is not None and last.runs and len(last.boards[1]) == 5
    assert sum(seat.stack for seat in game.client.occupied()) == 400


def test_the_offline_game_runs_it_once_on_a_no() -> None:
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=2, run_it_twice=True)
    game = GameSession(config, bots=[make_bot("sensible", "Bot 1", 0)], seed=0, max_hands=1)
    lines = play_offline(game, "no", 1)
    assert "Hero declines to run it twice" in lines and "The board is run once" in lines
    last = game.client.last
    assert last is not None and last.boards == () and len(last.board) == 5


def test_the_offline_game_hunts_the_rabbit_and_takes_a_straddle() -> None:
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=4, rabbit_hunt=True, straddle=True)
    game = GameSession(config, seed=1, max_hands=2)  # the hand ends before the river
    reply = game.command("straddle always")
    assert reply.lines == (
        "You straddle every time you are left of the big blind.",
        "Hero will straddle every time in the straddle seat",
    )
    game.start()
    while game.client.hand is not None:
        game.command("fold" if game.client.turn is not None else "check")
    rabbit = game.command("rabbit").lines
    assert len(rabbit) == 1 and rabbit[0].startswith("Rabbit hunt, never dealt: ")
    assert game.client.result_lines()[-1] == rabbit[0]
    assert game.command("rabbit").lines == ("Not now: the rabbit of hand 1 is already shown.",)


def test_the_full_screen_game_answers_with_its_buttons() -> None:
    """All in heads-up at a table that runs it twice: the two answers show as buttons
    (and keys) only while the person is asked; "y" runs it twice."""
    from textual.widgets import Button

    from splitpot.tui import PokerApp

    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=2, run_it_twice=True)
    game = GameSession(config, bots=[make_bot("sensible", "Bot 1", 0)], seed=0, max_hands=1)

    def shown(app: PokerApp) -> set[str]:
        return {str(b.id) for b in app.query(Button) if b.display and "run" in str(b.id)}

    async def drive() -> None:
        app = PokerApp(game, deal_delay=60.0)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert shown(app) == set()
            await pilot.press("a")  # all in; the bot calls
            await pilot.pause()
            assert shown(app) == {"run_twice", "run_once"}
            assert "Run it twice? yes or no" in str(app.query_one("#cards").content)
            await pilot.press("y")
            await pilot.pause()
            assert shown(app) == set()
            assert "The board is run twice" in app.shown
            assert game.client.last is not None and game.client.last.runs

    asyncio.run(drive())


def test_the_equity_line_gives_each_boards_chances() -> None:
    """The room's equity event on a double board: the whole pot's chances, then each
    board's, every seat by name, in percent."""
    config = TableConfig(Variant.O8, PotLimit(1, 2), double_board=DoubleBoard.ALWAYS)
    dealer = Dealer(config, 2)
    dealer.deal(2)
    current = dealer.table.hand
    assert current is not None
    while len(current.hand.board) < 3:  # called and checked to the flop
        legal = current.hand.legal_actions()
        action = Action.call() if legal.call else Action.check()
        dealer.tell(dealer.table.act(dealer.table.seat_to_act or 0, action))
    first, second = (tuple(c for c in board if c is not None) for board in current.hand.boards)
    holes = ["".join(str(c) for c in current.hand.holes[p] if c is not None) for p in (0, 1)]
    result = calculate(
        holes,
        board="".join(map(str, first)),
        boards=2,
        second_board="".join(map(str, second)),
        method="exact",
    )
    event = equity_event("t1-1", [0, 1], first, result, boards=[first, second])
    lines = dealer.client.receive(event_message("t1", dealer.seq + 1, event))

    def said(seats: list[dict[str, Any]]) -> str:
        return ", ".join(
            f"{NAMES[s['seat'] - 1]} {round(100 * s['equity'])}% "
            f"(high {round(100 * s['high'])}%, low {round(100 * s['low'])}%)"
            for s in seats
        )

    assert lines == [
        f"Equity: {said(event['seats'])}",
        f"Board 1: {said(event['boards'][0]['seats'])}",
        f"Board 2: {said(event['boards'][1]['seats'])}",
    ]
    assert lines[1] != lines[2].replace("Board 2", "Board 1")  # the boards differ
