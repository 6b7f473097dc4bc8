"""The terminal game (line mode and Textual), the bots and the simulator."""

import asyncio
import io
import json
import re
from pathlib import Path

import pytest

from splitpot.bots import RandomBot, SensibleBot, make_bot
from splitpot.cli import main
from splitpot.engine import Acted, ActionKind, Mucked
from splitpot.history.files import read_history
from splitpot.history.replay import replay_record
from splitpot.rules import PotLimit, Variant
from splitpot.session import GameSession, table_config
from splitpot.simulation import simulate
from splitpot.table import TableConfig


def _play(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], lines: str, *args: str
) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO(lines))
    assert (
        main(["play", "--plain", "--seed", "2", "--seats", "3", "--structure", "limit", *args]) == 0
    )
    return capsys.readouterr().out


def test_line_mode_prints_the_table_and_the_legal_actions(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, "call\n")
    assert out.startswith("*** Hand 1: Omaha Hi/Lo, Fixed Limit 2/4 ***\n")
    assert "Seat 1: Hero (button): 200" in out
    assert "Your cards: " in out
    assert "Your move: fold, call 2, raise 4" in out
    assert "Hero calls 2" in out
    # The end of input leaves at once: the hand is folded and its chips counted as lost.
    assert "You folded hand 1 to leave: the 2 chips you had put in are lost." in out
    assert out.rstrip().endswith("Hero: 198 chips, -2 on the buy-in of 200.")


def test_an_illegal_command_is_answered_with_the_reason_and_the_legal_ones(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, "check\nraise 6\nwiggle\nbet 4\nquit\nquit\n")
    assert "Not now: cannot check: 2 to call." in out
    assert "Not now: raise to 6 is above the fixed-limit amount of 4." in out
    assert "Not now: 'wiggle' is not an action" in out
    assert "Not now: cannot bet: there is a bet of 2; raise instead." in out  # never converted
    assert out.count("You may: fold, call 2, raise 4") == 4
    assert "Quitting now folds your hand (you have put no chips in). Quit again to leave." in out
    assert "Session over: 1 hand played." in out


def test_last_shows_the_last_hand_whole(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = _play(monkeypatch, capsys, "last\nfold\nlast\nquit\n")
    assert "No finished hand to show yet." in out
    assert "Hand 1: Omaha Hi/Lo, Fixed Limit 2/4 (button: seat 1)" in out
    assert "  Hero folds" in out


def test_the_last_hand_reveals_hands_mucked_at_the_showdown_never_folded_ones() -> None:
    """RULES.md 6: once a hand is over, every hand that reached the showdown may be seen,
    shown or mucked; a hand folded before the showdown never."""
    session = GameSession(table_config("o8", "pot-limit", None, 6), seed=11)
    reply = session.next_hand()
    folded_seen = mucked_seen = 0
    for _ in range(80):  # up to 80 hands, calling everything
        if reply.over:
            break
        while session.table.hand is not None:
            legal = session.legal()
            assert legal is not None
            reply = session.command("show" if legal.show else ("check" if legal.check else "call"))
        played = session.table.history[-1]
        text = "\n".join(session.last_hand())
        events = played.hand.events
        folded = {e.player for e in events if isinstance(e, Acted) and e.kind is ActionKind.FOLD}
        for player in {e.player for e in events if isinstance(e, Mucked)}:
            cards = " ".join(map(str, played.hand.holes[player]))
            assert f"{played.names[player]} mucks {cards}" in text
            mucked_seen += 1
        for player in folded:
            hole = played.hand.holes[player]
            assert not any(re.search(rf"\b{card}\b", text) for card in hole), (player, text)
            folded_seen += 1
        reply = session.next_hand()
    assert folded_seen >= 10 and mucked_seen >= 1


def test_the_textual_game_plays_with_keys_and_quits_with_a_summary() -> None:
    from textual.widgets import RichLog

    from splitpot.tui import PokerApp

    async def drive() -> list[str] | None:
        session = GameSession(table_config("o8", "limit", None, 3), seed=4)
        app = PokerApp(session, deal_delay=0.01)
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            assert app.shown[0] == "*** Hand 1: Omaha Hi/Lo, Fixed Limit 2/4 ***"
            assert app.query_one("#chat", RichLog).lines
            for _ in range(12):
                await pilot.press("c")  # check or call
                await pilot.pause(0.05)
            await pilot.press("slash")
            await pilot.pause()
            await pilot.press(*"last", "enter")
            await pilot.pause()
            number = session.table.history[-1].number
            last = f"Hand {number}: Omaha Hi/Lo, Fixed Limit 2/4 (button"
            assert any(line.startswith(last) for line in app.shown)
            assert session.table.hands_played >= 1
            assert session.in_hand()  # the next hand was dealt: q asks once, then leaves
            await pilot.press("q")
            await pilot.pause()
            assert session.quitting and app.return_value is None
            await pilot.press("q")
            await pilot.pause()
        return app.return_value

    summary = asyncio.run(drive())
    assert summary is not None and summary[0] == "Hero folds"
    assert summary[-3].startswith("You folded hand ") and summary[-2].startswith("Session over:")


def test_the_sensible_bot_beats_the_random_bot_clearly() -> None:
    config = TableConfig(Variant.O8, PotLimit(1, 2), seats=4)
    bots = [
        SensibleBot("s1", seed=1),
        RandomBot("r1", seed=2),
        SensibleBot("s2", seed=3),
        RandomBot("r2", seed=4),
    ]
    result = simulate(config, bots, 400, seed=5)
    assert result.chips_before == result.chips_after
    assert result.results["s1"] + result.results["s2"] > 400 * 2  # more than a big blind a hand
    assert result.results["r1"] + result.results["r2"] < 0


def test_chips_are_conserved_over_a_long_simulation() -> None:
    config = TableConfig(Variant.O8, PotLimit(1, 2), seats=6)
    bots = [make_bot("random", f"r{i}", seed=i) for i in range(6)]
    result = simulate(config, bots, 3000, seed=9)
    assert result.chips_before == result.chips_after
    assert sum(result.results.values()) == -result.rake


def test_export_and_import_round_trip_over_thousands_of_simulated_hands(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "hands.txt"
    args = ["simulate", "--hands", "3000", "--seats", "5", "--bots", "random", "--seed", "8"]
    assert main([*args, "--history-out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["hands"] == 3000 and report["chips_before"] == report["chips_after"]
    assert set(report["results"]) == {"1", "2", "3", "4", "5"}
    history = read_history(out)
    assert len(history.hands) == 3000 and history.unreadable == []
    assert all(replay_record(record).agrees for record in history.hands)
    assert main(["replay", "--check", str(out)]) == 0


def test_simulate_text_output_and_bad_bots(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        main(["simulate", "--hands", "20", "--seats", "2", "--bots", "random", "--seed", "1"]) == 0
    )
    out = capsys.readouterr().out
    assert "Seat 1 (random):" in out and "Seat 2 (random):" in out
    before, after = re.search(r"chips before (\d+), after (\d+)", out).groups()  # type: ignore[union-attr]
    assert before == after
    assert main(["simulate", "--hands", "5", "--bots", "genius"]) == 2
    assert "unknown bot 'genius'" in capsys.readouterr().err


def test_the_offline_table_plays_the_home_games_options_named_as_the_rooms_settings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("call\ncheck\n" * 60))
    options = ["--option", "bomb_pot=2", "--option", "bomb_every=2"]
    options += ["--option", "double_board=bomb-pots", "--option", "ante=1"]
    args = ["play", "--plain", "--seed", "3", "--seats", "3", "--hands", "2", *options]
    assert main(args) == 0
    out = capsys.readouterr().out
    first, second = out.split("*** Hand 2:")
    assert "Hero posts the ante, 1" in first and "bomb" not in first
    assert "Hero puts in the bomb, 4" in second and "the ante" not in second
    assert "Board 2 flop: " in second


def test_a_bad_option_is_refused_by_name_before_the_game(
    capsys: pytest.CaptureFixture[str],
) -> None:
    args = ["play", "--plain", "--structure", "limit"]
    assert main([*args, "--option", "straddle=true"]) == 2
    assert "a straddle is played in pot limit and no limit, not fixed limit" in (
        capsys.readouterr().err
    )
    assert main([*args, "--option", "straddle"]) == 2
    assert "--option takes NAME=VALUE, not 'straddle'" in capsys.readouterr().err
    assert main(["play", "--server", "http://127.0.0.1:1", "--option", "ante=1"]) == 2
    assert "--option is for the offline table" in capsys.readouterr().err
