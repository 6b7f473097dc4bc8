"""The showdown of one hand (RULES.md 5): what each hand still in is worth, the pots
awarded by those values, and the order of showing, where the muck is offered only to a
hand that wins nothing and beats nothing shown.

The hand drives it as it drives a ``BettingRound``: the showdown answers the rules and
returns the events they cause; the hand records them and pays the awards at the end.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from splitpot.cards import Card
from splitpot.engine.actions import Action, ActionKind, LegalActions
from splitpot.engine.errors import IllegalActionError
from splitpot.engine.events import Event, Mucked, Shown
from splitpot.engine.pots import Pot, award_pots
from splitpot.evaluate import HighHand, LowHand, Variant, best_high, best_high_low
from splitpot.frozen import quick_init


@quick_init
@dataclass(frozen=True, slots=True)
class HandValue:
    """What a hand is worth at the showdown: its best high and, in a game with a low, its
    best qualifying low (None: no low)."""

    high: HighHand
    low: LowHand | None


class ShowdownRound:
    """The showdown after the last betting round: ``to_act`` is the player offered show
    or muck (None: every hand is shown or mucked), ``awards`` what the pots pay."""

    __slots__ = (
        "_at",
        "_best",
        "_face_up",
        "_holes",
        "_winners",
        "awards",
        "boards",
        "order",
        "values",
    )

    def __init__(
        self,
        variant: Variant,
        holes: Sequence[Sequence[Card | None]],
        live: Sequence[int],
        boards: Sequence[Sequence[Card | None]],
        pots: Sequence[Pot],
        button: int,
        aggressor: int | None,
        face_up: bool,
    ) -> None:
        """``holes`` holds every player's cards (None: unknown), ``live`` the players still
        in, ``boards`` the board (two: a double board or a board run twice), ``pots`` the
        pots after the rake, ``aggressor`` the river's last bettor or raiser, ``face_up``
        whether an all-in turned every hand face up."""
        players = len(holes)
        self.boards = [_values(variant, holes, live, board) for board in boards]
        self.values = self.boards[0]
        self.awards = tuple(
            award_pots(
                pots,
                [
                    (
                        {p: value.high for p, value in values.items()},
                        {p: value.low for p, value in values.items()} if variant.has_low else None,
                    )
                    for values in self.boards
                ],
                button,
                players,
            )
        )
        # RULES.md 5: the last bettor or raiser of the river shows first; else the first
        # player still in left of the button; then clockwise.
        first = (button + 1) % players if aggressor is None else aggressor
        self.order = tuple(sorted(live, key=lambda p: (p - first) % players))
        self._face_up = face_up
        self._holes = holes
        self._winners = frozenset(award.player for award in self.awards)
        self._at = 0  # the place in ``order`` of the next hand to show or muck
        # the best (high, low) shown on each board; low -1: none
        self._best: list[tuple[int, int]] | None = None

    @property
    def to_act(self) -> int | None:
        return self.order[self._at] if self._at < len(self.order) else None

    def legal_actions(self) -> LegalActions:
        """Show (when the hole cards are known) or muck, for the player offered the choice."""
        player = self.to_act
        if player is None:
            raise IllegalActionError("the showdown is over: no one is to show")
        return LegalActions(player, show=None not in self._holes[player], muck=True)

    def reveal(self) -> list[Event]:
        """Show, in order, every hand that must be shown (and, all face up, muck a hand
        whose cards are unknown), up to the next hand that may muck."""
        events: list[Event] = []
        while (player := self.to_act) is not None:
            value = self.values.get(player)
            if value is not None and (self._face_up or self._must_show(player)):
                events.append(self._show(player))
            elif value is None and self._face_up:
                events.append(Mucked(player))
            else:
                break  # offered show or muck
            self._at += 1
        return events

    def check(self, action: Action) -> int:
        """The player to act, when they may take ``action``; else the ``IllegalActionError``
        that says why not. Nothing changes."""
        legal = self.legal_actions()
        if action.kind is ActionKind.SHOW and not legal.show:
            raise IllegalActionError("cannot show: the hole cards are not known")
        if action.kind not in (ActionKind.SHOW, ActionKind.MUCK):
            raise IllegalActionError(
                "at the showdown a player may show or muck, not {action}", action=action.kind.value
            )
        return legal.player

    def apply(self, action: Action) -> list[Event]:
        """The show or muck of the player to act, then the hands that must follow it; a
        wrong action raises ``IllegalActionError`` and changes nothing."""
        player = self.check(action)
        decided = self._show(player) if action.kind is ActionKind.SHOW else Mucked(player)
        self._at += 1
        return [decided, *self.reveal()]

    def _must_show(self, player: int) -> bool:
        """RULES.md 5: the first to show shows; then each hand that beats or ties the best
        shown so far, for high or for low, on any board, shows; and the muck is offered
        only to a hand that cannot win any part of any pot, so a hand that wins something
        shows."""
        best = self._best
        if best is None or player in self._winners:
            return True
        return any(
            _strengths(values[player])[0] >= high or _strengths(values[player])[1] >= max(low, 0)
            for values, (high, low) in zip(self.boards, best, strict=True)
        )

    def _show(self, player: int) -> Shown:
        cards = tuple(c for c in self._holes[player] if c is not None)
        value = self.values.get(player)
        if value is None:  # a hand is shown with its value, or not at all
            return Shown(player, cards, None, None)
        best = self._best or [(0, -1)] * len(self.boards)
        self._best = [
            (max(high, _strengths(values[player])[0]), max(low, _strengths(values[player])[1]))
            for values, (high, low) in zip(self.boards, best, strict=True)
        ]
        each = tuple((values[player].high, values[player].low) for values in self.boards)
        return Shown(player, cards, value.high, value.low, each if len(each) > 1 else ())


def _strengths(value: HandValue) -> tuple[int, int]:
    """A hand's high and low strengths (-1: no low), to compare with the best shown."""
    return value.high.strength, -1 if value.low is None else value.low.strength


def _values(
    variant: Variant,
    holes: Sequence[Sequence[Card | None]],
    live: Sequence[int],
    board: Sequence[Card | None],
) -> dict[int, HandValue]:
    """The value of every hand still in whose cards and board are known."""
    if None in board:
        return {}
    table = [card for card in board if card is not None]
    values = {}
    for player in live:
        hole = holes[player]
        if None not in hole:
            cards = [card for card in hole if card is not None]
            if variant.has_low:
                values[player] = HandValue(*best_high_low(cards, table, variant.low_qualifier))
            else:
                values[player] = HandValue(best_high(cards, table), None)
    return values
