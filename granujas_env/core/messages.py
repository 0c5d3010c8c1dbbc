"""Error-message helpers shared by every game's engine, files and env (pure Python)."""

from __future__ import annotations

import reprlib

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = _SHORT.maxlong = 60
_SHORT.maxlevel = 3


def shown(value: object) -> str:
    """A short ``repr`` for error messages: long strings, deep lists and long numbers are cut."""
    try:
        return _SHORT.repr(value)
    except ValueError:  # an int of more digits than Python converts to text (4300 by default)
        return f"<{type(value).__name__} too long to show>"
