"""Clubs (issue 24): a club, its members and their roles, its invite code (kept as a hash,
as a private table's), its log, and its tables. A command of a manager or the owner checks
the caller's role in the transaction that does it, and writes its line of the log there."""

from __future__ import annotations

import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from splitpot.i18n import marked, said
from splitpot.store.errors import NotFound, StoreError
from splitpot.store.models import ClubLogRow, ClubMemberRow, ClubRow, PlayerRow, TableRow
from splitpot.store.players import get_player, hashes_match, new_secret, token_hash
from splitpot.store.tables import TABLE_ID_ALPHABET, TABLE_ID_LENGTH, create_table, get_table
from splitpot.store.values import TableRecord
from splitpot.text import code_point, shows_nothing

CLUB_NAME_LENGTH = 40  # characters of a club's name, as a table's
LOG_LENGTH = 500  # lines of the log one read returns at most


class Role(StrEnum):
    """A player's place in a club; ``ASKED`` waits for a manager and is no member yet."""

    OWNER = "owner"
    MANAGER = "manager"
    MEMBER = "member"
    ASKED = "asked"


# What a role may do: all that the roles ranked below it may
RANKS = {Role.ASKED: 0, Role.MEMBER: 1, Role.MANAGER: 2, Role.OWNER: 3}
# Each command of a club (and each read of what members only see): the least role that
# may give it, and the refusal anyone else gets (docs/protocol.md, "Clubs")
COMMANDS = {
    "change": (Role.OWNER, marked("only the owner of club {club} may change it")),
    "role": (Role.OWNER, marked("only the owner of club {club} may change its roles")),
    "remove_manager": (Role.OWNER, marked("only the owner of club {club} may remove a manager")),
    "approve": (
        Role.MANAGER,
        marked("only a manager of club {club} may approve a request to join"),
    ),
    "reject": (Role.MANAGER, marked("only a manager of club {club} may reject a request to join")),
    "remove": (Role.MANAGER, marked("only a manager of club {club} may remove a member")),
    "invite": (Role.MANAGER, marked("only a manager of club {club} may make a new invite code")),
    "open_table": (Role.MANAGER, marked("only a manager of club {club} may open its tables")),
    "add_game": (Role.MANAGER, marked("only a manager of club {club} may add a weekly game")),
    "stop_game": (Role.MANAGER, marked("only a manager of club {club} may stop a weekly game")),
    "log": (Role.MANAGER, marked("only a manager of club {club} may read its log")),
    "members": (Role.MEMBER, marked("only a member of club {club} may see its members")),
    "lobby": (Role.MEMBER, marked("only a member of club {club} may see its lobby")),
    "ledger": (Role.MEMBER, marked("only a member of club {club} may see its ledger")),
}


class Membership(StrEnum):
    """How one joins: at once, by asking a manager, or by the invite code alone."""

    OPEN = "open"
    REQUEST = "request"
    CLOSED = "closed"


class NoClub(NotFound):
    """A club id that no club has."""


class ClubForbidden(StoreError):
    """A club's command by a player whose role does not allow it."""


class ClubConflict(StoreError):
    """A command that does not fit the player's place now: approving one who did not ask,
    joining twice."""


@dataclass(frozen=True, slots=True)
class Club:
    """A club as ``viewer`` reads it: ``role`` is the viewer's (None: not in the club);
    ``members`` counts the members, owner and managers included, not those who asked."""

    id: str
    name: str
    owner_id: int
    owner_name: str
    membership: Membership
    members: int
    created_at: datetime
    role: Role | None


@dataclass(frozen=True, slots=True)
class Member:
    """A player's place in a club: ``since`` they joined (or asked)."""

    player_id: int
    name: str
    role: Role
    since: datetime


@dataclass(frozen=True, slots=True)
class LogLine:
    """One line of a club's log: ``actor`` None is the room itself (a weekly game)."""

    id: int
    at: datetime
    actor_id: int | None
    actor_name: str | None
    kind: str
    fields: dict[str, Any]


@dataclass(frozen=True, slots=True)
class ClubTag:
    """The club a table belongs to, as its summary names it."""

    id: str
    name: str


# ------------------------------------------------------------ clubs


def create_club(
    session: Session, name: str, membership: str, owner_id: int, now: datetime
) -> tuple[Club, str]:
    """A new club owned by ``owner_id``, and its invite code (shown once)."""
    shown = club_name(name)
    joining = checked_membership(membership)
    owner = get_player(session, owner_id)
    code = new_secret()
    row = ClubRow(
        id=_new_club_id(session),
        name=shown,
        owner_id=owner_id,
        membership=joining.value,
        invite_hash=token_hash(code),
        created_at=now,
    )
    session.add(row)
    session.flush()
    session.add(ClubMemberRow(club_id=row.id, player_id=owner.id, role=Role.OWNER, since=now))
    write_log(session, row.id, owner_id, "created", now, name=shown, membership=joining.value)
    return club_value(session, row, owner_id), code


def _new_club_id(session: Session) -> str:
    while True:
        club_id = "".join(secrets.choice(TABLE_ID_ALPHABET) for _ in range(TABLE_ID_LENGTH))
        if session.get(ClubRow, club_id) is None:
            return club_id


def club_name(name: object) -> str:
    """A club's name as shown: trimmed, NFC, 1 to 40 characters, each printed and seen."""
    if not isinstance(name, str):
        raise StoreError(said("a club's name is text, not {value}", value=repr(name)))
    cleaned = unicodedata.normalize("NFC", name.strip())
    if not 0 < len(cleaned) <= CLUB_NAME_LENGTH:
        raise StoreError(
            said(
                "a club's name needs 1 to {most} characters: {name}",
                most=CLUB_NAME_LENGTH,
                name=repr(name),
            )
        )
    for char in cleaned:
        if shows_nothing(char) or not char.isprintable():
            raise StoreError(
                said(
                    "club name {name} holds {char}, which does not show",
                    name=repr(cleaned),
                    char=code_point(char),
                )
            )
    return cleaned


def checked_membership(membership: object) -> Membership:
    if membership not in tuple(Membership):
        raise StoreError(
            said("membership must be open, request or closed, not {value}", value=repr(membership))
        )
    return Membership(str(membership))


def get_club(session: Session, club_id: str) -> ClubRow:
    row = session.get(ClubRow, club_id)
    if row is None:
        raise NoClub(said("there is no club {club}", club=repr(club_id)))
    return row


def club_value(session: Session, row: ClubRow, viewer_id: int | None) -> Club:
    counted = select(func.count()).where(
        ClubMemberRow.club_id == row.id, ClubMemberRow.role != Role.ASKED
    )
    owner = get_player(session, row.owner_id)
    return Club(
        row.id,
        row.name,
        row.owner_id,
        owner.name,
        Membership(row.membership),
        int(session.scalar(counted) or 0),
        row.created_at,
        None if viewer_id is None else role_of(session, row.id, viewer_id),
    )


def club(session: Session, club_id: str, viewer_id: int) -> Club:
    return club_value(session, get_club(session, club_id), viewer_id)


def clubs_of(session: Session, player_id: int) -> list[Club]:
    """The clubs the player is in (or asked to join), oldest first."""
    rows = session.scalars(
        select(ClubRow)
        .join(ClubMemberRow, ClubMemberRow.club_id == ClubRow.id)
        .where(ClubMemberRow.player_id == player_id)
        .order_by(ClubRow.created_at, ClubRow.id)
    )
    return [club_value(session, row, player_id) for row in rows]


def change_club(
    session: Session,
    club_id: str,
    actor_id: int,
    name: str | None,
    membership: str | None,
    now: datetime,
) -> Club:
    """The owner renames the club or changes how one joins it."""
    row = allowed(session, club_id, actor_id, "change")
    if name is not None:
        row.name = club_name(name)
    if membership is not None:
        row.membership = checked_membership(membership).value
    write_log(session, club_id, actor_id, "changed", now, name=row.name, membership=row.membership)
    return club_value(session, row, actor_id)


def new_club_invite(session: Session, club_id: str, actor_id: int, now: datetime) -> str:
    """A manager's new invite code: the old one lets no one in any more."""
    row = allowed(session, club_id, actor_id, "invite")
    code = new_secret()
    row.invite_hash = token_hash(code)
    write_log(session, club_id, actor_id, "invite", now)
    return code


# ------------------------------------------------------------ members


def role_of(session: Session, club_id: str, player_id: int) -> Role | None:
    row = session.get(ClubMemberRow, (club_id, player_id))
    return None if row is None else Role(row.role)


def ranks(session: Session, club_id: str, player_id: int, least: Role) -> bool:
    """Whether the player's role in the club ranks ``least`` or higher."""
    role = role_of(session, club_id, player_id)
    return role is not None and RANKS[role] >= RANKS[least]


def allowed(session: Session, club_id: str, player_id: int, command: str) -> ClubRow:
    """The club, if the player's role may give ``command`` (``COMMANDS``); else
    ``ClubForbidden``, the command's refusal."""
    row = get_club(session, club_id)
    least, refusal = COMMANDS[command]
    if not ranks(session, club_id, player_id, least):
        raise ClubForbidden(said(refusal, club=club_id))
    return row


def join(session: Session, club_id: str, player_id: int, code: str | None, now: datetime) -> Club:
    """The player joins: with the club's invite code, or in an open club, as a member; in
    a club by request, as one who asked; a closed club only by its code."""
    row = get_club(session, club_id)
    player = get_player(session, player_id)
    role = role_of(session, club_id, player_id)
    if role is not None and role is not Role.ASKED:
        raise ClubConflict(said("{name} is already in club {club}", name=player.name, club=club_id))
    if code is not None and not hashes_match(row.invite_hash, code):
        raise ClubForbidden(said("that is not the invite code of club {club}", club=club_id))
    if code is None and row.membership == Membership.CLOSED:
        raise ClubForbidden(
            said("club {club} is closed: only its invite code lets one in", club=club_id)
        )
    if code is None and row.membership == Membership.REQUEST:
        if role is Role.ASKED:
            raise ClubConflict(
                said("{name} has already asked to join club {club}", name=player.name, club=club_id)
            )
        _place(session, club_id, player_id, Role.ASKED, now)
        write_log(session, club_id, player_id, "asked", now, **_who(player))
    else:
        _place(session, club_id, player_id, Role.MEMBER, now)
        by = "open" if code is None else "code"
        write_log(session, club_id, player_id, "joined", now, **_who(player), by=by)
    return club_value(session, row, player_id)


def _place(session: Session, club_id: str, player_id: int, role: Role, now: datetime) -> None:
    row = session.get(ClubMemberRow, (club_id, player_id))
    if row is None:
        session.add(ClubMemberRow(club_id=club_id, player_id=player_id, role=role, since=now))
    else:
        row.role, row.since = role, now
    session.flush()


def _who(player: PlayerRow) -> dict[str, Any]:
    return {"player": str(player.id), "name": player.name}


def leave(session: Session, club_id: str, player_id: int, now: datetime) -> None:
    """A member leaves the club (one who asked takes the request back); not its owner."""
    get_club(session, club_id)
    player = get_player(session, player_id)
    role = role_of(session, club_id, player_id)
    if role is None:
        raise ClubConflict(said("{name} is not in club {club}", name=player.name, club=club_id))
    if role is Role.OWNER:
        raise ClubForbidden(said("the owner cannot leave club {club}", club=club_id))
    session.delete(session.get(ClubMemberRow, (club_id, player_id)))
    write_log(session, club_id, player_id, "left", now, **_who(player))


def members(session: Session, club_id: str, viewer_id: int) -> list[Member]:
    """The club's members by role (owner, managers, members) then name; to a manager also
    those who asked, oldest request first, after them."""
    allowed(session, club_id, viewer_id, "members")
    rows = session.execute(
        select(ClubMemberRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == ClubMemberRow.player_id)
        .where(ClubMemberRow.club_id == club_id)
    ).all()
    found = [Member(row.player_id, name, Role(row.role), row.since) for row, name in rows]
    ranked = sorted(
        (m for m in found if m.role is not Role.ASKED),
        key=lambda m: (-RANKS[m.role], m.name.casefold(), m.player_id),
    )
    if not ranks(session, club_id, viewer_id, Role.MANAGER):
        return ranked
    waiting = sorted(
        (m for m in found if m.role is Role.ASKED), key=lambda m: (m.since, m.player_id)
    )
    return ranked + waiting


def member(session: Session, club_id: str, player_id: int) -> Member:
    row = session.get(ClubMemberRow, (club_id, player_id))
    player = get_player(session, player_id)
    if row is None:
        raise ClubConflict(said("{name} is not in club {club}", name=player.name, club=club_id))
    return Member(player_id, player.name, Role(row.role), row.since)


def answer_request(
    session: Session, club_id: str, actor_id: int, player_id: int, approve: bool, now: datetime
) -> Member | None:
    """A manager lets in one who asked (their member place), or turns them away (None)."""
    allowed(session, club_id, actor_id, "approve" if approve else "reject")
    player = get_player(session, player_id)
    if role_of(session, club_id, player_id) is not Role.ASKED:
        raise ClubConflict(
            said("{name} has not asked to join club {club}", name=player.name, club=club_id)
        )
    if approve:
        _place(session, club_id, player_id, Role.MEMBER, now)
        write_log(session, club_id, actor_id, "approved", now, **_who(player))
        return member(session, club_id, player_id)
    session.delete(session.get(ClubMemberRow, (club_id, player_id)))
    write_log(session, club_id, actor_id, "rejected", now, **_who(player))
    return None


def remove(session: Session, club_id: str, actor_id: int, player_id: int, now: datetime) -> None:
    """A manager removes a member; the owner a manager too; no one the owner."""
    allowed(session, club_id, actor_id, "remove")
    player = get_player(session, player_id)
    role = role_of(session, club_id, player_id)
    if role is None or role is Role.ASKED:
        raise ClubConflict(
            said("{name} is not a member of club {club}", name=player.name, club=club_id)
        )
    if role is Role.OWNER:
        raise ClubForbidden(said("no one may remove the owner of club {club}", club=club_id))
    if role is Role.MANAGER:
        allowed(session, club_id, actor_id, "remove_manager")
    session.delete(session.get(ClubMemberRow, (club_id, player_id)))
    write_log(session, club_id, actor_id, "removed", now, **_who(player))


def set_role(
    session: Session, club_id: str, actor_id: int, player_id: int, role: str, now: datetime
) -> Member:
    """The owner names a member a manager, or a manager a member again."""
    allowed(session, club_id, actor_id, "role")
    if role not in (Role.MANAGER, Role.MEMBER):
        raise StoreError(said("role must be manager or member, not {value}", value=repr(role)))
    player = get_player(session, player_id)
    now_role = role_of(session, club_id, player_id)
    if now_role is Role.OWNER:
        raise StoreError(said("the owner of club {club} stays its owner", club=club_id))
    if now_role is None or now_role is Role.ASKED:
        raise ClubConflict(
            said("{name} is not a member of club {club}", name=player.name, club=club_id)
        )
    row = session.get(ClubMemberRow, (club_id, player_id))
    assert row is not None
    row.role = Role(role)
    write_log(session, club_id, actor_id, "role", now, **_who(player), role=row.role)
    return member(session, club_id, player_id)


# ------------------------------------------------------------ the log


def write_log(
    session: Session,
    club_id: str,
    actor_id: int | None,
    kind: str,
    now: datetime,
    **fields: Any,
) -> None:
    """One line of the club's log (``actor_id`` None: the room itself)."""
    session.add(ClubLogRow(club_id=club_id, at=now, actor_id=actor_id, kind=kind, fields=fields))
    session.flush()


def club_log(session: Session, club_id: str, viewer_id: int, limit: int) -> list[LogLine]:
    """The club's log, the newest ``limit`` lines first; for its managers."""
    allowed(session, club_id, viewer_id, "log")
    rows = session.execute(
        select(ClubLogRow, PlayerRow.name)
        .outerjoin(PlayerRow, PlayerRow.id == ClubLogRow.actor_id)
        .where(ClubLogRow.club_id == club_id)
        .order_by(ClubLogRow.id.desc())
        .limit(max(1, min(limit, LOG_LENGTH)))
    ).all()
    return [
        LogLine(row.id, row.at, row.actor_id, name, row.kind, dict(row.fields))
        for row, name in rows
    ]


# ------------------------------------------------------------ the club's tables


def create_club_table(
    session: Session,
    club_id: str,
    name: str,
    settings: dict[str, Any],
    host_id: int,
    now: datetime,
) -> TableRecord:
    """A private table of the club (seen by its members), hosted by ``host_id``; no one
    gets its invite: its members see it as members."""
    get_club(session, club_id)
    record, _ = create_table(session, name, settings, host_id, True, now)
    get_table(session, record.id).club_id = club_id
    session.flush()
    return record


def table_club(session: Session, table_id: str) -> ClubTag | None:
    """The club the table belongs to, if any."""
    row = session.execute(
        select(ClubRow.id, ClubRow.name)
        .join(TableRow, TableRow.club_id == ClubRow.id)
        .where(TableRow.id == table_id)
    ).first()
    return None if row is None else ClubTag(row.id, row.name)


def sees_club_table(session: Session, table_id: str, player_id: int) -> bool:
    """Whether the table is a club's and the player one of its members."""
    found = session.scalar(
        select(ClubMemberRow.role)
        .join(TableRow, TableRow.club_id == ClubMemberRow.club_id)
        .where(TableRow.id == table_id, ClubMemberRow.player_id == player_id)
    )
    return found is not None and found != Role.ASKED


def club_tables(session: Session, club_id: str, viewer_id: int) -> list[str]:
    """The club's open tables, oldest first; for its members."""
    allowed(session, club_id, viewer_id, "lobby")
    query = (
        select(TableRow.id)
        .where(TableRow.club_id == club_id, TableRow.closed.is_(False))
        .order_by(TableRow.created_at, TableRow.id)
    )
    return list(session.scalars(query))
