"""Player actions and the description of what a player may do now."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from splitpot.frozen import quick_init


class ActionKind(Enum):
    FOLD = "fold"
    CHECK = "check"
    CALL = "call"
    BET = "bet"
    RAISE = "raise"
    ALL_IN = "allin"
    SHOW = "show"
    MUCK = "muck"


_WITH_AMOUNT = (ActionKind.BET, ActionKind.RAISE)  # made once: read at every action made


@dataclass(frozen=True, slots=True)
class Action:
    """One player decision. For BET and RAISE, ``amount`` is the player's new total bet in
    this betting round ("raise to"); the other kinds take no amount."""

    kind: ActionKind
    amount: int | None = None

    def __post_init__(self) -> None:
        needs_amount = self.kind in _WITH_AMOUNT
        if needs_amount and (not isinstance(self.amount, int) or self.amount <= 0):
            raise ValueError(f"{self.kind.value} needs a positive amount, not {self.amount!r}")
        if not needs_amount and self.amount is not None:
            raise ValueError(f"{self.kind.value} takes no amount")

    @classmethod
    def fold(cls) -> Action:
        return _FOLD

    @classmethod
    def check(cls) -> Action:
        return _CHECK

    @classmethod
    def call(cls) -> Action:
        return _CALL

    @classmethod
    def bet(cls, to: int) -> Action:
        return cls(ActionKind.BET, to)

    @classmethod
    def raise_to(cls, to: int) -> Action:
        return cls(ActionKind.RAISE, to)

    @classmethod
    def all_in(cls) -> Action:
        return _ALL_IN

    @classmethod
    def show(cls) -> Action:
        return _SHOW

    @classmethod
    def muck(cls) -> Action:
        return _MUCK

    @classmethod
    def parse(cls, text: str) -> Action:
        """Read ``fold``, ``check``, ``call``, ``bet N``, ``raise N`` (to N), ``allin``,
        ``show`` or ``muck``."""
        words = text.split()
        kinds = {kind.value: kind for kind in ActionKind}
        if not words or words[0].lower() not in kinds:
            known = ", ".join(kinds)
            raise ValueError(f"{text.strip()!r} is not an action; actions are: {known}")
        kind = kinds[words[0].lower()]
        if kind in (ActionKind.BET, ActionKind.RAISE):
            if len(words) != 2 or not words[1].isdecimal() or not words[1].isascii():
                raise ValueError(f"{kind.value} needs one whole amount, e.g. '{kind.value} 10'")
            return cls(kind, int(words[1]))
        if len(words) != 1:
            raise ValueError(f"{kind.value} takes no amount")
        return _PLAIN[kind]

    def __str__(self) -> str:
        return self.kind.value if self.amount is None else f"{self.kind.value} {self.amount}"


# The actions that take no amount, each made once: an action is an immutable value, and a
# bot or a table asks for these at every decision (by name: no enum hashed in Python to
# find them).
_PLAIN_KINDS = (
    ActionKind.FOLD,
    ActionKind.CHECK,
    ActionKind.CALL,
    ActionKind.ALL_IN,
    ActionKind.SHOW,
    ActionKind.MUCK,
)
_FOLD, _CHECK, _CALL, _ALL_IN, _SHOW, _MUCK = _PLAIN_ACTIONS = tuple(map(Action, _PLAIN_KINDS))
_PLAIN = dict(zip(_PLAIN_KINDS, _PLAIN_ACTIONS, strict=True))


@quick_init
@dataclass(frozen=True, slots=True)
class LegalActions:
    """What the player to act may do, with exact amounts.

    ``call`` is the number of chips a call adds (an all-in for less when the stack is
    short). ``bet_or_raise`` is BET or RAISE when the player may bet or raise, to a total
    from ``min_to`` to ``max_to``; ``all_in_to`` is the player's total if all in.
    """

    player: int
    fold: bool = False
    check: bool = False
    call: int | None = None
    bet_or_raise: ActionKind | None = None
    min_to: int | None = None
    max_to: int | None = None
    all_in_to: int | None = None
    all_in: bool = False
    show: bool = False
    muck: bool = False

    def give_up(self) -> Action:
        """What a player giving the hand up does (leaving, out of time): fold; at the
        showdown, where there is nothing to fold, muck (the engine offers the muck to
        every hand it asks about there)."""
        return Action.muck() if self.muck else Action.fold()

    def describe(self) -> list[str]:
        """The legal actions in the words of the line-by-line client.

        Going all in is named once: on the call or the raise it equals (``call 5
        (allin)``, ``raise 32 (allin)``, ``raise 10..32 (allin at 32)``), else on its own
        (``allin (32)``).
        """
        words: list[str] = []
        all_in = self.all_in
        if self.fold:
            words.append("fold")
        if self.check:
            words.append("check")
        if self.call is not None:
            by_call = all_in and self.bet_or_raise is None  # a call of the whole stack
            words.append(f"call {self.call}" + (" (allin)" if by_call else ""))
            all_in = all_in and not by_call
        if self.bet_or_raise is not None:
            name = self.bet_or_raise.value
            by_raise = all_in and self.max_to == self.all_in_to
            if self.min_to == self.max_to:
                words.append(f"{name} {self.min_to}" + (" (allin)" if by_raise else ""))
            else:
                at = f" (allin at {self.max_to})" if by_raise else ""
                words.append(f"{name} {self.min_to}..{self.max_to}{at}")
            all_in = all_in and not by_raise
        if all_in:
            words.append(f"allin ({self.all_in_to})")
        if self.show:
            words.append("show")
        if self.muck:
            words.append("muck")
        return words
