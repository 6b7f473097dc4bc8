"""Hi/lo equity: exact enumeration or Monte Carlo, for hands and ranges."""

from splitpot.equity.calculator import EquityResult, PlayerEquity, calculate
from splitpot.equity.ranges import Range, RangeError, parse_range

__all__ = ["EquityResult", "PlayerEquity", "Range", "RangeError", "calculate", "parse_range"]
