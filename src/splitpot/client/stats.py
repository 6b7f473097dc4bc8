"""The terminal's ``stats`` command: a table's hi/lo statistics (docs/protocol.md
"Statistics", ``GET /api/tables/{id}/stats``) as a table of text, one row per player.
Every figure is the room's; this only lays them out."""

from __future__ import annotations

from typing import Any

from splitpot.i18n import ENGLISH, Words, marked

SCOPES = ("session", "table")
# each column: the figure's key in the answer, and its heading (said in the reader's words)
COLUMNS = (
    ("hands", marked("Hands")),
    ("vpip", marked("VPIP")),
    ("pfr", marked("PFR")),
    ("three_bet", marked("3-bet")),
    ("wtsd", marked("WTSD")),
    ("wsd", marked("W$SD")),
    ("scoops", marked("Scoop")),
    ("high_halves", marked("High")),
    ("low_halves", marked("Low")),
    ("quartered", marked("Quart")),
    ("low_made", marked("LowMade")),
    ("net", marked("Net")),
    ("net_bb", marked("Net bb")),
)


def stats_scope(words: list[str], said: Words = ENGLISH) -> str:
    """The scope ``stats [session|table]`` asks for, else ValueError saying what it takes."""
    if not words:
        return SCOPES[0]
    if len(words) == 1 and words[0] in SCOPES:
        return words[0]
    given = repr(" ".join(words))
    raise ValueError(
        said.say("stats takes 'session' or 'table', like 'stats table', not {given}", given=given)
    )


def stats_lines(answer: dict[str, Any], words: Words = ENGLISH) -> list[str]:
    """The answer's figures as lines: a heading, then a row per player (the caller
    marked with ``*``), columns aligned."""
    say = words.say
    scope = answer["scope"]
    read = answer["hands_read"]
    if scope == "session":
        title = words.say_n("{count} hand this session", "{count} hands this session", read)
    else:
        title = words.say_n("{count} hand at this table", "{count} hands at this table", read)
    lines = [title]
    if answer["capped"]:
        lines.append(say("Only the newest {most} hands are counted.", most=answer["most"]))
    if not answer["figures"]:
        return lines
    names = {row["player"]: row["name"] for row in answer["players"]}
    rows = [[say("Player"), *(say(heading) for _, heading in COLUMNS)]]
    for player, figures in answer["figures"].items():
        mark = "*" if player == answer["you"] else ""
        rows.append(
            [mark + names.get(player, player), *(_cell(figures[k], words) for k, _ in COLUMNS)]
        )
    widths = [max(len(row[at]) for row in rows) for at in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].ljust(widths[0])] + [
            c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True)
        ]
        lines.append("  ".join(cells).rstrip())
    return lines


def _cell(value: Any, words: Words) -> str:
    """A figure as a cell: a count, a percentage ("-" without a chance), or big blinds."""
    if isinstance(value, dict):
        percent = value["percent"]
        return "-" if percent is None else words.say("{percent}%", percent=round(percent))
    if isinstance(value, float):
        return f"{value:+.1f}"
    return words.number(value) if isinstance(value, int) and value >= 0 else str(value)
