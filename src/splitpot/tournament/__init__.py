"""Tournaments (RULES.md 8): levels, payouts, places and the balancing of tables, as pure
values and functions; the room's tournament director (``room/tournament.py``) drives them."""

from splitpot.tournament.errors import TournamentError

__all__ = ["TournamentError"]
