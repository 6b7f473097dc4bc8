"""Views and events as the JSON of PROTOCOL.md: a table's ``state``, an ``event``
object, a ``turn``'s ``legal`` list.

Only views are encoded, never raw state: the caller passes ``table.view(seat)`` and each
event as ``seen_by(event, seat)``, so no card reaches a receiver that may not see it
(DESIGN.md, privacy). Seats are numbered from 1 (the table seat + 1), cards are text
("As"), amounts whole chips, hand ids ``"{table}-{number}"``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from fractions import Fraction

from splitpot.cards import Card
from splitpot.dealer import Scene, dealer_line, help_words, high_words, low_words
from splitpot.engine import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleCardsDealt,
    LegalActions,
    Mucked,
    Posted,
    Pot,
    PotAwarded,
    RakeTaken,
    RoundEnded,
    RunItOffered,
    RunsChosen,
    Shown,
    Street,
    TurnedFaceUp,
    UncalledBetReturned,
)
from splitpot.equity import EquityResult, PlayerEquity
from splitpot.evaluate import HandHelp, HighHand, LowHand
from splitpot.i18n import ENGLISH, Words
from splitpot.rules import Betting, FixedLimit, Mixed
from splitpot.table import (
    BombPotCalled,
    ChipsAdded,
    HandFinished,
    HandStarted,
    HandState,
    InHand,
    KillDue,
    PlayerLeft,
    PlayerSat,
    PotView,
    RabbitHunted,
    RunItAnswered,
    SatIn,
    SatOut,
    SeatView,
    StackEdited,
    StakesChanged,
    StraddleChosen,
    TableConfig,
    TableEvent,
    TableView,
)

Json = None | bool | int | float | str | list["Json"] | dict[str, "Json"]
JsonObject = dict[str, Json]


@dataclass(frozen=True, slots=True)
class TableInfo:
    """What the room knows of a table beyond the core's view: its id, name and
    settings, its host (a player id), and whether it is private or paused."""

    id: str
    name: str
    config: TableConfig
    host: str | None = None
    private: bool = False
    paused: bool = False
    action_seconds: int | None = None
    time_bank_seconds: int | None = None
    audit: bool = False  # the end-of-session audit is announced (FAIRNESS.md)
    approval: bool = False  # a seat is asked for, and the host approves it


def wire_seat(seat: int | None) -> int | None:
    """A table seat (from 0) as the wire numbers it (from 1, "Seat 1")."""
    return None if seat is None else seat + 1


def hand_id(table: str, number: int) -> str:
    """A hand's id, unique in the room: the table's id and the hand's number there."""
    return f"{table}-{number}"


def utc_text(moment: datetime) -> str:
    """A time as PROTOCOL.md writes it: UTC ISO 8601 ("2025-01-31T12:00:00.000Z")."""
    if moment.tzinfo is None:
        raise ValueError(f"a time on the wire needs a time zone, not the naive {moment}")
    text = moment.astimezone(UTC).isoformat(timespec="milliseconds")
    return text.removesuffix("+00:00") + "Z"


def cards_json(cards: Iterable[Card]) -> list[Json]:
    return [str(card) for card in cards]


# ------------------------------------------------------------------ tables


def betting_json(betting: Betting | Mixed) -> JsonObject:
    """A structure and its stakes: ``structure`` (PROTOCOL.md's ids), ``stakes`` as text,
    the blinds, a limit game's bets, and a mixed game's two structures."""
    if isinstance(betting, Mixed):
        return {
            "structure": betting.structure.value,
            "stakes": betting.stakes,
            "small_blind": betting.limit.small_blind,
            "big_blind": betting.limit.big_blind,
            "limit": betting_json(betting.limit),
            "pot_limit": betting_json(betting.pot_limit),
            "period": betting.period,
        }
    fields: JsonObject = {
        "structure": betting.structure.value,
        "stakes": betting.stakes,
        "small_blind": betting.small_blind,
        "big_blind": betting.big_blind,
    }
    if isinstance(betting, FixedLimit):
        fields |= {"small_bet": betting.small_bet, "big_bet": betting.big_bet}
    return fields


def table_summary(info: TableInfo, players: int) -> JsonObject:
    """A table as the lobby lists it (PROTOCOL.md: ``id, name, variant, structure,
    small_blind, big_blind, seats, players, private`` and more)."""
    config = info.config
    return {
        "id": info.id,
        "name": info.name,
        "variant": config.variant.value,
        "variant_name": config.variant.title,
        **betting_json(config.betting),
        "seats": config.seats,
        "players": players,
        "min_buy_in": config.min_buy_in,
        "max_buy_in": config.max_buy_in,
        "private": info.private,
        "host": info.host,
        "paused": info.paused,
        "action_seconds": info.action_seconds,
        "time_bank_seconds": info.time_bank_seconds,
        "audit": info.audit,
        "approval": info.approval,
        **options_json(config),
    }


def options_json(config: TableConfig) -> JsonObject:
    """The home game's options a table plays (RULES.md 7), as its settings name them."""
    rake, kill = config.rake, config.kill
    percent = None if rake is None else Fraction(rake.percent)
    return {
        "ante": config.ante,
        "rake_percent": 0
        if percent is None
        else (int(percent) if percent.denominator == 1 else float(percent)),
        "rake_cap": 0 if rake is None or rake.cap is None else rake.cap,
        "straddle": config.straddle,
        "run_it_twice": config.run_it_twice,
        "rabbit_hunt": config.rabbit_hunt,
        "bomb_pot": config.bomb_pot,
        "bomb_every": config.bomb_every,
        "double_board": config.double_board.value,
        "kill": "off" if kill is None else ("full" if kill.full else "half"),
        "kill_size": 0 if kill is None else kill.size,
    }


def encode_state(view: TableView, info: TableInfo, players: Mapping[int, str]) -> JsonObject:
    """The ``state`` of a ``table`` message: the table as ``view``'s viewer may see it.
    ``players`` gives the player id of each occupied seat (table seat -> id)."""
    seated = sum(seat is not None for seat in view.seats)
    return {
        "table": table_summary(info, seated),
        "viewer": wire_seat(view.viewer),
        "button": wire_seat(view.button),
        "hands_played": view.hands_played,
        "bomb_called": view.bomb_called,
        "kill_seat": wire_seat(view.kill_seat),
        "seats": [
            _seat_json(n, seat, players) | _own(view, n) for n, seat in enumerate(view.seats)
        ],
        "hand": None if view.hand is None else _hand_json(info.id, view.hand),
    }


def _own(view: TableView, number: int) -> JsonObject:
    """What only the viewer's own seat shows: the straddle they chose (RULES.md 7)."""
    if number != view.viewer or view.straddle is None:
        return {}
    return {"straddle": view.straddle}


def _seat_json(number: int, seat: SeatView | None, players: Mapping[int, str]) -> JsonObject:
    if seat is None:
        return {"seat": number + 1, "player": None}
    fields: JsonObject = {
        "seat": number + 1,
        "player": players[number],
        "name": seat.name,
        "stack": seat.stack,
        "bet": seat.bet,
        "status": seat.status.value,
        "hole_cards": seat.hole_cards,
        "last_action": seat.last_action,
    }
    if seat.cards is not None:
        fields["cards"] = cards_json(seat.cards)
    return fields


def pots_json(pots: Iterable[PotView | Pot]) -> list[Json]:
    """The main pot and the side pots, each with its amount and the seats that may win it."""
    return [{"amount": pot.amount, "eligible": [seat + 1 for seat in pot.eligible]} for pot in pots]


def _hand_json(table: str, hand: HandState) -> JsonObject:
    return {
        "id": hand_id(table, hand.number),
        "number": hand.number,
        "button": hand.button + 1,
        "street": hand.street.label,
        "board": cards_json(hand.board),
        "boards": [cards_json(board) for board in hand.boards],
        "run_it": [seat + 1 for seat in hand.run_it],
        "runs": hand.runs,
        "pots": pots_json(hand.pots),
        "total": hand.total,
        "to_act": wire_seat(hand.to_act),
        **betting_json(hand.betting),
    }


# ------------------------------------------------------------------ turns


def encode_legal(legal: LegalActions) -> list[Json]:
    """A ``turn``'s ``legal`` list (PROTOCOL.md): ``amount`` for a call (the chips it
    adds) and for an all-in (the total), ``min`` and ``max`` (totals) for a bet or raise."""
    actions: list[Json] = []
    if legal.fold:
        actions.append({"action": "fold"})
    if legal.check:
        actions.append({"action": "check"})
    if legal.call is not None:
        actions.append({"action": "call", "amount": legal.call})
    if legal.bet_or_raise is not None:
        name = legal.bet_or_raise.value
        actions.append({"action": name, "min": legal.min_to, "max": legal.max_to})
    if legal.all_in:
        actions.append({"action": "allin", "amount": legal.all_in_to})
    if legal.show:
        actions.append({"action": "show"})
    if legal.muck:
        actions.append({"action": "muck"})
    return actions


# ------------------------------------------------------------------ events


# The table events that belong to a hand (they carry its number): a tuple, as it is
# tested at every event (isinstance builds a union written in the call at every call)
_OF_A_HAND = (HandStarted, InHand, HandFinished, RunItAnswered, RabbitHunted)


def encode_event(
    event: TableEvent,
    table: str,
    scene: Scene,
    names: Mapping[int, str],
    *,
    players: Mapping[int, str] | None = None,
    fairness: JsonObject | None = None,
) -> JsonObject:
    """The ``event`` object of an ``event`` message: ``kind``, ``hand`` (the id, or null),
    the event's fields, and ``text``, the dealer's words (or null).

    ``scene`` is the dealer's scene before the event (``dealer.scenes``), ``names`` the
    player names by table seat, ``players`` the player ids by seat (for ``player_sat``),
    ``fairness`` the fair-deal fields of a ``hand_started`` (FAIRNESS.md).
    """
    kind, fields = _event_fields(event, scene, players or {}, fairness)
    number = event.number if isinstance(event, _OF_A_HAND) else None
    return {
        "kind": kind,
        "hand": None if number is None else hand_id(table, number),
        **fields,
        "text": dealer_line(event, names, scene),
    }


def _event_fields(
    event: TableEvent,
    scene: Scene,
    players: Mapping[int, str],
    fairness: JsonObject | None,
) -> tuple[str, JsonObject]:
    match event:
        case PlayerSat(seat=seat, name=name, stack=stack, post_now=post_now):
            sat: JsonObject = {"player": players.get(seat), "stack": stack, "post_now": post_now}
            return "player_sat", _who(seat, name) | sat
        case PlayerLeft(seat=seat, name=name, stack=stack):
            return "player_left", _who(seat, name) | {"player": players.get(seat), "stack": stack}
        case SatOut(seat=seat, name=name, timed_out=timed_out):
            return "sat_out", _who(seat, name) | {"timed_out": timed_out}
        case SatIn(seat=seat, name=name, post_now=post_now):
            return "sat_in", _who(seat, name) | {"post_now": post_now}
        case ChipsAdded(seat=seat, name=name, amount=amount, stack=stack):
            return "chips_added", _who(seat, name) | {"amount": amount, "stack": stack}
        case StackEdited(seat=seat, name=name, amount=amount, stack=stack):
            return "stack_edited", _who(seat, name) | {"amount": amount, "stack": stack}
        case StakesChanged(betting=betting):
            return "stakes_changed", betting_json(betting)
        case HandStarted():
            return "hand_started", _hand_started(event, fairness)
        case StraddleChosen(seat=seat, name=name, straddle=straddle):
            return "straddle_chosen", _who(seat, name) | {"straddle": straddle.value}
        case BombPotCalled(blinds=blinds):
            return "bomb_pot_called", {"blinds": blinds}
        case RunItAnswered(seat=seat, yes=yes):
            return "run_it_answered", {"seat": seat + 1, "yes": yes}
        case KillDue(seat=seat, name=name, blind=blind):
            return "kill_due", _who(seat, name) | {"blind": blind}
        case RabbitHunted(seat=seat, cards=cards):
            return "rabbit", {
                "fairness": fairness,
                "seat": seat + 1,
                "streets": [
                    {
                        "board_number": dealt.board + 1,
                        "street": dealt.street.label,
                        "cards": cards_json(c for c in dealt.cards if c is not None),
                    }
                    for dealt in cards
                ],
            }
        case HandFinished(number=number, stacks=stacks):
            return "hand_ended", {
                "number": number,
                "stacks": [{"seat": seat + 1, "stack": stack} for seat, stack in stacks],
                "awards": [award_json(award, scene.words) for award in scene.awards],
            }
        case InHand(event=inner):
            return _hand_event(inner, scene)


def _who(seat: int, name: str) -> JsonObject:
    return {"seat": seat + 1, "name": name}


def _hand_started(event: HandStarted, fairness: JsonObject | None) -> JsonObject:
    return {
        "number": event.number,
        "button": event.button + 1,
        "seats": [
            {"seat": seat + 1, "name": name, "stack": stack}
            for seat, name, stack in zip(event.seats, event.names, event.stacks, strict=True)
        ],
        "variant": event.variant.value,
        **betting_json(event.betting),
        "draw": [{"seat": seat + 1, "card": str(card)} for seat, card in event.draw],
        "fairness": fairness,
    }


def _hand_event(event: Event, scene: Scene) -> tuple[str, JsonObject]:
    """An event of the hand in play; ``player`` fields name table seats."""
    match event:
        case Posted(player=seat, kind=kind, amount=amount, all_in=all_in):
            post = kind.name.lower()
            return "posted", {"seat": seat + 1, "post": post, "amount": amount, "all_in": all_in}
        case HoleCardsDealt(player=seat, cards=cards):
            known = None if None in cards else cards_json(c for c in cards if c is not None)
            return "dealt", {"seat": seat + 1, "count": len(cards), "cards": known}
        case BoardDealt(street=street, cards=cards, board=index):
            board = scene.dealt(event).boards[index]
            return "board", {
                "street": street.label,
                "cards": cards_json(c for c in cards if c is not None),
                "board": cards_json(c for c in board if c is not None),
                "board_number": index + 1,
            }
        case RunItOffered(players=seats):
            return "run_it", {"seats": [seat + 1 for seat in seats]}
        case RunsChosen(times=times):
            return "runs", {"times": times}
        case Acted(player=seat, kind=kind, to=to, added=added, all_in=all_in):
            return "acted", {
                "seat": seat + 1,
                "action": kind.value,
                "to": to,
                "added": added,
                "all_in": all_in,
            }
        case RoundEnded(street=street, pot=pot, pots=pots):
            return "round_ended", {"street": street.label, "pot": pot, "pots": pots_json(pots)}
        case UncalledBetReturned(player=seat, amount=amount):
            return "uncalled", {"seat": seat + 1, "amount": amount}
        case TurnedFaceUp(player=seat, cards=cards):
            return "face_up", {"seat": seat + 1, "cards": cards_json(cards)}
        case Shown(player=seat, cards=cards, high=high, low=low, boards=values):
            shown: JsonObject = {"seat": seat + 1, "cards": cards_json(cards)}
            if values:
                shown["boards"] = [
                    {"board_number": n + 1} | _hands(h, lo, scene.words)
                    for n, (h, lo) in enumerate(values)
                ]
            return "shown", shown | _hands(high, low, scene.words)
        case Mucked(player=seat):
            return "mucked", {"seat": seat + 1}
        case RakeTaken(amount=amount):
            return "rake", {"amount": amount}
        case PotAwarded():
            return "pot_awarded", award_json(event, scene.words)
        case HandEnded():
            raise ValueError("a table reports a hand's end as HandFinished, with seats")


def award_json(award: PotAwarded, words: Words = ENGLISH) -> JsonObject:
    """One award: a part of a pot paid to a seat, with the hands that won it (named in
    ``words``' language)."""
    return {
        "pot": award.pot,
        "share": award.share.value,
        "seat": award.player + 1,
        "amount": award.amount,
        "board_number": award.board + 1,
    } | _hands(award.high, award.low, words)


def equity_event(
    hand: str,
    seats: Sequence[int],
    board: Sequence[Card],
    result: EquityResult,
    boards: Sequence[Sequence[Card]] = (),
) -> JsonObject:
    """The ``equity`` room event: each face-up hand's share of the pot it may expect
    (``equity``), of the high and of the low half, and its chance to scoop, from 0 to 1.

    With two boards (a double board, or a board run twice: ``boards`` holds both and
    ``result`` their figures, ``calculate(..., boards=2)``) the seats' figures are the
    whole pot's, and ``boards`` gives each board's (``board_number`` 1 or 2, its cards,
    its street and its seats' figures, of that board's part of each pot)."""
    event: JsonObject = {
        "kind": "equity",
        "hand": hand,
        "street": Street.of_board(len(board)).label,
        "board": cards_json(board),
        "seats": _equity_seats(seats, result.players),
    }
    if result.boards:
        event["boards"] = [
            {
                "board_number": number,
                "street": Street.of_board(len(cards)).label,
                "board": cards_json(cards),
                "seats": _equity_seats(seats, players),
            }
            for number, (cards, players) in enumerate(
                zip(boards, result.boards, strict=True), start=1
            )
        ]
    return event | {"text": None}


def _equity_seats(seats: Sequence[int], players: Sequence[PlayerEquity]) -> list[Json]:
    return [
        {
            "seat": seat + 1,
            "equity": round(float(player.equity), 4),
            "high": round(float(player.high_equity), 4),
            "low": round(float(player.low_equity), 4),
            "scoop": round(float(player.scoop), 4),
        }
        for seat, player in zip(seats, players, strict=True)
    ]


def to_act_event(
    hand: str, seat: int, deadline: datetime | None, time_bank: float | None
) -> JsonObject:
    """The ``to_act`` room event: whose decision it is now, and until when (null: no
    clock, a bot's or an absent player's decision)."""
    return {
        "kind": "to_act",
        "hand": hand,
        "seat": seat + 1,
        "deadline": None if deadline is None else utc_text(deadline),
        "time_bank": time_bank,
        "text": None,
    }


def encode_help(
    help: HandHelp, words: Words = ENGLISH, boards: Sequence[HandHelp] = ()
) -> JsonObject:
    """The hand helper: the best high and low so far, whether a low can still come, and
    the line that says it (in ``words``' language). With two boards (``boards``: the
    helper on each, the first being ``help``), ``boards`` gives each board's, numbered."""
    helped = _helped(help, words)
    if boards:
        helped["boards"] = [
            {"board_number": number} | _helped(board, words)
            for number, board in enumerate(boards, start=1)
        ]
    return helped


def _helped(help: HandHelp, words: Words) -> JsonObject:
    return _hands(help.high, help.low, words) | {
        "low_possible": help.low_possible,
        "text": help_words(help, words),
    }


def _hands(high: HighHand | None, low: LowHand | None, words: Words = ENGLISH) -> JsonObject:
    """A hand's high and low: each ``{name, cards}`` (the five cards it uses) or null;
    the names in ``words``' language."""
    return {
        "high": None
        if high is None
        else {"name": high_words(high, words), "cards": cards_json(high.cards)},
        "low": None
        if low is None
        else {"name": low_words(low, words), "cards": cards_json(low.cards)},
    }


__all__ = [
    "Json",
    "JsonObject",
    "TableInfo",
    "award_json",
    "betting_json",
    "cards_json",
    "encode_event",
    "encode_help",
    "encode_legal",
    "encode_state",
    "equity_event",
    "hand_id",
    "table_summary",
    "to_act_event",
    "utc_text",
    "wire_seat",
]
