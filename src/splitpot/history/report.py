"""A finished hand as a viewer may read it: the last-hands window (RULES.md 6) in the
dealer's words (``splitpot.dealer``, the one place they are kept)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from splitpot import dealer
from splitpot.cards import Card, format_cards
from splitpot.dealer import hand_words, low_words, money, pot_name
from splitpot.engine import Hand, HandResult, Mucked, Shown
from splitpot.i18n import ENGLISH, Words

__all__ = [
    "award_lines",
    "chat_lines",
    "hand_summary",
    "hand_words",
    "low_words",
    "money",
    "pot_name",
    "revealed_holes",
]


def award_lines(
    result: HandResult,
    names: Sequence[str],
    unit: str = "1",
    currency: str = "",
    has_low: bool = True,
    *,
    low_qualifier: int | None = 8,
    runs: int | None = None,
) -> list[str]:
    """One sentence per pot half of a finished hand: who won it, how much, with what;
    ``has_low`` and ``low_qualifier`` are the game's (``Variant``), ``runs`` the times the
    board was run (RULES.md 7: two runs are named so, not boards)."""
    return dealer.award_lines(
        result.awards,
        names,
        has_low=has_low,
        low_qualifier=low_qualifier,
        unit=unit,
        currency=currency,
        runs=runs,
    )


def chat_lines(
    hand: Hand,
    names: Sequence[str],
    viewer: int | None,
    start: int = 0,
    unit: str = "1",
    currency: str = "",
    revealed: Mapping[int, tuple[Card, ...]] | None = None,
    words: Words = ENGLISH,
) -> list[str]:
    """The dealer's chat for events ``start`` onward, as ``viewer`` may see them, in
    ``words``' language; a muck shows the cards ``revealed`` gives (the last-hands
    window's ``revealed_holes``)."""
    events = hand.visible_events(viewer)
    scene = dealer.Scene(hand.config.variant, unit, currency, words=words)
    before, _ = dealer.scenes(events, scene)
    lines: list[str] = []
    for event, scene in list(zip(events, before, strict=True))[start:]:
        lines += dealer.dealer_lines(event, names, scene, revealed=revealed)
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


def hand_summary(
    hand: Hand, names: Sequence[str], viewer: int | None, title: str, words: Words = ENGLISH
) -> list[str]:
    """A whole finished hand as ``viewer`` may see it, in ``words``' language: every action
    and board, the hands shown or mucked at the showdown, the five cards of each winning
    high and low, the pots and who won them."""
    say = words.say
    lines = [title]
    lines += [
        say("  {name}: {stack} chips", name=names[p], stack=words.number(stack))
        for p, stack in enumerate(hand.starting_stacks)
    ]
    revealed = revealed_holes(hand, viewer)
    lines += [
        "  " + line for line in chat_lines(hand, names, viewer, revealed=revealed, words=words)
    ]
    result = hand.result
    if result is not None and result.showdown:
        for award in result.awards:
            name = names[award.player]
            if award.high is not None:
                cards = format_cards(award.high.cards, " ")
                lines.append(say("  {name} won the high with {cards}", name=name, cards=cards))
            if award.low is not None:
                cards = format_cards(award.low.cards, " ")
                lines.append(say("  {name} won the low with {cards}", name=name, cards=cards))
    return lines
