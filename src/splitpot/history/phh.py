"""PHH, the Poker Hand History format (TOML; spec: the uoftcprg/phh-std repository).

Omaha codes of the standard: ``FO/8`` (fixed-limit Omaha Hi/Lo) and ``PO`` (pot-limit
Omaha). For the games PHH has no code for (pot- or no-limit Omaha Hi/Lo, Big O, no-limit
Omaha, limit Omaha, Hi/Lo without a qualifier) splitpot writes the extension documented
in ``docs/history.md``: ``variant = "X-SPLITPOT"`` with ``splitpot_variant`` and
``splitpot_structure`` naming the game.

RULES.md 7: antes, straddles and the kill blind are PHH's antes and blinds or straddles
(``splitpot_kill`` names the killer); PHH has one board and preflop betting, so a double
board, a board run twice and a bomb pot are refused by name.
"""

from __future__ import annotations

import math
import tomllib
from collections.abc import Sequence
from typing import Any

from splitpot.cards import Card, format_cards
from splitpot.engine import (
    Acted,
    Action,
    ActionKind,
    BoardDealt,
    Mucked,
    Post,
    PostKind,
    Shown,
    deal_order,
)
from splitpot.history.model import (
    HandRecord,
    HistoryError,
    PlayerRecord,
    RecordedAction,
    RecordedOutcome,
    UnsupportedHand,
    array,
    cards_text,
    read_cards,
    string,
    whole,
)
from splitpot.history.replay import replay_record
from splitpot.reading import shown
from splitpot.rules import FixedLimit, GameConfig, NoLimit, PotLimit, Structure, Variant

EXTENSION = "X-SPLITPOT"
BET_SIZES = ("small_bet", "big_bet", "min_bet")  # PHH's fields: fixed limit, then the others
STANDARD_CODES = {
    "FO/8": (Variant.O8, Structure.FIXED_LIMIT),
    "PO": (Variant.OMAHA, Structure.POT_LIMIT),
}


def _chips(value: Any, what: str) -> int:
    """A chip amount of the file: a whole number (PHH may write it as a float, ``5.0``)."""
    if isinstance(value, float) and math.isfinite(value) and value == int(value):
        value = int(value)
    if isinstance(value, bool) or not isinstance(value, int):
        raise HistoryError(f"{what} is {shown(value)}: splitpot reads whole chip amounts only")
    return whole(value, what)


def _amount(word: str, where: str) -> int:
    """The amount of a ``cbr`` action: digits, or a float that is whole."""
    try:
        return _chips(int(word) if word.isdecimal() else float(word), where)
    except ValueError:
        raise HistoryError(f"{where}: {shown(word)} is not an amount") from None


def _by_position(values: Sequence[Any], players: int) -> list[Any]:
    """PHH reverses the antes and blinds of heads-up games (the spec, 'Blinds or straddles')."""
    values = list(values)
    return values[::-1] if players == 2 else values


def _game(doc: dict[str, Any]) -> tuple[Variant, Structure]:
    code = doc.get("variant")
    if not isinstance(code, str):
        raise HistoryError(f"variant is {shown(code)}, not a string")
    if code == EXTENSION:
        try:
            variant = Variant.parse(string(doc["splitpot_variant"], "splitpot_variant"))
            structure = Structure(string(doc["splitpot_structure"], "splitpot_structure"))
        except (KeyError, ValueError) as error:
            raise HistoryError(
                f"{EXTENSION} needs splitpot_variant and splitpot_structure: {error}"
            ) from error
        return variant, structure
    if code not in STANDARD_CODES:
        raise UnsupportedHand(f"variant {code!r} is not an Omaha game splitpot plays")
    return STANDARD_CODES[code]


def read_toml(text: str) -> dict[str, Any]:
    """A TOML document, or HistoryError saying why not (nesting too deep for Python's
    parser, or an integer past its digit limit, included)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise HistoryError(f"not valid TOML: {error}") from error
    except RecursionError:
        raise HistoryError("not TOML splitpot reads: nested too deep") from None
    except ValueError as error:  # an integer of more than 4300 digits
        raise HistoryError(f"not TOML splitpot reads: {error}") from None


def read_phh(text: str, hand_id: str = "") -> HandRecord:
    """One hand from PHH text."""
    return phh_hand(read_toml(text), hand_id)


def phh_hand(doc: dict[str, Any], hand_id: str = "") -> HandRecord:
    """One hand from a PHH document (a .phh file, or one table of a .phhs file)."""
    if not isinstance(doc, dict):
        raise HistoryError(f"{shown(doc)} is not a hand: a table of PHH fields is needed")
    for key in ("variant", "antes", "blinds_or_straddles", "starting_stacks", "actions"):
        if key not in doc:
            raise HistoryError(f"the required field {key!r} is missing")
    variant, structure = _game(doc)
    stacks = [
        _chips(v, "a starting stack") for v in array(doc["starting_stacks"], "starting_stacks")
    ]
    count = len(stacks)
    blinds = [
        _chips(v, "a blind")
        for v in _by_position(array(doc["blinds_or_straddles"], "blinds_or_straddles"), count)
    ]
    antes = [_chips(v, "an ante") for v in _by_position(array(doc["antes"], "antes"), count)]
    if len(blinds) != count or len(antes) != count:
        raise HistoryError("antes and blinds_or_straddles need one value per player")
    # Players: p1 is the first dealt (left of the button), the last one has the button.
    names = array(doc.get("players", [f"p{i + 1}" for i in range(count)]), "players", count)
    seats = array(doc.get("seats", list(range(1, count + 1))), "seats", count)
    players = tuple(
        PlayerRecord(string(name, "a player's name"), whole(seat, "a seat"), stack)
        for name, seat, stack in zip(names, seats, stacks, strict=True)
    )
    button = count - 1
    posts = [Post(p, PostKind.ANTE, a) for p, a in enumerate(antes) if a]
    killer = _killer(doc, count)
    blind_posts = [(p, b) for p, b in enumerate(blinds) if b and p != killer]
    if count == 2:
        blind_posts.reverse()  # heads-up: the button (p2) posts the small blind first
    for rank, (player, amount) in enumerate(blind_posts):
        kinds = (
            [PostKind.SMALL_BLIND, PostKind.BIG_BLIND]
            if len(blind_posts) > 1
            else [PostKind.BIG_BLIND]
        )
        posts.append(Post(player, kinds[rank] if rank < len(kinds) else PostKind.STRADDLE, amount))
    if killer is not None:
        if not blinds[killer]:
            raise HistoryError(f"splitpot_kill: p{killer + 1} posts no blind to kill with")
        posts.append(Post(killer, PostKind.KILL, blinds[killer]))
    # The stakes are the blinds; a straddle or a kill blind is posted on top of them.
    nonzero = sorted(
        p.amount for p in posts if p.kind in (PostKind.SMALL_BLIND, PostKind.BIG_BLIND)
    )
    if structure is Structure.FIXED_LIMIT:
        small_bet, big_bet = (
            _chips(doc.get("small_bet"), "small_bet"),
            _chips(doc.get("big_bet"), "big_bet"),
        )
        betting: FixedLimit | PotLimit | NoLimit = FixedLimit(
            small_bet,
            big_bet,
            small_blind=nonzero[0] if nonzero else 0,
            big_blind=nonzero[-1] if nonzero else 0,
        )
    else:
        min_bet = _chips(doc.get("min_bet"), "min_bet")
        nonzero = nonzero or [min_bet]
        kind = PotLimit if structure is Structure.POT_LIMIT else NoLimit
        betting = kind(nonzero[0], nonzero[-1], min_bet)
    config = GameConfig(variant, betting)

    holes: list[tuple[Card | None, ...]] = [(None,) * variant.hole_cards for _ in range(count)]
    board: list[Card] = []
    actions: list[RecordedAction] = []
    for number, line in enumerate(array(doc["actions"], "actions"), start=1):
        words = string(line, f"action {number}").split("#", 1)[0].split()
        if not words:
            continue
        where = f"action {number} {shown(line)}"
        if words[0] == "d":
            if words[1:2] == ["dh"] and len(words) == 4:
                dealt_hole = read_cards(words[3], where)
                if len(dealt_hole) != variant.hole_cards:
                    raise HistoryError(f"{where}: {variant.title} deals {variant.hole_cards} cards")
                holes[_player(words[2], count, where)] = dealt_hole
            elif words[1:2] == ["db"] and len(words) == 3:
                dealt = read_cards(words[2], where)
                if None in dealt:
                    raise HistoryError(f"{where}: board cards must be known")
                board.extend(c for c in dealt if c is not None)
            else:
                raise HistoryError(f"{where}: not a dealing action splitpot knows")
            continue
        player = _player(words[0], count, where)
        verb, args = words[1] if len(words) > 1 else "", words[2:]
        if verb == "f":
            action = Action.fold()
        elif verb == "cc":
            action = Action.call()
        elif verb == "cbr" and len(args) == 1:
            action = Action.raise_to(_amount(args[0], where))
        elif verb == "sm":
            if args:
                holes[player] = read_cards(args[0], where)
                action = Action.show()
            else:
                action = Action.muck()
        else:
            raise UnsupportedHand(f"{where}: {verb!r} is not an action of Omaha")
        actions.append(RecordedAction(player, action))

    outcome = None
    if "finishing_stacks" in doc:
        finishing = array(doc["finishing_stacks"], "finishing_stacks", count)
        outcome = RecordedOutcome(
            finishing_stacks=tuple(_chips(v, "a finishing stack") for v in finishing)
        )
    return HandRecord(
        id=str(doc.get("hand", hand_id)) or hand_id,
        game=f"{variant.title}, {structure.value}",
        config=config,
        players=players,
        button=button,
        posts=tuple(posts),
        holes=tuple(holes),
        board=tuple(board),
        actions=tuple(actions),
        rake=_chips(doc["splitpot_rake"], "splitpot_rake") if "splitpot_rake" in doc else None,
        outcome=outcome,
    )


def _killer(doc: dict[str, Any], count: int) -> int | None:
    """The player the splitpot extension ``splitpot_kill`` names (``"p3"``): their blind is
    the kill blind (RULES.md 7); None without it."""
    if "splitpot_kill" not in doc:
        return None
    return _player(string(doc["splitpot_kill"], "splitpot_kill"), count, "splitpot_kill")


def _player(word: str, count: int, where: str) -> int:
    if not (word.startswith("p") and word[1:].isdigit() and 1 <= int(word[1:]) <= count):
        raise HistoryError(f"{where}: {shown(word)} is not one of p1..p{count}")
    return int(word[1:]) - 1


def _toml_value(value: Any) -> str:
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list | tuple):
        return "[" + ", ".join(_toml_value(v) for v in value) + "]"
    return str(value)


def write_phh(record: HandRecord, finishing_stacks: Sequence[int] | None = None) -> str:
    """PHH text of a hand (players in PHH's order: left of the button first); HistoryError,
    naming the mode and the hand, for one PHH cannot say (RULES.md 7)."""
    config = record.config
    if config.boards == 2:
        raise HistoryError(f"PHH cannot say a double board: hand {record.id}")
    if record.runs == 2:
        raise HistoryError(f"PHH cannot say a board run twice: hand {record.id}")
    if any(post.kind is PostKind.BOMB for post in record.posts):
        raise HistoryError(f"PHH cannot say a bomb pot: hand {record.id}")
    count = len(record.players)
    order = deal_order(count, record.button)  # PHH p1.. in our indices
    position = {player: i for i, player in enumerate(order)}
    code = {value: key for key, value in STANDARD_CODES.items()}.get(
        (config.variant, config.structure)
    )
    fields: list[tuple[str, Any]] = [("variant", code or EXTENSION)]
    if code is None:
        fields += [
            ("splitpot_variant", config.variant.value),
            ("splitpot_structure", config.structure.value),
        ]
    antes = [0] * count
    blinds = [0] * count
    for post in record.posts:
        if post.kind is PostKind.ANTE:
            antes[position[post.player]] += post.amount
        elif post.kind.positional:
            blinds[position[post.player]] += post.amount
        else:
            raise HistoryError(f"PHH has no field for a {post.kind.value}")
    fields += [
        ("antes", _by_position(antes, count)),
        ("blinds_or_straddles", _by_position(blinds, count)),
    ]
    fields += [
        ("splitpot_kill", f"p{position[post.player] + 1}")
        for post in record.posts
        if post.kind is PostKind.KILL
    ]
    fields += [(key, value) for key, value in config.betting.params().items() if key in BET_SIZES]
    fields.append(("starting_stacks", [record.players[p].stack for p in order]))
    actions = [f"d dh p{position[p] + 1} {cards_text(record.holes[p])}" for p in order]
    hand = replay_record(record).hand  # the rules say where each betting round ends
    for event in hand.events:
        if isinstance(event, BoardDealt):
            actions.append(f"d db {cards_text(event.cards)}")
        elif isinstance(event, Acted):
            verb = {ActionKind.FOLD: "f", ActionKind.CHECK: "cc", ActionKind.CALL: "cc"}.get(
                event.kind
            )
            actions.append(f"p{position[event.player] + 1} {verb or f'cbr {event.to}'}")
        elif isinstance(event, Shown):
            actions.append(f"p{position[event.player] + 1} sm {format_cards(event.cards)}")
        elif isinstance(event, Mucked):
            actions.append(f"p{position[event.player] + 1} sm")
    fields.append(("actions", actions))
    fields.append(("players", [record.players[p].name for p in order]))
    fields.append(("seats", [record.players[p].seat for p in order]))
    fields.append(("hand", record.id))
    if hand.result is not None and hand.result.rake:
        fields.append(("splitpot_rake", hand.result.rake))  # PHH has no rake field
    stacks = finishing_stacks if finishing_stacks is not None else hand.stacks
    fields.append(("finishing_stacks", [stacks[p] for p in order]))
    return "".join(f"{key} = {_toml_value(value)}\n" for key, value in fields)
