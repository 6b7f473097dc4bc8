"""PokerStars text hand histories: read Omaha hands, and write them.

Read: Omaha Hi/Lo (limit, pot limit, no limit), five-card Omaha Hi/Lo and Omaha high,
cash and tournament, a board run twice (``*** FIRST FLOP ***``, ``SECOND Board``), and the
home game's posts and double board as splitpot writes them (docs/history.md). Other games
are recognised and skipped with a reason; a hand that cannot be read is reported with the
reason, and reading goes on with the next one. Money is read in the smallest unit of the
file: cents for cash games, chips for tournaments.

A hand is whole when the next hand or the blank lines after its summary follow it. The
file's last hand without them (real files often end so) is read only when its summary is
whole: the total pot and rake, a line for each player in the hand if it lists seats, and,
when the file stops without a newline, a last line whole by its shape (a seat's line, the
board); otherwise it is reported cut off, never read as a hand with ``Total pot 34`` for
``Total pot 348``.

RULES.md 8: a tournament hand is written and read as PokerStars prints one (``Tournament
#12, 100+10 Omaha Hi/Lo Pot Limit - Level III (20/40)``, ``Table '12 2'``, the antes
posted), its chips tournament chips; its tournament's name, which PokerStars' hands never
print, on splitpot's own last line of the summary (``Tournament name: ...``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import UTC, datetime
from decimal import Decimal, InvalidOperation
from enum import Enum
from zoneinfo import ZoneInfo

from splitpot.cards import Card, format_cards, parse_cards
from splitpot.engine import (
    Acted,
    Action,
    ActionKind,
    BoardDealt,
    Hand,
    HandResult,
    Mucked,
    Post,
    Posted,
    PostKind,
    RunsChosen,
    Share,
    Shown,
    Street,
    UncalledBetReturned,
)
from splitpot.evaluate import HighHand, LowHand
from splitpot.history import report
from splitpot.history.model import (
    MOST_CHIPS,
    HandRecord,
    HistoryError,
    PlayerRecord,
    RecordedAction,
    RecordedOutcome,
    TournamentRecord,
    Unreadable,
    UnsupportedHand,
)
from splitpot.reading import shown
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Structure, Variant

HEADER = re.compile(
    r"^PokerStars (?:Home Game |Zoom )?(?:Hand|Game)\s*#?(?P<id>\d*)\s*:\s*(?P<rest>.*)$"
)
GAME = re.compile(
    r"(?P<cards>[56] Card )?(?P<game>Omaha Hi/Lo|Omaha|Hold'em|Razz|7 Card Stud Hi/Lo|"
    r"7 Card Stud|Triple Draw 2-7 Lowball|Single Draw 2-7 Lowball|5 Card Draw|Badugi|"
    r"Courchevel Hi/Lo|Courchevel)"
    r"\s+(?P<limit>Pot Limit|No Limit|Fixed Limit|Limit)"
)
MONEY = r"[$€£]?[\d,]+(?:\.\d+)?"
STAKES = re.compile(rf"(?P<small>{MONEY})/(?P<big>{MONEY})")
BUTTON = re.compile(r"Seat #(?P<seat>\d+) is the button")
SEAT = re.compile(
    rf"^Seat (?P<seat>\d+): (?P<name>.+?) \((?P<stack>{MONEY}) in chips[^)]*\)(?P<rest>.*)$"
)
STREET = re.compile(
    r"^\*\*\* (?:(?P<board>FIRST|SECOND) )?(?P<street>FLOP|TURN|RIVER) \*\*\* (?P<cards>.*)$"
)
TOURNAMENT = re.compile(  # RULES.md 8: the entry is "$11+$1 USD", "100+9" or "Freeroll"
    r"Tournament #(?P<id>\d+), (?P<entry>Freeroll|\S+?)(?: (?P<iso>[A-Z]{3}))?(?= )"
)
LEVEL = re.compile(r"\bLevel (?P<level>[IVXLCDM]+) ")
TABLE = re.compile(r"^Table '(?P<name>[^']*)'")
TOURNAMENT_NAME = "Tournament name: "  # splitpot's line: PokerStars' hands print no name
ROMAN = (
    ("M", 1000), ("CM", 900), ("D", 500), ("CD", 400), ("C", 100), ("XC", 90), ("L", 50),
    ("XL", 40), ("X", 10), ("IX", 9), ("V", 5), ("IV", 4), ("I", 1),
)  # fmt: skip
RUN_TWICE = "Hand was run twice"  # the summary's line after a board run twice
DOUBLE_BOARD = "Hand was played on two boards"  # splitpot's line: PokerStars deals none
UNCALLED = re.compile(rf"^Uncalled bet \((?P<amount>{MONEY})\) returned to (?P<name>.+)$")
COLLECTED = re.compile(
    rf"^(?P<name>.+) collected (?P<amount>{MONEY}) from (?:the )?(?:main |side )?pot"
)
TOTAL = re.compile(rf"^Total pot (?P<total>{MONEY}).*?(?:\| Rake (?P<rake>{MONEY}))?\s*$")
SUMMARY_SEAT = re.compile(r"^Seat (?P<seat>\d+): ")  # a seat's line in the summary
SEAT_ENDED = re.compile(  # a summary's seat line as PokerStars ends one: not cut short
    r"^Seat \d+: .+? (?:folded (?:before Flop|on the (?:Flop|Turn|River))(?: \(didn't bet\))?"
    rf"|collected \({MONEY}\)|mucked(?: \[[^\]]*\])?"
    rf"|showed \[[^\]]*\] and (?:won \({MONEY}\)|lost)(?: with .+)?)"
    r"(?: \(pot not awarded as player cashed out\))?$"
)
BOARD_ENDED = re.compile(r"^(?:(?:FIRST|SECOND) )?Board \[[^\]]*\]$")  # the summary's board
SUMMARY_CARDS = re.compile(
    r"^Seat \d+: (?P<who>.+?) (?:\(.*?\) )*(?:mucked|showed) \[(?P<cards>[^\]]+)\]"
)
ALL_IN = " and is all-in"
IGNORED_VERBS = (
    "is sitting out", "sits out", "is disconnected", "is connected", "has timed out",
    "has returned", "is capped", "said,", "leaves the table", "joins the table",
)  # fmt: skip
POSTED = {  # the posts read by their words alone (the blinds are read apart)
    "posts the ante": PostKind.ANTE,
    "posts straddle": PostKind.STRADDLE,
    "posts kill blind": PostKind.KILL,
    "posts bomb pot": PostKind.BOMB,
}
VARIANTS = {
    ("", "Omaha Hi/Lo"): Variant.O8,
    ("5 Card ", "Omaha Hi/Lo"): Variant.BIGO,
    ("", "Omaha"): Variant.OMAHA,
}


def decode(data: bytes) -> str:
    """Text of a hand-history file: UTF-8 (with or without a byte-order mark), UTF-16,
    or, failing those, Windows-1252."""
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return data.decode("utf-16", errors="replace")  # a cut file ends in half a character
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        return data.decode("cp1252", errors="replace")


class _HandEnd(Enum):
    """How the file marks a hand's end: the next hand, or the blank lines PokerStars puts
    between hands, follow a whole hand. A file that stops in a hand's summary without
    them may have been cut there; one that stops inside a line (no newline after it) may
    have cut that line short."""

    MARKED = "marked"  # the next hand or a blank line follows
    FILE_ENDS = "file ends"  # the file stops after the hand's last line and its newline
    LINE_CUT = "line cut"  # the file stops inside the hand's last line: no newline


def split_hands(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each hand's lines, with the number of its first line in the file."""
    lines = [line.rstrip().lstrip("\ufeff") for line in text.splitlines()]
    start: int | None = None
    for number, line in enumerate(lines):
        if HEADER.match(line):
            if start is not None:
                yield start + 1, lines[start:number]
            start = number
    if start is not None:
        yield start + 1, lines[start:]


def read_pokerstars(text: str) -> tuple[list[HandRecord], list[Unreadable]]:
    """Every Omaha hand of a file, and the hands that could not be read."""
    hands: list[HandRecord] = []
    problems: list[Unreadable] = []
    found = list(split_hands(text))
    for index, (line_number, lines) in enumerate(found):
        header = HEADER.match(lines[0])
        assert header is not None
        hand_id = header["id"] or f"at line {line_number}"
        last = line_number + max(i for i, line in enumerate(lines) if line.strip())
        end = _hand_end(lines, text) if index == len(found) - 1 else _HandEnd.MARKED
        try:
            hands.append(_HandReader(hand_id, lines, end).read())
        except UnsupportedHand as error:
            problems.append(Unreadable(hand_id, line_number, str(error), True, last))
        except ValueError as error:  # HistoryError, CardError, an amount the rules refuse
            problems.append(Unreadable(hand_id, line_number, str(error), False, last))
    return hands, problems


def _hand_end(lines: list[str], text: str) -> _HandEnd:
    """How the file marks the end of its last hand (``lines``): a blank line after the
    summary ends it (what follows, a piece of a next hand's first line, is not the
    hand's); else the file stops in it, after a newline or inside the last line."""
    summary = next((i for i, line in enumerate(lines) if line.startswith("*** SUMMARY ***")), None)
    if summary is None or "" in lines[summary:]:
        return _HandEnd.MARKED  # a hand without a summary is cut off all the same
    return _HandEnd.FILE_ENDS if text.endswith(("\n", "\r")) else _HandEnd.LINE_CUT


@dataclass(frozen=True, slots=True)
class _Game:
    """What a hand's first line says: the game and its stakes, in the file's money."""

    variant: Variant
    name: str  # as the file names it: "Omaha Hi/Lo Limit"
    limit: str  # "Limit", "Fixed Limit", "Pot Limit" or "No Limit"
    small: int
    big: int
    currency: str
    tournament: _Tournament | None = None

    @property
    def fixed_limit(self) -> bool:
        return self.limit in ("Limit", "Fixed Limit")

    @property
    def big_blind(self) -> int:
        """The limit stakes name the bets: the big blind is the small bet (RULES.md 4.1)."""
        return self.small if self.fixed_limit else self.big


@dataclass(frozen=True, slots=True)
class _Tournament:
    """What a tournament hand's first line says of its tournament (RULES.md 8): the
    entry in the smallest unit of its money (cents of "$11+$1 USD"), and the entry as
    written when the record cannot say it all (a currency, a bounty)."""

    id: int
    buy_in: int
    fee: int
    level: int
    entry: str | None


class _HandReader:
    """One hand's lines read in steps: the header, the seats, the body (posts, deals,
    actions, boards, chips back, the summary), then the posts and actions in the engine's
    terms, and the record."""

    def __init__(self, hand_id: str, lines: list[str], end: _HandEnd = _HandEnd.MARKED) -> None:
        self.hand_id = hand_id
        self.end = end
        self.lines = [line for line in lines if line.strip()]
        self.scale = 1
        self.seats: dict[str, tuple[int, int]] = {}  # name: (seat, stack)
        self.names_longest_first: list[str] = []
        self.in_hand: set[str] = set()
        self.events: list[tuple[str, str, str]] = []  # (section, name, text)
        self.board: list[Card] = []
        self.second: list[Card] = []  # RULES.md 7: the second board, or the second run's
        self.shared: int | None = None  # board cards dealt before the FIRST street
        self.run_twice = False
        self.known: dict[str, tuple[Card, ...]] = {}
        self.uncalled: dict[str, int] = {}
        self.collected: dict[str, int] = {}
        self.total_pot: int | None = None
        self.rake: int | None = None
        self.pots: tuple[int, ...] | None = None
        self.tournament_id: int | None = None  # RULES.md 8: a tournament hand's
        self.table_number: int | None = None  # the table in its tournament
        self.tournament_name = ""

    def money(self, text: str) -> int:
        try:
            value = Decimal(text.strip().lstrip("$€£").replace(",", "")) * self.scale
        except InvalidOperation as error:
            raise HistoryError(f"{text!r} is not an amount") from error
        if value != value.to_integral_value():
            raise HistoryError(f"amount {text} is finer than the smallest unit")
        if value > MOST_CHIPS:
            raise HistoryError(f"amount {shown(text)} is more than splitpot counts")
        return int(value)

    def read(self) -> HandRecord:
        game = self._header()
        self._check_whole()
        button_seat, body = self._seats()
        self._body(self.lines[body:])
        self._check_ended()
        names, button = self._players(button_seat)
        posts, actions = self._posts_and_actions(names, game.big_blind)
        betting = self._betting(game, posts)
        holes = tuple(self._hole(n, self.known.get(n, ()), game.variant.hole_cards) for n in names)
        outcome = RecordedOutcome(
            collected=tuple(self.collected.get(n, 0) for n in names),
            uncalled=tuple(self.uncalled.get(n, 0) for n in names),
            total_pot=self.total_pot,
        )
        twice = self.run_twice or bool(self.shared)  # only two runs share cards
        config = GameConfig(
            game.variant,
            betting,
            max((post.amount for post in posts if post.kind is PostKind.ANTE), default=0),
            boards=2 if self.second and not twice else 1,
            run_it_twice=twice,
        )
        return HandRecord(
            id=self.hand_id,
            game=game.name,
            config=config,
            players=tuple(PlayerRecord(n, *self.seats[n]) for n in names),
            button=button,
            posts=posts,
            holes=holes,
            board=tuple(self.board),
            actions=actions,
            rake=self.rake,
            pots=self.pots,
            outcome=outcome,
            unit="0.01" if self.scale == 100 else "1",
            currency=game.currency,
            second_board=tuple(self.second),
            runs=2 if twice else None,
            extra={"buy_in": game.tournament.entry}
            if game.tournament and game.tournament.entry
            else {},
            tournament=self._tournament(game.tournament),
        )

    def _tournament(self, tournament: _Tournament | None) -> TournamentRecord | None:
        """RULES.md 8: the hand's tournament, its table and name as the hand gives them."""
        if tournament is None:
            return None
        assert self.table_number is not None  # read with the seats
        return TournamentRecord(
            tournament.id,
            self.tournament_name,
            tournament.buy_in,
            tournament.fee,
            tournament.level,
            self.table_number,
        )

    # ---------------------------------------------------------- header and seats

    def _header(self) -> _Game:
        """The game, the file's money (cents for cash games, chips for tournaments) and
        the stakes."""
        header = HEADER.match(self.lines[0])
        assert header is not None
        rest = header["rest"]
        game = GAME.search(rest)
        if game is None and not any(line.startswith("*** SUMMARY ***") for line in self.lines):
            raise HistoryError("the hand is cut off before its summary")  # in its first line
        if game is None:
            raise UnsupportedHand(f"the game of {shown(rest)} is not one splitpot knows")
        name = f"{game['cards'] or ''}{game['game']} {game['limit']}"
        variant = VARIANTS.get((game["cards"] or "", game["game"]))
        if variant is None:
            raise UnsupportedHand(f"{name} is not a game splitpot plays")
        sign = re.search(r"[$€£]", rest)
        tournament = None
        if "Tournament" not in rest[: game.start()]:
            self.scale = 100 if sign else 1
        else:
            tournament = self._entry(rest, game.start(), game.end())
            self.tournament_id = tournament.id
        currency = sign[0] if sign and self.scale == 100 else ""
        stakes = STAKES.search(rest, game.end())
        if stakes is None:
            raise HistoryError(f"no stakes in the header {rest!r}")
        small, big = self.money(stakes["small"]), self.money(stakes["big"])
        return _Game(variant, name, game["limit"], small, big, currency, tournament)

    def _entry(self, rest: str, game_starts: int, game_ends: int) -> _Tournament:
        """RULES.md 8: the tournament of the header: its number, its entry (a free roll;
        buy-in and fee; buy-in, bounty and fee) and the level of the hand."""
        tournament = TOURNAMENT.search(rest, 0, game_starts)
        if tournament is None:
            raise HistoryError(f"the header {rest!r} has no 'Tournament #N, <buy-in>'")
        level = LEVEL.search(rest, game_ends)
        number = roman_number(level["level"]) if level else None
        if number is None:
            raise HistoryError(f"the header {rest!r} has no level 'Level <I, II, ...>'")
        entry = tournament["entry"]
        parts = [] if entry == "Freeroll" else entry.split("+")
        if len(parts) > 3:
            raise HistoryError(f"the tournament's entry {entry!r} is not a buy-in and a fee")
        signed = any(sign in entry for sign in "$€£")
        amounts = [self._entry_amount(part, 100 if signed else 1) for part in parts] or [0]
        written = f"{entry} {tournament['iso']}" if tournament["iso"] else entry
        return _Tournament(
            int(tournament["id"]),
            amounts[0],
            amounts[-1] if len(amounts) > 1 else 0,
            number,
            written if signed or len(parts) == 3 else None,
        )

    @staticmethod
    def _entry_amount(text: str, scale: int) -> int:
        """A part of a tournament's entry in the smallest unit of its money."""
        try:
            value = Decimal(text.lstrip("$€£").replace(",", "")) * scale
        except InvalidOperation as error:
            raise HistoryError(f"the tournament's entry has {text!r}, not an amount") from error
        if value != value.to_integral_value() or not 0 <= value <= MOST_CHIPS:
            raise HistoryError(f"the tournament's entry has {text!r}, not an amount")
        return int(value)

    def _check_whole(self) -> None:
        """A hand splitpot can replay: not cancelled, not cut off."""
        if any(line.startswith("Hand cancelled") for line in self.lines):
            raise HistoryError("the hand was cancelled")
        if not any(line.startswith("*** SUMMARY ***") for line in self.lines):
            raise HistoryError("the hand is cut off before its summary")

    def _check_ended(self) -> None:
        """A hand the file stops in, with no blank line after it, may be cut short in its
        summary: it is whole when the summary has its total pot and rake and, if it lists
        seats, a line for each player in the hand, as PokerStars' summaries have; and when
        the file stops inside its last line (no newline), that line is whole by its shape,
        a seat's or the board's (``Total pot 34`` of ``Total pot 348 | Rake 0`` would read
        as a wrong pot)."""
        if self.end is _HandEnd.MARKED:
            return
        cut = "the hand is cut off in its summary"
        last = self.lines[-1]
        if self.end is _HandEnd.LINE_CUT and not (
            SEAT_ENDED.match(last) or BOARD_ENDED.match(last)
        ):
            raise HistoryError(f"{cut}: the file ends inside {shown(last)}")
        start = next(i for i, line in enumerate(self.lines) if line.startswith("*** SUMMARY ***"))
        summary = self.lines[start + 1 :]
        pot = next((line for line in summary if line.startswith("Total pot")), None)
        if pot is None:
            raise HistoryError(f"{cut}, before the total pot")
        total = TOTAL.match(pot)
        if total is None or total["rake"] is None:  # PokerStars prints "| Rake 0" for none
            raise HistoryError(f"{cut}: {shown(pot)} has no rake")
        listed = {int(seat["seat"]) for line in summary if (seat := SUMMARY_SEAT.match(line))}
        unlisted = sorted({self.seats[name][0] for name in self.in_hand} - listed)
        if listed and unlisted:  # a summary of the pots alone, as a hand written short
            raise HistoryError(f"{cut}, before the line of seat {unlisted[0]}")

    def _seats(self) -> tuple[int, int]:
        """The button's seat and every seat's player and stack; returns the button's seat
        and where the body of the hand begins."""
        button = BUTTON.search(self.lines[1]) if len(self.lines) > 1 else None
        if button is None:
            raise HistoryError("no button line ('Seat #N is the button')")
        self._table(self.lines[1])
        at = 2
        while at < len(self.lines) and (seat := SEAT.match(self.lines[at])):
            self.seats[seat["name"]] = (int(seat["seat"]), self.money(seat["stack"]))
            at += 1
        if not self.seats:
            raise HistoryError("no seats")
        self.names_longest_first = sorted(self.seats, key=len, reverse=True)
        return int(button["seat"]), at

    def _table(self, line: str) -> None:
        """RULES.md 8: a tournament's table is named ``'<tournament> <table>'``."""
        if self.tournament_id is None:
            return
        table = TABLE.match(line)
        name = table["name"] if table else ""
        number = re.fullmatch(rf"{self.tournament_id} (?P<table>[1-9]\d*)", name)
        if number is None:
            raise HistoryError(
                f"the table {name!r} of tournament #{self.tournament_id} is not named "
                "'<tournament> <table>'"
            )
        self.table_number = int(number["table"])

    # ------------------------------------------------------------------- the body

    def _body(self, lines: list[str]) -> None:
        """Posts, deals, actions, boards, chips back and the summary, line by line."""
        section = "posts"
        for line in lines:
            if line.startswith("*** HOLE CARDS ***"):
                section = "betting"
            elif line.startswith("*** SUMMARY ***"):
                section = "summary"
            elif street := STREET.match(line):
                self._street(line, street)
            elif line.startswith("*** "):
                continue  # *** SHOW DOWN *** and the like
            elif section == "summary":
                self._summary(line)
            elif line.startswith("Dealt to "):
                self._dealt(line)
            elif not self._chips_back(line):
                self._said(section, line)

    def _street(self, line: str, street: re.Match[str]) -> None:
        """A street's new cards (the last bracket). RULES.md 7: a ``SECOND`` street's go on
        the second board, which a second run begins with the cards dealt before the first
        ``FIRST`` street (none on a double board)."""
        cards = re.findall(r"\[([^\]]*)\]", street["cards"])
        if not cards:
            raise HistoryError(f"no cards on the line {line!r}")
        new = parse_cards(cards[-1])
        if street["board"] == "SECOND":
            if not self.second:
                self.second = self.board[: self.shared or 0]
            self.second.extend(new)
            return
        if street["board"] == "FIRST" and self.shared is None:
            self.shared = len(self.board)
        self.board.extend(new)

    def _summary(self, line: str) -> None:
        """The total pot, the rake and the pots; a board run twice; cards shown or mucked;
        a tournament's name (RULES.md 8, splitpot's line)."""
        if line.startswith(RUN_TWICE):
            self.run_twice = True
        elif line.startswith(TOURNAMENT_NAME):
            self.tournament_name = line.removeprefix(TOURNAMENT_NAME)
        elif total := TOTAL.match(line):
            self.total_pot = self.money(total["total"])
            self.rake = self.money(total["rake"]) if total["rake"] else 0
            listed = re.findall(rf"(?:Main|Side) pot(?:-\d+)? ({MONEY})", line)
            self.pots = tuple(self.money(amount) for amount in listed) or None
        elif shown := SUMMARY_CARDS.match(line):
            who = next((n for n in self.names_longest_first if shown["who"].startswith(n)), None)
            if who is not None:
                self.known[who] = parse_cards(shown["cards"])

    def _dealt(self, line: str) -> None:
        dealt = re.match(r"^Dealt to (?P<name>.+?) (?:\[[^\]]*\] )?\[(?P<cards>[^\]]+)\]$", line)
        if dealt and dealt["name"] in self.seats:
            self.known[dealt["name"]] = parse_cards(dealt["cards"])
            self.in_hand.add(dealt["name"])

    def _chips_back(self, line: str) -> bool:
        """An uncalled bet returned or chips collected from a pot; False for other lines."""
        if uncall := UNCALLED.match(line):
            name = uncall["name"]
            self.uncalled[name] = self.uncalled.get(name, 0) + self.money(uncall["amount"])
            return True
        if collect := COLLECTED.match(line):
            name = collect["name"]
            if name in self.seats:
                self.collected[name] = self.collected.get(name, 0) + self.money(collect["amount"])
            return True
        return False

    def _said(self, section: str, line: str) -> None:
        """A player's post, action, show or muck; table chatter is passed over."""
        said = self._actor(line)
        if said is None:
            return  # "X joins the table", "Betting is capped", ...
        name, text = said
        if text.startswith(IGNORED_VERBS):
            return
        if text.startswith("shows ["):
            self.known[name] = parse_cards(text[7 : text.index("]")])
        self.in_hand.add(name)
        self.events.append((section, name, text))

    def _actor(self, line: str) -> tuple[str, str] | None:
        for name in self.names_longest_first:
            if line.startswith(name + ": "):
                return name, line[len(name) + 2 :].strip()
        return None

    # ------------------------------------------------------ in the engine's terms

    def _players(self, button_seat: int) -> tuple[list[str], int]:
        """The players in the hand in seat order, and the index of the button."""
        order = sorted((self.seats[n][0], n) for n in self.in_hand)
        # A dead button (on an empty seat) deals from the next seat on: the engine's button
        # is then the last player before it.
        before = [i for i, (seat, _) in enumerate(order) if seat <= button_seat]
        return [n for _, n in order], before[-1] if before else len(order) - 1

    def _posts_and_actions(
        self, names: list[str], big_blind: int
    ) -> tuple[tuple[Post, ...], tuple[RecordedAction, ...]]:
        index = {n: i for i, n in enumerate(names)}
        posts: list[Post] = []
        actions: list[RecordedAction] = []
        blinds_seen: set[PostKind] = set()
        for section, name, text in self.events:
            if section == "posts":
                posts += self._post(index[name], name, text, big_blind, blinds_seen)
            elif (action := self._action(text)) is not None:
                actions.append(RecordedAction(index[name], action))
        # Antes first, then blinds (the order posts go in).
        posts.sort(key=lambda post: post.kind is not PostKind.ANTE)
        return tuple(posts), tuple(actions)

    def _post(
        self, player: int, name: str, text: str, big_blind: int, blinds_seen: set[PostKind]
    ) -> list[Post]:
        amount = text.removesuffix(ALL_IN).rsplit(" ", 1)[-1]
        if text.startswith("posts small & big blinds"):
            total = self.money(amount)
            both = [Post(player, PostKind.LIVE, min(big_blind, total))]
            if total > big_blind:
                both.append(Post(player, PostKind.DEAD, total - big_blind))
            return both
        if text.startswith(("posts small blind", "posts big blind")):
            # A second small or big blind is a live post, not the positional blind (a
            # returning player; the converted 'secondsb' hands).
            big = text.startswith("posts big blind")
            blind = PostKind.BIG_BLIND if big else PostKind.SMALL_BLIND
            kind = PostKind.LIVE if blind in blinds_seen else blind
            blinds_seen.add(blind)
            return [Post(player, kind, self.money(amount))]
        for words, kind in POSTED.items():
            if text.startswith(words):
                return [Post(player, kind, self.money(amount))]
        raise HistoryError(f"{name}: {text!r} is not a post splitpot knows")

    @staticmethod
    def _betting(game: _Game, posts: tuple[Post, ...]) -> FixedLimit | PotLimit | NoLimit:
        """The stakes. A kill pot's header gives the bets the kill raised (RULES.md 7); its
        big blind, when posted, is the table's own."""
        if game.fixed_limit:
            sb = next(
                (p.amount for p in posts if p.kind is PostKind.SMALL_BLIND),
                max(game.small // 2, 1),
            )
            bb = game.small
            if any(p.kind is PostKind.KILL for p in posts):
                bb = next((p.amount for p in posts if p.kind is PostKind.BIG_BLIND), bb)
            return FixedLimit(game.small, game.big, small_blind=sb, big_blind=bb)
        kind = PotLimit if game.limit == "Pot Limit" else NoLimit
        return kind(game.small, game.big)

    @staticmethod
    def _hole(name: str, cards: tuple[Card, ...], count: int) -> tuple[Card | None, ...]:
        """The known hole cards; a player who showed only some has the rest unknown."""
        if len(cards) > count:
            raise HistoryError(f"{name} holds {len(cards)} cards in a game of {count}")
        return (*cards, *(None,) * (count - len(cards)))

    def _action(self, text: str) -> Action | None:
        words = text.removesuffix(ALL_IN).split()
        verb = words[0] if words else ""
        if verb == "folds":
            return Action.fold()
        if verb == "checks":
            return Action.check()
        if verb == "calls":
            return Action.call()
        if verb == "bets" and len(words) == 2:
            return Action.bet(self.money(words[1]))
        if verb == "raises" and len(words) == 4 and words[2] == "to":
            return Action.raise_to(self.money(words[3]))
        if verb == "shows":
            return Action.show()
        if text.startswith(("mucks hand", "doesn't show hand")):
            return Action.muck()
        if verb in ("discards", "stands", "brings", "draws"):
            raise UnsupportedHand(f"{text!r} is not an action of Omaha")
        raise HistoryError(f"{text!r} is not an action splitpot knows")


def roman(number: int) -> str:
    """A level as PokerStars numbers it, in Roman numerals: 14 is ``XIV``."""
    if number < 1:
        raise HistoryError(f"level {number} has no Roman numeral: levels count from 1")
    letters = []
    for letter, value in ROMAN:
        count, number = divmod(number, value)
        letters.append(letter * count)
    return "".join(letters)


def roman_number(text: str) -> int | None:
    """The number of a level's Roman numeral as ``roman`` writes it; None for text that
    is not one (``IIII``, ``VX``)."""
    number, rest = 0, text
    for letter, value in ROMAN:
        while rest.startswith(letter):
            number, rest = number + value, rest[len(letter) :]
    return number if number and roman(number) == text else None


# ------------------------------------------------------------------ writing

_GAME_NAMES = {
    Variant.O8: "Omaha Hi/Lo",
    Variant.BIGO: "5 Card Omaha Hi/Lo",
    Variant.OMAHA: "Omaha",
}
_LIMIT_NAMES = {  # PokerStars writes "Omaha Hi/Lo Limit", not "Fixed Limit"
    Structure.FIXED_LIMIT: "Limit",
    Structure.POT_LIMIT: "Pot Limit",
    Structure.NO_LIMIT: "No Limit",
}
_POST_WORDS = {
    PostKind.SMALL_BLIND: "small blind",
    PostKind.BIG_BLIND: "big blind",
    PostKind.LIVE: "big blind",
    PostKind.STRADDLE: "straddle",  # as the sites that deal straddles write it
    PostKind.KILL: "kill blind",  # RULES.md 7; PokerStars deals no kill pots
    PostKind.ANTE: "the ante",
    PostKind.BOMB: "bomb pot",  # RULES.md 7; PokerStars deals no bomb pots
}
_RUNS = ("FIRST", "SECOND")  # the boards (or runs) as PokerStars names them
_POSITIONS = {PostKind.SMALL_BLIND: "(small blind)", PostKind.BIG_BLIND: "(big blind)"}
_FOLDED = {  # the summary's words for where a player folded
    Street.PREFLOP: "before Flop",
    Street.FLOP: "on the Flop",
    Street.TURN: "on the Turn",
    Street.RIVER: "on the River",
}
NO_TIME = datetime(2026, 1, 1, tzinfo=UTC)  # the time of a hand that has none (a simulation)
Money = Callable[[int], str]


def game_name(variant: Variant) -> str:
    """PokerStars' name of the game; HistoryError, naming the variant, when it has none.

    PokerStars deals no Hi/Lo without a qualifier, and its "Omaha Hi/Lo" means eight or
    better: a file calling o-hilo-noq hands that would make every reader (splitpot's own
    too) award lows the game never had. Ask before playing the hands to write.
    """
    name = _GAME_NAMES.get(variant)
    if name is None:
        raise HistoryError(
            f"PokerStars text has no name for the game {variant.value} ({variant.title}): "
            "write its hands as splitpot JSON or PHH"
        )
    return name


def _hand_number(record: HandRecord) -> int:
    """The number after ``PokerStars Hand #``: the room's serial, else an id of digits.
    Trackers read only digits there, so another id is refused (HistoryError)."""
    if record.serial is not None:
        return record.serial
    if record.id.isascii() and record.id.isdigit():
        return int(record.id)
    raise HistoryError(
        f"hand {record.id} has no number: PokerStars text numbers hands '#<digits>:'"
    )


def pokerstars_time(moment: datetime) -> str:
    """When a hand started, as PokerStars prints it for a player whose clock is UTC: the
    UTC time, then Eastern Time beside it (PokerStars writes "ET" all year, summer time
    included), hours without a leading zero: ``2026/12/02 13:30:00 UTC [2026/12/02
    8:30:00 ET]``."""
    utc = moment.astimezone(UTC)
    eastern = utc.astimezone(ZoneInfo("America/New_York"))
    return f"{_clock(utc)} UTC [{_clock(eastern)} ET]"


def _clock(moment: datetime) -> str:
    return f"{moment:%Y/%m/%d} {moment.hour}:{moment:%M:%S}"


def write_pokerstars(
    record: HandRecord,
    hand: Hand,
    *,
    table: str = "splitpot",
    started: datetime = NO_TIME,
    hero: int | None = None,
    max_seats: int | None = None,
) -> str:
    """The hand in PokerStars text, as PokerStars writes it and hand-history tools (and
    splitpot's reader) take it.

    ``hand`` is the finished engine hand of ``record``; ``hero`` is the player whose hole
    cards are printed as dealt. Other hole cards appear as ``report.revealed_holes`` lets
    the hero see them: shown, or mucked at the showdown (in the summary); never folded.
    RULES.md 8: a tournament hand's table is its tournament's (``table`` is not used), its
    chips tournament chips, printed without a currency.
    """
    name = game_name(record.config.variant)
    if hand.result is None:
        raise HistoryError("only a finished hand can be written")
    seen = report.revealed_holes(hand, hero)  # RULES.md 6: what the hero may see
    tournament = record.tournament
    if tournament is not None:
        _check_tournament_name(tournament.name)

    def money(chips: int) -> str:
        if tournament is not None:  # tournament chips, not the room's money
            return report.money(chips, "1", "")
        return report.money(chips, record.unit, record.currency)

    lines = [
        *_header(record, name, table, started, max_seats, money),
        *_posts(record, money),
        "*** HOLE CARDS ***",
        *_dealt_to(record, seen, hero),
        *_play(record, hand, money),
        "*** SUMMARY ***",
        *_summary(record, hand, seen, money),
    ]
    if tournament is not None and tournament.name:
        lines.append(f"{TOURNAMENT_NAME}{tournament.name}")
    return "\n".join(lines) + "\n\n\n"


def _check_tournament_name(name: str) -> None:
    """A tournament's name is one line of its own in PokerStars text: HistoryError for a
    name of several lines, or with spaces around it, which would not read back."""
    if name and (name.splitlines() != [name] or name != name.strip()):
        raise HistoryError(
            f"PokerStars text cannot carry the tournament name {name!r}: "
            "it is written on one line, without spaces around it"
        )


def tournament_lines(
    record: HandRecord, game: str, stakes: str, started: datetime, max_seats: int
) -> list[str]:
    """RULES.md 8: a tournament hand's first two lines as PokerStars prints them: the
    hand, its tournament's number and entry (``Freeroll`` when it costs nothing), the
    game, the level and its stakes, the time; then the table, ``'<tournament> <table>'``."""
    tournament = record.tournament
    assert tournament is not None
    entry = (
        "Freeroll "  # PokerStars prints it with a space for the currency it has none of
        if tournament.buy_in == tournament.fee == 0
        else f"{tournament.buy_in}+{tournament.fee}"
    )
    button = record.players[record.button].seat
    return [
        f"PokerStars Hand #{_hand_number(record)}: Tournament #{tournament.id}, {entry} {game} "
        f"- Level {roman(tournament.level)} ({stakes}) - {pokerstars_time(started)}",
        f"Table '{tournament.id} {tournament.table}' {max_seats}-max Seat #{button} is the button",
    ]


def _header(
    record: HandRecord,
    name: str,
    table: str,
    started: datetime,
    max_seats: int | None,
    money: Money,
) -> list[str]:
    """The hand's first line, the table's, and one line per seat."""
    small, big = record.config.betting.stake_amounts  # the bets in limit, else the blinds
    game = f"{name} {_LIMIT_NAMES[record.config.structure]}"
    seats = [player.seat for player in record.players]
    stakes = f"{money(small)}/{money(big)}"
    most = max_seats or max(seats)
    first = (
        tournament_lines(record, game, stakes, started, most)
        if record.tournament is not None
        else [
            f"PokerStars Hand #{_hand_number(record)}:  {game} ({stakes}) - "
            f"{pokerstars_time(started)}",
            f"Table '{table}' {most}-max Seat #{seats[record.button]} is the button",
        ]
    )
    return [
        *first,
        *(f"Seat {p.seat}: {p.name} ({money(p.stack)} in chips)" for p in record.players),
    ]


def _posts(record: HandRecord, money: Money) -> list[str]:
    """The forced bets; a live big blind with a dead small blind is one post of both."""
    names = record.names
    dead = {post.player: post.amount for post in record.posts if post.kind is PostKind.DEAD}
    lines = []
    for post in record.posts:
        if post.kind is PostKind.DEAD:
            continue
        if post.player in dead and post.kind is PostKind.LIVE:
            both = money(post.amount + dead[post.player])
            lines.append(f"{names[post.player]}: posts small & big blinds {both}")
        else:
            words = _POST_WORDS[post.kind]
            lines.append(f"{names[post.player]}: posts {words} {money(post.amount)}")
    return lines


def _dealt_to(record: HandRecord, seen: dict[int, tuple[Card, ...]], hero: int | None) -> list[str]:
    """The hero's hole cards, if there is a hero who was dealt in."""
    if hero is None or hero not in seen:
        return []
    return [f"Dealt to {record.names[hero]} [{format_cards(seen[hero], ' ')}]"]


def _play(record: HandRecord, hand: Hand, money: Money) -> list[str]:
    """The actions, the streets, the showdown and the chips paid, in their order.

    RULES.md 7, two boards: a board run twice deals ``*** FIRST TURN ***`` and the rest of
    the first run, then ``*** SECOND TURN ***`` and the rest of the second (the cards
    dealt before them shared, as PokerStars writes it); a double board names every
    street ``FIRST`` or ``SECOND`` (splitpot's words for a board PokerStars never deals).
    The showdown is then told a board at a time: ``*** FIRST SHOW DOWN ***``, the hands
    with their value on that board and the chips paid of it."""
    names = record.names
    result = hand.result
    assert result is not None
    has_low = record.config.variant.has_low
    level = max((p.amount for p in record.posts if p.kind.live), default=0)
    double = hand.config.boards == 2
    boards: list[list[Card]] = [[], []]
    twice = False  # the rest of the board is being run twice
    showdown: list[Shown | Mucked] = []
    lines: list[str] = []
    for event in hand.events:
        if isinstance(event, Acted):
            lines.append(f"{names[event.player]}: {_action_words(event, level, money)}")
            level = max(level, event.to)
        elif isinstance(event, RunsChosen) and event.times == 2:
            twice, boards[1] = True, list(boards[0])
        elif isinstance(event, BoardDealt):
            new = [c for c in event.cards if c is not None]
            board = boards[event.board]
            before = f"[{format_cards(board, ' ')}] " if board else ""
            board += new
            run = _RUNS[event.board] + " " if double or twice else ""
            lines.append(f"*** {run}{event.street.name} *** {before}[{format_cards(new, ' ')}]")
            level = 0
        elif isinstance(event, UncalledBetReturned):
            lines.append(f"Uncalled bet ({money(event.amount)}) returned to {names[event.player]}")
        elif isinstance(event, Shown | Mucked) and len(hand.boards) > 1:
            showdown.append(event)
        elif isinstance(event, Shown | Mucked):
            if "*** SHOW DOWN ***" not in lines:
                lines.append("*** SHOW DOWN ***")
            lines.append(f"{names[event.player]}: {_showdown_words(event, 0, has_low)}")
    if showdown:
        for number, run in enumerate(_RUNS):
            lines.append(f"*** {run} SHOW DOWN ***")
            lines += [
                f"{names[event.player]}: {_showdown_words(event, number, has_low)}"
                for event in showdown
                if isinstance(event, Shown) or number == 0
            ]
            lines += _collected(record, result, money, number)
    else:
        lines += _collected(record, result, money, 0)
    if not result.showdown and result.awards:
        lines.append(f"{names[result.awards[0].player]}: doesn't show hand")
    return lines


def _showdown_words(event: Shown | Mucked, board: int, has_low: bool) -> str:
    if isinstance(event, Mucked):
        return "mucks hand"
    words = _hand_words(*_value(event, board), has_low)
    return f"shows [{format_cards(event.cards, ' ')}] ({words})"


def _value(event: Shown, board: int) -> tuple[HighHand | None, LowHand | None]:
    """The shown hand's high and low on ``board`` (RULES.md 7: each board on its own)."""
    return event.boards[board] if event.boards else (event.high, event.low)


def _collected(record: HandRecord, result: HandResult, money: Money, board: int) -> list[str]:
    """Who collected what of ``board``'s part of each pot, a pot at a time; a hi/lo scoop
    in two halves, and "No low hand qualified" after a pot of a showdown that had no
    low, as PokerStars writes them."""
    names = record.names
    split = record.config.variant.has_low and result.showdown
    lines: list[str] = []
    for pot in range(len(result.pots)):
        awards = [a for a in result.awards if a.pot == pot and a.board == board and a.amount]
        where = _pot_name(pot, len(result.pots))
        for award in awards:
            halves = [award.amount]
            if split and award.share is Share.WHOLE and award.low is not None:
                halves = [award.amount - award.amount // 2, award.amount // 2]
            lines += [
                f"{names[award.player]} collected {money(half)} from {where}"
                for half in halves
                if half
            ]
        if split and awards and all(award.low is None for award in awards):
            lines.append("No low hand qualified")
    return lines


def _pot_name(pot: int, pots: int) -> str:
    """``pot``; with side pots ``main pot``, ``side pot`` (one), ``side pot-2`` (more)."""
    if pots == 1:
        return "pot"
    if pot == 0:
        return "main pot"
    return "side pot" if pots == 2 else f"side pot-{pot}"


def _summary(
    record: HandRecord, hand: Hand, seen: dict[int, tuple[Card, ...]], money: Money
) -> list[str]:
    """The summary: the pots and the rake, the board, and how each seat's hand ended."""
    result = hand.result
    assert result is not None
    total = sum(p.amount for p in result.pots) + result.rake
    listed = ""
    if len(result.pots) > 1:
        pots = " ".join(
            f"{_pot_name(i, len(result.pots)).capitalize()} {money(p.amount)}."
            for i, p in enumerate(result.pots)
        )
        listed = f" {pots}"
    lines = [f"Total pot {money(total)}{listed} | Rake {money(result.rake)}"]
    boards = [[card for card in board if card is not None] for board in hand.boards]
    if len(boards) > 1:  # RULES.md 7
        lines.append(DOUBLE_BOARD if hand.config.boards == 2 else RUN_TWICE)
        lines += [
            f"{run} Board [{format_cards(board, ' ')}]"
            for run, board in zip(_RUNS, boards, strict=True)
        ]
    elif boards[0]:
        lines.append(f"Board [{format_cards(boards[0], ' ')}]")
    ended = _how_each_ended(record, hand, seen, money)
    for player, outcome in zip(record.players, ended, strict=True):
        lines.append(f"Seat {player.seat}: {player.name} {outcome}")
    return lines


def _how_each_ended(
    record: HandRecord, hand: Hand, seen: dict[int, tuple[Card, ...]], money: Money
) -> list[str]:
    """Each player's summary words after the name: the position tags, then ``showed
    [..] and won (12) with HI: ..; LO: ..``, ``mucked [..]``, ``collected (12)`` or
    ``folded on the Flop``, as PokerStars writes them."""
    result = hand.result
    assert result is not None
    has_low = record.config.variant.has_low
    shown = {e.player: e for e in hand.events if isinstance(e, Shown)}
    mucked = {e.player for e in hand.events if isinstance(e, Mucked)}
    folds = _folds(hand)
    ended = []
    for player in range(len(record.players)):
        won = result.won(player)
        if player in shown:
            shows = format_cards(shown[player].cards, " ")
            endings = (
                _ending(shown[player], board, result, has_low, money)
                for board in range(len(hand.boards))  # RULES.md 7: a board at a time
            )
            outcome = f"showed [{shows}] {', '.join(endings)}"
        elif won:
            outcome = f"collected ({money(won)})"
        elif player in folds:
            outcome = f"folded {folds[player]}"
        elif player in seen and player in mucked:
            outcome = f"mucked [{format_cards(seen[player], ' ')}]"  # RULES.md 6
        else:
            outcome = "mucked"
        ended.append(" ".join([*_positions(record, player), outcome]))
    return ended


def _ending(event: Shown, board: int, result: HandResult, has_low: bool, money: Money) -> str:
    """``and won (12) with ..`` or ``and lost with ..``: a shown hand on one board."""
    chips = sum(a.amount for a in result.awards if a.player == event.player and a.board == board)
    ending = f"and won ({money(chips)})" if chips else "and lost"
    return f"{ending} with {_hand_words(*_value(event, board), has_low)}"


def _positions(record: HandRecord, player: int) -> list[str]:
    """``(button)``, ``(small blind)``, ``(big blind)``: what the player was in the hand."""
    tags = ["(button)"] if player == record.button else []
    kinds = {post.kind for post in record.posts if post.player == player}
    return tags + [tag for kind, tag in _POSITIONS.items() if kind in kinds]


def _folds(hand: Hand) -> dict[int, str]:
    """Where each player who folded folded: ``before Flop (didn't bet)`` when they had put
    no chip in but an ante, ``before Flop``, ``on the Flop``, ..."""
    street = Street.PREFLOP
    paid: set[int] = set()  # chips in before the flop, antes aside
    folds: dict[int, str] = {}
    for event in hand.events:
        if isinstance(event, BoardDealt):
            street = max(street, event.street)
        elif isinstance(event, Posted) and event.kind is not PostKind.ANTE:
            paid.add(event.player)
        elif isinstance(event, Acted) and event.kind is ActionKind.FOLD:
            unpaid = street is Street.PREFLOP and event.player not in paid
            folds[event.player] = _FOLDED[street] + (" (didn't bet)" if unpaid else "")
        elif isinstance(event, Acted) and event.added and street is Street.PREFLOP:
            paid.add(event.player)
    return folds


def _action_words(event: Acted, level: int, money: Money) -> str:
    all_in = ALL_IN if event.all_in else ""
    match event.kind:
        case ActionKind.FOLD:
            return "folds"
        case ActionKind.CHECK:
            return "checks"
        case ActionKind.CALL:
            return f"calls {money(event.added)}{all_in}"
        case ActionKind.BET:
            return f"bets {money(event.to)}{all_in}"
        case _:
            return f"raises {money(event.to - level)} to {money(event.to)}{all_in}"


def _hand_words(high: HighHand | None, low: LowHand | None, has_low: bool) -> str:
    """``HI: two pair, Aces and Sixes; LO: 7,6,5,2,A`` in hi/lo (no LO without a low),
    the high hand's name alone in Omaha high."""
    named = high.name if high else ""
    if not has_low:
        return named
    return f"HI: {named}" + (f"; LO: {low.name}" if low else "")
