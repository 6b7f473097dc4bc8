"""Hand histories of the home game's modes (RULES.md 7, issue 23): hands dealt by a real
table from fixed decks in each mode (a board run twice or once, a bomb pot on one board
and on two, a straddle, antes, a kill pot) are written as PokerStars text, splitpot JSON
and PHH, read back, and replayed to the same stacks and the same awards, board by board;
where a format cannot say the mode, its export refuses the hand by name."""

from __future__ import annotations

import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path

import pytest

from splitpot.cards import Card, Deck, parse_cards
from splitpot.cli import main
from splitpot.engine import Action, Hand, arrange_deck
from splitpot.history import HandRecord, HistoryError
from splitpot.history.ohh import ohh_document
from splitpot.history.phh import read_phh, write_phh
from splitpot.history.pokerstars import read_pokerstars, write_pokerstars
from splitpot.history.replay import replay_record
from splitpot.history.splitpot_json import dumps, from_json, to_json
from splitpot.history.table_log import record_of
from splitpot.rules import FixedLimit, NoLimit, PotLimit, Variant
from splitpot.table import DoubleBoard, Kill, Straddle, Table, TableConfig

NAMES = ("Ann", "Bob", "Cy", "Dan")
DRAW = parse_cards("As 2c 2d 3c")  # Ann draws the button
STARTED = datetime(2026, 3, 1, 20, 30, tzinfo=UTC)
Awards = list[tuple[int, int, str, str, int]]  # pot, board, share, name, chips


def seated(config: TableConfig, stacks: list[int]) -> Table:
    table = Table(config)
    for seat, chips in enumerate(stacks):
        table.sit(seat, NAMES[seat], chips)
    return table


def stacked(holes: list[str], rest: str) -> list[Card]:
    """A deck dealing ``holes`` (seat by seat, the button on seat 1), then ``rest`` in
    order (burns included), then the unused cards of a seeded deck."""
    hands = [parse_cards(cards) for cards in holes]
    dealt = arrange_deck(hands, (), 0, len(hands[0]))[: len(hands) * len(hands[0])]
    deck = [card for card in dealt if card is not None] + list(parse_cards(rest))
    return deck + [card for card in Deck(0).cards if card not in deck]


def play(table: Table, *actions: str) -> None:
    """Each action by the seat to act."""
    for text in actions:
        seat = table.seat_to_act
        assert seat is not None
        table.act(seat, Action.parse(text))


def play_out(table: Table, run_twice: bool = True) -> None:
    """Check or call to the end, every hand shown; asked to run it twice, each answers
    ``run_twice``."""
    while table.hand is not None:
        if table.run_it_seats:
            for asked in table.run_it_seats:  # a "no" ends the question
                if asked in table.run_it_seats:
                    table.answer_run_it(asked, run_twice)
            continue
        seat = table.seat_to_act
        assert seat is not None
        legal = table.hand.hand.legal_actions()
        if legal.show:
            table.act(seat, Action.show())
        else:
            table.act(seat, Action.check() if legal.check else Action.call())


# ------------------------------------------------------------------ the hands


RUN_IT = TableConfig(Variant.O8, PotLimit(1, 2), seats=4, min_buy_in=1, run_it_twice=True)


def run_twice_three_ways() -> Table:
    """Ann all in for 6, Bob for 14, Cy covers: a main pot of 18 and a side pot of 16, each
    cut in two for the two runs of the whole board."""
    table = seated(RUN_IT, [6, 14, 100])
    table.deal(Deck(5).cards, draw=DRAW[:3])
    play(table, "raise 6", "raise 14", "call")
    play_out(table)
    return table


def all_in_on_the_flop(twice: bool) -> Table:
    """Heads-up, Ann all in for 10 on the flop, raising Bob's bet: the turn and the river
    run twice (or once, the two declining)."""
    table = seated(RUN_IT, [10, 100])
    deck = stacked(["As2sKdKc", "Ah3hQdQc"], "2d Kh7c4d 2h 5c 3c Jd 3d 6h 4h 5h")
    table.deal(deck, draw=DRAW[:2])
    play(table, "call", "check", "bet 4", "raise 8", "call")
    play_out(table, run_twice=twice)
    return table


def bomb_pot(double: DoubleBoard, *flop: str) -> Table:
    """Hand 1 gives Ann the button; the host calls a bomb pot of two big blinds for hand
    2 (on two boards with ``DoubleBoard.BOMB_POTS``): the ``flop`` actions, then checked
    down."""
    config = TableConfig(
        Variant.O8, PotLimit(1, 2), seats=4, min_buy_in=1, bomb_pot=2, double_board=double
    )
    table = seated(config, [100, 100, 100])
    table.deal(Deck(1).cards, draw=DRAW[:3])
    play(table, "fold", "fold")
    table.call_bomb_pot()
    table.deal(Deck(7).cards)
    play(table, *flop)
    play_out(table)
    return table


def straddle() -> Table:
    """Dan straddles 4 left of the big blind; Ann raises to 10, Bob folds, Cy and Dan
    call; checked down."""
    config = TableConfig(Variant.O8, NoLimit(1, 2), seats=4, min_buy_in=1, straddle=True)
    table = seated(config, [100] * 4)
    table.choose_straddle(3, Straddle.NEXT)
    table.deal(Deck(8).cards, draw=DRAW)
    play(table, "raise 10", "fold", "call")
    play_out(table)
    return table


def antes() -> Table:
    config = TableConfig(Variant.O8, PotLimit(1, 2), seats=4, min_buy_in=1, ante=1)
    table = seated(config, [100] * 3)
    table.deal(Deck(9).cards, draw=DRAW[:3])
    play_out(table)
    return table


def kill_pot() -> Table:
    """Bob scoops 10 (the kill size is 6): hand 2 is a half kill, Bob's kill blind 3 and
    the bets 3/6, checked down."""
    config = TableConfig(
        Variant.O8, FixedLimit(2, 4), seats=4, min_buy_in=1, kill=Kill(full=False, size=6)
    )
    table = seated(config, [100] * 3)
    table.deal(Deck(3).cards, draw=DRAW[:3])
    play(table, "raise 4", "call", "fold", "bet 2", "fold")
    table.deal(Deck(4).cards)
    play_out(table)
    return table


def last(table: Table) -> tuple[HandRecord, Hand]:
    played = table.history[-1]
    return record_of(played), played.hand


HANDS: dict[str, Callable[[], Table]] = {
    "run twice, three ways": run_twice_three_ways,
    "run twice from the flop": lambda: all_in_on_the_flop(True),
    "run once, declined": lambda: all_in_on_the_flop(False),
    "bomb pot on two boards": lambda: bomb_pot(DoubleBoard.BOMB_POTS),
    "bomb pot on two boards won on the flop": lambda: bomb_pot(
        DoubleBoard.BOMB_POTS, "bet 6", "fold", "fold"
    ),
    "bomb pot": lambda: bomb_pot(DoubleBoard.OFF),
    "straddle": straddle,
    "antes": antes,
    "kill pot": kill_pot,
}


# ----------------------------------------------------------- read back, replayed


def pokerstars_back(record: HandRecord, hand: Hand) -> HandRecord:
    hands, problems = read_pokerstars(write_pokerstars(record, hand))
    assert problems == []
    (read,) = hands
    return read


def json_back(record: HandRecord, hand: Hand) -> HandRecord:
    return from_json(json.loads(dumps(to_json(record, hand))))


def phh_back(record: HandRecord, hand: Hand) -> HandRecord:
    return read_phh(write_phh(record, hand.stacks))


FORMATS = {"pokerstars": pokerstars_back, "json": json_back, "phh": phh_back}
# PHH has one board and preflop betting (docs/history.md)
PHH_REFUSES = {
    "run twice, three ways": "PHH cannot say a board run twice: hand 1",
    "run twice from the flop": "PHH cannot say a board run twice: hand 1",
    "bomb pot on two boards": "PHH cannot say a double board: hand 2",
    "bomb pot on two boards won on the flop": "PHH cannot say a double board: hand 2",
    "bomb pot": "PHH cannot say a bomb pot: hand 2",
}


def outcome(names: tuple[str, ...], hand: Hand) -> tuple[dict[str, int], Awards]:
    """Each player's stack at the end, and every award, by name (PHH orders the players
    from the button)."""
    result = hand.result
    assert result is not None
    stacks = dict(zip(names, result.stacks, strict=True))
    awards = sorted(
        (a.pot, a.board, a.share.value, names[a.player], a.amount) for a in result.awards
    )
    return stacks, awards


@pytest.mark.parametrize("format", FORMATS)
@pytest.mark.parametrize("name", HANDS)
def test_each_mode_read_back_replays_to_the_same_stacks_and_awards(name: str, format: str) -> None:
    record, hand = last(HANDS[name]())
    if format == "phh" and name in PHH_REFUSES:
        with pytest.raises(HistoryError, match=f"^{PHH_REFUSES[name]}$"):
            write_phh(record, hand.stacks)
        return
    read = FORMATS[format](record, hand)
    replayed = replay_record(read)
    assert replayed.agrees is not False, replayed.differences
    assert outcome(read.names, replayed.hand) == outcome(record.names, hand)
    assert replayed.hand.boards == hand.boards
    assert [p.kind for p in sorted(read.posts, key=lambda p: read.names[p.player])] == [
        p.kind for p in sorted(record.posts, key=lambda p: record.names[p.player])
    ]


def test_two_runs_cut_each_pot_in_two_and_split_each_part_on_its_run() -> None:
    """The main pot of 18 is 9 a run, the side pot of 16 is 8 a run: Cy's flush scoops
    both pots of the first run; on the second, Ann's eights full win the main pot's high
    half and Bob's aces the side pot's, Cy's 6-low both lows."""
    record, hand = last(run_twice_three_ways())
    assert record.runs == 2 and len(record.second_board) == 5
    assert outcome(record.names, hand)[1] == [
        (0, 0, "whole", "Cy", 9),
        (0, 1, "high", "Ann", 5),
        (0, 1, "low", "Cy", 4),
        (1, 0, "whole", "Cy", 8),
        (1, 1, "high", "Bob", 4),
        (1, 1, "low", "Cy", 4),
    ]


def test_pokerstars_text_of_a_board_run_twice_from_the_flop() -> None:
    """As PokerStars prints it (the corpus hand 134782498345): the flop once, then each
    run's turn and river named FIRST and SECOND with the cards before them; a showdown a
    run at a time, each hand's value on that run; the summary's two boards and each shown
    hand's outcome run by run."""
    record, hand = last(all_in_on_the_flop(True))
    text = write_pokerstars(record, hand)
    body = text[text.index("*** FLOP ***") :].strip().splitlines()
    assert body[: body.index("*** SUMMARY ***") + 5] == [
        "*** FLOP *** [Kh 7c 4d]",
        "Bob: bets 4",
        "Ann: raises 4 to 8 and is all-in",
        "Bob: calls 4",
        "*** FIRST TURN *** [Kh 7c 4d] [5c]",
        "*** FIRST RIVER *** [Kh 7c 4d 5c] [Jd]",
        "*** SECOND TURN *** [Kh 7c 4d] [6h]",
        "*** SECOND RIVER *** [Kh 7c 4d 6h] [5h]",
        "*** FIRST SHOW DOWN ***",
        "Bob: shows [Ah 3h Qd Qc] (HI: a pair of Queens; LO: 7,5,4,3,A)",
        "Ann: shows [As 2s Kd Kc] (HI: three of a kind, Kings; LO: 7,5,4,2,A)",
        "Ann collected 5 from pot",
        "Ann collected 5 from pot",
        "*** SECOND SHOW DOWN ***",
        "Bob: shows [Ah 3h Qd Qc] (HI: a flush, Ace high; LO: 6,5,4,3,A)",
        "Ann: shows [As 2s Kd Kc] (HI: three of a kind, Kings; LO: 6,5,4,2,A)",
        "Bob collected 5 from pot",
        "Ann collected 5 from pot",
        "*** SUMMARY ***",
        "Total pot 20 | Rake 0",
        "Hand was run twice",
        "FIRST Board [Kh 7c 4d 5c Jd]",
        "SECOND Board [Kh 7c 4d 6h 5h]",
    ]
    assert body[-2:] == [
        "Seat 1: Ann (button) (small blind) showed [As 2s Kd Kc] and won (10) with HI: three "
        "of a kind, Kings; LO: 7,5,4,2,A, and won (5) with HI: three of a kind, Kings; LO: "
        "6,5,4,2,A",
        "Seat 2: Bob (big blind) showed [Ah 3h Qd Qc] and lost with HI: a pair of Queens; LO: "
        "7,5,4,3,A, and won (5) with HI: a flush, Ace high; LO: 6,5,4,3,A",
    ]


def test_pokerstars_text_of_the_home_game_posts_and_a_double_board() -> None:
    """A straddle as the sites that deal them print it; a kill blind and a bomb pot, which
    PokerStars never deals, in its words for a post; a double board's streets each named
    FIRST or SECOND, and the summary says the hand was played on two boards."""
    lines = {
        name: write_pokerstars(*last(HANDS[name]())).splitlines()
        for name in ("straddle", "kill pot", "antes", "bomb pot on two boards")
    }
    assert "Dan: posts straddle 4" in lines["straddle"]
    assert lines["kill pot"][5:8] == [
        "Cy: posts small blind 1",
        "Ann: posts big blind 2",
        "Bob: posts kill blind 3",
    ]
    assert lines["kill pot"][0].startswith("PokerStars Hand #2:  Omaha Hi/Lo Limit (3/6) - ")
    assert "Ann: posts the ante 1" in lines["antes"]
    double = lines["bomb pot on two boards"]
    assert double[5:10] == [
        "Ann: posts bomb pot 4",
        "Bob: posts bomb pot 4",
        "Cy: posts bomb pot 4",
        "*** HOLE CARDS ***",
        "*** FIRST FLOP *** [Kc Td Kd]",
    ]
    assert double[10] == "*** SECOND FLOP *** [9d 7h 5c]"
    assert "*** SECOND TURN *** [9d 7h 5c] [9c]" in double
    summary = double[double.index("*** SUMMARY ***") :]
    assert summary[2:5] == [
        "Hand was played on two boards",
        "FIRST Board [Kc Td Kd Qs As]",
        "SECOND Board [9d 7h 5c 9c Ac]",
    ]


def test_the_json_record_of_a_board_run_twice() -> None:
    """The players' choice (``runs``), both runs' boards, the game's option, and each award
    with the number of its board; a hand whose players declined records ``runs`` 1 and one
    board; a document of before (none of these fields) reads as one board, not asked."""
    record, hand = last(all_in_on_the_flop(True))
    doc = to_json(record, hand)
    assert doc["game"]["run_it_twice"] is True and "boards" not in doc["game"]
    assert doc["runs"] == 2
    assert doc["boards"] == ["Kh7c4d5cJd", "Kh7c4d6h5h"]
    assert [(a["board_number"], a["share"], a["amount"]) for a in doc["result"]["awards"]] == [
        (1, "whole", 10),
        (2, "high", 5),
        (2, "low", 5),
    ]
    declined = to_json(*last(all_in_on_the_flop(False)))
    assert declined["runs"] == 1 and "boards" not in declined
    old = {key: value for key, value in doc.items() if key not in ("runs", "boards")}
    old["game"] = {k: v for k, v in doc["game"].items() if k != "run_it_twice"}
    del old["result"]["awards"]
    read = from_json(old)
    assert (read.runs, read.second_board, read.config.run_it_twice) == (None, (), False)


def test_a_json_document_whose_boards_contradict_its_board_is_refused() -> None:
    doc = to_json(*last(all_in_on_the_flop(True)))
    doc["boards"][0] = "Kh7c4d5c2c"
    with pytest.raises(HistoryError, match="boards: the first board Kh7c4d5c2c is not the board"):
        from_json(doc)
    doc["boards"], doc["runs"] = None, 3
    with pytest.raises(HistoryError, match=r"^runs is 3, not 1 or 2$"):
        from_json(doc)


def test_a_json_award_the_replay_does_not_make_is_a_difference() -> None:
    """``--check`` compares the recorded awards, board by board."""
    record, hand = last(bomb_pot(DoubleBoard.BOMB_POTS))
    doc = to_json(record, hand)
    doc["result"]["awards"][0]["board_number"] = 2
    replayed = replay_record(from_json(doc))
    assert replayed.agrees is False
    (difference,) = replayed.differences
    assert difference.what == "awards"
    assert difference.file.startswith("pot 0, board 2, high: Ann 3; pot 0, board 2, low: ")
    assert difference.rules.startswith("pot 0, board 1, whole: Cy 6; pot 0, board 2, high")


@pytest.mark.parametrize(
    ("name", "refusal"),
    [
        ("run twice, three ways", "OHH cannot say a board run twice: hand 1"),
        ("bomb pot on two boards", "OHH cannot say a double board: hand 2"),
        ("bomb pot", "OHH cannot say a bomb pot: hand 2"),
        ("kill pot", "OHH cannot say a kill blind: hand 2"),
    ],
)
def test_ohh_refuses_what_it_cannot_say_naming_the_mode_and_the_hand(
    name: str, refusal: str
) -> None:
    record, hand = last(HANDS[name]())
    with pytest.raises(HistoryError, match=f"^{refusal}$"):
        ohh_document(record, hand, started=STARTED)


def test_ohh_writes_a_straddle_antes_and_a_board_run_once() -> None:
    posted = {}
    for name in ("straddle", "antes", "run once, declined"):
        record, hand = last(HANDS[name]())
        rounds = ohh_document(record, hand, started=STARTED)["ohh"]["rounds"]
        posted[name] = [a["action"] for a in rounds[0]["actions"] if "Post" in a["action"]]
        posted[name] += [a["action"] for a in rounds[0]["actions"] if a["action"] == "Straddle"]
    assert posted == {
        "straddle": ["Post SB", "Post BB", "Straddle"],
        "antes": ["Post Ante", "Post Ante", "Post Ante", "Post SB", "Post BB"],
        "run once, declined": ["Post SB", "Post BB"],
    }


def test_phh_writes_a_straddle_and_a_kill_blind_as_its_blinds_or_straddles() -> None:
    """PHH's blinds or straddles hold the straddle and the kill blind (the killer acts
    last, as the biggest blind does); ``splitpot_kill`` names the killer for splitpot."""
    record, hand = last(straddle())
    assert "blinds_or_straddles = [1, 2, 4, 0]\n" in write_phh(record, hand.stacks)
    record, hand = last(kill_pot())
    text = write_phh(record, hand.stacks)
    assert 'blinds_or_straddles = [1, 2, 3]\nsplitpot_kill = "p3"\n' in text
    assert "small_bet = 3\nbig_bet = 6\n" in text


def test_replay_check_passes_on_each_mode_written_to_files(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``splitpot replay --check`` reads every mode back from PokerStars text and JSON."""
    played = [last(make()) for make in HANDS.values()]
    text = tmp_path / "hands.txt"
    text.write_text("".join(write_pokerstars(record, hand) for record, hand in played))
    records = tmp_path / "hands.json"
    records.write_text(json.dumps([to_json(record, hand) for record, hand in played]))
    assert main(["replay", "--check", "--json", str(text), str(records)]) == 0
    hands = json.loads(capsys.readouterr().out)["hands"]
    assert len(hands) == 2 * len(HANDS)
    assert all(hand["agrees"] is True for hand in hands)
