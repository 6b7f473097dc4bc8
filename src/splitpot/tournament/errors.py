"""The tournament's refusals: a setting or a request that RULES.md 8 does not allow."""

from __future__ import annotations

from splitpot.rules import Refusal


class TournamentError(Refusal):
    """A tournament setting or request the rules refuse; the message names the bad part."""
