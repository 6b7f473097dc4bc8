"""The fair deal of the home game's extra cards (FAIRNESS.md "More cards from the same
deck", RULES.md 7): a double board, a second run and a rabbit hunt come from the deck in
the order the rules deal them; the room reveals them with their salts (the boards in the
record, the rabbit with its event); ``splitpot verify`` and the page's checks (fair.js,
run by node) accept them, and reject a card at a place the deal did not put it."""

from __future__ import annotations

import copy
import json
import random
import shutil
import subprocess
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from engine_helpers import blind_posts

from splitpot import fair
from splitpot.cards import parse_cards
from splitpot.engine import Action, Hand, Phase
from splitpot.history.splitpot_json import to_json
from splitpot.history.table_log import hand_record
from splitpot.room.deal import rabbit_revealed
from splitpot.rules import GameConfig, NoLimit, Variant
from splitpot.server.hands import DEAL_SECRET, PLAYER_IDS, hand_document
from splitpot.store import HandStatus, StoredHand
from splitpot.verify import main, verify_hand, verify_rabbit

TABLE = "t4"
SEATS = [1, 3, 6]  # the table seats (from 1) of the three players
ENTROPY = {1: bytes(range(32)), 6: bytes(range(64, 96))}  # seat 3 revealed nothing
SEED = bytes(range(7, 39))
BUTTON = 0  # the first player, seat 1: seat 3 is dealt first
ROOT = Path(__file__).resolve().parent.parent
VECTOR = ROOT.parent / "shared" / "fairness-vector.json"
NODE = shutil.which("node")


class Dealt:
    """A hand of three dealt from a fair deck (FAIRNESS.md steps 1 to 6), and what the
    room keeps of its deal."""

    def __init__(self, config: GameConfig, hand_id: str, stacks: list[int], seed: int) -> None:
        self.hand_id = hand_id
        pre_order = fair.PreOrder.draw(random.Random(seed))
        self.deal = fair.shuffle(TABLE, hand_id, pre_order, SEED, ENTROPY)
        posts = blind_posts(3, BUTTON, 1, 2)
        self.hand = Hand(config, stacks, BUTTON, posts, parse_cards(" ".join(self.deal.deck)))
        dealt = fair.dealing_order(SEATS[BUTTON], SEATS)
        entropies = {1: ENTROPY[1], 3: bytes(32), 6: ENTROPY[6]}  # seat 3's never revealed
        self.secret = {
            "pre_order": list(pre_order.cards),
            "salts": [salt.hex() for salt in pre_order.salts],
            "server_seed": SEED.hex(),
            "hole_cards": config.variant.hole_cards,
            "seats_dealt": dealt,
            "players": [
                {
                    "seat": seat,
                    "commitment": fair.player_commitment(x).hex(),
                    "entropy": x.hex() if seat in ENTROPY else None,
                }
                for seat, x in entropies.items()
            ],
        }

    def act(self, *actions: str) -> Dealt:
        for action in actions:
            self.hand.apply(Action.parse(action))
        return self

    def to_the_end(self, runs: int = 1) -> Dealt:
        """Checked or called down, the board run ``runs`` times if the players are asked,
        every hand shown."""
        while not self.hand.is_over:
            if self.hand.phase is Phase.RUN_IT:
                self.hand.run_it(runs)
                continue
            legal = self.hand.legal_actions()
            self.hand.apply(
                Action.show() if legal.show else Action.check() if legal.check else Action.call()
            )
        return self

    def document(self) -> dict[str, Any]:
        """The hand's record as a watcher reads it from the room (``hand_document``)."""
        played = hand_record(self.hand, ["Ann", "Bob", "Cy"], [s - 1 for s in SEATS], self.hand_id)
        record = to_json(played, self.hand)
        record[PLAYER_IDS] = [11, 12, 13]
        record[DEAL_SECRET] = self.secret
        stored = StoredHand(
            self.hand_id,
            TABLE,
            1,
            1,
            HandStatus.FINISHED,
            datetime(2026, 12, 3, 5, 0),
            datetime(2026, 12, 3, 5, 1),
            record,
        )
        return hand_document(stored, None)

    def rabbit(self) -> dict[str, Any]:
        """The ``rabbit`` event a client is shown after the hand, with the room's reveal of
        its cards (the protocol's fields: ``seat``, ``streets``)."""
        hunted = self.hand.rabbit()
        return {
            "kind": "rabbit",
            "hand": None,
            "seat": 1,
            "streets": [
                {
                    "board_number": dealt.board + 1,
                    "street": dealt.street.label,
                    "cards": [str(card) for card in dealt.cards],
                }
                for dealt in hunted
            ],
            "fairness": rabbit_revealed(TABLE, self.hand_id, self.secret, hunted),
        }

    def at(self, positions: list[int]) -> list[str]:
        return [self.deal.deck[p] for p in positions]


O8 = Variant.O8
DOUBLE = GameConfig(O8, NoLimit(1, 2), boards=2)
TWICE = GameConfig(O8, NoLimit(1, 2), run_it_twice=True)
ONE = GameConfig(O8, NoLimit(1, 2))


def double_board() -> Dealt:
    return Dealt(DOUBLE, "t4-1", [100, 100, 100], 1).to_the_end()


RUNS_FROM = {0: (), 3: ("call", "call", "check"), 4: ("call", "call", "check") + ("check",) * 3}
"""What is played before the players go all in and run it twice from a board of 0, 3 or 4
cards."""


def run_twice(shared: int = 0) -> Dealt:
    """All in with ``shared`` cards on the board, the board run twice."""
    hand = Dealt(TWICE, "t4-2", [40, 40, 40], 2).act(*RUNS_FROM[shared])
    return hand.act("allin", "call", "call").to_the_end(runs=2)


def folded_on_the_flop(config: GameConfig, hand_id: str) -> Dealt:
    return Dealt(config, hand_id, [100, 100, 100], 3).act("call", "call", "check", "bet 4")


def folded(dealt: Dealt) -> Dealt:
    return dealt.act("fold", "fold")


def failed(checks: list[Any]) -> list[str]:
    return [f"{c.name}: {c.detail}" for c in checks if not c.passed]


# ------------------------------------------------------------------ where the cards come from


def test_a_double_board_deals_each_street_to_each_board_a_burn_before_each() -> None:
    dealt = double_board()
    hole = 3 * 4
    positions = fair.board_positions(3, 4, boards=2)
    # burn, flop 1, burn, flop 2, burn, turn 1, burn, turn 2, burn, river 1, burn, river 2
    assert positions == [
        [hole + 1, hole + 2, hole + 3, hole + 9, hole + 13],
        [hole + 5, hole + 6, hole + 7, hole + 11, hole + 15],
    ]
    assert [[str(c) for c in board] for board in dealt.hand.boards] == [
        dealt.at(positions[0]),
        dealt.at(positions[1]),
    ]


@pytest.mark.parametrize("shared", RUNS_FROM)
def test_a_second_run_follows_the_whole_first_with_a_burn_before_each_street(shared: int) -> None:
    dealt = run_twice(shared)
    first, second = ([str(c) for c in board] for board in dealt.hand.boards)
    assert fair.runs_share(first, second) == shared
    positions = fair.board_positions(3, 4, shared=shared)
    assert positions[0] == fair.dealing_positions(3, 4)[1]  # the first run, as one board
    own = positions[1][shared:]
    assert own[0] == 3 * 4 + 8 + 1  # after the first run's river, a burn
    assert [first, second] == [dealt.at(positions[0]), dealt.at(positions[1])]


@pytest.mark.parametrize("config", [ONE, DOUBLE], ids=["one board", "double board"])
def test_the_rabbit_is_the_rest_of_each_board_where_it_would_have_come(
    config: GameConfig,
) -> None:
    dealt = folded(folded_on_the_flop(config, "t4-3"))
    positions = fair.board_positions(3, 4, boards=config.boards)
    hunted = dealt.hand.rabbit()
    assert [d.board for d in hunted] == ([0] if config.boards == 1 else [0, 1]) * 2
    for board, places in enumerate(positions):
        rest = [str(c) for d in hunted if d.board == board for c in d.cards]
        assert rest == dealt.at(places[3:])
    revealed: Any = rabbit_revealed(TABLE, "t4-3", dealt.secret, hunted)
    wanted = sorted(p for places in positions for p in places[3:])
    assert [r["position"] for r in revealed["revealed"]] == wanted
    assert [r["card"] for r in revealed["revealed"]] == dealt.at(wanted)


def test_positions_refuse_a_second_run_that_shares_no_street() -> None:
    with pytest.raises(fair.FairnessError, match="shares 0, 3 or 4 cards of one board, not 2"):
        fair.board_positions(3, 4, shared=2)


# ------------------------------------------------------------------ the room reveals, verify checks


def test_the_room_reveals_both_boards_of_a_double_board_and_verify_accepts_them() -> None:
    dealt = double_board()
    document = dealt.document()
    assert document["boards"] == ["".join(dealt.at(p)) for p in fair.board_positions(3, 4, 2)]
    revealed = {r["position"]: r["card"] for r in document["fairness"]["revealed"]}
    for places in fair.board_positions(3, 4, 2):
        assert [revealed[p] for p in places] == dealt.at(places)
    checks = verify_hand(document)
    assert failed(checks) == []
    details = [c.detail for c in checks if c.name.startswith("dealt ")]
    second = dealt.at(fair.board_positions(3, 4, 2)[1])
    assert f"{second[3]} to board 2 from position {3 * 4 + 11}" in details
    assert sum(" to board 2 " in d for d in details) == 5
    assert sum(" to the board " in d for d in details) == 5


@pytest.mark.parametrize("shared", RUNS_FROM)
def test_the_room_reveals_the_second_run_and_verify_accepts_it(shared: int) -> None:
    dealt = run_twice(shared)
    document = dealt.document()
    assert document["runs"] == 2
    positions = fair.board_positions(3, 4, shared=shared)
    revealed = {r["position"]: r["card"] for r in document["fairness"]["revealed"]}
    assert {p for places in positions for p in places} <= set(revealed)
    checks = verify_hand(document)
    assert failed(checks) == []
    details = [c.detail for c in checks if c.name.startswith("dealt ")]
    assert sum(" to board 2 " in d for d in details) == 5 - shared  # the shared: the board's


def _swap(text: str, a: int, b: int) -> str:
    cards = [text[i : i + 2] for i in range(0, len(text), 2)]
    cards[a], cards[b] = cards[b], cards[a]
    return "".join(cards)


def _second_board(change: Callable[[str], str]) -> Callable[[dict[str, Any]], None]:
    def tamper(record: dict[str, Any]) -> None:
        record["boards"][1] = change(record["boards"][1])

    return tamper


def _across_boards(record: dict[str, Any]) -> None:
    """The first board's turn and the second board's swapped (each in the other's place)."""
    first, second = record["boards"]
    first, second = first[:6] + second[6:8] + first[8:], second[:6] + first[6:8] + second[8:]
    record["board"] = first
    record["boards"] = [first, second]


def _reveal_moved(record: dict[str, Any]) -> None:
    """The second board's river revealed at the first board's river's place."""
    last = max(record["fairness"]["revealed"], key=lambda r: r["position"])
    last["position"] -= 2


TAMPERED: dict[str, Callable[[dict[str, Any]], None]] = {
    "the second board's turn and river swapped": _second_board(lambda b: _swap(b, 3, 4)),
    "the turns of the two boards swapped": _across_boards,
    "a revealed card moved": _reveal_moved,
    "the second board called a second run": lambda record: record.update(runs=2),
}


@pytest.mark.parametrize("tamper", TAMPERED.values(), ids=TAMPERED)
def test_a_card_at_a_wrong_place_of_a_double_board_fails(
    tamper: Callable[[dict[str, Any]], None],
) -> None:
    document = double_board().document()
    tamper(document)
    problems = failed(verify_hand(document))
    assert problems, "the tampered record verified"
    assert any(p.startswith(("dealt ", "card ", "position ", "record")) for p in problems)


def test_a_second_run_dealt_as_if_it_were_a_second_board_fails() -> None:
    document = run_twice().document()
    document["game"]["boards"] = 2
    document.pop("runs")
    assert any(p.startswith("dealt ") for p in failed(verify_hand(document)))


def test_a_second_run_with_its_cards_in_the_order_of_the_first_fails() -> None:
    document = run_twice().document()
    document["boards"][1] = _swap(document["boards"][1], 0, 3)
    assert any(p.startswith("dealt ") for p in failed(verify_hand(document)))


def test_a_second_board_that_is_neither_kind_cannot_be_checked() -> None:
    document = double_board().document()
    document["game"].pop("boards")
    assert failed(verify_hand(document)) == [
        "record: cannot be checked: the record's second board is neither a double "
        "board's nor a second run's"
    ]


def test_two_boards_count_in_the_cards_a_deck_must_hold() -> None:
    """Nine seats of four on two boards use the whole deck (most_players); ten cannot."""
    document = double_board().document()
    document["players"] = [{"name": f"P{s}", "seat": s, "stack": 100} for s in range(1, 11)]
    document["holes"] = ["??" * 4] * 10
    document["board"] = ""
    document.pop("boards")
    assert failed(verify_hand(document)) == [
        "record: cannot be checked: 10 seats of 4 hole cards on two boards are more than a "
        "deck deals"
    ]


# ------------------------------------------------------------------ the rabbit


@pytest.mark.parametrize("config", [ONE, DOUBLE], ids=["one board", "double board"])
def test_the_rabbits_reveal_verifies_against_the_hands_record(config: GameConfig) -> None:
    dealt = folded(folded_on_the_flop(config, "t4-5"))
    document, rabbit = dealt.document(), dealt.rabbit()
    assert failed(verify_hand(document)) == []
    checks = verify_rabbit(document, rabbit)
    assert failed(checks) == []
    names = [c.name for c in checks]
    wanted = (
        ["the rabbit"] if config.boards == 1 else ["the rabbit of board 1", "the rabbit of board 2"]
    )
    assert [n for n in names if n.startswith("the rabbit")] == wanted
    assert sum(n.startswith("dealt ") for n in names) == 2 * config.boards  # turn and river
    first_rest = fair.board_positions(3, 4, config.boards)[0][3:]
    where = "the rabbit" if config.boards == 1 else "the rabbit of board 1"
    turn = dealt.at(first_rest)[0]
    assert f"{turn} to {where} from position {first_rest[0]}" in [c.detail for c in checks]


def _rabbit_swapped(rabbit: dict[str, Any]) -> None:
    streets = rabbit["streets"]
    streets[0]["cards"], streets[-1]["cards"] = streets[-1]["cards"], streets[0]["cards"]


def _flop_revealed_as_the_rabbit(rabbit: dict[str, Any]) -> None:
    entry = rabbit["fairness"]["revealed"][0]
    entry["position"] = 3 * 4 + 1  # the flop's first card: dealt, not the rabbit
    entry["card"] = "2c"


RABBIT_TAMPERED: dict[str, Callable[[dict[str, Any]], None]] = {
    "the turn and the river swapped": _rabbit_swapped,
    "a card the flop dealt": _flop_revealed_as_the_rabbit,
    "one card short": lambda rabbit: rabbit["streets"].pop(),
    "another hand's": lambda rabbit: rabbit["fairness"].update(hand_id="t4-9"),
    "no reveal": lambda rabbit: rabbit.pop("fairness"),
}


@pytest.mark.parametrize("tamper", RABBIT_TAMPERED.values(), ids=RABBIT_TAMPERED)
def test_a_rabbit_not_where_the_deck_had_it_fails(tamper: Callable[[dict[str, Any]], None]) -> None:
    dealt = folded(folded_on_the_flop(DOUBLE, "t4-6"))
    document, rabbit = dealt.document(), dealt.rabbit()
    tamper(rabbit)
    assert failed(verify_rabbit(document, rabbit))


def test_the_command_checks_the_rabbits_a_client_kept_with_its_announcements(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    dealt = folded(folded_on_the_flop(ONE, "t4-7"))
    document, rabbit = dealt.document(), dealt.rabbit()
    started = {
        "kind": "hand_started",
        "hand": "t4-7",
        "button": SEATS[BUTTON],
        "seats": [{"seat": seat} for seat in SEATS],
        "fairness": {
            "scheme": fair.SCHEME,
            "deck_commitment": document["fairness"]["deck_commitment"],
            "server_commitment": document["fairness"]["server_commitment"],
            "players": [
                {"seat": p["seat"], "commitment": p["commitment"]}
                for p in document["fairness"]["players"]
            ],
        },
    }
    record = tmp_path / "hand.json"
    record.write_text(json.dumps(document), encoding="utf-8")
    events = tmp_path / "events.json"
    frames = [{"type": "event", "table": TABLE, "event": e} for e in (started, rabbit)]
    events.write_text(json.dumps(frames), encoding="utf-8")
    assert main(["--announced", str(events), str(record)]) == 0
    assert "verified" in capsys.readouterr().out
    _rabbit_swapped(rabbit)
    events.write_text(json.dumps([started, rabbit]), encoding="utf-8")
    assert main(["--announced", str(events), str(record)]) == 1
    out = capsys.readouterr().out
    assert "FAIL dealt" in out and "to the rabbit from position" in out


# ------------------------------------------------------------------ the page


@pytest.mark.skipif(NODE is None, reason="no node to run the page's JavaScript")
@pytest.mark.skipif(not VECTOR.exists(), reason=f"no test vector at {VECTOR}")
def test_the_page_checks_boards_runs_and_rabbits_as_verify_py_does(tmp_path: Path) -> None:
    """fair.js gives the same checks as verify.py, fair and tampered: a double board, two
    runs, a rabbit on one board and on two."""
    items: list[tuple[str, dict[str, Any]]] = []
    for name, tamper in {"fair": lambda record: None, **TAMPERED}.items():
        document = double_board().document()
        tamper(document)
        items.append((f"double board, {name}", document))
    for shared in RUNS_FROM:
        document = run_twice(shared).document()
        items.append((f"run twice from {shared}, fair", document))
        swapped = copy.deepcopy(document)
        swapped["boards"][1] = _swap(swapped["boards"][1], 3, 4)
        items.append((f"run twice from {shared}, swapped", swapped))
    neither = double_board().document()
    neither["game"].pop("boards")
    items.append(("neither kind", neither))
    for config in (ONE, DOUBLE):
        for name, tamper in {"fair": lambda rabbit: None, **RABBIT_TAMPERED}.items():
            dealt = folded(folded_on_the_flop(config, "t4-8"))
            rabbit = dealt.rabbit()
            tamper(rabbit)
            label = f"rabbit on {config.boards} board(s), {name}"
            items.append((label, {"record": dealt.document(), "rabbit": rabbit}))
    path = tmp_path / "records.json"
    path.write_text(json.dumps([item for _, item in items]), encoding="utf-8")
    script = ROOT / "tests" / "fair_js_check.mjs"
    done = subprocess.run(
        [str(NODE), str(script), str(VECTOR), str(path)],
        capture_output=True,
        text=True,
        timeout=30,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    for (name, item), checks in zip(items, page, strict=True):
        made = verify_rabbit(item["record"], item["rabbit"]) if "rabbit" in item else None
        python = made if made is not None else verify_hand(item)
        assert checks == [
            {"name": c.name, "passed": c.passed, "detail": c.detail} for c in python
        ], name
        assert all(c["passed"] for c in checks) == name.endswith("fair"), name
