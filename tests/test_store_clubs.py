"""The store's clubs (store/clubs.py, club_games.py, club_ledger.py): members and roles,
invite codes, each command's role and log line, the club's tables, weekly games claimed
once among processes, and the club's ledger and settle-up. On SQLite and PostgreSQL."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from store_fixtures import SETUP

from splitpot.room.schedule import Weekly
from splitpot.store import Payment, Store
from splitpot.store.club_ledger import Span
from splitpot.store.clubs import ClubConflict, ClubForbidden, Membership, NoClub, Role
from splitpot.store.errors import StoreError

pytest_plugins = ["store_fixtures"]

START = datetime(2026, 12, 1, 18, 0, tzinfo=UTC)
FRIDAY_AT_EIGHT = Weekly(4, 20 * 60, "Europe/London")


class Clock:
    """A clock the test moves."""

    def __init__(self) -> None:
        self.moment = START

    def __call__(self) -> datetime:
        return self.moment


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def clubbed(make_store: Callable[..., Store], clock: Clock) -> Store:
    return make_store(clock=clock)


def players(store: Store, *names: str) -> list[int]:
    return [store.create_guest(name).player.id for name in names]


def kinds(store: Store, club_id: str, owner: int) -> list[str]:
    return [line.kind for line in reversed(store.club_log(club_id, owner, 500))]


def test_a_club_is_made_with_its_owner_and_code(clubbed: Store) -> None:
    [ann, bob] = players(clubbed, "Ann", "Bob")
    club, code = clubbed.create_club("  Friday club ", "closed", ann)
    assert (club.name, club.membership, club.owner_name, club.members) == (
        "Friday club",
        Membership.CLOSED,
        "Ann",
        1,
    )
    assert club.role is Role.OWNER
    assert len(code) == 43 and code not in str(clubbed.club(club.id, ann))
    assert clubbed.club(club.id, bob).role is None
    assert clubbed.join_club(club.id, bob, code).role is Role.MEMBER
    assert clubbed.club(club.id, ann).members == 2
    assert [c.id for c in clubbed.clubs_of(bob)] == [club.id]
    with pytest.raises(NoClub, match="there is no club 'nope'"):
        clubbed.club("nope", ann)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("", "a club's name needs 1 to 40 characters: ''"),
        ("x" * 41, "a club's name needs 1 to 40 characters"),
        ("a\u200bb", "club name 'a\\u200bb' holds U+200B ZERO WIDTH SPACE, which does not show"),
    ],
)
def test_a_bad_name_or_membership_is_refused(clubbed: Store, name: str, message: str) -> None:
    [ann] = players(clubbed, "Ann")
    with pytest.raises(StoreError, match=re.escape(message)):
        clubbed.create_club(name, "open", ann)
    with pytest.raises(StoreError, match="membership must be open, request or closed, not 'x'"):
        clubbed.create_club("Club", "x", ann)
    assert clubbed.clubs_of(ann) == []


def test_joining_by_membership_and_by_code(clubbed: Store) -> None:
    [ann, bob, cy, di] = players(clubbed, "Ann", "Bob", "Cy", "Di")
    club, code = clubbed.create_club("Club", "request", ann)
    assert clubbed.join_club(club.id, bob, None).role is Role.ASKED
    with pytest.raises(ClubConflict, match="Bob has already asked to join club"):
        clubbed.join_club(club.id, bob, None)
    assert clubbed.club(club.id, ann).members == 1  # one who asked is no member yet
    with pytest.raises(ClubForbidden, match="that is not the invite code of club"):
        clubbed.join_club(club.id, cy, "wrong")
    assert clubbed.join_club(club.id, cy, code).role is Role.MEMBER
    with pytest.raises(ClubConflict, match="Cy is already in club"):
        clubbed.join_club(club.id, cy, code)
    clubbed.change_club(club.id, ann, None, "open")
    assert clubbed.join_club(club.id, di, None).role is Role.MEMBER
    clubbed.change_club(club.id, ann, "Renamed", "closed")
    [eve] = players(clubbed, "Eve")
    with pytest.raises(ClubForbidden, match="is closed: only its invite code lets one in"):
        clubbed.join_club(club.id, eve, None)
    fresh = clubbed.new_club_invite(club.id, ann)
    with pytest.raises(ClubForbidden, match="that is not the invite code"):
        clubbed.join_club(club.id, eve, code)  # the old code lets no one in
    assert clubbed.join_club(club.id, eve, fresh).role is Role.MEMBER
    lines = clubbed.club_log(club.id, ann, 500)
    assert [(line.kind, line.fields.get("name"), line.fields.get("by")) for line in lines] == [
        ("joined", "Eve", "code"),
        ("invite", None, None),
        ("changed", "Renamed", None),
        ("joined", "Di", "open"),
        ("changed", "Club", None),
        ("joined", "Cy", "code"),
        ("asked", "Bob", None),
        ("created", "Club", None),
    ]
    assert lines[0].actor_name == "Eve" and lines[1].actor_name == "Ann"


def test_requests_are_approved_or_rejected_by_a_manager(clubbed: Store) -> None:
    [ann, bob, cy, di] = players(clubbed, "Ann", "Bob", "Cy", "Di")
    club, code = clubbed.create_club("Club", "request", ann)
    clubbed.join_club(club.id, bob, code)
    clubbed.join_club(club.id, cy, None)
    clubbed.join_club(club.id, di, None)
    with pytest.raises(ClubForbidden, match=f"only a manager of club {club.id} may approve"):
        clubbed.answer_club_request(club.id, bob, cy, True)
    with pytest.raises(ClubForbidden, match=f"only a manager of club {club.id} may reject"):
        clubbed.answer_club_request(club.id, bob, cy, False)
    members = clubbed.club_members(club.id, ann)
    assert [(m.name, m.role) for m in members] == [
        ("Ann", Role.OWNER),
        ("Bob", Role.MEMBER),
        ("Cy", Role.ASKED),
        ("Di", Role.ASKED),
    ]
    assert [m.name for m in clubbed.club_members(club.id, bob)] == ["Ann", "Bob"]
    with pytest.raises(ClubForbidden, match=f"only a member of club {club.id} may see its members"):
        clubbed.club_members(club.id, cy)
    approved = clubbed.answer_club_request(club.id, ann, cy, True)
    assert approved is not None and approved.role is Role.MEMBER
    assert clubbed.answer_club_request(club.id, ann, di, False) is None
    assert clubbed.club(club.id, di).role is None
    with pytest.raises(ClubConflict, match="Bob has not asked to join club"):
        clubbed.answer_club_request(club.id, ann, bob, True)
    assert kinds(clubbed, club.id, ann)[-2:] == ["approved", "rejected"]


def test_roles_and_removals(clubbed: Store) -> None:
    [ann, bob, cy, di] = players(clubbed, "Ann", "Bob", "Cy", "Di")
    club, code = clubbed.create_club("Club", "open", ann)
    for player in (bob, cy, di):
        clubbed.join_club(club.id, player, code)
    with pytest.raises(
        ClubForbidden, match=f"only the owner of club {club.id} may change its roles"
    ):
        clubbed.set_club_role(club.id, bob, cy, "manager")
    assert clubbed.set_club_role(club.id, ann, bob, "manager").role is Role.MANAGER
    with pytest.raises(
        ClubForbidden, match=f"only the owner of club {club.id} may change its roles"
    ):
        clubbed.set_club_role(club.id, bob, cy, "manager")  # a manager names no manager
    with pytest.raises(StoreError, match="role must be manager or member, not 'owner'"):
        clubbed.set_club_role(club.id, ann, cy, "owner")
    with pytest.raises(StoreError, match="stays its owner"):
        clubbed.set_club_role(club.id, ann, ann, "member")
    with pytest.raises(ClubForbidden, match=f"only the owner of club {club.id} may change it"):
        clubbed.change_club(club.id, bob, "Mine", None)
    with pytest.raises(
        ClubForbidden, match=f"only a manager of club {club.id} may remove a member"
    ):
        clubbed.remove_club_member(club.id, cy, di)
    clubbed.remove_club_member(club.id, bob, di)  # a manager removes a member
    clubbed.set_club_role(club.id, ann, cy, "manager")
    with pytest.raises(
        ClubForbidden, match=f"only the owner of club {club.id} may remove a manager"
    ):
        clubbed.remove_club_member(club.id, bob, cy)
    with pytest.raises(ClubForbidden, match="no one may remove the owner"):
        clubbed.remove_club_member(club.id, bob, ann)
    clubbed.remove_club_member(club.id, ann, cy)
    with pytest.raises(ClubConflict, match="Cy is not a member of club"):
        clubbed.remove_club_member(club.id, ann, cy)
    with pytest.raises(ClubForbidden, match="the owner cannot leave"):
        clubbed.leave_club(club.id, ann)
    clubbed.leave_club(club.id, bob)
    with pytest.raises(ClubConflict, match="Bob is not in club"):
        clubbed.leave_club(club.id, bob)
    assert [(m.name, m.role) for m in clubbed.club_members(club.id, ann)] == [("Ann", Role.OWNER)]
    assert kinds(clubbed, club.id, ann)[4:] == ["role", "removed", "role", "removed", "left"]


def test_a_club_table_is_seen_by_its_members(clubbed: Store) -> None:
    [ann, bob, cy] = players(clubbed, "Ann", "Bob", "Cy")
    club, _ = clubbed.create_club("Club", "request", ann)
    clubbed.join_club(club.id, cy, None)  # asked: not a member
    table = clubbed.create_club_table(club.id, "Club table", {"seats": 6}, ann)
    assert table.private
    tag = clubbed.table_club(table.id)
    assert tag is not None and (tag.id, tag.name) == (club.id, "Club")
    assert clubbed.sees_club_table(table.id, ann)
    assert not clubbed.sees_club_table(table.id, bob)
    assert not clubbed.sees_club_table(table.id, cy)
    assert clubbed.club_tables(club.id, ann) == [table.id]
    with pytest.raises(ClubForbidden, match=f"only a member of club {club.id} may see its lobby"):
        clubbed.club_tables(club.id, bob)
    other, _ = clubbed.create_table("Public", {"seats": 6}, bob)
    assert clubbed.table_club(other.id) is None
    clubbed.close_table(table.id)
    assert clubbed.club_tables(club.id, ann) == []


def test_weekly_games_are_claimed_once(clubbed: Store, clock: Clock) -> None:
    [ann, bob] = players(clubbed, "Ann", "Bob")
    club, code = clubbed.create_club("Club", "open", ann)
    clubbed.join_club(club.id, bob, code)
    first = FRIDAY_AT_EIGHT.next_after(START)
    settings: dict[str, Any] = {"name": "Friday O8", "seats": 6}
    with pytest.raises(
        ClubForbidden, match=f"only a manager of club {club.id} may add a weekly game"
    ):
        clubbed.add_club_game(club.id, bob, settings, FRIDAY_AT_EIGHT, bob, first)
    with pytest.raises(StoreError, match=f"host: player {bob} is not a manager of club"):
        clubbed.add_club_game(club.id, ann, settings, FRIDAY_AT_EIGHT, bob, first)
    game = clubbed.add_club_game(club.id, ann, settings, FRIDAY_AT_EIGHT, ann, first)
    later = clubbed.add_club_game(
        club.id, ann, settings, Weekly(5, 0, "UTC"), ann, first + timedelta(hours=5)
    )
    assert [(g.id, g.host_name, g.next_at) for g in clubbed.weekly_games(club.id, bob)] == [
        (game.id, "Ann", first),
        (later.id, "Ann", first + timedelta(hours=5)),
    ]
    assert clubbed.due_games(first - timedelta(seconds=1)) == []
    assert [g.id for g in clubbed.due_games(first)] == [game.id]
    following = FRIDAY_AT_EIGHT.next_after(first)
    assert clubbed.claim_game(game.id, first, following)
    assert not clubbed.claim_game(game.id, first, following)  # taken: no second opening
    assert clubbed.due_games(first) == []
    table = clubbed.create_club_table(club.id, "Friday O8 — 2026-12-04", settings, ann)
    clubbed.log_game(game.id, "game_opened", table=table.id, name=table.name)
    [_, listed] = clubbed.weekly_games(club.id, ann)  # now after the Saturday game
    assert (listed.id, listed.next_at, listed.table_id) == (game.id, following, table.id)
    with pytest.raises(
        ClubForbidden, match=f"only a manager of club {club.id} may stop a weekly game"
    ):
        clubbed.stop_club_game(club.id, bob, game.id)
    clubbed.stop_club_game(club.id, ann, game.id)
    with pytest.raises(StoreError, match=f"has no game {game.id}"):
        clubbed.stop_club_game(club.id, ann, game.id)
    assert [g.id for g in clubbed.weekly_games(club.id, ann)] == [later.id]
    assert not clubbed.claim_game(game.id, following, following + timedelta(days=7))
    assert kinds(clubbed, club.id, ann)[-4:] == [
        "game_added",
        "game_added",
        "game_opened",
        "game_stopped",
    ]
    opened = clubbed.club_log(club.id, ann, 2)[1]
    assert opened.actor_id is None and opened.fields["game"] == str(game.id)


def test_processes_racing_for_one_opening_open_it_once(
    make_store: Callable[..., Store], clock: Clock
) -> None:
    stores = [make_store(clock=clock) for _ in range(4)]
    [ann] = players(stores[0], "Ann")
    club, _ = stores[0].create_club("Club", "open", ann)
    first = FRIDAY_AT_EIGHT.next_after(START)
    game = stores[0].add_club_game(club.id, ann, {"name": "G"}, FRIDAY_AT_EIGHT, ann, first)
    following = FRIDAY_AT_EIGHT.next_after(first)
    won: list[bool] = []
    start = threading.Barrier(len(stores))

    def claim(store: Store) -> None:
        start.wait()
        won.append(store.claim_game(game.id, first, following))

    threads = [threading.Thread(target=claim, args=(store,)) for store in stores]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(won) == [False, False, False, True]


def play(store: Store, table_id: str, results: dict[int, int], rake: int = 0) -> None:
    hand = store.start_hand(table_id, SETUP)
    store.finish_hand(hand.id, {}, results, rake)


def test_the_club_ledger_and_settle_up(clubbed: Store, clock: Clock) -> None:
    [ann, bob, cy, di] = players(clubbed, "Ann", "Bob", "Cy", "Di")
    club, code = clubbed.create_club("Club", "open", ann)
    for player in (bob, cy):
        clubbed.join_club(club.id, player, code)
    first = clubbed.create_club_table(club.id, "Week 1", {"seats": 6}, ann)
    for seat, player in enumerate((ann, bob, cy), start=1):
        clubbed.sit(first.id, seat, player, 500)
    play(clubbed, first.id, {ann: 100, bob: -60, cy: -40})
    play(clubbed, first.id, {ann: -30, bob: 35, cy: -10}, rake=5)
    clock.moment = START + timedelta(days=7)
    second = clubbed.create_club_table(club.id, "Week 2", {"seats": 6}, bob)
    for seat, player in enumerate((bob, cy), start=1):
        clubbed.sit(second.id, seat, player, 500)
    play(clubbed, second.id, {bob: -200, cy: 200})
    elsewhere, _ = clubbed.create_table("Not the club's", {"seats": 6}, di)
    clubbed.sit(elsewhere.id, 1, di, 500)
    clubbed.sit(elsewhere.id, 2, ann, 500)
    play(clubbed, elsewhere.id, {di: 300, ann: -300})

    whole = clubbed.club_results(club.id, bob, Span())
    assert (whole.hands, whole.rake) == (3, 5)
    assert [(p.name, p.tables, p.hands, p.net) for p in whole.players] == [
        ("Cy", 2, 3, 150),
        ("Ann", 1, 2, 70),
        ("Bob", 2, 3, -225),
    ]
    assert sum(p.net for p in whole.players) + whole.rake == 0
    week = Span(START, START + timedelta(days=7))
    assert [(p.name, p.net) for p in clubbed.club_results(club.id, bob, week).players] == [
        ("Ann", 70),
        ("Bob", -25),
        ("Cy", -50),
    ]
    night = clubbed.club_results(club.id, ann, Span(table=second.id))
    assert [(p.name, p.net) for p in night.players] == [("Cy", 200), ("Bob", -200)]
    payments = clubbed.club_settle(club.id, cy, Span())
    owed: dict[str, int] = {}
    for payment in payments:
        owed[payment.payer] = owed.get(payment.payer, 0) - payment.amount
        owed[payment.payee] = owed.get(payment.payee, 0) + payment.amount
    assert owed == {"Cy": 150, "Ann": 70, "Bob": -225, "house": 5}
    assert clubbed.club_settle(club.id, cy, Span(table=second.id)) == [Payment("Bob", "Cy", 200)]
    with pytest.raises(StoreError, match=f"table {elsewhere.id} is not a table of club"):
        clubbed.club_results(club.id, ann, Span(table=elsewhere.id))
    with pytest.raises(ClubForbidden, match=f"only a member of club {club.id} may see its ledger"):
        clubbed.club_settle(club.id, di, Span())


def test_the_log_is_for_managers_newest_first(clubbed: Store) -> None:
    [ann, bob] = players(clubbed, "Ann", "Bob")
    club, code = clubbed.create_club("Club", "open", ann)
    clubbed.join_club(club.id, bob, code)
    with pytest.raises(ClubForbidden, match=f"only a manager of club {club.id} may read its log"):
        clubbed.club_log(club.id, bob, 10)
    clubbed.log_club(club.id, ann, "table_opened", table="t1", name="Home")
    [newest] = clubbed.club_log(club.id, ann, 1)
    assert (newest.kind, newest.actor_name, newest.fields) == (
        "table_opened",
        "Ann",
        {"table": "t1", "name": "Home"},
    )
