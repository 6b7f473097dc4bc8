"""The statistics (``history.stats``) against a calculation of this test's own, over
hands random bots played on the room's own table host with seeded decks: plain hands,
run it twice, double boards and bomb pots (RULES.md 7). The test reads each stored
record's JSON by another route: the betting before the flop followed chip by chip from
its posts and actions, each low worked out by brute force from the cards, the awards and
pots of its result; the engine and the code under test are not called."""

from __future__ import annotations

from collections import defaultdict
from fractions import Fraction
from functools import cache
from itertools import combinations
from typing import Any

import pytest
from stats_helpers import played_records, stats_hands

from splitpot.history.stats import PlayerFigures, Ratio, statistics

Record = dict[str, Any]
LIVE_POSTS = {"small blind", "big blind", "straddle", "kill blind", "live post"}
LOW_VALUES = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8}
TABLES = {
    "plain": {},
    "run it twice": {"run_it_twice": True},
    "double boards and bomb pots": {"double_board": "bomb-pots", "bomb_pot": 2, "bomb_every": 3},
    "double boards always": {"double_board": "always"},
}


def cards(text: str) -> list[str]:
    return [text[at : at + 2] for at in range(0, len(text), 2)]


def best_low(hole: list[str], board: list[str]) -> tuple[int, ...] | None:
    """The best eight-or-better low of two hole cards and three board cards, highest
    card first (a lower tuple is a better low), by trying every pair and every three."""
    found = [
        low
        for two in combinations(hole, 2)
        for three in combinations(board, 3)
        if len(low := tuple(sorted({LOW_VALUES.get(c[0], 99) for c in two + three}, reverse=True)))
        == 5
        and low[0] <= 8
    ]
    return min(found, default=None)


def low_possible(board: list[str]) -> bool:
    return len({c[0] for c in board if c[0] in LOW_VALUES}) >= 3


def preflop(record: Record) -> list[tuple[int, str, bool]] | None:
    """The actions before the flop as (player, kind, whether it raised), followed by the
    chips each player has in front of them; None for a bomb pot (no betting then)."""
    if any(post["kind"] == "bomb" for post in record["posts"]):
        return None
    stacks = [player["stack"] for player in record["players"]]
    bets = [0] * len(stacks)
    for post in record["posts"]:
        stacks[post["player"]] -= post["amount"]
        bets[post["player"]] += post["amount"] if post["kind"] in LIVE_POSTS else 0
    level, folded, acted, done = max(bets), set(), set(), []

    def over() -> bool:
        still = [p for p in range(len(stacks)) if p not in folded]
        able = [p for p in still if stacks[p] > 0]
        if len(still) <= 1:
            return True
        if len(able) <= 1:
            return all(bets[p] >= level for p in able)
        return all(p in acted and bets[p] == level for p in able)

    for entry in record["actions"]:
        if over():
            break
        player, (kind, *amount) = entry["player"], entry["action"].split()
        to = bets[player]
        if kind == "call":
            to = min(level, bets[player] + stacks[player])
        elif kind in ("bet", "raise"):
            to = int(amount[0])
        elif kind == "allin":
            to = bets[player] + stacks[player]
        elif kind == "fold":
            folded.add(player)
        raised = to > level
        stacks[player] -= to - bets[player]
        bets[player] = to
        if raised:
            level, acted = to, set()
        acted.add(player)
        done.append((player, kind, raised))
    return done


def expected(records: list[Record], viewer: int | None) -> dict[int, PlayerFigures]:
    """Each player's figures, by this test's own reading of the records."""
    totals: dict[int, PlayerFigures] = defaultdict(PlayerFigures)
    for record in records:
        ids, result = record["player_ids"], record["result"]
        holes = [cards(hole) for hole in record["holes"]]
        boards = [cards(b) for b in record.get("boards", [record["board"]])]
        folded = {a["player"] for a in record["actions"] if a["action"] == "fold"}
        showdown = len(ids) - len(folded) >= 2
        actions = preflop(record)
        before_flop_folds = {p for p, kind, _ in actions or () if kind == "fold"}
        flop_seen = len(ids) - len(before_flop_folds) >= 2
        raises, chances = 0, {}
        for player, _, raised in actions or ():
            if raises == 1 and player not in chances:
                chances[player] = raised
            raises += raised
        whole: dict[int, int] = defaultdict(int)
        for award in result["awards"]:
            whole[award["pot"]] += award["amount"]
        contested = {i for i, pot in enumerate(result["pots"]) if len(pot["eligible"]) > 1}
        sharers: dict[tuple[int, int, str], set[int]] = defaultdict(set)
        for award in result["awards"]:
            sharers[award["pot"], award["board_number"], award["share"]].add(award["player"])
        for p, player_id in enumerate(ids):
            theirs = [a for a in result["awards"] if a["player"] == p and a["pot"] in contested]
            at_showdown = showdown and p not in folded
            won = at_showdown and any(a["amount"] for a in result["awards"] if a["player"] == p)
            scooped = won and all(
                sum(a["amount"] for a in theirs if a["pot"] == i) == whole[i]
                for i in contested
                if p in result["pots"][i]["eligible"]
            )
            lows = [
                [best_low(holes[q], board) for q in range(len(ids)) if q not in folded]
                for board in boards
            ]
            high_parts = {
                (a["pot"], a["board_number"]) for a in theirs if a["share"] in ("high", "whole")
            }
            low_parts = {
                (a["pot"], a["board_number"])
                for a in theirs
                if a["share"] == "low"
                or (
                    a["share"] == "whole"
                    and (mine := best_low(holes[p], boards[a["board_number"] - 1])) is not None
                    and mine == min(low for low in lows[a["board_number"] - 1] if low is not None)
                )
            }
            quartered = {
                (pot, board)
                for (pot, board, share), players in sharers.items()
                if share != "whole" and pot in contested and p in players and len(players) > 1
            }
            known = p not in folded and (at_showdown or player_id == viewer)
            chances_for_low = [b for b in boards if known and len(b) == 5 and low_possible(b)]
            net = result["stacks"][p] - record["players"][p]["stack"]
            kinds = {kind for q, kind, _ in actions or () if q == p}
            totals[player_id] += PlayerFigures(
                hands=1,
                vpip=Ratio(int(bool(kinds & {"call", "bet", "raise", "allin"})), 1)
                if actions is not None
                else Ratio(),
                pfr=Ratio(int(any(r for q, _, r in actions if q == p)), 1)
                if actions is not None
                else Ratio(),
                three_bet=Ratio(int(chances.get(p, False)), int(p in chances)),
                wtsd=Ratio(int(at_showdown), 1)
                if flop_seen and p not in before_flop_folds
                else Ratio(),
                wsd=Ratio(int(won), 1) if at_showdown else Ratio(),
                scoops=Ratio(int(scooped), 1) if won else Ratio(),
                high_halves=len(high_parts) if at_showdown else 0,
                low_halves=len(low_parts) if at_showdown else 0,
                quartered=len(quartered),
                low_made=Ratio(
                    sum(best_low(holes[p], b) is not None for b in chances_for_low),
                    len(chances_for_low),
                ),
                net=net,
                net_bb=Fraction(net, record["game"]["big_blind"]),
            )
    return dict(totals)


@cache
def played(table: str) -> list[Record]:
    """24 hands of four random bots at the table of these options, played once."""
    return played_records(24, seed=11, players=4, **TABLES[table])


@pytest.mark.parametrize("table", TABLES)
def test_the_figures_agree_with_an_independent_reading_of_the_records(table: str) -> None:
    records = played(table)
    for viewer in (None, 1, 3):
        assert dict(statistics(stats_hands(records), viewer).players) == expected(records, viewer)


def test_the_hands_cover_what_the_figures_are_about() -> None:
    """The seeded hands hold what the comparison is for: two runs, two boards, bomb
    pots, scoops, split halves and lows made."""
    assert any(r.get("runs") == 2 for r in played("run it twice"))
    assert any("boards" in r for r in played("double boards always"))
    assert any(
        p["kind"] == "bomb" for r in played("double boards and bomb pots") for p in r["posts"]
    )
    figures = [f for table in TABLES for f in expected(played(table), None).values()]
    assert sum(f.scoops.made for f in figures) and sum(f.low_made.made for f in figures)
    assert sum(f.low_halves for f in figures) and sum(f.three_bet.made for f in figures)
