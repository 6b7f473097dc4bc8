"""The ``splitpot`` command line: a thin shell over the library."""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import signal
import sys
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import replace
from fractions import Fraction
from typing import Any, TypeVar
from urllib.parse import urlsplit

from babel.numbers import format_decimal
from rich.console import Console
from rich.progress import Progress

from splitpot import __version__, verify
from splitpot.arguments import (
    EXIT_BAD_INPUT,
    ArgumentParser,
    add_lang,
    asked_language,
    display_width,
    locale_language,
    typed,
)
from splitpot.bots import make_bot
from splitpot.cards import CardError, format_cards
from splitpot.client.game import Game, signed
from splitpot.client.lines import play_lines
from splitpot.dealer import award_lines, game_title, high_words, no_low_words
from splitpot.equity import EquityResult, calculate
from splitpot.equity.calculator import FIELDS as FIGURES
from splitpot.equity.calculator import exact_job
from splitpot.evaluate import HighHand, LowHand, Showdown, Variant, showdown
from splitpot.history import HandRecord, HistoryError
from splitpot.history.files import read_history
from splitpot.history.pokerstars import game_name, write_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.table_log import record_of
from splitpot.i18n import (
    ENGLISH,
    TERMINAL,
    Language,
    Words,
    words,
)
from splitpot.reading import why_unread
from splitpot.server.limits import LIMITS
from splitpot.session import STRUCTURES, GameSession, player_name, table_config
from splitpot.simulation import simulate
from splitpot.table import TableConfig, TableHand

VARIANT_IDS = tuple(variant.value for variant in Variant)
EXIT_INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a command stopped by Ctrl-C
_T = TypeVar("_T")


def _share_text(share: Fraction) -> str:
    return (
        str(share.numerator) if share.denominator == 1 else f"{share.numerator}/{share.denominator}"
    )


def _hand_json(hand: HighHand | LowHand | None) -> dict[str, str] | None:
    if hand is None:
        return None
    return {"cards": format_cards(hand.cards), "name": hand.name}


def showdown_json(result: Showdown) -> dict[str, Any]:
    """The ``--json`` form of a showdown."""
    return {
        "variant": result.variant.value,
        "board": format_cards(result.board),
        "players": [
            {
                "hole": format_cards(player.hole),
                "high": _hand_json(player.high),
                "low": _hand_json(player.low),
                "share": _share_text(player.share),
            }
            for player in result.players
        ],
        "high_winners": list(result.high_winners),
        "low_winners": list(result.low_winners),
    }


def _low_words(low: LowHand, words: Words) -> str:
    return words.say("{low} (the wheel)", low=low.name) if low.nickname else low.name


def showdown_text(result: Showdown, words: Words = ENGLISH) -> str:
    """A showdown as a person reads it, in ``words``' language: each hand, then who wins
    which half."""
    board = format_cards(result.board, " ")
    game = game_title(result.variant, words)
    lines = [words.say("{game}; board {cards}", game=game, cards=board)]
    for number, player in enumerate(result.players, start=1):
        hole = format_cards(player.hole, " ")
        lines.append(words.say("Player {number}: {cards}", number=number, cards=hole))
        high = player.high
        used = format_cards(high.cards, " ")
        named = {"hand": high_words(high, words), "cards": used}
        lines.append(words.say("  high: {hand} ({cards})", **named))
        if result.variant.has_low:
            low = player.low
            if low is None:
                lines.append(words.say("  low:  no low"))
            else:
                named = {"hand": _low_words(low, words), "cards": format_cards(low.cards, " ")}
                lines.append(words.say("  low:  {hand} ({cards})", **named))
        share = _share_text(player.share)
        lines.append(words.say("  share of the pot: {share}", share=share))
    names = [words.say("player {number}", number=index + 1) for index in range(len(result.players))]
    top_high = high_words(result.players[result.high_winners[0]].high, words)
    winners = _capital(words.listed(names[index] for index in result.high_winners))
    split = len(result.high_winners) > 1
    if result.low_winners:
        said = {"who": winners, "hand": top_high}
        if split:
            lines.append(words.say("{who} split the high half with {hand}", **said))
        else:
            lines.append(words.say("{who} wins the high half with {hand}", **said))
        top_low = result.players[result.low_winners[0]].low
        assert top_low is not None
        low_winners = _capital(words.listed(names[index] for index in result.low_winners))
        said = {"who": low_winners, "hand": _low_words(top_low, words)}
        if len(result.low_winners) > 1:
            lines.append(words.say("{who} split the low half with {hand}", **said))
        else:
            lines.append(words.say("{who} wins the low half with {hand}", **said))
        return "\n".join(lines)
    said = {"who": winners, "hand": top_high}
    if split:
        lines.append(words.say("{who} split the whole pot with {hand}", **said))
    else:
        lines.append(words.say("{who} wins the whole pot with {hand}", **said))
    if result.variant.has_low:
        lines.append(no_low_words((0, 1), result.variant.low_qualifier, words))
    return "\n".join(lines)


def _capital(text: str) -> str:
    return text[:1].upper() + text[1:]


def _cmd_showdown(args: argparse.Namespace) -> int:
    result = showdown(args.variant, args.hands, args.board)
    if args.json:
        print(json.dumps(showdown_json(result)))
    else:
        print(showdown_text(result, args.words))
    return 0


def _replay_hand(
    record: HandRecord, check: bool, words: Words = ENGLISH
) -> tuple[dict[str, Any], list[str]]:
    """The JSON entry and the text lines (in ``words``' language) of one replayed hand."""
    names, say = record.names, words.say
    title = say("Hand {hand} ({game})", hand=record.id, game=record.game)
    try:
        replayed = replay_record(record)
    except HistoryError as error:
        entry: dict[str, Any] = {"id": record.id, "game": record.game}
        entry["agrees"] = False if check else None
        entry |= {"error": str(error), "pots": [], "collected": {}, "finishing_stacks": None}
        return entry, [title, say("  cannot be replayed under the rules: {reason}", reason=error)]
    result = replayed.hand.result
    assert result is not None
    variant = record.config.variant
    lines = [title]
    lines += [
        "  " + line
        for line in award_lines(
            result.awards,
            names,
            has_low=variant.has_low,
            low_qualifier=variant.low_qualifier,
            unit=record.unit,
            currency=record.currency,
            words=words,
            runs=replayed.hand.runs,
        )
    ]
    agrees = replayed.agrees if check else None
    if check and agrees is None:
        lines.append(say("  the file records no result to check"))
    elif check and agrees:
        lines.append(say("  agrees with the file"))
    for difference in replayed.differences if check else ():
        lines.append(
            say(
                "  DIFFERS: {what}: the file says {file}, the rules give {rules}",
                what=difference.what,
                file=difference.file,
                rules=difference.rules,
            )
        )
    pots = [
        {
            "pot": index,
            "amount": pot.amount,
            "eligible": [names[p] for p in pot.eligible],
            "awards": [
                {
                    "player": names[a.player],
                    "share": a.share.value,
                    "amount": a.amount,
                    "high": a.high.name if a.high else None,
                    "low": a.low.name if a.low else None,
                }
                for a in result.awards
                if a.pot == index
            ],
        }
        for index, pot in enumerate(result.pots)
    ]
    entry = {
        "id": record.id,
        "game": record.game,
        "agrees": agrees,
        "pots": pots,
        "rake": result.rake,
        "collected": {names[p]: result.won(p) for p in range(len(names))},
        "finishing_stacks": dict(zip(names, result.stacks, strict=True)),
        "unit": record.unit,
    }
    return entry, lines


def _progress_bar() -> Progress:  # its task's label is said by the caller
    """A progress bar on stderr that leaves no trace, and shows nothing off a terminal."""
    console = Console(stderr=True)
    return Progress(transient=True, console=console, disable=not console.is_terminal)


def _cmd_replay(args: argparse.Namespace) -> int:
    entries: list[dict[str, Any]] = []
    unread: list[dict[str, Any]] = []  # hands listed with the reason they were not replayed
    status, words = 0, args.words
    say = words.say
    for path in args.files:
        try:
            history = read_history(path)
        except (OSError, HistoryError) as error:
            said = say("splitpot replay: {path}: {reason}", path=path, reason=why_unread(error))
            print(said, file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        if not history.hands and not any(problem.skipped for problem in history.unreadable):
            reasons = "".join(
                say(
                    "; hand {hand} (line {line}): {reason}",
                    hand=problem.hand_id,
                    line=problem.line,
                    reason=problem.reason,
                )
                for problem in history.unreadable
            )
            said = say(
                "splitpot replay: {path}: no hand to replay{reasons}", path=path, reasons=reasons
            )
            print(said, file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        if not args.json:
            print(
                words.say_n(
                    "{path}: {count} hands ({format})",
                    "{path}: {count} hands ({format})",
                    len(history.hands),
                    path=path,
                    format=history.format,
                )
            )
        for record in history.hands:
            entry, lines = _replay_hand(record, args.check, words)
            entries.append(entry)
            if entry["agrees"] is False and status == 0:
                status = 1
            if not args.json:
                print("\n".join(lines))
        for problem in history.unreadable:
            unread.append(
                {"file": path, "id": problem.hand_id, "line": problem.line, "last_line":
                 problem.last_line, "skipped": problem.skipped, "reason": problem.reason}
            )  # fmt: skip
            if not args.json:
                said = {"hand": problem.hand_id, "line": problem.line, "reason": problem.reason}
                if problem.skipped:
                    print(say("Hand {hand} (line {line}) skipped: {reason}", **said))
                else:
                    print(say("Hand {hand} (line {line}) unreadable: {reason}", **said))
    if args.json:
        print(json.dumps({"hands": entries, "unreadable": unread}))
    elif args.check and entries:
        differing = sum(entry["agrees"] is False for entry in entries)
        print(
            words.say_n(
                "{agree} of {count} hands agree with their files",
                "{agree} of {count} hands agree with their files",
                len(entries),
                agree=words.number(len(entries) - differing),
            )
        )
    if not entries and status == 0:
        print(say("splitpot replay: no hand of a game splitpot plays to replay"), file=sys.stderr)
        return EXIT_BAD_INPUT
    return status


def _session(args: argparse.Namespace) -> GameSession:
    words = args.words
    config = table_config(args.variant, args.structure, args.stakes, args.seats, words)
    if args.option:
        config = _with_options(config, args.option, words)
    return GameSession(
        config,
        name=args.name,
        buy_in=args.buy_in,
        seed=args.seed,
        max_hands=args.hands,
        words=words,
    )


HOME_OPTIONS = (
    "ante",
    "rake",
    "straddle",
    "run_it_twice",
    "rabbit_hunt",
    "bomb_pot",
    "bomb_every",
    "double_board",
    "kill",
)  # the TableConfig fields of RULES.md 7


def _with_options(config: TableConfig, options: Sequence[str], words: Words) -> TableConfig:
    """The offline table with the home game's options of ``--option NAME=VALUE``, named and
    checked as the room's table settings are (docs/protocol.md)."""
    from splitpot.room.settings import parse_settings

    given: dict[str, Any] = {"name": "offline"}
    for option in options:
        name, equals, text = option.partition("=")
        if not equals or not name.strip():
            raise ValueError(
                words.say("--option takes NAME=VALUE, not {given}", given=repr(option))
            )
        try:
            given[name.strip()] = json.loads(text)
        except json.JSONDecodeError:
            given[name.strip()] = text.strip()
    chosen = parse_settings(given).config()
    return replace(config, **{field: getattr(chosen, field) for field in HOME_OPTIONS})


def _game(args: argparse.Namespace) -> Game:
    """The offline game against bots, or with ``--server`` a table of the room; in the
    language of ``--lang`` (or the locale's)."""
    say = args.words.say
    if args.server is None:
        if args.table is not None or args.invite is not None:
            raise ValueError(
                say("--table and --invite need --server URL (offline there is one table)")
            )
        if args.tournament is not None:
            raise ValueError(say("--tournament needs --server URL: tournaments are a room's"))
        if args.new:
            raise ValueError(say("--new needs --server URL (offline there is no guest to keep)"))
        return _session(args)
    if args.option:
        raise ValueError(say("--option is for the offline table: at a room, the host sets them"))
    from splitpot.client.announced import default_folder
    from splitpot.client.identity import Identities, default_file
    from splitpot.client.remote import RemoteGame  # the network packages load only to connect

    name = player_name(args.name, args.words)
    if args.tournament is not None and args.table is not None:
        raise ValueError(say("--tournament ID seats you where the tournament does: no --table"))
    if args.tournament is not None and args.hands is not None:
        raise ValueError(say("--tournament plays to the end: no --hands"))
    if args.invite is not None and args.table is None and args.tournament is None:
        raise ValueError(
            say(
                "--invite TOKEN goes with --table ID or --tournament ID: the private table "
                "or tournament it opens"
            )
        )
    return RemoteGame(
        args.server,
        name,
        table=args.table,
        invite=args.invite,
        max_hands=args.hands,
        announced=default_folder(),
        identities=Identities(default_file()),
        new=args.new,
        words=args.words,
        tournament=args.tournament,
    )


def _cmd_tournaments(args: argparse.Namespace) -> int:
    """The room's public tournaments, one a line (or JSON): their ids for ``splitpot play
    --tournament ID``."""
    from splitpot.client.remote import Lobby, socket_url
    from splitpot.client.tournament import tournaments_lines

    say = args.words.say
    rooms = Lobby(args.server, words=args.words)
    try:
        socket_url(args.server)  # a bad address is refused before the room is asked
        found = rooms.tournaments(finished=args.finished)
    except ConnectionError as error:  # the room is out of reach, or refused the client
        print(say("splitpot tournaments: {reason}", reason=error), file=sys.stderr)
        return 1
    finally:
        rooms.close()
    if args.json:
        print(json.dumps({"tournaments": found}))
    elif not found:
        print(say("The room at {url} has no tournament to enter.", url=args.server))
    else:
        print("\n".join(tournaments_lines(found, args.words)))
    return 0


def _cmd_play(args: argparse.Namespace) -> int:
    game = _game(args)
    try:
        if not args.plain and sys.stdin.isatty() and sys.stdout.isatty():
            from splitpot.tui import run

            return run(game, two_colour=args.two_colour)
        return play_lines(game, (line.rstrip("\n") for line in sys.stdin))
    except ConnectionError as error:  # the room is out of reach, or refused the client
        print(args.words.say("splitpot play: {reason}", reason=error), file=sys.stderr)
        return 1
    finally:
        game.close()


class _HandsOut:
    """A simulation's hands written as PokerStars text as they are played, and counted:
    a run stopped by Ctrl-C keeps them all. A failure to write is a ValueError that names
    the file."""

    def __init__(self, path: str, words: Words = ENGLISH) -> None:
        self.path = path
        self.words = words
        self.written = 0
        try:
            self._file = open(path, "w", encoding="utf-8")  # noqa: SIM115 (closed by close)
        except OSError as error:
            said = words.say("--history-out {path}: {reason}", path=path, reason=error.strerror)
            raise ValueError(said) from error

    def write(self, played: TableHand) -> None:
        """The hand written and counted together: a Ctrl-C waits until both are done (a
        hand in the file and not in the count was a race a test found)."""
        try:
            text = write_pokerstars(record_of(played), played.hand, hero=0)
            with _interrupt_held():
                self._file.write(text)
                self.written += 1
        except (OSError, HistoryError) as error:
            said = self.words.say("--history-out {path}: {reason}", path=self.path, reason=error)
            raise ValueError(said) from error

    def close(self) -> None:
        self._file.close()


@contextmanager
def _interrupt_held() -> Iterator[None]:
    """SIGINT held back (where the system can) until the block is done: its Ctrl-C then
    comes as ever."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})


def _cmd_simulate(args: argparse.Namespace) -> int:
    words: Words = args.words
    say = words.say
    config = table_config(args.variant, args.structure, args.stakes, args.seats, words)
    kinds = [k.strip() for k in args.bots.split(",") if k.strip()]
    if not kinds:
        raise ValueError(
            say(
                "--bots {given} names no bot; give kinds like sensible,random",
                given=repr(args.bots),
            )
        )
    kinds = [kinds[i % len(kinds)] for i in range(args.seats)]
    if args.history_out is not None:
        try:
            game_name(config.variant)  # refused before a hand is played, not after
        except HistoryError as error:
            said = say("--history-out {path}: {reason}", path=args.history_out, reason=error)
            raise ValueError(said) from error
    seed = args.seed
    bots = [
        make_bot(kind, f"Seat {i + 1} ({kind})", None if seed is None else seed + i)
        for i, kind in enumerate(kinds)
    ]
    history = None if args.history_out is None else _HandsOut(args.history_out, words)
    try:
        with _progress_bar() as progress:
            task = progress.add_task(say("playing"), total=args.hands)
            result = simulate(
                config,
                bots,
                args.hands,
                buy_in=args.buy_in,
                seed=seed,
                played=None if history is None else history.write,
                progress=lambda done: progress.update(task, completed=done),
            )
    except KeyboardInterrupt:
        if history is None:
            raise
        said = words.say_n(
            "splitpot simulate: interrupted; {count} hands played and written to {path}",
            "splitpot simulate: interrupted; {count} hands played and written to {path}",
            history.written,
            path=history.path,
        )
        print(said, file=sys.stderr)
        return EXIT_INTERRUPTED
    finally:
        if history is not None:
            history.close()
    if args.json:
        report = {
            "hands": result.hands,
            "seconds": round(result.seconds, 3),
            "hands_per_second": round(result.hands_per_second, 1),
            "chips_before": result.chips_before,
            "chips_after": result.chips_after,
            "results": {str(i + 1): result.results[bot.name] for i, bot in enumerate(bots)},
        }
        print(json.dumps(report))
    else:
        for bot in bots:
            print(f"{bot.name}: {signed(result.results[bot.name], words)}")
        if words.language is Language.ENGLISH:
            rate = f"{result.hands_per_second:,.0f}"
        else:
            rate = words.number(round(result.hands_per_second))
        said = words.say_n(
            "{count} hands in {seconds} s ({rate} hands/s)",
            "{count} hands in {seconds} s ({rate} hands/s)",
            result.hands,
            seconds=_decimal(result.seconds, 1, words),
            rate=rate,
        )
        print(said)
        print(
            say(
                "chips before {before}, after {after} (rake {rake})",
                before=words.number(result.chips_before),
                after=words.number(result.chips_after),
                rake=words.number(result.rake),
            )
        )
    return 0 if result.chips_before == result.chips_after else 1


EXACT_CONFIRM = 60.0  # seconds: an exact run estimated longer runs only with --force


def _cmd_equity(args: argparse.Namespace) -> int:
    words: Words = args.words
    if args.force and not args.exact:
        raise ValueError(
            words.say("--force goes with --exact: it runs an exact job estimated over a minute")
        )
    if args.exact:
        _size_exact(args)
    method = "exact" if args.exact else ("monte-carlo" if args.samples is not None else "auto")
    with _progress_bar() as progress:
        task = progress.add_task(words.say("equity"), total=None)
        result = calculate(
            args.hands,
            board=args.board,
            dead=args.dead,
            variant=args.variant,
            method=method,
            samples=args.samples,
            seed=args.seed,
            progress=lambda done, total: progress.update(task, completed=done, total=total),
        )
    if args.json:
        print(json.dumps(equity_json(result)))
        return 0
    print("\n".join(equity_table(result, words)))
    return 0


def _size_exact(args: argparse.Namespace) -> None:
    """An exact job that is not quick: its size and time said first, on stderr, with
    Monte Carlo suggested; one estimated over ``EXACT_CONFIRM`` seconds runs only with
    --force (a ValueError says so, and what else to do)."""
    words: Words = args.words
    job = exact_job(args.hands, board=args.board, dead=args.dead, variant=args.variant)
    if job.seconds is None:
        return
    size = words.say(
        "{total} boards ({deals} deals of the hands, {boards} boards each), about {time} here",
        total=_count(job.total, words),
        deals=_count(job.deals, words),
        boards=_count(job.boards, words),
        time=_duration(job.seconds, words),
    )
    if job.seconds > EXACT_CONFIRM and not args.force:
        raise ValueError(
            words.say(
                "--exact here is {size}: Monte Carlo takes seconds (--samples 200000, a standard "
                "error near 0.1%), or add --force to enumerate all the same",
                size=size,
            )
        )
    said = words.say(
        "splitpot equity: exact: {size}; Monte Carlo (--samples N) is quicker", size=size
    )
    print(said, file=sys.stderr)


def _count(number: int, words: Words = ENGLISH) -> str:
    """A count in figures, as a power of ten past a trillion: 1,086,008; 1.31e+22."""
    if number >= 10**12:
        return f"{number:.2e}"
    return f"{number:,}" if words.language is Language.ENGLISH else words.number(number)


def _decimal(value: float, places: int, words: Words = ENGLISH) -> str:
    """A number with ``places`` decimals, as the language writes it (English: 12.50)."""
    if words.language is Language.ENGLISH:
        return f"{value:.{places}f}"
    return format_decimal(value, "0." + "0" * places, locale=words.language.value)


def _duration(seconds: float, words: Words = ENGLISH) -> str:
    """A time in the unit that reads best: 40 s, 12 min, 3.5 h, 9 days, 2,000 years."""
    for unit, length in (("years", 365.25 * 86400), ("days", 86400), ("h", 3600), ("min", 60)):
        if seconds >= 2 * length:
            amount = seconds / length
            return _in_unit(unit, f"{amount:.3g}" if amount < 1e6 else f"{amount:.1e}", words)
    whole = f"{seconds:.0f}"
    return words.say("{amount} s", amount=whole)


def _in_unit(unit: str, amount: str, words: Words) -> str:
    if unit == "years":
        return words.say("{amount} years", amount=amount)
    if unit == "days":
        return words.say("{amount} days", amount=amount)
    if unit == "h":
        return words.say("{amount} h", amount=amount)
    return words.say("{amount} min", amount=amount)


def equity_json(result: EquityResult) -> dict[str, Any]:
    """The ``--json`` form of an equity result: rates as floats between 0 and 1."""
    players = []
    for player in result.players:
        entry: dict[str, Any] = {"hand": player.hand, "combinations": player.combinations}
        entry |= {field: float(getattr(player, field)) for field in FIGURES}
        if player.errors:
            entry["standard_errors"] = player.errors
        players.append(entry)
    return {"method": result.method, "samples": result.samples, "players": players}


def equity_table(result: EquityResult, words: Words = ENGLISH) -> list[str]:
    """The equity of each hand as a table, in ``words``' language."""
    say = words.say
    headers = [words.say_p("column", "hand"), say("equity"), say("high win"),
               say("high tie"), say("low win"), say("low tie"), say("scoop"),
               say("quarter"), say("3/4"), say("low poss.")]  # fmt: skip
    rows = []
    for player in result.players:
        figures = [player.equity, player.high_win, player.high_tie, player.low_win,
                   player.low_tie, player.scoop, player.quarter, player.three_quarter,
                   player.low_possible]  # fmt: skip
        hand = player.hand if player.combinations == 1 else f"{player.hand} ({player.combinations})"
        rows.append([hand, *(_decimal(100 * float(f), 2, words) + "%" for f in figures)])
    widths = [max(display_width(str(r[i])) for r in [headers, *rows]) for i in range(len(headers))]
    lines = [
        "  ".join(
            _pad(str(c), w, right=bool(i)) for i, (c, w) in enumerate(zip(r, widths, strict=True))
        )
        for r in [headers, *rows]
    ]
    if result.method == "exact":
        samples = _count(result.samples, words)
        lines.append(say("exact: every one of {count} boards", count=samples))
    else:
        worst = max(p.errors["equity"] for p in result.players)
        error = say(
            "standard error of equity at most {error}%", error=_decimal(100 * worst, 3, words)
        )
        samples = _count(result.samples, words)
        lines.append(say("Monte Carlo: {count} deals; {error}", count=samples, error=error))
    return lines


def _pad(text: str, width: int, right: bool) -> str:
    """A text padded with spaces to ``width`` columns, right-aligned or left."""
    space = " " * (width - display_width(text))
    return space + text if right else text + space


def _add_table_options(parser: argparse.ArgumentParser, default_seats: int, words: Words) -> None:
    say = words.say
    parser.add_argument(
        "--variant", default="o8", choices=VARIANT_IDS, help=say("game (default {game})", game="o8")
    )
    parser.add_argument("--structure", default="pot-limit", choices=STRUCTURES, help=say("betting"))
    parser.add_argument(
        "--stakes",
        help=say("limit and mixed: the bets S/2S (2/4); pot and no limit: the blinds (1/2)"),
    )
    parser.add_argument(
        "--seats", type=typed(_seats, words), default=default_seats, help=say("2 to 10")
    )
    parser.add_argument(
        "--buy-in", type=typed(_buy_in, words), help=say("chips each player sits down with")
    )
    parser.add_argument("--seed", type=int, help=say("shuffle reproducibly"))


def _seats(text: str, words: Words = ENGLISH) -> int:
    if not text.isdigit() or not 2 <= int(text) <= 10:
        raise argparse.ArgumentTypeError(
            words.say("a table has 2 to 10 seats, not {given}", given=text)
        )
    return int(text)


def _whole(text: str) -> int | None:
    """A command-line amount that must be a whole number above 0 (None: it is not)."""
    if not text.strip().isdecimal() or int(text) == 0:
        return None
    return int(text)


def _buy_in(text: str, words: Words = ENGLISH) -> int:
    amount = _whole(text)
    if amount is None:
        said = words.say("a buy-in is a whole number above 0, not {given}", given=repr(text))
        raise argparse.ArgumentTypeError(said)
    return amount


def _hand_count(text: str, words: Words = ENGLISH) -> int:
    amount = _whole(text)
    if amount is None:
        said = words.say(
            "the number of hands is a whole number above 0, not {given}", given=repr(text)
        )
        raise argparse.ArgumentTypeError(said)
    return amount


def _sample_count(text: str, words: Words = ENGLISH) -> int:
    amount = _whole(text)
    if amount is None:
        said = words.say(
            "the number of samples is a whole number above 0, not {given}", given=repr(text)
        )
        raise argparse.ArgumentTypeError(said)
    return amount


def _history_path(path: str, words: Words = ENGLISH) -> str:
    """A file to write: not a folder, in a folder that exists and may be written to."""
    say = words.say
    folder = os.path.dirname(path) or "."
    if not path:
        raise argparse.ArgumentTypeError(say("a file name is needed"))
    if os.path.isdir(path):
        raise argparse.ArgumentTypeError(say("{path} is a folder, not a file", path=path))
    if not os.path.isdir(folder):
        said = say("there is no folder {folder} to write {path} in", folder=folder, path=path)
        raise argparse.ArgumentTypeError(said)
    if not os.access(folder, os.W_OK):
        said = say("the folder {folder} cannot be written to", folder=folder)
        raise argparse.ArgumentTypeError(said)
    return path


def _cmd_serve(args: argparse.Namespace) -> int:
    # the server's packages load only to serve
    from splitpot.server.main import Transport, paced_options, serve

    origins = tuple(args.origin or ())
    transport = Transport(
        args.http_timeout, args.ws_ping, args.forwarded_allow_ips, args.loop, args.http
    )
    limits = {name: getattr(args, name) for name in LIMITS}
    return serve(
        args.host,
        args.port,
        args.db,
        args.bots,
        options=replace(paced_options(), **limits, link=args.link),
        origins=origins,
        redis=args.redis,
        url=args.url,
        transport=transport,
    )


def _add_serve(commands: Any, words: Words) -> None:
    say = words.say
    serve = commands.add_parser(
        "serve",
        words=words,
        help=say("run the card room: tables, players, a database (PROTOCOL.md)"),
        description=say(
            "Run the room: HTTP and WebSocket on HOST:PORT, every hand and chip in "
            "the database (SQLite in your data folder unless --db), migrations applied at start. "
            "SIGTERM or Ctrl-C lets hands in play finish, then exits 0."
        ),
    )
    serve.add_argument("--host", default="127.0.0.1", help=say("address to listen on"))
    serve.add_argument(
        "--port",
        type=typed(_port, words),
        default=8000,
        help=say("port (default {port})", port=8000),
    )
    serve.add_argument(
        "--db",
        default=None,
        help=say("SQLAlchemy URL, e.g. {example}", example="postgresql://u@h/db"),
    )
    serve.add_argument(
        "--bots",
        type=typed(_bots, words),
        default=0,
        help=say("open a public table where N bots wait (0 to 9)"),
    )
    serve.add_argument(
        "--origin",
        type=typed(_origin, words),
        action="append",
        metavar="URL",
        help=say(
            "another origin whose pages may open the room's WebSocket, e.g. "
            "https://poker.example.org (repeat for more; the room's own host is always allowed)"
        ),
    )
    serve.add_argument(
        "--redis",
        type=typed(_redis_url, words),
        metavar="URL",
        help=say(
            "join the room's other processes through Redis, e.g. redis://127.0.0.1:6379/0: "
            "all on one database (--db postgresql://...), each table run by one of them and "
            "any of them serving any player (docs/deploy.md)"
        ),
    )
    serve.add_argument(
        "--url",
        type=typed(_origin, words),
        metavar="URL",
        help=say(
            "where clients reach this process, told to them with the others' so they can "
            "move when one stops (default http://HOST:PORT); the room answers to its host, to "
            "the address a request came in on (and its loopback names) and to --origin's, no "
            "other"
        ),
    )
    serve.add_argument(
        "--http-timeout",
        type=typed(_seconds, words),
        default=10,
        metavar="SECONDS",
        help=say(
            "a connection that has not sent a request's whole head (its line and headers) "
            "this long after it opened or got its last answer is closed (default {seconds})",
            seconds=10,
        ),
    )
    serve.add_argument(
        "--ws-ping",
        type=typed(_seconds, words),
        default=20,
        metavar="SECONDS",
        help=say(
            "ping each WebSocket this often, and close one that has not answered a ping "
            "within as long again (default {seconds})",
            seconds=20,
        ),
    )
    serve.add_argument(
        "--link",
        type=typed(_link, words),
        default=("127.0.0.1", 0),
        metavar="HOST:PORT",
        help=say(
            "with --redis: where this process listens for the direct links of the room's "
            "other processes, which carry a command to its table's process and the frames "
            "back without Redis's two hops (default 127.0.0.1:0, a free port: processes on "
            "one machine; give an address the others reach, or off for Redis alone)"
        ),
    )
    serve.add_argument(
        "--forwarded-allow-ips",
        type=typed(_proxies, words),
        default=(),
        metavar="ADDRESSES",
        help=say(
            "the proxies in front (addresses or networks, comma-separated, e.g. 127.0.0.1,::1) "
            "whose X-Forwarded-For gives the client's address (default: none, every address "
            "is the connection's own)"
        ),
    )
    serve.add_argument(
        "--loop",
        choices=("uvloop", "asyncio"),
        default="uvloop",
        help=say("the event loop (default {loop}; docs/load.md measures both)", loop="uvloop"),
    )
    serve.add_argument(
        "--http",
        choices=("httptools", "h11"),
        default="httptools",
        help=say("the HTTP parser (default {http}; docs/load.md measures both)", http="httptools"),
    )
    for name, limit in LIMITS.items():  # docs/deploy.md "Limits"
        serve.add_argument(
            "--" + name.replace("_", "-"),
            type=typed(_limit_up_to(limit.most), words),
            default=limit.default,
            metavar="N",
            help=say(limit.help, default=limit.default),
        )
    serve.set_defaults(handler=_cmd_serve)


def _limit_up_to(most: int) -> Callable[[str, Words], int]:
    """A limit's value: a whole number from 0 (none allowed) to ``most``."""

    def limit(text: str, words: Words = ENGLISH) -> int:
        if not text.isdigit() or not 0 <= int(text) <= most:
            said = words.say(
                "a limit is a whole number from 0 to {most}, not {given}",
                most=most,
                given=repr(text),
            )
            raise argparse.ArgumentTypeError(said)
        return int(text)

    return limit


def _seconds(text: str, words: Words = ENGLISH) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 3600:
        said = words.say("a time-out is 1 to 3600 whole seconds, not {given}", given=repr(text))
        raise argparse.ArgumentTypeError(said)
    return int(text)


def _proxies(text: str, words: Words = ENGLISH) -> tuple[str, ...]:
    """Comma-separated IP addresses or networks (127.0.0.1, 10.0.0.0/8, ::1)."""
    proxies = tuple(part.strip() for part in text.split(","))
    for proxy in proxies:
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            said = words.say(
                "{given} in --forwarded-allow-ips is not an IP address or network",
                given=repr(proxy),
            )
            raise argparse.ArgumentTypeError(said) from None
    return proxies


def _redis_url(text: str, words: Words = ENGLISH) -> str:
    """A Redis URL: redis:// (or rediss:// with TLS) and a host."""
    parts = urlsplit(text)
    if parts.scheme not in ("redis", "rediss") or not parts.hostname:
        said = words.say(
            "a Redis URL is redis://host[:port][/db] (or rediss:// for TLS), not {given}",
            given=repr(text),
        )
        raise argparse.ArgumentTypeError(said)
    try:
        parts.port  # noqa: B018 (a port that is no number raises)
    except ValueError:
        said = words.say("{given} has a port that is not a number", given=repr(text))
        raise argparse.ArgumentTypeError(said) from None
    return text


def _link(text: str, words: Words = ENGLISH) -> tuple[str, int] | None:
    """Where the direct links are listened for: HOST:PORT (an IPv6 host in brackets), or
    off."""
    if text == "off":
        return None
    host, colon, port = text.rpartition(":")
    host = host.removeprefix("[").removesuffix("]")
    if not colon or not host:
        said = words.say("a link address is HOST:PORT (or off), not {given}", given=repr(text))
        raise argparse.ArgumentTypeError(said)
    if host in ("0.0.0.0", "::"):
        said = words.say(
            "--link is the address the other processes reach this one at, not {host}",
            host=host,
        )
        raise argparse.ArgumentTypeError(said)
    if not port.isdigit() or int(port) > 65535:
        said = words.say("the port in {given} is not a number from 0 to 65535", given=repr(text))
        raise argparse.ArgumentTypeError(said)
    return host, int(port)


def _origin(text: str, words: Words = ENGLISH) -> str:
    """A web origin: scheme and host (and port), nothing after."""
    parts = urlsplit(text)
    bare = not (parts.query or parts.fragment or "@" in parts.netloc)
    if parts.scheme not in ("http", "https") or not parts.netloc or parts.path not in ("", "/"):
        bare = False
    if not bare:
        said = words.say(
            "an origin is http(s)://host[:port] with nothing after, not {given}", given=repr(text)
        )
        raise argparse.ArgumentTypeError(said)
    return f"{parts.scheme}://{parts.netloc.lower()}"


def _port(text: str, words: Words = ENGLISH) -> int:
    if not text.isdigit() or not 1 <= int(text) <= 65535:
        said = words.say("a port is a number from 1 to 65535, not {given}", given=repr(text))
        raise argparse.ArgumentTypeError(said)
    return int(text)


def _bots(text: str, words: Words = ENGLISH) -> int:
    if not text.isdigit() or not 0 <= int(text) <= 9:
        said = words.say("bots is a number from 0 to 9, not {given}", given=repr(text))
        raise argparse.ArgumentTypeError(said)
    return int(text)


def build_parser(words: Words = ENGLISH) -> ArgumentParser:
    """The command line's parser, its help and usage errors in ``words``' language."""
    say = words.say
    parser = ArgumentParser(
        prog="splitpot",
        words=words,
        description=say("Omaha Hi/Lo poker: hand evaluation, showdowns and more."),
    )
    parser.add_argument(
        "--version",
        action="version",
        version=f"splitpot {__version__}",
        help=say("show program's version number and exit"),
    )
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    show = commands.add_parser(
        "showdown",
        words=words,
        help=say("best high and low of each hand on a board, and who wins what share"),
        description=say(
            "Each player's best high and low (exactly two hole cards and three "
            "board cards), the cards used, and each player's share of the pot."
        ),
    )
    add_lang(show, words)
    show.add_argument(
        "hands",
        nargs="+",
        metavar="HAND",
        help=say("hole cards, e.g. {example}", example="AdKd3s2s"),
    )
    show.add_argument(
        "--board",
        required=True,
        help=say("3 to 5 board cards, e.g. {example}", example="Jd4d3cQd5h"),
    )
    show.add_argument(
        "--variant", default="o8", choices=VARIANT_IDS, help=say("game (default {game})", game="o8")
    )
    show.add_argument("--json", action="store_true", help=say("print one JSON object"))
    show.set_defaults(handler=_cmd_showdown)
    _add_serve(commands, words)

    check = commands.add_parser(
        "verify",
        words=words,
        help=say("check a hand's fair deal from its record"),
        description=verify.description(words),
    )
    add_lang(check, words)
    verify.configure(check, words)
    check.set_defaults(handler=verify.run)

    replay = commands.add_parser(
        "replay",
        words=words,
        help=say("replay hand histories through the rules engine"),
        description=say(
            "Replay every hand of the files (splitpot JSON, PHH or PokerStars text, "
            "told apart by content) and print its pots and who won what with which hand. "
            "Exit status: 1 where a checked hand differs, 2 where a file cannot be read or "
            "holds no hand, or where no hand of a game splitpot plays was replayed."
        ),
    )
    add_lang(replay, words)
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.add_argument(
        "--check", action="store_true", help=say("compare with what the files record")
    )
    replay.add_argument("--json", action="store_true", help=say("print one JSON object"))
    replay.set_defaults(handler=_cmd_replay)

    play = commands.add_parser(
        "play",
        words=words,
        help=say("play Omaha Hi/Lo in the terminal, against bots or at a room"),
        description=say(
            "You against bots at one table, or with --server at a table of a room "
            "(splitpot serve): a guest there, you pick a table from the lobby (or --table), sit "
            "down and play with the others. The guest is kept in your data folder (or "
            "$SPLITPOT_CLIENT_DATA), one for each room and name: the next run at that room "
            "under that name is the same player (--new for a new guest). In a terminal: a "
            "full-screen table. Otherwise (or with --lines) a line-by-line game a script can "
            "drive: it prints the table's events as they come and reads one command a line "
            "when the game waits for you (a turn is a line 'Your move: ...'): fold, check, "
            "call, bet N (the first bet of a round), raise N (to a total of N), allin, show, "
            "muck, say TEXT, last [N] (the last hand, or N hands back), help, quit (in a hand: "
            "asked twice, it folds); at a room also the table's number, sit [SEAT [BUYIN]], "
            "sit out, sit in, top up [N] (or rebuy [N]: chips between your hands, by default "
            "up to the most a buy-in takes). A bad setting exits with status 2; a room out of "
            "reach, or a connection lost for good, with 1 and one line."
        ),
    )
    add_lang(play, words)
    _add_table_options(play, 6, words)
    play.add_argument(
        "--name", default="Hero", help=say("your name at the table (default {name})", name="Hero")
    )
    play.add_argument(
        "--server",
        metavar="URL",
        help=say("play at the room at URL ({example})", example="http://127.0.0.1:8000"),
    )
    play.add_argument("--table", metavar="ID", help=say("with --server: this table, not the lobby"))
    play.add_argument(
        "--new",
        action="store_true",
        help=say(
            "with --server: play as a new guest, kept for the next runs in the old one's place"
        ),
    )
    play.add_argument(
        "--invite",
        metavar="TOKEN",
        help=say("with --table or --tournament: the invite of a private table or tournament"),
    )
    play.add_argument(
        "--tournament",
        metavar="ID",
        help=say(
            "with --server: enter this tournament (registered if not yet: its buy-in from "
            "your balance) and play it to the end, at the tables it seats you at "
            "(splitpot tournaments lists them); 'lobby' tells its standings"
        ),
    )
    play.add_argument(
        "--lines", "--plain", dest="plain", action="store_true", help=say("the line-by-line game")
    )
    play.add_argument(
        "--hands", type=typed(_hand_count, words), help=say("stop after this many hands")
    )
    play.add_argument(
        "--two-colour", action="store_true", help=say("cards in two colours (default: four)")
    )
    play.add_argument(
        "--option",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help=say(
            "offline: a home game's option, as the room's table settings name it "
            "(run_it_twice=true, bomb_pot=2, double_board=bomb-pots, straddle=true, "
            "rabbit_hunt=true, kill=half, ante=1); again for each"
        ),
    )
    play.set_defaults(handler=_cmd_play)

    listed = commands.add_parser(
        "tournaments",
        words=words,
        help=say("the tournaments of a room, to enter with splitpot play --tournament ID"),
        description=say(
            "The public tournaments of the room at URL, one a line: id, name, kind and "
            "status, game, buy-in and fee, entrants. Exit status 1 when the room is out of "
            "reach."
        ),
    )
    add_lang(listed, words)
    listed.add_argument(
        "--server",
        metavar="URL",
        required=True,
        help=say("the room at URL ({example})", example="http://127.0.0.1:8000"),
    )
    listed.add_argument("--finished", action="store_true", help=say("the ended ones too"))
    listed.add_argument("--json", action="store_true", help=say("print one JSON object"))
    listed.set_defaults(handler=_cmd_tournaments)

    sim = commands.add_parser(
        "simulate",
        words=words,
        help=say("bots play hands at one table"),
        description=say(
            "Bots play N hands at one table (a bot that goes broke buys in again); "
            "prints each seat's result, hands per second, and the chips before and after."
        ),
    )
    add_lang(sim, words)
    sim.add_argument(
        "--hands", type=typed(_hand_count, words), required=True, help=say("how many hands")
    )
    _add_table_options(sim, 6, words)
    sim.add_argument(
        "--bots", default="sensible,random", help=say("bot kinds in seat order, repeated")
    )
    sim.add_argument(
        "--history-out",
        type=typed(_history_path, words),
        metavar="FILE",
        help=say(
            "write the hands as PokerStars text, as they are played (Ctrl-C keeps those "
            "played and says how many)"
        ),
    )
    sim.add_argument("--json", action="store_true", help=say("print one JSON object"))
    sim.set_defaults(handler=_cmd_simulate)

    eq = commands.add_parser(
        "equity",
        words=words,
        help=say("hi/lo odds of hands or ranges"),
        description=say(
            "Each player's equity (expected share of the pot), high and low win and "
            "tie rates, scoops, quarters and three quarters. HAND is a hand (AsKs2d3d), a range "
            "(AA**, A2**:$ds, RRON) or * for any hand. Exact enumeration where it is quick, "
            "Monte Carlo (with its standard error) otherwise. An --exact job that is not quick "
            "says its size and its time (one deal timed here) before it starts; one estimated "
            "over a minute runs only with --force. A progress bar shows on long work."
        ),
    )
    add_lang(eq, words)
    eq.add_argument("hands", nargs="+", metavar="HAND")
    eq.add_argument("--board", default="", help=say("0, 3, 4 or 5 board cards"))
    eq.add_argument("--dead", default="", help=say("cards out of play"))
    eq.add_argument(
        "--variant", default="o8", choices=VARIANT_IDS, help=say("game (default {game})", game="o8")
    )
    how = eq.add_mutually_exclusive_group()
    how.add_argument("--exact", action="store_true", help=say("enumerate every board"))
    eq.add_argument(
        "--force", action="store_true", help=say("with --exact: run even a job of over a minute")
    )
    how.add_argument(
        "--samples", type=typed(_sample_count, words), help=say("Monte Carlo with this many deals")
    )
    eq.add_argument("--seed", type=int, help=say("Monte Carlo seed"))
    eq.add_argument("--json", action="store_true", help=say("print one JSON object"))
    eq.set_defaults(handler=_cmd_equity)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(words(asked_language(given), TERMINAL))
    args = parser.parse_args(given)
    args.words = words(getattr(args, "lang", None) or locale_language(), TERMINAL)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.handler(args)
    except BrokenPipeError:  # the reader went away (| head): stop quietly
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # Ctrl-C: one line and status 130, never a traceback
        said = args.words.say("splitpot {command}: interrupted", command=args.command)
        print(said, file=sys.stderr)
        return EXIT_INTERRUPTED
    except (CardError, ValueError) as error:
        said = args.words.say(
            "splitpot {command}: error: {reason}", command=args.command, reason=error
        )
        print(said, file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":
    sys.exit(main())
