"""Hi/lo odds for two to ten players: exact enumeration or Monte Carlo."""

from __future__ import annotations

import math
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np
import numpy.typing as npt

from splitpot.cards import Card, CardError, DuplicateCardError, ensure_distinct, parse_cards
from splitpot.equity import _kernels as k
from splitpot.equity.ranges import Range, RangeError, is_exact_hand, parse_range
from splitpot.evaluate import Variant
from splitpot.evaluate import _kernels as evaluator

EXACT_LIMIT = 40_000_000  # player-boards an "auto" run enumerates rather than samples
DEFAULT_SAMPLES = 200_000
LOW_MODES = {Variant.O8: 1, Variant.BIGO: 1, Variant.HILO_NO_QUALIFIER: 2, Variant.OMAHA: 0}
FIELDS = (
    "equity", "high_win", "high_tie", "low_win", "low_tie", "scoop", "quarter",
    "three_quarter", "low_possible", "high_equity", "low_equity",
)  # fmt: skip


@dataclass(frozen=True)
class PlayerEquity:
    """One player's figures: rates between 0 and 1 (exact fractions after an exact run).

    ``equity`` is the expected share of the pot; ``high_equity`` and ``low_equity`` the
    expected share of the high and of the low half (0 for the low when none qualifies);
    ``scoop``, ``quarter`` and ``three_quarter`` the rates of winning the whole pot, a
    quarter and three quarters of it; ``errors`` the standard error of each figure
    (Monte Carlo only)."""

    hand: str
    combinations: int
    equity: Fraction
    high_win: Fraction
    high_tie: Fraction
    low_win: Fraction
    low_tie: Fraction
    scoop: Fraction
    quarter: Fraction
    three_quarter: Fraction
    low_possible: Fraction
    high_equity: Fraction
    low_equity: Fraction
    errors: dict[str, float]


@dataclass(frozen=True)
class EquityResult:
    method: str  # "exact" or "monte-carlo"
    samples: int  # boards enumerated, or deals sampled
    players: tuple[PlayerEquity, ...]


def _player_hands(text: str, size: int) -> tuple[str, npt.NDArray[np.int64]]:
    """A player's possible hands: an exact hand, a range, or ``*``."""
    if is_exact_hand(text, size):
        cards = parse_cards(text)
        return "".join(map(str, cards)), np.array([sorted(c.code for c in cards)], dtype=np.int64)
    if len(text.replace(" ", "")) == 2 * size and not any(ch in text for ch in "*$,:!"):
        parse_cards(text)  # a hand with a bad card: say which
    parsed: Range = parse_range(text, size)
    return parsed.text, parsed.hands


def calculate(
    hands: Sequence[str],
    board: str = "",
    dead: str = "",
    variant: Variant | str = "o8",
    method: str = "auto",
    samples: int | None = None,
    seed: int | None = None,
    progress: Callable[[int, int], None] | None = None,
) -> EquityResult:
    """Each player's equity and hi/lo figures. ``hands`` are hand texts, range texts or
    ``"*"``; ``method`` is ``auto``, ``exact`` or ``monte-carlo``; ``progress`` is told
    (done, total) as the work goes on."""
    variant = Variant.parse(variant)
    size = variant.hole_cards
    if not 2 <= len(hands) <= 10:
        raise ValueError(f"equity needs 2 to 10 players, not {len(hands)}")
    if method not in ("auto", "exact", "monte-carlo"):
        raise ValueError(f"method is auto, exact or monte-carlo, not {method!r}")
    board_cards = parse_cards(board)
    dead_cards = parse_cards(dead)
    if len(board_cards) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, not {len(board_cards)}")
    ensure_distinct([*board_cards, *dead_cards])
    known = np.array([c.code for c in board_cards], dtype=np.int64)
    removed = {c.code for c in (*board_cards, *dead_cards)}
    names: list[str] = []
    options: list[npt.NDArray[np.int64]] = []
    for number, text in enumerate(hands, start=1):
        try:
            name, possible = _player_hands(text, size)
        except (CardError, RangeError) as error:
            raise type(error)(f"player {number}: {error}") from error
        keep = np.asarray(~np.isin(possible, sorted(removed)).any(axis=1), dtype=np.bool_)
        if is_exact_hand(text, size) and not keep.all():
            clash = Card.from_code(next(int(c) for c in possible[0] if int(c) in removed))
            raise DuplicateCardError(clash, f"player {number} and the board or dead cards: ")
        possible = possible[keep]
        if len(possible) == 0:
            raise RangeError(
                f"player {number}: no hand of {text!r} is left once the known cards are out"
            )
        names.append(name)
        options.append(possible)
    ensure_distinct([Card.from_code(int(c)) for o in options if len(o) == 1 for c in o[0]])
    missing = 5 - len(board_cards)
    unseen = 52 - len(removed) - size * len(hands)
    boards = math.comb(unseen, missing)
    deals = math.prod(len(o) for o in options)
    work = deals * boards * len(hands)
    if method == "exact" or (method == "auto" and work <= EXACT_LIMIT):
        return _exact(names, options, known, removed, variant, boards, progress)
    dead_codes = np.array(sorted(c.code for c in dead_cards), dtype=np.int64)
    return _monte_carlo(names, options, known, dead_codes, variant, samples, seed, progress)


def _exact(
    names: list[str],
    options: list[npt.NDArray[np.int64]],
    known: npt.NDArray[np.int64],
    removed: set[int],
    variant: Variant,
    boards: int,
    progress: Callable[[int, int], None] | None,
) -> EquityResult:
    tables = k.table_arguments(evaluator.tables())
    players = len(names)
    stats = np.zeros((players, k.COLUMNS), dtype=np.int64)
    deals = 0
    every = math.prod(len(o) for o in options)
    for number, deal in enumerate(product(*options), start=1):
        if progress is not None and number % 64 == 0:
            progress(number, every)
        cards = [int(c) for hand in deal for c in hand]
        if len(set(cards)) != len(cards):
            continue  # two range hands that share a card
        holes = np.array(deal, dtype=np.int64)
        rest = np.array(sorted(set(range(52)) - removed - set(cards)), dtype=np.int64)
        completions = k.board_combinations(rest, 5 - len(known))
        stats += k.enumerate_boards(holes, known, completions, LOW_MODES[variant], tables)
        deals += 1
    if deals == 0:
        raise RangeError("the ranges leave no deal without a card twice")
    total = deals * boards
    return EquityResult("exact", total, tuple(_figures(names, options, stats, total, exact=True)))


def _monte_carlo(
    names: list[str],
    options: list[npt.NDArray[np.int64]],
    known: npt.NDArray[np.int64],
    dead: npt.NDArray[np.int64],
    variant: Variant,
    samples: int | None,
    seed: int | None,
    progress: Callable[[int, int], None] | None,
) -> EquityResult:
    count = samples or DEFAULT_SAMPLES
    if count <= 0:
        raise ValueError(f"samples must be positive, not {count}")
    # A player who may hold any hand is dealt from the unseen cards directly.
    size = options[0].shape[1]
    free = 52 - len(known) - len(dead)
    random_players = np.array([len(o) == math.comb(free, size) for o in options], dtype=np.bool_)
    listed = [o[:1] if random_players[p] else o for p, o in enumerate(options)]
    choices = np.concatenate(listed)
    starts = np.cumsum([0, *(len(o) for o in listed)]).astype(np.int64)
    rng_seed = seed if seed is not None else secrets.randbits(31)
    tables = k.table_arguments(evaluator.tables())
    stats = np.zeros((len(names), k.COLUMNS), dtype=np.int64)
    done = 0
    for batch, size in enumerate(_batches(count)):  # batches: the progress bar moves
        stats += k.sample_deals(
            choices, starts, random_players, known, dead, size,
            rng_seed + 1000 * batch, LOW_MODES[variant], tables,
        )  # fmt: skip
        done += size
        if progress is not None:
            progress(done, count)
    return EquityResult(
        "monte-carlo", count, tuple(_figures(names, options, stats, count, exact=False))
    )


def _batches(count: int, batch: int = 500_000) -> list[int]:
    return [min(batch, count - start) for start in range(0, count, batch)]


def _figures(
    names: list[str],
    options: list[npt.NDArray[np.int64]],
    stats: npt.NDArray[np.int64],
    total: int,
    exact: bool,
) -> list[PlayerEquity]:
    players = []
    for p, name in enumerate(names):
        row = [int(v) for v in stats[p]]
        rates = {
            "equity": Fraction(row[k.EQUITY], k.UNITS * total),
            "high_win": Fraction(row[k.HIGH_WIN], total),
            "high_tie": Fraction(row[k.HIGH_TIE], total),
            "low_win": Fraction(row[k.LOW_WIN], total),
            "low_tie": Fraction(row[k.LOW_TIE], total),
            "scoop": Fraction(row[k.SCOOP], total),
            "quarter": Fraction(row[k.QUARTER], total),
            "three_quarter": Fraction(row[k.THREE_QUARTER], total),
            "low_possible": Fraction(row[k.LOW_POSSIBLE], total),
            "high_equity": Fraction(row[k.HIGH_EQUITY], k.HALF * total),
            "low_equity": Fraction(row[k.LOW_EQUITY], k.HALF * total),
        }
        errors: dict[str, float] = {}
        if not exact:
            mean = float(rates["equity"])
            second = row[k.EQUITY_SQUARES] / (k.UNITS * k.UNITS * total)
            errors["equity"] = math.sqrt(max(second - mean * mean, 0.0) / total)
            for field in FIELDS[1:]:
                if field not in ("high_equity", "low_equity"):
                    rate = float(rates[field])
                    errors[field] = math.sqrt(rate * (1 - rate) / total)
        players.append(PlayerEquity(name, len(options[p]), **rates, errors=errors))
    return players
