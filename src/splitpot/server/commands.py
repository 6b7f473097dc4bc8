"""A client's command (the protocol's typed value) as the command its table takes: one
mapping for every table, whether this process runs it or another does (the other parses
the same frame and takes it the same way)."""

from __future__ import annotations

from typing import Any

from splitpot.protocol import (
    Act,
    Chat,
    Commit,
    Host,
    Leave,
    Preferences,
    Reveal,
    Sit,
    SitIn,
    SitOut,
    TableMessage,
    TopUp,
    Watch,
)


def table_command(command: TableMessage) -> tuple[str, dict[str, Any]]:
    """The table command's name and fields for a client's command."""
    match command:
        case Watch(invite=invite):
            return "watch", {"invite": invite}
        case Sit(seat=seat, buy_in=buy_in, post_now=post_now):
            return "sit", {"seat": seat, "buy_in": buy_in, "post_now": post_now}
        case Act(hand=hand, action=action, seat=seat):
            return "act", {"hand": hand, "action": action, "seat": seat}
        case SitOut():
            return "sit_out", {}
        case SitIn(post_now=post_now):
            return "sit_in", {"post_now": post_now}
        case Preferences(muck_losing=muck_losing):
            return "preferences", {"muck_losing": muck_losing}
        case Leave():
            return "leave", {}
        case TopUp(amount=amount):
            return "top_up", {"amount": amount}
        case Chat(text=text):
            return "chat", {"text": text}
        case Host():
            return "host", {
                "action": command.action,
                "seat": command.seat,
                "small_blind": command.small_blind,
                "big_blind": command.big_blind,
            }
        case Commit(commitment=commitment):
            return "commit", {"commitment": commitment}
        case Reveal(hand=hand, entropy=entropy):
            return "reveal", {"hand": hand, "entropy": entropy}
