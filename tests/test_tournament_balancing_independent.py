"""The balancing and breaking of tables (``tournament.balancing.plan``, RULES.md 8) against a
planner of this test's own, written from the rule and the spec's tie-breaks alone, over whole
multi-table tournaments played out abstractly: players bust in the hands, each table's next
big blind goes round by the dead-button rule, and tables come between hands at random
moments. Both planners get the same seeded draws; their plans must agree move for move, and
each plan is checked against the rule's invariants on its own."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache

import pytest

from splitpot.tournament.balancing import Move, MoveReason, Plan, TableState, plan

# A move as plain values: (player, from table, from seat, to table, to seat, "balance"/"break").
Step = tuple[int, int, int, int, int, str]


@dataclass
class Seating:
    """A table as both planners see it: the seats taken, whose big blind is next, and
    whether it is between hands."""

    number: int
    seats: int
    players: dict[int, int]
    next_big_blind: int | None
    between_hands: bool

    def describe(self) -> str:
        ring = " ".join(
            f"{seat}:{self.players[seat]}" if seat in self.players else f"{seat}:-"
            for seat in range(self.seats)
        )
        state = "between hands" if self.between_hands else "in a hand"
        return f"table {self.number} [{ring}] next big blind {self.next_big_blind}, {state}"


class Draws:
    """``random.Random(seed).randrange``, noting each range asked for (the order matters)."""

    def __init__(self, seed: int) -> None:
        self.randrange = random.Random(seed).randrange
        self.asked: list[int] = []

    def __call__(self, n: int) -> int:
        self.asked.append(n)
        return self.randrange(n)


def round_from(seats: int, start: int) -> Iterator[int]:
    """Every seat once, clockwise (ascending, wrapping) from ``start`` included."""
    return ((start + step) % seats for step in range(seats))


def first_occupied_from(table: Seating) -> int:
    """The seat of the player who posts the big blind next: the next big blind's seat, or the
    first player clockwise from it when it is empty (from seat 0 before the button is drawn)."""
    start = 0 if table.next_big_blind is None else table.next_big_blind
    return next(seat for seat in round_from(table.seats, start) if seat in table.players)


def first_empty_after(table: Seating, seat: int) -> int:
    return next(s for s in round_from(table.seats, seat + 1) if s not in table.players)


def next_occupied_after(players: dict[int, int], seats: int, seat: int) -> int:
    return next(s for s in round_from(seats, seat + 1) if s in players)


# --- the reference planner, from RULES.md 8 and the spec's tie-breaks ---------------------


def reference_plan(
    tables: Sequence[Seating], draw: Callable[[int], int]
) -> tuple[list[Step], list[int]]:
    """RULES.md 8: at most one break (the table with the fewest players, the highest number
    on a tie, when the players fit on the other tables and it is between hands; its players
    in seat order to seats drawn among the tables with the fewest), then balancing (the
    giver's next big blind to the first empty seat after the smallest table's)."""
    live = {
        t.number: Seating(t.number, t.seats, dict(t.players), t.next_big_blind, t.between_hands)
        for t in tables
        if t.players
    }
    steps: list[Step] = []
    broken: list[int] = []
    if live:
        doomed = min(live.values(), key=lambda t: (len(t.players), -t.number))
        others = [t for t in live.values() if t is not doomed]
        total = sum(len(t.players) for t in live.values())
        if doomed.between_hands and total <= sum(t.seats for t in others):
            for seat in sorted(doomed.players):
                fewest = min(len(t.players) for t in others)
                candidates = [
                    (t.number, s)
                    for t in sorted(others, key=lambda t: t.number)
                    if len(t.players) == fewest
                    for s in range(t.seats)
                    if s not in t.players
                ]
                to_table, to_seat = candidates[draw(len(candidates))]
                player = doomed.players.pop(seat)
                live[to_table].players[to_seat] = player
                steps.append((player, doomed.number, seat, to_table, to_seat, "break"))
            broken.append(doomed.number)
            del live[doomed.number]
    while True:
        smallest = min(live.values(), key=lambda t: (len(t.players), t.number))
        givers = [
            t
            for t in live.values()
            if t.between_hands and len(t.players) >= len(smallest.players) + 2
        ]
        if not givers:
            break
        giver = min(givers, key=lambda t: (-len(t.players), t.number))
        seat = first_occupied_from(giver)
        if smallest.next_big_blind is None:
            empty = [s for s in range(smallest.seats) if s not in smallest.players]
            to_seat = empty[draw(len(empty))]
        else:
            to_seat = first_empty_after(smallest, smallest.next_big_blind)
        player = giver.players.pop(seat)
        smallest.players[to_seat] = player
        giver.next_big_blind = next_occupied_after(giver.players, giver.seats, seat)
        steps.append((player, giver.number, seat, smallest.number, to_seat, "balance"))
    return steps, broken


# --- the invariants, checked on any plan --------------------------------------------------


def check_plan(before: Sequence[Seating], steps: Sequence[Step], broken: Sequence[int]) -> None:
    """What RULES.md 8 asks of any plan, move by move: who may move, from where, to where;
    nobody lost, added or seated twice; a break exactly when the players fit on one table
    fewer; afterwards no table between hands two above the smallest."""
    live = {t.number: t for t in before if t.players}
    seated = {n: dict(t.players) for n, t in live.items()}
    next_big_blind = {n: t.next_big_blind for n, t in live.items()}
    everyone = sorted(p for t in live.values() for p in t.players.values())
    seats = {t.seats for t in live.values()}
    assert len(seats) == 1  # the simulation deals every table the same size
    (size,) = seats
    needed = -(-len(everyone) // size)  # the fewest tables the players fit on
    fewest = min(len(t.players) for t in live.values())
    doomed = max(n for n, t in live.items() if len(t.players) == fewest)
    if needed < len(live) and live[doomed].between_hands:
        assert list(broken) == [doomed], "the table with the fewest players breaks"
    else:
        assert list(broken) == [], "no break unless they fit on one table fewer, between hands"
    moved: set[int] = set()
    balancing = False
    for player, from_table, from_seat, to_table, to_seat, reason in steps:
        assert player not in moved, f"player {player} moves twice"
        moved.add(player)
        assert seated[from_table].get(from_seat) == player, "the mover sat there"
        assert to_table in seated and to_table != from_table and to_table not in broken
        assert 0 <= to_seat < size and to_seat not in seated[to_table], "a seat taken twice"
        counts = {n: len(p) for n, p in seated.items() if p and n not in broken}
        if reason == "break":
            assert not balancing and from_table in broken
            assert from_seat == min(seated[from_table]), "the broken table's players in order"
            assert counts[to_table] == min(counts.values()), "to a table with the fewest"
        else:
            assert reason == "balance"
            balancing = True
            assert all(not seated[n] for n in broken), "the broken table is emptied first"
            assert live[from_table].between_hands, "only a table between hands gives"
            assert counts[from_table] >= counts[to_table] + 2
            assert counts[to_table] == min(counts.values()), "to the smallest table"
            giver = Seating(from_table, size, seated[from_table], next_big_blind[from_table], True)
            assert from_seat == first_occupied_from(giver), "the mover was the next big blind"
            receiver_blind = next_big_blind[to_table]
            if receiver_blind is not None:
                receiver = Seating(to_table, size, seated[to_table], receiver_blind, True)
                assert to_seat == first_empty_after(receiver, receiver_blind), (
                    "the seat that will be the big blind soonest"
                )
        del seated[from_table][from_seat]
        seated[to_table][to_seat] = player
        if reason == "balance":
            next_big_blind[from_table] = next_occupied_after(seated[from_table], size, from_seat)
    assert all(not seated[n] for n in broken), "every player of a broken table moves"
    after = sorted(p for players in seated.values() for p in players.values())
    assert after == everyone, "the players are the same, each seated once"
    counts = {n: len(p) for n, p in seated.items() if p}
    assert not any(
        live[n].between_hands and count >= min(counts.values()) + 2 for n, count in counts.items()
    ), "a table between hands is left two above the smallest"


def as_steps(actual: Plan) -> tuple[list[Step], list[int]]:
    steps = []
    for move in actual.moves:
        assert isinstance(move, Move) and isinstance(move.reason, MoveReason)
        steps.append(
            (
                move.player,
                move.from_table,
                move.from_seat,
                move.to_table,
                move.to_seat,
                move.reason.value,
            )
        )
    return steps, list(actual.broken)


def compare(before: Sequence[Seating], rng: random.Random, label: str) -> Plan:
    """``plan`` and the reference on the same tables (given in a shuffled order: the planner
    goes by table numbers) with the same seeded draws: the same moves, the same draws asked
    for, the tables given left as they were, and the rule's invariants."""
    seed = rng.getrandbits(32)
    ours = Draws(seed)
    expected = reference_plan(before, ours)
    check_plan(before, *expected)
    order = list(before)
    rng.shuffle(order)
    given = [
        TableState(
            number=s.number,
            seats=s.seats,
            players=dict(s.players),
            next_big_blind=s.next_big_blind,
            between_hands=s.between_hands,
        )
        for s in order
    ]
    theirs = Draws(seed)
    actual = plan(given, theirs)
    got = as_steps(actual)
    if got != expected or theirs.asked != ours.asked:
        situation = "\n".join(s.describe() for s in before)
        raise AssertionError(
            f"{label}, draw seed {seed}:\n{situation}\n"
            f"expected {expected} drawing {ours.asked}\n"
            f"got      {got} drawing {theirs.asked}"
        )
    assert [dict(t.players) for t in given] == [s.players for s in order], "input changed"
    check_plan(before, *got)
    return actual


def paths_of(
    before: Sequence[Seating], steps: list[Step], broken: list[int], size: int
) -> Counter[str]:
    """Which parts of the rule a plan went through (for balancing, the first move from or to
    each table only: later ones see the state the plan left)."""
    paths: Counter[str] = Counter()
    tables = {t.number: t for t in before}
    live = [t for t in before if t.players]
    fewest = min(len(t.players) for t in live)
    doomed = max(t.number for t in live if len(t.players) == fewest)
    pending = False
    if -(-sum(len(t.players) for t in live) // size) < len(live):
        paths["break" if broken else "break waits for the hand"] += 1
        pending = not broken
    seen: set[int] = set()
    for _, from_table, _, to_table, _, reason in steps:
        if reason == "break":
            continue
        paths["balance"] += 1
        if pending and to_table == doomed:
            paths["balance to a table due to break"] += 1
        if from_table not in seen:
            blind = tables[from_table].next_big_blind
            if blind is None:
                paths["giver's button not drawn"] += 1
            elif blind not in tables[from_table].players:
                paths["giver's next big blind on an empty seat"] += 1
        if to_table not in seen and tables[to_table].next_big_blind is None:
            paths["receiver's button not drawn"] += 1
        seen |= {from_table, to_table}
    return paths


# --- the tournaments ----------------------------------------------------------------------


@dataclass
class Felt:
    """A table of the simulation: its seating, this hand's big blind and who was dealt in."""

    seating: Seating
    big_blind: int | None = None
    dealt_in: set[int] = field(default_factory=set)


class Tournament:
    """A multi-table tournament played abstractly: the shell's side of the planner."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)
        self.seed = seed
        self.size = self.rng.choice((6, 9, 9, 10))
        entrants = self.rng.randint(30, 200)
        count = -(-entrants // self.size)
        self.felts = [Felt(Seating(n, self.size, {}, None, True)) for n in range(1, count + 1)]
        players = list(range(1000, 1000 + entrants))
        self.rng.shuffle(players)
        if self.rng.random() < 0.7:  # the usual draw: tables one apart at most
            for index, player in enumerate(players):
                self.sit(self.felts[index % count].seating, player)
        else:  # tables filled unevenly: to be balanced before the next hand
            for player in players:
                open_tables = [f for f in self.felts if len(f.seating.players) < self.size]
                self.sit(self.rng.choice(open_tables).seating, player)
            if self.rng.random() < 0.5:  # as if resumed mid-tournament: buttons known
                for felt in self.felts:
                    felt.seating.next_big_blind = self.rng.randrange(self.size)
        self.moments = 0
        self.plans = 0
        self.paths: Counter[str] = Counter()

    def sit(self, seating: Seating, player: int) -> None:
        empty = [s for s in range(seating.seats) if s not in seating.players]
        seating.players[self.rng.choice(empty)] = player

    def left(self) -> int:
        return sum(len(f.seating.players) for f in self.felts)

    def playing(self) -> list[Felt]:
        return [f for f in self.felts if f.seating.players]

    def start_hand(self, felt: Felt) -> None:
        seating = felt.seating
        if seating.next_big_blind is None:  # the button drawn by high card
            felt.big_blind = self.rng.choice(sorted(seating.players))
        else:
            felt.big_blind = first_occupied_from(seating)
        felt.dealt_in = set(seating.players.values())
        seating.between_hands = False

    def finish_hand(self, felt: Felt) -> None:
        """Someone wins the pot; some of the others dealt in may bust. The next big blind
        is the next player clockwise after this hand's (the dead-button rule)."""
        seating = felt.seating
        assert felt.big_blind is not None
        in_hand = [s for s, p in seating.players.items() if p in felt.dealt_in]
        roll = self.rng.random()
        busts = 0 if roll < 0.45 else 1 if roll < 0.8 else 2 if roll < 0.93 else len(in_hand)
        busts = min(busts, len(in_hand) - 1)
        due = next_occupied_after(seating.players, seating.seats, felt.big_blind)
        for seat in self.rng.sample(sorted(in_hand), busts):
            del seating.players[seat]
        # The shell passes the big blind on to the next player left, or may keep it on the
        # seat of the player due it who has just gone out, for the planner and the dealer
        # to pass over.
        if due in seating.players or self.rng.random() < 0.5:
            due = next_occupied_after(seating.players, seating.seats, felt.big_blind)
        seating.next_big_blind = due
        seating.between_hands = True
        felt.big_blind = None
        felt.dealt_in = set()

    def consult(self) -> Plan:
        """Ask both planners, compare, check, and carry the plan out."""
        before = [
            Seating(s.number, s.seats, dict(s.players), s.next_big_blind, s.between_hands)
            for s in (f.seating for f in self.felts)
        ]
        label = f"tournament seed {self.seed}, moment {self.moments}"
        actual = compare(before, self.rng, label)
        self.paths += paths_of(before, *as_steps(actual), self.size)
        self.apply(actual)
        self.plans += 1
        return actual

    def apply(self, actual: Plan) -> None:
        by_number = {f.seating.number: f.seating for f in self.felts}
        vacated: dict[int, int] = {}
        for move in actual.moves:
            assert by_number[move.from_table].players.pop(move.from_seat) == move.player
            by_number[move.to_table].players[move.to_seat] = move.player
            if move.reason is MoveReason.BALANCE:
                vacated[move.from_table] = move.from_seat
        for number, seat in vacated.items():
            giver = by_number[number]
            # The shell may pass the big blind on at once, or leave the table's next big
            # blind on the empty seat for the planner and the dealer to pass over.
            if self.rng.random() < 0.5:
                giver.next_big_blind = next_occupied_after(giver.players, giver.seats, seat)

    def settle(self) -> None:
        """All tables between hands: plan until nothing is left to do; then the players sit
        on as few tables as they fit on, no two tables two apart."""
        for _ in range(len(self.felts) + 1):
            if not self.consult().moves:
                break
        else:
            raise AssertionError("the plans never settle")
        counts = [len(f.seating.players) for f in self.playing()]
        assert len(counts) == -(-self.left() // self.size), "a table too many or too few"
        assert max(counts) - min(counts) <= 1, f"tables left unbalanced: {counts}"

    def play(self) -> None:
        """Until one player is left: tables finish and start hands at random; now and then
        every table waits for the others (a break, or hand for hand) and they settle."""
        self.consult()  # before the first hand
        waiting = False
        while self.left() > 1:
            self.moments += 1
            assert self.moments < 50_000, "the tournament does not end"
            playing = self.playing()
            if all(f.seating.between_hands for f in playing) and (
                waiting or self.rng.random() < 0.1
            ):
                self.settle()
                waiting = False
                playing = self.playing()
            elif not waiting and self.rng.random() < 0.02:
                waiting = True
            felt = self.rng.choice(playing)
            seating = felt.seating
            if not seating.between_hands:
                self.finish_hand(felt)
            elif self.rng.random() < 0.03 and self.left() > 2:
                # A player disqualified between hands (often the one due the big blind):
                # the next big blind is left on an empty seat.
                due = seating.next_big_blind
                if due not in seating.players or self.rng.random() < 0.3:
                    due = self.rng.choice(sorted(seating.players))
                del seating.players[due]
            elif len(seating.players) >= 2 and not waiting:
                self.start_hand(felt)
            self.consult()
        winners = [f.seating for f in self.playing()]
        assert len(winners) == 1 and len(winners[0].players) == 1


SEEDS = range(24)


@cache
def played(seed: int) -> Tournament:
    tournament = Tournament(seed)
    tournament.play()
    return tournament


@pytest.mark.parametrize("seed", SEEDS)
def test_whole_tournaments_balance_and_break_as_the_reference_does(seed: int) -> None:
    tournament = played(seed)
    assert tournament.paths["balance"] > 0 and tournament.plans > tournament.moments


def situation(rng: random.Random) -> list[Seating]:
    """Tables as a moment of some tournament might leave them: any counts, next big blinds
    on players, on empty seats or not drawn yet, some tables in a hand, some numbers gone."""
    size = rng.choice((6, 9, 10))
    numbers = sorted(rng.sample(range(1, 13), rng.randint(1, 7)))
    ids = iter(range(1, 200))
    tables = []
    for number in numbers:
        count = rng.choice((0, rng.randint(1, size), rng.randint(size // 2, size)))
        players = {seat: next(ids) for seat in sorted(rng.sample(range(size), count))}
        blind = None if rng.random() < 0.2 else rng.randrange(size)
        tables.append(Seating(number, size, players, blind, rng.random() < 0.75))
    if not any(t.players for t in tables):
        tables[0].players[0] = next(ids)
    return tables


@cache
def snapshots() -> Counter[str]:
    rng = random.Random(8)
    paths: Counter[str] = Counter()
    for index in range(3000):
        before = situation(rng)
        actual = compare(before, rng, f"situation {index}")
        paths += paths_of(before, *as_steps(actual), before[0].seats)
    return paths


def test_any_moment_of_a_tournament_is_planned_as_the_reference_does() -> None:
    assert snapshots()["break"] > 0


def test_the_comparisons_go_through_every_part_of_the_rule() -> None:
    """The tournaments and moments above break tables, draw seats, and balance tables whose
    button is still to be drawn or whose next big blind has left: the comparison covers it."""
    paths: Counter[str] = Counter()
    for seed in SEEDS:
        paths += played(seed).paths
    least = {"break": 3 * len(SEEDS), "break waits for the hand": 10, "balance": 100}
    assert all(paths[path] >= count for path, count in least.items()), paths
    paths += snapshots()
    for path in (
        "balance to a table due to break",
        "giver's button not drawn",
        "giver's next big blind on an empty seat",
        "receiver's button not drawn",
    ):
        assert paths[path] >= 20, paths


# --- moments worked out by hand from the rule ---------------------------------------------


class Scripted:
    """Draws given in advance, noting each range asked for."""

    def __init__(self, *picks: int) -> None:
        self.picks = list(picks)
        self.asked: list[int] = []

    def __call__(self, n: int) -> int:
        self.asked.append(n)
        pick = self.picks.pop(0)
        assert 0 <= pick < n
        return pick


def table(
    number: int, seats: int, players: dict[int, int], blind: int | None, between: bool = True
) -> TableState:
    return TableState(
        number=number, seats=seats, players=players, next_big_blind=blind, between_hands=between
    )


def run(first: int, *seats: int) -> dict[int, int]:
    """Players ``first``, ``first + 1``, ... in the seats given."""
    return {seat: first + index for index, seat in enumerate(seats)}


def test_the_next_big_blind_moves_to_the_seat_that_is_the_big_blind_soonest() -> None:
    """9 and 7 players: the player due the big blind at the bigger table (seat 4) goes to the
    first empty seat after the smaller table's next big blind (seat 2): seat 7."""
    for receiver_between in (True, False):
        draw = Scripted()
        tables = [
            table(1, 9, run(10, *range(9)), 4),
            table(2, 9, run(20, *range(7)), 2, receiver_between),
        ]
        assert as_steps(plan(tables, draw)) == ([(14, 1, 4, 2, 7, "balance")], [])
        assert draw.asked == []
    in_a_hand = [table(1, 9, run(10, *range(9)), 4, False), table(2, 9, run(20, *range(7)), 2)]
    assert as_steps(plan(in_a_hand, Scripted())) == ([], [])


def test_a_next_big_blind_on_an_empty_seat_passes_to_the_next_player() -> None:
    """The giver's next big blind is seat 8, empty: the player clockwise from it (seat 0)
    moves, to the first empty seat after the receiver's next big blind (3): seat 6."""
    tables = [table(1, 9, run(10, *range(8)), 8), table(2, 9, run(20, *range(6)), 3)]
    assert as_steps(plan(tables, Scripted())) == ([(10, 1, 0, 2, 6, "balance")], [])


def test_a_table_gives_players_in_big_blind_order() -> None:
    """9, 5 and 7 players: the 9 gives twice to the 5, first its next big blind (seat 8),
    then the next player round (seat 0); the receiver's seats fill from its big blind on."""
    tables = [
        table(1, 9, run(10, *range(9)), 8),
        table(2, 9, run(20, *range(5)), 1),
        table(3, 9, run(30, *range(7)), 0),
    ]
    moves = [(18, 1, 8, 2, 5, "balance"), (10, 1, 0, 2, 6, "balance")]
    assert as_steps(plan(tables, Scripted())) == (moves, [])


def test_ties_go_to_the_lowest_numbers_and_empty_tables_count_for_nothing() -> None:
    """8, 8, 6 and 6 players (28: no break on 9 seats): table 1 gives to table 3, then table
    2 to table 4. The empty table 5 neither receives nor breaks."""
    tables = [
        table(4, 9, run(40, *range(6)), 2),
        table(3, 9, run(30, *range(6)), 5),
        table(2, 9, run(20, *range(8)), 0),
        table(1, 9, run(10, *range(8)), 3),
        table(5, 9, {}, 4),
    ]
    moves = [(13, 1, 3, 3, 6, "balance"), (20, 2, 0, 4, 6, "balance")]
    assert as_steps(plan(tables, Scripted())) == (moves, [])


def test_before_the_button_is_drawn_the_first_seat_gives_and_the_seat_is_drawn() -> None:
    """Buttons not drawn: the giver's player from seat 0 on moves, to an empty seat drawn
    in seat order (seats 0 and 3: the second drawn)."""
    draw = Scripted(1)
    tables = [
        table(1, 6, run(10, *range(6)), None),
        table(2, 6, run(21, 1, 2, 4, 5), None),
        table(3, 6, run(30, *range(5)), 2, False),
    ]
    assert as_steps(plan(tables, draw)) == ([(10, 1, 0, 2, 3, "balance")], [])
    assert draw.asked == [2]


def test_a_table_breaks_into_drawn_seats_at_the_tables_with_fewest() -> None:
    """5, 4 and 3 players on 6 seats fit on two tables: the 3 break, each in seat order to a
    seat drawn among the tables with the fewest players then."""
    draw = Scripted(1, 0, 0)
    tables = [
        table(1, 6, run(10, *range(5)), 0),
        table(2, 6, run(20, *range(4)), 0),
        table(3, 6, {1: 31, 3: 33, 5: 35}, 1),
    ]
    moves = [(31, 3, 1, 2, 5, "break"), (33, 3, 3, 1, 5, "break"), (35, 3, 5, 2, 4, "break")]
    assert as_steps(plan(tables, draw)) == (moves, [3])
    assert draw.asked == [2, 2, 1]


def test_a_table_due_to_break_breaks_when_its_hand_is_over() -> None:
    """4, 4 and 3 players on 6 seats: the 3 is in a hand, nothing moves; between hands it
    breaks."""
    tables = [
        table(1, 6, run(10, *range(4)), 0),
        table(2, 6, run(20, *range(4)), 0),
        table(3, 6, {1: 31, 3: 33, 5: 35}, 1, False),
    ]
    assert as_steps(plan(tables, Scripted())) == ([], [])
    tables[2] = table(3, 6, {1: 31, 3: 33, 5: 35}, 1)
    draw = Scripted(3, 0, 0)
    moves = [(31, 3, 1, 2, 5, "break"), (33, 3, 3, 1, 4, "break"), (35, 3, 5, 1, 5, "break")]
    assert as_steps(plan(tables, draw)) == (moves, [3])
    assert draw.asked == [4, 2, 2]


def test_one_table_breaks_at_a_time_the_highest_numbered_of_the_fewest() -> None:
    """Four tables of 2 on 6 seats fit on two; table 4 breaks now, the next later."""
    draw = Scripted(0, 0)
    tables = [table(n, 6, run(10 * n, 0, 1), 0) for n in (1, 2, 3)]
    tables.append(table(4, 6, {2: 42, 3: 43}, 2))
    moves = [(42, 4, 2, 1, 2, "break"), (43, 4, 3, 2, 2, "break")]
    assert as_steps(plan(tables, draw)) == (moves, [4])
    assert draw.asked == [12, 8]


def test_the_last_two_tables_break_into_the_final_table() -> None:
    """3 and 3 on 6 seats: table 2 (the higher number) breaks into table 1."""
    draw = Scripted(2, 0, 0)
    tables = [table(1, 6, {0: 10, 2: 12, 4: 14}, 2), table(2, 6, {1: 21, 3: 23, 5: 25}, 3)]
    moves = [(21, 2, 1, 1, 5, "break"), (23, 2, 3, 1, 1, "break"), (25, 2, 5, 1, 3, "break")]
    assert as_steps(plan(tables, draw)) == (moves, [2])
    assert draw.asked == [3, 2, 1]
