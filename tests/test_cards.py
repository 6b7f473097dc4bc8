"""Cards and card text (RULES.md 1)."""

import random

import pytest

from splitpot.cards import (
    Card,
    CardError,
    Deck,
    DuplicateCardError,
    format_cards,
    parse_cards,
    to_cards,
)


def test_codes_follow_rank_and_suit_order() -> None:
    assert Card.parse("2c").code == 0
    assert Card.parse("2s").code == 3
    assert Card.parse("As").code == 51
    assert [Card.from_code(code) for code in range(52)] == sorted(
        Card.from_code(c) for c in range(52)
    )
    assert Card.from_code(4 * 12 + 1) == Card(12, 1) == Card.parse("Ad")


@pytest.mark.parametrize(
    "text",
    ["AdKd3s2s", "Ad Kd 3s 2s", "ad,kd,3s,2s", "A♦K♦3♠2♠", "AD KD 3S 2S", " Ad, Kd\t3s 2s "],
)
def test_the_spellings_of_rules_1_all_parse(text: str) -> None:
    assert format_cards(parse_cards(text)) == "AdKd3s2s"


def test_ten_may_be_written_10_or_T() -> None:
    assert parse_cards("10hTd") == (Card.parse("Th"), Card.parse("Td"))


def test_cards_order_by_rank() -> None:
    assert Card.parse("2s") < Card.parse("3c") < Card.parse("As")
    assert max(parse_cards("Kd Ac 7h")) == Card.parse("Ac")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("AdKd1x2s", "'1x' at position 3 is not a card"),
        ("Ad Zz", "'Zz' at position 2 is not a card"),
        ("AdK", "'K' at position 2 is not a card"),
        ("Ad 10x", "'10x' at position 2 is not a card"),
        ("Ae", "'Ae' at position 1 is not a card"),
    ],
)
def test_a_bad_token_is_named_with_its_position(text: str, message: str) -> None:
    with pytest.raises(CardError) as caught:
        parse_cards(text)
    assert str(caught.value) == message
    assert isinstance(caught.value, ValueError)


def test_a_duplicate_is_an_error_naming_the_card() -> None:
    with pytest.raises(DuplicateCardError, match="duplicate card: Ad") as caught:
        parse_cards("Ad Kd ad")
    assert caught.value.card == Card.parse("Ad")
    with pytest.raises(DuplicateCardError, match="duplicate card: Kd"):
        to_cards([Card.parse("Kd"), Card.parse("Kd")])


def test_to_cards_rejects_what_is_not_a_card() -> None:
    with pytest.raises(CardError, match="'Ad' is not a Card"):
        to_cards(["Ad"])  # type: ignore[list-item]


def test_no_card_outside_the_deck() -> None:
    with pytest.raises(CardError):
        Card(13, 0)
    with pytest.raises(CardError, match="52 is not a card code"):
        Card.from_code(52)


def test_a_seeded_deck_is_reproducible_and_complete() -> None:
    first, second = Deck(7), Deck(random.Random(7))
    assert first.cards == second.cards
    assert sorted(first.cards) == [Card.from_code(code) for code in range(52)]
    assert Deck(8).cards != first.cards


class Recorder(random.Random):
    """A shuffler that says how many cards it shuffled, and reverses them."""

    def __init__(self) -> None:
        super().__init__()
        self.shuffled: list[int] = []

    def shuffle(self, x: list[Card]) -> None:  # type: ignore[override]
        self.shuffled.append(len(x))
        x.reverse()


def test_a_deck_is_shuffled_by_the_shuffler_the_shell_gives() -> None:
    shuffler = Recorder()
    deck = Deck(shuffler)
    assert shuffler.shuffled == [52]
    assert deck.cards[0] == Card.parse("As")
    assert sorted(Deck(random.SystemRandom()).cards) == sorted(deck.cards)


def test_dealing_takes_cards_from_the_top() -> None:
    deck = Deck(1)
    top = deck.cards[:4]
    assert deck.deal(4) == top
    assert len(deck) == 48
    with pytest.raises(CardError, match="cannot deal 49 cards: 48 left"):
        deck.deal(49)
    assert len(deck) == 48
