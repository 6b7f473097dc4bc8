"""Bots: players that see only what their seat may see and choose a legal action."""

from splitpot.bots.players import Bot, RandomBot, SensibleBot, make_bot, run_it_answer

__all__ = ["Bot", "RandomBot", "SensibleBot", "make_bot", "run_it_answer"]
