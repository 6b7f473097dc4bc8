"""The page's checks (src/splitpot/web/js/fair.js, run by node) reproduce the test vector
of ../shared/FAIRNESS.md, and give every hand record, fair or tampered, the same checks as
verify.py: the same names, verdicts and details, in the same order."""

from __future__ import annotations

import copy
import json
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from test_verify import dealt_record

from splitpot.verify import verify_hand

ROOT = Path(__file__).resolve().parent.parent
VECTOR = ROOT.parent / "shared" / "fairness-vector.json"
SCRIPT = ROOT / "tests" / "fair_js_check.mjs"
NODE = shutil.which("node")

pytestmark = [
    pytest.mark.skipif(NODE is None, reason="no node to run the page's JavaScript"),
    pytest.mark.skipif(not VECTOR.exists(), reason=f"no test vector at {VECTOR}"),
]


def flip(text: str, at: int = 0) -> str:
    """One hex digit of ``text`` changed."""
    return text[:at] + ("1" if text[at] == "0" else "0") + text[at + 1 :]


def run(records: list[dict[str, Any]] | None, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    args = [str(NODE), str(SCRIPT), str(VECTOR)]
    if records is not None:
        path = tmp_path / "records.json"
        path.write_text(json.dumps(records), encoding="utf-8")
        args.append(str(path))
    return subprocess.run(args, capture_output=True, text=True, timeout=15, check=False)


def test_the_page_reproduces_the_test_vector(tmp_path: Path) -> None:
    done = run(None, tmp_path)
    assert done.returncode == 0, done.stderr
    assert "reproduces the test vector" in done.stdout


Tamper = Callable[[dict[str, Any]], None]


def _set(path: str, value: Any) -> Tamper:
    def change(record: dict[str, Any]) -> None:
        *parents, last = path.split(".")
        target: Any = record
        for key in parents:
            target = target[int(key)] if isinstance(target, list) else target[key]
        if isinstance(target, list):
            target[int(last)] = value(target[int(last)])
        else:
            target[last] = value(target[last])

    return change


def _drop(key: str) -> Tamper:
    return lambda record: record["fairness"].pop(key)


# A position written as its digits is the same record, read the same way by both.
UNTAMPERED = {"fair", "a position as digits"}
TAMPERINGS: dict[str, Tamper] = {
    "fair": lambda record: None,
    "server seed": _set("fairness.server_seed", flip),
    "server commitment": _set("fairness.server_commitment", lambda v: flip(v, 63)),
    "scheme": _set("fairness.scheme", lambda v: "splitpot-deal-v0"),
    "entropy": _set("fairness.players.0.entropy", flip),
    "a salt": _set("fairness.revealed.0.salt", flip),
    "a card": _set("fairness.revealed.1.card", lambda v: "As" if v != "As" else "Ks"),
    "a commitment": _set("fairness.commitments.3", flip),
    "deck commitment": _set("fairness.deck_commitment", flip),
    "a position": _set("fairness.revealed.2.position", lambda v: v + 1),
    "no card": _set("fairness.revealed.0.card", lambda v: "Zz"),
    "off the deck": _set("fairness.revealed.0.position", lambda v: 52),
    "a position in words": _set("fairness.revealed.0.position", lambda v: "first"),
    "a position as digits": _set("fairness.revealed.0.position", str),
    "a card not text": _set("fairness.revealed.0.card", lambda v: 7),
    "a seat not a number": _set("fairness.players.0.seat", lambda v: None),
    "a seat dealt off the table": _set("fairness.seats_dealt.0", lambda v: 256),
    "a seat dealt with no player": _set("fairness.seats_dealt.0", lambda v: 9),
    "too many hole cards": _set("fairness.hole_cards", lambda v: 6),
    "hole cards not a number": _set("fairness.hole_cards", lambda v: True),
    "a hand id not text": _set("fairness.hand_id", lambda v: 12),
    "the board not text": _set("board", lambda v: ["As"]),
    "a hole not text": _set("holes.0", lambda v: None),
    "another hand": _set("fairness.hand_id", lambda v: v + "x"),
    "the board": _set("board", lambda v: v[2:4] + v[0:2] + v[4:]),
    "uppercase": _set("fairness.server_seed", str.upper),
    "short hole": _set("holes.1", lambda v: v[:6]),
    "Big O's five": _set("game.variant", lambda v: "bigo"),
    "a game splitpot does not deal": _set("game.variant", lambda v: "razz"),
    "no variant": _set("game.variant", lambda v: None),
    "missing": _drop("revealed"),
    "no fairness": lambda record: record.pop("fairness"),
}


@pytest.mark.parametrize("fold_first", [False, True])
def test_the_page_checks_a_record_as_verify_py_does(tmp_path: Path, fold_first: bool) -> None:
    records = []
    for tamper in TAMPERINGS.values():
        record = copy.deepcopy(dealt_record(fold_first=fold_first))
        tamper(record)
        records.append(record)
    done = run(records, tmp_path)
    assert done.returncode == 0, done.stderr
    page = json.loads(done.stdout)
    for name, record, checks in zip(TAMPERINGS, records, page, strict=True):
        python = [
            {"name": c.name, "passed": c.passed, "detail": c.detail} for c in verify_hand(record)
        ]
        assert checks == python, name
        assert all(c["passed"] for c in checks) == (name in UNTAMPERED), name
