"""``quick_init``: a frozen dataclass's values built by the faster ``__init__`` are the
values its own ``__init__`` builds, and as frozen; classes it cannot serve are refused."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from dataclasses import dataclass, field

import pytest

from splitpot.engine.actions import LegalActions
from splitpot.engine.hand import HandView
from splitpot.frozen import quick_init
from splitpot.table.events import InHand


@dataclass(frozen=True, slots=True)
class Base:
    player: int
    amount: int = 0


@dataclass(frozen=True, slots=True)
class Plain(Base):
    cards: tuple[str, ...] = ()
    note: str | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Quick(Base):
    cards: tuple[str, ...] = ()
    note: str | None = None


@quick_init
@dataclass(frozen=True, slots=True)
class Empty:
    pass


def fields_of(value: object) -> dict[str, object]:
    return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        ((3,), {}),
        ((3, 40), {}),
        ((3, 40, ("As", "Kd"), "all in"), {}),
        ((), {"player": 2, "note": "late"}),
        ((1,), {"cards": ("2c",), "amount": 7}),
    ],
)
def test_the_same_fields_defaults_equality_hash_and_text(
    args: tuple[object, ...], kwargs: dict[str, object]
) -> None:
    quick, plain = Quick(*args, **kwargs), Plain(*args, **kwargs)  # type: ignore[arg-type]
    assert fields_of(quick) == fields_of(plain)
    assert repr(quick) == repr(plain).replace("Plain", "Quick")
    assert quick == Quick(*args, **kwargs)  # type: ignore[arg-type]
    assert hash(quick) == hash(Quick(*args, **kwargs))  # type: ignore[arg-type]
    assert quick != Quick(99)


def test_the_same_signature_and_the_same_errors_for_bad_calls() -> None:
    assert str(inspect.signature(Quick)) == str(inspect.signature(Plain))
    for make in (Quick, Plain):
        with pytest.raises(TypeError, match="missing 1 required positional argument: 'player'"):
            make()  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="unexpected keyword argument 'stack'"):
            make(1, stack=5)  # type: ignore[call-arg]
        with pytest.raises(TypeError, match="takes from 2 to 5 positional arguments but 6"):
            make(1, 2, (), None, "extra")  # type: ignore[call-arg]
    assert Empty() == Empty()


def test_a_value_stays_frozen() -> None:
    quick = Quick(1, 2)
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.amount = 5  # type: ignore[misc]
    with pytest.raises((AttributeError, TypeError)):
        quick.extra = 1  # type: ignore[attr-defined]
    assert quick.amount == 2


def test_a_value_is_copied_pickled_and_replaced_as_before() -> None:
    quick = Quick(1, 2, ("As",))
    assert pickle.loads(pickle.dumps(quick)) == quick
    assert copy.deepcopy(quick) == quick and copy.copy(quick) == quick
    assert dataclasses.replace(quick, amount=9) == Quick(1, 9, ("As",))


def test_the_engines_hot_values_are_built_by_it() -> None:
    """The classes made at every action (docs/load.md, thirteenth round)."""
    for cls in (HandView, LegalActions, InHand):
        assert cls.__init__.__code__.co_filename == "<string>"
        assert cls.__init__.__qualname__ == f"{cls.__qualname__}.__init__"
    legal = LegalActions(2, fold=True, call=4)
    assert (legal.player, legal.fold, legal.check, legal.call, legal.all_in) == (
        2,
        True,
        False,
        4,
        False,
    )


def test_classes_it_cannot_serve_are_refused_by_name() -> None:
    @dataclass(frozen=True)
    class NoSlots:
        player: int

    @dataclass(slots=True)
    class NotFrozen:
        player: int

    @dataclass(frozen=True, slots=True)
    class Checked:
        player: int

        def __post_init__(self) -> None:
            if self.player < 0:
                raise ValueError("a player is 0 or more")

    @dataclass(frozen=True, slots=True)
    class Made:
        player: int
        seen: list[int] = field(default_factory=list)

    @dataclass(frozen=True, slots=True)
    class Later:
        player: int
        total: int = field(init=False, default=0)

    @dataclass(frozen=True, slots=True, kw_only=True)
    class ByName:
        player: int

    assert Checked  # its check must run: quick_init would skip it
    for cls, words in (
        (NoSlots, "NoSlots is not a frozen dataclass with slots"),
        (NotFrozen, "NotFrozen is not a frozen dataclass with slots"),
        (Checked, "Checked has a __post_init__"),
        (Later, "Later: only fields set by position or name"),
        (ByName, "ByName: only fields set by position or name"),
        (int, "int is not a frozen dataclass with slots"),
    ):
        with pytest.raises(TypeError, match=words):
            quick_init(cls)
    # a default made by a factory is set by the dataclass's __init__ alone
    with pytest.raises(TypeError, match="Made: only fields set by position or name"):
        quick_init(Made)
