"""The equity calculator's errors: each message names the bad input."""


class EquityError(ValueError):
    """Hands, ranges or settings the calculator cannot work with."""


class NoDealError(EquityError):
    """Players whose hands and ranges cannot all be dealt at once (a card would be dealt
    twice), or fit together too rarely for sampling to find deals."""
