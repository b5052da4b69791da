"""Annotation markers a plugin's signatures use; `vitrine build` reads them without running code.

They exist at run time too, so that `from vitrine import Range` works in the plugin's own
process and in a notebook. None of them changes a value: the host checks values against the
schema built from these annotations before a function is called.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Optional, Protocol


class Range:
    """`Annotated[float, Range(lo, hi)]`: the slider bounds of a number (both inclusive)."""

    __slots__ = ("lo", "hi")

    def __init__(self, lo: Optional[float] = None, hi: Optional[float] = None) -> None:
        self.lo = lo
        self.hi = hi

    def __repr__(self) -> str:
        return f"Range({self.lo!r}, {self.hi!r})"


class Items:
    """`Annotated[list[float], Items(min=1, max=4)]`: how many items a list may hold."""

    __slots__ = ("min", "max")

    def __init__(self, min: Optional[int] = None, max: Optional[int] = None) -> None:  # noqa: A002
        self.min = min
        self.max = max

    def __repr__(self) -> str:
        return f"Items(min={self.min!r}, max={self.max!r})"


if TYPE_CHECKING:
    # A type checker sees what the function receives: `colour: Color = "#e0a030"` checks.
    Color = str
else:

    class Color(str):
        """A colour `#rrggbb`; the value a function receives is a plain `str`."""


class ProgressReporter(Protocol):
    """What a parameter annotated `ProgressReporter` receives: the host injects it."""

    def report(self, text: str, fraction: Optional[float] = None) -> None:
        """Adds one progress message (pushed on the job's event stream)."""
