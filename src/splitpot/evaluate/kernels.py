"""The evaluator's compiled building blocks, for other compiled code (the equity kernels).

The lookup tables (``tables()``, one ``Tables`` a process), the rank-pattern index of a
five-card board (``pattern5``, callable from numba code) and the eight-or-better low bit
of each rank (``LOW8_BIT``). Card codes are ``4 * rank + suit``; ``_kernels`` documents
what each table holds.
"""

from splitpot.evaluate._kernels import LOW8_BIT, Tables, tables
from splitpot.evaluate._kernels import _pattern5 as pattern5

__all__ = ["LOW8_BIT", "Tables", "pattern5", "tables"]
