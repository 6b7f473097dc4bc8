"""The settle-up: who pays whom so that every net result is square, in the fewest payments.

The fewest is ``n - g`` for ``n`` players who owe or are owed and ``g`` the largest number
of groups, each summing to zero, they split into: each group settles within itself in one
payment fewer than its size, and no set of payments does better (each connected part of
the payments is such a group). Finding ``g`` is hard in general; up to ``MOST_EXACT``
players a search over the subsets finds it, past that the greedy answer is given.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import numpy.typing as npt

from splitpot.store.errors import LedgerError
from splitpot.store.values import Payment

MOST_EXACT = 20  # players owing or owed: 2**20 subsets, a fraction of a second


def settle_up(nets: Mapping[str, int]) -> list[Payment]:
    """The payments that square every net: the fewest (``is_fewest``) for up to
    ``MOST_EXACT`` players not already square, the greedy answer for more. The nets must
    sum to zero."""
    if sum(nets.values()) != 0:
        raise LedgerError(f"net results must sum to zero to settle: {dict(nets)}")
    owed = {name: net for name, net in sorted(nets.items()) if net}
    if len(owed) > MOST_EXACT:
        return greedy(owed)
    return [payment for group in zero_sum_groups(owed) for payment in greedy(group)]


def is_fewest(payments: Sequence[Payment]) -> bool:
    """Whether ``settle_up`` proved these payments the fewest: it searched, having at most
    ``MOST_EXACT`` players not square (each of them pays or is paid)."""
    return len({p.payer for p in payments} | {p.payee for p in payments}) <= MOST_EXACT


def greedy(owed: Mapping[str, int]) -> list[Payment]:
    """The largest debtor pays the largest creditor as much as squares one of them, until
    all are square: at most one payment fewer than the players, the fewest only when no
    smaller group of them sums to zero."""
    left = {name: net for name, net in owed.items() if net}
    payments: list[Payment] = []
    while left:
        payer = min(left, key=lambda name: (left[name], name))
        payee = min(left, key=lambda name: (-left[name], name))
        amount = min(-left[payer], left[payee])
        payments.append(Payment(payer, payee, amount))
        for name, change in ((payer, amount), (payee, -amount)):
            left[name] += change
            if not left[name]:
                del left[name]
    return payments


def zero_sum_groups(owed: Mapping[str, int]) -> list[dict[str, int]]:
    """The players split into the most groups that each sum to zero (``owed`` sums to
    zero), each group in the order of ``owed``."""
    names = list(owed)
    zero = _zero_sums([owed[name] for name in names])
    most = _most_groups(zero, len(names))
    groups: list[dict[str, int]] = []
    mask = len(zero) - 1
    group = 0  # the players of the group being walked back, as bits
    while mask:
        step = next(
            bit
            for bit in (1 << i for i in range(len(names)))
            if mask & bit and most[mask ^ bit] + zero[mask] == most[mask]
        )
        group |= step
        mask ^= step
        if zero[mask]:  # a zero-sum prefix ends the group
            groups.append({name: owed[name] for i, name in enumerate(names) if group >> i & 1})
            group = 0
    return sorted(groups, key=lambda found: next(iter(found)))


def _zero_sums(nets: Sequence[int]) -> npt.NDArray[np.bool_]:
    """For each subset of the players (bit ``i``: player ``i``), whether its nets sum to
    zero; summed as Python integers, which never wrap."""
    sums = [0]
    for net in nets:
        sums += [total + net for total in sums]
    return np.fromiter((total == 0 for total in sums), dtype=np.bool_, count=len(sums))


def _most_groups(zero: npt.NDArray[np.bool_], players: int) -> npt.NDArray[np.int8]:
    """For each subset, the most zero-sum prefixes of an order of its players: for a subset
    summing to zero, the most groups summing to zero it splits into. A subset's count is
    its best count without one player, plus one when it sums to zero; the subsets are
    counted by size, each size at once."""
    size = len(zero)
    masks = np.arange(size, dtype=np.int64)
    members = np.zeros(size, dtype=np.int8)
    for i in range(players):
        members += ((masks >> i) & 1).astype(np.int8)
    by_size = np.argsort(members, kind="stable")
    starts = np.searchsorted(members[by_size], np.arange(players + 2))
    most = np.zeros(size, dtype=np.int8)
    gain = zero.astype(np.int8)
    for count in range(1, players + 1):
        layer = by_size[starts[count] : starts[count + 1]]
        best = np.zeros(len(layer), dtype=np.int8)
        for i in range(players):
            bit = 1 << i
            np.maximum(best, np.where(layer & bit, most[layer ^ bit], 0), out=best)
        most[layer] = best + gain[layer]
    return most
