"""The game's configuration as small immutable values (RULES.md sections 2, 3 and 6).

Chips are integers in the table's smallest unit. A bad setting raises ``RulesError``
where it is made, naming the setting and the values allowed. Each betting structure
answers its own rules (RULES.md 3): the bet unit, the raise bounds, whether a raise is a
full one, when the betting is capped; the engine asks and never looks at the class.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Protocol, Self

from splitpot.evaluate.variants import Variant

__all__ = [
    "Betting",
    "FixedLimit",
    "GameConfig",
    "Mixed",
    "NoLimit",
    "PotLimit",
    "Rake",
    "Refusal",
    "RoundState",
    "RulesError",
    "Structure",
    "Variant",
]


class Refusal(ValueError):
    """An error a person reads: an English sentence with named fields, kept apart so
    that the room can say it in each listener's language (the core cannot: i18n is a
    layer below it). ``template`` is the sentence as the code says it (a string literal
    at each call, so that the catalogues hold it); each field is a number, a name, or
    another ``Refusal`` said inside it (a reason); ``str()`` is the English filled in."""

    def __init__(self, template: str, /, **fields: object) -> None:
        super().__init__(template)
        self.template = template
        self.fields = fields

    def __str__(self) -> str:
        if not self.fields:  # a message taken whole (braces and all), or with no field
            return self.template
        return self.template.format(
            **{k: str(v) if isinstance(v, Refusal) else v for k, v in self.fields.items()}
        )

    @classmethod
    def untranslated(cls, text: str) -> Self:
        """A message for a programmer (a value of the wrong type), in English alone."""
        return cls(text)

    @classmethod
    def passed(cls, error: Refusal) -> Self:
        """This kind of error, saying what ``error`` said."""
        return cls(error.template, **error.fields)


class RulesError(Refusal):
    """A setting the rules do not allow; the message names it and the values allowed."""


class Structure(Enum):
    """How much may be bet: the betting structure's id."""

    FIXED_LIMIT = "limit"
    POT_LIMIT = "pot-limit"
    NO_LIMIT = "no-limit"
    MIXED = "mixed"


class RoundState(Protocol):
    """What a structure reads of the betting round now (``engine.betting.BettingRound``)."""

    unit: int  # the structure's bet unit on this street
    level: int  # the bet to match
    full_level: int  # the level of the last full bet or raise (or of the big blind)
    full_raise: int  # the size of the last full bet or raise (the bet unit at first)


def _require(name: str, value: object, kinds: tuple[type, ...], words: str) -> None:
    """Refuse a setting that is none of ``kinds`` (a bool is a number only where asked)."""
    if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
        raise RulesError.untranslated(f"{name} must be {words}, not {value!r}")


def _whole(name: str, value: int, unit: str, least: int = 1) -> None:
    """Refuse a setting that is not a whole number of at least ``least`` (a float is not)
    of ``unit``: chips, bets or hands."""
    if isinstance(value, bool) or not isinstance(value, int) or value < least:
        fields = {"name": name, "least": least, "value": repr(value)}
        if unit == "bets":
            raise RulesError(
                "{name} must be a whole number of bets, at least {least}, not {value}", **fields
            )
        if unit == "hands":
            raise RulesError(
                "{name} must be a whole number of hands, at least {least}, not {value}", **fields
            )
        raise RulesError(
            "{name} must be a whole number of chips, at least {least}, not {value}", **fields
        )


def _at_most(name: str, value: int, bound_name: str, bound: int) -> None:
    """Refuse a setting above the big bet or the big blind (``bound_name``)."""
    if value > bound:
        if bound_name == "big bet":
            raise RulesError(
                "{name} must be at most the big bet ({bound}), not {value}",
                name=name,
                bound=bound,
                value=value,
            )
        raise RulesError(
            "{name} must be at most the big blind ({bound}), not {value}",
            name=name,
            bound=bound,
            value=value,
        )


@dataclass(frozen=True, slots=True)
class FixedLimit:
    """Fixed limit ``small_bet/big_bet``: small bets preflop and on the flop, big bets after.

    The big bet is twice the small bet (RULES.md 3: B = 2S). The blinds default to half
    the small bet and the small bet (RULES.md 4.1: 2/4 has blinds of 1 and 2); ``cap`` is
    the number of bets a round allows (a bet and three raises), which also holds heads-up
    unless ``cap_heads_up`` is False.
    """

    small_bet: int
    big_bet: int
    small_blind: int = 0  # 0: half the small bet
    big_blind: int = 0  # 0: the small bet
    cap: int = 4
    cap_heads_up: bool = True

    def __post_init__(self) -> None:
        _whole("small_bet", self.small_bet, "chips")
        _whole("big_bet", self.big_bet, "chips")
        if self.big_bet != 2 * self.small_bet:
            raise RulesError(
                "big_bet must be twice the small bet of {small} "
                "(RULES.md 3: B = 2S), that is {twice}, not {big}",
                small=self.small_bet,
                twice=2 * self.small_bet,
                big=self.big_bet,
            )
        _whole("big_blind", self.big_blind, "chips", least=0)  # 0: the default, not False
        _whole("small_blind", self.small_blind, "chips", least=0)
        if self.big_blind == 0:
            object.__setattr__(self, "big_blind", self.small_bet)
        _whole("big_blind", self.big_blind, "chips")
        _at_most("big_blind", self.big_blind, "big bet", self.big_bet)
        if self.small_blind == 0:
            if self.small_bet < 2:
                raise RulesError(
                    "small_blind: half the small bet of {small} would be "
                    "{half} chips; set small_blind explicitly, "
                    "1 to {big_blind} chips",
                    small=self.small_bet,
                    half=self.small_bet // 2,
                    big_blind=self.big_blind,
                )
            object.__setattr__(self, "small_blind", self.small_bet // 2)
        _whole("small_blind", self.small_blind, "chips")
        _at_most("small_blind", self.small_blind, "big blind", self.big_blind)
        _whole("cap", self.cap, "bets")
        _require("cap_heads_up", self.cap_heads_up, (bool,), "True or False")

    @property
    def structure(self) -> Structure:
        return Structure.FIXED_LIMIT

    @property
    def name(self) -> str:
        return "Fixed Limit"

    @property
    def stakes(self) -> str:
        return f"{self.small_bet}/{self.big_bet}"

    @property
    def stake_amounts(self) -> tuple[int, int]:
        return self.small_bet, self.big_bet

    def params(self) -> dict[str, int | bool]:
        """The structure's own settings by name, in a stable order (for history writers)."""
        return {
            "small_bet": self.small_bet,
            "big_bet": self.big_bet,
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "cap": self.cap,
            "cap_heads_up": self.cap_heads_up,
        }

    @property
    def default_buy_in(self) -> tuple[int, int]:
        """RULES.md 6: at least ten small bets; the default maximum is 100 small bets."""
        return 10 * self.small_bet, 100 * self.small_bet

    @property
    def maximum_label(self) -> str:
        return "fixed-limit amount"

    def bet_unit(self, street: int) -> int:
        """RULES.md 3: "bets and raises are S preflop and on the flop, B on the turn and
        river" (streets 0 preflop, 1 flop, 2 turn, 3 river)."""
        return self.small_bet if street <= 1 else self.big_bet

    def raise_bounds(
        self, state: RoundState, to_call: int, all_in_to: int, pot: int
    ) -> tuple[int, int]:
        """One amount: a bet unit on top of the last full bet or raise (RULES.md 3)."""
        to = state.full_level + state.unit
        return to, to

    def is_full_raise(self, state: RoundState, to: int) -> bool:
        """The half-bet rule, RULES.md 3: "In fixed limit, an all-in of at least half a
        bet counts as a full bet or raise." A bet or raise to ``to`` is full when it
        completes a bet unit on top of the last full one, or adds at least half a unit."""
        unit = state.unit
        return to >= state.full_level + unit or 2 * (to - state.level) >= unit

    def reopened(self, state: RoundState, acted_level: int) -> bool:
        """RULES.md 3: "Several short all-ins count together": they reopen the betting for
        a player who has acted when the bet now exceeds what that player last put in by at
        least half a bet (2/4: bet 4, all in 5, all in 6; the bettor may raise)."""
        return 2 * (state.level - acted_level) >= state.unit

    def capped(self, full_bets: int, can_bet: int) -> bool:
        """RULES.md 3: "At most four bets a round: a bet and three raises (the cap). The
        cap holds heads-up too unless the table is set otherwise (cap_heads_up=False)",
        which "lifts the cap while only two players who can still bet are in the round
        (players all in do not count)": ``can_bet``.

        Asked when the count of full bets reaches the cap, so a round capped three-handed
        stays capped when a fold leaves two (TDA: unlimited raising heads-up applies only
        when the round becomes heads-up before the cap is reached)."""
        return full_bets >= self.cap and (self.cap_heads_up or can_bet > 2)


@dataclass(frozen=True, slots=True)
class _BigBetting:
    """Blinds ``small_blind/big_blind``; the smallest bet is ``min_bet`` (the big blind
    unless set, never less), a raise at least the last full bet or raise."""

    small_blind: int
    big_blind: int
    min_bet: int = 0  # 0: the big blind

    def __post_init__(self) -> None:
        _whole("small_blind", self.small_blind, "chips")
        _whole("big_blind", self.big_blind, "chips")
        _at_most("small_blind", self.small_blind, "big blind", self.big_blind)
        _whole("min_bet", self.min_bet, "chips", least=0)  # 0: the default, not False
        if self.min_bet == 0:
            object.__setattr__(self, "min_bet", self.big_blind)
        _whole("min_bet", self.min_bet, "chips", least=self.big_blind)

    @property
    def stakes(self) -> str:
        return f"{self.small_blind}/{self.big_blind}"

    @property
    def stake_amounts(self) -> tuple[int, int]:
        return self.small_blind, self.big_blind

    def params(self) -> dict[str, int | bool]:
        """The structure's own settings by name, in a stable order (for history writers)."""
        return {
            "small_blind": self.small_blind,
            "big_blind": self.big_blind,
            "min_bet": self.min_bet,
        }

    @property
    def default_buy_in(self) -> tuple[int, int]:
        """RULES.md 6: 40 to 100 big blinds."""
        return 40 * self.big_blind, 100 * self.big_blind

    def bet_unit(self, street: int) -> int:
        """RULES.md 3: "the smallest bet is the big blind" (``min_bet``), on every street."""
        return self.min_bet

    def smallest_to(self, state: RoundState) -> int:
        """RULES.md 3: the smallest bet is ``min_bet``; "a raise is at least the size of
        the previous bet or raise in the round"."""
        return state.level + state.full_raise if state.level else self.min_bet

    def is_full_raise(self, state: RoundState, to: int) -> bool:
        """A bet or raise at least the size of the last full one (RULES.md 3)."""
        return to - state.level >= state.full_raise

    def reopened(self, state: RoundState, acted_level: int) -> bool:
        """TDA: short all-ins that add up to a full raise since the player acted reopen the
        betting for that player (RULES.md 3: one short all-in alone does not)."""
        return state.level - acted_level >= state.full_raise

    def capped(self, full_bets: int, can_bet: int) -> bool:
        """No cap in pot and no limit."""
        return False


@dataclass(frozen=True, slots=True)
class PotLimit(_BigBetting):
    """Pot limit: the largest bet or raise makes the total equal to the pot after a call."""

    @property
    def structure(self) -> Structure:
        return Structure.POT_LIMIT

    @property
    def name(self) -> str:
        return "Pot Limit"

    @property
    def maximum_label(self) -> str:
        return "pot-limit maximum"

    def raise_bounds(
        self, state: RoundState, to_call: int, all_in_to: int, pot: int
    ) -> tuple[int, int]:
        """The pot-limit maximum, RULES.md 3: "the largest bet or raise makes the total
        equal to the pot after the player has called: pot + all bets on the table + the
        amount to call. (Pot 100, a bet of 100: the next player may raise to at most 400.)"

        ``pot`` is every chip in the middle, this round's bets included; the raise goes
        to the current bet plus the pot after calling: 100 + (200 + 100) = 400.
        """
        low = self.smallest_to(state)
        return low, max(low, state.level + pot + to_call)


@dataclass(frozen=True, slots=True)
class NoLimit(_BigBetting):
    """No limit: the largest bet is the player's whole stack."""

    @property
    def structure(self) -> Structure:
        return Structure.NO_LIMIT

    @property
    def name(self) -> str:
        return "No Limit"

    @property
    def maximum_label(self) -> str:
        return "no-limit maximum"

    def raise_bounds(
        self, state: RoundState, to_call: int, all_in_to: int, pot: int
    ) -> tuple[int, int]:
        """RULES.md 3: "the largest is the player's whole stack"."""
        return self.smallest_to(state), all_in_to


Betting = FixedLimit | PotLimit | NoLimit


@dataclass(frozen=True, slots=True)
class Mixed:
    """Limit and pot limit in turn (RULES.md 3): each for one orbit, or ``period`` hands.

    Both sets of stakes are stated, so the blinds can go up when the game turns to limit.
    """

    limit: FixedLimit
    pot_limit: PotLimit
    period: int | None = None  # None: once the button has gone round the table

    def __post_init__(self) -> None:
        order = "(Mixed plays limit first, then pot limit)"
        _require("limit", self.limit, (FixedLimit,), f"a FixedLimit {order}")
        _require("pot_limit", self.pot_limit, (PotLimit,), f"a PotLimit {order}")
        if self.period is not None:
            _whole("period", self.period, "hands")

    @property
    def structure(self) -> Structure:
        return Structure.MIXED

    @property
    def name(self) -> str:
        return "Mixed Limit / Pot Limit"

    @property
    def stakes(self) -> str:
        return f"{self.limit.stakes} and {self.pot_limit.stakes}"

    @property
    def default_buy_in(self) -> tuple[int, int]:
        """That of the limit game, the first round."""
        return self.limit.default_buy_in

    def betting_for(self, round_number: int) -> Betting:
        """The structure of a round (0, 1, 2, ...): limit first, then pot limit."""
        return self.limit if round_number % 2 == 0 else self.pot_limit


@dataclass(frozen=True, slots=True)
class Rake:
    """A cash table's rake: ``percent`` of each pot, at most ``cap`` a hand.

    No rake is taken when no flop is dealt ("no flop, no drop"), and an uncalled bet
    returned is never raked (RULES.md 5).
    """

    percent: Fraction | int
    cap: int | None = None

    def __post_init__(self) -> None:
        percent = self.percent
        _require("rake percent", percent, (int, Fraction), "a whole number or a Fraction")
        if not 0 <= percent <= 100:
            raise RulesError(
                "rake percent must be between 0 and 100, not {percent}", percent=percent
            )
        if self.cap is not None:
            _whole("rake cap", self.cap, "chips", least=0)

    def cuts(self, pots: list[int]) -> list[int]:
        """The rake of each pot, main pot first: ``percent`` of it rounded down to whole
        chips, until the hand's rake reaches the cap."""
        left = self.cap
        cuts = []
        for pot in pots:
            cut = int(pot * Fraction(self.percent) / 100)
            if left is not None:
                cut = min(cut, left)
                left -= cut
            cuts.append(cut)
        return cuts


@dataclass(frozen=True, slots=True)
class GameConfig:
    """Everything the engine needs to know about the game of one hand."""

    variant: Variant
    betting: Betting
    ante: int = 0
    rake: Rake | None = None
    boards: int = 1  # RULES.md 7: 2 on a double board
    run_it_twice: bool = False  # RULES.md 7: ask the players still in when all in

    def __post_init__(self) -> None:
        _require("variant", self.variant, (Variant,), "a Variant")
        _require(
            "betting",
            self.betting,
            (FixedLimit, PotLimit, NoLimit),
            "FixedLimit, PotLimit or NoLimit (a hand is played in one structure; "
            "Mixed.betting_for gives a round's)",
        )
        _whole("ante", self.ante, "chips", least=0)
        _require("rake", self.rake, (Rake, type(None)), "a Rake or None")
        if self.boards not in (1, 2) or isinstance(self.boards, bool):
            raise RulesError("boards must be 1 or 2, not {boards}", boards=repr(self.boards))
        _require("run_it_twice", self.run_it_twice, (bool,), "True or False")

    @property
    def structure(self) -> Structure:
        return self.betting.structure
