"""The settle-up in the fewest payments (store/settle.py): cases whose minimum is known by
hand, a brute force over every split of small random tables, and payments that square
every net."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator, Mapping

import pytest
from hypothesis import given
from hypothesis import strategies as st

from splitpot.store import LedgerError, Payment
from splitpot.store.settle import MOST_EXACT, greedy, is_fewest, settle_up, zero_sum_groups


def squares(nets: Mapping[str, int], payments: list[Payment]) -> bool:
    """Every payment is positive, from one who owes to one who is owed, and together they
    bring every net to zero."""
    flows: defaultdict[str, int] = defaultdict(int)
    for payment in payments:
        assert payment.amount > 0 and nets[payment.payer] < 0 < nets[payment.payee], payment
        flows[payment.payer] -= payment.amount
        flows[payment.payee] += payment.amount
    return {name: net for name, net in nets.items() if net} == dict(flows)


def partitions(items: list[str]) -> Iterator[list[list[str]]]:
    """Every way to split ``items`` into non-empty groups (Bell many)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for split in partitions(rest):
        yield [[first], *split]
        for at in range(len(split)):
            yield [*split[:at], [first, *split[at]], *split[at + 1 :]]


def brute_minimum(nets: Mapping[str, int]) -> int:
    """The fewest payments by brute force: the players not square, less the most groups
    summing to zero that any split of them makes."""
    owed = [name for name, net in nets.items() if net]
    most = max(
        sum(1 for group in split if sum(nets[name] for name in group) == 0)
        for split in partitions(owed)
        if all(sum(nets[name] for name in group) == 0 for group in split)
    )
    return len(owed) - most


@pytest.mark.parametrize(
    ("nets", "fewest"),
    [
        ({"a": 3, "b": 3, "c": 4, "d": -6, "e": -4}, 3),  # the issue's case: greedy pays 4
        ({"a": 5, "b": -5, "c": 3, "d": -3, "e": 1, "f": -1}, 3),
        ({"a": 10, "b": 20, "c": -30}, 2),
        ({"a": 7, "b": -2, "c": -2, "d": -3}, 3),  # one group: n - 1
        ({"a": 6, "b": 4, "c": -5, "d": -5}, 3),  # no pair squares
        ({"a": 1, "b": 2, "c": 3, "d": -1, "e": -2, "f": -3}, 3),
        ({"a": 0, "b": 0}, 0),
        ({}, 0),
    ],
)
def test_known_minimum(nets: dict[str, int], fewest: int) -> None:
    payments = settle_up(nets)
    assert len(payments) == fewest == brute_minimum(nets)
    assert squares(nets, payments) and is_fewest(payments)


def test_greedy_alone_pays_more_on_the_issues_case() -> None:
    nets = {"a": 3, "b": 3, "c": 4, "d": -6, "e": -4}
    assert len(greedy(nets)) == 4
    assert settle_up(nets) == [Payment("d", "a", 3), Payment("d", "b", 3), Payment("e", "c", 4)]
    assert zero_sum_groups(nets) == [{"a": 3, "b": 3, "d": -6}, {"c": 4, "e": -4}]


@pytest.mark.parametrize("seed", range(40))
def test_brute_force_on_small_random_tables(seed: int) -> None:
    """Up to 8 players with small nets, so that groups summing to zero are common."""
    shuffler = random.Random(seed)
    players = shuffler.randint(2, 8)
    amounts = [shuffler.randint(-6, 6) for _ in range(players - 1)]
    nets = {f"p{i}": amount for i, amount in enumerate(amounts)} | {"house": -sum(amounts)}
    payments = settle_up(nets)
    assert squares(nets, payments)
    assert len(payments) == brute_minimum(nets) <= len(greedy(nets))


@given(st.lists(st.integers(-50, 50), min_size=1, max_size=9))
def test_never_more_than_greedy_and_always_square(amounts: list[int]) -> None:
    nets = {f"p{i}": amount for i, amount in enumerate(amounts)} | {"house": -sum(amounts)}
    payments = settle_up(nets)
    assert squares(nets, payments)
    assert len(payments) <= len(greedy(nets))
    assert len(payments) <= max(0, sum(1 for net in nets.values() if net) - 1)


def test_twenty_players_in_ten_pairs_pay_ten_times() -> None:
    """The largest table searched: 2**20 subsets; ten pairs that square each other."""
    nets = {f"w{i:02}": 100 + i for i in range(10)} | {f"l{i:02}": -100 - i for i in range(10)}
    payments = settle_up(nets)
    assert len(payments) == 10 and squares(nets, payments) and is_fewest(payments)
    assert len(greedy(nets | {"w00": 99, "w01": 102})) > 10  # greedy misses the pairs


def test_past_the_limit_the_answer_is_greedy_and_says_so() -> None:
    players = MOST_EXACT + 1
    amounts = [(-1) ** i * (i + 1) for i in range(players - 1)]
    nets = {f"p{i:02}": amount for i, amount in enumerate(amounts)} | {"last": -sum(amounts)}
    payments = settle_up(nets)
    assert payments == greedy(nets) and squares(nets, payments)
    assert not is_fewest(payments)


def test_unbalanced_nets_are_refused() -> None:
    with pytest.raises(LedgerError, match="net results must sum to zero to settle"):
        settle_up({"a": 5, "b": -4})
