"""The engine's errors."""


class IllegalActionError(ValueError):
    """An action that the rules do not allow now; the hand is left unchanged."""


class HandSetupError(ValueError):
    """A hand that cannot be dealt as given (stacks, button, posts or deck)."""
