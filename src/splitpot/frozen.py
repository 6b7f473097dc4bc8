"""Frozen values built in half the time. The engine makes several at every action
(the legal actions, a view, the events), and a frozen dataclass's own ``__init__`` sets
each field through ``object.__setattr__``: about twice the time of writing the field's
slot directly (docs/load.md, thirteenth round: a tenth of ``splitpot simulate``)."""

from __future__ import annotations

import dataclasses
import inspect
from typing import Any, TypeVar, cast

T = TypeVar("T")


def quick_init(cls: type[T]) -> type[T]:
    """``cls``, a frozen dataclass with slots, with an ``__init__`` of the same signature
    that writes each slot through its descriptor. Only ``__init__`` changes: the values
    are equal, hashed and printed as before, and frozen to every later assignment."""
    options = getattr(cls, "__dataclass_params__", None)
    if options is None or not options.frozen or "__slots__" not in vars(cls):
        raise TypeError(f"{cls.__name__} is not a frozen dataclass with slots")
    if hasattr(cls, "__post_init__"):
        raise TypeError(f"{cls.__name__} has a __post_init__, which this __init__ would skip")
    fields = dataclasses.fields(cast(Any, cls))
    parameters = list(inspect.signature(cls.__init__).parameters.values())[1:]  # after self
    plain = inspect.Parameter.POSITIONAL_OR_KEYWORD
    if (
        [parameter.name for parameter in parameters] != [field.name for field in fields]
        or any(parameter.kind is not plain for parameter in parameters)
        or any(field.default_factory is not dataclasses.MISSING for field in fields)
    ):
        raise TypeError(f"{cls.__name__}: only fields set by position or name, with plain defaults")
    names: dict[str, Any] = {}
    arguments, body = [], []
    for field, parameter in zip(fields, parameters, strict=True):
        names[f"_set_{field.name}"] = getattr(cls, field.name).__set__
        default = parameter.default
        if default is inspect.Parameter.empty:
            arguments.append(field.name)
        else:
            names[f"_default_{field.name}"] = default
            arguments.append(f"{field.name}=_default_{field.name}")
        body.append(f"    _set_{field.name}(self, {field.name})")
    source = "\n".join(
        [
            f"def _make({', '.join(names)}):",
            f"  def __init__(self, {', '.join(arguments)}):",
            *(f"  {line}" for line in body or ["    pass"]),
            "  return __init__",
        ]
    )
    namespace: dict[str, Any] = {}
    exec(source, namespace)  # the source is made above from the fields' names alone
    init = namespace["_make"](**names)
    init.__qualname__ = f"{cls.__qualname__}.__init__"
    init.__doc__ = cls.__init__.__doc__
    init.__annotations__ = dict(cls.__init__.__annotations__)
    cls.__init__ = init  # type: ignore[method-assign]
    return cls
