"""Batch evaluation: the high and low strength of many Omaha hands at once.

Encoding (the same as ``HighHand.strength`` and ``LowHand.strength``):

- high: 1 (seven-high) .. 7462 (a royal flush); greater is better, equal is a tie;
- low: ``8192 - mask``, where bit ``v - 1`` of ``mask`` marks low value ``v`` (A=1 ..
  K=13) of the five cards; greater is better; ``NO_LOW`` (0) marks no qualifying low,
  and is also every low of a high-only variant.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from splitpot.evaluate import _kernels
from splitpot.evaluate.ranking import NO_LOW
from splitpot.evaluate.variants import Variant

__all__ = ["NO_LOW", "evaluate_batch"]

_LOW_MODES = {
    Variant.O8: _kernels.LOW_EIGHT,
    Variant.BIGO: _kernels.LOW_EIGHT,
    Variant.OMAHA: _kernels.LOW_NONE,
    Variant.HILO_NO_QUALIFIER: _kernels.LOW_ANY,
}


def evaluate_batch(
    holes: npt.ArrayLike, boards: npt.ArrayLike, variant: Variant | str = Variant.O8
) -> tuple[npt.NDArray[np.int32], npt.NDArray[np.int32]]:
    """High and low strengths of N hands: ``holes`` (N, 4 or 5) and ``boards`` (N, 5).

    Cards are integer codes ``4 * rank + suit``. The arrays are not checked for
    duplicate cards (that is the caller's deal); codes outside 0..51 are an error.
    """
    variant = Variant.parse(variant)
    hole_codes = np.ascontiguousarray(holes, dtype=np.int64)
    board_codes = np.ascontiguousarray(boards, dtype=np.int64)
    if hole_codes.ndim != 2 or hole_codes.shape[1] != variant.hole_cards:
        raise ValueError(
            f"holes must have shape (N, {variant.hole_cards}) for {variant.value}, "
            f"not {hole_codes.shape}"
        )
    if board_codes.shape != (hole_codes.shape[0], 5):
        raise ValueError(
            f"boards must have shape ({hole_codes.shape[0]}, 5), not {board_codes.shape}"
        )
    high = np.empty(hole_codes.shape[0], dtype=np.int32)
    low = np.empty(hole_codes.shape[0], dtype=np.int32)
    t = _kernels.tables()
    bad_row = _kernels.evaluate_many(
        t.binom, t.fl5, t.pair_index, t.hi_pair, t.low8, t.low_any_pair,
        hole_codes, board_codes, _LOW_MODES[variant], high, low,
    )  # fmt: skip
    if bad_row >= 0:
        raise ValueError(
            f"row {bad_row} holds a card code outside 0..51: "
            f"holes {hole_codes[bad_row].tolist()}, board {board_codes[bad_row].tolist()}"
        )
    return high, low
