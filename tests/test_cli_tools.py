"""The tool commands (equity, simulate, replay) on bad input and on Ctrl-C: each error exits
with status 2 and a message naming the bad part, Ctrl-C with 130 and one line."""

import json
import math
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from splitpot.cli import main
from splitpot.equity import calculate
from splitpot.history.files import HistoryFile


def _splitpot(*args: str) -> subprocess.CompletedProcess[str]:
    """The command in its own process; the timeout fails a run that never ends."""
    return subprocess.run(
        [sys.executable, "-m", "splitpot.cli", *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _exit_status(args: list[str]) -> int:
    """The exit status of ``main(args)``, whether it returns or argparse exits."""
    try:
        return main(args)
    except SystemExit as stop:
        assert isinstance(stop.code, int)
        return stop.code


@pytest.mark.parametrize(
    ("hands", "names"),
    [
        (["AsAd2d3d", "AhAcKd*", "AhAc**"], "players 2 and 3 (AhAcKd*, AhAc**)"),
        # Without player 1's As the two double-suited hands would fit (AcAd.., AhAs..).
        (["AsKs2d3d", "AAKK:$ds", "AAQQ:$ds"], "players 1, 2 and 3 (AsKs2d3d, AAKK:$ds, AAQQ:$ds)"),
    ],
)
def test_equity_names_the_hands_that_cannot_be_dealt_together(hands: list[str], names: str) -> None:
    run = _splitpot("equity", *hands)
    assert run.returncode == 2
    assert run.stderr == (
        f"splitpot equity: error: {names} cannot be dealt together: "
        "every deal of their hands has a card twice\n"
    )
    assert run.stdout == ""


def _cpu_seconds(pid: int) -> float:
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_ctrl_c_stops_a_long_equity_run() -> None:
    calculate(["*", "*"], method="monte-carlo", samples=1000, seed=1)  # compiled and cached
    run = subprocess.Popen(
        [sys.executable, "-m", "splitpot.cli", "equity", "*", "*", "*", "--samples", "10000000000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        # A shell's background job ignores SIGINT; Python then would not turn it into
        # KeyboardInterrupt, so the child gets the default back.
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        deadline = time.monotonic() + 60
        while _cpu_seconds(run.pid) < 2 and time.monotonic() < deadline:  # in the kernels
            time.sleep(0.05)
        assert run.poll() is None
        run.send_signal(signal.SIGINT)
        out, err = run.communicate(timeout=10)
    finally:
        run.kill()
    assert (run.returncode, out, err) == (130, "", "splitpot equity: interrupted\n")


@pytest.mark.parametrize(
    ("args", "stopped"),
    [
        (["equity", "AsKs2d3d", "*"], "splitpot.cli.calculate"),
        (["simulate", "--hands", "5"], "splitpot.cli.simulate"),
        (["replay", "some.txt"], "splitpot.cli.read_history"),
    ],
)
def test_ctrl_c_ends_a_command_with_130_and_one_line(
    args: list[str],
    stopped: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    def interrupted(*_: object, **__: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(stopped, interrupted)
    assert main(args) == 130
    assert capsys.readouterr().err == f"splitpot {args[0]}: interrupted\n"


@pytest.mark.parametrize("samples", ["0", "-5", "many"])
def test_samples_must_be_a_positive_number(
    samples: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert _exit_status(["equity", "AsKs2d3d", "QhQcJhTc", "--samples", samples]) == 2
    assert capsys.readouterr().err.endswith(
        "splitpot equity: error: argument --samples: "
        f"the number of samples is a whole number above 0, not '{samples}'\n"
    )


def test_equity_reads_cards_written_10h_and_with_suit_symbols(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """README: card text may be written 10h or A♦."""
    assert main(["equity", "10hA♠2d3d", "A♦K♦2s3s", "--board", "7c8c9d", "--json"]) == 0
    written = json.loads(capsys.readouterr().out)
    assert main(["equity", "ThAs2d3d", "AdKd2s3s", "--board", "7c8c9d", "--json"]) == 0
    assert written == json.loads(capsys.readouterr().out)
    assert [p["hand"] for p in written["players"]] == ["ThAs2d3d", "AdKd2s3s"]
    assert main(["equity", "A♦A♠**", "10h10c**", "--board", "7c8c9d", "--json"]) == 0
    ranges = json.loads(capsys.readouterr().out)["players"]
    assert [(p["hand"], p["combinations"]) for p in ranges] == [
        ("A♦A♠**", 1081),  # the other two cards: C(47, 2), the board out
        ("10h10c**", 1081),
    ]


def test_equity_needs_cards_enough_for_every_hand_and_the_board(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["equity", *["*"] * 10, "--variant", "bigo"]) == 2
    assert capsys.readouterr().err == (
        "splitpot equity: error: 10 hands of 5 cards and a board need 55 cards; 52 are in play\n"
    )


def test_simulate_bad_bots_and_hands_exit_2_with_the_bad_part_named(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["simulate", "--hands", "5", "--bots", ""]) == 2
    assert capsys.readouterr().err == (
        "splitpot simulate: error: --bots '' names no bot; give kinds like sensible,random\n"
    )
    assert main(["simulate", "--hands", "5", "--bots", " , "]) == 2
    capsys.readouterr()
    for hands in ("0", "-3"):
        assert _exit_status(["simulate", "--hands", hands]) == 2
        captured = capsys.readouterr()
        assert captured.out == ""
        assert captured.err.endswith(
            "splitpot simulate: error: argument --hands: "
            f"the number of hands is a whole number above 0, not '{hands}'\n"
        )


def test_simulate_history_out_is_checked_before_any_hand_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "no such folder" / "hands.txt"
    assert _exit_status(["simulate", "--hands", "5", "--history-out", str(missing)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(
        "splitpot simulate: error: argument --history-out: "
        f"there is no folder {missing.parent} to write {missing} in\n"
    )
    assert _exit_status(["simulate", "--hands", "5", "--history-out", str(tmp_path)]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith(
        f"splitpot simulate: error: argument --history-out: {tmp_path} is a folder, not a file\n"
    )
    assert _exit_status(["simulate", "--hands", "5", "--history-out", ""]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.endswith("error: argument --history-out: a file name is needed\n")


def test_simulate_refuses_a_pokerstars_history_of_o_hilo_noq_before_playing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """PokerStars text has no name for the game (docs/rules.md): refused before a hand is
    played, and no file is written."""

    def played(*_: object, **__: object) -> None:
        raise AssertionError("no hand may be played")

    monkeypatch.setattr("splitpot.cli.simulate", played)
    out = tmp_path / "hands.txt"
    args = ["simulate", "--hands", "3", "--seed", "1", "--variant", "o-hilo-noq"]
    assert main([*args, "--history-out", str(out)]) == 2
    assert capsys.readouterr().err == (
        f"splitpot simulate: error: --history-out {out}: PokerStars text has no name for the "
        "game o-hilo-noq (Omaha Hi/Lo without a qualifier): write its hands as splitpot JSON "
        "or PHH\n"
    )
    assert not out.exists()


def _ended_in_the_blinds(hand: str) -> bool:
    """A PokerStars hand whose small blind posted all its chips and in which no one acted."""
    stacks = dict(re.findall(r"^Seat \d+: (.+) \((\d+) in chips\)$", hand, re.M))
    posted = re.search(r"^(.+): posts small blind (\d+)$", hand, re.M)
    preflop = hand.partition("*** HOLE CARDS ***")[2].partition("*** FLOP ***")[0]
    acted = re.search(r": (folds|checks|calls|bets|raises)", preflop)
    return posted is not None and stacks.get(posted[1]) == posted[2] and acted is None


def test_simulate_heads_up_hands_that_end_in_the_blinds(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Heads-up, a small blind can be all in by posting and the hand over before anyone
    acts: the table settles it like any other (100 hands with seed 1 meet it, in hand 96)."""
    played = tmp_path / "played.txt"
    job = ["simulate", "--seats", "2", "--hands", "100", "--seed", "1"]
    assert main([*job, "--history-out", str(played)]) == 0
    out = capsys.readouterr().out
    assert "100 hands in " in out
    assert "chips before 600, after 600" in out
    assert any(_ended_in_the_blinds(hand) for hand in played.read_text().split("\n\n\n"))


def test_replay_of_an_empty_or_cut_off_file_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    empty = tmp_path / "empty.txt"
    empty.write_text("")
    assert main(["replay", "--check", str(empty)]) == 2
    captured = capsys.readouterr()
    assert "hands agree" not in captured.out
    assert captured.err.startswith(f"splitpot replay: {empty}: ")
    played = tmp_path / "played.txt"
    assert main(["simulate", "--hands", "2", "--seed", "1", "--history-out", str(played)]) == 0
    cut = tmp_path / "cut.txt"
    cut.write_text(played.read_text()[:300])  # inside the first hand
    capsys.readouterr()
    assert main(["replay", "--check", str(cut)]) == 2
    captured = capsys.readouterr()
    assert "hands agree" not in captured.out
    assert captured.err.startswith(f"splitpot replay: {cut}: ")


def test_replay_of_a_file_without_hands_exits_2(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(
        "splitpot.cli.read_history", lambda path: HistoryFile(str(path), "splitpot-json")
    )
    assert main(["replay", "--check", "hands.json"]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err == "splitpot replay: hands.json: no hand to replay\n"


def test_replay_of_games_splitpot_does_not_play_exits_2(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    played = tmp_path / "played.txt"
    assert main(["simulate", "--hands", "2", "--seed", "1", "--history-out", str(played)]) == 0
    holdem = tmp_path / "holdem.txt"
    holdem.write_text(played.read_text().replace("Omaha Hi/Lo Pot Limit", "Hold'em No Limit"))
    capsys.readouterr()
    assert main(["replay", "--check", str(holdem)]) == 2
    captured = capsys.readouterr()
    assert "Hand 1 (line 1) skipped: Hold'em No Limit is not a game splitpot plays" in captured.out
    assert captured.err == "splitpot replay: no hand of a game splitpot plays to replay\n"
    assert main(["replay", "--check", str(holdem), str(played)]) == 0  # skipped, not wrong
    assert capsys.readouterr().out.endswith("2 of 2 hands agree with their files\n")


@pytest.mark.parametrize("command", ["equity", "simulate", "replay"])
def test_help_works(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert _exit_status([command, "--help"]) == 0
    assert capsys.readouterr().out.startswith(f"usage: splitpot {command} ")


def test_exact_on_three_random_hands_says_its_size_and_time_and_is_refused() -> None:
    """Every board of every deal of three random hands would take ages: refused at once
    (in a process of its own, which would otherwise run for hours), with the size, the
    time and what else to do."""
    run = subprocess.run(
        [sys.executable, "-m", "splitpot.cli", "equity", "*", "*", "*", "--exact"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    deals, boards = math.comb(52, 4) ** 3, math.comb(40, 5)
    assert (run.returncode, run.stdout) == (2, "")
    assert re.fullmatch(
        rf"splitpot equity: error: --exact here is {re.escape(f'{deals * boards:.2e}')} boards "
        rf"\({re.escape(f'{deals:.2e}')} "
        r"deals of the hands, 658,008 boards each\), about [\d.e+]+ years here: Monte Carlo "
        r"takes seconds \(--samples 200000, a standard error near 0\.1%\), or add --force to "
        r"enumerate all the same\n",
        run.stderr,
    ), run.stderr


def test_a_long_exact_job_says_its_size_first_and_runs_only_with_force(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """36 deals of a range against a hand, preflop: timed, and (with the threshold at 0 s)
    refused; with --force it runs after one line on its size and time."""
    monkeypatch.setattr("splitpot.cli.EXACT_CONFIRM", 0.0)
    job = ["equity", "AsKs2d3d", "QQJJ", "--exact"]
    size = r"39,096,288 boards \(36 deals of the hands, 1,086,008 boards each\), about [^:;]+ here"
    assert main(job) == 2
    assert re.fullmatch(
        rf"splitpot equity: error: --exact here is {size}: .*\n", capsys.readouterr().err
    )
    assert main([*job, "--force"]) == 0
    out, err = capsys.readouterr()
    assert re.fullmatch(
        rf"splitpot equity: exact: {size}; Monte Carlo \(--samples N\) is quicker\n", err
    )
    assert out.endswith("exact: every one of 39,096,288 boards\n")
    assert main(["equity", "AsKs2d3d", "QhQd2c3c", "--exact"]) == 0  # quick: nothing to say
    assert capsys.readouterr().err == ""
    assert main(["equity", "AsKs2d3d", "QhQd2c3c", "--force"]) == 2
    assert capsys.readouterr().err == (
        "splitpot equity: error: --force goes with --exact: it runs an exact job estimated "
        "over a minute\n"
    )


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="needs Linux's /proc")
def test_ctrl_c_in_simulate_keeps_the_hands_played_in_its_history(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hands.txt"
    run = subprocess.Popen(
        [sys.executable, "-m", "splitpot.cli", "simulate", "--hands", "10000000",
         "--history-out", str(out)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 60
        while (not out.exists() or out.stat().st_size == 0) and time.monotonic() < deadline:
            time.sleep(0.05)  # some hands played and written
        assert run.poll() is None
        run.send_signal(signal.SIGINT)
        printed, err = run.communicate(timeout=20)
    finally:
        run.kill()
    where = re.escape(str(out))
    said = re.fullmatch(
        rf"splitpot simulate: interrupted; (\d+) hands played and written to {where}\n", err
    )
    assert (run.returncode, printed, bool(said)) == (130, "", True), err
    assert said is not None and int(said[1]) > 0
    assert main(["replay", "--check", str(out)]) == 0
    assert capsys.readouterr().out.endswith(
        f"{said[1]} of {said[1]} hands agree with their files\n"
    )
