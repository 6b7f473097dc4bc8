"""Compiled equity kernels: every board of an exact enumeration, or random deals.

Each board is scored for every player with the evaluator's lookup tables, and the
counts that make the figures are added up as integers: a player's share of a pot is
counted in units of 1/5040 (5040 = 2 x 2520, and 2520 divides by every number of tied
players from 1 to 10), so exact results are exact fractions.
"""

from __future__ import annotations

import numpy as np
from numba import njit, prange

from splitpot.evaluate.kernels import LOW8_BIT, Tables, pattern5

UNITS = 5040
HALF = UNITS // 2
# The columns of the statistics array, one row per player.
EQUITY, HIGH_WIN, HIGH_TIE, LOW_WIN, LOW_TIE, SCOOP, QUARTER, THREE_QUARTER = range(8)
LOW_POSSIBLE, HIGH_EQUITY, LOW_EQUITY, EQUITY_SQUARES = 8, 9, 10, 11
COLUMNS = 12


@njit(cache=True, inline="always")
def _score(
    b: np.ndarray,
    holes: np.ndarray,
    low_mode: int,
    tables: tuple[np.ndarray, ...],
    high: np.ndarray,
    low: np.ndarray,
) -> None:
    """The high and low strength of every player on the five-card board ``b``; ``tables``
    are the evaluator's (``table_arguments``)."""
    binom, fl5, pair_index, hi_pair, low8, low_any_pair = tables
    players, size = holes.shape
    bidx = pattern5(binom, b[0] >> 2, b[1] >> 2, b[2] >> 2, b[3] >> 2, b[4] >> 2)
    counts = 0
    board_low = 0
    for k in range(5):
        counts += 1 << (4 * (b[k] & 3))
        board_low |= LOW8_BIT[b[k] >> 2]
    suit = -1
    for s in range(4):
        if (counts >> (4 * s)) & 15 >= 3:
            suit = s
    for p in range(players):
        best = 0
        for i in range(size):
            for j in range(i + 1, size):
                value = hi_pair[bidx, pair_index[holes[p, i] >> 2, holes[p, j] >> 2]]
                best = max(best, value)
        if suit >= 0:
            for i in range(size):
                if (holes[p, i] & 3) != suit:
                    continue
                for j in range(i + 1, size):
                    if (holes[p, j] & 3) != suit:
                        continue
                    pair = (1 << (holes[p, i] >> 2)) | (1 << (holes[p, j] >> 2))
                    for x in range(5):
                        if (b[x] & 3) != suit:
                            continue
                        for y in range(x + 1, 5):
                            if (b[y] & 3) != suit:
                                continue
                            for z in range(y + 1, 5):
                                if (b[z] & 3) == suit:
                                    mask = (
                                        pair
                                        | (1 << (b[x] >> 2))
                                        | (1 << (b[y] >> 2))
                                        | (1 << (b[z] >> 2))
                                    )
                                    best = max(best, fl5[mask])
        high[p] = best
        if low_mode == 1:
            hole_low = 0
            for i in range(size):
                hole_low |= LOW8_BIT[holes[p, i] >> 2]
            low[p] = low8[hole_low, board_low]
        elif low_mode == 2:
            best_low = 0
            for i in range(size):
                for j in range(i + 1, size):
                    value = low_any_pair[bidx, pair_index[holes[p, i] >> 2, holes[p, j] >> 2]]
                    best_low = max(best_low, value)
            low[p] = best_low
        else:
            low[p] = 0


@njit(cache=True, inline="always")
def _tally(high: np.ndarray, low: np.ndarray, stats: np.ndarray) -> None:
    """Add one board's outcome to every player's statistics."""
    players = high.shape[0]
    top_high = 0
    top_low = 0
    for p in range(players):
        top_high = max(top_high, high[p])
        top_low = max(top_low, low[p])
    high_winners = 0
    low_winners = 0
    for p in range(players):
        high_winners += high[p] == top_high
        low_winners += top_low > 0 and low[p] == top_low
    high_pot = HALF if top_low > 0 else UNITS
    for p in range(players):
        share = 0
        if high[p] == top_high:
            share += high_pot // high_winners
            stats[p, HIGH_EQUITY] += HALF // high_winners
            if high_winners == 1:
                stats[p, HIGH_WIN] += 1
            else:
                stats[p, HIGH_TIE] += 1
        if top_low > 0:
            stats[p, LOW_POSSIBLE] += 1
            if low[p] == top_low:
                share += HALF // low_winners
                stats[p, LOW_EQUITY] += HALF // low_winners
                if low_winners == 1:
                    stats[p, LOW_WIN] += 1
                else:
                    stats[p, LOW_TIE] += 1
        stats[p, EQUITY] += share
        stats[p, EQUITY_SQUARES] += share * share
        if share == UNITS:
            stats[p, SCOOP] += 1
        elif share == UNITS // 4:
            stats[p, QUARTER] += 1
        elif share == 3 * UNITS // 4:
            stats[p, THREE_QUARTER] += 1


@njit(cache=True)
def board_combinations(cards: np.ndarray, count: int) -> np.ndarray:
    """Every ``count``-card combination of ``cards``, one a row."""
    n = cards.shape[0]
    total = 1
    for i in range(count):
        total = total * (n - i) // (i + 1)
    out = np.empty((total, count), dtype=np.int64)
    index = np.arange(count)
    for row in range(total):
        for k in range(count):
            out[row, k] = cards[index[k]]
        k = count - 1
        while k >= 0 and index[k] == n - count + k:
            k -= 1
        if k < 0:
            break
        index[k] += 1
        for j in range(k + 1, count):
            index[j] = index[j - 1] + 1
    return out


@njit(cache=True, parallel=True, nogil=True)
def enumerate_boards(
    holes: np.ndarray,
    known: np.ndarray,
    completions: np.ndarray,
    low_mode: int,
    tables: tuple[np.ndarray, ...],
) -> np.ndarray:
    """Statistics over every board: the known board cards plus each completion row."""
    players = holes.shape[0]
    chunks = 64
    per_chunk = np.zeros((chunks, players, COLUMNS), dtype=np.int64)
    rows = completions.shape[0]
    step = (rows + chunks - 1) // chunks
    for chunk in prange(chunks):
        board = np.empty(5, dtype=np.int64)
        high = np.empty(players, dtype=np.int64)
        low = np.empty(players, dtype=np.int64)
        for k in range(known.shape[0]):
            board[k] = known[k]
        for row in range(chunk * step, min(rows, (chunk + 1) * step)):
            for k in range(completions.shape[1]):
                board[known.shape[0] + k] = completions[row, k]
            _score(board, holes, low_mode, tables, high, low)
            _tally(high, low, per_chunk[chunk])
    total: np.ndarray = per_chunk.sum(axis=0)
    return total


@njit(cache=True, inline="always")
def _deal_rest(
    deck: np.ndarray,
    free: int,
    holes: np.ndarray,
    random_players: np.ndarray,
    known: np.ndarray,
    board: np.ndarray,
) -> None:
    """Deal the random players' hands and the rest of the board from the first ``free``
    cards of ``deck`` by a partial shuffle."""
    slot = 0
    for p in range(holes.shape[0]):
        if random_players[p]:
            for c in range(holes.shape[1]):
                pick = slot + np.random.randint(free - slot)
                deck[slot], deck[pick] = deck[pick], deck[slot]
                holes[p, c] = deck[slot]
                slot += 1
    for c in range(known.shape[0]):
        board[c] = known[c]
    for c in range(known.shape[0], 5):
        pick = slot + np.random.randint(free - slot)
        deck[slot], deck[pick] = deck[pick], deck[slot]
        board[c] = deck[slot]
        slot += 1


@njit(cache=True, parallel=True, nogil=True)
def sample_deals(
    choices: np.ndarray,
    choice_starts: np.ndarray,
    random_players: np.ndarray,
    known: np.ndarray,
    dead: np.ndarray,
    samples: int,
    try_factor: int,
    seed: int,
    low_mode: int,
    tables: tuple[np.ndarray, ...],
    counts: np.ndarray,
) -> np.ndarray:
    """Statistics over random deals, in parallel chunks seeded from ``seed``; the number
    of deals made and of deals tried are added to ``counts[0]`` and ``counts[1]`` (an
    array, not a returned tuple: numba turns a Ctrl-C during a call that returns a tuple
    into a SystemError).

    A player's hand is drawn from its list of hands
    (``choices[choice_starts[p]:choice_starts[p + 1]]``, one row for a known hand; deals
    where two lists' hands share a card are drawn again), or, for a random player
    (``random_players[p]``), from the unseen cards like the rest of the board. A chunk
    stops after ``try_factor`` tries per deal it was to make, so a call ends in bounded
    time even when the lists' hands rarely fit together.
    """
    players = choice_starts.shape[0] - 1
    size = choices.shape[1]
    chunks = 32
    per_chunk = np.zeros((chunks, players, COLUMNS), dtype=np.int64)
    dealt = np.zeros(chunks, dtype=np.int64)
    tried = np.zeros(chunks, dtype=np.int64)
    for chunk in prange(chunks):
        np.random.seed(seed + chunk)
        todo = samples // chunks + (1 if chunk < samples % chunks else 0)
        limit = try_factor * todo
        holes = np.empty((players, size), dtype=np.int64)
        board = np.empty(5, dtype=np.int64)
        high = np.empty(players, dtype=np.int64)
        low = np.empty(players, dtype=np.int64)
        used = np.zeros(52, dtype=np.bool_)
        deck = np.empty(52, dtype=np.int64)
        ranged = False
        for p in range(players):
            ranged = ranged or (
                not random_players[p] and choice_starts[p + 1] - choice_starts[p] > 1
            )
        done = 0
        tries = 0
        free = 0
        while done < todo and tries < limit:
            tries += 1
            # Hands from lists are drawn for each deal; known hands stay put, and the
            # random hands and the board come from a partial shuffle of the unseen cards.
            if ranged or done == 0:
                used[:] = False
                for card in known:
                    used[card] = True
                for card in dead:
                    used[card] = True
                clash = False
                for p in range(players):
                    if random_players[p]:
                        continue
                    start, end = choice_starts[p], choice_starts[p + 1]
                    pick = start + np.random.randint(end - start)
                    for c in range(size):
                        card = choices[pick, c]
                        clash = clash or used[card]
                        used[card] = True
                        holes[p, c] = card
                if clash:
                    continue
                free = 0
                for card in range(52):
                    if not used[card]:
                        deck[free] = card
                        free += 1
            _deal_rest(deck, free, holes, random_players, known, board)
            _score(board, holes, low_mode, tables, high, low)
            _tally(high, low, per_chunk[chunk])
            done += 1
        dealt[chunk] = done
        tried[chunk] = tries
    counts[0] += dealt.sum()
    counts[1] += tried.sum()
    total: np.ndarray = per_chunk.sum(axis=0)
    return total


def table_arguments(tables: Tables) -> tuple[np.ndarray, ...]:
    return (
        tables.binom,
        tables.fl5,
        tables.pair_index,
        tables.hi_pair,
        tables.low8,
        tables.low_any_pair,
    )
