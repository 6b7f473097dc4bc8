"""Hi/lo equity: exact enumeration or Monte Carlo, for hands and ranges."""

from splitpot.equity.calculator import EquityResult, PlayerEquity, calculate
from splitpot.equity.errors import EquityError, NoDealError
from splitpot.equity.ranges import Range, RangeError, parse_range

__all__ = [
    "EquityError",
    "EquityResult",
    "NoDealError",
    "PlayerEquity",
    "Range",
    "RangeError",
    "calculate",
    "parse_range",
]
