"""Commands from a client (PROTOCOL.md, WebSocket): a JSON object in, a typed command
out, or a ``ProtocolError`` naming the bad field.

Types are checked strictly: a bool is not a number, amounts are whole chips from 1 to
``MAX_CHIPS``, text has a length limit, seats are numbered from 1 on the wire (the
command holds the table seat, from 0). Unknown fields are ignored.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final, TypeVar

from splitpot.engine import Action, ActionKind
from splitpot.i18n import LANGUAGES, Language, Said, language, said
from splitpot.protocol.errors import ErrorCode, ProtocolError, Ref
from splitpot.table import MAX_SEATS, Straddle
from splitpot.text import BIDI_CONTROLS, code_point

MAX_FRAME: Final = 64 * 1024  # bytes of one client message; a larger one closes the socket
MAX_CHIPS: Final = 10**12  # any amount a client may name
MAX_ID: Final = 64  # a table id, a hand id, a ref
MAX_TOKEN: Final = 512  # a session token or an invite
MAX_LANGUAGE_TAG: Final = 35  # BCP 47 tags: ja, ru-RU, en-GB
MAX_CHAT: Final = 500  # characters of a chat line
MAX_REF_NUMBER: Final = 2**53 - 1  # a number ref survives a JavaScript client
T = TypeVar("T")
_HEX_64 = re.compile(r"[0-9a-f]{64}")
# Control characters (C0, DEL, C1) and the line and paragraph separators: never in chat.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")
# The table settings of the home game's options (RULES.md 7), which the host's ``options``
# command changes from the next hand (docs/protocol.md "Table settings").
OPTION_FIELDS: Final = (
    "ante",
    "rake_percent",
    "rake_cap",
    "straddle",
    "run_it_twice",
    "rabbit_hunt",
    "bomb_pot",
    "bomb_every",
    "double_board",
    "kill",
    "kill_size",
)
# Lone surrogates: JSON's \ud800 escapes decode to them, but they are no Unicode text and
# cannot be sent back as UTF-8 (a frame echoing one could not be written).
_SURROGATE = re.compile(r"[\ud800-\udfff]")


@dataclass(frozen=True, slots=True)
class Hello:
    token: str | None  # None: a watcher
    ref: Ref = None
    lang: Language | None = None  # the dealer's and the room's words; None: Accept-Language


@dataclass(frozen=True, slots=True)
class Watch:
    table: str
    invite: str | None = None
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Sit:
    table: str
    seat: int  # the table seat, from 0 (the wire's seat - 1)
    buy_in: int
    post_now: bool = False
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Act:
    table: str
    hand: str
    action: Action
    ref: Ref = None
    seat: int | None = None  # the table seat the client acts for, when it names one


@dataclass(frozen=True, slots=True)
class SitOut:
    table: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class SitIn:
    table: str
    post_now: bool = False  # with blinds owed: post them now rather than wait
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Preferences:
    """The player's choices at the table: ``muck_losing``, whether a hand that cannot win
    anything at the showdown is mucked at once (else it is shown)."""

    table: str
    muck_losing: bool
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Leave:
    table: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class TopUp:
    table: str
    amount: int
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Chat:
    table: str
    text: str  # one line, trimmed
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Commit:
    """FAIRNESS.md 3: the player's entropy commitment for their next hand."""

    table: str
    commitment: str  # 64 lowercase hex digits
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Reveal:
    """FAIRNESS.md 3: the entropy behind the commitment that ``hand``'s start lists."""

    table: str
    hand: str
    entropy: str  # 64 lowercase hex digits
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class RunIt:
    """RULES.md 7: the player's answer, asked to run the board twice in ``hand``."""

    table: str
    hand: str
    yes: bool
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class Rabbit:
    """RULES.md 7, the rabbit hunt: show the board the last hand would have dealt."""

    table: str
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class ChooseStraddle:
    """RULES.md 7: straddle the next time in the straddle's seat, always, or not."""

    table: str
    straddle: Straddle
    ref: Ref = None


@dataclass(frozen=True, slots=True)
class WaitingList:
    """Join the full table's waiting list (``join``), or leave it."""

    table: str
    join: bool
    ref: Ref = None


class HostAction(Enum):
    """What a private table's host may do (docs/protocol.md, "Host commands")."""

    PAUSE = "pause"  # no new hand after this one
    RESUME = "resume"
    STAKES = "stakes"  # new blinds from the next hand
    REMOVE = "remove"  # the player in ``seat`` leaves at the end of the hand, unwatched
    HOST = "host"  # the player in ``seat`` becomes the host
    BAN = "ban"  # removed, and kept out of the table for good
    INVITE = "invite"  # a new invite for a private table: the old one stops working
    CLOSE = "close"  # everyone cashed out between hands, the table closed until reopened
    END_SESSION = "end_session"  # between hands: the session's audit is published
    BOMB_POT = "bomb_pot"  # the next hand is a bomb pot (RULES.md 7)
    OPTIONS = "options"  # the home game's options, from the next hand (RULES.md 7)
    APPROVE = "approve"  # the request for ``seat`` is granted (with ``amount``: that stack)
    REJECT = "reject"  # the request for ``seat`` is turned down
    STACK = "stack"  # ``amount`` chips added to the stack in ``seat`` (taken, if < 0)


@dataclass(frozen=True, slots=True)
class Host:
    """A host's command: ``seat`` (from 0) for remove, ban, host, approve, reject and
    stack, the blinds for stakes, the option fields sent (``OPTION_FIELDS``, their JSON
    values) for options, ``amount`` for stack and (optionally) approve."""

    table: str
    action: HostAction
    seat: int | None = None
    small_blind: int | None = None
    big_blind: int | None = None
    ref: Ref = None
    options: dict[str, Any] | None = None
    amount: int | None = None


TableMessage = (
    Watch | Sit | Act | SitOut | SitIn | Preferences | Leave | TopUp | Chat | Commit | Reveal
    | Host | RunIt | Rabbit | ChooseStraddle | WaitingList
)  # fmt: skip
Command = Hello | TableMessage


def read_frame(data: str | bytes) -> Command:
    """One WebSocket message from a client as a command."""
    size = len(data.encode("utf-8", "surrogatepass") if isinstance(data, str) else data)
    if size > MAX_FRAME:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            said("a message must be at most {most} bytes, not {size}", most=MAX_FRAME, size=size),
        )
    try:
        message = json.loads(data)
    except (json.JSONDecodeError, UnicodeDecodeError, RecursionError) as error:
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE, said("a message must be JSON ({error})", error=str(error))
        ) from None
    except ValueError:  # a number longer than Python converts: its words name sys.set_int_...
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            said("a message must be JSON with numbers of at most 4300 digits"),
        ) from None
    return parse_command(message)


def parse_command(message: object) -> Command:
    """A decoded JSON message as a command; the error echoes its ``ref`` when good."""
    if not isinstance(message, dict):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            said("a message must be a JSON object, not {value}", value=_shown(message)),
        )
    ref = _ref(message)
    kind = message.get("type")
    if not isinstance(kind, str):
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            said("type must be a message type, not {value}", value=_shown(kind)),
            ref,
        )
    parse = _PARSERS.get(kind)
    if parse is None:
        known = ", ".join(_PARSERS)
        raise ProtocolError(
            ErrorCode.BAD_MESSAGE,
            said(
                "unknown message type {value}; types are: {types}", value=_shown(kind), types=known
            ),
            ref,
        )
    return parse(_Fields(kind, message, ref))


def _ref(message: dict[object, object]) -> Ref:
    ref = message.get("ref")
    if ref is None:
        return None
    if isinstance(ref, str) and len(ref) <= MAX_ID and not _SURROGATE.search(ref):
        return ref
    if isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) <= MAX_REF_NUMBER:
        return ref
    raise ProtocolError(
        ErrorCode.BAD_MESSAGE,
        said(
            "ref must be text of at most {most} characters or a whole number, not {value}",
            most=MAX_ID,
            value=_shown(ref),
        ),
    )


def _shown(value: object) -> str:
    """A bad value as the error shows it: its JSON, cut short."""
    try:
        text = json.dumps(value)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True, slots=True)
class _Fields:
    """Reads one message's fields; each error names ``type.field``."""

    kind: str
    message: dict[object, object]
    ref: Ref

    def refuse(self, field: str, must: Said) -> ProtocolError:
        """The field's refusal: what it must be, and what it was."""
        value = _shown(self.message.get(field))
        named = {"field": f"{self.kind}.{field}", "must": must, "value": value}
        return ProtocolError(
            ErrorCode.BAD_MESSAGE, said("{field} must be {must}, not {value}", **named), self.ref
        )

    def text(self, field: str, most: int) -> str:
        value = self.message.get(field)
        if not isinstance(value, str) or not value or len(value) > most:
            raise self.refuse(field, said("text of 1 to {most} characters", most=most))
        if _SURROGATE.search(value):
            raise self.refuse(field, said("Unicode text (a lone surrogate is not a character)"))
        return value

    def optional_text(self, field: str, most: int) -> str | None:
        return None if self.message.get(field) is None else self.text(field, most)

    def table(self) -> str:
        return self.text("table", MAX_ID)

    def whole(self, field: str, least: int, most: int) -> int:
        value = self.message.get(field)
        if isinstance(value, bool) or not isinstance(value, int) or not least <= value <= most:
            raise self.refuse(
                field, said("a whole number from {least} to {most}", least=least, most=most)
            )
        return value

    def flag(self, field: str, default: bool | None = False) -> bool:
        """A bool; absent, ``default`` (None: the field is required)."""
        value = self.message.get(field, default)
        if not isinstance(value, bool):
            raise self.refuse(field, said("true or false"))
        return value

    def optional_seat(self) -> int | None:
        """A seat as the wire numbers it (from 1), as a table seat (from 0), or None."""
        if self.message.get("seat") is None:
            return None
        return self.whole("seat", 1, MAX_SEATS) - 1

    def choice(self, field: str, names: Mapping[str, T]) -> T:
        value = self.message.get(field)
        chosen = names.get(value) if isinstance(value, str) else None
        if chosen is None:
            raise self.refuse(field, said("one of {names}", names=", ".join(names)))
        return chosen

    def hex_64(self, field: str) -> str:
        value = self.message.get(field)
        if not isinstance(value, str) or not _HEX_64.fullmatch(value):
            raise self.refuse(field, said("64 lowercase hex digits (32 bytes)"))
        return value


def _hello(fields: _Fields) -> Hello:
    tag = fields.optional_text("lang", MAX_LANGUAGE_TAG)
    try:
        lang = None if tag is None else language(tag)
    except ValueError:
        spoken = ", ".join(each.value for each in LANGUAGES)
        raise fields.refuse(
            "lang", said("a language the room speaks ({languages})", languages=spoken)
        ) from None
    return Hello(fields.optional_text("token", MAX_TOKEN), fields.ref, lang)


def _watch(fields: _Fields) -> Watch:
    return Watch(fields.table(), fields.optional_text("invite", MAX_TOKEN), fields.ref)


def _sit(fields: _Fields) -> Sit:
    table = fields.table()
    seat = fields.whole("seat", 1, MAX_SEATS) - 1
    buy_in = fields.whole("buy_in", 1, MAX_CHIPS)
    return Sit(table, seat, buy_in, fields.flag("post_now"), fields.ref)


_ACTIONS = {kind.value: kind for kind in ActionKind}


def _act(fields: _Fields) -> Act:
    """``amount`` is the total of a bet or raise; the other actions take none (null is
    allowed: a client may send every field of its form)."""
    table, hand = fields.table(), fields.text("hand", MAX_ID)
    kind = fields.choice("action", _ACTIONS)
    seat = fields.optional_seat()
    if kind in (ActionKind.BET, ActionKind.RAISE):
        action = Action(kind, fields.whole("amount", 1, MAX_CHIPS))
    elif fields.message.get("amount") is not None:
        raise fields.refuse(
            "amount", said("absent or null for {action} (it takes no amount)", action=kind.value)
        )
    else:
        action = Action(kind)
    return Act(table, hand, action, fields.ref, seat)


def _sit_out(fields: _Fields) -> SitOut:
    return SitOut(fields.table(), fields.ref)


def _sit_in(fields: _Fields) -> SitIn:
    return SitIn(fields.table(), fields.flag("post_now"), fields.ref)


def _preferences(fields: _Fields) -> Preferences:
    return Preferences(fields.table(), fields.flag("muck_losing", None), fields.ref)


def _leave(fields: _Fields) -> Leave:
    return Leave(fields.table(), fields.ref)


def _top_up(fields: _Fields) -> TopUp:
    return TopUp(fields.table(), fields.whole("amount", 1, MAX_CHIPS), fields.ref)


def _chat(fields: _Fields) -> Chat:
    """One line of at most ``MAX_CHAT`` characters, trimmed, with no control characters
    and no bidirectional control (it would turn the line around: refused, not dropped,
    so that what is shown is what its sender wrote)."""
    table = fields.table()
    value = fields.message.get("text")
    line = value.strip() if isinstance(value, str) else ""
    if not line or len(line) > MAX_CHAT or _CONTROL.search(line) or _SURROGATE.search(line):
        raise fields.refuse("text", said("one line of 1 to {most} characters", most=MAX_CHAT))
    turned = BIDI_CONTROLS.search(line)
    if turned is not None:
        control = code_point(turned.group())
        raise fields.refuse(
            "text", said("free of {control}, a bidirectional control", control=control)
        )
    return Chat(table, line, fields.ref)


def _commit(fields: _Fields) -> Commit:
    return Commit(fields.table(), fields.hex_64("commitment"), fields.ref)


def _reveal(fields: _Fields) -> Reveal:
    table, hand = fields.table(), fields.text("hand", MAX_ID)
    return Reveal(table, hand, fields.hex_64("entropy"), fields.ref)


def _run_it(fields: _Fields) -> RunIt:
    table, hand = fields.table(), fields.text("hand", MAX_ID)
    return RunIt(table, hand, fields.flag("yes", None), fields.ref)


def _rabbit(fields: _Fields) -> Rabbit:
    return Rabbit(fields.table(), fields.ref)


_STRADDLES = {straddle.value: straddle for straddle in Straddle}


def _straddle(fields: _Fields) -> ChooseStraddle:
    return ChooseStraddle(fields.table(), fields.choice("straddle", _STRADDLES), fields.ref)


_HOST_ACTIONS = {action.value: action for action in HostAction}
SEAT_ACTIONS = frozenset(  # name a seat
    {HostAction.REMOVE, HostAction.BAN, HostAction.HOST, HostAction.APPROVE, HostAction.REJECT}
)


def _host(fields: _Fields) -> Host:
    """``seat`` is required for remove, ban, host, approve, reject and stack; ``amount``
    for stack (chips added, or taken if below 0) and, optionally, approve (the stack to
    seat the player with); ``small_blind`` and ``big_blind`` for stakes (the small blind
    at most the big one); one option field or more for options (their values are the
    table settings', checked by the room as at ``POST /api/tables``); other fields are
    ignored."""
    table = fields.table()
    action = fields.choice("action", _HOST_ACTIONS)
    if action is HostAction.STACK:
        seat = fields.whole("seat", 1, MAX_SEATS) - 1
        amount = fields.whole("amount", -MAX_CHIPS, MAX_CHIPS)
        return Host(table, action, seat=seat, amount=amount, ref=fields.ref)
    if action in SEAT_ACTIONS:
        seat = fields.whole("seat", 1, MAX_SEATS) - 1
        stack = None
        if action is HostAction.APPROVE and fields.message.get("amount") is not None:
            stack = fields.whole("amount", 1, MAX_CHIPS)
        return Host(table, action, seat=seat, amount=stack, ref=fields.ref)
    if action is HostAction.STAKES:
        big = fields.whole("big_blind", 1, MAX_CHIPS)
        small = fields.whole("small_blind", 1, big)
        return Host(table, action, small_blind=small, big_blind=big, ref=fields.ref)
    if action is HostAction.OPTIONS:
        options: dict[str, Any] = {
            name: fields.message[name] for name in OPTION_FIELDS if name in fields.message
        }
        if not options:
            raise ProtocolError(
                ErrorCode.BAD_MESSAGE,
                said(
                    "host.options needs one option field or more: {names}",
                    names=", ".join(OPTION_FIELDS),
                ),
                fields.ref,
            )
        return Host(table, action, ref=fields.ref, options=options)
    return Host(table, action, ref=fields.ref)


def _waiting_list(fields: _Fields) -> WaitingList:
    return WaitingList(fields.table(), fields.flag("join", None), fields.ref)


_PARSERS: dict[str, Callable[[_Fields], Command]] = {
    "hello": _hello,
    "watch": _watch,
    "sit": _sit,
    "act": _act,
    "sit_out": _sit_out,
    "sit_in": _sit_in,
    "preferences": _preferences,
    "leave": _leave,
    "top_up": _top_up,
    "chat": _chat,
    "commit": _commit,
    "reveal": _reveal,
    "host": _host,
    "run_it": _run_it,
    "rabbit": _rabbit,
    "straddle": _straddle,
    "waiting_list": _waiting_list,
}

__all__ = [
    "MAX_CHAT",
    "MAX_CHIPS",
    "MAX_FRAME",
    "MAX_ID",
    "MAX_TOKEN",
    "OPTION_FIELDS",
    "SEAT_ACTIONS",
    "Act",
    "Chat",
    "ChooseStraddle",
    "Command",
    "Commit",
    "Hello",
    "Host",
    "HostAction",
    "Leave",
    "Preferences",
    "Rabbit",
    "Reveal",
    "RunIt",
    "Sit",
    "SitIn",
    "SitOut",
    "TopUp",
    "WaitingList",
    "Watch",
    "parse_command",
    "read_frame",
]
