"""Hi/lo odds for two to ten players: exact enumeration or Monte Carlo, on one board or
on two (a double board, or a board run twice: RULES.md 7)."""

from __future__ import annotations

import math
import secrets
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import product

import numpy as np
import numpy.typing as npt

from splitpot.cards import (
    Card,
    CardError,
    DuplicateCardError,
    ensure_distinct,
    format_cards,
    parse_cards,
)
from splitpot.equity import _kernels as k
from splitpot.equity.deals import check_deal, players_text
from splitpot.equity.errors import EquityError, NoDealError
from splitpot.equity.ranges import Range, RangeError, is_exact_hand, parse_range, plain
from splitpot.evaluate import Variant
from splitpot.evaluate.kernels import tables

EXACT_LIMIT = 40_000_000  # player-boards an "auto" run enumerates rather than samples
DEFAULT_SAMPLES = 200_000
BATCH_PLAYER_HANDS = 1_000_000  # per kernel call: Ctrl-C is heard between calls
TRY_FACTOR = 10  # a sampling call tries at most this many deals per deal it is to make
MISS_RATIO = 1000  # sampling gives up when fewer than 1 in this many deals fit together
MISS_GRACE = 1000  # ... counted from this many deals on
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
    """The players' figures for the whole pot; with two boards, also each board's
    (``boards``: the first board's figures, then the second's; empty for one board)."""

    method: str  # "exact" or "monte-carlo"
    samples: int  # boards enumerated, or deals sampled
    players: tuple[PlayerEquity, ...]
    boards: tuple[tuple[PlayerEquity, ...], ...] = ()


@dataclass(frozen=True)
class ExactJob:
    """The size of an exact enumeration, told before it starts: ``deals`` of the players'
    hands (their ranges' combinations, those that share a card counted too), ``boards``
    for each, and ``seconds``, its time here (one deal timed, times the deals; None for a
    job of at most ``EXACT_LIMIT`` player-boards, quick and not timed)."""

    deals: int
    boards: int
    players: int
    seconds: float | None

    @property
    def total(self) -> int:
        """The boards to enumerate, over every deal."""
        return self.deals * self.boards


@dataclass(frozen=True)
class _Setup:
    """A calculation's hands, board and dead cards, read and checked."""

    variant: Variant
    names: list[str]
    options: list[npt.NDArray[np.int64]]  # each player's possible hands
    any_hand: npt.NDArray[np.bool_]  # the players who may hold any hand
    known: npt.NDArray[np.int64]  # the board's cards
    removed: set[int]  # the board's and the dead cards
    dead: npt.NDArray[np.int64]  # the dead cards' codes
    boards: int  # the board's completions for one deal

    @property
    def deals(self) -> int:
        return math.prod(len(o) for o in self.options)


def _player_hands(text: str, size: int) -> tuple[str, npt.NDArray[np.int64]]:
    """A player's possible hands: an exact hand, a range, or ``*``."""
    if is_exact_hand(text, size):
        cards = parse_cards(text)
        return "".join(map(str, cards)), np.array([sorted(c.code for c in cards)], dtype=np.int64)
    if len(plain(text).replace(" ", "")) == 2 * size and not any(ch in text for ch in "*$,:!"):
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
    *,
    boards: int = 1,
    second_board: str | None = None,
) -> EquityResult:
    """Each player's equity and hi/lo figures. ``hands`` are hand texts, range texts or
    ``"*"``; ``method`` is ``auto``, ``exact`` or ``monte-carlo``; ``progress`` is told
    (done, total) as the work goes on.

    ``boards``: 2 for two boards completed from the same remaining deck (RULES.md 7): a
    double board, whose second board so far is ``second_board``, or a board run twice,
    whose runs share ``board``'s cards (``second_board`` None: the same cards, or the
    second run's cards so far, the shared ones included). See ``_two_boards``."""
    if method not in ("auto", "exact", "monte-carlo"):
        raise ValueError(f"method is auto, exact or monte-carlo, not {method!r}")
    if samples is not None and samples <= 0:
        raise EquityError(f"samples must be a positive number of deals, not {samples}")
    if boards not in (1, 2):
        raise ValueError(f"equity is worked out on 1 or 2 boards, not {boards}")
    if boards == 2:
        second = board if second_board is None else second_board
        return _two_boards(hands, (board, second), dead, variant, method, samples, seed, progress)
    if second_board is not None:
        raise ValueError("a second board needs boards=2")
    job = _setup(hands, board, dead, variant)
    work = job.deals * job.boards * len(hands)
    if method == "exact" or (method == "auto" and work <= EXACT_LIMIT):
        return _exact(job.names, job.options, job.known, job.removed, job.variant, job.boards,
                      progress)  # fmt: skip
    return _monte_carlo(
        job.names, job.options, job.any_hand, job.known, job.dead, job.variant, samples, seed,
        progress,
    )  # fmt: skip


def _two_boards(
    hands: Sequence[str],
    boards: tuple[str, str],
    dead: str,
    variant: Variant | str,
    method: str,
    samples: int | None,
    seed: int | None,
    progress: Callable[[int, int], None] | None,
) -> EquityResult:
    """The figures on two boards whose missing cards come from the same remaining deck,
    without replacement (FAIRNESS.md, "More cards from the same deck").

    Each board's figures are exactly those of that board alone with the other board's own
    cards dead: whatever the other board's missing cards turn out to be, every completion
    of this board from the cards nobody has seen is as likely as any other. The pot is
    cut in two, one part to each board (RULES.md 7), so each figure of the whole pot is
    the mean of the boards' (``scoop`` too: the chance of scooping a board picked at
    random)."""
    first, second = (parse_cards(cards) for cards in boards)
    for cards in (first, second):
        if len(cards) not in (0, 3, 4, 5):
            raise CardError(f"a board has 0, 3, 4 or 5 cards, not {len(cards)}")
    size, dead_cards = Variant.parse(variant).hole_cards, parse_cards(dead)
    shown = set(first) | set(second)
    ensure_distinct([*shown, *dead_cards])
    needed = size * len(hands) + len(shown) + (5 - len(first)) + (5 - len(second))
    if needed > 52 - len(dead_cards):
        raise EquityError(
            f"{len(hands)} hands of {size} cards and two boards need {needed} cards; "
            f"{52 - len(dead_cards)} are in play"
        )
    results = []
    for number, (own, other) in enumerate(((first, second), (second, first))):
        told = None if progress is None else _progress_part(progress, number)
        results.append(
            calculate(
                hands,
                board=format_cards(own, ""),
                dead=format_cards((*dead_cards, *(c for c in other if c not in own)), ""),
                variant=variant,
                method=method,
                samples=samples,
                seed=None if seed is None else seed + number,
                progress=told,
            )
        )
    exact = all(result.method == "exact" for result in results)
    per_board = tuple(result.players for result in results)
    return EquityResult(
        "exact" if exact else "monte-carlo",
        sum(result.samples for result in results),
        tuple(_mean(pair) for pair in zip(*per_board, strict=True)),
        per_board,
    )


def _progress_part(progress: Callable[[int, int], None], part: int) -> Callable[[int, int], None]:
    """``progress`` told of the first or the second of two equal parts of the work."""
    return lambda done, total: progress(part * total + done, 2 * total)


def _mean(figures: Sequence[PlayerEquity]) -> PlayerEquity:
    """One player's figures for the whole pot cut between boards: each board's averaged
    (a Monte Carlo error, the mean of the boards': a bound whatever their correlation)."""
    count = len(figures)
    rates = {field: sum((getattr(f, field) for f in figures), Fraction(0)) / count
             for field in FIELDS}  # fmt: skip
    errors = {
        field: sum(f.errors[field] for f in figures) / count
        for field in figures[0].errors
        if all(field in f.errors for f in figures)
    }
    return PlayerEquity(figures[0].hand, figures[0].combinations, **rates, errors=errors)


def exact_job(
    hands: Sequence[str], board: str = "", dead: str = "", variant: Variant | str = "o8"
) -> ExactJob:
    """The size of ``calculate(..., method="exact")`` on these hands, and, unless it is
    quick, its time here: one deal's boards enumerated and timed, times the deals."""
    job = _setup(hands, board, dead, variant)
    players = len(hands)
    if job.deals * job.boards * players <= EXACT_LIMIT:
        return ExactJob(job.deals, job.boards, players, None)
    return ExactJob(job.deals, job.boards, players, job.deals * _seconds_per_deal(job))


def _seconds_per_deal(job: _Setup) -> float:
    """One deal's time here, which hangs on the counts of players and boards alone: a
    hand each of cards not in play, enumerated twice (the first run loads the compiled
    kernels), the quicker run."""
    free = np.array(sorted(set(range(52)) - job.removed), dtype=np.int64)
    size = job.variant.hole_cards
    deal = [free[p * size : (p + 1) * size] for p in range(len(job.options))]
    arguments = k.table_arguments(tables())
    times = []
    for _ in range(2):
        start = time.perf_counter()
        _deal_stats(deal, job.known, job.removed, LOW_MODES[job.variant], arguments)
        times.append(time.perf_counter() - start)
    return min(times)


def _setup(hands: Sequence[str], board: str, dead: str, variant: Variant | str) -> _Setup:
    """The hands, board and dead cards read and checked: every hand possible for each
    player, and the board's completions for one deal."""
    variant = Variant.parse(variant)
    size = variant.hole_cards
    if not 2 <= len(hands) <= 10:
        raise ValueError(f"equity needs 2 to 10 players, not {len(hands)}")
    board_cards = parse_cards(board)
    dead_cards = parse_cards(dead)
    if len(board_cards) not in (0, 3, 4, 5):
        raise CardError(f"a board has 0, 3, 4 or 5 cards, not {len(board_cards)}")
    ensure_distinct([*board_cards, *dead_cards])
    needed = size * len(hands) + 5
    if needed > 52 - len(dead_cards):
        raise EquityError(
            f"{len(hands)} hands of {size} cards and a board need {needed} cards; "
            f"{52 - len(dead_cards)} are in play"
        )
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
    free = 52 - len(removed)
    any_hand = np.array([len(o) == math.comb(free, size) for o in options], dtype=np.bool_)
    check_deal(names, options, any_hand)
    unseen = 52 - len(removed) - size * len(hands)
    boards = math.comb(unseen, 5 - len(board_cards))
    dead_codes = np.array(sorted(c.code for c in dead_cards), dtype=np.int64)
    return _Setup(variant, names, options, any_hand, known, removed, dead_codes, boards)


def _exact(
    names: list[str],
    options: list[npt.NDArray[np.int64]],
    known: npt.NDArray[np.int64],
    removed: set[int],
    variant: Variant,
    boards: int,
    progress: Callable[[int, int], None] | None,
) -> EquityResult:
    arguments = k.table_arguments(tables())
    players = len(names)
    stats = np.zeros((players, k.COLUMNS), dtype=np.int64)
    deals = 0
    every = math.prod(len(o) for o in options)
    for number, deal in enumerate(product(*options), start=1):
        if progress is not None and number % 64 == 0:
            progress(number, every)
        dealt = _deal_stats(deal, known, removed, LOW_MODES[variant], arguments)
        if dealt is not None:  # None: two range hands that share a card
            stats += dealt
            deals += 1
    if deals == 0:
        raise NoDealError(f"{players_text(names, range(players))} cannot be dealt together")
    total = deals * boards
    return EquityResult("exact", total, tuple(_figures(names, options, stats, total, exact=True)))


def _deal_stats(
    deal: Sequence[npt.NDArray[np.int64]],
    known: npt.NDArray[np.int64],
    removed: set[int],
    low_mode: int,
    arguments: tuple[npt.NDArray[np.int64], ...],
) -> npt.NDArray[np.int64] | None:
    """One deal's statistics over every board, or None when its hands share a card."""
    cards = [int(c) for hand in deal for c in hand]
    if len(set(cards)) != len(cards):
        return None
    holes = np.array(deal, dtype=np.int64)
    rest = np.array(sorted(set(range(52)) - removed - set(cards)), dtype=np.int64)
    completions = k.board_combinations(rest, 5 - len(known))
    stats: npt.NDArray[np.int64] = k.enumerate_boards(
        holes, known, completions, low_mode, arguments
    )
    return stats


def _monte_carlo(
    names: list[str],
    options: list[npt.NDArray[np.int64]],
    random_players: npt.NDArray[np.bool_],
    known: npt.NDArray[np.int64],
    dead: npt.NDArray[np.int64],
    variant: Variant,
    samples: int | None,
    seed: int | None,
    progress: Callable[[int, int], None] | None,
) -> EquityResult:
    count = DEFAULT_SAMPLES if samples is None else samples
    # A player who may hold any hand is dealt from the unseen cards directly.
    listed = [o[:1] if random_players[p] else o for p, o in enumerate(options)]
    choices = np.concatenate(listed)
    starts = np.cumsum([0, *(len(o) for o in listed)]).astype(np.int64)
    rng_seed = seed if seed is not None else secrets.randbits(31)
    arguments = k.table_arguments(tables())
    stats = np.zeros((len(names), k.COLUMNS), dtype=np.int64)
    batch = max(1, BATCH_PLAYER_HANDS // len(names))
    counts = np.zeros(2, dtype=np.int64)  # deals made, deals tried
    done = call = 0
    while done < count:  # calls of bounded length: Ctrl-C is heard, the progress bar moves
        stats += k.sample_deals(
            choices, starts, random_players, known, dead, min(batch, count - done),
            TRY_FACTOR, rng_seed + 1000 * call, LOW_MODES[variant], arguments, counts,
        )  # fmt: skip
        done, tried, call = int(counts[0]), int(counts[1]), call + 1
        if tried - done > MISS_RATIO * (done + MISS_GRACE):
            drawn = [p for p in range(len(names)) if not random_players[p]]
            raise NoDealError(
                f"{players_text(names, drawn)} fit together in {done:,} of {tried:,} "
                f"random deals, fewer than 1 in {MISS_RATIO:,}: too rare to sample"
            )
        if progress is not None:
            progress(done, count)
    return EquityResult(
        "monte-carlo", count, tuple(_figures(names, options, stats, count, exact=False))
    )


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
