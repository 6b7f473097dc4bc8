"""Who may reach the room, and how often (docs/security.md): the names it answers to
(the Host header, against DNS rebinding), the pages whose WebSockets it takes (Origin),
and the rate limits of logins, new guests, hand histories and notes."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable
from urllib.parse import urlsplit

from splitpot.i18n import Said, said
from splitpot.protocol import ErrorCode, ProtocolError
from splitpot.server.options import RoomOptions
from splitpot.store.players import name_key

LOGIN_RATE = 10  # login attempts a minute for one name from one address
NAME_RATE = 20  # login attempts a minute for one name from all addresses together
ADDRESS_RATE = 30  # sign-ups and logins a minute from one address
NOTE_RATE = 60  # notes written or deleted a minute by one player
LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")  # this machine, by a loopback address


class Guard:
    """The room's door; ``servers``: the addresses of the room's processes now."""

    def __init__(self, options: RoomOptions, servers: Callable[[], list[str]]) -> None:
        self.options = options
        self._servers = servers
        self._tries: dict[tuple[str, str], list[float]] = {}

    def origin_allowed(self, origin: str | None, host: str | None) -> bool:
        """A browser's WebSocket must come from the room's own pages (or a listed origin);
        clients that send no Origin (terminal clients, bots) are not browsers."""
        if origin is None:
            return True
        if origin in self.options.origins or origin in self._servers():
            return True
        return host is not None and urlsplit(origin).netloc == host

    def host_allowed(self, host: str, local: str | None) -> bool:
        """A request must name the room in its Host header, or another site's name pointed
        at this machine (DNS rebinding) would reach it with that site's pages: the address
        it came in on (``local``; a loopback one by any loopback name), or the host of
        ``url`` or of a listed origin. The port is not compared (a proxy's may differ)."""
        try:
            name = urlsplit(f"//{host}").hostname
        except ValueError:  # an unclosed [ of an IPv6 address
            return False
        own = {urlsplit(url).hostname for url in (self.options.url, *self.options.origins) if url}
        if local is not None:
            own.add(local)
            if _is_loopback(local):
                own.update(LOOPBACK_NAMES)
        return name is not None and name in own

    def login_attempt(self, address: str, name: str) -> None:
        """At most LOGIN_RATE tries a minute for one name from one address, NAME_RATE for
        one name from all addresses (a guesser with many addresses), and ADDRESS_RATE for
        all names from one address (password hashing is costly). Names count as accounts
        compare them."""
        key = "name:" + name_key(name.strip())
        self._spend(
            said("too many login attempts: wait a minute"),
            ((address, key), LOGIN_RATE),
            (("*", key), NAME_RATE),
            ((address, ""), ADDRESS_RATE),
        )

    def guest_made(self, address: str) -> None:
        """At most ``guests_per_minute`` new guests a minute from one address: each is a
        player and a session in the database."""
        self._spend(
            said("too many new guests from one address: wait a minute"),
            ((address, "guests"), self.options.guests_per_minute),
        )

    def hands_read(self, address: str, *, listed: bool) -> None:
        """Hand histories cost CPU to build (each hand is replayed): at most
        ``hand_lists_per_minute`` lists of a table's hands (``listed``) and
        ``hands_per_minute`` single hands a minute from one address."""
        if listed:
            kind, most = "lists of hands", self.options.hand_lists_per_minute
            refusal = said("too many lists of hands asked from one address: wait a minute")
        else:
            kind, most = "hands", self.options.hands_per_minute
            refusal = said("too many hands asked from one address: wait a minute")
        self._spend(refusal, ((address, kind), most))

    def note_changed(self, player_id: int) -> None:
        """At most NOTE_RATE notes written or deleted a minute by one player (each is a
        write to the database), from any address."""
        self._spend(
            said("too many notes changed: wait a minute"),
            ((f"player {player_id}", "notes"), NOTE_RATE),
        )

    def _spend(self, refusal: Said, *allowances: tuple[tuple[str, str], int]) -> None:
        """One more try against each (key, most a minute), or refused (nothing counted)."""
        now = time.monotonic()
        if len(self._tries) > 10_000:  # forget the addresses that have gone quiet
            self._tries = {k: t for k, t in self._tries.items() if now - t[-1] < 60}
        recent = {
            key: [t for t in self._tries.get(key, []) if now - t < 60] for key, _ in allowances
        }
        if any(len(recent[key]) >= most for key, most in allowances):
            raise ProtocolError(ErrorCode.RATE_LIMITED, refusal)
        for key, tries in recent.items():
            self._tries[key] = [*tries, now]


def _is_loopback(address: str) -> bool:
    """Whether ``address`` is a loopback IP address (not a name, not a Unix socket's path)."""
    try:
        return ipaddress.ip_address(address).is_loopback
    except ValueError:
        return False
