"""A game of one person against bots at one table, offline: what the terminal front
ends drive when there is no room.

The table and its bots run in process (``client.local.LocalTable``) and speak the room's
protocol; the person sees them through the same ``TableClient`` as at the room, so the
picture and the dealer's words (the events' ``text``) come from one place. Commands are
text (``fold``, ``call``, ``raise 8``, ``last 3``, ``help``, ``quit``, ...); an illegal one
is answered with the reason and the legal ones.
"""

from __future__ import annotations

from splitpot.bots import Bot, make_bot
from splitpot.cards import CardError, parse_cards
from splitpot.client.game import HELP, Game, Reply
from splitpot.client.local import PERSON, LocalTable
from splitpot.client.state import RoomMessage, TableClient, game_title
from splitpot.history.report import hand_summary
from splitpot.i18n import ENGLISH, Words
from splitpot.rules import FixedLimit, Mixed, NoLimit, PotLimit, Variant
from splitpot.table import Table, TableConfig, TableError

STRUCTURES = ("limit", "pot-limit", "no-limit", "mixed")
DEFAULT_STAKES = {"limit": "2/4", "pot-limit": "1/2", "no-limit": "1/2", "mixed": "4/8"}
MAX_NAME = 20  # characters: a seat of the full-screen table holds the name


class SettingError(ValueError):
    """A game setting (stakes, buy-in, name, number of hands) that the table cannot play."""


def parse_stakes(structure: str, text: str, words: Words = ENGLISH) -> tuple[int, int]:
    """Stakes ``S/B`` as the structure reads them (RULES.md 3): limit and mixed stakes are
    the bets, the big bet twice the small one; pot and no limit stakes are the blinds, the
    big blind at least the small one; mixed small bets divide by 4 (the pot-limit blinds)."""
    small_text, slash, big_text = text.strip().partition("/")
    if not (slash and small_text.isdecimal() and big_text.isdecimal()) or (
        int(small_text) == 0 or int(big_text) == 0
    ):
        raise SettingError(
            words.say(
                "stakes are two whole amounts above 0 like 2/4, not {given}", given=repr(text)
            )
        )
    small, big = int(small_text), int(big_text)
    said = {"structure": structure, "like": DEFAULT_STAKES[structure], "given": repr(text)}
    if structure in ("limit", "mixed") and big != 2 * small:
        raise SettingError(
            words.say(
                "{structure} stakes are a small bet and a big bet of twice as much, "
                "like {like}, not {given}",
                **said,
            )
        )
    if structure == "limit" and small < 2:  # RULES.md 4.1: the small blind is half of it
        raise SettingError(
            words.say(
                "limit stakes need a small bet of at least 2 (the small blind is half of it), "
                "like 2/4, not {given}",
                given=repr(text),
            )
        )
    if structure == "mixed" and small % 4:
        raise SettingError(
            words.say(
                "mixed stakes need a small bet divisible by 4 (the pot-limit rounds play blinds "
                "of a quarter and a half of it), like 4/8, not {given}",
                given=repr(text),
            )
        )
    if big < small:
        raise SettingError(
            words.say(
                "{structure} stakes are the small and the big blind, the big blind at least the "
                "small one, like {like}, not {given}",
                **said,
            )
        )
    return small, big


def table_config(
    variant: str, structure: str, stakes: str | None, seats: int, words: Words = ENGLISH
) -> TableConfig:
    """A table from command-line words. Limit stakes are the bets (2/4: blinds 1 and 2);
    pot and no limit stakes are the blinds; mixed stakes are the limit bets, and the pot
    limit rounds play with blinds of a quarter and a half of the small bet."""
    if structure not in STRUCTURES:
        raise SettingError(
            words.say(
                "unknown structure {given}; structures: {structures}",
                given=repr(structure),
                structures=", ".join(STRUCTURES),
            )
        )
    small, big = parse_stakes(structure, stakes or DEFAULT_STAKES[structure], words)
    betting: FixedLimit | PotLimit | NoLimit | Mixed
    if structure == "limit":
        betting = FixedLimit(small, big)
    elif structure == "pot-limit":
        betting = PotLimit(small, big)
    elif structure == "no-limit":
        betting = NoLimit(small, big)
    else:
        betting = Mixed(FixedLimit(small, big), PotLimit(small // 4, small // 2))
    return TableConfig(Variant.parse(variant), betting, seats=seats)


class GameSession(Game):
    """One person (seat 1) against bots in the other seats, for ``max_hands`` hands at
    most (None: until the person quits or goes broke)."""

    paced = True

    def __init__(
        self,
        config: TableConfig,
        *,
        name: str = "Hero",
        bots: list[Bot] | None = None,
        buy_in: int | None = None,
        seed: int | None = None,
        max_hands: int | None = None,
        words: Words = ENGLISH,
    ) -> None:
        """``words``: the person's language (the picture, the dealer's lines, the help)."""
        say = words.say
        if max_hands is not None and max_hands < 1:
            raise SettingError(
                say("the number of hands must be 1 or more, not {given}", given=max_hands)
            )
        name = player_name(name, words)
        low, high = config.min_buy_in, config.max_buy_in
        if buy_in is not None and not low <= buy_in <= high:
            raise SettingError(
                say(
                    "the buy-in at this table is {low} to {high} chips, not {given}",
                    low=low,
                    high=high,
                    given=buy_in,
                )
            )
        self.bots = bots or [
            make_bot("sensible", f"Bot {i}", None if seed is None else seed + i)
            for i in range(1, config.seats)
        ]
        if name in {bot.name for bot in self.bots}:
            raise SettingError(say("the name {name} is a bot's: choose another", name=repr(name)))
        super().__init__(TableClient(words=words), name)
        self.buy_in = buy_in or high
        self.max_hands = max_hands
        self.local = LocalTable(config, name, self.bots, self.buy_in, seed, words=words)
        self.client.receive(self.local.snapshot())
        self.hands_started = 0

    @property
    def table(self) -> Table:
        return self.local.table

    # -------------------------------------------------------------- the game

    def start(self) -> Reply:
        return self.next_hand()

    def waiting(self) -> bool:
        """In a hand the person is to act (the bots act at once); between hands the
        next one is dealt."""
        return self.client.hand is not None

    def advance(self) -> Reply:
        return self.next_hand()

    def next_hand(self) -> Reply:
        """Deal the next hand (bots that went broke buy in again) and play the bots' turns.

        A hand can be over before anyone acts (heads-up, a small blind all in by posting):
        its lines are reported like those of any other hand."""
        if self.stack == 0:
            return Reply((self.words.say("You have no chips left."), *self.summary()), over=True)
        if self.max_hands is not None and self.hands_started >= self.max_hands:
            return Reply((self.last_of(self.max_hands), *self.summary()), over=True)
        try:
            frames = self.local.deal()
        except TableError as error:
            said = self.words.say("Cannot deal: {reason}", reason=error)
            return Reply((said, *self.summary()), over=True)
        self.hands_started += 1
        return Reply(tuple(self.client.receive_all(frames)))

    def send(self, command: RoomMessage) -> list[str]:
        return self.client.receive_all(self.local.send(command))

    def hands_kept(self) -> int:
        return len(self.table.history)

    def hand_back(self, back: int) -> list[str]:
        """A hand of the last 50, whole, as the person may see it (RULES.md 6)."""
        played = self.table.history[-back]
        viewer = played.seats.index(PERSON) if PERSON in played.seats else None
        w = self.words
        game = game_title(played.hand.config.variant, played.hand.config.betting, w)
        title = w.say(
            "Hand {number}: {game} (button: seat {seat})",
            number=played.number,
            game=game,
            seat=played.button_seat + 1,
        )
        return hand_summary(played.hand, played.names, viewer, title, w)


def player_name(name: str, words: Words = ENGLISH) -> str:
    """A name to play under, trimmed: 1 to 20 printable characters, no word of which reads
    as a card (the chat shows cards as symbols)."""
    if not 0 < len(name.strip()) <= MAX_NAME or not name.isprintable():
        raise SettingError(
            words.say(
                "a player's name is 1 to {most} printable characters, not {given}",
                most=MAX_NAME,
                given=repr(name),
            )
        )
    name = name.strip()
    if any(_is_card(word) for word in name.split()):
        raise SettingError(
            words.say("the name {name} reads as a card: choose another", name=repr(name))
        )
    return name


def _is_card(word: str) -> bool:
    """Whether a word of a name would read as a card in the dealer's chat ("As")."""
    try:
        return len(parse_cards(word)) == 1
    except CardError:
        return False


__all__ = [
    "DEFAULT_STAKES",
    "HELP",
    "STRUCTURES",
    "GameSession",
    "Reply",
    "SettingError",
    "parse_stakes",
    "player_name",
    "table_config",
]
