"""The engine's errors: each an English sentence with named fields (``rules.Refusal``),
which the room says in each player's language."""

from splitpot.rules import Refusal


class IllegalActionError(Refusal):
    """An action that the rules do not allow now; the hand is left unchanged."""


class HandSetupError(Refusal):
    """A hand that cannot be dealt as given (stacks, button, posts or deck)."""
