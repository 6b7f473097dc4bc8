"""Pots: side pots level by level, and splitting a pot high/low (RULES.md 4.6 and 5)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from enum import Enum

from splitpot.evaluate import HighHand, LowHand, winners
from splitpot.frozen import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class Pot:
    """A pot and the players who may win it (those still in who put chips into it)."""

    amount: int
    eligible: tuple[int, ...]


class Share(Enum):
    """Which part of a pot an award is."""

    HIGH = "high"
    LOW = "low"
    WHOLE = "whole"  # no low half: uncontested, high only, or the same players won both


@quick_init
@dataclass(frozen=True, slots=True)
class Award:
    pot: int  # 0 is the main pot, 1 the first side pot, ...
    share: Share
    player: int
    amount: int
    high: HighHand | None = None
    low: LowHand | None = None
    board: int = 0  # the board (or run) whose part of the pot this is (RULES.md 7)


def side_pots(committed: Sequence[int], live: Sequence[bool], dead: int = 0) -> list[Pot]:
    """The main pot and side pots from each player's live chips in the pot.

    Every level at which a live player is all in closes a pot; chips of folded players
    count in the pots up to what they put in. Dead money (antes, dead small blinds) is in
    the main pot, which every player still in may win. Pots with the same eligible
    players merge.
    """
    levels = sorted({c for c, alive in zip(committed, live, strict=True) if alive})
    if len(levels) == 1:  # the usual case: every player still in has put in as much
        return [Pot(sum(committed) + dead, tuple([p for p, alive in enumerate(live) if alive]))]
    pots: list[Pot] = []
    floor = 0
    for index, level in enumerate(levels):
        amount = sum(min(c, level) - floor for c in committed if c > floor)
        amount += dead if index == 0 else 0
        eligible = tuple(
            p
            for p, (c, alive) in enumerate(zip(committed, live, strict=True))
            if alive and c >= level
        )
        if pots and pots[-1].eligible == eligible:
            pots[-1] = Pot(pots[-1].amount + amount, eligible)
        else:
            pots.append(Pot(amount, eligible))
        floor = level
    leftover = sum(c - floor for c in committed if c > floor)
    if leftover:
        if not pots:
            raise ValueError("chips in the pot but no player still in to win them")
        pots[-1] = Pot(pots[-1].amount + leftover, pots[-1].eligible)
    return pots


def clockwise_from_button(players: Sequence[int], button: int, seats: int) -> list[int]:
    """Players ordered from the first seat left of the button round to the button."""
    return sorted(players, key=lambda p: (p - button - 1) % seats)


def split_evenly(
    amount: int, players: Sequence[int], button: int, seats: int
) -> list[tuple[int, int]]:
    """Share chips equally; leftover chips one each to the first players left of the button."""
    ordered = clockwise_from_button(players, button, seats)
    each, odd = divmod(amount, len(ordered))
    return [(p, each + (1 if i < odd else 0)) for i, p in enumerate(ordered)]


def award_pot(
    index: int,
    pot: Pot,
    highs: dict[int, HighHand],
    lows: dict[int, LowHand | None] | None,
    button: int,
    seats: int,
) -> list[Award]:
    """Split one pot among its eligible players with known hands (RULES.md 5).

    ``lows`` is None for a high-only game. Half to the best high, half to the best
    qualifying low among the pot's own players; the odd chip of the halves goes high;
    when the same players win both halves the whole pot is split evenly among them.
    """
    contenders = [p for p in pot.eligible if p in highs]
    if not contenders:
        raise ValueError(f"pot {index} has no player with a hand to show")
    high_winners = [contenders[i] for i in winners([highs[p] for p in contenders])]
    low_winners: list[int] = []
    if lows is not None:
        low_winners = [contenders[i] for i in winners([lows.get(p) for p in contenders])]

    def hands(p: int, share: Share) -> tuple[HighHand | None, LowHand | None]:
        low = lows.get(p) if lows is not None else None
        if share is Share.HIGH:
            return highs[p], None
        if share is Share.LOW:
            return None, low
        return highs[p], low if p in low_winners else None

    if not low_winners or sorted(low_winners) == sorted(high_winners):
        parts = [(Share.WHOLE, pot.amount, high_winners)]
    else:
        low_half = pot.amount // 2
        parts = [
            (Share.HIGH, pot.amount - low_half, high_winners),
            (Share.LOW, low_half, low_winners),
        ]
    awards = []
    for share, amount, part_winners in parts:
        for player, chips in split_evenly(amount, part_winners, button, seats):
            high, low = hands(player, share)
            awards.append(Award(index, share, player, chips, high, low))
    return awards


def cut(amount: int, parts: int) -> list[int]:
    """A pot cut into equal parts, one for each board or run, the odd chips to the first
    (RULES.md 7)."""
    each = amount // parts
    return [amount - each * (parts - 1)] + [each] * (parts - 1)


def award_pots(
    pots: Sequence[Pot],
    boards: Sequence[tuple[dict[int, HighHand], dict[int, LowHand | None] | None]],
    button: int,
    seats: int,
) -> list[Award]:
    """Every pot, the side pots first and the main pot last: a pot with one player still
    in is theirs whole; a contested one is cut into a part for each board (or run), each
    part split by the hands' values on that board alone (``award_pot``, RULES.md 5 and 7).

    ``boards`` holds, for each board, the high value of each hand and (None in a game
    with no low) its low."""
    awards: list[Award] = []
    for index in reversed(range(len(pots))):
        pot = pots[index]
        if len(pot.eligible) > 1:
            for board, part in enumerate(cut(pot.amount, len(boards))):
                if part == 0:
                    continue  # a pot of one chip has nothing for a second board
                highs, lows = boards[board]
                part_pot = Pot(part, pot.eligible)
                for award in award_pot(index, part_pot, highs, lows, button, seats):
                    awards.append(replace(award, board=board) if board else award)
        else:
            shares = split_evenly(pot.amount, pot.eligible, button, seats)
            awards.extend(Award(index, Share.WHOLE, p, chips) for p, chips in shares)
    return awards
