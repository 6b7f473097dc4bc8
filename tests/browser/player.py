"""One player in a real browser: a Playwright page in a context of its own, with what it
received over its WebSockets and every error it met (console, page, failed request), and
the clicks and typing a person makes on the lobby and table pages (docs/web-contract)."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from playwright.sync_api import (
    ConsoleMessage,
    Error,
    Locator,
    Page,
    Request,
    Response,
    WebSocket,
    expect,
)

Frame = dict[str, Any]
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1366, "height": 768}


@dataclass
class Player:
    """A page and what it went through. ``received`` holds every frame any of its
    WebSockets received, parsed, in order; ``sockets`` every WebSocket it opened."""

    page: Page
    name: str
    base_url: str
    token: str | None = None  # the guest's session, when the test made the player
    player_id: str | None = None  # and the guest's id
    received: list[Frame] = field(default_factory=list)
    raw: list[str] = field(default_factory=list)  # the same frames as received, as text
    sent: list[Frame] = field(default_factory=list)
    sockets: list[WebSocket] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    tolerated: list[re.Pattern[str]] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.page.on("websocket", self._socket)
        self.page.on("console", self._console)
        self.page.on("pageerror", self._page_error)
        self.page.on("requestfailed", self._request_failed)
        self.page.on("response", self._response)

    # ------------------------------------------------------------ what it went through

    def _socket(self, socket: WebSocket) -> None:
        self.sockets.append(socket)
        socket.on("framereceived", self._received)
        socket.on("framesent", lambda payload: self.sent.append(json.loads(payload)))

    def _received(self, payload: str | bytes) -> None:
        assert isinstance(payload, str), "the room sends text frames"
        self.raw.append(payload)
        self.received.append(json.loads(payload))

    def _console(self, message: ConsoleMessage) -> None:
        if message.type == "error":
            self._problem(f"console error on {self.page.url}: {message.text}")

    def _page_error(self, error: Error) -> None:
        self._problem(f"uncaught error on {self.page.url}: {error}")

    def _request_failed(self, request: Request) -> None:
        if request.failure == "net::ERR_ABORTED":
            return  # cancelled by the page or by leaving it (a reload); an error status counts
        self._problem(f"request failed: {request.method} {request.url}: {request.failure}")

    def _response(self, response: Response) -> None:
        if response.status >= 400:
            self._problem(f"HTTP {response.status}: {response.request.method} {response.url}")

    def _problem(self, text: str) -> None:
        if not any(pattern.search(text) for pattern in self.tolerated):
            self.problems.append(text)

    def tolerate(self, pattern: str) -> None:
        """A test that makes an error on purpose names it; every other one still fails."""
        self.tolerated.append(re.compile(pattern))

    def identity(self) -> Frame:
        """The identity the pages keep (localStorage "splitpot.identity")."""
        stored = self.page.evaluate("localStorage.getItem('splitpot.identity')")
        assert stored, f"{self.name} is not signed in"
        found: Frame = json.loads(stored)
        return found

    # ------------------------------------------------------------ the lobby

    def open_lobby(self) -> None:
        self.page.goto(self.base_url + "/")

    def sign_in_as_guest(self) -> None:
        """Type the name into the sign-in dialog (opened by "Sign in" in the lobby; the
        table page asks by itself) and play as a guest."""
        dialog = self.page.locator("dialog#signin")
        if self.page.url.rstrip("/") == self.base_url:
            self.page.get_by_role("button", name="Sign in").click()
        expect(dialog).to_be_visible()
        dialog.locator("input[name=name]").fill(self.name)
        dialog.get_by_role("button", name="Play as guest").click()
        expect(dialog).to_be_hidden()
        expect(self.page.locator("#who")).to_contain_text(self.name)

    def create_table(self, **settings: Any) -> str:
        """Fill the lobby's "New table" form and create it; the new table's id (the page
        goes to the table)."""
        self.page.get_by_role("button", name="New table").first.click()  # the header's
        form = self.page.locator("form#create")
        expect(form).to_be_visible()
        for name, value in settings.items():
            _set_field(form.locator(f"[name={name}]"), value)
        form.get_by_role("button", name="Create table").click()
        self.page.wait_for_url(re.compile(r"/tables/[^/?]+"))
        self.wait_until_drawn()
        return table_of(self.page.url)

    def open_from_lobby(self, table: str) -> None:
        """Find the table in the lobby's list and open it."""
        row = self.page.locator(f'#tables [data-table="{table}"]')
        row.get_by_role("link", name="Open").click()
        self.page.wait_for_url(re.compile(rf"/tables/{table}"))
        self.wait_until_drawn()

    # ------------------------------------------------------------ the table

    def open_table(self, table: str, invite: str | None = None) -> None:
        query = "" if invite is None else f"?invite={invite}"
        self.page.goto(f"{self.base_url}/tables/{table}{query}")
        self.wait_until_drawn()

    def wait_until_drawn(self) -> None:
        """The table page says it has drawn its first ``table`` message."""
        expect(self.page.locator("body")).to_have_attribute("data-ready", "1")

    def seat(self, number: int) -> Locator:
        return self.page.locator(f'.seat[data-seat="{number}"]')

    def sit(self, seat: int, buy_in: int, *, post_now: bool = False) -> None:
        """Click "Sit" on the empty seat, type the buy-in, sit down."""
        self.page.get_by_role("button", name=f"Sit in seat {seat}", exact=True).click()
        dialog = self.page.locator("dialog#buy-in")
        expect(dialog).to_be_visible()
        dialog.locator("input[name=buy_in]").fill(str(buy_in))
        dialog.locator("input[name=post_now]").set_checked(post_now)
        dialog.get_by_role("button", name="Sit down").click()
        expect(dialog).to_be_hidden()
        expect(self.seat(seat)).to_have_class(re.compile(r"\bme\b"))

    def button(self, words: str) -> Locator:
        """An action bar button whose name starts with ``words`` ("Call", "Raise to")."""
        return self.page.locator("#actions").get_by_role(
            "button", name=re.compile(rf"^{re.escape(words)}\b")
        )

    def click(self, words: str) -> None:
        button = self.button(words)
        expect(button).to_be_enabled()
        button.click()

    def bet(self, turn: Frame, amount: int | None = None, preset: str | None = None) -> int:
        """Bet or raise to ``amount`` typed into the amount box, or to what a preset
        button ("pot", "min", ...) puts there: the total the button says."""
        words = "Bet" if any(e["action"] == "bet" for e in turn["legal"]) else "Raise to"
        box = self.page.locator("#amount")
        if preset is not None:
            self.page.locator(f'#actions button[data-preset="{preset}"]').click()
        else:
            box.fill(str(amount))
        if amount is not None:
            expect(box).to_have_value(str(amount))
        total = int(box.input_value())
        expect(self.button(words)).to_have_accessible_name(re.compile(rf"^{words} {total}\b"))
        self.click(words)
        return total

    def stack(self, seat: int) -> Locator:
        return self.seat(seat).locator(".stack")

    def show_losing_hands(self) -> None:
        """Tick "Show my losing hands" in the table page's settings (the room mucks them
        by default)."""
        self.page.get_by_role("button", name="Settings").click()
        dialog = self.page.locator("dialog#settings")
        dialog.locator("input[name=show_losing]").check()
        dialog.get_by_role("button", name="Done").click()
        expect(dialog).to_be_hidden()


def open_player(
    browser: Any,
    url: str,
    name: str,
    guest: tuple[str, str] | None,
    size: str = "desktop",
    forced_colors: bool = False,
    locale: str | None = None,
) -> tuple[Any, Player]:
    """A new browser context (phone or desktop; with ``forced_colors``, high contrast; with
    ``locale``, the browser's languages and Accept-Language) and its page for the player
    ``name``; with ``guest`` (id, token) the pages find that identity already stored. The
    context is the caller's to close."""
    state: dict[str, Any] = {"cookies": [], "origins": []}
    if guest is not None:
        stored = json.dumps({"player": {"id": guest[0], "name": name}, "token": guest[1]})
        item = {"name": "splitpot.identity", "value": stored}
        state["origins"] = [{"origin": url, "localStorage": [item]}]
    phone = size == "phone"
    context = browser.new_context(
        viewport=PHONE if phone else DESKTOP,
        device_scale_factor=2 if phone else 1,
        is_mobile=phone,
        has_touch=phone,
        storage_state=state,
        reduced_motion="reduce",
        forced_colors="active" if forced_colors else "none",
        **({"locale": locale} if locale else {}),
    )
    player_id, token = guest if guest is not None else (None, None)
    return context, Player(context.new_page(), name, url, token, player_id)


def _set_field(field: Locator, value: Any) -> None:
    kind = field.evaluate("e => e.tagName === 'SELECT' ? 'select' : e.type")
    if kind == "select":
        field.select_option(str(value))
    elif kind == "checkbox":
        field.set_checked(bool(value))
    else:
        field.fill(str(value))


def table_of(url: str) -> str:
    found = re.search(r"/tables/([^/?#]+)", url)
    assert found, url
    return found.group(1)


def legal(turn: Frame) -> dict[str, Frame]:
    """A turn's legal actions by name."""
    return {entry["action"]: entry for entry in turn["legal"]}


ACTION_WORDS = {"check": "Check", "call": "Call"}  # the action bar's


def passive(player: Player, turn: Frame) -> None:
    """Check, else call (the button says what the call costs); at the showdown the room
    shows or mucks for the player."""
    choices = legal(turn)
    if "call" in choices and "check" not in choices:
        amount = choices["call"]["amount"]
        expect(player.button("Call")).to_have_accessible_name(re.compile(rf"^Call {amount}\b"))
    for action, words in ACTION_WORDS.items():
        if action in choices:
            player.click(words)
            return
    raise AssertionError(f"nothing passive in {turn['legal']}")
