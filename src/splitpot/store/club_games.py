"""A club's weekly games (issue 24): added and stopped by its managers, listed by their
next opening, and claimed when due: the claim moves ``next_at`` on in one conditional
UPDATE, so of the room's processes sharing the database exactly one opens each game."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.orm import Session

from splitpot.i18n import said
from splitpot.room.schedule import Weekly
from splitpot.store.clubs import Role, allowed, ranks, write_log
from splitpot.store.errors import StoreError
from splitpot.store.models import ClubGameRow, PlayerRow
from splitpot.store.players import get_player


@dataclass(frozen=True, slots=True)
class ClubGame:
    """A weekly game: its table settings (``name`` the game's), when it opens, its host,
    its next opening (UTC) and the table it opened last."""

    id: int
    club_id: str
    settings: dict[str, Any]
    when: Weekly
    host_id: int
    host_name: str
    next_at: datetime
    table_id: str | None
    active: bool


def _game_value(row: ClubGameRow, host_name: str) -> ClubGame:
    return ClubGame(
        row.id,
        row.club_id,
        dict(row.settings),
        Weekly(row.weekday, row.minute, row.zone),
        row.host_id,
        host_name,
        row.next_at,
        row.table_id,
        row.active,
    )


def add_game(
    session: Session,
    club_id: str,
    actor_id: int,
    settings: dict[str, Any],
    when: Weekly,
    host_id: int,
    next_at: datetime,
    now: datetime,
) -> ClubGame:
    """A manager adds a weekly game hosted by a manager of the club, first opening at
    ``next_at``."""
    allowed(session, club_id, actor_id, "add_game")
    host = get_player(session, host_id)
    if not ranks(session, club_id, host_id, Role.MANAGER):
        raise StoreError(
            said(
                "host: player {player} is not a manager of club {club}",
                player=host_id,
                club=club_id,
            )
        )
    row = ClubGameRow(
        club_id=club_id,
        settings=settings,
        weekday=when.weekday,
        minute=when.minute,
        zone=when.zone,
        host_id=host_id,
        next_at=next_at,
        table_id=None,
        active=True,
    )
    session.add(row)
    session.flush()
    write_log(
        session,
        club_id,
        actor_id,
        "game_added",
        now,
        game=str(row.id),
        name=settings.get("name"),
        weekday=when.weekday,
        time=when.time,
        zone=when.zone,
    )
    return _game_value(row, host.name)


def _game(session: Session, club_id: str, game_id: int) -> ClubGameRow:
    row = session.get(ClubGameRow, game_id)
    if row is None or row.club_id != club_id or not row.active:
        raise StoreError(said("club {club} has no game {game}", club=club_id, game=game_id))
    return row


def stop_game(session: Session, club_id: str, actor_id: int, game_id: int, now: datetime) -> None:
    """A manager stops a weekly game: it opens no more tables."""
    allowed(session, club_id, actor_id, "stop_game")
    row = _game(session, club_id, game_id)
    row.active = False
    name = row.settings.get("name")
    write_log(session, club_id, actor_id, "game_stopped", now, game=str(game_id), name=name)


def games(session: Session, club_id: str, viewer_id: int) -> list[ClubGame]:
    """The club's weekly games by their next opening; for its members."""
    allowed(session, club_id, viewer_id, "lobby")
    return _listed(session, ClubGameRow.club_id == club_id)


def due_games(session: Session, now: datetime) -> list[ClubGame]:
    """Every club's games whose opening has come, the longest due first."""
    return _listed(session, ClubGameRow.next_at <= now)


def _listed(session: Session, where: Any) -> list[ClubGame]:
    rows = session.execute(
        select(ClubGameRow, PlayerRow.name)
        .join(PlayerRow, PlayerRow.id == ClubGameRow.host_id)
        .where(where, ClubGameRow.active.is_(True))
        .order_by(ClubGameRow.next_at, ClubGameRow.id)
    ).all()
    return [_game_value(row, name) for row, name in rows]


def claim_game(session: Session, game_id: int, due_at: datetime, next_at: datetime) -> bool:
    """Take the opening due at ``due_at`` and move the game on to ``next_at``: True for
    the one caller whose UPDATE found the game still due then (and active)."""
    result = session.execute(
        update(ClubGameRow)
        .where(
            ClubGameRow.id == game_id,
            ClubGameRow.next_at == due_at,
            ClubGameRow.active.is_(True),
        )
        .values(next_at=next_at)
        .execution_options(synchronize_session=False)
    )
    assert isinstance(result, CursorResult)
    return result.rowcount == 1


def log_game(session: Session, game_id: int, kind: str, now: datetime, **fields: Any) -> None:
    """The room's line in the game's club's log (``game_opened``, ``game_missed``,
    ``game_failed``); an opened table is the game's last table from now on."""
    row = session.get(ClubGameRow, game_id)
    if row is None:
        raise StoreError(said("there is no weekly game {game}", game=game_id))
    if kind == "game_opened":
        row.table_id = fields["table"]
    write_log(session, row.club_id, None, kind, now, game=str(game_id), **fields)
