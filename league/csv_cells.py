"""CSV cells a spreadsheet never runs (OWASP's advice on CSV injection).

Every CSV the league writes (standings, results, the players' list) puts
its text cells through :func:`csv_cell`; the players' import reads them
back through :func:`plain`, so an exported list imports unchanged.
"""

from __future__ import annotations

import re

_FORMULA_START = ("=", "+", "-", "@", "\t", "\r")
_NUMBER = re.compile(r"[+-]?\d+(\.\d+)?")


def csv_cell(value):
    """A cell a spreadsheet never reads as a formula (OWASP's CSV injection
    advice): text starting with ``=``, ``+``, ``-``, ``@``, a tab or a
    carriage return is written after an apostrophe, so a player named
    ``=HYPERLINK(...)`` stays a name. Numbers, negative ones included, stay
    numbers."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    text = str(value)
    if text.startswith(_FORMULA_START) and not _NUMBER.fullmatch(text):
        return "'" + text
    return text


def plain(text: str) -> str:
    """The text :func:`csv_cell` was given: the apostrophe it put before a
    formula-like text taken off again (a spreadsheet hides it too)."""
    if text.startswith("'") and text[1:].startswith(_FORMULA_START) and not _NUMBER.fullmatch(text[1:]):
        return text[1:]
    return text
