"""The host's room at the table (issue 24), on the table host with no server: seats by
approval (asked, approved with another stack, turned down, run out, withdrawn), the full
table's waiting list and the seat offered to the first in line, and the host's stack
edits (at once between hands, queued to the end of the hand in play); each host command
refused to anyone else, each told in the table's log."""

from __future__ import annotations

from typing import Any

import pytest
from host_helpers import ANN, BOB, CY, OPTIONS, Game, events, seated

from splitpot.engine import Action
from splitpot.protocol import ErrorCode, HostAction, ProtocolError
from splitpot.room import messages
from splitpot.room.commands import HostCommand, Leave, Person, Sit, WaitingList
from splitpot.room.driver import run
from splitpot.room.effects import (
    Announce,
    CashOut,
    ChangeTable,
    EditStack,
    Seated,
    StartHand,
    TakeSeat,
    Tell,
)
from splitpot.room.recovery import KeptSeat, KeptTable, LastHand, rebuild, restore
from splitpot.room.seating import OFFER_SECONDS, REQUEST_SECONDS
from splitpot.table import PlayerSat, StackEdited

DEE, EVE, FAY = Person(4, "Dee"), Person(5, "Eve"), Person(6, "Fay")


def announced(told: list[Tell]) -> list[dict[str, Any]]:
    """The room events told, as their JSON."""
    return [dict(tell.event) for tell in told if isinstance(tell, Announce)]


def refused(game: Game, command: Any) -> ProtocolError:
    """The command is refused, and asks no work of the store."""
    work = len(game.keeper.work)
    with pytest.raises(ProtocolError) as error:
        run(game.host.handle(command, game.now), game.keeper)
    assert len(game.keeper.work) == work, "refused: nothing asked of the store"
    return error.value


def host(action: HostAction, seat: int, amount: int | None = None, by: Person = ANN) -> HostCommand:
    return HostCommand(by, action, seat=seat, amount=amount)


# ------------------------------------------------------------ seats by approval


def test_a_seat_asked_for_waits_for_the_host_who_may_seat_the_player_with_another_stack() -> None:
    game = seated(ANN, approval=True)  # the host sits at once
    assert game.host.occupants[0].player_id == ANN.id
    told = game.do(Sit(BOB, 3, 120))
    assert game.keeper.work == [TakeSeat(0, ANN.id, 100)], "asked: nothing kept yet"
    [asked] = announced(told)
    assert asked == {
        "kind": "seat_request",
        "hand": None,
        "player": "2",
        "name": "Bob",
        "seat": 4,
        "buy_in": 120,
        "state": "asked",
        "seconds": REQUEST_SECONDS,
        "text": "Bob asks for seat 4 with 120",
    }
    assert Seated(BOB.id) in told, "the asker's connection watches the table"
    assert game.host.table.seats[3] is None
    taken = refused(game, Sit(CY, 3, 100))
    assert (taken.code, str(taken)) == (ErrorCode.SEAT_TAKEN, "seat 4 is held for Bob")
    again = refused(game, Sit(BOB, 2, 100))
    assert str(again) == "Bob has asked for seat 4 already: wait for the host"

    told = game.do(host(HostAction.APPROVE, 3, 150))
    assert game.keeper.work[-1] == TakeSeat(3, BOB.id, 150)
    assert [type(e) for e in events(told)] == [PlayerSat]
    assert game.host.table.seats[3] is not None and game.host.table.seats[3].stack == 150
    [approved] = announced(told)
    assert approved == {
        "kind": "host",
        "hand": None,
        "action": "approve",
        "by": "1",
        "seat": 4,
        "player": "2",
        "text": "The host seats Bob",
    }
    assert Seated(BOB.id) in told, "Bob's connections get the table whole, seated"
    assert game.host.seating.requests == {}


def test_a_request_turned_down_run_out_or_withdrawn_frees_the_seat_and_keeps_nothing() -> None:
    game = seated(ANN, approval=True)
    game.do(Sit(BOB, 1, 100))
    told = game.do(host(HostAction.REJECT, 1))
    assert announced(told)[0]["text"] == "The host turns down Bob's request"
    assert announced(told)[0]["action"] == "reject"

    game.do(Sit(CY, 1, 100))
    told = game.wait(REQUEST_SECONDS - 1)
    assert announced(told) == [] and game.host.seating.requests
    told = game.wait(1)
    [expired] = announced(told)
    assert (expired["state"], expired["text"]) == ("expired", "Cy's request for seat 2 runs out")

    game.do(Sit(DEE, 1, 100))
    [withdrawn] = announced(game.do(Leave(DEE)))
    assert withdrawn["state"] == "withdrawn"
    assert withdrawn["text"] == "Dee withdraws the request for seat 2"
    assert game.host.table.seats[1] is None and game.host.seating.requests == {}
    assert game.keeper.work == [TakeSeat(0, ANN.id, 100)], "no seat but the host's was kept"


def test_an_approval_that_no_longer_fits_is_refused_and_the_request_waits() -> None:
    game = seated(ANN, approval=True)
    game.do(Sit(BOB, 1, 100))
    error = refused(game, host(HostAction.APPROVE, 1, 10**6))
    assert error.code is ErrorCode.BUY_IN
    assert "the buy-in is" in str(error)
    nobody = refused(game, host(HostAction.APPROVE, 4))
    assert str(nobody) == "nobody asks for seat 5"
    assert 1 in game.host.seating.requests


@pytest.mark.parametrize(
    "command",
    [
        HostCommand(BOB, HostAction.APPROVE, seat=2),
        HostCommand(BOB, HostAction.REJECT, seat=2),
        HostCommand(BOB, HostAction.STACK, seat=0, amount=50),
        HostCommand(CY, HostAction.APPROVE, seat=2, amount=100),
        HostCommand(CY, HostAction.STACK, seat=1, amount=-50),
    ],
    ids=["approve", "reject", "stack", "approve-by-asker", "stack-own"],
)
def test_the_hosts_seat_and_stack_commands_are_refused_to_anyone_else(
    command: HostCommand,
) -> None:
    game = seated(ANN, BOB, approval=True)
    game.do(host(HostAction.APPROVE, 1))
    game.do(Sit(CY, 2, 100))
    error = refused(game, command)
    assert (error.code, str(error)) == (
        ErrorCode.FORBIDDEN,
        "only the host of table t1 may do that",
    )
    assert 2 in game.host.seating.requests
    assert [p.stack for p in game.host.table.seats if p is not None] == [100, 100]


# ------------------------------------------------------------ the waiting list


def test_a_full_tables_waiting_list_offers_a_freed_seat_to_the_first_in_line() -> None:
    game = seated(ANN, BOB, seats=2)
    free = refused(game, WaitingList(CY, join=False))
    assert str(free) == "Cy is not on the waiting list"
    [joined] = announced(game.do(WaitingList(CY, join=True)))
    assert joined == {
        "kind": "waiting_list",
        "hand": None,
        "player": "3",
        "name": "Cy",
        "joined": True,
        "waiting": 1,
        "text": "Cy joins the waiting list: number 1",
    }
    game.do(WaitingList(DEE, join=True))
    twice = refused(game, WaitingList(DEE, join=True))
    assert str(twice) == "Dee is number 2 on the waiting list"
    seated_already = refused(game, WaitingList(BOB, join=True))
    assert seated_already.code is ErrorCode.ALREADY_SEATED

    told = game.do(Leave(BOB))
    [offer] = announced(told)
    assert offer == {
        "kind": "seat_offer",
        "hand": None,
        "player": "3",
        "name": "Cy",
        "seat": 2,
        "state": "offered",
        "seconds": OFFER_SECONDS,
        "text": "Seat 2 is free for Cy, first on the waiting list",
    }
    held = refused(game, Sit(DEE, 1, 100))
    assert str(held) == "seat 2 is held for Cy"
    game.do(Sit(CY, 1, 100))
    assert game.host.occupants[1].player_id == CY.id
    assert [p.id for p in game.host.seating.waiting] == [DEE.id]
    assert game.host.seating.offer is None


def test_a_seat_offered_and_not_taken_goes_to_the_next_in_line() -> None:
    game = seated(ANN, BOB, seats=2)
    for person in (CY, DEE):
        game.do(WaitingList(person, join=True))
    game.do(Leave(BOB))
    told = game.wait(OFFER_SECONDS)
    expired, offered = announced(told)
    assert (expired["state"], expired["text"]) == ("expired", "Cy did not take seat 2 in time")
    assert (offered["player"], offered["state"]) == ("4", "offered")
    assert [p.id for p in game.host.seating.waiting] == [DEE.id]
    # a free seat: nobody joins a list
    game.do(Sit(DEE, 1, 100))
    game.do(Leave(DEE))
    no_need = refused(game, WaitingList(CY, join=True))
    assert str(no_need) == "seat 2 is free: sit there, no need to wait"


def test_one_turned_down_leaves_the_line_and_the_seat_goes_to_the_next() -> None:
    """At a table by approval the first in line asks for the seat offered: off the list;
    turned down, the seat is offered to the next in line, never to them again."""
    game = seated(ANN, approval=True, seats=2)
    game.do(Sit(BOB, 1, 100))
    game.do(host(HostAction.APPROVE, 1))
    for person in (CY, DEE):
        game.do(WaitingList(person, join=True))
    game.do(Leave(BOB))
    told = game.do(Sit(CY, 1, 100))
    taken, asked = announced(told)
    assert (taken["kind"], taken["state"], asked["kind"]) == ("seat_offer", "asked", "seat_request")
    assert [p.id for p in game.host.seating.waiting] == [DEE.id]
    twice = refused(game, WaitingList(CY, join=True))
    assert str(twice) == "Cy has asked for seat 2 already: wait for the host"
    told = game.do(host(HostAction.REJECT, 1))
    offered = announced(told)[-1]
    assert (offered["kind"], offered["player"], offered["state"]) == ("seat_offer", "4", "offered")


def test_while_players_wait_nobody_else_takes_a_freed_seat() -> None:
    game = seated(ANN, BOB, CY, seats=3)
    for person in (DEE, EVE):
        game.do(WaitingList(person, join=True))
    game.do(Leave(BOB))
    game.do(Leave(CY))  # two seats free: the first offered to Dee, Eve waits her turn
    jumped = refused(game, Sit(FAY, 2, 100))
    assert (jumped.code, str(jumped)) == (
        ErrorCode.NOT_NOW,
        "2 players wait for a seat here: join the waiting list",
    )
    game.do(WaitingList(FAY, join=True))
    game.do(Sit(DEE, 1, 100))
    offered = game.host.seating.offer
    assert offered is not None and (offered.person, offered.seat) == (EVE, 2)


def test_a_stack_edit_of_nothing_is_refused_alike_in_a_hand_and_between_hands() -> None:
    game = seated(ANN, BOB, CY)
    game.wait(10)
    assert game.host.table.hand is not None
    zero = refused(game, host(HostAction.STACK, 1, 0))
    assert (zero.code, str(zero)) == (
        ErrorCode.BAD_MESSAGE,
        "a stack edit is a whole number of chips other than 0, not 0",
    )


def test_the_state_lists_the_requests_the_waiting_list_and_the_offer() -> None:
    game = seated(ANN, BOB, seats=3, approval=True)
    game.do(host(HostAction.APPROVE, 1))
    game.do(Sit(CY, 2, 90))
    game.do(host(HostAction.APPROVE, 2))
    game.do(WaitingList(DEE, join=True))
    state = messages.table(game.host, game.host.table.view(None), lambda _: True)["state"]
    assert isinstance(state, dict)
    assert state["requests"] == []
    assert state["waiting_list"] == [{"player": "4", "name": "Dee"}]
    assert state["offer"] is None
    game.do(Leave(CY))
    state = messages.table(game.host, game.host.table.view(None), lambda _: True, wall=str)["state"]
    assert isinstance(state, dict)
    assert state["offer"] == {
        "player": "4",
        "name": "Dee",
        "seat": 3,
        "deadline": str(game.now + OFFER_SECONDS),
    }
    game.do(Sit(DEE, 2, 80))  # an offered seat at a table by approval: asked for
    state = messages.table(game.host, game.host.table.view(None), lambda _: True, wall=str)["state"]
    assert isinstance(state, dict)
    assert state["requests"] == [
        {
            "player": "4",
            "name": "Dee",
            "seat": 3,
            "buy_in": 80,
            "deadline": str(game.now + REQUEST_SECONDS),
        }
    ]
    assert state["offer"] is None


# ------------------------------------------------------------ stack edits


def test_a_stack_edit_between_hands_is_kept_with_its_author_and_told() -> None:
    game = seated(ANN, BOB)
    told = game.do(host(HostAction.STACK, 1, 500))
    assert game.keeper.work[-1] == EditStack(BOB.id, 500, ANN.id)
    assert events(told) == [StackEdited(1, "Bob", 500, 600)]
    assert announced(told)[0] | {"text": None} == {
        "kind": "host",
        "hand": None,
        "action": "stack",
        "by": "1",
        "seat": 2,
        "player": "2",
        "amount": 500,
        "text": None,
    }
    told = game.do(host(HostAction.STACK, 1, -600))
    assert events(told) == [StackEdited(1, "Bob", -600, 0)]
    error = refused(game, host(HostAction.STACK, 0, -101))
    assert str(error) == "Ann has 100: 101 cannot be taken"
    zero = refused(game, host(HostAction.STACK, 0, 0))
    assert str(zero) == "a stack edit is a whole number of chips other than 0, not 0"
    empty = refused(game, host(HostAction.STACK, 4, 10))
    assert str(empty) == "seat 5 is empty"


def test_a_stack_edit_during_a_hand_waits_for_its_end_and_a_take_stops_at_the_stack() -> None:
    game = seated(ANN, BOB, CY)
    game.wait(10)
    assert game.host.table.hand is not None
    told = game.do(host(HostAction.STACK, 2, 300))
    assert events(told) == [] and not any(isinstance(w, EditStack) for w in game.keeper.work)
    [said] = announced(told)
    assert said["text"] == "The host adds 300 to Cy's stack at the end of the hand"
    told = game.do(host(HostAction.STACK, 1, -(10**6)))
    assert announced(told)[0]["text"] == (
        "The host takes 1000000 from Bob's stack at the end of the hand"
    )
    game.passive()
    game.wait(0)
    edits = [w for w in game.keeper.work if isinstance(w, EditStack)]
    stacks = {s: p.stack for s, p in enumerate(game.host.table.seats) if p is not None}
    assert stacks[1] == 0, "the take stops at Bob's whole stack"
    [bob_edit] = [e for e in edits if e.player_id == BOB.id]
    [cy_edit] = [e for e in edits if e.player_id == CY.id]
    assert cy_edit == EditStack(CY.id, 300, ANN.id, queued=True)
    assert bob_edit.amount < 0 and bob_edit.author_id == ANN.id
    result = game.host.table.history[-1].hand.result
    assert result is not None
    total_after_hand = sum(result.stacks)
    assert sum(stacks.values()) == total_after_hand + 300 + bob_edit.amount


def test_a_player_leaving_at_the_hands_end_is_cashed_out_after_the_hosts_edit() -> None:
    game = seated(ANN, BOB, CY)
    game.wait(10)
    game.do(host(HostAction.STACK, 2, 50))
    game.do(Leave(CY))
    game.passive()
    game.wait(0)
    work = game.keeper.work
    edit = work.index(EditStack(CY.id, 50, ANN.id, queued=True))
    assert work.index(CashOut(CY.id)) > edit


def test_a_fold_then_edit_between_hands_for_a_player_out_of_the_hand() -> None:
    game = seated(ANN, BOB, CY)
    game.wait(10)
    hand = game.host.table.hand
    assert hand is not None
    seat = game.host.table.seat_to_act
    assert seat is not None
    game.act(Action.fold())
    told = game.do(host(HostAction.STACK, seat, 10))
    assert "at the end of the hand" in announced(told)[0]["text"], "folded, still in the hand"


def test_a_stack_edit_waiting_for_the_hands_end_outlives_a_restart() -> None:
    """The edit is kept in the table's record before it is told; a host restored in the
    middle of the hand applies it when the hand ends, then forgets it in the record."""
    game = seated(ANN, BOB, CY)
    game.wait(10)
    host = game.host
    assert host.playing is not None
    told = game.do(HostCommand(ANN, HostAction.STACK, seat=2, amount=70))
    kept = [w for w in game.keeper.work if isinstance(w, ChangeTable)]
    assert kept == [ChangeTable({"stack_edits": {CY.id: [70, ANN.id]}})]
    assert announced(told), "told after it is kept"

    setup = next(w.setup for w in game.keeper.work if isinstance(w, StartHand))
    logged = tuple((w.seat, w.kind, w.amount) for w in game.keeper.logged())
    last = LastHand(host.playing.id, 1, 1, game.keeper.started_at, True, False, setup, logged)
    rebuilt = rebuild(last, host.settings)
    seats = [KeptSeat(seat, o.player_id, o.name, 100, None) for seat, o in host.occupants.items()]
    document = {"stack_edits": {str(CY.id): [70, ANN.id]}}  # as the store gives it back
    edits = {int(p): (c, a) for p, (c, a) in document["stack_edits"].items()}
    restored = Game()
    restored.host = restore(
        KeptTable("t1", host.settings, ANN.id, stack_edits=edits), rebuilt, seats, OPTIONS
    ).host
    restored.now = game.now
    restored.passive()
    restored.wait(0)
    work = restored.keeper.work
    edit = EditStack(CY.id, 70, ANN.id, queued=True)  # the store forgets its entry with it
    assert edit in work
    assert work.index(edit) < work.index(ChangeTable({"stack_edits": {}}))


def test_a_restored_table_between_hands_settles_the_edits_of_a_hand_that_ended() -> None:
    """The crash came after the hand's result and before the edits: due at once."""
    game = seated(ANN, BOB, CY)
    host = game.host
    host.occupants[1].stack_edit, host.occupants[1].edit_author = -30, ANN.id
    told = run(host.settle_stack_edits(), game.keeper)
    assert events(told) == [StackEdited(1, "Bob", -30, 70)]
    assert game.keeper.work[-2:] == [
        EditStack(BOB.id, -30, ANN.id, queued=True),
        ChangeTable({"stack_edits": {}}),
    ]
    assert host.table.seats[1] is not None and host.table.seats[1].stack == 70


@pytest.mark.parametrize("action", list(HostAction), ids=[a.value for a in HostAction])
def test_every_host_command_is_refused_to_a_player_who_is_not_the_host(
    action: HostAction,
) -> None:
    """Each of the host's commands, well formed, from a seated player who is not the host:
    refused by name, no work asked, nobody told."""
    game = seated(ANN, BOB, CY, bomb_pot=1, audit=True, private=True)
    command = HostCommand(
        BOB,
        action,
        seat=2,
        small_blind=2,
        big_blind=4,
        options={"ante": 1},
        amount=10,
    )
    before = game.host.table.view(None)
    error = refused(game, command)
    assert (error.code, str(error)) == (
        ErrorCode.FORBIDDEN,
        "only the host of table t1 may do that",
    )
    assert game.host.table.view(None) == before and game.host.host_id == ANN.id
