"""The terminal game's corners: bad settings, a hand over before anyone acts, quitting in
a hand, the last 50 hands, help, the mixed game's turns, and the full-screen layout."""

import asyncio
import io
from collections.abc import Awaitable, Callable

import pytest
from textual.pilot import Pilot
from textual.widgets import Button, RichLog, Static

from splitpot.cli import main, play_lines
from splitpot.session import HELP, GameSession, SettingError, table_config
from splitpot.tui import KEYS, PokerApp, coloured


def _refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], *args: str
) -> str:
    """Run ``play`` with bad settings: exit status 2 and one line of error, no traceback."""
    monkeypatch.setattr("sys.stdin", io.StringIO("fold\n"))
    try:
        code = main(["play", "--plain", *args])
    except SystemExit as leaving:  # argparse refuses a setting it reads itself
        code = int(str(leaving.code))
    captured = capsys.readouterr()
    assert code == 2 and captured.out == "" and "Traceback" not in captured.err
    return captured.err.strip().splitlines()[-1]


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (
            ["--stakes", "4/2"],
            "pot-limit stakes are the small and the big blind, the big blind at least the "
            "small one, like 1/2, not '4/2'",
        ),
        (
            ["--structure", "no-limit", "--stakes", "2/1"],
            "no-limit stakes are the small and the big blind, the big blind at least the "
            "small one, like 1/2, not '2/1'",
        ),
        (["--stakes", "0/2"], "stakes are two whole amounts above 0 like 2/4, not '0/2'"),
        (["--stakes", "2/0"], "stakes are two whole amounts above 0 like 2/4, not '2/0'"),
        (["--stakes", "two/four"], "stakes are two whole amounts above 0 like 2/4, not 'two/four'"),
        (["--stakes", "2"], "stakes are two whole amounts above 0 like 2/4, not '2'"),
        (["--stakes", "1.5/3"], "stakes are two whole amounts above 0 like 2/4, not '1.5/3'"),
        (
            ["--structure", "limit", "--stakes", "4/2"],
            "limit stakes are a small bet and a big bet of twice as much, like 2/4, not '4/2'",
        ),
        (
            ["--structure", "limit", "--stakes", "2/3"],
            "limit stakes are a small bet and a big bet of twice as much, like 2/4, not '2/3'",
        ),
        (
            ["--structure", "limit", "--stakes", "1/2"],
            "limit stakes need a small bet of at least 2 (the small blind is half of it), "
            "like 2/4, not '1/2'",
        ),
        (
            ["--structure", "mixed", "--stakes", "6/12"],
            "mixed stakes need a small bet divisible by 4 (the pot-limit rounds play blinds "
            "of a quarter and a half of it), like 4/8, not '6/12'",
        ),
        (["--variant", "bigo", "--seats", "9"], "a table has 2 to 8 seats"),
        (["--variant", "bigo", "--seats", "10"], "a table has 2 to 8 seats"),
        (["--seats", "11"], "argument --seats: a table has 2 to 10 seats, not 11"),
        (["--buy-in", "2.5"], "argument --buy-in: a buy-in is a whole number above 0, not '2.5'"),
        (["--buy-in", "0"], "argument --buy-in: a buy-in is a whole number above 0, not '0'"),
        (["--buy-in", "79"], "the buy-in at this table is 80 to 200 chips, not 79"),
        (["--buy-in", "201"], "the buy-in at this table is 80 to 200 chips, not 201"),
        (
            ["--hands", "0"],
            "argument --hands: the number of hands is a whole number above 0, not '0'",
        ),
        (
            ["--hands", "-3"],
            "argument --hands: the number of hands is a whole number above 0, not '-3'",
        ),
        (["--name", ""], "a player's name is 1 to 20 printable characters, not ''"),
        (["--name", "   "], "a player's name is 1 to 20 printable characters, not '   '"),
        (["--name", "a\tb"], "a player's name is 1 to 20 printable characters, not 'a\\tb'"),
        (
            ["--name", "x" * 21],
            f"a player's name is 1 to 20 printable characters, not '{'x' * 21}'",
        ),
        (["--name", "Bot 1"], "the name 'Bot 1' is a bot's: choose another"),
    ],
)
def test_a_bad_setting_is_refused_at_once_with_status_2(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    message: str,
) -> None:
    error = _refused(monkeypatch, capsys, *args)
    assert error.startswith("splitpot play: error: ") and message in error
    if "bigo" in args:  # the table's own error names the seats asked for
        assert error.endswith(f"2 to 8 seats (one deck of 52 cards), not {args[-1]}")


def test_table_config_refuses_bad_stakes_itself() -> None:
    with pytest.raises(SettingError, match=r"not '4/2'"):
        table_config("o8", "pot-limit", "4/2", 6)
    with pytest.raises(SettingError, match=r"unknown structure 'spread'"):
        table_config("o8", "spread", None, 6)
    config = table_config("o8", "mixed", "8/16", 6)
    assert config.betting.stakes == "8/16 and 2/4"
    assert table_config("o8", "no-limit", " 2/5 ", 6).betting.stakes == "2/5"
    assert table_config("o8", "pot-limit", "2/2", 6).betting.stakes == "2/2"  # equal blinds


def _lines(session: GameSession, commands: str, capsys: pytest.CaptureFixture[str]) -> str:
    assert play_lines(session, iter(commands.splitlines())) == 0
    return capsys.readouterr().out


def test_a_hand_over_before_anyone_acts_is_reported_like_any_other(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Heads-up, a bot with one chip is all in by posting the small blind: the hand runs
    out at once (RULES.md 4), is reported whole in the dealer's words (the draw for the
    button first, RULES.md 4.1), the bot buys in again, and the next hand is dealt."""
    session = GameSession(table_config("o8", "pot-limit", None, 2), seed=7, max_hands=2)
    bot = session.table.seats[1]
    assert bot is not None
    bot.stack = 1
    out = _lines(session, "fold\n", capsys)
    first = out[: out.index("*** Hand 2")].splitlines()
    assert first[:4] == [
        "*** Hand 1: Omaha Hi/Lo, Pot Limit 1/2 ***",
        "Draw for the button: Hero 5c, Bot 1 Th",
        "Bot 1 posts the small blind, 1 and is all in",
        "Hero posts the big blind, 2",
    ]
    assert "Uncalled bet of 1 returned to Hero" in first
    assert first[-3:] == [
        "Hero wins the pot, 2, with two pair, Tens and Threes",
        "No low hand qualified for the pot",
        "Bot 1 adds 200 and has 200",
    ]
    assert not any(line.startswith("Your move") for line in first)
    assert session.table.history[0].hand.result is not None
    assert "*** Hand 2: Omaha Hi/Lo, Pot Limit 1/2 ***" in out
    assert "Seat 1: Hero (button): 200 bet 1\nSeat 2: Bot 1: 198 bet 2\n" in out
    assert out.rstrip().endswith("Hero: 200 chips, +0 on the buy-in of 200.")


def test_play_heads_up_from_the_command_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("call\ncheck\nshow\n" * 400))
    assert main(["play", "--plain", "--seats", "2", "--seed", "4", "--hands", "30"]) == 0
    out = capsys.readouterr().out
    assert "*** Hand 30: Omaha Hi/Lo, Pot Limit 1/2 ***" in out
    assert "That was the last of your 30 hands.\nSession over: 30 hands played." in out


def test_quit_in_a_hand_asks_once_then_folds_and_counts_the_chips(
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = GameSession(table_config("o8", "limit", None, 3), seed=2)
    # Hand 1: call 2 preflop; on the flop "quit", then a check (which forgets the quit),
    # then "quit" twice.
    out = _lines(session, "call\nquit\ncheck\nquit\nquit\n", capsys)
    asked = (
        "Quitting now folds your hand: the 2 chips you have put in are lost. Quit again to leave."
    )
    assert out.count(asked) == 2
    assert "Hero checks" in out
    assert "You folded hand 1 to leave: the 2 chips you had put in are lost." in out
    assert out.rstrip().endswith(
        "Session over: 1 hand played.\nHero: 198 chips, -2 on the buy-in of 200."
    )
    assert session.stack == 198 and session.table.hand is None


def test_quit_between_hands_and_quit_with_nothing_in_leave_at_once(
    capsys: pytest.CaptureFixture[str],
) -> None:
    session = GameSession(table_config("o8", "limit", None, 3), seed=2)
    assert session.quit().lines == (
        "Hero leaves the table with 200",
        "Session over: 0 hands played.",
        "Hero: 200 chips, +0 on the buy-in of 200.",
    )
    session = GameSession(table_config("o8", "limit", None, 3), seed=2)
    session.next_hand()  # the button: nothing put in yet, but the hand is still live
    reply = session.command("quit")
    assert reply.lines == (
        "Quitting now folds your hand (you have put no chips in). Quit again to leave.",
    )
    reply = session.command("exit")
    assert reply.over and reply.lines[-3:] == (
        "You folded hand 1 to leave (you had put no chips in).",
        "Session over: 1 hand played.",
        "Hero: 200 chips, +0 on the buy-in of 200.",
    )


def test_bet_and_raise_are_never_swapped(capsys: pytest.CaptureFixture[str]) -> None:
    session = GameSession(table_config("o8", "limit", None, 3), seed=2)
    out = _lines(session, "bet 4\ncall\nraise 2\nbet 2\n", capsys)
    assert (
        "Not now: cannot bet: there is a bet of 2; raise instead.\nYou may: fold, call 2, raise 4"
        in out
    )
    assert (
        "Not now: cannot raise: there is no bet; bet instead.\nYou may: fold, check, bet 2" in out
    )
    assert "Hero bets 2" in out


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    session = GameSession(table_config("o8", "limit", None, 3), seed=2)
    out = _lines(session, "help\n", capsys)
    assert "\n".join(HELP) in out
    for command in ("fold", "check", "call", "bet N", "raise N", "allin", "show", "muck"):
        assert command in "\n".join(HELP)
    assert "last, last N" in out and "quit " in out


def test_last_reaches_back_over_the_last_50_hands() -> None:
    """RULES.md 6: the window reaches back over the last 50 hands of the session."""
    session = GameSession(table_config("o8", "limit", None, 3), seed=1)
    assert session.command("last").lines == ("No finished hand to show yet.",)
    session.next_hand()
    session.command("fold")
    assert session.command("last 2").lines == (
        "No hand 2 back: 1 finished hand kept, 'last 1' to 'last 1' (the table keeps the last 50).",
    )
    while session.table.hands_played < 55:
        if session.table.hand is None:
            session.next_hand()
        else:
            session.command("fold")

    def title(command: str) -> str:
        return session.command(command).lines[0]

    game = "Omaha Hi/Lo, Fixed Limit 2/4 (button: seat "
    assert title("last").startswith(f"Hand 55: {game}")
    assert title("last 1").startswith(f"Hand 55: {game}")
    assert title("last 3").startswith(f"Hand 53: {game}")
    assert title("last 50").startswith(f"Hand 6: {game}")
    beyond = "50 finished hands kept, 'last 1' to 'last 50' (the table keeps the last 50)."
    assert title("last 51") == f"No hand 51 back: {beyond}"
    assert title("last 0") == f"No hand 0 back: {beyond}"
    assert title("last x") == "last takes how many hands back, like 'last 3', not 'x'"
    assert title("last 2 3") == "last takes how many hands back, like 'last 3', not '2 3'"


def test_a_mixed_game_announces_its_turns(capsys: pytest.CaptureFixture[str]) -> None:
    session = GameSession(table_config("o8", "mixed", None, 3), seed=3, max_hands=7)
    out = _lines(session, "fold\n" * 20, capsys)
    headers = [line for line in out.splitlines() if line.startswith(("***", "The game"))]
    limit, pot = "Omaha Hi/Lo, Fixed Limit 4/8", "Omaha Hi/Lo, Pot Limit 1/2"
    assert headers == [  # the dealer announces the turn before the hand (dealer.py)
        f"*** Hand 1: {limit} ***",
        f"*** Hand 2: {limit} ***",
        f"*** Hand 3: {limit} ***",
        "The game turns to Pot Limit 1/2",
        f"*** Hand 4: {pot} ***",
        f"*** Hand 5: {pot} ***",
        f"*** Hand 6: {pot} ***",
        "The game turns to Fixed Limit 4/8",
        f"*** Hand 7: {limit} ***",
    ]
    assert session.title() == f"{limit} (Mixed Limit / Pot Limit)"


def test_cards_show_suit_symbols_in_four_or_two_colours() -> None:
    text = coloured("Dealt to Hero: As Kh Td 2c")
    assert text.plain == "Dealt to Hero: A♠ K♥ T♦ 2♣"
    styles = {text.plain[span.start : span.end]: str(span.style) for span in text.spans}
    assert styles == {
        "A♠": "bold", "K♥": "bold red1", "T♦": "bold dodger_blue1", "2♣": "bold green3"
    }  # fmt: skip
    two = coloured("Board: As Kh Td 2c", two_colour=True)
    styles = {two.plain[span.start : span.end]: str(span.style) for span in two.spans}
    assert styles == {"A♠": "bold", "K♥": "bold red1", "T♦": "bold red1", "2♣": "bold"}
    assert coloured("Bot 4 wins the pot, 27, with three of a kind, Kings").spans == []


def test_a_name_that_reads_as_a_card_is_refused() -> None:
    config = table_config("o8", "limit", None, 3)
    for name in ("As", "Big 10h"):
        with pytest.raises(SettingError, match=f"the name '{name}' reads as a card"):
            GameSession(config, name=name)
    assert GameSession(config, name=" Ace of Spades ").name == "Ace of Spades"


# ------------------------------------------------------------------ the full-screen game


def _drive(
    session: GameSession,
    steps: Callable[[PokerApp, Pilot[list[str]]], Awaitable[None]],
    size: tuple[int, int] = (80, 24),
    deal_delay: float = 60.0,
) -> list[str] | None:
    async def run() -> list[str] | None:
        app = PokerApp(session, deal_delay=deal_delay)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            await steps(app, pilot)
        return app.return_value

    return asyncio.run(run())


def _visible(app: PokerApp) -> dict[str, str]:
    return {str(button.id): str(button.label) for button in app.query(Button) if button.display}


def _cards(app: PokerApp) -> str:
    return str(app.query_one("#cards", Static).content)


def test_the_full_screen_game_names_the_game_and_hides_illegal_buttons() -> None:
    async def steps(app: PokerApp, pilot: Pilot[list[str]]) -> None:
        assert app.sub_title == "Omaha Hi/Lo, Fixed Limit 2/4"
        assert app.shown[0] == "*** Hand 1: Omaha Hi/Lo, Fixed Limit 2/4 ***"
        assert _visible(app) == {"fold": "Fold", "check_call": "Call 2", "raise_min": "Raise 4"}
        assert "Your cards: K♠ 5♥ J♥ 5♠" in _cards(app)
        await pilot.press("c")  # call; the flop comes, checked to Hero
        await pilot.pause()
        assert _visible(app) == {"fold": "Fold", "check_call": "Check", "raise_min": "Bet 2"}

    _drive(GameSession(table_config("o8", "limit", None, 3), seed=2), steps)


def test_pot_limit_offers_the_pot_and_no_limit_leaves_the_most_to_all_in() -> None:
    async def pot_limit(app: PokerApp, pilot: Pilot[list[str]]) -> None:
        assert _visible(app) == {
            "fold": "Fold", "check_call": "Call 2", "raise_min": "Raise 4", "raise_max": "Pot 7"
        }  # fmt: skip

    async def no_limit(app: PokerApp, pilot: Pilot[list[str]]) -> None:
        assert _visible(app) == {
            "fold": "Fold", "check_call": "Call 2", "raise_min": "Raise 4", "allin": "All in"
        }  # fmt: skip

    _drive(GameSession(table_config("o8", "pot-limit", None, 3), seed=2), pot_limit)
    _drive(GameSession(table_config("o8", "no-limit", None, 3), seed=2), no_limit)


def test_a_hands_result_stays_until_the_next_hand_and_the_log_keeps_8_lines() -> None:
    async def steps(app: PokerApp, pilot: Pilot[list[str]]) -> None:
        chat = app.query_one("#chat", RichLog)
        assert chat.content_region.height >= 8
        await pilot.press("f")
        await pilot.pause()
        assert app.session.table.hand is None
        result = _cards(app).splitlines()
        played = app.session.table.history[-1].hand
        lost = played.starting_stacks[0] - played.stacks[0]
        assert result[0] == (
            f"Hand 1 is over: you lose {lost}." if lost else "Hand 1 is over: you break even."
        )
        assert any(" wins " in line for line in result[1:])
        assert _visible(app) == {}
        assert chat.content_region.height >= 8  # ten seats and a result at 80x24
        await pilot.pause(0.1)
        assert _cards(app).splitlines() == result  # still there while the deal waits
        app._next_hand()
        await pilot.pause()
        assert _cards(app).startswith("Your cards: ")

    _drive(GameSession(table_config("o8", "pot-limit", None, 10), seed=2), steps)


def test_the_full_screen_game_stops_after_its_hands() -> None:
    async def steps(app: PokerApp, pilot: Pilot[list[str]]) -> None:
        for _ in range(40):
            if app.return_value is not None:
                break
            await pilot.press("f")
            await pilot.pause(0.05)

    session = GameSession(table_config("o8", "limit", None, 3), seed=2, max_hands=2)
    lines = _drive(session, steps, deal_delay=0.01)
    assert lines is not None and lines[0] == "That was the last of your 2 hands."
    assert lines[1] == "Session over: 2 hands played."
    assert session.hands_started == 2


def test_the_l_key_steps_back_and_help_lists_commands_and_keys() -> None:
    session = GameSession(table_config("o8", "limit", None, 3), seed=2)
    for _ in range(3):  # three finished hands before the game opens
        session.next_hand()
        session.command("fold")

    async def steps(app: PokerApp, pilot: Pilot[list[str]]) -> None:
        for _ in range(4):
            await pilot.press("l")
            await pilot.pause()
        titles = [line.split(":")[0] for line in app.shown if line.startswith("Hand ")]
        assert titles == ["Hand 3", "Hand 2", "Hand 1", "Hand 3"]
        await pilot.press("question_mark")
        await pilot.pause()
        assert app.shown[-len(HELP) - 1 :] == [*HELP, KEYS]
        await pilot.press("slash", *"last", "space", "2", "enter")
        await pilot.pause()
        assert app.shown[-1].startswith("  ") and any(
            line.startswith("Hand 2: ") for line in app.shown[-20:]
        )

    _drive(session, steps)
