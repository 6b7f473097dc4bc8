"""Files from outside given to ``splitpot replay`` and ``splitpot verify``: garbage, cut off,
of the wrong shape or huge. Each ends with a line naming the file and what is wrong and
exit status 2 (verify: 1 when a record reads but a check fails), never a traceback, in
bounded time and memory (files past ``MAX_FILE_BYTES`` are refused)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import os
import random
import subprocess
import sys
import tempfile
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from test_verify import dealt_record

from splitpot.cli import main
from splitpot.fair import GENESIS, chain_hash
from splitpot.history.files import read_history
from splitpot.history.phh import write_phh
from splitpot.history.replay import replay_record
from splitpot.history.splitpot_json import to_json
from splitpot.reading import MAX_FILE_BYTES

FEW = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
REPLAY = ["replay", "--check"]
VERIFY = ["verify"]
CHAIN = ["verify", "--chain"]
COMMANDS = [REPLAY, VERIFY, CHAIN]


def _run(args: Sequence[str]) -> tuple[int, str, str]:
    """``splitpot ARGS`` in this process: the exit status, stdout and stderr. An exception
    that escapes ``main`` fails the test with it."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


def _prefix(command: Sequence[str], path: Path | str) -> str:
    """How each command's error line starts: the command (replay) and the file."""
    return f"splitpot replay: {path}: " if command[0] == "replay" else f"{path}: cannot be read: "


def _refused(command: Sequence[str], path: Path | str) -> str:
    """Runs ``command`` on ``path``, which must be refused: status 2, one line on stderr
    naming the file, nothing on stdout. Returns the reason given."""
    code, out, err = _run([*command, str(path)])
    assert (code, out) == (2, ""), err
    assert err.startswith(_prefix(command, path)) and err.endswith("\n") and err.count("\n") == 1
    assert "Traceback" not in err
    return err[len(_prefix(command, path)) : -1]


def _splitpot(
    *args: str, module: str = "splitpot.cli", env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    """The command in its own process, bounded in time (``env``: its environment)."""
    return subprocess.run(
        [sys.executable, "-m", module, *args], capture_output=True, text=True, timeout=60, env=env
    )


# ------------------------------------------------------------------ the files


class Files:
    """Valid files made by the project's own writers, to cut and to spoil."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.stars = folder / "played.txt"  # PokerStars text, 6 hands
        assert (
            _run(["simulate", "--hands", "6", "--seed", "7", "--history-out", str(self.stars)])[0]
            == 0
        )
        history = read_history(self.stars)
        self.hands = history.hands
        self.documents = [to_json(r, replay_record(r).hand) for r in self.hands]
        self.json = folder / "hands.json"
        self.json.write_text(json.dumps(self.documents, indent=1))
        self.phh_text = write_phh(self.hands[0])
        records = [dealt_record(f"t9-{n}") for n in (1, 2)]
        previous = GENESIS
        for record in records:
            made = chain_hash(previous, record)
            record["chain"] = {"previous": previous.hex(), "hash": made.hex()}
            previous = made
        self.records = records
        self.table = folder / "table.json"
        self.table.write_text(json.dumps(records))

    def write(self, name: str, data: bytes | str) -> Path:
        path = self.folder / name
        path.write_bytes(data.encode() if isinstance(data, str) else data)
        return path


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    return Files(tmp_path_factory.mktemp("garbage"))


def test_the_valid_files_pass(files: Files) -> None:
    """The files the other tests spoil are good as made: what fails is the spoiling."""
    code, out, _ = _run([*REPLAY, str(files.stars), str(files.json)])
    assert code == 0 and out.endswith("12 of 12 hands agree with their files\n")
    assert _run([*CHAIN, str(files.table)])[0] == 0
    assert _run([*REPLAY, str(files.write("one.phh", files.phh_text))])[0] == 0


# ------------------------------------------------------- files that are no files


DEEP = "[" * 10_000 + "]" * 10_000  # deeper than Python's json and tomllib can recurse
GARBAGE: list[tuple[str, bytes, str, str]] = [
    # (name, content, the reason replay gives, the reason verify gives)
    ("empty", b"", "the file is empty", "the file is empty"),
    ("blank", b" \r\n\t\n", "the file is empty", "the file is empty"),
    (
        "numbers",
        b"[1, 2, 3]",
        "not a hand history splitpot reads (splitpot JSON, PHH or PokerStars text): "
        "it begins '[1, 2, 3]'",
        "the file holds no hand record (a JSON object or a list of them)",
    ),
    (
        "no-hands",
        b"[]",
        "no hand found in this splitpot-json file",
        "the file holds no hand record: its list of hands is empty",
    ),
    (
        "deep-list",
        DEEP.encode(),
        "not a hand history splitpot reads (splitpot JSON, PHH or PokerStars text): "
        f"it begins {'[' * 80!r}",
        "JSON nested too deep (from line 1)",
    ),
    (
        "deep-object",
        ('{"a":' * 10_000 + "1" + "}" * 10_000).encode(),
        "not JSON splitpot reads: nested too deep",
        "JSON nested too deep (from line 1)",
    ),
    (
        "deep-in-a-hand",
        b'[{"format": "splitpot-hand/1", "players": ' + DEEP.encode() + b"}]",
        "not JSON splitpot reads: nested too deep",
        "JSON nested too deep (from line 1)",
    ),
    (
        "digits",
        b'{"id": ' + b"7" * 5000 + b"}",
        "not JSON splitpot reads: Exceeds the limit (4300 digits) for integer string "
        "conversion: value has 5000 digits; use sys.set_int_max_str_digits() to increase "
        "the limit",
        "not a number splitpot reads (from line 1): Exceeds the limit (4300 digits) for "
        "integer string conversion: value has 5000 digits; use sys.set_int_max_str_digits() "
        "to increase the limit",
    ),
    (
        "invalid-utf-8",
        b'{"format": "splitpot-hand/1", "id": "\xff\xfe"',
        "the file is cut off at line 1: a JSON document is not complete",
        "not UTF-8 text: byte 0xff at offset 37",
    ),
    (
        "utf-16-cut",
        "PokerStars Hand #1: Omaha".encode("utf-16")[:-1],
        "no hand could be read: hand 1 (line 1): the hand is cut off before its summary",
        "not UTF-8 text: byte 0xff at offset 0",
    ),
    (
        "toml-deep",
        b'variant = "PO"\nactions = ' + DEEP.encode(),
        "not TOML splitpot reads: nested too deep",
        "not valid JSON at line 1, column 1: Expecting value",
    ),
]


@pytest.mark.parametrize(("name", "data", "replay_says", "verify_says"), GARBAGE)
def test_garbage_is_refused_naming_the_file_and_the_reason(
    files: Files, name: str, data: bytes, replay_says: str, verify_says: str
) -> None:
    path = files.write(name, data)
    assert _refused(REPLAY, path) == replay_says
    assert _refused(VERIFY, path) == verify_says
    assert _refused(CHAIN, path) == verify_says


def test_a_folder_a_missing_file_and_an_unreadable_one(files: Files) -> None:
    for command in COMMANDS:
        assert _refused(command, files.folder) == "Is a directory"
        assert _refused(command, files.folder / "missing.json") == "No such file or directory"


@pytest.mark.skipif(os.geteuid() == 0, reason="root reads a file whatever its permissions")
def test_a_file_without_read_permission(files: Files) -> None:
    path = files.write("secret.json", files.table.read_bytes())
    path.chmod(0)
    for command in COMMANDS:
        assert _refused(command, path) == "Permission denied"


def test_a_byte_order_mark_is_read_by_both_commands(files: Files) -> None:
    bom = b"\xef\xbb\xbf"
    table = files.write("bom-table.json", bom + files.table.read_bytes())
    code, out, _ = _run([*CHAIN, str(table)])
    assert code == 0 and out.count(": verified (") == 2
    hands = files.write("bom-hands.json", bom + files.json.read_bytes())
    stars = files.write("bom-played.txt", bom + files.stars.read_bytes())
    code, out, _ = _run([*REPLAY, str(hands), str(stars)])
    assert code == 0 and out.endswith("12 of 12 hands agree with their files\n")


@FEW
@given(data=st.binary(min_size=1, max_size=3000))
def test_random_bytes_are_refused_by_both_commands(files: Files, data: bytes) -> None:
    """Bytes from nowhere: at worst one line naming the file, never a traceback."""
    path = files.write("random.bin", data)
    code, out, err = _run([*REPLAY, str(path)])
    assert code == 2 and "Traceback" not in out + err
    assert err.startswith(_prefix(REPLAY, path))
    assert _refused(VERIFY, path)


# ------------------------------------------------------------- cut-off files


def _hand_texts(files: Files) -> list[str]:
    """The PokerStars file's hands, each with the blank lines after it."""
    text = files.stars.read_text()
    parts = text.split("\n\n\n")
    return [part + "\n\n\n" for part in parts[:-1]]


@FEW
@given(fraction=st.floats(min_value=0, max_value=1, exclude_max=True))
def test_a_pokerstars_file_cut_anywhere(files: Files, fraction: float) -> None:
    """The hands wholly before the cut are replayed and agree; the one cut is listed as
    unreadable, not replayed; a file with no whole hand is refused."""
    data = files.stars.read_bytes()
    at = int(len(data) * fraction)
    path = files.write("cut.txt", data[:at])
    code, out, err = _run([*REPLAY, "--json", str(path)])
    if code == 2:
        assert err.startswith(_prefix(REPLAY, path)) and json.loads(out)["hands"] == []
        assert data[:at].count(b"*** SUMMARY ***") <= 1  # no whole hand and a summary line
        return
    assert code == 0 and err == ""
    report = json.loads(out)
    whole, length = 0, 0
    for text in _hand_texts(files):
        length += len(text.encode())
        whole += length <= at
    replayed = [hand["id"] for hand in report["hands"]]
    assert replayed[:whole] == [record.id for record in files.hands[:whole]]
    assert all(hand["agrees"] for hand in report["hands"][:whole])
    listed = replayed + [problem["id"] for problem in report["unreadable"]]
    assert len(listed) == len(set(listed)) <= whole + 1  # at most the one cut


def test_a_pokerstars_hand_cut_mid_hand(files: Files) -> None:
    first, second = _hand_texts(files)[:2]
    lines = second.splitlines()
    path = files.write("growing.txt", first + "\n".join(lines[: len(lines) // 2]) + "\n")
    code, out, _ = _run([*REPLAY, str(path)])
    start = len(first.splitlines()) + 1
    assert code == 0
    assert f"Hand 2 (line {start}) unreadable: the hand is cut off before its summary\n" in out
    assert out.endswith("1 of 1 hands agree with their files\n")
    code, out, _ = _run([*REPLAY, "--json", str(path)])
    assert json.loads(out)["unreadable"] == [
        {
            "file": str(path),
            "id": "2",
            "line": start,
            "last_line": start + len(lines) // 2 - 1,
            "skipped": False,
            "reason": "the hand is cut off before its summary",
        }
    ]
    only = files.write("only.txt", "\n".join(lines[: len(lines) // 2]) + "\n")
    assert _refused(REPLAY, only) == (
        f"no hand could be read: hand 2 (lines 1 to {len(lines) // 2}): "
        "the hand is cut off before its summary"
    )


@FEW
@given(fraction=st.floats(min_value=0, max_value=1, exclude_max=True), lines=st.booleans())
@example(fraction=0.0001, lines=False)  # only the array's opening bracket is left
@example(fraction=0.1553, lines=True)  # just after the first hand's newline, as it stands
def test_json_cut_anywhere_is_refused(files: Files, fraction: float, lines: bool) -> None:
    """A splitpot JSON history (an array, or one hand a line) and a table's records, cut
    short: refused with the line where the document breaks."""
    documents = files.documents
    text = "".join(json.dumps(d) + "\n" for d in documents) if lines else files.json.read_text()
    data = text.encode()
    at = int(len(data.rstrip()) * fraction)
    path = files.write("cut.json", data[:at])
    if lines and at and b"\n" in (data[at : at + 1], data[at - 1 : at]):  # after a hand:
        code, out, err = _run([*REPLAY, str(path)])  # those play (with its newline or not)
        whole = data[:at].rstrip(b"\n").count(b"\n") + 1
        assert (code, err) == (0, "")
        assert out.endswith(f"{whole} of {whole} hands agree with their files\n")
    else:
        reason = _refused(REPLAY, path)
        assert reason.startswith(
            ("the file is cut off at line", "the file is empty", "not valid JSON at line")
        )
    records = json.dumps(files.records).encode()
    cut = files.write("cut-table.json", records[: int(len(records) * fraction)])
    for command in (VERIFY, CHAIN):
        reason = _refused(command, cut)
        assert reason == "the file is empty" or reason.startswith(
            "not valid JSON at line 1, column "
        )


def test_a_bad_line_of_a_table_export_is_named(files: Files) -> None:
    """The table page exports one record a line: the broken line is the one named."""
    good = [json.dumps(record) for record in files.records]
    path = files.write("export.jsonl", "\n".join([*good, good[0][:-40], good[1]]) + "\n")
    assert _refused(VERIFY, path).startswith("not valid JSON at line 3, column ")


# ------------------------------------------------------ wrong shapes, wrong types


PHH_CHANGES: list[tuple[str, str, str]] = [
    # (the PHH field, its new value, the reason the hand cannot be read)
    ("starting_stacks", '"lots"', "starting_stacks is 'lots', not a list"),
    (
        "starting_stacks",
        "[200, -1, 200, 200, 200, 200]",
        "a starting stack is -1, not from 0 to 1e+18",
    ),
    (
        "starting_stacks",
        "[200, 1e999, 200, 200, 200, 200]",
        "a starting stack is inf: splitpot reads whole chip amounts only",
    ),
    (
        "starting_stacks",
        "[200, 1" + "0" * 30 + ", 200, 200, 200, 200]",
        "a starting stack is 1" + "0" * 30 + ", not from 0 to 1e+18",
    ),
    (
        "starting_stacks",
        "[200, 1" + "0" * 17 + "1, 200, 200, 200, 200]",
        "a starting stack is 1" + "0" * 17 + "1, not from 0 to 1e+18",
    ),
    (
        "starting_stacks",
        "[200, " + "9" * 5000 + ", 200, 200, 200, 200]",
        "not TOML splitpot reads: Exceeds the limit (4300 digits)",
    ),
    ("actions", "5", "actions is 5, not a list"),
    ("actions", "[5]", "action 1 is 5, not a string"),
    ("actions", '["p1 cbr lots"]', "action 1 'p1 cbr lots': 'lots' is not an amount"),
    ("actions", '["p9 cc"]', "action 1 'p9 cc': 'p9' is not one of p1..p6"),
    (
        "actions",
        '["d dh p1 AsKs"]',
        "action 1 'd dh p1 AsKs': Omaha Hi/Lo, eight or better deals 4 cards",
    ),
    ("players", "[1, 2, 3, 4, 5, 6]", "a player's name is 1, not a string"),
    ("players", '["Ann"]', "players holds 1 values, not one for each of 6"),
    ("seats", '["one", 2, 3, 4, 5, 6]', "a seat is 'one', not a whole number"),
    ("finishing_stacks", "[1, 2]", "finishing_stacks holds 2 values, not one for each of 6"),
    ("variant", "[1]", "variant is [1], not a string"),
    ("min_bet", '"2"', "min_bet is '2': splitpot reads whole chip amounts only"),
    ("blinds_or_straddles", "[-1, 2, 0, 0, 0, 0]", "a blind is -1, not from 0 to 1e+18"),
]


@pytest.mark.parametrize(("field", "value", "reason"), PHH_CHANGES)
def test_a_phh_file_with_wrong_types(files: Files, field: str, value: str, reason: str) -> None:
    lines = [
        f"{field} = {value}" if line.startswith(f"{field} = ") else line
        for line in files.phh_text.splitlines()
    ]
    assert lines != files.phh_text.splitlines()
    said = _refused(REPLAY, files.write("hand.phh", "\n".join(lines) + "\n"))
    assert said.startswith(("no hand could be read: hand hand (line 1): ", "not TOML"))
    assert reason in said


def test_a_phhs_table_that_is_not_a_hand(files: Files) -> None:
    path = files.write("hands.phhs", f'"a b".c = 1\n[one]\n{files.phh_text}')
    code, out, _ = _run([*REPLAY, str(path)])
    assert code == 0
    assert "Hand a b (line 1) unreadable: the required field 'variant' is missing" in out


JSON_CHANGES: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (lambda d: d["players"][0].update(stack=-5), "player 1's stack is -5, not from 0 to 1e+18"),
    (
        lambda d: d["players"][0].update(stack=10**30),
        "player 1's stack is 1000000000000000000000000000000, not from 0 to 1e+18",
    ),
    (lambda d: d["players"][1].update(name=["Bob"]), "player 2's name is ['Bob'], not a string"),
    (lambda d: d["players"][1].update(seat="2"), "player 2's seat is '2', not a whole number"),
    (lambda d: d.update(players={"a": 1}), "players is {'a': 1}, not a list"),
    (lambda d: d.update(players=[1, 2]), "players 1 is 1, not an object"),
    (
        lambda d: d["actions"][0].update(player=7),
        "action 1's player is 7, not one of the players 0..5",
    ),
    (
        lambda d: d["actions"][0].update(player=True),
        "action 1's player is True, not a whole number",
    ),
    (lambda d: d["actions"][0].update(action=5), "action 1 is 5, not a string"),
    (lambda d: d["posts"][0].update(amount=1.5), "a post's amount is 1.5, not a whole number"),
    (lambda d: d.update(button=-1), "button is -1, not from 0 to 1e+18"),
    (lambda d: d.update(holes="AsKs"), "holes is 'AsKs', not a list"),
    (lambda d: d.update(board=52), "board: 52 is not a whole number of two-character cards"),
    (
        lambda d: d["result"].update(stacks=[1]),
        "result.stacks holds 1 values, not one for each of 6",
    ),
    (lambda d: d.update(result=[]), "result is [], not an object or null"),
    (lambda d: d.update(recorded_rake="1"), "recorded_rake is '1', not a whole number"),
    (lambda d: d.update(unit="lots"), "unit is 'lots', not the value of a chip like '0.01'"),
    (
        lambda d: d["game"].update(rake={"percent": "1e999999999"}),
        "game.rake.percent is '1e999999999', not a percentage like '5'",
    ),
    (lambda d: d["game"].update(small_blind=-1), "game.small_blind is -1, not from 0 to 1e+18"),
    (lambda d: d["game"].update(variant=None), "game.variant is None, not a string"),
    (lambda d: d.update(id=None), "id is None, not a string"),
    (
        lambda d: d.update(format="x" * 20_000_000),
        f"not a splitpot hand: format is '{'x' * 59}... (20000002 characters), "
        "not 'splitpot-hand/1'",
    ),
]


@pytest.mark.parametrize(("change", "reason"), JSON_CHANGES)
def test_a_splitpot_json_hand_with_wrong_types(
    files: Files, change: Callable[[dict[str, Any]], None], reason: str
) -> None:
    """Each field of the wrong type, or a number out of range, is named with its value
    (a long one cut short), and the hand is not replayed."""
    document = copy.deepcopy(files.documents[0])
    change(document)
    said = _refused(REPLAY, files.write("hand.json", json.dumps(document)))
    hand = document["id"] if isinstance(document["id"], str) else str(document["id"])
    assert said == f"no hand could be read: hand {hand} (line 1): {reason}"


def _json_values() -> st.SearchStrategy[Any]:
    """JSON values a hostile file may hold where a record wants something else."""
    leaves = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(min_value=-(10**30), max_value=10**30),
        st.sampled_from([0, 1, -1, 2**63, 10**19, 52, 255, 256]),
        st.floats(allow_nan=False),
        st.text(max_size=12),
        st.sampled_from(
            ["AsKs", "????????", "\ud800", "é名🂡", "fold", "raise 99999999999999999999"]
        ),
    )
    return st.recursive(
        leaves,
        lambda inner: (
            st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3)
        ),
        max_leaves=6,
    )


def _paths(value: Any, at: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Where in a JSON document a value may be replaced."""
    found = [at]
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, (*at, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, (*at, index))
    return found


def _spoiled(document: dict[str, Any], choose: st.DataObject) -> dict[str, Any]:
    """``document`` with one to three of its values replaced by another JSON value."""
    spoiled = copy.deepcopy(document)
    for _ in range(choose.draw(st.integers(1, 3))):
        at = choose.draw(st.sampled_from(_paths(spoiled)[1:]))
        parent = spoiled
        for key in at[:-1]:
            parent = parent[key]
        parent[at[-1]] = choose.draw(_json_values())
    return spoiled


@FEW
@given(choose=st.data())
def test_a_splitpot_json_hand_spoiled_anywhere(files: Files, choose: st.DataObject) -> None:
    """Any value of a hand replaced by any JSON value: replayed, differing (1), or refused
    with a reason naming the file; never a traceback."""
    document = _spoiled(files.documents[choose.draw(st.integers(0, 5))], choose)
    path = files.write("spoiled.json", json.dumps(document))
    code, out, err = _run([*REPLAY, str(path)])
    assert code in (0, 1, 2) and "Traceback" not in out + err
    if code == 2:
        assert err.startswith(_prefix(REPLAY, path))


@FEW
@given(choose=st.data())
def test_a_record_spoiled_anywhere_fails_a_check_or_is_refused(
    files: Files, choose: st.DataObject
) -> None:
    """verify on a record with any value replaced: a failed check (1) or, when nothing
    changed that matters, 0; never a traceback. Its chain fails at that hand at the latest."""
    records = [_spoiled(files.records[0], choose), files.records[1]]
    path = files.write("spoiled-table.json", json.dumps(records))
    code, out, err = _run([*CHAIN, str(path)])
    assert code in (0, 1) and err == "" and "Traceback" not in out
    if code == 1:
        assert "  FAIL " in out


RECORD_CHANGES: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (
        lambda r: r.update(button=10**9),
        "cannot be checked: the button is 1000000000, not a number from 0 to 2",
    ),
    (
        lambda r: r.update(
            players=[{"name": f"P{n}", "seat": n, "stack": 9} for n in range(1, 21)],
            holes=["????????"] * 20,
        ),
        "cannot be checked: 20 seats of 4 hole cards are more than a deck deals",
    ),
    (
        lambda r: r.update(holes=[r["holes"][0], r["holes"][1], r["holes"][2][:6]]),
        "cannot be checked: seat 7's hand holds 3 cards, where o8 deals 4",
    ),
    (
        lambda r: r["fairness"]["players"][0].update(seat=10**30),
        f"cannot be checked: a player's seat is {10**30}, not a number from 0 to 255",
    ),
    (
        lambda r: r["fairness"]["players"][0].update(seat=-1),
        "cannot be checked: a player's seat is -1, not a number from 0 to 255",
    ),
    (
        lambda r: r["fairness"]["players"][0].update(seat=float("inf")),
        "cannot be checked: a player's seat is inf, not a whole number",
    ),
    (lambda r: r["fairness"].update(table_id=9), "cannot be checked: table_id is 9, not a string"),
    (
        lambda r: r["fairness"]["revealed"][0].update(position=-1),
        "cannot be checked: a revealed position is -1, not a number from 0 to 51",
    ),
    (
        lambda r: r.update(board=["As"]),
        "cannot be checked: the board is ['As'], not a string of cards",
    ),
    (lambda r: r["fairness"].pop("scheme"), "cannot be checked: the field 'scheme' is missing"),
    (lambda r: r.update(holes=[]), "cannot be checked: the record has 3 players and 0 hands"),
]


@pytest.mark.parametrize(("change", "reason"), RECORD_CHANGES)
def test_a_record_with_wrong_types_fails_naming_the_field(
    files: Files, change: Callable[[dict[str, Any]], None], reason: str
) -> None:
    record = copy.deepcopy(files.records[0])
    change(record)
    path = files.write("record.json", json.dumps(record))
    code, out, err = _run([*VERIFY, str(path)])
    assert (code, err) == (1, "")
    assert out == f"hand t9-1: 1 check(s) FAILED (1 checks)\n  FAIL record: {reason}\n"


def test_a_record_that_cannot_be_hashed_breaks_the_chain_there(files: Files) -> None:
    """A lone surrogate is valid JSON but no UTF-8: the chain names the hand."""
    records = copy.deepcopy(files.records)
    records[1]["players"][0]["name"] = "\ud800"
    code, out, err = _run([*CHAIN, str(files.write("surrogate.json", json.dumps(records)))])
    assert (code, err) == (1, "")
    assert "  FAIL hand t9-2: cannot be hashed: 'utf-8' codec can't encode character" in out


# ------------------------------------------------------------------ huge files


def test_a_file_past_the_limit_is_refused_before_it_is_read(files: Files) -> None:
    """A sparse file one byte past the limit: refused at once by both commands."""
    path = files.folder / "huge.json"
    with path.open("wb") as sparse:
        sparse.truncate(MAX_FILE_BYTES + 1)
    said = "the file is larger than 64 MiB, the most splitpot reads; split it"
    for command in COMMANDS:
        assert _refused(command, path) == said


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="needs /dev/zero")
def test_a_file_that_never_ends_is_refused() -> None:
    """``/dev/zero`` has no end: both commands stop reading at the limit (a command that
    read on would never answer: the suite's time-out fails it)."""
    said = "the file is larger than 64 MiB, the most splitpot reads; split it"
    for command in (REPLAY, VERIFY):
        assert _refused(command, "/dev/zero") == said


def test_a_single_20_mb_string_is_refused_with_a_short_line(files: Files) -> None:
    path = files.write("string.json", b'"' + b"a" * 20_000_000 + b'"')
    for command in COMMANDS:
        assert len(_refused(command, path)) < 200


# Written where the measured process finds it first, as its sitecustomize: at its exit it
# writes the peak of its own memory (VmHWM: this program's pages only, since its exec).
_PEAK_AT_EXIT = """import atexit, os


def _peak() -> None:
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    with open(os.environ["SPLITPOT_TEST_PEAK"], "w") as out:
        out.write(peak)


atexit.register(_peak)
"""


def _measured(*args: str) -> tuple[subprocess.CompletedProcess[str], int]:
    """``_splitpot(ARGS)``, and the process's own peak memory in KiB. Not wait4's maxrss: a
    child started by vfork (as subprocess does) inherits there the peak of the test's own
    process, a pytest worker that may have grown past the bound itself."""
    with tempfile.TemporaryDirectory() as hook:
        Path(hook, "sitecustomize.py").write_text(_PEAK_AT_EXIT)
        peak = Path(hook, "peak")
        path = os.pathsep.join(filter(None, [hook, os.environ.get("PYTHONPATH")]))
        env = os.environ | {"PYTHONPATH": path, "SPLITPOT_TEST_PEAK": str(peak)}
        return _splitpot(*args, env=env), int(peak.read_text())


def test_50_mb_of_one_line_is_read_in_bounded_memory(files: Files) -> None:
    """Under the limit, a 50 MB file of one line repeated is read through once: refused
    in memory a few times its size, naming what it begins with."""
    path = files.write("lines.txt", b"hello there\n" * (50_000_000 // 12))
    for command, said in [
        (
            REPLAY,
            "not a hand history splitpot reads (splitpot JSON, PHH or PokerStars text): "
            "it begins 'hello there'",
        ),
        (VERIFY, "not valid JSON at line 1, column 1: Expecting value"),
    ]:
        run, peak = _measured(*command, str(path))
        assert run.returncode == 2 and run.stdout == ""
        assert run.stderr == _prefix(command, path) + said + "\n"
        assert peak < (170 + 4 * 50) * 1024  # KiB: importing splitpot takes 170 MiB


# ------------------------------------------------------------ names and numbers


def test_non_ascii_names_replay_and_verify(files: Files) -> None:
    """Names in any script, in every format and in the chain's hash."""
    text = files.stars.read_text()
    for seat, name in [(1, "Jörg"), (2, "李雷"), (3, "Zoë 🂡"), (4, "Ωμέγα")]:
        text = text.replace(f"Seat {seat} (", f"{name} (")
    stars = files.write("names.txt", text.encode())
    documents = copy.deepcopy(files.documents)
    documents[0]["players"][0]["name"] = "Ünïcödé ♠"
    hands = files.write("names.json", json.dumps(documents, ensure_ascii=False))
    code, out, _ = _run([*REPLAY, "--json", str(stars), str(hands)])
    replayed = json.loads(out)["hands"]
    assert code == 0 and [hand["agrees"] for hand in replayed] == [True] * 12
    assert {"Jörg (sensible)", "李雷 (random)", "Zoë 🂡 (sensible)", "Ωμέγα (random)"} <= set(
        replayed[0]["collected"]
    )
    assert "Ünïcödé ♠" in replayed[6]["collected"]
    records = copy.deepcopy(files.records)
    previous = GENESIS
    for record in records:
        record["players"][0]["name"] = "Zoë 李雷"
        made = chain_hash(previous, record)
        record["chain"] = {"previous": previous.hex(), "hash": made.hex()}
        previous = made
    path = files.write("names-table.json", json.dumps(records, ensure_ascii=False))
    assert _run([*CHAIN, str(path)])[0] == 0


def test_huge_and_negative_amounts_in_pokerstars_text(files: Files) -> None:
    first = _hand_texts(files)[0]
    huge = first.replace(
        "Seat 1: Seat 1 (sensible) (200 in chips)",
        "Seat 1: Seat 1 (sensible) (" + "9" * 5000 + " in chips)",
    )
    assert huge != first
    said = _refused(REPLAY, files.write("huge.txt", huge))
    assert said.startswith("no hand could be read: hand 1 (lines 1 to ")
    assert said.endswith("is more than splitpot counts") and len(said) < 300
    negative = first.replace("raises", "raises -3 to -5 and", 1) if "raises" in first else None
    if negative is not None:
        said = _refused(REPLAY, files.write("negative.txt", negative))
        assert said.startswith("no hand could be read: hand 1 (lines 1 to ")


# ------------------------------------------------------------ a real process


@pytest.mark.parametrize(
    ("args", "module", "status"),
    [
        (["replay", "--check"], "splitpot.cli", 2),
        (["verify", "--chain"], "splitpot.cli", 2),
        ([], "splitpot.verify", 2),
    ],
)
def test_no_traceback_reaches_a_real_process(
    files: Files, args: list[str], module: str, status: int
) -> None:
    """Nested JSON and random bytes in a process of their own: one line on stderr each, the
    exit status, and no traceback anywhere."""
    deep = files.write("deep.json", '{"a":' * 10_000 + "1" + "}" * 10_000)
    noise = files.write("noise.bin", random.Random(12).randbytes(4096))
    for path in (deep, noise):
        run = _splitpot(*args, str(path), module=module)
        assert run.returncode == status
        assert "Traceback" not in run.stderr + run.stdout
        first = (
            f"splitpot replay: {path}: "
            if module == "splitpot.cli" and args[0] == "replay"
            else f"{path}: cannot be read: "
        )
        assert run.stderr.startswith(first) and run.stderr.count("\n") == 1
