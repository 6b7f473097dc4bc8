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
