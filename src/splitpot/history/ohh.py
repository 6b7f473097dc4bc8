"""Open Hand History (OHH, hh-specs.handhistory.org, spec 1.4.7), the JSON hand history
trackers adopted: written, not read (but for a tournament hand's tournament). A hand is
one ``{"ohh": {...}}`` object; a file of many holds one object a line with a blank line
between (the spec's storage format).

RULES.md 7: antes and straddles are OHH's ``Post Ante`` and ``Straddle``; OHH has one
board, preflop betting and no kill, so a double board, a board run twice, a bomb pot and a
kill blind are refused by name.

What the hero sees is written, as in PokerStars text (``report.revealed_holes``): their own
cards dealt, every hand shown, and a hand mucked at the showdown; never a folded hand.

RULES.md 8: a tournament hand is ``"tournament": true`` with its ``tournament_info`` (the
tournament's number, name, buy-in and fee in room chips, "XPM"), its table named as
PokerStars names it, ``"<tournament> <table>"``, and its chips tournament chips; OHH has no
level, which splitpot adds as ``splitpot_level``. ``read_tournament`` reads them back.
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
from splitpot.history.model import HandRecord, HistoryError, TournamentRecord, string
from splitpot.history.model import whole as whole_number
from splitpot.reading import shown
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
CHIPS = "XPM"  # the spec's play money: the room's chips, and a tournament's buy-in in them
LEVEL = "splitpot_level"  # RULES.md 8: the hand's level, which OHH has no field for

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
    tournament = record.tournament
    money = _money("1" if tournament else record.unit)  # RULES.md 8: tournament chips
    betting = record.config.betting
    entry: dict[str, Any] = {"tournament": tournament is not None}
    if tournament is not None:
        entry["tournament_info"] = tournament_info(tournament)
        table = f"{tournament.id} {tournament.table}"
    return {
        "ohh": {
            "spec_version": SPEC_VERSION,
            "site_name": SITE,
            "network_name": SITE,
            "internal_version": INTERNAL_VERSION,
            **entry,
            "game_number": record.id,
            "start_date_utc": _utc(started).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "table_name": table,
            "table_size": seats or max(p.seat for p in record.players),
            "game_type": game_type,
            "bet_limit": {"bet_type": BET_TYPES[record.config.structure], "bet_cap": 0},
            "currency": CHIPS if tournament else CURRENCIES.get(record.currency, CHIPS),
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


def tournament_info(tournament: TournamentRecord) -> dict[str, Any]:
    """RULES.md 8: the spec's ``tournament_info`` of a hand's tournament, its level
    beside it (``splitpot_level``)."""
    return {
        "tournament_number": str(tournament.id),
        "name": tournament.name,
        "currency": CHIPS,
        "buyin_amount": tournament.buy_in,
        "fee_amount": tournament.fee,
        LEVEL: tournament.level,
    }


def read_tournament(document: dict[str, Any]) -> TournamentRecord | None:
    """RULES.md 8: the tournament of an OHH hand (``{"ohh": {...}}``) as splitpot writes
    it; None for a cash hand (``tournament`` false or left out). HistoryError names the
    field that is missing or bad."""
    hand = document.get("ohh") if isinstance(document, dict) else None
    if not isinstance(hand, dict):
        raise HistoryError(f"not an OHH hand: {shown(document)} has no object 'ohh'")
    flag = hand.get("tournament", False)
    if flag is None or flag is False:
        return None
    if flag is not True:
        raise HistoryError(f"ohh.tournament is {shown(flag)}, not true or false")
    info = hand.get("tournament_info")
    if not isinstance(info, dict):
        raise HistoryError(f"ohh.tournament_info is {shown(info)}, not an object")
    for key in ("tournament_number", "name", "buyin_amount", "fee_amount", LEVEL):
        if key not in info:
            raise HistoryError(f"ohh.tournament_info: the field {key!r} is missing")
    number = string(info["tournament_number"], "ohh.tournament_info.tournament_number")
    if not (number.isascii() and number.isdigit() and number[0] != "0"):
        raise HistoryError(
            f"ohh.tournament_info.tournament_number is {shown(number)}, not a number"
        )
    table_name = string(hand.get("table_name"), "ohh.table_name")
    table = table_name.removeprefix(f"{number} ")
    if table == table_name or not (table.isascii() and table.isdigit() and table[0] != "0"):
        raise HistoryError(
            f"ohh.table_name is {shown(table_name)}, not '<tournament> <table>' of tournament "
            f"{number}"
        )
    return TournamentRecord(
        int(number),
        string(info["name"], "ohh.tournament_info.name"),
        whole_number(info["buyin_amount"], "ohh.tournament_info.buyin_amount"),
        whole_number(info["fee_amount"], "ohh.tournament_info.fee_amount"),
        whole_number(info[LEVEL], f"ohh.tournament_info.{LEVEL}", 1),
        int(table),
    )


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
