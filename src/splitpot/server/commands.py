"""A client's command (the protocol's typed value) as the request its table's actor takes:
one mapping for every table, whether this process runs it or another does (the other
parses the same frame and takes it the same way)."""

from __future__ import annotations

from typing import assert_never

from splitpot import protocol
from splitpot.i18n import said
from splitpot.protocol import ErrorCode, ProtocolError, TableMessage
from splitpot.protocol.commands import ChooseStraddle, Rabbit, RunIt, WaitingList
from splitpot.room import commands as host
from splitpot.server.actor import Request, Unwatch, Watch
from splitpot.server.connection import Connection


def request(connection: Connection, command: TableMessage) -> Request:
    """The table's request for a client's command; every command but ``watch`` needs a
    player (a watcher only watches)."""
    return Request(connection, _command(connection, command), command.ref)


def unwatch(connection: Connection) -> Request:
    """The connection goes away: the table forgets it (nobody waits for the answer)."""
    return Request(connection, Unwatch())


def _command(connection: Connection, command: TableMessage) -> host.TableCommand | Watch:
    if isinstance(command, protocol.Watch):
        return Watch(command.invite)
    player = connection.player
    if player is None:
        raise ProtocolError(
            ErrorCode.FORBIDDEN,
            said("say hello with a token first: watchers only watch"),
            command.ref,
        )
    who = host.Person(player.id, player.name)
    match command:
        case protocol.Sit(seat=seat, buy_in=buy_in, post_now=post_now):
            return host.Sit(who, seat, buy_in, post_now)
        case protocol.Act(hand=hand, action=action, seat=seat):
            return host.Act(who, action, hand, seat)
        case protocol.SitOut():
            return host.SitOut(who)
        case protocol.SitIn(post_now=post_now):
            return host.SitIn(who, post_now)
        case protocol.Preferences(muck_losing=muck_losing):
            return host.Preferences(who, muck_losing)
        case protocol.Leave():
            return host.Leave(who)
        case protocol.TopUp(amount=amount):
            return host.TopUp(who, amount)
        case protocol.Chat(text=text):
            return host.Chat(who, text, watching=False)  # the actor knows whether it watches
        case protocol.Host(
            action=action,
            seat=seat,
            small_blind=small,
            big_blind=big,
            options=options,
            amount=amount,
        ):
            return host.HostCommand(who, action, seat, small, big, options, amount)
        case protocol.Commit(commitment=commitment):
            return host.Commit(who, bytes.fromhex(commitment))
        case protocol.Reveal(hand=hand, entropy=entropy):
            return host.Reveal(who, hand, bytes.fromhex(entropy))
        case RunIt(hand=hand, yes=yes):
            return host.RunIt(who, yes, hand)
        case Rabbit():
            return host.Rabbit(who)
        case ChooseStraddle(straddle=straddle):
            return host.ChooseStraddle(who, straddle)
        case WaitingList(join=join):
            return host.WaitingList(who, join)
    assert_never(command)
