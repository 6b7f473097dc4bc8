"""Where a room's tables go among its processes: a new table to the least loaded, the
tables of a process that died dealt out alike by every process from the same beats."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Node:
    """A live process of the room, as its last beat described it."""

    id: str  # "<lease name>/<boot>": a restarted process is a new node
    url: str  # where clients reach it (http://host:port)
    tables: int  # tables it runs
    connections: int  # WebSockets it serves
    age: float  # seconds since its last beat, when this process looked
    link: str = ""  # where the others reach it directly, host:port (server/link.py), if so


def least_loaded(nodes: list[Node]) -> Node | None:
    """Where a new table goes: the live process running the fewest tables (then the one
    serving the fewest connections)."""
    return min(nodes, key=lambda node: (node.tables, node.connections, node.id), default=None)


def deal(tables: list[str], loads: dict[str, int]) -> dict[str, str]:
    """Free tables dealt to processes (``loads``: each one's tables now): each table, in
    order of id, to the process with the fewest so far (then the least id)."""
    loads = dict(loads)
    dealt = {}
    for table in sorted(tables):
        taker = min(loads, key=lambda node: (loads[node], node))
        loads[taker] += 1
        dealt[table] = taker
    return dealt
