"""Open Hand History (OHH, hh-specs.handhistory.org, spec 1.4.7), the JSON hand history
trackers adopted: written, not read. A hand is one ``{"ohh": {...}}`` object; a file of
many holds one object a line with a blank line between (the spec's storage format).

RULES.md 7: antes and straddles are OHH's ``Post Ante`` and ``Straddle``; OHH has one
board, preflop betting and no kill, so a double board, a board run twice, a bomb pot and a
kill blind are refused by name.

What the hero sees is written, as in PokerStars text (``report.revealed_holes``): their own
cards dealt, every hand shown, and a hand mucked at the showdown; never a folded hand.
"""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable, Iterable
from datetime import UTC, datetime
from decimal import Decimal
from typing import Any

from splitpot.cards import Card
from splitpot.engine import (
    Acted,
    ActionKind,
    BoardDealt,
    Hand,
    HoleCardsDealt,
    Mucked,
    Posted,
    PostKind,
    PotAwarded,
    Shown,
)
from splitpot.history import report
from splitpot.history.model import HandRecord, HistoryError
from splitpot.rules import Structure, Variant

SPEC_VERSION = "1.4.7"
INTERNAL_VERSION = "1.4.0"  # splitpot's writer: the spec's major and minor, then its fixes
SITE = "splitpot"

# The spec has no game type of its own for Big O: its five hole cards tell it apart. It has
# none for Hi/Lo without a qualifier, which "OmahaHiLo" (eight or better) would misread.
GAME_TYPES = {Variant.O8: "OmahaHiLo", Variant.BIGO: "OmahaHiLo", Variant.OMAHA: "Omaha"}
BET_TYPES = {Structure.FIXED_LIMIT: "FL", Structure.POT_LIMIT: "PL", Structure.NO_LIMIT: "NL"}
POSTS = {
    PostKind.SMALL_BLIND: "Post SB",
    PostKind.BIG_BLIND: "Post BB",
    PostKind.STRADDLE: "Straddle",
    PostKind.LIVE: "Post Extra Blind",  # a new or returning player's big blind
    PostKind.DEAD: "Post Dead",
    PostKind.ANTE: "Post Ante",
}
ACTIONS = {
    ActionKind.FOLD: "Fold",
    ActionKind.CHECK: "Check",
    ActionKind.CALL: "Call",
    ActionKind.BET: "Bet",
    ActionKind.RAISE: "Raise",
}
CURRENCIES = {"$": "USD", "€": "EUR", "£": "GBP"}  # anything else: chips, "XPM"

Money = Callable[[int], int | float]  # chips as the file's money


def ohh_document(
    record: HandRecord,
    hand: Hand,
    *,
    started: datetime,
    hero: int | None = None,
    table: str = SITE,
    seats: int | None = None,
) -> dict[str, Any]:
    """The hand as OHH: ``hand`` is the finished engine hand of ``record``, ``hero`` the
    player whose view is written (None: a watcher's), ``started`` the hand's start (UTC
    when it has no zone), ``seats`` the table's size. HistoryError for a hand the spec has
    no game type for."""
    game_type = GAME_TYPES.get(record.config.variant)
    if game_type is None:
        raise HistoryError(
            f"OHH has no game type for {record.config.variant.title}: "
            "write its hands as splitpot JSON or PHH"
        )
    if hand.result is None:
        raise HistoryError("only a finished hand can be written")
    unsaid = _unsaid(record)
    if unsaid is not None:
        raise HistoryError(f"OHH cannot say {unsaid}: hand {record.id}")
    money = _money(record.unit)
    betting = record.config.betting
    return {
        "ohh": {
            "spec_version": SPEC_VERSION,
            "site_name": SITE,
            "network_name": SITE,
            "internal_version": INTERNAL_VERSION,
            "tournament": False,
            "game_number": record.id,
            "start_date_utc": _utc(started).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "table_name": table,
            "table_size": seats or max(p.seat for p in record.players),
            "game_type": game_type,
            "bet_limit": {"bet_type": BET_TYPES[record.config.structure], "bet_cap": 0},
            "currency": CURRENCIES.get(record.currency, "XPM"),
            "dealer_seat": record.players[record.button].seat,
            "small_blind_amount": money(betting.small_blind),
            "big_blind_amount": money(betting.big_blind),
            "ante_amount": money(record.config.ante),
            "hero_player_id": hero,
            "players": [
                {"id": i, "seat": p.seat, "name": p.name, "starting_stack": money(p.stack)}
                for i, p in enumerate(record.players)
            ],
            "rounds": _rounds(hand, report.revealed_holes(hand, hero), hero, money),
            "pots": _pots(hand, money),
        }
    }


def _unsaid(record: HandRecord) -> str | None:
    """The home game's mode of the hand that OHH has no words for (RULES.md 7), if any."""
    kinds = {post.kind for post in record.posts}
    if record.config.boards == 2:
        return "a double board"
    if record.runs == 2:
        return "a board run twice"
    if PostKind.BOMB in kinds:
        return "a bomb pot"
    if PostKind.KILL in kinds:
        return "a kill blind"
    return None


def write_ohh(documents: Iterable[dict[str, Any]]) -> str:
    """An OHH file: each hand's object on a line of its own, a blank line between them."""
    return "\n\n".join(json.dumps(doc, ensure_ascii=False) for doc in documents) + "\n"


def _utc(moment: datetime) -> datetime:
    """The moment in UTC; one without a zone is taken as UTC (the store keeps them so)."""
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def _money(unit: str) -> Money:
    """Chips as the file's money (``unit`` a chip's value): a whole number when whole."""
    value = Decimal(unit)

    def money(chips: int) -> int | float:
        amount = chips * value
        return int(amount) if amount == amount.to_integral_value() else float(amount)

    return money


def _rounds(
    hand: Hand, seen: dict[int, tuple[Card, ...]], hero: int | None, money: Money
) -> list[dict[str, Any]]:
    """The betting rounds, then a showdown round when a hand is shown or mucked there;
    the actions numbered through the hand."""
    rounds = [_round(0, "Preflop", [])]
    numbers = itertools.count(1)

    def add(player: int, action: str, **more: Any) -> None:
        if action in ("Shows Cards", "Mucks Cards") and rounds[-1]["street"] != "Showdown":
            rounds.append(_round(len(rounds), "Showdown", []))
        entry = {"action_number": next(numbers), "player_id": player, "action": action}
        rounds[-1]["actions"].append(entry | more)

    for event in hand.events:
        if isinstance(event, Posted):
            add(event.player, POSTS[event.kind], amount=money(event.amount), is_allin=event.all_in)
        elif isinstance(event, HoleCardsDealt) and event.player == hero and hero in seen:
            add(hero, "Dealt Cards", cards=_cards(seen[hero]))
        elif isinstance(event, Acted):
            preflop = rounds[-1]["street"] == "Preflop"
            add(event.player, _action(event, preflop), **_chips(event, money))
        elif isinstance(event, BoardDealt):
            cards = _cards(card for card in event.cards if card is not None)
            rounds.append(_round(len(rounds), event.street.name.title(), cards))  # "Flop"
        elif isinstance(event, Shown):
            add(event.player, "Shows Cards", cards=_cards(event.cards))
        elif isinstance(event, Mucked):
            known = {"cards": _cards(seen[event.player])} if event.player in seen else {}
            add(event.player, "Mucks Cards", **known)
    return rounds


def _round(number: int, street: str, cards: list[str]) -> dict[str, Any]:
    return {"id": number, "street": street, "cards": cards, "actions": []}


def _action(event: Acted, preflop: bool) -> str:
    """The action's name; a bet before the flop (no blind in) is a raise: OHH has no
    preflop bet."""
    return "Raise" if preflop and event.kind is ActionKind.BET else ACTIONS[event.kind]


def _chips(event: Acted, money: Money) -> dict[str, Any]:
    """The chips the action put in (OHH's amount of a raise: what it adds)."""
    if event.kind in (ActionKind.FOLD, ActionKind.CHECK):
        return {}
    return {"amount": money(event.added), "is_allin": event.all_in}


def _cards(cards: Iterable[Card]) -> list[str]:
    return [str(card) for card in cards]


def _pots(hand: Hand, money: Money) -> list[dict[str, Any]]:
    """Each pot with its rake (OHH's amount includes it) and what each player won of it,
    the high and low halves together."""
    result = hand.result
    assert result is not None
    before = hand.current_pots()  # the pots as they stood before the rake came out
    pots: list[dict[str, Any]] = []
    for number, (whole, raked) in enumerate(zip(before, result.pots, strict=True)):
        won: dict[int, int] = {}
        for event in hand.events:
            if isinstance(event, PotAwarded) and event.pot == number and event.amount:
                won[event.player] = won.get(event.player, 0) + event.amount
        pots.append(
            {
                "number": number,
                "amount": money(whole.amount),
                "rake": money(whole.amount - raked.amount),
                "player_wins": [
                    {"player_id": player, "win_amount": money(chips)}
                    for player, chips in won.items()
                ],
            }
        )
    return pots
