"""Compiled kernels (numba) and the lookup tables they read.

The tables are built once per process (``tables()``); numba caches the compiled code
on disk. Card codes are ``4 * rank + suit``. A sorted multiset of ranks has an index
in the combinatorial number system, so rank patterns index flat tables:

- ``nf5[index of 5 ranks]``: the high strength of five cards that are not a flush;
- ``fl5[13-bit rank mask]``: the high strength of five suited cards;
- ``hi_pair[index of 5 board ranks, index of 2 hole ranks]``: the best non-flush high
  made with those two hole ranks and three of the board ranks;
- ``low8[hole low mask, board low mask]``: the best eight-or-better low strength;
- ``low_any_pair``: as ``hi_pair``, for the low of five different ranks of any height.
"""

from __future__ import annotations

from functools import cache
from itertools import combinations, combinations_with_replacement
from typing import NamedTuple

import numpy as np
from numba import njit

from splitpot.evaluate.ranking import high_strength

BOARD_PATTERNS = 6188  # multisets of 5 ranks out of 13
PAIR_PATTERNS = 91  # multisets of 2 ranks out of 13

# LOW_MODE_*: which low a batch evaluation computes.
LOW_NONE = 0
LOW_EIGHT = 1
LOW_ANY = 2


def _binomials() -> np.ndarray:
    table = np.zeros((18, 6), dtype=np.int64)
    for n in range(18):
        table[n, 0] = 1
        for k in range(1, 6):
            table[n, k] = 0 if n == 0 else table[n - 1, k - 1] + table[n - 1, k]
    return table


BINOMIALS = _binomials()


@njit(cache=True, inline="always")
def _sorted5(a: int, b: int, c: int, d: int, e: int) -> tuple[int, int, int, int, int]:
    # An optimal 9-comparator sorting network.
    if a > b:
        a, b = b, a
    if d > e:
        d, e = e, d
    if c > e:
        c, e = e, c
    if c > d:
        c, d = d, c
    if a > d:
        a, d = d, a
    if a > c:
        a, c = c, a
    if b > e:
        b, e = e, b
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    return a, b, c, d, e


@njit(cache=True, inline="always")
def _pattern5(binom: np.ndarray, a: int, b: int, c: int, d: int, e: int) -> int:
    """Index of the multiset of five ranks (any order) in 0..6187."""
    s0, s1, s2, s3, s4 = _sorted5(a, b, c, d, e)
    return int(s0 + binom[s1 + 1, 2] + binom[s2 + 2, 3] + binom[s3 + 3, 4] + binom[s4 + 4, 5])


def _pattern5_py(ranks: tuple[int, ...]) -> int:
    s = sorted(ranks)
    return sum(int(BINOMIALS[s[i] + i, i + 1]) for i in range(5))


def _pair_index(a: int, b: int) -> int:
    low, high = min(a, b), max(a, b)
    return low + int(BINOMIALS[high + 1, 2])


@njit(cache=True)
def _fill_pair_tables(
    binom: np.ndarray, nf5: np.ndarray, hi_pair: np.ndarray, low_any_pair: np.ndarray
) -> None:
    """For every board rank pattern and hole rank pair, the best high and any-height low."""
    for b0 in range(13):
        for b1 in range(b0, 13):
            for b2 in range(b1, 13):
                for b3 in range(b2, 13):
                    for b4 in range(b3, 13):
                        board = (b0, b1, b2, b3, b4)
                        bidx = _pattern5(binom, b0, b1, b2, b3, b4)
                        for h0 in range(13):
                            for h1 in range(h0, 13):
                                pidx = h0 + binom[h1 + 1, 2]
                                best_high = 0
                                best_low = 0
                                for x in range(5):
                                    for y in range(x + 1, 5):
                                        for z in range(y + 1, 5):
                                            bx, by, bz = board[x], board[y], board[z]
                                            r = (h0, h1, bx, by, bz)
                                            value = nf5[_pattern5(binom, h0, h1, bx, by, bz)]
                                            best_high = max(best_high, value)
                                            mask = 0
                                            distinct = True
                                            for rank in r:
                                                bit = 1 << ((rank + 1) % 13)
                                                distinct = distinct and (mask & bit) == 0
                                                mask |= bit
                                            if distinct:
                                                best_low = max(best_low, 8192 - mask)
                                hi_pair[bidx, pidx] = best_high
                                low_any_pair[bidx, pidx] = best_low


@njit(cache=True)
def _fill_low8(low8: np.ndarray) -> None:
    """The best eight-or-better low for every pair of low-rank masks (hole, board)."""
    for hole in range(256):
        for board in range(256):
            best = 0
            for x in range(8):
                for y in range(x + 1, 8):
                    pair = (1 << x) | (1 << y)
                    if hole & pair != pair:
                        continue
                    rest = board & ~pair
                    # three lowest board ranks not used by the pair make the best low
                    count = 0
                    mask = pair
                    for bit in range(8):
                        if count < 3 and rest >> bit & 1:
                            mask |= 1 << bit
                            count += 1
                    if count == 3:
                        best = max(best, 8192 - mask)
            low8[hole, board] = best


class Tables(NamedTuple):
    binom: np.ndarray
    nf5: np.ndarray
    fl5: np.ndarray
    pair_index: np.ndarray
    hi_pair: np.ndarray
    low8: np.ndarray
    low_any_pair: np.ndarray


def _five_card_tables() -> tuple[np.ndarray, np.ndarray]:
    nf5 = np.zeros(BOARD_PATTERNS, dtype=np.int32)
    for ranks in combinations_with_replacement(range(13), 5):
        if max(ranks.count(rank) for rank in ranks) <= 4:
            nf5[_pattern5_py(ranks)] = high_strength(ranks, False)
    fl5 = np.zeros(1 << 13, dtype=np.int32)
    for ranks in combinations(range(13), 5):
        fl5[sum(1 << rank for rank in ranks)] = high_strength(ranks, True)
    return nf5, fl5


# Module constants: numba compiles them into the kernels.
NF5, FL5 = _five_card_tables()
# The bit of a rank index in an eight-or-better low mask (A=bit 0 .. 8=bit 7), or 0.
LOW8_BIT = np.array([1 << ((rank + 1) % 13) if (rank + 1) % 13 < 8 else 0 for rank in range(13)])


@cache
def tables() -> Tables:
    """Build the lookup tables of the batch kernel (once per process)."""
    pair_index = np.array(
        [[_pair_index(a, b) for b in range(13)] for a in range(13)], dtype=np.int64
    )
    hi_pair = np.zeros((BOARD_PATTERNS, PAIR_PATTERNS), dtype=np.uint16)
    low_any_pair = np.zeros((BOARD_PATTERNS, PAIR_PATTERNS), dtype=np.uint16)
    _fill_pair_tables(BINOMIALS, NF5, hi_pair, low_any_pair)
    low8 = np.zeros((256, 256), dtype=np.uint16)
    _fill_low8(low8)
    return Tables(BINOMIALS, NF5, FL5, pair_index, hi_pair, low8, low_any_pair)


@njit(cache=True, inline="always")
def _high5(binom: np.ndarray, nf5: np.ndarray, fl5: np.ndarray, c: tuple[int, ...]) -> int:
    s = c[0] & 3
    if (c[1] & 3) == s and (c[2] & 3) == s and (c[3] & 3) == s and (c[4] & 3) == s:
        mask = (1 << (c[0] >> 2)) | (1 << (c[1] >> 2)) | (1 << (c[2] >> 2))
        return int(fl5[mask | (1 << (c[3] >> 2)) | (1 << (c[4] >> 2))])
    return int(nf5[_pattern5(binom, c[0] >> 2, c[1] >> 2, c[2] >> 2, c[3] >> 2, c[4] >> 2)])


@njit(cache=True, inline="always")
def _low5(c: tuple[int, ...], limit: int) -> int:
    mask = 0
    for code in c:
        bit = 1 << (((code >> 2) + 1) % 13)
        if mask & bit:
            return 0
        mask |= bit
    return 8192 - mask if mask < limit else 0


@njit(cache=True)
def best_combination(
    hole: int,
    n_hole: int,
    board: int,
    n_board: int,
    low_limit: int,
) -> tuple[int, int, int, int, int, int]:
    """The best hand of one player by trying every 2-hole + 3-board combination.

    ``hole`` and ``board`` pack six bits per card code. ``low_limit`` 0 asks for the
    high hand; otherwise the low, whose rank mask must stay below ``low_limit``.
    Returns (strength, hole i, hole j, board x, board y, board z) of the first best.
    """
    best = -1
    found = (0, 0, 0, 0, 0)
    for i in range(n_hole):
        ci = (hole >> (6 * i)) & 63
        for j in range(i + 1, n_hole):
            cj = (hole >> (6 * j)) & 63
            for x in range(n_board):
                cx = (board >> (6 * x)) & 63
                for y in range(x + 1, n_board):
                    cy = (board >> (6 * y)) & 63
                    for z in range(y + 1, n_board):
                        cz = (board >> (6 * z)) & 63
                        combo = (ci, cj, cx, cy, cz)
                        if low_limit == 0:
                            value = _high5(BINOMIALS, NF5, FL5, combo)
                        else:
                            value = _low5(combo, low_limit)
                        if value > best:
                            best = value
                            found = (i, j, x, y, z)
    return best, found[0], found[1], found[2], found[3], found[4]


@njit(cache=True)
def evaluate_many(
    t_binom: np.ndarray,
    t_fl5: np.ndarray,
    t_pair_index: np.ndarray,
    t_hi_pair: np.ndarray,
    t_low8: np.ndarray,
    t_low_any_pair: np.ndarray,
    holes: np.ndarray,
    boards: np.ndarray,
    low_mode: int,
    out_high: np.ndarray,
    out_low: np.ndarray,
) -> int:
    """High and low strength of N Omaha hands (exactly two hole + three board cards).

    Returns -1, or the first row that holds a code outside 0..51 (rows from there on
    are not evaluated).
    """
    n_hole = holes.shape[1]
    hole_ranks = np.empty(n_hole, dtype=np.int64)
    suited_hole = np.empty(n_hole, dtype=np.int64)
    suited_board = np.empty(5, dtype=np.int64)
    for n in range(holes.shape[0]):
        c0, c1, c2, c3, c4 = boards[n, 0], boards[n, 1], boards[n, 2], boards[n, 3], boards[n, 4]
        if min(c0, c1, c2, c3, c4) < 0 or max(c0, c1, c2, c3, c4) > 51:
            return n
        for i in range(n_hole):
            if holes[n, i] < 0 or holes[n, i] > 51:
                return n
        bidx = _pattern5(t_binom, c0 >> 2, c1 >> 2, c2 >> 2, c3 >> 2, c4 >> 2)
        for i in range(n_hole):
            hole_ranks[i] = holes[n, i] >> 2
        high = 0
        for i in range(n_hole):
            for j in range(i + 1, n_hole):
                value = t_hi_pair[bidx, t_pair_index[hole_ranks[i], hole_ranks[j]]]
                high = max(high, value)
        # A flush needs three board cards and two hole cards of one suit; count the
        # board's suits in four-bit fields of one integer.
        counts = (1 << (4 * (c0 & 3))) + (1 << (4 * (c1 & 3))) + (1 << (4 * (c2 & 3)))
        counts += (1 << (4 * (c3 & 3))) + (1 << (4 * (c4 & 3)))
        suit = -1
        for s in range(4):
            if (counts >> (4 * s)) & 15 >= 3:
                suit = s
        if suit >= 0:
            n_suited_hole = 0
            for i in range(n_hole):
                if (holes[n, i] & 3) == suit:
                    suited_hole[n_suited_hole] = 1 << hole_ranks[i]
                    n_suited_hole += 1
            if n_suited_hole >= 2:
                n_suited_board = 0
                for k in range(5):
                    if (boards[n, k] & 3) == suit:
                        suited_board[n_suited_board] = 1 << (boards[n, k] >> 2)
                        n_suited_board += 1
                for x in range(n_suited_board):
                    for y in range(x + 1, n_suited_board):
                        for z in range(y + 1, n_suited_board):
                            triple = suited_board[x] | suited_board[y] | suited_board[z]
                            for i in range(n_suited_hole):
                                for j in range(i + 1, n_suited_hole):
                                    mask = triple | suited_hole[i] | suited_hole[j]
                                    high = max(high, t_fl5[mask])
        out_high[n] = high
        if low_mode == LOW_EIGHT:
            hole_mask = 0
            for i in range(n_hole):
                hole_mask |= LOW8_BIT[hole_ranks[i]]
            board_mask = LOW8_BIT[c0 >> 2] | LOW8_BIT[c1 >> 2] | LOW8_BIT[c2 >> 2]
            board_mask |= LOW8_BIT[c3 >> 2] | LOW8_BIT[c4 >> 2]
            out_low[n] = t_low8[hole_mask, board_mask]
        elif low_mode == LOW_ANY:
            low = 0
            for i in range(n_hole):
                for j in range(i + 1, n_hole):
                    value = t_low_any_pair[bidx, t_pair_index[hole_ranks[i], hole_ranks[j]]]
                    low = max(low, value)
            out_low[n] = low
        else:
            out_low[n] = 0
    return -1


def low_limit(qualifier: int | None) -> int:
    """The rank-mask bound for ``best_combination``: lows must use values <= qualifier."""
    return 1 << (13 if qualifier is None else qualifier)
