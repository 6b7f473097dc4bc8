"""Guests, accounts and session tokens: names checked and folded, passwords hashed with
argon2, tokens kept only as SHA-256 hashes."""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import unicodedata
from datetime import datetime

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import select
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Session

from splitpot.i18n import said
from splitpot.store.errors import BadName, BadPassword, LoginFailed, NameTaken, NotFound
from splitpot.store.ledger import open_account
from splitpot.store.models import PlayerRow, SessionRow
from splitpot.store.values import AccountKind, Identity, Player
from splitpot.text import code_point, shows_nothing

NAME_LENGTH = 24
LARGEST_ID = 2**31 - 1  # a player id fits the database's integer
PASSWORD_LENGTHS = (8, 1024)
LOGIN_FAILED = said("unknown name or wrong password")
# What the room calls itself and the ones it speaks for, and the titles of those who run
# it: a player's name may not be one of them (ignoring case, compatibility forms,
# punctuation and a leading "the"), nor hold the word "bot", the mark of the room's bots.
ROOM_NAMES = frozenset(
    {"dealer", "house", "host", "room", "splitpot", "admin", "administrator", "moderator"}
    | {"operator", "system", "server", "staff", "support"}
)
BOT_WORD = "bot"


def clean_name(name: str) -> str:
    """The name as shown: trimmed, NFC; 1 to 24 characters, each printed and seen, the
    first not a combining mark (which would sit on whatever is shown before the name)."""
    cleaned = unicodedata.normalize("NFC", name.strip())
    if not cleaned:
        raise BadName(said("a name needs at least one character"))
    if len(cleaned) > NAME_LENGTH:
        raise BadName(
            said(
                "name {name} is longer than {most} characters", name=repr(cleaned), most=NAME_LENGTH
            )
        )
    for char in cleaned:
        if shows_nothing(char):
            raise BadName(
                said(
                    "name {name} holds {char}, which does not show",
                    name=repr(cleaned),
                    char=code_point(char),
                )
            )
        if not char.isprintable():
            raise BadName(
                said(
                    "name {name} holds {char}, which cannot be printed",
                    name=repr(cleaned),
                    char=code_point(char),
                )
            )
    if unicodedata.category(cleaned[0]).startswith("M"):
        raise BadName(
            said(
                "name {name} begins with {char}, a mark that belongs on a letter before it",
                name=repr(cleaned),
                char=code_point(cleaned[0]),
            )
        )
    return cleaned


def check_chosen_name(name: str) -> None:
    """A name a player chooses (a guest's or an account's) is a clean one that does not
    pass for the room's own (the room's bots and its house guest are named by the room
    itself, and not checked so)."""
    shown = clean_name(name)
    words = [word for word in re.split(r"[\W_]+", name_key(shown)) if word]
    if BOT_WORD in words:
        raise BadName(
            said(
                "name {name} holds the word {word}, which marks the room's bots: choose another",
                name=repr(shown),
                word=repr(BOT_WORD),
            )
        )
    key = "".join(words[1:] if words[:1] == ["the"] else words)
    if key in ROOM_NAMES:
        raise BadName(
            said(
                "name {name} passes for the room's own {key}: choose another",
                name=repr(shown),
                key=repr(key),
            )
        )


def name_key(name: str) -> str:
    """The name as accounts compare it: ignoring case and compatibility forms."""
    return unicodedata.normalize("NFKC", name).casefold()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def hashes_match(stored: str | None, token: str) -> bool:
    return stored is not None and hmac.compare_digest(stored, token_hash(token))


def new_secret() -> str:
    """256 random bits, URL-safe: a session token or a table invite; never beginning with
    "-", which a command line would take for an option (``splitpot play --invite -x...``)."""
    while (secret := secrets.token_urlsafe(32)).startswith("-"):
        pass
    return secret


def player_value(row: PlayerRow) -> Player:
    return Player(row.id, row.name, row.password_hash is None, row.created_at)


def add_player(
    session: Session, name: str, password: str | None, hasher: PasswordHasher, now: datetime
) -> Identity:
    """A new guest (no password) or account, its balance account, and a session."""
    shown = clean_name(name)
    row = PlayerRow(name=shown, created_at=now)
    if password is not None:
        low, high = PASSWORD_LENGTHS
        if not low <= len(password) <= high:
            raise BadPassword(
                said(
                    "a password needs {low} to {high} characters, not {length}",
                    low=low,
                    high=high,
                    length=len(password),
                )
            )
        row.name_key = name_key(shown)
        row.password_hash = hasher.hash(password)
        taken = session.scalar(select(PlayerRow.id).where(PlayerRow.name_key == row.name_key))
        if taken is not None:
            raise NameTaken(said("the name {name} is taken", name=repr(shown)))
    session.add(row)
    try:
        session.flush()
    except IntegrityError as error:  # another account took the name at the same moment
        raise NameTaken(said("the name {name} is taken", name=repr(shown))) from error
    open_account(session, AccountKind.BALANCE, row.id, None)
    return Identity(player_value(row), add_session(session, row.id, now))


def add_session(session: Session, player_id: int, now: datetime) -> str:
    token = new_secret()
    session.add(SessionRow(token_hash=token_hash(token), player_id=player_id, created_at=now))
    return token


def log_in(
    session: Session, name: str, password: str, hasher: PasswordHasher, now: datetime
) -> Identity:
    """A new session for the account; unknown names and wrong passwords fail alike (and
    take as long: an unknown name is checked against a dummy hash)."""
    row = session.scalar(select(PlayerRow).where(PlayerRow.name_key == name_key(name.strip())))
    stored = row.password_hash if row is not None else None
    try:
        hasher.verify(stored or _dummy_hash(hasher), password)
    except (VerificationError, InvalidHashError) as error:
        raise LoginFailed(LOGIN_FAILED) from error
    if row is None or stored is None:
        raise LoginFailed(LOGIN_FAILED)
    if hasher.check_needs_rehash(stored):
        row.password_hash = hasher.hash(password)
    return Identity(player_value(row), add_session(session, row.id, now))


_DUMMIES: dict[tuple[int, int, int], str] = {}


def _dummy_hash(hasher: PasswordHasher) -> str:
    shape = (hasher.time_cost, hasher.memory_cost, hasher.parallelism)
    if shape not in _DUMMIES:
        _DUMMIES[shape] = hasher.hash(new_secret())
    return _DUMMIES[shape]


def player_for_token(session: Session, token: str) -> Player | None:
    row = session.scalar(
        select(PlayerRow).join(SessionRow).where(SessionRow.token_hash == token_hash(token))
    )
    return None if row is None else player_value(row)


def revoke(session: Session, token: str) -> bool:
    """Forget the session; True if it existed."""
    row = session.get(SessionRow, token_hash(token))
    if row is not None:
        session.delete(row)
    return row is not None


def get_player(session: Session, player_id: int) -> PlayerRow:
    row = session.get(PlayerRow, player_id)
    if row is None:
        raise NotFound(f"no player {player_id}")
    return row
