"""The dealer's words: what the dealer says in chat of each thing that happens at a table
(RULES.md 5, 'Reporting'), one event at a time, for the room, the terminal game and the
hand histories alike.

Players are named through ``names`` by the event's own player key: a hand's player index
for the engine's events, the table seat for the table's (``InHand`` events). A ``Scene``
carries what one event does not: the game, the chip's money, the board dealt before the
event and the hand's awards, which the dealer reports part by part (``scenes`` follows a
run of events).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from decimal import Decimal
from functools import partial
from itertools import groupby
from typing import Protocol

from splitpot.cards import Card, format_cards
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
    Share,
    Shown,
    TurnedFaceUp,
    UncalledBetReturned,
)
from splitpot.evaluate import HandHelp, HighHand, LowHand
from splitpot.rules import Betting, Variant
from splitpot.table import (
    ChipsAdded,
    HandFinished,
    HandStarted,
    InHand,
    PlayerLeft,
    PlayerSat,
    SatIn,
    SatOut,
    StakesChanged,
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


@dataclass(frozen=True, slots=True)
class Scene:
    """What the dealer knows beyond one event: the game, the chip's value in money
    (``unit``, e.g. "0.01", and ``currency``), the board dealt before the event, and the
    awards of the hand (which come together at its end)."""

    variant: Variant
    unit: str = "1"
    currency: str = ""
    board: tuple[Card | None, ...] = ()
    awards: tuple[PotAwarded, ...] = ()

    def money(self, chips: int) -> str:
        return money(chips, self.unit, self.currency)


def money(chips: int, unit: str = "1", currency: str = "") -> str:
    """Chips in the table's money: 263750 cents is "$2637.50", 1500 cents "$15"."""
    if unit == "1":
        return f"{currency}{chips}"
    value = Decimal(chips) * Decimal(unit)
    text = f"{value:.2f}"
    return currency + (text[:-3] if text.endswith(".00") else text)


def pot_name(index: int, pots: int) -> str:
    """Pot ``index`` of ``pots`` in words: "the pot", "the main pot", "side pot 2"."""
    if pots == 1:
        return "the pot"
    if index == 0:
        return "the main pot"
    return "the side pot" if pots == 2 else f"side pot {index}"


def low_words(low: LowHand) -> str:
    return f"{low.nickname}, {low.name}" if low.nickname else low.name


def hand_words(high: HighHand | None, low: LowHand | None) -> str:
    """A hand's high and low in words: "8,4,3,2,A, and three of a kind, Aces"."""
    if high is not None and low is not None:
        return f"{low_words(low)}, and {high.name}"
    if low is not None:
        return low_words(low)
    return high.name if high is not None else ""


def help_words(help: HandHelp) -> str:
    """The hand helper's line: "two pair, Kings and Fives · low 7,5,3,2,A", with "no low
    yet" or "no low possible" where the game has a low."""
    parts = [] if help.high is None else [help.high.name]
    if help.variant.has_low:
        if help.low is not None:
            parts.append(f"low {low_words(help.low)}")
        elif not help.low_possible:
            parts.append("no low possible")
        elif help.high is not None:
            parts.append("no low yet")
    return " · ".join(parts)


def game_words(betting: Betting, say: Say = str) -> str:
    """A structure and its stakes: "Pot Limit 1/2", "Fixed Limit 2/4"."""
    first, second = betting.stake_amounts
    return f"{betting.name} {say(first)}/{say(second)}"


def scenes(events: Sequence[Said], start: Scene) -> tuple[list[Scene], Scene]:
    """The scene before each event, and the scene after them all.

    A hand's awards come in one run at its end (in one table call); each award's scene
    holds the whole run, so a tie is told in one sentence and pots are named by count.
    """
    before: list[Scene] = []
    scene = start
    for index, event in enumerate(events):
        inner = _engine(event)
        if isinstance(event, HandStarted):
            scene = replace(scene, variant=event.variant, board=(), awards=())
        elif isinstance(inner, PotAwarded) and not _award_at(events, index - 1):
            scene = replace(scene, awards=_awards_from(events, index))
        before.append(scene)
        if isinstance(inner, BoardDealt):
            scene = replace(scene, board=scene.board + inner.cards)
    return before, scene


def _engine(event: Said) -> Said:
    return event.event if isinstance(event, InHand) else event


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
    """What the dealer says of ``event``: no line, one, or two (a hand's start with the
    draw for the button, a pot part and that no low qualified for the pot).

    Pass the event as its listener may see it (``seen_by``): a deal of hole cards is
    told only with its cards. A muck shows the cards ``revealed`` gives for its player
    (the last-hands window, RULES.md 6)."""
    if isinstance(event, HandStarted):
        return _hand_started(event, scene.money)
    if isinstance(event, PlayerSat | PlayerLeft | SatOut | SatIn | ChipsAdded | StakesChanged):
        return [_table_line(event, scene.money)]
    if isinstance(event, HandFinished):
        return []  # the awards are told as they are paid
    inner = event.event if isinstance(event, InHand) else event
    return _hand_lines(inner, names, scene, revealed or {})


def _table_line(
    event: PlayerSat | PlayerLeft | SatOut | SatIn | ChipsAdded | StakesChanged, say: Say
) -> str:
    match event:
        case PlayerSat(seat=seat, name=name, stack=stack, post_now=post_now):
            now = " and posts to play now" if post_now else ""
            return f"{name} sits down in seat {seat + 1} with {say(stack)}{now}"
        case PlayerLeft(name=name, stack=stack):
            return f"{name} leaves the table with {say(stack)}"
        case SatOut(name=name, timed_out=timed_out):
            return f"{name} is out of time and sits out" if timed_out else f"{name} sits out"
        case SatIn(name=name, post_now=post_now):
            return f"{name} is back" + (" and posts to play now" if post_now else "")
        case ChipsAdded(name=name, amount=amount, stack=stack):
            return f"{name} adds {say(amount)} and has {say(stack)}"
        case StakesChanged(betting=betting):
            return f"The game turns to {game_words(betting, say)}"


def _hand_started(event: HandStarted, say: Say) -> list[str]:
    """RULES.md 4.1: the hand, its game and the button; the draw for the button."""
    game = f"{event.variant.title}, {game_words(event.betting, say)}"
    lines = [f"Hand #{event.number}: {game}, button seat {event.button + 1}"]
    if event.draw:
        names = dict(zip(event.seats, event.names, strict=True))  # a draw deals everyone in
        drawn = ", ".join(f"{names[seat]} {card}" for seat, card in event.draw)
        lines.append(f"Draw for the button: {drawn}")
    return lines


def _hand_lines(
    event: Event, names: Names, scene: Scene, revealed: Mapping[int, tuple[Card, ...]]
) -> list[str]:
    say = scene.money
    match event:
        case Posted(player=player, kind=kind, amount=amount, all_in=all_in):
            words = _POST_WORDS.get(kind, kind.value)
            return [f"{names[player]} posts the {words}, {say(amount)}{_all_in(all_in)}"]
        case HoleCardsDealt(player=player, cards=cards) if None not in cards:
            return [f"Dealt to {names[player]}: {_cards(cards)}"]
        case Acted():
            return [_action_line(event, names, say)]
        case BoardDealt(street=street, cards=cards):
            return [f"{street.label.capitalize()}: {_cards(scene.board + cards)}"]
        case UncalledBetReturned(player=player, amount=amount):
            return [f"Uncalled bet of {say(amount)} returned to {names[player]}"]
        case TurnedFaceUp(player=player, cards=cards):
            return [f"{names[player]} turns up {_cards(cards)}"]
        case Shown(player=player, cards=cards, high=high, low=low):
            return [f"{names[player]} shows {_cards(cards)}: {hand_words(high, low) or 'no hand'}"]
        case Mucked(player=player):
            return [f"{names[player]} mucks {_cards(revealed.get(player, ()))}".rstrip()]
        case RakeTaken(amount=amount):
            return [f"Rake: {say(amount)}"]
        case PotAwarded():
            return _award_told(event, names, scene)
    return []


_POST_WORDS = {PostKind.LIVE: "big blind"}  # a live big blind to come in (RULES.md 6)


def _cards(cards: Sequence[Card | None]) -> str:
    return format_cards((c for c in cards if c is not None), " ")


def _all_in(all_in: bool) -> str:
    return " and is all in" if all_in else ""


def _action_line(event: Acted, names: Names, say: Say) -> str:
    name, all_in = names[event.player], _all_in(event.all_in)
    match event.kind:
        case ActionKind.FOLD:
            return f"{name} folds"
        case ActionKind.CHECK:
            return f"{name} checks"
        case ActionKind.CALL:
            return f"{name} calls {say(event.added)}{all_in}"
        case ActionKind.BET:
            return f"{name} bets {say(event.to)}{all_in}"
        case _:
            return f"{name} raises to {say(event.to)}{all_in}"


def _award_told(event: PotAwarded, names: Names, scene: Scene) -> list[str]:
    """A pot part is told once, at its first award, for all the players it pays."""
    part = [a for a in scene.awards if (a.pot, a.share) == (event.pot, event.share)]
    if event not in part:
        raise ValueError(
            f"the award of {event.amount} from pot {event.pot} to player {event.player} is "
            "not among the scene's awards: pass the scene that scenes() gives for it"
        )
    if part[0] != event:
        return []
    where = pot_name(event.pot, _pot_count(scene.awards))
    variant = scene.variant
    return _part_lines(part, names, where, variant.has_low, variant.low_qualifier, scene.money)


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
) -> list[str]:
    """A hand's awards in words, one sentence per pot part (RULES.md 5), and for a pot of
    a game with a low that had no low half, a line saying so (``no_low_words``)."""
    lines: list[str] = []
    pots = _pot_count(awards) if awards else 0
    say: Say = partial(money, unit=unit, currency=currency)
    for (pot, _), part in groupby(awards, key=lambda a: (a.pot, a.share)):
        where = pot_name(pot, pots)
        lines += _part_lines(list(part), names, where, has_low, low_qualifier, say)
    return lines


def no_low_words(where: str, low_qualifier: int | None) -> str:
    """A pot without a low half, RULES.md 2: no low qualified (eight or better), or, in
    the game without a qualifier, no hand makes five different ranks."""
    if low_qualifier is None:
        return f"No low for {where}: no hand makes five different ranks"
    return f"No low hand qualified for {where}"


def _part_lines(
    part: Sequence[AwardLike],
    names: Names,
    where: str,
    has_low: bool,
    low_qualifier: int | None,
    say: Say,
) -> list[str]:
    first = part[0]
    lines = [_award_sentence(part, names, where, say)]
    no_low = first.share is Share.WHOLE and first.high is not None and first.low is None
    if has_low and no_low:
        lines.append(no_low_words(where, low_qualifier))
    return lines


def _award_sentence(part: Sequence[AwardLike], names: Names, where: str, say: Say) -> str:
    """One part of one pot in words (RULES.md 5, 'Odd chips' and 'Reporting').

    ``part`` holds the winners of the part in the order the engine pays them: the first
    left of the button first, so the odd chips go to the front of the list.
    """
    first, share = part[0], part[0].share
    words = hand_words(first.high, first.low)
    with_hand = f", with {words}" if words else ""
    halves = {Share.HIGH: f"the high half of {where}", Share.LOW: f"the low half of {where}"}
    what = halves.get(share, where)
    who = _listed([names[a.player] for a in part])
    both = share is Share.WHOLE and first.low is not None  # high and low: one split
    if len(part) == 1:
        return f"{who} {'scoops' if both else 'wins'} {what}, {say(first.amount)}{with_hand}"
    verb = "tie for high and low and split" if both else "split"
    amounts = [a.amount for a in part]
    fewest = min(amounts)
    if fewest == max(amounts):
        return f"{who} {verb} {what}, {say(fewest)} each{with_hand}"
    if fewest == 0:  # fewer chips than tied players: only the odd chips are paid
        verb = "tie for high and low in" if both else "tie for"
        paid = [names[a.player] for a in part if a.amount]
        detail = (
            f"{paid[0]} gets the odd chip"
            if len(paid) == 1
            else f"{_listed(paid)} get the odd chips, {say(1)} each"
        )
    else:
        odd = "the odd chip" if amounts.count(fewest + 1) == 1 else "an odd chip"
        detail = ", ".join(
            f"{names[a.player]} {say(a.amount)}" + (f" ({odd})" if a.amount > fewest else "")
            for a in part
        )
    return f"{who} {verb} {what}, {say(sum(amounts))}{with_hand}: {detail}"


def _listed(players: Sequence[str]) -> str:
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


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
