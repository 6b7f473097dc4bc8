"""Awards in words, as a dealer reports them (RULES.md 5, 'Reporting')."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from decimal import Decimal
from itertools import groupby

from splitpot.cards import Card, format_cards
from splitpot.engine import (
    Acted,
    ActionKind,
    Award,
    BoardDealt,
    Hand,
    HandEnded,
    HandResult,
    HoleCardsDealt,
    Mucked,
    Posted,
    RakeTaken,
    Share,
    Shown,
    UncalledBetReturned,
)
from splitpot.evaluate import HighHand, LowHand


def money(chips: int, unit: str = "1", currency: str = "") -> str:
    """Chips in the file's money: 263750 cents is "$2637.50", 1500 cents "$15"."""
    if unit == "1":
        return f"{currency}{chips}"
    value = Decimal(chips) * Decimal(unit)
    text = f"{value:.2f}"
    return currency + (text[:-3] if text.endswith(".00") else text)


def pot_name(index: int, pots: int) -> str:
    if pots == 1:
        return "the pot"
    if index == 0:
        return "the main pot"
    return "the side pot" if pots == 2 else f"side pot {index}"


def low_words(low: LowHand) -> str:
    return f"{low.nickname}, {low.name}" if low.nickname else low.name


def hand_words(high: HighHand | None, low: LowHand | None) -> str:
    if high is not None and low is not None:
        return f"{low_words(low)}, and {high.name}"
    if low is not None:
        return low_words(low)
    return high.name if high is not None else ""


def _names(players: Sequence[str]) -> str:
    return players[0] if len(players) == 1 else ", ".join(players[:-1]) + " and " + players[-1]


def award_lines(
    result: HandResult,
    names: Sequence[str],
    unit: str = "1",
    currency: str = "",
    has_low: bool = True,
) -> list[str]:
    """One sentence per pot half: who won it, how much, with what."""
    lines: list[str] = []
    pots = len(result.pots)
    for (pot, share), group in groupby(result.awards, key=lambda a: (a.pot, a.share)):
        awards: list[Award] = list(group)
        where = pot_name(pot, pots)
        lines.append(_award_sentence(awards, share, where, names, unit, currency))
        first = awards[0]
        no_low = share is Share.WHOLE and first.high is not None and first.low is None
        if has_low and no_low:
            lines.append(f"No low hand qualified for {where}")
    return lines


def _award_sentence(
    awards: Sequence[Award],
    share: Share,
    where: str,
    names: Sequence[str],
    unit: str,
    currency: str,
) -> str:
    """One part of one pot in words (RULES.md 5, 'Odd chips' and 'Reporting').

    ``awards`` are the winners of the part in the order the engine pays them: the first
    left of the button first, so the odd chips go to the front of the list.
    """
    first = awards[0]
    words = hand_words(first.high, first.low)
    with_hand = f", with {words}" if words else ""
    part = {Share.HIGH: f"the high half of {where}", Share.LOW: f"the low half of {where}"}
    what = part.get(share, where)
    who = _names([names[a.player] for a in awards])
    if len(awards) == 1:
        verb = "scoops" if share is Share.WHOLE and first.low is not None else "wins"
        return f"{who} {verb} {what}, {money(first.amount, unit, currency)}{with_hand}"
    both = share is Share.WHOLE and first.low is not None  # tied for high and low: one split
    verb = "tie for high and low and split" if both else "split"
    amounts = [a.amount for a in awards]
    fewest = min(amounts)
    if fewest == max(amounts):
        return f"{who} {verb} {what}, {money(fewest, unit, currency)} each{with_hand}"
    if fewest == 0:  # fewer chips than tied players: only the odd chips are paid
        verb = "tie for high and low in" if both else "tie for"
        paid = [names[a.player] for a in awards if a.amount]
        detail = (
            f"{paid[0]} gets the odd chip"
            if len(paid) == 1
            else f"{_names(paid)} get the odd chips, {money(1, unit, currency)} each"
        )
    else:
        odd = "the odd chip" if amounts.count(fewest + 1) == 1 else "an odd chip"
        detail = ", ".join(
            f"{names[a.player]} {money(a.amount, unit, currency)}"
            + (f" ({odd})" if a.amount > fewest else "")
            for a in awards
        )
    total = money(sum(amounts), unit, currency)
    return f"{who} {verb} {what}, {total}{with_hand}: {detail}"


def _action_text(event: Acted, names: Sequence[str], unit: str, currency: str) -> str:
    name = names[event.player]
    all_in = " and is all in" if event.all_in else ""
    match event.kind:
        case ActionKind.FOLD:
            return f"{name} folds"
        case ActionKind.CHECK:
            return f"{name} checks"
        case ActionKind.CALL:
            return f"{name} calls {money(event.added, unit, currency)}{all_in}"
        case ActionKind.BET:
            return f"{name} bets {money(event.to, unit, currency)}{all_in}"
        case _:
            return f"{name} raises to {money(event.to, unit, currency)}{all_in}"


def chat_lines(
    hand: Hand,
    names: Sequence[str],
    viewer: int | None,
    start: int = 0,
    unit: str = "1",
    currency: str = "",
    revealed: Mapping[int, tuple[Card, ...]] | None = None,
) -> list[str]:
    """The dealer's chat for events ``start`` onward, as ``viewer`` may see them; a muck
    shows the cards ``revealed`` gives (the last-hands window's ``revealed_holes``)."""
    lines: list[str] = []
    board: list[str] = []
    for event in hand.events[:start]:
        if isinstance(event, BoardDealt):
            board += [str(c) for c in event.cards]
    for event in hand.visible_events(viewer)[start:]:
        if isinstance(event, Posted):
            amount = money(event.amount, unit, currency)
            lines.append(f"{names[event.player]} posts the {event.kind.value}, {amount}")
        elif isinstance(event, HoleCardsDealt) and event.player == viewer:
            lines.append(f"Dealt to {names[event.player]}: {' '.join(str(c) for c in event.cards)}")
        elif isinstance(event, Acted):
            lines.append(_action_text(event, names, unit, currency))
        elif isinstance(event, BoardDealt):
            board += [str(c) for c in event.cards]
            lines.append(f"{event.street.label.capitalize()}: {' '.join(board)}")
        elif isinstance(event, UncalledBetReturned):
            amount = money(event.amount, unit, currency)
            lines.append(f"Uncalled bet of {amount} returned to {names[event.player]}")
        elif isinstance(event, Shown):
            words = hand_words(event.high, event.low) or "no hand"
            cards = format_cards(event.cards, " ")
            lines.append(f"{names[event.player]} shows {cards}: {words}")
        elif isinstance(event, Mucked):
            mucked = (revealed or {}).get(event.player, ())
            lines.append(f"{names[event.player]} mucks {format_cards(mucked, ' ')}".rstrip())
        elif isinstance(event, RakeTaken):
            lines.append(f"Rake: {money(event.amount, unit, currency)}")
        elif isinstance(event, HandEnded) and hand.result is not None:
            has_low = hand.config.variant.has_low and hand.result.showdown
            lines += award_lines(hand.result, names, unit, currency, has_low)
    return lines


def revealed_holes(hand: Hand, viewer: int | None) -> dict[int, tuple[Card, ...]]:
    """The hole cards ``viewer`` (None: a spectator) may see of ``hand`` (RULES.md 6,
    'Last hands'): their own, every hand shown, and once the hand is over every hand
    mucked at the showdown; never a hand folded before it, nor an unknown card."""
    seen: dict[int, tuple[Card, ...]] = {}
    for event in hand.events:
        if isinstance(event, Shown):
            seen[event.player] = event.cards
        elif isinstance(event, Mucked) and hand.is_over and not hand.folded[event.player]:
            seen |= _known(event.player, hand.holes[event.player])
    if viewer is not None:
        seen |= _known(viewer, hand.holes[viewer])
    return dict(sorted(seen.items()))


def _known(player: int, cards: tuple[Card | None, ...]) -> dict[int, tuple[Card, ...]]:
    known = tuple(card for card in cards if card is not None)
    return {player: known} if known and len(known) == len(cards) else {}


def hand_summary(hand: Hand, names: Sequence[str], viewer: int | None, title: str) -> list[str]:
    """A whole finished hand as ``viewer`` may see it: every action and board, the hands
    shown or mucked at the showdown, the five cards of each winning high and low, the
    pots and who won them."""
    lines = [title]
    lines += [f"  {names[p]}: {stack} chips" for p, stack in enumerate(hand.starting_stacks)]
    revealed = revealed_holes(hand, viewer)
    lines += ["  " + line for line in chat_lines(hand, names, viewer, revealed=revealed)]
    result = hand.result
    if result is not None and result.showdown:
        for award in result.awards:
            for label, value in (("high", award.high), ("low", award.low)):
                if value is not None:
                    cards = format_cards(value.cards, " ")
                    lines.append(f"  {names[award.player]} won the {label} with {cards}")
    return lines
