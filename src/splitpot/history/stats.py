"""Each player's figures over finished hands (issue 24, docs/protocol.md "Statistics"):
the usual HUD figures and the hi/lo ones, read from the hand records as the engine
replays them, correct for run it twice and double boards (RULES.md 7). Pure: records
in, frozen figures out.

The figures, per player, over the hands they were dealt:

- ``hands``: hands dealt.
- VPIP: hands in which they put chips in the pot voluntarily before the flop (a call, a
  bet or a raise; blinds, antes, straddles and a bomb pot's post do not count), of the
  hands with betting before the flop (a bomb pot has none: it counts in neither).
- PFR: hands in which they bet or raised before the flop, of the same hands.
- three-bet: hands in which they raised while facing exactly one bet or raise before the
  flop (a straddle is a post, not a raise), of the hands in which they had that chance
  (their first action facing exactly one raise).
- WTSD (went to showdown): hands they took to a showdown, of the hands in which they saw
  the flop (still in when it came; everyone in a bomb pot).
- W$SD (won at showdown): showdowns in which they won chips, of their showdowns.
- scoops: showdowns in which they won every chip of every pot they contested (a pot
  with two or more players in it), on every board and run: alone, no half, no board
  given up; of the showdowns in which they won chips.
- high halves and low halves: the pot parts (one per pot and board or run, RULES.md 7)
  whose high (or low) they won or shared, at a showdown, in pots with two or more
  players; a part won whole with the best high and the best low counts as both.
- quartered: the pot parts in which they shared a high or a low half with another player.
- low made when a low was possible: of the boards (each board, each run) complete at the
  end of a hand they held to the end whose cards the viewer may see
  (``report.revealed_holes``: their own, or shown, or mucked at the showdown), those
  where the board allowed a qualifying low (three different ranks up to the game's
  qualifier), the boards where their hand made one. The only figure read from cards: a
  hand a viewer may not see never counts in it.
- net: the chips they won less the chips they lost, and the same in big blinds (each
  hand's result over that hand's big blind).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, fields
from fractions import Fraction

from splitpot.cards import Card
from splitpot.engine import (
    Acted,
    ActionKind,
    BoardDealt,
    Hand,
    HandResult,
    Posted,
    PostKind,
    Share,
    Street,
)
from splitpot.evaluate import Variant, best_low
from splitpot.evaluate.ranking import low_value
from splitpot.history.model import HandRecord
from splitpot.history.replay import replay_record
from splitpot.history.report import revealed_holes

LOW_BOARD_CARDS = 3  # an Omaha low takes three of the board's cards
BOARD_CARDS = 5
VOLUNTARY = (ActionKind.CALL, ActionKind.BET, ActionKind.RAISE)
RAISES = (ActionKind.BET, ActionKind.RAISE)


@dataclass(frozen=True, slots=True)
class Ratio:
    """``made`` of ``of`` (the figure's chances); ``percent`` None when there was none."""

    made: int = 0
    of: int = 0

    @property
    def percent(self) -> float | None:
        return None if self.of == 0 else round(100 * self.made / self.of, 1)

    def __add__(self, other: Ratio) -> Ratio:
        return Ratio(self.made + other.made, self.of + other.of)


NO_PREFLOP = (Ratio(), Ratio(), Ratio())  # a bomb pot's: no betting before the flop


@dataclass(frozen=True, slots=True)
class PlayerFigures:
    """One player's figures over some hands (the module's docstring defines each)."""

    hands: int = 0
    vpip: Ratio = Ratio()
    pfr: Ratio = Ratio()
    three_bet: Ratio = Ratio()
    wtsd: Ratio = Ratio()
    wsd: Ratio = Ratio()
    scoops: Ratio = Ratio()
    high_halves: int = 0
    low_halves: int = 0
    quartered: int = 0
    low_made: Ratio = Ratio()
    net: int = 0
    net_bb: Fraction = Fraction(0)

    def __add__(self, other: PlayerFigures) -> PlayerFigures:
        return PlayerFigures(
            *(getattr(self, f.name) + getattr(other, f.name) for f in fields(PlayerFigures))
        )


@dataclass(frozen=True, slots=True)
class StatsHand:
    """A finished hand as the figures read it: its record, the room player id of each
    of its players (in the record's order) and its number at its table."""

    record: HandRecord
    player_ids: tuple[int, ...]
    number: int


@dataclass(frozen=True, slots=True)
class SeatFigures:
    """One player's part of one hand: their room player id, their figures of it and
    their stack at its end."""

    player_id: int
    figures: PlayerFigures
    stack: int


@dataclass(frozen=True, slots=True)
class HandFigures:
    """One hand's figures as one viewer may know them: its number at its table and each
    player's part, in the record's order of players."""

    number: int
    seats: tuple[SeatFigures, ...]


@dataclass(frozen=True, slots=True)
class ChipsPoint:
    """A player's stack at the end of a hand (its number at the table)."""

    hand: int
    stack: int


@dataclass(frozen=True, slots=True)
class Statistics:
    """Each player's figures (by room player id), and their stack after each hand they
    were dealt, in the order the hands were given."""

    players: Mapping[int, PlayerFigures]
    chips: Mapping[int, tuple[ChipsPoint, ...]]


def statistics(hands: Iterable[StatsHand], viewer: int | None) -> Statistics:
    """The figures of every player of ``hands`` (oldest first) as ``viewer`` (a room
    player id; None: a watcher) may know them."""
    return total(hand_figures(stats_hand, viewer) for stats_hand in hands)


def total(hands: Iterable[HandFigures]) -> Statistics:
    """The figures of hands (oldest first) added up, player by player."""
    players: dict[int, PlayerFigures] = defaultdict(PlayerFigures)
    chips: dict[int, list[ChipsPoint]] = defaultdict(list)
    for hand in hands:
        for seat in hand.seats:
            players[seat.player_id] += seat.figures
            chips[seat.player_id].append(ChipsPoint(hand.number, seat.stack))
    return Statistics(dict(players), {p: tuple(points) for p, points in chips.items()})


def hand_figures(stats_hand: StatsHand, viewer: int | None) -> HandFigures:
    """Each player's figures of one finished hand as ``viewer`` (a room player id; None:
    a watcher) may know them: the cards only of the hands the viewer may see. They
    depend on the viewer only through ``viewer_key``."""
    record, ids = stats_hand.record, stats_hand.player_ids
    hand = replay_record(record).hand
    result = hand.result
    assert result is not None, f"hand {record.id} is not finished"
    preflop = _preflop(hand)
    seen = revealed_holes(hand, ids.index(viewer) if viewer in ids else None)
    saw_flop = _saw_flop(hand)
    contested = {i for i, pot in enumerate(result.pots) if len(pot.eligible) > 1}
    big_blind = record.config.betting.big_blind
    seats = []
    for player, starting in enumerate(record.players):
        net = result.stacks[player] - starting.stack
        showdown = result.showdown and not hand.folded[player]
        won = showdown and result.won(player) > 0
        scooped = won and _scooped(result, contested, player)
        vpip, pfr, three_bet = preflop.get(player, NO_PREFLOP)
        figures = PlayerFigures(
            hands=1,
            vpip=vpip,
            pfr=pfr,
            three_bet=three_bet,
            wtsd=Ratio(int(showdown), 1) if player in saw_flop else Ratio(),
            wsd=Ratio(int(won), 1) if showdown else Ratio(),
            scoops=Ratio(int(scooped), 1) if won else Ratio(),
            high_halves=_halves(result, contested, player, low=False),
            low_halves=_halves(result, contested, player, low=True),
            quartered=_quartered(result, contested, player),
            low_made=_low_made(hand, player, seen.get(player)),
            net=net,
            net_bb=Fraction(net, big_blind),
        )
        seats.append(SeatFigures(ids[player], figures, result.stacks[player]))
    return HandFigures(stats_hand.number, tuple(seats))


def viewer_key(player_ids: Sequence[int], viewer: int | None) -> int | None:
    """What of ``viewer`` a hand's figures depend on: the viewer if they played the
    hand (their own cards), else None (every other viewer sees the same)."""
    return viewer if viewer in player_ids else None


def _preflop(hand: Hand) -> dict[int, tuple[Ratio, Ratio, Ratio]]:
    """Each player's VPIP, PFR and three-bet before the flop; empty for a bomb pot (no
    betting before the flop)."""
    events = hand.events
    if any(isinstance(e, Posted) and e.kind is PostKind.BOMB for e in events):
        return {}
    voluntary: set[int] = set()
    raised: set[int] = set()
    chances: dict[int, bool] = {}  # a player's three-bet chance: whether they took it
    raises = 0
    for event in events:
        if isinstance(event, BoardDealt):
            break
        if not isinstance(event, Acted):
            continue
        if raises == 1 and event.player not in chances:
            chances[event.player] = event.kind in RAISES
        if event.kind in VOLUNTARY:
            voluntary.add(event.player)
        if event.kind in RAISES:
            raised.add(event.player)
            raises += 1
    return {
        player: (
            Ratio(int(player in voluntary), 1),
            Ratio(int(player in raised), 1),
            Ratio(int(chances.get(player, False)), int(player in chances)),
        )
        for player in range(hand.players)
    }


def _saw_flop(hand: Hand) -> set[int]:
    """The players still in when the flop came (none if it never came)."""
    folded: set[int] = set()
    for event in hand.events:
        if isinstance(event, BoardDealt) and event.street is Street.FLOP:
            return set(range(hand.players)) - folded
        if isinstance(event, Acted) and event.kind is ActionKind.FOLD:
            folded.add(event.player)
    return set()


def _scooped(result: HandResult, contested: set[int], player: int) -> bool:
    """Whether ``player`` won every chip of every ``contested`` pot they were in."""
    whole: dict[int, int] = defaultdict(int)
    theirs: dict[int, int] = defaultdict(int)
    for award in result.awards:
        whole[award.pot] += award.amount
        theirs[award.pot] += award.amount if award.player == player else 0
    return all(
        theirs[index] == whole[index]
        for index in contested
        if player in result.pots[index].eligible
    )


def _halves(result: HandResult, contested: set[int], player: int, *, low: bool) -> int:
    """The contested pot parts (pot, board) whose high (``low``: low) ``player`` won."""
    return len(
        {
            (award.pot, award.board)
            for award in result.awards
            if award.player == player
            and award.pot in contested
            and (award.low if low else award.high) is not None
        }
    )


def _quartered(result: HandResult, contested: set[int], player: int) -> int:
    """The contested pot parts in which ``player`` shared a high or a low half."""
    sharers: dict[tuple[int, int, Share], set[int]] = defaultdict(set)
    for award in result.awards:
        if award.share is not Share.WHOLE and award.pot in contested:
            sharers[award.pot, award.board, award.share].add(award.player)
    return len(
        {
            (pot, board)
            for (pot, board, _), players in sharers.items()
            if player in players and len(players) > 1
        }
    )


def _low_made(hand: Hand, player: int, hole: tuple[Card, ...] | None) -> Ratio:
    """Of the complete boards of a hand ``player`` held to the end, with cards the
    viewer may see (``hole``), those that allowed a low: the lows made on them."""
    variant = hand.config.variant
    if hole is None or hand.folded[player] or not variant.has_low:
        return Ratio()
    boards = [tuple(c for c in board if c is not None) for board in hand.boards]
    possible = [b for b in boards if len(b) == BOARD_CARDS and low_possible(variant, b)]
    made = sum(best_low(hole, board, variant.low_qualifier) is not None for board in possible)
    return Ratio(made, len(possible))


def low_possible(variant: Variant, board: Sequence[Card]) -> bool:
    """Whether a complete board allows a qualifying low: three different ranks up to
    the game's qualifier (any rank without one)."""
    limit = variant.low_qualifier or 13
    return len({v for card in board if (v := low_value(card.rank)) <= limit}) >= LOW_BOARD_CARDS
