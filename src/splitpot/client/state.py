"""What a screen shows of one table, folded from the room's frames (PROTOCOL.md,
docs/protocol.md): seats, stacks, bets, the button, the board (or both boards of a double
board or a board run twice, RULES.md 7), the pot, your cards, your legal actions, the
question to run it twice, the lines of the chat, and at a tournament's table its clock
(RULES.md 8: ``client.tournament``); and a person's words as the commands the room takes.

Pure: frames in, a picture and lines out, no I/O (the time now, for a tournament's clock,
from the ``clock`` it is given). The offline game feeds it frames made
in process (``client.local``), the network game the room's own (``client.remote``); the
dealer's words are the events' ``text`` (``splitpot.dealer``), never worked out here.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from splitpot.client.tournament import TournamentClock, clock_line
from splitpot.dealer import game_short_name, help_words, structure_words
from splitpot.engine import Action, LegalActions
from splitpot.evaluate import hand_help
from splitpot.i18n import ENGLISH, Words
from splitpot.protocol import hand_betting_from_json, legal_from_json
from splitpot.rules import Betting, Structure, Variant
from splitpot.table.view import action_words
from splitpot.tournament.levels import Schedule

Frame = Mapping[str, Any]  # one message of the room, decoded
RoomMessage = dict[str, Any]  # one message to the room

IN_HAND = ("playing", "all_in")  # seat statuses of a player holding live cards
NOT_NOW = ("illegal_action", "not_your_turn", "wrong_hand")  # refusals of an action
IN_THE_POT = ("dead", "ante", "bomb")  # posts that go to the pot, not in front of the seat
YES, NO = ("yes", "y"), ("no", "n")  # the answers to run it twice
STRADDLES = ("next", "always", "off")  # a player's straddle choice (RULES.md 7)


def game_title(variant: Variant, betting: Betting, words: Words = ENGLISH) -> str:
    """The game as a hand's first line names it: "Omaha Hi/Lo, Pot Limit 1/2"."""
    return words.say(
        "{game}, {structure} {stakes}",
        game=game_short_name(variant, words),
        structure=structure_words(betting, words),
        stakes=betting.stakes,
    )


@dataclass(frozen=True, slots=True)
class SeatPicture:
    """One occupied seat as the screen shows it; ``seat`` counts from 1, as the wire."""

    seat: int
    name: str
    stack: int  # chips behind
    bet: int = 0  # in front of the seat this betting round
    status: str = "waiting"  # the protocol's seat status
    cards: tuple[str, ...] | None = None  # the viewer's own, or shown
    last_action: str | None = None
    player: str | None = None  # the room's player id
    away: bool = False  # sits out: from the end of the hand in play, if dealt in it


@dataclass(frozen=True, slots=True)
class HandPicture:
    """The hand in play (or the one just over, until the next deal)."""

    id: str
    number: int
    street: str
    board: tuple[str, ...]
    total: int  # every chip in the middle, this round's bets included
    betting: Betting
    dealt: tuple[tuple[int, int], ...] = ()  # (seat, stack before the posts) of each seat dealt
    boards: tuple[tuple[str, ...], ...] = ()  # both boards, when two (the first is ``board``)
    runs: bool = False  # the two boards are the board run twice, not a double board


def board_names(runs: bool, words: Words = ENGLISH) -> tuple[str, str]:
    """What two boards are called, as the dealer calls them: "Board 1" and "Board 2", or
    "First run" and "Second run"."""
    if runs:
        return words.say("First run"), words.say("Second run")
    return words.say("Board {number}", number=1), words.say("Board {number}", number=2)


@dataclass(frozen=True, slots=True)
class TurnOffer:
    """The viewer is to act in ``hand``: what they may do, and by when (null: no clock)."""

    hand: str
    legal: LegalActions
    deadline: str | None


@dataclass(frozen=True, slots=True)
class RunItVote:
    """The viewer is asked to run it twice in ``hand`` (RULES.md 7), until ``deadline``
    (null: no clock); no answer counts as no."""

    hand: str
    deadline: str | None


@dataclass(frozen=True, slots=True)
class Outcome:
    """What a person's words come to: a command for the room, and lines to show now."""

    send: RoomMessage | None = None
    lines: tuple[str, ...] = ()


class TableClient:
    """One table as its viewer sees it, kept up to date frame by frame (``receive``).

    A ``table`` frame replaces everything (a snapshot: after ``watch``, ``sit`` or a
    reconnect); each ``event`` is folded in; an event the snapshot already holds (``seq``
    not above the snapshot's) is skipped. A ``turn`` gives the viewer's legal actions until
    the viewer acts or the hand ends.
    """

    def __init__(
        self,
        table: str | None = None,
        words: Words = ENGLISH,
        clock: Callable[[], datetime] | None = None,
    ) -> None:
        """``clock``: the time now, for the tournament's clock line (by default the
        computer's, in UTC)."""
        self.table = table  # None: the first snapshot's table
        self.words = words  # the viewer's language
        self.clock = clock or _utc_now
        self.summary: dict[str, Any] = {}
        self.seats: list[SeatPicture | None] = []
        self.viewer: int | None = None  # the viewer's seat (from 1); None: watching
        self.button: int | None = None
        self.hand: HandPicture | None = None
        self.last: HandPicture | None = None  # the hand just over, shown until the next deal
        self.turn: TurnOffer | None = None
        self.vote: RunItVote | None = None  # the viewer is asked to run it twice
        self.result: tuple[str, ...] = ()  # how the hand just over ended
        self.seq = 0
        self.hands_played = 0  # hands the viewer was dealt that ended
        self.left_with: int | None = None  # the stack the viewer cashed out, once left
        self._awards: list[str] = []
        # RULES.md 8: at a tournament's table, its clock; the schedule (from its lobby) to
        # work out what follows a new level; whether the viewer is out of the tournament.
        self.tournament: TournamentClock | None = None
        self.schedule: Schedule | None = None
        self.out = False
        self.unwatched: str | None = None  # why the room sends no more of the table

    def follow(self, table: str) -> None:
        """The viewer watches ``table`` now (a tournament moved them there): the old
        table's picture goes; the new one comes with its snapshot. The hands the viewer
        played and the tournament's schedule stay."""
        self.table, self.summary, self.seats, self.viewer = table, {}, [], None
        self.button, self.hand, self.last, self.turn, self.vote = None, None, None, None, None
        self.result, self.seq, self._awards, self.unwatched = (), 0, [], None

    # ------------------------------------------------------------ frames

    def receive(self, frame: Frame) -> list[str]:
        """Fold one frame in; return the lines it adds to the chat."""
        kind = frame.get("type")
        if kind == "table" and self.table is None:
            self.table = str(frame["table"])  # the first snapshot names the table
        if kind in ("table", "event", "turn", "chat") and frame.get("table") != self.table:
            return []  # another table's
        if kind == "table":
            self._snapshot(frame)
            return []
        if kind == "event":
            if frame["seq"] <= self.seq:
                return []  # already in the snapshot
            self.seq = frame["seq"]
            return self._event(frame["event"])
        if kind == "turn":
            self.turn = TurnOffer(
                frame["hand"], legal_from_json(frame["seat"], frame["legal"]), frame.get("deadline")
            )
            return []
        if kind == "chat":
            return [f"{frame['from']['name']}: {frame['text']}"]
        if kind == "error":
            return self.refused(str(frame["message"]), str(frame["code"]))
        if kind == "unwatched" and frame.get("table") == self.table:
            self.unwatched, self.turn, self.vote = str(frame.get("reason")), None, None
            text = frame.get("text")
            return [str(text)] if text else []
        return []

    def receive_all(self, frames: Iterable[Frame]) -> list[str]:
        return [line for frame in frames for line in self.receive(frame)]

    def refused(self, message: str, code: str = "illegal_action") -> list[str]:
        """A refusal in words; for an action, with what the viewer may do instead."""
        said, w = message.rstrip("."), self.words
        if code not in NOT_NOW:
            return [w.say("Refused: {reason}.", reason=said)]
        lines = [w.say("Not now: {reason}.", reason=said)]
        may = [w.say("You may: {moves}", moves=self.moves())]
        return lines + (may if self.turn is not None else [])

    def _snapshot(self, frame: Frame) -> None:
        state = frame["state"]
        self.seq = int(frame["seq"])
        self.summary = dict(state["table"])
        self.viewer = state.get("viewer")
        self.button = state.get("button")
        self.seats = [_seat(seat) for seat in state["seats"]]
        hand = state.get("hand")
        self.hand = None if hand is None else self._hand_from(hand)
        self.turn = None  # a turn follows when it is the viewer's
        asked = hand is not None and self.viewer in hand.get("run_it", ())
        self.vote = RunItVote(hand["id"], None) if asked else None
        block = state.get("tournament")
        self.tournament = None if block is None else TournamentClock.from_json(block)

    def _hand_from(self, hand: Frame) -> HandPicture:
        """The hand of a snapshot. Its starting stacks are those this client saw dealt
        (a reconnect within the hand), else the chips behind and in front of each seat
        dealt in (what earlier rounds took is not in a snapshot)."""
        if self.hand is not None and self.hand.id == hand["id"]:
            dealt = self.hand.dealt
        else:
            dealt = tuple(
                (s.seat, s.stack + s.bet)
                for s in self.occupied()
                if s.status in (*IN_HAND, "folded")
            )
        board = tuple(hand["board"])
        betting = hand_betting_from_json(hand)
        boards = tuple(tuple(cards) for cards in hand.get("boards", ()))
        # A snapshot does not say which: a table without a double board runs it twice.
        runs = bool(boards) and self.summary.get("double_board", "off") == "off"
        return HandPicture(
            hand["id"],
            hand["number"],
            hand["street"],
            board,
            hand["total"],
            betting,
            dealt,
            boards,
            runs,
        )

    def _event(self, event: Frame) -> list[str]:
        """Fold an event in (a kind this client does not know changes nothing); its lines
        are the dealer's words, a hand's start headed as the terminal game heads it, and
        what the viewer is to do (the question to run it twice)."""
        text = event.get("text")
        lines = text.split("\n") if text else []
        fold = _FOLDS.get(str(event["kind"]))
        said = None if fold is None else fold(self, event)
        if isinstance(said, str):
            return [said, *lines[1:]]
        return lines + (said or [])

    # ------------------------------------------------------------ events

    def _seat_at(self, seat: int) -> SeatPicture:
        picture = self.seats[seat - 1]
        assert picture is not None, f"an event names the empty seat {seat}"
        return picture

    def _change(self, seat: int, **fields: Any) -> None:
        self.seats[seat - 1] = replace(self._seat_at(seat), **fields)

    def _add_to_pot(self, chips: int) -> None:
        if self.hand is not None:
            self.hand = replace(self.hand, total=self.hand.total + chips)

    def _on_player_sat(self, event: Frame) -> None:
        seat = event["seat"]
        if len(self.seats) < seat:
            self.seats += [None] * (seat - len(self.seats))
        self.seats[seat - 1] = SeatPicture(
            seat, event["name"], event["stack"], player=event.get("player")
        )

    def _on_player_left(self, event: Frame) -> None:
        """A player leaves the seat. At a tournament's table no one cashes out: the
        viewer's seat goes when they are out, or moved to another table."""
        seat = event["seat"]
        self.seats[seat - 1] = None
        if seat == self.viewer:
            self.viewer, self.turn, self.vote = None, None, None
            if self.tournament is None:
                self.left_with = event["stack"]

    def _on_level(self, event: Frame) -> None:
        """RULES.md 8: a new level of the tournament, from the next hand."""
        if self.tournament is not None:
            self.tournament = self.tournament.at_level(event, self.clock())

    def _on_eliminated(self, event: Frame) -> None:
        """RULES.md 8: a player with no chips is out of the tournament (their place comes
        in the lobby)."""
        if event.get("seat") == self.viewer and self.viewer is not None:
            self.out = True

    def _on_sat_out(self, event: Frame) -> None:
        """A player dealt in the hand in play plays it out, and sits out after it."""
        seat = event["seat"]
        dealt = self.hand is not None and seat in dict(self.hand.dealt)
        self._change(seat, away=True, **({} if dealt else {"status": "sitting_out"}))

    def _on_sat_in(self, event: Frame) -> None:
        picture = self._seat_at(event["seat"])
        back = "waiting" if picture.status == "sitting_out" else picture.status
        self._change(picture.seat, away=False, status=back)

    def _on_chips_added(self, event: Frame) -> None:
        """Chips for a stack between hands (a top-up, or the host's edit): an empty one is
        dealt in again (one who missed blinds meanwhile still owes them; the next deal
        says so)."""
        picture = self._seat_at(event["seat"])
        busted = picture.stack == 0 and picture.status == "waiting" and self.hand is None
        self._change(
            picture.seat, stack=event["stack"], status="ready" if busted else picture.status
        )

    def _on_hand_started(self, event: Frame) -> str:
        betting = hand_betting_from_json(event)
        dealt = tuple((s["seat"], s["stack"]) for s in event["seats"])
        self.hand = HandPicture(event["hand"], event["number"], "preflop", (), 0, betting, dealt)
        self.last, self.result, self._awards, self.turn = None, (), [], None
        self.vote = None
        self.button = event["button"]
        in_hand = dict(dealt)
        for picture in self.occupied():
            if picture.seat in in_hand:
                self._change(
                    picture.seat,
                    stack=in_hand[picture.seat],
                    bet=0,
                    status="playing",
                    cards=None,
                    last_action=None,
                    away=False,
                )
            else:
                status = "sitting_out" if picture.away else "waiting"
                self._change(picture.seat, status=status, bet=0, cards=None, last_action=None)
        title = game_title(Variant.parse(event["variant"]), betting, self.words)
        return self.words.say("*** Hand {number}: {game} ***", number=event["number"], game=title)

    def _on_posted(self, event: Frame) -> None:
        picture, amount = self._seat_at(event["seat"]), event["amount"]
        in_front = event["post"] not in IN_THE_POT
        self._change(
            picture.seat,
            stack=picture.stack - amount,
            bet=picture.bet + (amount if in_front else 0),
            status="all_in" if event["all_in"] else picture.status,
        )
        self._add_to_pot(amount)

    def _on_dealt(self, event: Frame) -> None:
        if event.get("cards"):
            self._change(event["seat"], cards=tuple(event["cards"]))

    def _on_board(self, event: Frame) -> None:
        """Cards of the first board, or of the second (``board_number`` 2: a double board,
        or the second run, which holds the cards both runs share)."""
        hand = self.hand
        if hand is None:
            return
        board = tuple(event["board"])
        if event.get("board_number", 1) == 2:
            self.hand = replace(hand, boards=(hand.board, board))
            return
        boards = (board, hand.boards[1]) if hand.boards else ()
        self.hand = replace(hand, street=event["street"], board=board, boards=boards)

    def _on_run_it(self, event: Frame) -> list[str]:
        """The players still in are asked to run it twice; the viewer among them answers."""
        if self.hand is None or self.viewer not in event["seats"]:
            return []
        self.vote = RunItVote(self.hand.id, event.get("deadline"))
        seconds = event.get("seconds")
        if seconds is None:
            return [self.words.say("Run it twice? Answer yes or no.")]
        return [
            self.words.say_n(
                "Run it twice? Answer yes or no within {count} second (no answer: no).",
                "Run it twice? Answer yes or no within {count} seconds (no answer: no).",
                int(seconds),
            )
        ]

    def _on_run_it_answered(self, event: Frame) -> None:
        if event["seat"] == self.viewer:
            self.vote = None

    def _on_runs(self, event: Frame) -> None:
        """The answer: the board is dealt once, or twice (the second run to come)."""
        self.vote = None
        if self.hand is not None and event["times"] == 2:
            self.hand = replace(self.hand, runs=True)

    def _on_equity(self, event: Frame) -> list[str]:
        """The all-in equity of the hands face up (the room's ``equity`` event): each
        seat's share of the pot, and of each board's or run's part when there are two."""
        w = self.words
        lines = [w.say("Equity: {seats}", seats=self._chances(event["seats"]))]
        names = board_names(self.hand is not None and self.hand.runs, w)
        for board in event.get("boards", ()):
            seats = self._chances(board["seats"])
            lines.append(
                w.say("{board}: {seats}", board=names[board["board_number"] - 1], seats=seats)
            )
        return lines

    def _chances(self, seats: list[Frame]) -> str:
        """Seats' chances as percentages: "Ann 62% (high 71%, low 52%), Bob 38% (...)"."""
        w, low = self.words, self.variant.has_low
        said = []
        for seat in seats:
            chances = {
                "name": self._seat_at(seat["seat"]).name,
                "equity": w.number(round(100 * seat["equity"])),
                "high": w.number(round(100 * seat["high"])),
                "low": w.number(round(100 * seat["low"])),
            }
            if low:
                said.append(w.say("{name} {equity}% (high {high}%, low {low}%)", **chances))
            else:
                said.append(
                    w.say("{name} {equity}%", name=chances["name"], equity=chances["equity"])
                )
        return w.say_p("list", ", ").join(said)

    def _on_rabbit(self, event: Frame) -> None:
        """The rabbit hunt: the cards that would have come, as the dealer marks them,
        never dealt; shown under the last hand's result until the next deal."""
        if self.hand is None and event.get("text"):
            self.result = (*self.result, *event["text"].split("\n"))

    def _on_acted(self, event: Frame) -> None:
        picture, added = self._seat_at(event["seat"]), event["added"]
        action = event["action"]
        status = "folded" if action == "fold" else "all_in" if event["all_in"] else picture.status
        words = action_words(action, event["to"], added, event["all_in"])
        self._change(
            picture.seat,
            stack=picture.stack - added,
            bet=event["to"],
            status=status,
            last_action=words,
        )
        self._add_to_pot(added)
        if event["seat"] == self.viewer:
            self.turn = None

    def _on_round_ended(self, event: Frame) -> None:
        for picture in self.occupied():
            if picture.bet:
                self._change(picture.seat, bet=0)

    def _on_uncalled(self, event: Frame) -> None:
        picture, amount = self._seat_at(event["seat"]), event["amount"]
        self._change(picture.seat, stack=picture.stack + amount, bet=picture.bet - amount)
        self._add_to_pot(-amount)

    def _on_shown(self, event: Frame) -> None:
        """A hand shown at the showdown, or turned face up for an all-in run-out."""
        self._change(event["seat"], cards=tuple(event["cards"]))

    def _on_rake(self, event: Frame) -> None:
        self._add_to_pot(-event["amount"])

    def _on_pot_awarded(self, event: Frame) -> None:
        picture = self._seat_at(event["seat"])
        self._change(picture.seat, stack=picture.stack + event["amount"])
        self._add_to_pot(-event["amount"])
        if event.get("text"):
            self._awards += event["text"].split("\n")

    def _on_hand_ended(self, event: Frame) -> None:
        stacks = {entry["seat"]: entry["stack"] for entry in event["stacks"]}
        for seat, stack in stacks.items():
            picture = self.seats[seat - 1]
            if picture is not None:
                status = "sitting_out" if picture.away else "ready" if stack else "waiting"
                self._change(seat, stack=stack, bet=0, status=status)
        hand = self.hand
        self.hand, self.last, self.turn, self.vote = None, hand, None, None
        if self.tournament is not None:
            self.tournament = self.tournament.after_hand()
        if hand is None:
            return
        w = self.words
        lines = [w.say("Hand {number} is over.", number=hand.number)]
        start = dict(hand.dealt)
        if self.viewer in start and self.viewer in stacks:
            self.hands_played += 1
            net = stacks[self.viewer] - start[self.viewer]
            if net > 0:
                said = w.say(
                    "Hand {number} is over: you win {amount}.",
                    amount=w.number(net),
                    number=hand.number,
                )
            elif net < 0:
                said = w.say(
                    "Hand {number} is over: you lose {amount}.",
                    amount=w.number(-net),
                    number=hand.number,
                )
            else:
                said = w.say("Hand {number} is over: you break even.", number=hand.number)
            lines = [said]
        self.result = (*lines, *self._awards)

    # ------------------------------------------------------------ what it shows

    def occupied(self) -> list[SeatPicture]:
        return [seat for seat in self.seats if seat is not None]

    def me(self) -> SeatPicture | None:
        return None if self.viewer is None else self.seats[self.viewer - 1]

    @property
    def legal(self) -> LegalActions | None:
        return None if self.turn is None else self.turn.legal

    @property
    def variant(self) -> Variant:
        return Variant.parse(self.summary["variant"])

    def in_hand(self) -> bool:
        """Whether the viewer holds live cards in a hand being played."""
        me = self.me()
        return self.hand is not None and me is not None and me.status in IN_HAND

    def put_in(self) -> int:
        """The chips the viewer has put into the hand in play."""
        me, hand = self.me(), self.hand
        if me is None or hand is None or me.seat not in dict(hand.dealt):
            return 0
        return dict(hand.dealt)[me.seat] - me.stack

    def betting(self) -> Betting | None:
        """The structure of the hand in play, or of the last hand, or the table's first."""
        shown = self.hand or self.last
        if shown is not None:
            return shown.betting
        if not self.summary:
            return None
        return hand_betting_from_json(self.summary)

    def title(self) -> str:
        """The game for a header: the structure being played and, in a mixed game, that
        it is mixed ("Omaha Hi/Lo, Pot Limit 1/2 (Mixed Limit / Pot Limit)")."""
        betting = self.betting()
        if betting is None:
            return ""
        title = game_title(self.variant, betting, self.words)
        mixed = self.summary.get("structure") == Structure.MIXED.value
        return self.words.say("{game} (Mixed Limit / Pot Limit)", game=title) if mixed else title

    def free_seats(self) -> list[int]:
        return [n for n, seat in enumerate(self.seats, start=1) if seat is None]

    def seat_lines(self) -> list[str]:
        """Each seat: name, the button, stack, and bet, fold or sitting out."""
        lines, w = [], self.words
        for seat in self.occupied():
            mark = w.say(" (button)") if seat.seat == self.button else ""
            status = ""
            if seat.status == "folded":
                status = w.say(" folded")
            elif seat.status == "sitting_out":
                status = w.say(" sits out")
            elif seat.bet:
                status = w.say(" bet {amount}", amount=w.number(seat.bet))
            said = {"name": seat.name, "mark": mark, "stack": w.number(seat.stack)}
            lines.append(
                w.say(
                    "Seat {seat}: {name}{mark}: {stack}{status}",
                    seat=seat.seat,
                    status=status,
                    **said,
                )
            )
        return lines

    def board_line(self) -> str:
        """The board and the pot; two boards (or runs) each named."""
        shown = self.hand or self.last
        if shown is None:
            return ""
        w = self.words
        if shown.boards:
            first, second = board_names(shown.runs, w)
            return w.say(
                "{first}: {cards}   {second}: {more}   Pot: {pot}",
                first=first,
                cards=" ".join(shown.boards[0]) or w.say("(none yet)"),
                second=second,
                more=" ".join(shown.boards[1]) or w.say("(none yet)"),
                pot=w.number(shown.total),
            )
        board = " ".join(shown.board) or w.say("(none yet)")
        return w.say("Board: {cards}   Pot: {pot}", cards=board, pot=w.number(shown.total))

    def cards_line(self) -> str:
        """The viewer's hole cards with their best high and low as a hint."""
        me = self.me()
        if me is None or not me.cards or (self.hand or self.last) is None:
            return ""
        hint, cards = self.hint(), " ".join(me.cards)
        if hint:
            return self.words.say("Your cards: {cards}   ({hint})", cards=cards, hint=hint)
        return self.words.say("Your cards: {cards}", cards=cards)

    def hint(self) -> str:
        """The viewer's best high and low on the board so far (the hand helper); with two
        boards, on each ("Board 1: ...; Board 2: ...")."""
        me, shown = self.me(), self.hand or self.last
        if me is None or not me.cards or shown is None or len(shown.board) < 3:
            return ""
        hole, w = " ".join(me.cards), self.words
        if not shown.boards:
            return help_words(hand_help(self.variant, hole, " ".join(shown.board)), w)
        return w.say_p("list", "; ").join(
            w.say(
                "{board}: {hand}",
                board=name,
                hand=help_words(hand_help(self.variant, hole, " ".join(cards)), w),
            )
            for name, cards in zip(board_names(shown.runs, w), shown.boards, strict=True)
            if len(cards) >= 3
        )

    def moves(self) -> str:
        legal = self.legal
        return "" if legal is None else ", ".join(legal.describe())

    def move_line(self) -> str:
        if self.vote is not None:
            return self.words.say("Run it twice? yes or no")
        return (
            self.words.say("Your move: {moves}", moves=self.moves())
            if self.turn is not None
            else ""
        )

    def result_lines(self) -> list[str]:
        """How the hand just over ended (nothing while a hand is being played)."""
        return [] if self.hand is not None else list(self.result)

    def clock_line(self) -> str:
        """At a tournament's table, its clock: the level, what follows and when, hand for
        hand ("" elsewhere)."""
        if self.tournament is None:
            return ""
        return clock_line(self.tournament, self.clock(), self.words, self.schedule)

    def table_lines(self) -> list[str]:
        """The table as text: the tournament's clock, seats, stacks, bets, the button, the
        pot, the board, your cards and your legal actions."""
        clock = [self.clock_line()] if self.tournament is not None else []
        extra = (self.board_line(), self.cards_line(), self.move_line())
        return clock + self.seat_lines() + [line for line in extra if line]

    # ------------------------------------------------------------ words

    def command(self, text: str) -> Outcome:
        """A person's words as a command for the room: an action (``call``, ``raise 12``),
        ``say TEXT``, ``sit [SEAT [BUYIN]]`` (at a table by approval: asked of the host),
        ``sit out``, ``sit in``, ``top up [N]`` (or ``rebuy [N]``), ``wait`` and ``wait
        off`` (the full table's waiting list); or the lines that say why not."""
        words = text.split()
        word = words[0].lower() if words else ""
        if word in ("say", "chat"):
            said = text.strip()[len(word) :].strip()
            if not said:
                return Outcome(
                    lines=(self.words.say("{word} what? Like '{word} good luck'.", word=word),)
                )
            return Outcome({"type": "chat", "table": self.table, "text": said})
        if word == "sit":
            return self._sit(words[1:])
        if word in ("topup", "rebuy") or (word == "top" and text.lower().split()[1:2] == ["up"]):
            return self._top_up(words[2:] if word == "top" else words[1:])
        if word == "show" and [w.lower() for w in words[1:2]] == ["losing"]:
            return self._show_losing(words[2:])
        if word in (*YES, *NO) and len(words) == 1:
            return self._run_it(word in YES)
        if word == "straddle":
            return self._straddle([w.lower() for w in words[1:]])
        if word == "rabbit" and len(words) == 1:
            return self._rabbit()
        if word == "wait" and [w.lower() for w in words[1:]] in ([], ["off"]):
            return Outcome({"type": "waiting_list", "table": self.table, "join": len(words) == 1})
        turn = self.turn
        if turn is None:
            return Outcome(lines=(self.words.say("It is not your turn."),))
        try:
            action = Action.parse(text)
        except ValueError as error:
            return Outcome(lines=tuple(self.refused(str(error))))
        command: RoomMessage = {
            "type": "act",
            "table": self.table,
            "hand": turn.hand,
            "action": action.kind.value,
        }
        if action.amount is not None:
            command["amount"] = action.amount
        return Outcome(command)

    def _sit(self, words: list[str]) -> Outcome:
        """``sit out``, ``sit in``, or ``sit [SEAT [BUYIN]]``: by default the first free
        seat and the table's maximum buy-in."""
        if [w.lower() for w in words] in (["out"], ["in"]):
            return Outcome({"type": f"sit_{words[0].lower()}", "table": self.table})
        me, w = self.me(), self.words
        if me is not None:
            return Outcome(lines=(w.say("You sit in seat {seat} already.", seat=me.seat),))
        free = self.free_seats()
        if not all(word.isdecimal() for word in words) or len(words) > 2:
            given = repr(" ".join(words))
            return Outcome(
                lines=(
                    w.say(
                        "sit takes a seat and a buy-in, like 'sit 3 200', not {given}", given=given
                    ),
                )
            )
        if not free:
            return Outcome(lines=(w.say("Every seat is taken."),))
        seat = int(words[0]) if words else free[0]
        buy_in = int(words[1]) if len(words) == 2 else int(self.summary["max_buy_in"])
        return Outcome({"type": "sit", "table": self.table, "seat": seat, "buy_in": buy_in})

    def _show_losing(self, words: list[str]) -> Outcome:
        """``show losing on|off``: at the showdown the room shows this player's losing
        hands, or (the default) mucks them at once (docs/protocol.md ``preferences``)."""
        say = self.words.say
        if self.me() is None:
            return Outcome(lines=(say("Sit down first: the choice is a seated player's."),))
        choice = [w.lower() for w in words]
        if choice not in (["on"], ["off"]):
            given = repr(" ".join(words))
            return Outcome(lines=(say("show losing takes on or off, not {given}", given=given),))
        muck = choice == ["off"]
        if muck:
            said = say("Your losing hands are mucked at the showdown from now on.")
        else:
            said = say("Your losing hands are shown at the showdown from now on.")
        command = {"type": "preferences", "table": self.table, "muck_losing": muck}
        return Outcome(command, lines=(said,))

    def _run_it(self, yes: bool) -> Outcome:
        """``yes`` or ``no``: the viewer's answer to run it twice (RULES.md 7)."""
        vote = self.vote
        if vote is None:
            return Outcome(lines=(self.words.say("No one is asking you to run it twice."),))
        command = {"type": "run_it", "table": self.table, "hand": vote.hand, "yes": yes}
        return Outcome(command)

    def _straddle(self, words: list[str]) -> Outcome:
        """``straddle next|always|off``: post the straddle the next time the seat may
        (left of the big blind, four or more dealt in), every time, or no more."""
        say = self.words.say
        if self.me() is None:
            return Outcome(lines=(say("Sit down first: the choice is a seated player's."),))
        if not self.summary.get("straddle"):
            return Outcome(lines=(say("This table plays no straddle."),))
        if len(words) != 1 or words[0] not in STRADDLES:
            given = repr(" ".join(words))
            return Outcome(
                lines=(say("straddle takes next, always or off, not {given}", given=given),)
            )
        command = {"type": "straddle", "table": self.table, "straddle": words[0]}
        said = {
            "next": say("You straddle the next time you are left of the big blind."),
            "always": say("You straddle every time you are left of the big blind."),
            "off": say("You do not straddle."),
        }[words[0]]
        return Outcome(command, lines=(said,))

    def _rabbit(self) -> Outcome:
        """``rabbit``: the board that would have come, after a hand that ended early."""
        if not self.summary.get("rabbit_hunt"):
            return Outcome(lines=(self.words.say("This table does not hunt the rabbit."),))
        return Outcome({"type": "rabbit", "table": self.table})

    def _top_up(self, words: list[str]) -> Outcome:
        """``top up [N]``: chips from the balance between the player's hands, by default
        up to the table's maximum buy-in, as the page offers (the room says when not)."""
        me, w = self.me(), self.words
        if me is None:
            return Outcome(lines=(w.say("You have no seat to top up: sit down first."),))
        most = int(self.summary["max_buy_in"])
        if len(words) > 1 or (words and not (words[0].isdecimal() and int(words[0]) > 0)):
            like, given = max(most - me.stack, 1), repr(" ".join(words))
            said = w.say(
                "top up takes a number of chips, like 'top up {like}', not {given}",
                like=like,
                given=given,
            )
            return Outcome(lines=(said,))
        if not words and me.stack >= most:
            said = w.say(
                "Your stack is at the table's maximum buy-in, {most}.", most=w.number(most)
            )
            return Outcome(lines=(said,))
        amount = int(words[0]) if words else most - me.stack
        return Outcome({"type": "top_up", "table": self.table, "amount": amount})

    def broke(self) -> bool:
        """Whether the viewer sits with no chips and no hand in play: a top-up is due."""
        me = self.me()
        return me is not None and me.stack == 0 and me.status not in IN_HAND


_FOLDS: dict[str, Callable[[TableClient, Frame], str | list[str] | None]] = {
    "player_sat": TableClient._on_player_sat,
    "player_left": TableClient._on_player_left,
    "sat_out": TableClient._on_sat_out,
    "sat_in": TableClient._on_sat_in,
    "chips_added": TableClient._on_chips_added,
    "stack_edited": TableClient._on_chips_added,
    "hand_started": TableClient._on_hand_started,
    "posted": TableClient._on_posted,
    "dealt": TableClient._on_dealt,
    "board": TableClient._on_board,
    "run_it": TableClient._on_run_it,
    "run_it_answered": TableClient._on_run_it_answered,
    "runs": TableClient._on_runs,
    "rabbit": TableClient._on_rabbit,
    "equity": TableClient._on_equity,
    "acted": TableClient._on_acted,
    "round_ended": TableClient._on_round_ended,
    "uncalled": TableClient._on_uncalled,
    "face_up": TableClient._on_shown,
    "shown": TableClient._on_shown,
    "rake": TableClient._on_rake,
    "pot_awarded": TableClient._on_pot_awarded,
    "hand_ended": TableClient._on_hand_ended,
    "level": TableClient._on_level,
    "eliminated": TableClient._on_eliminated,
}  # the kinds that change the picture (docs/protocol.md, "event"); others only speak


def _utc_now() -> datetime:
    return datetime.now(UTC)


def _seat(seat: Frame) -> SeatPicture | None:
    if seat.get("player") is None:
        return None
    cards = seat.get("cards")
    return SeatPicture(
        seat["seat"],
        seat["name"],
        seat["stack"],
        seat.get("bet", 0),
        seat.get("status", "waiting"),
        None if cards is None else tuple(cards),
        seat.get("last_action"),
        seat["player"],
        seat.get("status") == "sitting_out",
    )


__all__ = [
    "Frame",
    "HandPicture",
    "Outcome",
    "RoomMessage",
    "RunItVote",
    "SeatPicture",
    "TableClient",
    "TurnOffer",
    "game_title",
]
