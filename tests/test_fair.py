"""splitpot-deal-v1 reproduces every field of FAIRNESS.md's test vector."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from splitpot.fair import (
    CARDS,
    Contribution,
    FairnessError,
    PreOrder,
    card_commitment,
    dealing_positions,
    fairness_record,
    player_commitment,
    server_commitment,
    shuffle,
)

VECTOR = Path(__file__).resolve().parents[2] / "shared" / "fairness-vector.json"


@pytest.fixture(scope="module")
def vector() -> dict[str, Any]:
    if not VECTOR.exists():
        pytest.skip(f"the test vector is not at {VECTOR} (../shared beside the project)")
    loaded: dict[str, Any] = json.loads(VECTOR.read_text())
    return loaded


def test_every_field_of_the_test_vector(vector: dict[str, Any]) -> None:
    pre_order = PreOrder(
        tuple(vector["pre_order"]), tuple(bytes.fromhex(s) for s in vector["salts"])
    )
    seed = bytes.fromhex(vector["server_seed"])
    entropy = {p["seat"]: bytes.fromhex(p["entropy"]) for p in vector["players"]}
    deal = shuffle(vector["table_id"], vector["hand_id"], pre_order, seed, entropy)
    assert [c.hex() for c in deal.commitments] == vector["commitments"]
    assert deal.deck_commitment.hex() == vector["deck_commitment"]
    assert server_commitment(seed).hex() == vector["server_commitment"]
    for player in vector["players"]:
        assert player_commitment(bytes.fromhex(player["entropy"])).hex() == player["commitment"]
    assert deal.key.hex() == vector["key"]
    assert list(deal.permutation) == vector["permutation"]
    assert deal.deck == vector["deck"]
    assert " ".join(deal.deck[:8]) == "2s Kc Td 6s 7c 8c 2h 3s"  # FAIRNESS.md says so


def test_a_drawn_pre_order_is_a_deck_and_every_deal_differs() -> None:
    first, second = PreOrder.draw(), PreOrder.draw()
    assert sorted(first.cards) == sorted(CARDS)
    assert first.cards != second.cards and first.salts != second.salts
    seed = bytes(32)
    assert shuffle("t", "h-1", first, seed, {}).deck != shuffle("t", "h-2", first, seed, {}).deck


def test_dealing_order_one_card_a_round_then_burn_and_board() -> None:
    holes, board = dealing_positions(3, 4)
    assert holes == [[0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11]]
    assert board == [13, 14, 15, 17, 19]  # 12 burnt, 16 and 18 burnt


@pytest.mark.parametrize(
    ("make", "message"),
    [
        (lambda: card_commitment(bytes(16), "1s"), "'1s' is not a card"),
        (lambda: PreOrder(CARDS[:51] + CARDS[:1], (bytes(16),) * 52), "each of the 52 cards"),
        (lambda: PreOrder(CARDS, (bytes(15),) * 52), "52 salts of 16 bytes"),
        (lambda: shuffle("t", "h", PreOrder(CARDS, (bytes(16),) * 52), bytes(31), {}), "31"),
        (
            lambda: shuffle("t", "h", PreOrder(CARDS, (bytes(16),) * 52), bytes(32), {2: b"x"}),
            "seat 2's entropy is 1 bytes",
        ),
    ],
)
def test_values_that_do_not_fit_are_refused_by_name(make: Any, message: str) -> None:
    with pytest.raises(FairnessError, match=message):
        make()


def test_the_record_reveals_only_the_positions_asked_with_their_salts(
    vector: dict[str, Any],
) -> None:
    pre_order = PreOrder(
        tuple(vector["pre_order"]), tuple(bytes.fromhex(s) for s in vector["salts"])
    )
    seed = bytes.fromhex(vector["server_seed"])
    players = [
        Contribution(p["seat"], bytes.fromhex(p["commitment"]), bytes.fromhex(p["entropy"]))
        for p in vector["players"]
    ]
    entropy = {p.seat: p.entropy for p in players if p.entropy is not None}
    deal = shuffle(vector["table_id"], vector["hand_id"], pre_order, seed, entropy)
    record = fairness_record(deal, "t-7", "h-42", 4, [3, 1], players, [9, 10, 11, 10])
    assert record["deck_commitment"] == vector["deck_commitment"]
    assert record["server_commitment"] == vector["server_commitment"]
    assert record["players"] == [
        {"seat": p["seat"], "commitment": p["commitment"], "entropy": p["entropy"]}
        for p in vector["players"]
    ]
    revealed = record["revealed"]
    assert isinstance(revealed, list)
    assert [r["position"] for r in revealed] == [9, 10, 11]
    for entry in revealed:
        k = entry["position"]
        assert entry["card"] == vector["deck"][k]
        assert entry["salt"] == vector["salts"][vector["permutation"][k]]
