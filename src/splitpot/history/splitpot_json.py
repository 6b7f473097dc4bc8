"""splitpot's own hand history: one JSON document per hand (see docs/history.md).

It holds the inputs of the hand (configuration, players, button, posts, deck or known
cards, actions) and the result, and round-trips exactly: reading a document and writing
it again gives the same text.
"""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

from splitpot.engine import Action, Hand, Post, PostKind
from splitpot.history.model import (
    HandRecord,
    HistoryError,
    PlayerRecord,
    RecordedAction,
    RecordedOutcome,
    cards_text,
    read_cards,
)
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Rake, Structure, Variant

FORMAT = "splitpot-hand/1"


def game_json(config: GameConfig) -> dict[str, Any]:
    game: dict[str, Any] = {"variant": config.variant.value, "structure": config.structure.value}
    game |= config.betting.params()
    game["ante"] = config.ante
    rake = config.rake
    game["rake"] = None if rake is None else {"percent": str(rake.percent), "cap": rake.cap}
    return game


def _game(doc: dict[str, Any]) -> GameConfig:
    try:
        variant = Variant.parse(doc["variant"])
        structure = Structure(doc["structure"])
        betting: FixedLimit | PotLimit | NoLimit
        if structure is Structure.FIXED_LIMIT:
            betting = FixedLimit(
                doc["small_bet"],
                doc["big_bet"],
                doc["small_blind"],
                doc["big_blind"],
                doc.get("cap", 4),
                doc.get("cap_heads_up", True),
            )
        elif structure in (Structure.POT_LIMIT, Structure.NO_LIMIT):
            kind = PotLimit if structure is Structure.POT_LIMIT else NoLimit
            betting = kind(doc["small_blind"], doc["big_blind"], doc.get("min_bet", 0))
        else:
            raise HistoryError("a hand is played in one structure: limit, pot-limit or no-limit")
        rake = doc.get("rake")
        return GameConfig(
            variant,
            betting,
            doc.get("ante", 0),
            None if rake is None else Rake(Fraction(rake["percent"]), rake.get("cap")),
        )
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(f"game: {error!r} is missing or wrong") from error


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
        }
    elif record.outcome is not None:
        outcome = record.outcome
        doc["result"] = {
            "stacks": _list(outcome.finishing_stacks),
            "collected": _list(outcome.collected),
            "uncalled": _list(outcome.uncalled),
            "total_pot": outcome.total_pot,
        }
    return doc


def _list(values: tuple[int, ...] | None) -> list[int] | None:
    return None if values is None else list(values)


def _tuple(values: list[int] | None) -> tuple[int, ...] | None:
    return None if values is None else tuple(values)


def from_json(doc: dict[str, Any]) -> HandRecord:
    """A hand from its document."""
    if doc.get("format") != FORMAT:
        raise HistoryError(f"not a splitpot hand: format is {doc.get('format')!r}, not {FORMAT!r}")
    try:
        players = tuple(PlayerRecord(p["name"], p["seat"], p["stack"]) for p in doc["players"])
        posts = tuple(Post(p["player"], PostKind(p["kind"]), p["amount"]) for p in doc["posts"])
        actions = tuple(
            RecordedAction(a["player"], Action.parse(a["action"])) for a in doc["actions"]
        )
        result = doc.get("result")
        outcome = None
        if result is not None:
            outcome = RecordedOutcome(
                finishing_stacks=_tuple(result.get("stacks")),
                collected=_tuple(result.get("collected")),
                uncalled=_tuple(result.get("uncalled")),
                total_pot=result.get("total_pot"),
            )
        board = read_cards(doc["board"], "board")
        if None in board:
            raise HistoryError("board cards must be known")
        deck = doc.get("deck")
        pots = doc.get("recorded_pots")
        return HandRecord(
            id=str(doc["id"]),
            game=doc["game"]["variant"],
            config=_game(doc["game"]),
            players=players,
            button=doc["button"],
            posts=posts,
            holes=tuple(read_cards(h, f"hole cards {i + 1}") for i, h in enumerate(doc["holes"])),
            board=tuple(c for c in board if c is not None),
            actions=actions,
            deck=None if deck is None else read_cards(deck, "deck"),
            rake=doc.get("recorded_rake"),
            pots=None if pots is None else tuple(pots),
            outcome=outcome,
            unit=doc.get("unit", "1"),
            currency=doc.get("currency", ""),
        )
    except (KeyError, TypeError) as error:
        raise HistoryError(f"a splitpot hand needs the field {error}") from error
    except ValueError as error:
        if isinstance(error, HistoryError):
            raise
        raise HistoryError(str(error)) from error


def dumps(doc: dict[str, Any]) -> str:
    """The canonical text of a document (what round-trips exactly)."""
    return json.dumps(doc, ensure_ascii=False, indent=1)


def read_documents(text: str) -> list[dict[str, Any]]:
    """Documents from a file: one object, an array of objects, or one object per line.
    Errors name the line: where the file is cut off, or where it is not JSON."""
    try:
        loaded = json.loads(text)
    except json.JSONDecodeError as whole:
        lines = [(number, line) for number, line in enumerate(text.splitlines(), 1) if line.strip()]
        loaded = []
        for number, line in lines:
            try:
                loaded.append(json.loads(line))
            except json.JSONDecodeError as error:
                if number == lines[0][0]:  # not one object a line: one document, broken
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
