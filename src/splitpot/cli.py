"""The ``splitpot`` command line: a thin shell over the library."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

from splitpot import __version__
from splitpot.cards import CardError, format_cards
from splitpot.evaluate import HighHand, LowHand, Showdown, Variant, showdown
from splitpot.history import HandRecord, HistoryError
from splitpot.history.files import read_history
from splitpot.history.replay import replay_record
from splitpot.history.report import award_lines

VARIANT_IDS = tuple(variant.value for variant in Variant)
EXIT_BAD_INPUT = 2


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


def _low_words(low: LowHand) -> str:
    return f"{low.name} ({low.nickname})" if low.nickname else low.name


def showdown_text(result: Showdown) -> str:
    """A showdown as a person reads it: each hand, then who wins which half."""
    lines = [f"{result.variant.title}; board {format_cards(result.board, ' ')}"]
    for number, player in enumerate(result.players, start=1):
        lines.append(f"Player {number}: {format_cards(player.hole, ' ')}")
        high = player.high
        lines.append(f"  high: {high.name} ({format_cards(high.cards, ' ')})")
        if result.variant.has_low:
            low = player.low
            words = f"{_low_words(low)} ({format_cards(low.cards, ' ')})" if low else "no low"
            lines.append(f"  low:  {words}")
        lines.append(f"  share of the pot: {_share_text(player.share)}")
    names = [f"player {index + 1}" for index in range(len(result.players))]
    top_high = result.players[result.high_winners[0]].high
    half = "the high half" if result.low_winners else "the whole pot"
    winners = _join(names, result.high_winners)
    lines.append(f"{winners} {_verb(result.high_winners)} {half} with {top_high.name}")
    if result.low_winners:
        top_low = result.players[result.low_winners[0]].low
        assert top_low is not None
        lines.append(
            f"{_join(names, result.low_winners)} {_verb(result.low_winners)} "
            f"the low half with {_low_words(top_low)}"
        )
    elif result.variant.has_low:
        lines.append("No low hand qualified")
    return "\n".join(lines)


def _join(names: Sequence[str], indices: Sequence[int]) -> str:
    chosen = [names[index] for index in indices]
    text = ", ".join(chosen[:-1]) + " and " + chosen[-1] if len(chosen) > 1 else chosen[0]
    return text[0].upper() + text[1:]


def _verb(indices: Sequence[int]) -> str:
    return "split" if len(indices) > 1 else "wins"


def _cmd_showdown(args: argparse.Namespace) -> int:
    result = showdown(args.variant, args.hands, args.board)
    if args.json:
        print(json.dumps(showdown_json(result)))
    else:
        print(showdown_text(result))
    return 0


def _replay_hand(record: HandRecord, check: bool) -> tuple[dict[str, Any], list[str]]:
    """The JSON entry and the text lines of one replayed hand."""
    names = record.names
    title = f"Hand {record.id} ({record.game})"
    try:
        replayed = replay_record(record)
    except HistoryError as error:
        entry: dict[str, Any] = {"id": record.id, "game": record.game}
        entry["agrees"] = False if check else None
        entry |= {"error": str(error), "pots": [], "collected": {}, "finishing_stacks": None}
        return entry, [title, f"  cannot be replayed under the rules: {error}"]
    result = replayed.hand.result
    assert result is not None
    has_low = record.config.variant.has_low
    lines = [title]
    lines += [
        "  " + line for line in award_lines(result, names, record.unit, record.currency, has_low)
    ]
    agrees = replayed.agrees if check else None
    if check and agrees is None:
        lines.append("  the file records no result to check")
    elif check and agrees:
        lines.append("  agrees with the file")
    for difference in replayed.differences if check else ():
        lines.append(
            f"  DIFFERS: {difference.what}: the file says {difference.file}, "
            f"the rules give {difference.rules}"
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


def _cmd_replay(args: argparse.Namespace) -> int:
    entries: list[dict[str, Any]] = []
    status = 0
    for path in args.files:
        try:
            history = read_history(path)
        except (OSError, HistoryError) as error:
            print(f"splitpot replay: {path}: {error}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        if not args.json:
            print(f"{path}: {len(history.hands)} hands ({history.format})")
        for record in history.hands:
            entry, lines = _replay_hand(record, args.check)
            entries.append(entry)
            if entry["agrees"] is False and status == 0:
                status = 1
            if not args.json:
                print("\n".join(lines))
        for problem in history.unreadable:
            what = "skipped" if problem.skipped else "unreadable"
            if not args.json:
                print(f"Hand {problem.hand_id} (line {problem.line}) {what}: {problem.reason}")
    if args.json:
        print(json.dumps({"hands": entries}))
    elif args.check:
        differing = sum(entry["agrees"] is False for entry in entries)
        print(f"{len(entries) - differing} of {len(entries)} hands agree with their files")
    return status


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="splitpot",
        description="Omaha Hi/Lo poker: hand evaluation, showdowns and more.",
    )
    parser.add_argument("--version", action="version", version=f"splitpot {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    show = commands.add_parser(
        "showdown",
        help="best high and low of each hand on a board, and who wins what share",
        description="Each player's best high and low (exactly two hole cards and three "
        "board cards), the cards used, and each player's share of the pot.",
    )
    show.add_argument("hands", nargs="+", metavar="HAND", help="hole cards, e.g. AdKd3s2s")
    show.add_argument("--board", required=True, help="3 to 5 board cards, e.g. Jd4d3cQd5h")
    show.add_argument("--variant", default="o8", choices=VARIANT_IDS, help="game (default o8)")
    show.add_argument("--json", action="store_true", help="print one JSON object")
    show.set_defaults(handler=_cmd_showdown)

    replay = commands.add_parser(
        "replay",
        help="replay hand histories through the rules engine",
        description="Replay every hand of the files (splitpot JSON, PHH or PokerStars text, "
        "told apart by content) and print its pots and who won what with which hand. "
        "Exit status: 1 where a checked hand differs, 2 where a file cannot be read.",
    )
    replay.add_argument("files", nargs="+", metavar="FILE")
    replay.add_argument("--check", action="store_true", help="compare with what the files record")
    replay.add_argument("--json", action="store_true", help="print one JSON object")
    replay.set_defaults(handler=_cmd_replay)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        code: int = args.handler(args)
    except (CardError, ValueError) as error:
        print(f"splitpot {args.command}: error: {error}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


if __name__ == "__main__":
    sys.exit(main())
