"""``splitpot verify``: a hand dealt by splitpot-deal-v1 checks out from its record alone,
and changing any byte of what the record publishes makes a named check fail."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import blind_posts, play

from splitpot.cards import parse_cards
from splitpot.engine import Hand, deal_order
from splitpot.evaluate.variants import Variant as RulesVariant
from splitpot.fair import (
    GENESIS,
    HOLE_CARDS,
    Contribution,
    PreOrder,
    card_commitment,
    chain_hash,
    dealing_positions,
    deck_commitment,
    fairness_record,
    player_commitment,
    shuffle,
)
from splitpot.history.splitpot_json import to_json
from splitpot.history.table_log import hand_record
from splitpot.rules import GameConfig, PotLimit, Variant
from splitpot.verify import UNKNOWN, main, verify_audit, verify_chain, verify_hand

CONFIG = GameConfig(Variant.O8, PotLimit(1, 2))
SEATS = [2, 5, 7]  # table seats (from 1) of the three players, clockwise
ENTROPY = {2: bytes(range(32)), 7: bytes(range(32, 64))}  # seat 5 revealed nothing


def dealt_record(
    hand_id: str = "t9-1", fold_first: bool = False, config: GameConfig = CONFIG
) -> dict[str, Any]:
    """A three-player hand of ``config`` dealt from a fair deck and played to the showdown
    (the first to act folding, if asked), as a watcher's record: hands shown, the folded
    one hidden, with its fairness object revealing the board and the hands shown."""
    pre_order = PreOrder.draw()
    seed = bytes(range(100, 132))
    deal = shuffle("t9", hand_id, pre_order, seed, ENTROPY)
    button = 0
    hand = Hand(
        config,
        [100, 100, 100],
        button,
        blind_posts(3, button, 1, 2),
        parse_cards(" ".join(deal.deck)),
    )
    play(hand, "fold" if fold_first else "call", "call", "check")
    while hand.result is None:
        legal = hand.legal_actions()
        play(hand, "check" if legal.check else "show" if legal.show else "call")
    record = to_json(hand_record(hand, ["Ann", "Bob", "Cy"], [s - 1 for s in SEATS], hand_id), hand)
    order = deal_order(3, button)
    hole_cards = config.variant.hole_cards
    holes, board = dealing_positions(3, hole_cards)
    folded = {order[0]} if fold_first else set()
    hidden = UNKNOWN * hole_cards
    record["holes"] = [hidden if p in folded else record["holes"][p] for p in range(3)]
    revealed = [*board] + [k for i, p in enumerate(order) if p not in folded for k in holes[i]]
    players = [Contribution(seat, player_commitment(x), x) for seat, x in ENTROPY.items()]
    players.append(Contribution(5, player_commitment(bytes(32)), None))
    record["table"] = "t9"
    record["fairness"] = fairness_record(
        deal, "t9", hand_id, hole_cards, [SEATS[p] for p in order], players, revealed
    )
    return record


def failed(record: dict[str, Any]) -> list[str]:
    return [check.name for check in verify_hand(record) if not check.passed]


def test_a_fair_hand_verifies_every_card_it_shows() -> None:
    record = dealt_record()
    checks = verify_hand(record)
    assert [c.name for c in checks if not c.passed] == []
    names = [c.name for c in checks]
    assert {"scheme", "server seed", "deck commitment", "seat 2's entropy"} <= set(names)
    assert sum(name.startswith("card ") for name in names) == 5 + 12  # board and 3 hands
    assert sum(name.startswith("dealt ") for name in names) == 5 + 12


def test_a_folded_hand_stays_private_and_the_rest_verifies() -> None:
    record = dealt_record(fold_first=True)
    assert failed(record) == []
    assert len(record["fairness"]["revealed"]) == 5 + 8


@pytest.mark.parametrize(
    ("change", "fails"),
    [
        (lambda f: f.update(server_seed=_flip(f["server_seed"])), "server seed"),
        (lambda f: f["players"][0].update(entropy=_flip(f["players"][0]["entropy"])), "entropy"),
        (
            lambda f: f["players"][0].update(commitment=_flip(f["players"][0]["commitment"])),
            "entropy",
        ),
        (lambda f: f["commitments"].__setitem__(7, _flip(f["commitments"][7])), "deck commitment"),
        (lambda f: f.update(deck_commitment=_flip(f["deck_commitment"])), "deck commitment"),
        (lambda f: f["revealed"][0].update(salt=_flip(f["revealed"][0]["salt"])), "card "),
        (lambda f: f["revealed"][0].update(card=_other_card(f["revealed"][0]["card"])), "card "),
        (lambda f: f.update(hand_id="t9-2"), "card "),
        (lambda f: f.update(seats_dealt=f["seats_dealt"][::-1]), "seats dealt"),
        (lambda f: f.update(hole_cards=5), "hole cards"),
    ],
)
def test_changing_any_published_byte_fails_a_named_check(change: Any, fails: str) -> None:
    record = dealt_record()
    change(record["fairness"])
    assert any(name.startswith(fails) or fails in name for name in failed(record)), failed(record)


def test_a_card_of_the_board_changed_in_the_record_fails() -> None:
    record = dealt_record()
    board = record["board"]
    record["board"] = _other_card(board[:2]) + board[2:]
    assert any(name.startswith("dealt ") for name in failed(record))


def _flip(text: str) -> str:
    """The hex text with its last digit changed."""
    return text[:-1] + ("0" if text[-1] != "0" else "1")


def _other_card(card: str) -> str:
    return ("2" if card[0] != "2" else "3") + card[1]


def test_the_chain_names_the_first_record_that_does_not_follow() -> None:
    records = [dealt_record(f"t9-{n}") for n in (1, 2, 3)]
    previous = GENESIS
    for record in records:
        made = chain_hash(previous, record)
        record["chain"] = {"previous": previous.hex(), "hash": made.hex()}
        previous = made
    assert all(check.passed for check in verify_chain(records))
    rewritten = copy.deepcopy(records)
    rewritten[1]["players"][0]["stack"] += 1
    checks = verify_chain(rewritten)
    assert [c.passed for c in checks] == [True, False]
    assert checks[-1].name == "hand t9-2" and "contents" in checks[-1].detail
    skipped = [records[0], records[2]]
    assert "does not follow" in verify_chain(skipped)[-1].detail


def test_the_command_exits_0_1_or_2_with_a_report(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    record = dealt_record()
    good.write_text(json.dumps(record))
    record["fairness"]["server_seed"] = _flip(record["fairness"]["server_seed"])
    bad.write_text(json.dumps(record))
    assert main([str(good)]) == 0
    assert main([str(bad)]) == 1
    (tmp_path / "empty.json").write_text("")
    assert main([str(tmp_path / "empty.json")]) == 2
    run = subprocess.run(
        [sys.executable, "-m", "splitpot.verify", str(bad)], capture_output=True, text=True
    )
    assert run.returncode == 1
    assert "FAIL server seed" in run.stdout


def test_splitpot_verify_is_the_same_command_and_needs_only_the_standard_library(
    tmp_path: Path,
) -> None:
    path = tmp_path / "hands.json"
    path.write_text(json.dumps({"hands": [dealt_record("t9-1"), dealt_record("t9-2")]}))
    run = subprocess.run(
        [sys.executable, "-m", "splitpot.cli", "verify", str(path)], capture_output=True, text=True
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert run.stdout.count(": verified (") == 2
    lines = tmp_path / "hands.jsonl"  # one record a line, as the table page exports them
    lines.write_text("".join(json.dumps(dealt_record(f"t9-{n}")) + "\n" for n in (3, 4)))
    assert main([str(lines)]) == 0
    heavy = "('numpy', 'numba', 'sqlalchemy', 'fastapi')"
    alone = f"import sys, splitpot.verify; print([m for m in sys.modules if m.startswith({heavy})])"
    assert (
        subprocess.run([sys.executable, "-c", alone], capture_output=True, text=True).stdout
        == "[]\n"
    )


def audit_of(pre_order: PreOrder, hand: str = "t9-1") -> dict[str, Any]:
    """A session's audit of one hand: its 52 cards in pre-order and every salt."""
    deck = fair_deck_commitment(pre_order)
    cards, salts = list(pre_order.cards), [s.hex() for s in pre_order.salts]
    return {"hands": [{"hand": hand, "deck_commitment": deck, "cards": cards, "salts": salts}]}


def fair_deck_commitment(pre_order: PreOrder) -> str:
    return deck_commitment(pre_order.commitments()).hex()


def test_the_audit_opens_52_different_cards_and_catches_a_card_committed_twice(
    tmp_path: Path,
) -> None:
    pre_order = PreOrder.draw()
    audit = audit_of(pre_order)
    assert [c.passed for c in verify_audit(audit)] == [True]
    twice = copy.deepcopy(audit)  # a room that committed the Ace of spades twice
    hand = twice["hands"][0]
    hand["cards"][1] = hand["cards"][0]
    commitments = [
        card_commitment(bytes.fromhex(s), c)
        for s, c in zip(hand["salts"], hand["cards"], strict=True)
    ]
    hand["deck_commitment"] = deck_commitment(commitments).hex()
    checks = verify_audit(twice)
    assert not checks[0].passed and "more than once" in checks[0].detail
    lied = copy.deepcopy(audit)
    lied["hands"][0]["salts"][5] = "00" * 16  # a salt that opens nothing committed
    assert verify_audit(lied)[0].detail == "the opened commitments do not make its D"
    path = tmp_path / "audit.json"
    path.write_text(json.dumps(twice))
    assert main(["--audit", str(path)]) == 1
    path.write_text(json.dumps(audit))
    assert main(["--audit", str(path)]) == 0
    assert main([]) == 2  # nothing to check


def test_verify_takes_entropy_and_seat_together() -> None:
    record_file = Path(__file__)  # never read: the arguments are refused first
    assert main([str(record_file), "--entropy", "00" * 32]) == 2
    assert main([str(record_file), "--entropy", "xyz", "--seat", "1"]) == 2


# ------------------------------------------------------------------ derived from the rules


def test_the_verifiers_hole_cards_are_the_rules_of_every_variant() -> None:
    """fair.py keeps the rules' hole cards for the standard-library verifier: one truth."""
    assert {v.value: v.hole_cards for v in RulesVariant} == HOLE_CARDS


UNREAD = "FAIL record: cannot be checked: "


@pytest.mark.parametrize(
    ("dealt", "change", "said"),
    [
        (Variant.BIGO, {"variant": "o8"}, UNREAD + "seat 2's hand holds 5 cards, where o8 deals 4"),
        (
            Variant.O8,
            {"variant": "bigo"},
            UNREAD + "seat 2's hand holds 4 cards, where bigo deals 5",
        ),
        (Variant.O8, {"variant": "stud"}, "is 'stud', not one of o8, omaha, o-hilo-noq, bigo"),
        (Variant.O8, {"hole_cards": 5}, "FAIL hole cards: 4, each; the record says 5"),
        (Variant.BIGO, {"hole_cards": 4}, "FAIL hole cards: 5, each; the record says 4"),
    ],
)
def test_the_hole_cards_come_from_the_variant_not_from_the_record(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], dealt: Variant, change: Any, said: str
) -> None:
    """A hand recorded as another game than it was dealt, its hands and ``hole_cards``
    agreeing with each other, or a fairness object that miscounts: the rules of the
    recorded variant say how many hole cards were dealt, and both figures are named."""
    record = dealt_record(config=GameConfig(dealt, PotLimit(1, 2)))
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(record))
    assert main([str(path)]) == 0
    record["game" if "variant" in change else "fairness"].update(change)
    path.write_text(json.dumps(record))
    capsys.readouterr()
    assert main([str(path)]) == 1
    out = capsys.readouterr().out
    assert said in out, out


# ------------------------------------------------------------------ called off and dealt again


def announcement(record: dict[str, Any], commitments: bool = True) -> dict[str, Any]:
    """The ``hand_started`` a client received before ``record``'s deal: its button, seats
    and commitments (none listed, when the room asked for no reveal)."""
    fairness = record["fairness"]
    listed = [{"seat": p["seat"], "commitment": p["commitment"]} for p in fairness["players"]]
    return {
        "kind": "hand_started",
        "hand": record["id"],
        "button": SEATS[record["button"]],
        "seats": [{"seat": seat} for seat in SEATS],
        "variant": record["game"]["variant"],
        "fairness": {
            "scheme": fairness["scheme"],
            "deck_commitment": fairness["deck_commitment"],
            "server_commitment": fairness["server_commitment"],
            "players": listed if commitments else [],
        },
    }


CALLED_OFF = "FAIL hand t9-1: was called off after the players could reveal their entropy"
AGAIN = " and dealt again under new commitments: a room that cancels until it likes the cards"


@pytest.mark.parametrize(
    ("told", "code", "said"),
    [
        (["first", "cancelled", "dealt"], 1, CALLED_OFF + AGAIN),
        (["first", "dealt"], 1, CALLED_OFF + " (with no hand_cancelled)" + AGAIN),
        (["first", "cancelled"], 1, CALLED_OFF + ": a room that cancels"),
        (["cancelled", "dealt"], 1, "FAIL hand t9-1: called off, but its announcement is not in"),
        (["unlisted", "cancelled", "dealt"], 0, "ok   hand t9-1: called off before any player's"),
        (["dealt", "dealt"], 0, "hand t9-1: verified"),
    ],
)
def test_verify_names_a_hand_called_off_after_the_reveals_and_dealt_again(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], told: list[str], code: int, said: str
) -> None:
    """FAIRNESS.md: a hand cancelled after any reveal is reported, since a room could cancel
    until it likes the deal; the record of the hand dealt again verifies by itself."""
    record = dealt_record()
    events = {
        "first": {"type": "event", "table": "t9", "event": announcement(dealt_record())},
        "unlisted": announcement(dealt_record(), commitments=False),
        "cancelled": {"kind": "hand_cancelled", "hand": "t9-1", "text": "Hand #1 is called off"},
        "dealt": {"type": "event", "table": "t9", "event": announcement(record)},
    }
    received = [{"type": "welcome"}, *(events[name] for name in told), {"kind": "posted"}]
    started, kept = tmp_path / "start.json", tmp_path / "hand.json"
    started.write_text(json.dumps(received))  # all the client received, the rest skipped
    kept.write_text(json.dumps(record))
    capsys.readouterr()
    assert main([str(kept), "--announced", str(started)]) == code
    out = capsys.readouterr().out
    assert said in out, out
    if "dealt" in told:
        assert "hand t9-1: verified" in out, out
