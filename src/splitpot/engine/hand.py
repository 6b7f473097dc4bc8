"""One hand of Omaha as a pure state machine (RULES.md sections 3 to 5).

Inputs: the game configuration, the stacks of the players in clockwise order, the
button, the forced posts and the order of the deck. ``legal_actions()`` says what the
player to act may do; ``apply(action)`` checks and applies one action and returns the
events it caused; an illegal action raises ``IllegalActionError`` and changes nothing.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from splitpot.cards import Card, ensure_distinct
from splitpot.engine.actions import Action, ActionKind, LegalActions
from splitpot.engine.betting import BettingRound
from splitpot.engine.errors import HandSetupError, IllegalActionError
from splitpot.engine.events import (
    Acted,
    BoardDealt,
    Event,
    HandEnded,
    HoleCardsDealt,
    Posted,
    PostKind,
    PotAwarded,
    RakeTaken,
    RoundEnded,
    RunItOffered,
    RunsChosen,
    Shown,
    Street,
    TurnedFaceUp,
    UncalledBetReturned,
    view,
)
from splitpot.engine.pots import Award, Pot, award_pots, side_pots
from splitpot.engine.showdown import ShowdownRound
from splitpot.frozen import quick_init
from splitpot.rules import GameConfig, Refusal

MAX_PLAYERS = 10
BOARD_SIZES = {Street.FLOP: 3, Street.TURN: 1, Street.RIVER: 1}


@quick_init
@dataclass(frozen=True, slots=True)
class Post:
    """A forced post of this hand: a blind, a straddle, a new or returning player's post,
    a dead small blind, or an ante."""

    player: int
    kind: PostKind
    amount: int


@quick_init
@dataclass(frozen=True, slots=True)
class HandView:
    """What one seat (or a spectator, ``viewer`` None) may see of a hand now."""

    viewer: int | None
    street: Street
    phase: Phase
    button: int
    board: tuple[Card | None, ...]  # the first board (or run)
    stacks: tuple[int, ...]
    bets: tuple[int, ...]
    pot: int  # everything in the middle, this round's bets included
    folded: tuple[bool, ...]
    hole: tuple[Card | None, ...] | None  # the viewer's own cards
    shown: dict[int, tuple[Card, ...]]  # hands shown at the showdown
    to_act: int | None
    legal: LegalActions | None  # when the viewer is to act
    events: tuple[Event, ...]
    boards: tuple[tuple[Card | None, ...], ...]  # every board: two on a double board or run


class Phase(Enum):
    BETTING = "betting"
    RUN_IT = "run it"  # RULES.md 7: waiting for the players' answer to run it twice
    SHOWDOWN = "showdown"
    OVER = "over"


# The members the hand reads at every action, street and post, by name: on Python 3.11 a
# member read off its enum class is not cached (EnumType has a ``__getattr__``), ten
# times a name's cost.
_BETTING, _RUN_IT, _SHOWDOWN, _OVER = Phase.BETTING, Phase.RUN_IT, Phase.SHOWDOWN, Phase.OVER
_FOLD, _CHECK, _CALL = ActionKind.FOLD, ActionKind.CHECK, ActionKind.CALL
_BET, _RAISE, _ALL_IN = ActionKind.BET, ActionKind.RAISE, ActionKind.ALL_IN
_SHOW, _MUCK = ActionKind.SHOW, ActionKind.MUCK
_PREFLOP, _FLOP, _RIVER = Street.PREFLOP, Street.FLOP, Street.RIVER
_BIG_BLIND, _STRADDLE, _BOMB = PostKind.BIG_BLIND, PostKind.STRADDLE, PostKind.BOMB


@quick_init
@dataclass(frozen=True, slots=True)
class HandResult:
    """How a finished hand ended: pots (after rake), awards and the final stacks."""

    pots: tuple[Pot, ...]
    awards: tuple[Award, ...]
    rake: int
    uncalled: tuple[tuple[int, int], ...]  # (player, chips returned)
    stacks: tuple[int, ...]
    showdown: bool

    def won(self, player: int) -> int:
        """Chips the player collected from the pots (not counting a returned bet)."""
        return sum(a.amount for a in self.awards if a.player == player)


def deal_order(players: int, button: int) -> list[int]:
    """The order of dealing: the first player left of the button first, the button last."""
    return [(button + 1 + i) % players for i in range(players)]


def deck_size(players: int, hole_cards: int, boards: int = 1) -> int:
    """Cards a hand may use: the hole cards, and three burns and five cards for each
    board (RULES.md 7: a double board deals two)."""
    return players * hole_cards + 8 * boards


def most_players(hole_cards: int, boards: int = 1) -> int:
    """The most players one deck of 52 deals (docs/rules.md: Big O seats at most 8, and
    a double board 9 in Omaha, 7 in Big O)."""
    return (52 - deck_size(0, hole_cards, boards)) // hole_cards


def arrange_deck(
    holes: Sequence[Sequence[Card | None] | None],
    board: Sequence[Card],
    button: int,
    hole_cards: int,
) -> list[Card | None]:
    """A deck order that deals these hole cards and this board; None where unknown."""
    players = len(holes)
    deck: list[Card | None] = [None] * deck_size(players, hole_cards)
    for round_ in range(hole_cards):
        for position, player in enumerate(deal_order(players, button)):
            cards = holes[player]
            if cards is not None and round_ < len(cards):
                deck[round_ * players + position] = cards[round_]
    at = players * hole_cards
    for index, card in enumerate(board[:5]):
        burns = 1 if index < 3 else index - 1  # burn before the flop, the turn, the river
        deck[at + burns + index] = card
    return deck


class Hand:
    """One hand from the posts to the last chip."""

    def __init__(
        self,
        config: GameConfig,
        stacks: Sequence[int],
        button: int,
        posts: Sequence[Post],
        deck: Sequence[Card | None],
        *,
        recorded_rake: int | None = None,
        recorded_pots: Sequence[int] | None = None,
    ) -> None:
        players = len(stacks)
        if not 2 <= players <= MAX_PLAYERS:
            raise HandSetupError(f"a hand needs 2 to {MAX_PLAYERS} players, not {players}")
        for player, stack in enumerate(stacks):
            if isinstance(stack, bool) or not isinstance(stack, int) or stack <= 0:
                raise HandSetupError(
                    f"player {player} has a stack of {stack!r}: stacks are positive whole chips"
                )
        if not 0 <= button < players:
            raise HandSetupError(f"button {button} is not one of the players 0..{players - 1}")
        needed = deck_size(players, config.variant.hole_cards, config.boards)
        most = most_players(config.variant.hole_cards, config.boards)
        if players > most:  # docs/rules.md: the deck must cover every card a hand may need
            boards = " on two boards" if config.boards > 1 else ""
            raise HandSetupError(
                f"{config.variant.value} deals {config.variant.hole_cards} hole cards{boards}: "
                f"{players} players would need {needed} cards of 52 (at most {most} players)"
            )
        if len(deck) < needed:
            raise HandSetupError(f"the deck holds {len(deck)} cards; this hand needs {needed}")
        try:
            ensure_distinct([card for card in deck if card is not None])
        except ValueError as error:
            raise HandSetupError(f"deck: {error}") from error
        for post in posts:
            if not 0 <= post.player < players:
                raise HandSetupError(
                    f"a post names player {post.player}, not one of 0..{players - 1}"
                )
            if post.amount <= 0:
                raise HandSetupError(
                    f"player {post.player} posts {post.amount}: posts must be positive"
                )
        if recorded_rake is not None and recorded_rake < 0:
            raise HandSetupError(f"a recorded rake of {recorded_rake} is negative")

        self.config = config
        self.button = button
        self.players = players
        self.starting_stacks = tuple(stacks)
        self.posts = tuple(posts)
        self.deck = tuple(deck)
        self.recorded_rake = recorded_rake
        self.recorded_pots = tuple(recorded_pots) if recorded_pots is not None else None
        self.actions: list[Action] = []  # the log: replaying it rebuilds the hand
        self.actors: list[int] = []  # who took each action
        self.events: list[Event] = []
        # each viewer's events as they may see them, and the hands shown: extended from
        # where they stopped (the log only grows), so a view costs the new events alone
        self._seen: dict[int | None, list[Event]] = {}
        self._private = 0  # the events before this may hide something (a deal of hole cards)
        self._shown: dict[int, tuple[Card, ...]] = {}
        self._shown_upto = 0
        self.holes: list[tuple[Card | None, ...]] = [() for _ in range(players)]
        self.boards: list[list[Card | None]] = [[] for _ in range(config.boards)]
        self.board = self.boards[0]  # the first board (or run)
        self.runs: int | None = None  # RULES.md 7: 1 or 2 once the players were asked
        self.phase = _BETTING
        self.street = _PREFLOP
        self.to_act: int | None = None
        self.result: HandResult | None = None

        self._stacks = list(stacks)
        self._bets = [0] * players  # live bets of this betting round
        # chips each player has put in the pot: bets and bombs (which set the levels of the
        # side pots: a player all in for less is in the pots up to what they put in)
        self._committed = [0] * players
        self._dead = 0  # antes and dead small blinds: the main pot's, whoever wins it
        self._folded = [False] * players
        self._next_card = 0
        self._uncalled: list[tuple[int, int]] = []
        self._river_aggressor: int | None = None
        self._showdown: ShowdownRound | None = None  # once the last betting round is over
        self._awards: tuple[Award, ...] = ()
        self._pots: list[Pot] = []
        self._gathered: tuple[Pot, ...] = ()  # the pots when the bets were last gathered
        self._rake = 0
        self._legal: LegalActions | None = None  # of the state as it is now

        self._face_up = False  # every hand still in turned face up by an all-in
        self._post_forced_bets()
        self._deal_hole_cards()
        if any(post.kind is _BOMB for post in self.posts):
            self._skip_preflop()
        else:
            self._start_round(self._first_preflop_actor())
        self._progress()

    # ----------------------------------------------------------------- queries

    @property
    def stacks(self) -> tuple[int, ...]:
        return tuple(self._stacks)

    @property
    def bets(self) -> tuple[int, ...]:
        return tuple(self._bets)

    @property
    def committed(self) -> tuple[int, ...]:
        return tuple(self._committed)

    @property
    def folded(self) -> tuple[bool, ...]:
        return tuple(self._folded)

    @property
    def pot(self) -> int:
        """All chips in the middle, this round's bets included (0 once paid out)."""
        paid = sum(a.amount for a in self._awards) + self._rake if self.phase is _OVER else 0
        return sum(self._committed) + self._dead - paid

    @property
    def is_over(self) -> bool:
        return self.phase is _OVER

    def chips_in_play(self) -> int:
        """Stacks plus everything in the middle plus rake: constant through the hand."""
        return sum(self._stacks) + self.pot + (self._rake if self.phase is _OVER else 0)

    def all_in(self, player: int) -> bool:
        return not self._folded[player] and self._stacks[player] == 0

    def current_pots(self) -> list[Pot]:
        return side_pots(self._committed, [not f for f in self._folded], self._dead)

    def view(self, viewer: int | None) -> HandView:
        """The hand as ``viewer`` may see it: never another player's unshown cards."""
        events = tuple(self._visible(viewer))
        for event in self.events[self._shown_upto :]:
            if isinstance(event, (Shown, TurnedFaceUp)):  # a tuple: no union built a call
                self._shown[event.player] = event.cards
        self._shown_upto = len(self.events)
        boards = tuple(map(tuple, self.boards))
        return HandView(
            viewer,
            self.street,
            self.phase,
            self.button,
            boards[0],
            self.stacks,
            self.bets,
            self.pot,
            self.folded,
            self.holes[viewer] if viewer is not None else None,
            dict(self._shown),
            self.to_act,
            self.legal_actions() if viewer is not None and viewer == self.to_act else None,
            events,
            boards,
        )

    def visible_events(self, viewer: int | None) -> list[Event]:
        """The hand so far as ``viewer`` may see it (None: a spectator); the caller's copy."""
        return list(self._visible(viewer))

    def _visible(self, viewer: int | None) -> list[Event]:
        """The viewer's kept list of the events as they may see them, brought up to date.
        Only a deal of hole cards hides anything (``view``): the events after the last
        deal are everyone's as they are, taken without asking."""
        seen = self._seen.setdefault(viewer, [])
        start = len(seen)
        if start < self._private:
            seen += [view(event, viewer) for event in self.events[start:]]
        else:
            seen += self.events[start:]
        return seen

    # ------------------------------------------------------------- the action

    def legal_actions(self) -> LegalActions:
        """What the player to act may do now, with exact amounts."""
        if self._legal is None:
            self._legal = self._compute_legal_actions()
        return self._legal

    def _compute_legal_actions(self) -> LegalActions:
        player = self.to_act
        if player is None:
            if self.phase is _RUN_IT:
                raise IllegalActionError("no one is to act: the players are asked to run it twice")
            raise IllegalActionError("the hand is over: no one is to act")
        if self._showdown is not None:
            return self._showdown.legal_actions()
        stack, bet, level = self._stacks[player], self._bets[player], self._round.level
        to_call = max(0, level - bet)
        all_in_to = bet + stack
        call = min(to_call, stack) if to_call else None
        kind = min_to = max_to = None
        all_in = 0 < stack <= to_call
        if stack > to_call and self._may_raise(player):
            pot = sum(self._committed) + self._dead
            low, high = self.config.betting.raise_bounds(self._round, to_call, all_in_to, pot)
            kind = _BET if level == 0 else _RAISE
            min_to, max_to = min(low, all_in_to), min(high, all_in_to)
            all_in = all_in_to <= high
        check = to_call == 0
        # in the order of the fields: a call by position costs less than by name
        return LegalActions(player, True, check, call, kind, min_to, max_to, all_in_to, all_in)

    def check(self, action: Action) -> None:
        """Raise the ``IllegalActionError`` that ``apply`` would, changing nothing (an
        action is refused before anything of it is logged)."""
        legal = self._legal_to_act()
        if self._showdown is not None:
            self._showdown.check(action)
        else:
            self._resolve_bet(legal.player, action, legal)

    def apply(self, action: Action) -> list[Event]:
        """Check and apply the action of the player to act; return the events it caused."""
        legal = self._legal_to_act()
        player = legal.player
        start = len(self.events)
        if self._showdown is not None:
            self.events.extend(self._showdown.apply(action))
        else:
            self._apply_bet(player, action, legal)
        self.actions.append(action)
        self.actors.append(player)
        self._legal = None
        self._progress()
        return self.events[start:]

    # ------------------------------------------------------------ internals

    def _legal_to_act(self) -> LegalActions:
        if self.phase is _RUN_IT:
            raise IllegalActionError("no one is to act: the players are asked to run it twice")
        if self.phase is _OVER or self.to_act is None:
            raise IllegalActionError("the hand is over: no more actions")
        return self.legal_actions()

    def _emit(self, event: Event) -> None:
        self.events.append(event)

    def _draw(self, count: int) -> tuple[Card | None, ...]:
        cards = self.deck[self._next_card : self._next_card + count]
        self._next_card += count
        return cards

    def _move(self, player: int, chips: int, live: bool) -> None:
        self._stacks[player] -= chips
        if live:
            self._bets[player] += chips
            self._committed[player] += chips
        else:
            self._dead += chips

    def _post(self, post: Post, chips: int) -> None:
        """A forced post: a blind or straddle is a bet; a bomb is the player's in the pot
        but no bet (RULES.md 7: a player short of it is all in for what they have, and in
        the pots up to that); an ante or a dead small blind is the main pot's (docs/rules.md:
        so the corpus's big-blind antes play)."""
        if post.kind is _BOMB:
            self._stacks[post.player] -= chips
            self._committed[post.player] += chips
        else:
            self._move(post.player, chips, post.kind.live)

    def _post_forced_bets(self) -> None:
        for post in self.posts:
            chips = min(post.amount, self._stacks[post.player])
            if chips == 0:
                continue
            self._post(post, chips)
            self._emit(Posted(post.player, post.kind, chips, self._stacks[post.player] == 0))

    def _deal_hole_cards(self) -> None:
        """One card at a time to each player, the button last (RULES.md 4.2): the player
        in each place of the order gets every ``players``-th card from that place."""
        players, order = self.players, deal_order(self.players, self.button)
        cards = self._draw(self.config.variant.hole_cards * players)
        for place, player in enumerate(order):
            self.holes[player] = cards[place::players]
        for player in order:
            self._emit(HoleCardsDealt(player, self.holes[player]))
        self._private = len(self.events)

    def _first_preflop_actor(self) -> int:
        """Left of the biggest blind or straddle (RULES.md 4.3); heads-up, the button."""
        positional = [p for p in self.posts if p.kind.positional]
        if not positional:
            return (self.button + 1) % self.players
        order = {p: i for i, p in enumerate(deal_order(self.players, self.button))}
        last = max(positional, key=lambda post: (post.amount, order[post.player]))
        return (last.player + 1) % self.players

    def _start_round(self, first: int) -> None:
        level = max(self._bets)
        if self.street is _PREFLOP:
            big_blinds = [p.amount for p in self.posts if p.kind is _BIG_BLIND]
            level = max([level, *big_blinds])  # a short big blind still sets the price
        self._round = BettingRound(
            self.config.betting, self.street, first, level, self.players, len(self._able())
        )
        straddles = [p.amount for p in self.posts if p.kind is _STRADDLE]
        if straddles and self.street is _PREFLOP:  # RULES.md 7: the smallest raise
            self._round.full_raise = max(self._round.full_raise, *straddles)

    def _skip_preflop(self) -> None:
        """RULES.md 7, a bomb pot: no betting before the flop; the flop comes at once and
        the first player still in left of the button acts first."""
        self._gather()
        self.street = _FLOP
        self._deal_board(_FLOP)
        self._start_round((self.button + 1) % self.players)

    def _able(self) -> list[int]:
        """The players still in with chips left to bet, in seat order."""
        folded, stacks = self._folded, self._stacks
        return [p for p in range(self.players) if not folded[p] and stacks[p] > 0]

    def _next_actor(self) -> int | None:
        able = self._able()
        round_ = self._round
        if not able or (len(able) == 1 and self._bets[able[0]] >= round_.level):
            return None  # no one left to bet against
        start = round_.first if self.to_act is None else (self.to_act + 1) % self.players
        at = bisect_left(able, start)  # able is in seat order: clockwise from start
        for p in able[at:] + able[:at]:
            if round_.owes_action(p, self._bets[p]):
                return p
        return None

    def _opponent_can_go_past(self, player: int) -> bool:
        """A bet or raise is offered only when an opponent still in could put in more than
        the current bet (docs/rules.md; PokerKit refuses it too): not when every other
        player is all in or can only call."""
        level, bets, stacks, folded = self._round.level, self._bets, self._stacks, self._folded
        for p in range(self.players):
            if p != player and not folded[p] and stacks[p] + bets[p] > level:
                return True
        return False

    def _may_raise(self, player: int) -> bool:
        return self._round.reopened_for(player) and self._opponent_can_go_past(player)

    def _resolve_bet(
        self, player: int, action: Action, legal: LegalActions
    ) -> tuple[ActionKind, int | None]:
        """The action as the betting takes it (all in is a call, a bet or a raise), or the
        ``IllegalActionError`` that says why it cannot be taken; nothing changes."""
        kind, to = action.kind, action.amount
        if kind is _ALL_IN:
            if not legal.all_in:
                raise self._why_not_all_in(legal)
            assert legal.all_in_to is not None
            if legal.all_in_to <= self._round.level:
                kind = _CALL
            else:
                kind, to = legal.bet_or_raise or _RAISE, legal.all_in_to
        if kind is _CHECK and not legal.check:
            owed = self._round.level - self._bets[player]
            raise IllegalActionError("cannot check: {owed} to call", owed=owed)
        if kind is _CALL and legal.call is None:
            raise IllegalActionError("nothing to call: check or bet")
        if kind in (_BET, _RAISE):
            assert to is not None
            self._check_raise(player, kind, to, legal)
        elif kind is _SHOW:
            raise IllegalActionError("cannot show while the betting goes on")
        elif kind is _MUCK:
            raise IllegalActionError("cannot muck while the betting goes on")
        return kind, to

    def _apply_bet(self, player: int, action: Action, legal: LegalActions) -> None:
        kind, to = self._resolve_bet(player, action, legal)
        if kind is _FOLD:
            self._folded[player] = True
            self._emit(Acted(player, _FOLD, self._bets[player], 0))
        elif kind is _CHECK:
            self._emit(Acted(player, _CHECK, self._bets[player], 0))
        elif kind is _CALL:
            assert legal.call is not None
            self._move(player, legal.call, True)
            self._emit(
                Acted(
                    player,
                    _CALL,
                    self._bets[player],
                    legal.call,
                    self._stacks[player] == 0,
                )
            )
        else:
            assert to is not None
            self._raise(player, kind, to)
        self._round.acted(player)

    def _why_not_all_in(self, legal: LegalActions) -> IllegalActionError:
        if self._stacks[legal.player] == 0:
            return IllegalActionError("already all in")
        if legal.bet_or_raise is None:
            return IllegalActionError(
                "cannot go all in: {reason}; call or fold", reason=self._why_no_raise(legal.player)
            )
        return IllegalActionError(
            "cannot go all in for {to}: the most is {most}", to=legal.all_in_to, most=legal.max_to
        )

    def _why_no_raise(self, player: int) -> Refusal:
        """Why the player may not bet or raise: a reason said inside a refusal."""
        level = self._round.level
        if self._stacks[player] <= level - self._bets[player]:
            return Refusal("the stack only covers a call")
        if not self._opponent_can_go_past(player):
            return Refusal(
                "every other player still in is all in or can only call {level}", level=level
            )
        if self._round.capped_at is not None:
            return Refusal("the betting is capped at {cap} bets", cap=self._round.capped_at)
        return Refusal("a short all-in did not reopen the betting")

    def _check_raise(self, player: int, kind: ActionKind, to: int, legal: LegalActions) -> None:
        if legal.bet_or_raise is None:
            if kind is _BET:
                raise IllegalActionError("cannot bet: {reason}", reason=self._why_no_raise(player))
            raise IllegalActionError("cannot raise: {reason}", reason=self._why_no_raise(player))
        if kind is not legal.bet_or_raise:
            if kind is _BET:
                raise IllegalActionError(
                    "cannot bet: there is a bet of {level}; raise instead", level=self._round.level
                )
            raise IllegalActionError("cannot raise: there is no bet; bet instead")
        assert legal.min_to is not None and legal.max_to is not None and legal.all_in_to is not None
        bet = kind is _BET
        if to > legal.all_in_to:
            stack = legal.all_in_to
            if bet:
                raise IllegalActionError(
                    "bet to {to} is more than the {stack} in front of the player",
                    to=to,
                    stack=stack,
                )
            raise IllegalActionError(
                "raise to {to} is more than the {stack} in front of the player", to=to, stack=stack
            )
        if to == legal.all_in_to and to <= legal.max_to:
            return  # all in, even for less than a full bet or raise
        if to < legal.min_to:
            least = legal.min_to
            if bet:
                raise IllegalActionError(
                    "bet to {to} is below the minimum of {least}", to=to, least=least
                )
            raise IllegalActionError(
                "raise to {to} is below the minimum of {least}", to=to, least=least
            )
        if to > legal.max_to:
            raise self._above_maximum(bet, to, legal.max_to)

    def _above_maximum(self, bet: bool, to: int, most: int) -> IllegalActionError:
        """A bet or raise past the structure's maximum, in a sentence of its own for each."""
        limit = self.config.betting.maximum_label
        if limit == "fixed-limit amount":
            if bet:
                return IllegalActionError(
                    "bet to {to} is above the fixed-limit amount of {most}", to=to, most=most
                )
            return IllegalActionError(
                "raise to {to} is above the fixed-limit amount of {most}", to=to, most=most
            )
        if limit == "pot-limit maximum":
            if bet:
                return IllegalActionError(
                    "bet to {to} is above the pot-limit maximum of {most}", to=to, most=most
                )
            return IllegalActionError(
                "raise to {to} is above the pot-limit maximum of {most}", to=to, most=most
            )
        if bet:
            return IllegalActionError(
                "bet to {to} is above the no-limit maximum of {most}", to=to, most=most
            )
        return IllegalActionError(
            "raise to {to} is above the no-limit maximum of {most}", to=to, most=most
        )

    def _raise(self, player: int, kind: ActionKind, to: int) -> None:
        added = to - self._bets[player]
        self._move(player, added, True)
        self._round.raised(player, to, len(self._able()))
        self._emit(Acted(player, kind, to, added, self._stacks[player] == 0))

    def _progress(self) -> None:
        """Move the hand on until someone must decide, or it is over."""
        while self.phase in (_BETTING, _SHOWDOWN):
            if self._showdown is not None:
                self.to_act = self._showdown.to_act
                if self.to_act is None:
                    self._finish()
                return
            if self._folded.count(False) == 1:
                self._end_round()
                self._finish()
                return
            nxt = self._next_actor()
            if nxt is not None:
                self.to_act = nxt
                return
            self._end_round()
            self.to_act = None
            if self.street is _RIVER or len(self._able()) <= 1:
                self._face_up = self._turn_face_up()
                live = [p for p in range(self.players) if not self._folded[p]]
                if self._offers_runs(live):
                    self.phase = _RUN_IT
                    self._emit(RunItOffered(tuple(live)))
                    return
                self._run_out(1)
            else:
                self.street = Street(self.street + 1)
                self._deal_board(self.street)
                self._start_round((self.button + 1) % self.players)

    def _end_round(self) -> None:
        """Return an uncalled bet, then gather the bets into the pot (RULES.md 4.5)."""
        ordered = sorted(range(self.players), key=self._bets.__getitem__, reverse=True)
        top, second = ordered[0], ordered[1]
        excess = self._bets[top] - self._bets[second]
        if excess > 0:
            self._stacks[top] += excess
            self._committed[top] -= excess
            self._uncalled.append((top, excess))
            self._emit(UncalledBetReturned(top, excess))
        # RULES.md 5 names the river's last bettor or raiser; a board run out early had none.
        self._river_aggressor = self._round.aggressor if self.street is _RIVER else None
        self._bets = [0] * self.players
        self._gather()

    def _gather(self) -> None:
        """The round's bets gathered into the pots: the pots as they stand, which the
        hand ends with when no chips go in after (RULES.md 4.5)."""
        self._gathered = tuple(self.current_pots())
        self._emit(RoundEnded(self.street, sum(self._committed) + self._dead, self._gathered))

    def _deal_board(self, street: Street) -> None:
        """A street on each board, a burn before each (RULES.md 4.4 and 7)."""
        for index, board in enumerate(self.boards):
            self._draw(1)  # burn
            cards = self._draw(BOARD_SIZES[street])
            board.extend(cards)
            self._emit(BoardDealt(street, cards, index))

    def _turn_face_up(self) -> bool:
        """RULES.md 5: with a player all in and no more betting possible, every hand still
        in is turned face up before the rest of the board is dealt; True when they were."""
        face_up = any(self.all_in(p) for p in range(self.players))
        if face_up and self.street is not _RIVER:
            first = (self.button + 1) % self.players
            for player in sorted(range(self.players), key=lambda p: (p - first) % self.players):
                cards = self.holes[player]
                if not self._folded[player] and None not in cards:
                    self._emit(TurnedFaceUp(player, tuple(c for c in cards if c is not None)))
        return face_up

    def _cards_to_river(self) -> int:
        """The cards (burns included) one board still needs to reach the river."""
        return sum(1 + BOARD_SIZES[street] for street in Street if street > self.street)

    def _offers_runs(self, live: list[int]) -> bool:
        """RULES.md 7: run it twice is asked when the table plays it, the board is not yet
        complete, and the deck holds a second run (docs/rules.md: one board only)."""
        needed = self._cards_to_river()
        return (
            self.config.run_it_twice
            and len(self.boards) == 1
            and len(live) > 1
            and needed > 0
            and len(self.deck) - self._next_card >= 2 * needed
        )

    @property
    def run_it_players(self) -> tuple[int, ...]:
        """The players asked to run it twice (none unless the hand waits for them)."""
        if self.phase is not _RUN_IT:
            return ()
        return tuple(p for p in range(self.players) if not self._folded[p])

    def run_it(self, times: int) -> list[Event]:
        """RULES.md 7: deal the rest of the board once or, every player asked having
        agreed, twice; then the showdown. Refused unless the hand is waiting for it."""
        if self.phase is not _RUN_IT:
            raise IllegalActionError("the players are not being asked to run it twice")
        if times not in (1, 2):
            raise IllegalActionError("the board is run once or twice, not {times}", times=times)
        start = len(self.events)
        self._emit(RunsChosen(times))
        self.phase = _BETTING
        self._run_out(times)
        self._progress()
        return self.events[start:]

    def _run_out(self, times: int) -> None:
        """Deal the rest of every board, and a second run after the first (RULES.md 7: it
        continues from the next card of the deck, a burn before each street); then the
        showdown."""
        self.runs = times
        known = len(self.board)
        street = self.street
        while self.street is not _RIVER:
            self.street = Street(self.street + 1)
            self._deal_board(self.street)
        if times == 2:
            second = self.board[:known]
            self.boards.append(second)
            while street is not _RIVER:
                street = Street(street + 1)
                self._draw(1)  # burn
                cards = self._draw(BOARD_SIZES[street])
                second.extend(cards)
                self._emit(BoardDealt(street, cards, 1))
        self._start_showdown(self._face_up)

    def rabbit(self) -> list[BoardDealt]:
        """RULES.md 7, the rabbit hunt: the board that would have come, from the next cards
        of the deck with their burns, once a hand has ended before the river. It is shown,
        never dealt: nothing of the hand changes."""
        if self.phase is not _OVER or self.street is _RIVER:
            return []
        at, cards = self._next_card, []
        for street in Street:
            if street <= self.street:
                continue
            for index in range(len(self.boards)):
                size = BOARD_SIZES[street]
                cards.append(BoardDealt(street, self.deck[at + 1 : at + 1 + size], index))
                at += 1 + size
        return cards

    def _start_showdown(self, face_up: bool) -> None:
        """Value the hands still in, award the pots, and show the hands that must be shown
        first (RULES.md 5)."""
        self.phase = _SHOWDOWN
        self._showdown = ShowdownRound(
            self.config.variant,
            self.holes,
            [p for p in range(self.players) if not self._folded[p]],
            self.boards,
            self._take_rake(),
            self.button,
            self._river_aggressor,
            face_up,
        )
        self._awards = self._showdown.awards
        self.events.extend(self._showdown.reveal())

    def _take_rake(self) -> list[Pot]:
        """The pots after the rake comes out of each (RULES.md 5); paid when the hand ends.
        The betting is over: the pots are those its last round gathered."""
        pots = self._gathered
        cuts = self._rake_cuts([pot.amount for pot in pots])
        self._rake = sum(cuts)
        self._pots = [
            Pot(pot.amount - cut, pot.eligible) for pot, cut in zip(pots, cuts, strict=True)
        ]
        return self._pots

    def _rake_cuts(self, pots: list[int]) -> list[int]:
        """The rake out of each pot before it is split (RULES.md 5).

        A replayed hand gives the rake it recorded, and where it recorded the pots after
        rake, their differences; otherwise the recorded rake comes out of the main pot
        first. A table's own rake is taken only when a flop was dealt.
        """
        rake = self.recorded_rake
        if rake is None:
            if self.config.rake is None or len(self.board) < 3:
                return [0] * len(pots)
            return self.config.rake.cuts(pots)
        recorded = self.recorded_pots
        if recorded is not None and len(recorded) == len(pots):
            cuts = [ours - theirs for ours, theirs in zip(pots, recorded, strict=True)]
            if min(cuts) >= 0 and sum(cuts) == rake:
                return cuts
        cuts = []
        for pot in pots:
            cuts.append(min(rake, pot))
            rake -= cuts[-1]
        if rake:
            raise HandSetupError(f"the recorded rake is {rake} more than the pot")
        return cuts

    def _finish(self) -> None:
        showdown = self._showdown is not None
        if not showdown:  # one player is left in every pot
            pots = self._take_rake()
            self._awards = tuple(award_pots(pots, [({}, None)], self.button, self.players))
        if self._rake:
            self._emit(RakeTaken(self._rake))
        for award in self._awards:
            self._stacks[award.player] += award.amount
            self._emit(
                PotAwarded(
                    award.pot,
                    award.share,
                    award.player,
                    award.amount,
                    award.high,
                    award.low,
                    award.board,
                )
            )
        self.phase = _OVER
        self.to_act = None
        self._emit(HandEnded(tuple(self._stacks)))
        self.result = HandResult(
            tuple(self._pots),
            self._awards,
            self._rake,
            tuple(self._uncalled),
            tuple(self._stacks),
            showdown,
        )
        if sum(self._stacks) + self._rake != sum(self.starting_stacks):
            raise AssertionError("chips were created or lost")  # the engine's own invariant


def replay(
    config: GameConfig,
    stacks: Sequence[int],
    button: int,
    posts: Sequence[Post],
    deck: Sequence[Card | None],
    actions: Sequence[Action],
    *,
    recorded_rake: int | None = None,
    runs: int = 1,
) -> Hand:
    """The hand that these inputs and actions make: a hand's log replays to its state
    (``runs``: what the players chose when asked to run it twice)."""
    hand = Hand(config, stacks, button, posts, deck, recorded_rake=recorded_rake)
    for action in actions:
        if hand.phase is _RUN_IT:
            hand.run_it(runs)
        hand.apply(action)
    if hand.phase is _RUN_IT:
        hand.run_it(runs)
    return hand
