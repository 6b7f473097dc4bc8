"""One betting round (RULES.md 3, 4.3 and 4.4): the bet to match, the last full bet or
raise, the count of full bets for the cap, and the level each player last acted at.

The structure (``rules.FixedLimit``, ``PotLimit``, ``NoLimit``) answers the rules; the
round keeps the state they read. The hand keeps the chips.
"""

from __future__ import annotations

from splitpot.rules import Betting


class BettingRound:
    """The state of one betting round; ``level`` is the bet every player still in must
    match, ``full_level`` and ``full_raise`` the total and the size of the last full bet
    or raise (RULES.md 3: a short all-in changes ``level`` only)."""

    __slots__ = (
        "acted_level",
        "aggressor",
        "betting",
        "capped_at",
        "first",
        "full_bets",
        "full_level",
        "full_raise",
        "level",
        "unit",
    )

    def __init__(
        self, betting: Betting, street: int, first: int, level: int, seats: int, can_bet: int
    ) -> None:
        self.betting = betting
        self.unit = betting.bet_unit(street)
        self.first = first  # the first to act
        self.level = level
        self.full_level = level
        self.full_raise = self.unit
        self.full_bets = 1 if level else 0  # bets and full raises; the big blind is a bet
        self.capped_at: int | None = None  # the count of bets the round was capped at
        self.acted_level: list[int | None] = [None] * seats  # None: not acted this round
        self.aggressor: int | None = None  # the last to bet or raise
        self._count_cap(can_bet)

    def owes_action(self, player: int, bet: int) -> bool:
        """The player has not acted this round, or faces a bet above their own."""
        return self.acted_level[player] is None or bet < self.level

    def reopened_for(self, player: int) -> bool:
        """May the player bet or raise as far as the round goes (opponents' chips and the
        player's own stack aside)? Not once the round is capped; not after acting, unless
        a full bet or raise came since, or short all-ins adding up to one (half a bet in
        fixed limit): RULES.md 3, a short all-in does not reopen the betting."""
        if self.capped_at is not None:
            return False
        acted = self.acted_level[player]
        return acted is None or acted < self.full_level or self.betting.reopened(self, acted)

    def acted(self, player: int) -> None:
        self.acted_level[player] = self.level

    def raised(self, player: int, to: int, can_bet: int) -> None:
        """A bet or raise to ``to`` (a short all-in included) by ``player``; ``can_bet``:
        the players still in who have chips left after it."""
        if self.betting.is_full_raise(self, to):
            self.full_bets += 1
            self.full_raise = to - self.level
            self.full_level = to
            self._count_cap(can_bet)
        self.level = to
        self.aggressor = player

    def _count_cap(self, can_bet: int) -> None:
        if self.betting.capped(self.full_bets, can_bet):
            self.capped_at = self.full_bets
