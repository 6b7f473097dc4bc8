"""The core's refusals (``rules.Refusal``: the engine's, the table's, the rules', the
settings') as the room says them: in each listener's language (``i18n.Said``)."""

from __future__ import annotations

from splitpot.i18n import Said
from splitpot.rules import Refusal


def worded(error: Refusal) -> Said | str:
    """The refusal's sentence and fields, to say in each listener's language (a reason
    inside it too); a message taken whole, which is no template, stays as it is."""
    if not error.fields and ("{" in error.template or "}" in error.template):
        return error.template
    return _said(error)


def _said(error: Refusal) -> Said:
    fields = tuple(
        (name, _said(value) if isinstance(value, Refusal) else value)
        for name, value in error.fields.items()
    )
    return Said(error.template, fields)


__all__ = ["worded"]
