"""The dealer's words: what the dealer says in chat of each thing that happens at a table
(RULES.md 5, 'Reporting'), one event at a time, for the room, the terminal game and the
hand histories alike.

Players are named through ``names`` by the event's own player key: a hand's player index
for the engine's events, the table seat for the table's (``InHand`` events). A ``Scene``
carries what one event does not: the game, the chip's money, the board dealt before the
event and the hand's awards, which the dealer reports part by part (``scenes`` follows a
run of events).

The home game's modes (RULES.md 7): a double board names each board's streets from the
first flop on ("Board 1 flop: ...", "Board 2 flop: ..."; ``scenes`` sees the second
board's flop come right after the first's), a board run twice names each run's streets
("First run, turn: ...", "Second run, turn: ..."), and a pot cut in a part for each board
or run tells each part with its board or run ("Board 2: Ann wins the low half of the main
pot, 6, ..."); a pot won whole (one player in it, or no showdown) is told as on one board.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from enum import Enum
from functools import partial
from itertools import groupby
from typing import Protocol

from splitpot.cards import RANK_NAMES, Card, format_cards
from splitpot.engine import (
    Acted,
    ActionKind,
    BoardDealt,
    Event,
    HoleCardsDealt,
    Mucked,
    Posted,
    PostKind,
    PotAwarded,
    RakeTaken,
    RunItOffered,
    RunsChosen,
    Share,
    Shown,
    Street,
    TurnedFaceUp,
    UncalledBetReturned,
)
from splitpot.evaluate import HandCategory, HandHelp, HighHand, LowHand
from splitpot.i18n import ENGLISH, Words, marked
from splitpot.rules import Betting, Variant
from splitpot.table import (
    BombPotCalled,
    ChipsAdded,
    HandFinished,
    HandStarted,
    InHand,
    KillDue,
    PlayerLeft,
    PlayerSat,
    RabbitHunted,
    RunItAnswered,
    SatIn,
    SatOut,
    StackEdited,
    StakesChanged,
    Straddle,
    StraddleChosen,
    TableEvent,
)

Said = TableEvent | Event  # what the dealer speaks of: a table's event or a hand's
Say = Callable[[int], str]  # chips in words


class Names(Protocol):
    """Player names by the events' player key (a list, a tuple or a dict will do)."""

    def __getitem__(self, player: int, /) -> str: ...


class AwardLike(Protocol):
    """A pot part paid to one player: the engine's ``Award`` or its ``PotAwarded`` event."""

    @property
    def pot(self) -> int: ...
    @property
    def share(self) -> Share: ...
    @property
    def player(self) -> int: ...
    @property
    def amount(self) -> int: ...
    @property
    def high(self) -> HighHand | None: ...
    @property
    def low(self) -> LowHand | None: ...
    @property
    def board(self) -> int: ...


@dataclass(frozen=True, slots=True)
class Scene:
    """What the dealer knows beyond one event: the game, the chip's value in money
    (``unit``, e.g. "0.01", and ``currency``), the boards dealt before the event (two on
    a double board or a board run twice), the awards of the hand (which come together at
    its end), and the listener's language; ``runs``: the times the rest of the board is
    dealt (2 from a vote to run it twice on), ``double``: the hand is dealt on two boards
    (known from its first flop on, RULES.md 7)."""

    variant: Variant
    unit: str = "1"
    currency: str = ""
    boards: tuple[tuple[Card | None, ...], ...] = ((),)
    awards: tuple[PotAwarded, ...] = ()
    words: Words = ENGLISH
    runs: int = 1
    double: bool = False

    @property
    def board(self) -> tuple[Card | None, ...]:
        """The first board (or run)."""
        return self.boards[0]

    def dealt(self, event: BoardDealt | RunsChosen) -> Scene:
        """The scene after cards of a board, or a second run begun from the first board's
        cards so far (RULES.md 7)."""
        boards = self.boards
        if isinstance(event, RunsChosen):
            if event.times == 1:
                return self
            return replace(self, boards=(*boards, boards[0]), runs=event.times)
        if event.board == len(boards):
            boards = (*boards, ())
        grown = boards[event.board] + event.cards
        return replace(self, boards=(*boards[: event.board], grown, *boards[event.board + 1 :]))

    def money(self, chips: int) -> str:
        return money(chips, self.unit, self.currency, self.words)

    def speaking(self, words: Words) -> Scene:
        """The same scene told to a listener of another language."""
        return self if words == self.words else replace(self, words=words)


def money(chips: int, unit: str = "1", currency: str = "", words: Words = ENGLISH) -> str:
    """Chips in the table's money: 263750 cents is "$2637.50", 1500 cents "$15"."""
    if unit == "1":
        return f"{currency}{words.number(chips)}"
    value = Decimal(chips) * Decimal(unit)
    text = f"{value:.2f}"
    return currency + (text[:-3] if text.endswith(".00") else text)


def pot_name(index: int, pots: int, words: Words = ENGLISH) -> str:
    """Pot ``index`` of ``pots`` in words: "the pot", "the main pot", "side pot 2"."""
    if pots == 1:
        return words.say("the pot")
    if index == 0:
        return words.say("the main pot")
    if pots == 2:
        return words.say("the side pot")
    return words.say("side pot {number}", number=index)


# A rank's words by its part in a sentence (RULES.md 5 names hands as card rooms do); the
# contexts let a language decline them: "rank" alone (high card Ace), "rank of" after
# "from" or "to" (a straight from the Ace), "ranks of" (a pair of Aces, a full house of
# Kings). English has one word each.
def _rank(words: Words, rank: int) -> str:
    return words.say_p("rank", RANK_NAMES[rank])


def _rank_of(words: Words, rank: int) -> str:
    return words.say_p("rank of", RANK_NAMES[rank])


def _ranks_of(words: Words, rank: int) -> str:
    name = RANK_NAMES[rank]
    return words.say_p("ranks of", name + ("es" if name == "Six" else "s"))


def high_words(high: HighHand, words: Words = ENGLISH) -> str:
    """A high hand as card rooms say it: "a full house, Kings full of Queens"."""
    category, ranks = high.category, high.ranks
    match category:
        case HandCategory.STRAIGHT_FLUSH if ranks[0] == 12:
            return words.say("a royal flush")
        case HandCategory.STRAIGHT_FLUSH | HandCategory.STRAIGHT:
            low = _rank_of(words, 12 if ranks[0] == 3 else ranks[0] - 4)
            high_end = _rank_of(words, ranks[0])
            if category is HandCategory.STRAIGHT_FLUSH:
                return words.say("a straight flush, {low} to {high}", low=low, high=high_end)
            return words.say("a straight, {low} to {high}", low=low, high=high_end)
        case HandCategory.FOUR_OF_A_KIND:
            return words.say("four of a kind, {ranks}", ranks=_ranks_of(words, ranks[0]))
        case HandCategory.FULL_HOUSE:
            top, bottom = _ranks_of(words, ranks[0]), _ranks_of(words, ranks[1])
            return words.say("a full house, {top} full of {bottom}", top=top, bottom=bottom)
        case HandCategory.FLUSH:
            return words.say("a flush, {rank} high", rank=_rank(words, ranks[0]))
        case HandCategory.THREE_OF_A_KIND:
            return words.say("three of a kind, {ranks}", ranks=_ranks_of(words, ranks[0]))
        case HandCategory.TWO_PAIR:
            top, bottom = _ranks_of(words, ranks[0]), _ranks_of(words, ranks[1])
            return words.say("two pair, {top} and {bottom}", top=top, bottom=bottom)
        case HandCategory.ONE_PAIR:
            return words.say("a pair of {ranks}", ranks=_ranks_of(words, ranks[0]))
        case _:
            return words.say("high card {rank}", rank=_rank(words, ranks[0]))


def low_words(low: LowHand, words: Words = ENGLISH) -> str:
    """A low by its cards, "8,6,4,2,A", and the wheel by its name too."""
    if low.nickname:
        return words.say("the wheel, {low}", low=low.name)
    return low.name


def hand_words(high: HighHand | None, low: LowHand | None, words: Words = ENGLISH) -> str:
    """A hand's high and low in words: "8,4,3,2,A, and three of a kind, Aces"."""
    if high is not None and low is not None:
        both = {"low": low_words(low, words), "high": high_words(high, words)}
        return words.say("{low}, and {high}", **both)
    if low is not None:
        return low_words(low, words)
    return high_words(high, words) if high is not None else ""


def help_words(help: HandHelp, words: Words = ENGLISH) -> str:
    """The hand helper's line: "two pair, Kings and Fives · low 7,5,3,2,A", with "no low
    yet" or "no low possible" where the game has a low."""
    parts = [] if help.high is None else [high_words(help.high, words)]
    if help.variant.has_low:
        if help.low is not None:
            parts.append(words.say("low {low}", low=low_words(help.low, words)))
        elif not help.low_possible:
            parts.append(words.say("no low possible"))
        elif help.high is not None:
            parts.append(words.say("no low yet"))
    return " · ".join(parts)


def game_words(betting: Betting, say: Say = str, words: Words = ENGLISH) -> str:
    """A structure and its stakes: "Pot Limit 1/2", "Fixed Limit 2/4"."""
    first, second = betting.stake_amounts
    return f"{structure_words(betting, words)} {say(first)}/{say(second)}"


def structure_words(betting: Betting, words: Words = ENGLISH) -> str:
    """ "Fixed Limit", "Pot Limit", "No Limit", "Mixed Limit / Pot Limit" (the names are
    the rules' own: their messages are listed by ``i18n.catalogues.named``)."""
    return words.say(betting.name)


def game_title(variant: Variant, words: Words = ENGLISH) -> str:
    """The game in full: "Omaha Hi/Lo, eight or better"."""
    return words.say(variant.title)


def game_short_name(variant: Variant, words: Words = ENGLISH) -> str:
    """The game for a header: "Omaha Hi/Lo", "Big O"."""
    return words.say(variant.short_name)


# The kinds of event the dealer tells alike; tuples, not unions, as these are tested at
# every event (isinstance builds a union written in the call at every call)
_TABLE_CHANGES = (PlayerSat, PlayerLeft, SatOut, SatIn, ChipsAdded, StackEdited, StakesChanged)
_OPTIONS = (StraddleChosen, BombPotCalled, RunItAnswered, KillDue, RabbitHunted)
_BOARD_CHANGES = (BoardDealt, RunsChosen)


def scenes(events: Sequence[Said], start: Scene) -> tuple[list[Scene], Scene]:
    """The scene before each event, and the scene after them all.

    A hand's awards come in one run at its end (in one table call); each award's scene
    holds the whole run, so a tie is told in one sentence and pots are named by count.
    A double board deals each street to both boards in one call: the second board's cards
    right after the first's tell, at the first flop, that the hand has two boards.
    """
    before: list[Scene] = []
    scene = start
    for index, event in enumerate(events):
        inner = _engine(event)
        if isinstance(event, HandStarted):
            scene = replace(
                scene, variant=event.variant, boards=((),), awards=(), runs=1, double=False
            )
        elif isinstance(inner, PotAwarded) and not _award_at(events, index - 1):
            scene = replace(scene, awards=_awards_from(events, index))
        elif scene.runs == 1 and _second_board_at(events, index + 1):
            scene = replace(scene, double=True)
        before.append(scene)
        if isinstance(inner, _BOARD_CHANGES):
            scene = scene.dealt(inner)
    return before, scene


def _engine(event: Said) -> Said:
    return event.event if isinstance(event, InHand) else event


def _second_board_at(events: Sequence[Said], index: int) -> bool:
    """Whether cards of the second board (or run) are dealt at ``index``."""
    dealt = _engine(events[index]) if index < len(events) else None
    return isinstance(dealt, BoardDealt) and dealt.board == 1


def _award_at(events: Sequence[Said], index: int) -> PotAwarded | None:
    award = _engine(events[index]) if index >= 0 else None
    return award if isinstance(award, PotAwarded) else None


def _awards_from(events: Sequence[Said], start: int) -> tuple[PotAwarded, ...]:
    """The run of awards that begins at ``start``."""
    awards: list[PotAwarded] = []
    while start + len(awards) < len(events) and (award := _award_at(events, start + len(awards))):
        awards.append(award)
    return tuple(awards)


def dealer_line(
    event: Said,
    names: Names,
    scene: Scene,
    *,
    revealed: Mapping[int, tuple[Card, ...]] | None = None,
) -> str | None:
    """What the dealer says of ``event``, its lines joined by a newline; None: nothing."""
    return "\n".join(dealer_lines(event, names, scene, revealed=revealed)) or None


def dealer_lines(
    event: Said,
    names: Names,
    scene: Scene,
    *,
    revealed: Mapping[int, tuple[Card, ...]] | None = None,
) -> list[str]:
    """What the dealer says of ``event``, in the scene's language: no line, one, or two
    (a hand's start with the draw for the button, a pot part and that no low qualified
    for the pot).

    Pass the event as its listener may see it (``seen_by``): a deal of hole cards is
    told only with its cards. A muck shows the cards ``revealed`` gives for its player
    (the last-hands window, RULES.md 6)."""
    if isinstance(event, HandStarted):
        return _hand_started(event, scene)
    if isinstance(event, _TABLE_CHANGES):
        return [_table_line(event, scene)]
    if isinstance(event, HandFinished):
        return []  # the awards are told as they are paid
    if isinstance(event, _OPTIONS):
        return _option_lines(event, names, scene)
    inner = event.event if isinstance(event, InHand) else event
    return _hand_lines(inner, names, scene, revealed or {})


def _table_line(
    event: PlayerSat | PlayerLeft | SatOut | SatIn | ChipsAdded | StackEdited | StakesChanged,
    scene: Scene,
) -> str:
    say, w = scene.money, scene.words
    match event:
        case PlayerSat(seat=seat, name=name, stack=stack, post_now=True):
            sat = {"name": name, "seat": seat + 1, "stack": say(stack)}
            return w.say(
                "{name} sits down in seat {seat} with {stack} and posts to play now", **sat
            )
        case PlayerSat(seat=seat, name=name, stack=stack):
            sat = {"name": name, "seat": seat + 1, "stack": say(stack)}
            return w.say("{name} sits down in seat {seat} with {stack}", **sat)
        case PlayerLeft(name=name, stack=stack):
            return w.say("{name} leaves the table with {stack}", name=name, stack=say(stack))
        case SatOut(name=name, timed_out=True):
            return w.say("{name} is out of time and sits out", name=name)
        case SatOut(name=name):
            return w.say("{name} sits out", name=name)
        case SatIn(name=name, post_now=True):
            return w.say("{name} is back and posts to play now", name=name)
        case SatIn(name=name):
            return w.say("{name} is back", name=name)
        case ChipsAdded(name=name, amount=amount, stack=stack):
            added = {"name": name, "amount": say(amount), "stack": say(stack)}
            return w.say("{name} adds {amount} and has {stack}", **added)
        case StackEdited(name=name, amount=amount, stack=stack) if amount > 0:
            edited = {"name": name, "amount": say(amount), "stack": say(stack)}
            return w.say("The host adds {amount} to {name}'s stack: {stack}", **edited)
        case StackEdited(name=name, amount=amount, stack=stack):
            edited = {"name": name, "amount": say(-amount), "stack": say(stack)}
            return w.say("The host takes {amount} from {name}'s stack: {stack}", **edited)
        case StakesChanged(betting=betting):
            return w.say("The game turns to {game}", game=game_words(betting, say, w))
    raise AssertionError(f"no words for {event!r}")


def _option_lines(
    event: StraddleChosen | BombPotCalled | RunItAnswered | KillDue | RabbitHunted,
    names: Names,
    scene: Scene,
) -> list[str]:
    """The home game's table events (RULES.md 7): a straddle chosen, a bomb pot called,
    an answer to running it twice, a kill pot to come, the rabbit hunted."""
    w = scene.words
    match event:
        case StraddleChosen(name=name, straddle=Straddle.NEXT):
            return [w.say("{name} will straddle the next time in the straddle seat", name=name)]
        case StraddleChosen(name=name, straddle=Straddle.ALWAYS):
            return [w.say("{name} will straddle every time in the straddle seat", name=name)]
        case StraddleChosen(name=name):
            return [w.say("{name} stops straddling", name=name)]
        case BombPotCalled(blinds=blinds):
            return [
                w.say_n(
                    "The host calls a bomb pot for the next hand: {count} big blind each",
                    "The host calls a bomb pot for the next hand: {count} big blinds each",
                    blinds,
                )
            ]
        case RunItAnswered(seat=seat, yes=True):
            return [w.say("{name} agrees to run it twice", name=names[seat])]
        case RunItAnswered(seat=seat):
            return [w.say("{name} declines to run it twice", name=names[seat])]
        case KillDue(name=name, blind=blind):
            kill = {"name": name, "amount": scene.money(blind)}
            return [
                w.say(
                    "{name} scooped the pot: the next hand is a kill pot; "
                    "{name} posts the kill blind of {amount}",
                    **kill,
                )
            ]
        case RabbitHunted(cards=dealt):
            return _rabbit_lines(dealt, w)
    raise AssertionError(f"no words for {event!r}")


def _rabbit_lines(dealt: Sequence[BoardDealt], w: Words) -> list[str]:
    """RULES.md 7: the board that would have come, marked as never dealt: a line for each
    board, named when the hand had two."""
    boards = sorted({cards.board for cards in dealt})
    lines: list[str] = []
    for board in boards:
        streets = w.say_p("list", ", ").join(
            w.say(_RABBIT_STREETS[cards.street], cards=_cards(cards.cards))
            for cards in dealt
            if cards.board == board
        )
        if len(boards) == 1:
            lines.append(w.say("Rabbit hunt, never dealt: {streets}", streets=streets))
        else:
            rabbit = {"number": board + 1, "streets": streets}
            lines.append(w.say("Rabbit hunt, never dealt, board {number}: {streets}", **rabbit))
    return lines


def _hand_started(event: HandStarted, scene: Scene) -> list[str]:
    """RULES.md 4.1: the hand, its game and the button; the draw for the button."""
    w = scene.words
    played = {
        "variant": game_title(event.variant, w),
        "betting": game_words(event.betting, scene.money, w),
    }
    game = w.say("{variant}, {betting}", **played)
    started = {"number": event.number, "game": game, "button": event.button + 1}
    lines = [w.say("Hand #{number}: {game}, button seat {button}", **started)]
    if event.draw:
        names = dict(zip(event.seats, event.names, strict=True))  # a draw deals everyone in
        drawn = w.say_p("list", ", ").join(f"{names[seat]} {card}" for seat, card in event.draw)
        lines.append(w.say("Draw for the button: {cards}", cards=drawn))
    return lines


def _hand_lines(
    event: Event, names: Names, scene: Scene, revealed: Mapping[int, tuple[Card, ...]]
) -> list[str]:
    say, w = scene.money, scene.words
    match event:
        case Posted(player=player, kind=kind, amount=amount, all_in=all_in):
            posted = {"name": names[player], "amount": say(amount)}
            return [_all_in(w, w.say(_POSTS[kind], **posted), all_in)]
        case HoleCardsDealt(player=player, cards=cards) if None not in cards:
            return [w.say("Dealt to {name}: {cards}", name=names[player], cards=_cards(cards))]
        case Acted():
            return [_action_line(event, names, scene)]
        case BoardDealt():
            return [_board_line(event, scene)]
        case RunItOffered(players=players):
            asked = w.listed(names[player] for player in players)
            return [w.say("All in: run it twice? {names} decide", names=asked)]
        case RunsChosen(times=2):
            return [w.say("The board is run twice")]
        case RunsChosen():
            return [w.say("The board is run once")]
        case UncalledBetReturned(player=player, amount=amount):
            returned = {"amount": say(amount), "name": names[player]}
            return [w.say("Uncalled bet of {amount} returned to {name}", **returned)]
        case TurnedFaceUp(player=player, cards=cards):
            return [w.say("{name} turns up {cards}", name=names[player], cards=_cards(cards))]
        case Shown(player=player, cards=cards, boards=((high, low), (second_high, second_low))):
            shown = {
                "name": names[player],
                "cards": _cards(cards),
                "first": hand_words(high, low, w),
                "second": hand_words(second_high, second_low, w),
            }
            if scene.runs == 2:
                return [
                    w.say("{name} shows {cards}, first run: {first}; second run: {second}", **shown)
                ]
            return [w.say("{name} shows {cards}, board 1: {first}; board 2: {second}", **shown)]
        case Shown(player=player, cards=cards, high=high, low=low):
            hand = hand_words(high, low, w) or w.say("no hand")
            shown = {"name": names[player], "cards": _cards(cards), "hand": hand}
            return [w.say("{name} shows {cards}: {hand}", **shown)]
        case Mucked(player=player):
            mucked = _cards(revealed.get(player, ()))
            if not mucked:
                return [w.say("{name} mucks", name=names[player])]
            return [w.say("{name} mucks {cards}", name=names[player], cards=mucked)]
        case RakeTaken(amount=amount):
            return [w.say("Rake: {amount}", amount=say(amount))]
        case PotAwarded():
            return _award_told(event, names, scene)
    return []


# RULES.md 6: a live big blind to come in is "the big blind"
_POSTS = {
    PostKind.SMALL_BLIND: marked("{name} posts the small blind, {amount}"),
    PostKind.BIG_BLIND: marked("{name} posts the big blind, {amount}"),
    PostKind.LIVE: marked("{name} posts the big blind, {amount}"),
    PostKind.DEAD: marked("{name} posts the dead small blind, {amount}"),
    PostKind.ANTE: marked("{name} posts the ante, {amount}"),
    PostKind.STRADDLE: marked("{name} posts the straddle, {amount}"),
    PostKind.KILL: marked("{name} posts the kill blind, {amount}"),
    PostKind.BOMB: marked("{name} puts in the bomb, {amount}"),
}
_STREETS = {
    Street.FLOP: marked("Flop: {cards}"),
    Street.TURN: marked("Turn: {cards}"),
    Street.RIVER: marked("River: {cards}"),
}
# RULES.md 7: a street of each of two boards, and of each run of a board run twice
_BOARD_STREETS = {
    Street.FLOP: marked("Board {number} flop: {cards}"),
    Street.TURN: marked("Board {number} turn: {cards}"),
    Street.RIVER: marked("Board {number} river: {cards}"),
}
_RUN_STREETS = (
    {
        Street.FLOP: marked("First run, flop: {cards}"),
        Street.TURN: marked("First run, turn: {cards}"),
        Street.RIVER: marked("First run, river: {cards}"),
    },
    {
        Street.FLOP: marked("Second run, flop: {cards}"),
        Street.TURN: marked("Second run, turn: {cards}"),
        Street.RIVER: marked("Second run, river: {cards}"),
    },
)
_RABBIT_STREETS = {
    Street.FLOP: marked("flop {cards}"),
    Street.TURN: marked("turn {cards}"),
    Street.RIVER: marked("river {cards}"),
}


def _board_line(event: BoardDealt, scene: Scene) -> str:
    """A street's cards with the board so far: of the one board ("Flop: ..."), of each of
    two boards ("Board 2 flop: ..."), or of each run of a board run twice ("Second run,
    turn: ...", RULES.md 7)."""
    w, index = scene.words, event.board
    cards = _cards(scene.dealt(event).boards[index])
    if scene.runs == 2:
        return w.say(_RUN_STREETS[index][event.street], cards=cards)
    if scene.double or index:
        return w.say(_BOARD_STREETS[event.street], number=index + 1, cards=cards)
    return w.say(_STREETS[event.street], cards=cards)


def _cards(cards: Sequence[Card | None]) -> str:
    return format_cards((c for c in cards if c is not None), " ")


def _all_in(words: Words, line: str, all_in: bool) -> str:
    return words.say("{action} and is all in", action=line) if all_in else line


def _action_line(event: Acted, names: Names, scene: Scene) -> str:
    say, w = scene.money, scene.words
    name = names[event.player]
    match event.kind:
        case ActionKind.FOLD:
            return w.say("{name} folds", name=name)
        case ActionKind.CHECK:
            return w.say("{name} checks", name=name)
        case ActionKind.CALL:
            line = w.say("{name} calls {amount}", name=name, amount=say(event.added))
        case ActionKind.BET:
            line = w.say("{name} bets {amount}", name=name, amount=say(event.to))
        case _:
            line = w.say("{name} raises to {amount}", name=name, amount=say(event.to))
    return _all_in(w, line, event.all_in)


def _award_told(event: PotAwarded, names: Names, scene: Scene) -> list[str]:
    """A pot part is told once, at its first award, for all the players it pays."""
    part = [a for a in scene.awards if _part_of(a) == _part_of(event)]
    if event not in part:
        raise ValueError(
            f"the award of {event.amount} from pot {event.pot} to player {event.player} is "
            "not among the scene's awards: pass the scene that scenes() gives for it"
        )
    if part[0] != event:
        return []
    pot, variant = (event.pot, _pot_count(scene.awards)), scene.variant
    low = (variant.has_low, variant.low_qualifier)
    return _part_lines(part, names, pot, low, scene, _cut(scene.awards, scene.runs))


def _part_of(award: AwardLike) -> tuple[int, int, Share]:
    """What one sentence tells: a pot's half (or whole) on one board or run."""
    return award.pot, award.board, award.share


class _Cut(Enum):
    """How a hand's contested pots were cut (RULES.md 7): a part for each of two boards,
    or for each run of a board run twice."""

    BOARDS = "boards"
    RUNS = "runs"


def _cut(awards: Sequence[AwardLike], runs: int | None) -> _Cut | None:
    """How the awards' pots were cut: ``runs`` is the times the board was run (2: by
    run); None when every pot was played on one board."""
    if not any(a.board for a in awards):
        return None
    return _Cut.RUNS if runs == 2 else _Cut.BOARDS


def _pot_count(awards: Sequence[AwardLike]) -> int:
    return max(a.pot for a in awards) + 1


def award_lines(
    awards: Sequence[AwardLike],
    names: Names,
    *,
    has_low: bool,
    low_qualifier: int | None = 8,
    unit: str = "1",
    currency: str = "",
    words: Words = ENGLISH,
    runs: int | None = None,
) -> list[str]:
    """A hand's awards in words, one sentence per pot part (RULES.md 5), and for a pot of
    a game with a low that had no low half, a line saying so (``no_low_words``); a part
    of a pot cut for two boards names its board, or its run when the board was run twice
    (``runs``: the hand's ``runs``, RULES.md 7)."""
    lines: list[str] = []
    pots = _pot_count(awards) if awards else 0
    told = _Told(partial(money, unit=unit, currency=currency, words=words), words)
    low, cut = (has_low, low_qualifier), _cut(awards, runs)
    for (pot, _, _), part in groupby(awards, key=_part_of):
        lines += _part_lines(list(part), names, (pot, pots), low, told, cut)
    return lines


def no_low_words(pot: tuple[int, int], low_qualifier: int | None, words: Words = ENGLISH) -> str:
    """A pot without a low half, RULES.md 2: no low qualified (eight or better), or, in
    the game without a qualifier, no hand makes five different ranks. ``pot``: the pot's
    index and how many pots there are."""
    where = pot_name(*pot, words)
    if low_qualifier is None:
        return words.say("No low for {pot}: no hand makes five different ranks", pot=where)
    return words.say("No low hand qualified for {pot}", pot=where)


class Told(Protocol):
    """How the dealer speaks: chips as money, in a language (a ``Scene`` is one)."""

    @property
    def words(self) -> Words: ...

    def money(self, chips: int) -> str: ...


@dataclass(frozen=True, slots=True)
class _Told:
    money: Say
    words: Words


def _part_lines(
    part: Sequence[AwardLike],
    names: Names,
    pot: tuple[int, int],
    low: tuple[bool, int | None],
    told: Told,
    cut: _Cut | None,
) -> list[str]:
    """A pot part's sentence, and for a game with a low (``low``: whether it has one,
    and its qualifier), that no low qualified where none did; each with the part's board
    or run when the pot was cut (``cut``)."""
    first, (has_low, qualifier) = part[0], low
    lines = [_award_sentence(part, names, pot, told)]
    no_low = first.share is Share.WHOLE and first.high is not None and first.low is None
    if has_low and no_low:
        lines.append(no_low_words(pot, qualifier, told.words))
    return [_on_board(line, first, cut, told.words) for line in lines]


_RUN_PARTS = (marked("First run: {award}"), marked("Second run: {award}"))


def _on_board(line: str, award: AwardLike, cut: _Cut | None, w: Words) -> str:
    """A line of one board's or run's part of a pot (RULES.md 7): "Board 2: ...",
    "Second run: ..."; a pot won whole, by the one player in it, as on one board."""
    if cut is None or (award.high is None and award.low is None):
        return line
    if cut is _Cut.RUNS:
        return w.say(_RUN_PARTS[award.board], award=line)
    return w.say("Board {number}: {award}", number=award.board + 1, award=line)


def _award_sentence(
    part: Sequence[AwardLike], names: Names, pot: tuple[int, int], told: Told
) -> str:
    """One part of one pot in words (RULES.md 5, 'Odd chips' and 'Reporting').

    ``part`` holds the winners of the part in the order the engine pays them: the first
    left of the button first, so the odd chips go to the front of the list.
    """
    say, w = told.money, told.words
    first, share = part[0], part[0].share
    hand = hand_words(first.high, first.low, w)
    where = pot_name(*pot, w)
    what = {
        Share.HIGH: w.say("the high half of {pot}", pot=where),
        Share.LOW: w.say("the low half of {pot}", pot=where),
    }.get(share, where)
    both = share is Share.WHOLE and first.low is not None  # high and low: one split
    parts = {"who": w.listed(names[a.player] for a in part), "what": what}
    if len(part) == 1:
        parts["amount"] = say(first.amount)
        if both:
            return _with_hand(w, w.say("{who} scoops {what}, {amount}", **parts), hand)
        return _with_hand(w, w.say("{who} wins {what}, {amount}", **parts), hand)
    amounts = [a.amount for a in part]
    fewest = min(amounts)
    if fewest == max(amounts):
        parts["amount"] = say(fewest)
        if both:
            line = w.say("{who} tie for high and low and split {what}, {amount} each", **parts)
        else:
            line = w.say("{who} split {what}, {amount} each", **parts)
        return _with_hand(w, line, hand)
    parts["amount"] = say(sum(amounts))
    if fewest == 0:  # fewer chips than tied players: only the odd chips are paid
        if both:
            line = w.say("{who} tie for high and low in {what}, {amount}", **parts)
        else:
            line = w.say("{who} tie for {what}, {amount}", **parts)
        paid = [names[a.player] for a in part if a.amount]
        if len(paid) == 1:
            detail = w.say("{name} gets the odd chip", name=paid[0])
        else:
            odd = {"names": w.listed(paid), "amount": say(1)}
            detail = w.say("{names} get the odd chips, {amount} each", **odd)
    else:
        if both:
            line = w.say("{who} tie for high and low and split {what}, {amount}", **parts)
        else:
            line = w.say("{who} split {what}, {amount}", **parts)
        one_odd = amounts.count(fewest + 1) == 1
        detail = w.say_p("list", ", ").join(
            _share_words(w, names[a.player], say(a.amount), a.amount > fewest, one_odd)
            for a in part
        )
    return w.say("{award}: {detail}", award=_with_hand(w, line, hand), detail=detail)


def _share_words(w: Words, name: str, amount: str, odd: bool, one_odd: bool) -> str:
    if not odd:
        return w.say("{name} {amount}", name=name, amount=amount)
    if one_odd:
        return w.say("{name} {amount} (the odd chip)", name=name, amount=amount)
    return w.say("{name} {amount} (an odd chip)", name=name, amount=amount)


def _with_hand(w: Words, line: str, hand: str) -> str:
    return w.say("{award}, with {hand}", award=line, hand=hand) if hand else line


__all__ = [
    "AwardLike",
    "Names",
    "Said",
    "Scene",
    "award_lines",
    "dealer_line",
    "dealer_lines",
    "game_words",
    "hand_words",
    "low_words",
    "money",
    "no_low_words",
    "pot_name",
    "scenes",
]
