"""splitpot's own hand history: one JSON document per hand (see docs/history.md).

It holds the inputs of the hand (configuration, players, button, posts, deck or known
cards, actions) and the result, and round-trips exactly: reading a document and writing
it again gives the same text.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from splitpot.cards import Card
from splitpot.engine import Action, Award, Hand, Post, PostKind, Share
from splitpot.history.model import (
    HandRecord,
    HistoryError,
    PlayerRecord,
    RecordedAction,
    RecordedAward,
    RecordedOutcome,
    TournamentRecord,
    array,
    cards_text,
    read_cards,
    string,
    whole,
)
from splitpot.reading import numbered_lines, shown
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Structure, Variant

FORMAT = "splitpot-hand/1"
UNIT = re.compile(r"\d{1,9}(?:\.\d{1,9})?")  # the value of one chip: "1", "0.01"
TOURNAMENT_FIELDS = ("id", "name", "buy_in", "fee", "level", "table")  # RULES.md 8
MOST_TOURNAMENT_NUMBER = 10**30 - 1  # thirty digits: PokerStars' numbers reach twenty


def game_json(config: GameConfig) -> dict[str, Any]:
    game: dict[str, Any] = {"variant": config.variant.value, "structure": config.structure.value}
    game |= config.betting.params()
    game["ante"] = config.ante
    rake = config.rake
    game["rake"] = None if rake is None else {"percent": str(rake.percent), "cap": rake.cap}
    if config.boards != 1:  # RULES.md 7: a double board
        game["boards"] = config.boards
    if config.run_it_twice:  # RULES.md 7: the players are asked to run it twice
        game["run_it_twice"] = True
    return game


RAKE_PERCENT = re.compile(r"\d{1,6}(?:/\d{1,6}|\.\d{1,6})?")  # "5", "5/2", "2.5"


def _game(doc: dict[str, Any]) -> GameConfig:
    if not isinstance(doc, dict):
        raise HistoryError(f"game is {shown(doc)}, not an object")
    try:
        variant = Variant.parse(string(doc["variant"], "game.variant"))
        structure = Structure(string(doc["structure"], "game.structure"))

        def chips(key: str, default: int | None = None) -> int:
            value = doc.get(key, default) if default is not None else doc[key]
            return whole(value, f"game.{key}")

        betting: FixedLimit | PotLimit | NoLimit
        if structure is Structure.FIXED_LIMIT:
            heads_up = doc.get("cap_heads_up", True)
            if not isinstance(heads_up, bool):
                raise HistoryError(f"game.cap_heads_up is {shown(heads_up)}, not true or false")
            betting = FixedLimit(
                chips("small_bet"),
                chips("big_bet"),
                chips("small_blind"),
                chips("big_blind"),
                chips("cap", 4),
                heads_up,
            )
        elif structure in (Structure.POT_LIMIT, Structure.NO_LIMIT):
            kind = PotLimit if structure is Structure.POT_LIMIT else NoLimit
            betting = kind(chips("small_blind"), chips("big_blind"), chips("min_bet", 0))
        else:
            raise HistoryError("a hand is played in one structure: limit, pot-limit or no-limit")
        twice = doc.get("run_it_twice", False)
        if not isinstance(twice, bool):
            raise HistoryError(f"game.run_it_twice is {shown(twice)}, not true or false")
        boards = doc.get("boards", 1)
        if boards not in (1, 2) or isinstance(boards, bool):
            raise HistoryError(f"game.boards is {shown(boards)}, not 1 or 2")
        return GameConfig(
            variant,
            betting,
            chips("ante", 0),
            _rake(doc.get("rake")),
            boards=boards,
            run_it_twice=twice,
        )
    except KeyError as error:
        raise HistoryError(f"game: the field {error} is missing") from error
    except ValueError as error:
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(f"game: {error}") from error


def _rake(rake: Any) -> Rake | None:
    """The table's rake rule: ``{"percent": "5", "cap": 3}`` or null."""
    if rake is None:
        return None
    if not isinstance(rake, dict):
        raise HistoryError(f"game.rake is {shown(rake)}, not an object or null")
    percent = rake.get("percent")
    if not isinstance(percent, str | int) or not RAKE_PERCENT.fullmatch(str(percent)):
        raise HistoryError(f"game.rake.percent is {shown(percent)}, not a percentage like '5'")
    cap = rake.get("cap")
    return Rake(Fraction(str(percent)), None if cap is None else whole(cap, "game.rake.cap"))


def to_json(record: HandRecord, hand: Hand | None = None) -> dict[str, Any]:
    """The document of a hand; with the replayed ``hand``, its result too."""
    doc: dict[str, Any] = {
        "format": FORMAT,
        "id": record.id,
        "game": game_json(record.config),
        "players": [{"name": p.name, "seat": p.seat, "stack": p.stack} for p in record.players],
        "button": record.button,
        "posts": [
            {"player": p.player, "kind": p.kind.value, "amount": p.amount} for p in record.posts
        ],
        "deck": None if record.deck is None else cards_text(record.deck),
        "holes": [cards_text(hole) for hole in record.holes],
        "board": cards_text(record.board),
        "actions": [{"player": a.player, "action": str(a.action)} for a in record.actions],
        "recorded_rake": record.rake,
        "recorded_pots": None if record.pots is None else list(record.pots),
        "unit": record.unit,
        "currency": record.currency,
    }
    if record.second_board:  # RULES.md 7: both boards, or both runs
        doc["boards"] = [cards_text(record.board), cards_text(record.second_board)]
    if record.runs is not None:
        doc["runs"] = record.runs
    if record.tournament is not None:  # RULES.md 8: a tournament hand
        doc["tournament"] = tournament_json(record.tournament)
    if record.serial is not None:  # a room's hand: its number in the room
        doc = {"format": FORMAT, "id": record.id, "serial": record.serial} | doc
    result = hand.result if hand is not None else None
    if result is not None:
        players = range(len(record.players))
        doc["result"] = {
            "stacks": list(result.stacks),
            "collected": [result.won(p) for p in players],
            "uncalled": [sum(c for q, c in result.uncalled if q == p) for p in players],
            "total_pot": sum(pot.amount for pot in result.pots) + result.rake,
            "rake": result.rake,
            "pots": [{"amount": pot.amount, "eligible": list(pot.eligible)} for pot in result.pots],
            "awards": [_award_json(award) for award in result.awards],
        }
    elif record.outcome is not None:
        outcome = record.outcome
        doc["result"] = {
            "stacks": _list(outcome.finishing_stacks),
            "collected": _list(outcome.collected),
            "uncalled": _list(outcome.uncalled),
            "total_pot": outcome.total_pot,
        }
        if outcome.awards is not None:
            doc["result"]["awards"] = [_award_json(award) for award in outcome.awards]
    return doc


def tournament_json(tournament: TournamentRecord) -> dict[str, Any]:
    """RULES.md 8: the tournament of a hand, every field named as TournamentRecord's."""
    return {key: getattr(tournament, key) for key in TOURNAMENT_FIELDS}


def read_tournament(value: Any) -> TournamentRecord | None:
    """RULES.md 8: the ``tournament`` object of a hand (absent or null: a cash hand);
    HistoryError names the field that is missing or bad, and why."""
    if value is None:
        return None
    if not isinstance(value, dict):
        raise HistoryError(f"tournament is {shown(value)}, not an object or null")
    missing = [key for key in TOURNAMENT_FIELDS if key not in value]
    if missing:
        raise HistoryError(f"tournament: the field {missing[0]!r} is missing")
    number = value["id"]
    if isinstance(number, bool) or not isinstance(number, int):
        raise HistoryError(f"tournament.id is {shown(number)}, not a whole number")
    if not 1 <= number <= MOST_TOURNAMENT_NUMBER:
        raise HistoryError(f"tournament.id is {shown(number)}, not a number of 1 to 30 digits")
    return TournamentRecord(
        id=number,
        name=string(value["name"], "tournament.name"),
        buy_in=whole(value["buy_in"], "tournament.buy_in"),
        fee=whole(value["fee"], "tournament.fee"),
        level=whole(value["level"], "tournament.level", 1),
        table=whole(value["table"], "tournament.table", 1),
    )


def _award_json(award: Award | RecordedAward) -> dict[str, Any]:
    """A part of a pot paid: ``board_number`` 1 for the first board (or run), 2 the
    second (RULES.md 7)."""
    return {
        "pot": award.pot,
        "share": award.share.value,
        "player": award.player,
        "amount": award.amount,
        "board_number": award.board + 1,
    }


def _award(value: Any, number: int, players: int) -> RecordedAward:
    """An award of ``result.awards``, else HistoryError naming the field."""
    what = f"result.awards {number}"
    if not isinstance(value, dict):
        raise HistoryError(f"{what} is {shown(value)}, not an object")
    try:
        share = Share(value["share"])
    except (KeyError, ValueError, TypeError):
        raise HistoryError(
            f"{what}.share is {shown(value.get('share'))}, not high, low or whole"
        ) from None
    board = value.get("board_number", 1)
    if board not in (1, 2) or isinstance(board, bool):
        raise HistoryError(f"{what}.board_number is {shown(board)}, not 1 or 2")
    return RecordedAward(
        whole(value.get("pot"), f"{what}.pot"),
        share,
        _player(value.get("player"), f"{what}.player", players),
        whole(value.get("amount"), f"{what}.amount"),
        board - 1,
    )


def _list(values: tuple[int, ...] | None) -> list[int] | None:
    return None if values is None else list(values)


def _tuple(values: list[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


def _objects(doc: dict[str, Any], key: str) -> list[dict[str, Any]]:
    """The document's list ``key`` of JSON objects."""
    items = array(doc[key], key)
    for number, item in enumerate(items, start=1):
        if not isinstance(item, dict):
            raise HistoryError(f"{key} {number} is {shown(item)}, not an object")
    return items


def _player(value: Any, what: str, players: int) -> int:
    """An index into the hand's players."""
    index = whole(value, what)
    if index >= players:
        raise HistoryError(f"{what} is {index}, not one of the players 0..{players - 1}")
    return index


def _amounts(value: Any, what: str, players: int) -> tuple[int, ...] | None:
    """A recorded list of chips, one for each player, or null."""
    if value is None:
        return None
    return tuple(whole(v, what) for v in array(value, what, players))


def _outcome(result: Any, players: int) -> RecordedOutcome | None:
    if result is None:
        return None
    if not isinstance(result, dict):
        raise HistoryError(f"result is {shown(result)}, not an object or null")
    total = result.get("total_pot")
    awards = result.get("awards")
    return RecordedOutcome(
        finishing_stacks=_amounts(result.get("stacks"), "result.stacks", players),
        collected=_amounts(result.get("collected"), "result.collected", players),
        uncalled=_amounts(result.get("uncalled"), "result.uncalled", players),
        total_pot=None if total is None else whole(total, "result.total_pot"),
        awards=None
        if awards is None
        else tuple(
            _award(award, number, players)
            for number, award in enumerate(array(awards, "result.awards"), start=1)
        ),
    )


def from_json(doc: dict[str, Any]) -> HandRecord:
    """A hand from its document; HistoryError names a field that is missing or of the
    wrong type, a player index out of range, or a number past MOST_CHIPS."""
    if doc.get("format") != FORMAT:
        raise HistoryError(
            f"not a splitpot hand: format is {shown(doc.get('format'))}, not {FORMAT!r}"
        )
    try:
        players = tuple(
            PlayerRecord(
                string(p["name"], f"player {n}'s name"),
                whole(p["seat"], f"player {n}'s seat"),
                whole(p["stack"], f"player {n}'s stack"),
            )
            for n, p in enumerate(_objects(doc, "players"), start=1)
        )
        count = len(players)
        posts = tuple(
            Post(
                _player(p["player"], "a post's player", count),
                PostKind(string(p["kind"], "a post's kind")),
                whole(p["amount"], "a post's amount"),
            )
            for p in _objects(doc, "posts")
        )
        actions = tuple(
            RecordedAction(
                _player(a["player"], f"action {n}'s player", count),
                Action.parse(string(a["action"], f"action {n}")),
            )
            for n, a in enumerate(_objects(doc, "actions"), start=1)
        )
        board = read_cards(doc["board"], "board")
        if None in board:
            raise HistoryError("board cards must be known")
        second = _second_board(doc.get("boards"), board)
        runs = doc.get("runs")
        if runs is not None and (runs not in (1, 2) or isinstance(runs, bool)):
            raise HistoryError(f"runs is {shown(runs)}, not 1 or 2")
        holes = tuple(
            read_cards(h, f"hole cards {i + 1}")
            for i, h in enumerate(array(doc["holes"], "holes", count))
        )
        deck = doc.get("deck")
        pots = doc.get("recorded_pots")
        rake = doc.get("recorded_rake")
        hand_id = doc["id"]
        if isinstance(hand_id, bool) or not isinstance(hand_id, str | int):
            raise HistoryError(f"id is {shown(hand_id)}, not a string")
        config = _game(doc["game"])  # checks game.variant is a string
        serial = doc.get("serial")
        unit = string(doc.get("unit", "1"), "unit")
        if not UNIT.fullmatch(unit):
            raise HistoryError(f"unit is {shown(unit)}, not the value of a chip like '0.01'")
        return HandRecord(
            id=str(hand_id),
            game=doc["game"]["variant"],
            config=config,
            players=players,
            button=_player(doc["button"], "button", count),
            posts=posts,
            holes=holes,
            board=tuple(c for c in board if c is not None),
            actions=actions,
            deck=None if deck is None else read_cards(deck, "deck"),
            rake=None if rake is None else whole(rake, "recorded_rake"),
            pots=None
            if pots is None
            else tuple(whole(v, "a recorded pot") for v in array(pots, "recorded_pots")),
            outcome=_outcome(doc.get("result"), count),
            unit=unit,
            currency=string(doc.get("currency", ""), "currency"),
            serial=None if serial is None else whole(serial, "serial", 1),
            second_board=second,
            runs=runs,
            tournament=read_tournament(doc.get("tournament")),
        )
    except KeyError as error:
        raise HistoryError(f"a splitpot hand needs the field {error}") from error
    except ValueError as error:
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(str(error)) from error


def _second_board(boards: Any, board: tuple[Card | None, ...]) -> tuple[Card, ...]:
    """RULES.md 7: ``boards`` holds both boards (or runs) when there are two, the first
    the same as ``board``; its second, else no cards."""
    if boards is None or boards == []:
        return ()
    first, second = (read_cards(cards, "boards") for cards in array(boards, "boards", 2))
    if first != board:
        raise HistoryError(
            f"boards: the first board {cards_text(first)} is not the board {cards_text(board)}"
        )
    if None in second:
        raise HistoryError("board cards must be known")
    return tuple(card for card in second if card is not None)


def dumps(doc: dict[str, Any]) -> str:
    """The canonical text of a document (what round-trips exactly)."""
    return json.dumps(doc, ensure_ascii=False, indent=1)


def read_documents(text: str) -> list[dict[str, Any]]:
    """Documents from a file: one object, an array of objects, or one object per line.
    Errors name the line: where the file is cut off, or where it is not JSON."""
    try:
        return _documents(text)
    except RecursionError:
        raise HistoryError("not JSON splitpot reads: nested too deep") from None
    except ValueError as error:
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(f"not JSON splitpot reads: {error}") from None  # 4300+ digits


def _documents(text: str) -> list[dict[str, Any]]:
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as whole:
        loaded = []
        for number, line in numbered_lines(text):
            if not line.strip():
                continue
            try:
                loaded.append(json.loads(line))
            except json.JSONDecodeError as error:
                if not loaded:  # not one object a line: one document, broken
                    raise HistoryError(_json_problem(whole, text, 0)) from whole
                raise HistoryError(_json_problem(error, line, number - 1)) from error
    documents = loaded if isinstance(loaded, list) else [loaded]
    if not all(isinstance(d, dict) for d in documents):
        raise HistoryError("a splitpot history holds JSON objects, one per hand")
    return documents


def _json_problem(error: json.JSONDecodeError, text: str, lines_before: int) -> str:
    """What is wrong with JSON ``text`` (``lines_before`` lines into the file)."""
    if error.pos >= len(text.rstrip()):
        last = lines_before + len(text.rstrip().splitlines())
        return f"the file is cut off at line {last}: a JSON document is not complete"
    line = lines_before + error.lineno
    return f"not valid JSON at line {line}, column {error.colno}: {error.msg}"
