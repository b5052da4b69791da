"""Room: one room of a host, as a notebook works with it (`client.room("lab")`).

    lab = Client("http://127.0.0.1:8000").room("lab")
    ruler = lab.annotate("line", [[0, 0, 0], [1.3, 0, 2]], label="crack")
    print(ruler["length"])                        # measured by the host, in physical units
    seeds = lab.points(label="seed")              # an N×3 numpy array
    for mark in lab.annotations(kind="box"):      # dicts as the host answers them
        print(mark["id"], mark["volume"])

Points are (x, y, z) in physical units, in the frame of the annotation's `layer` when it has
one, else in the room's. Every peer of the room sees each change as it is made.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from ._room_annotations import RoomAnnotations
from ._sse import Event

if TYPE_CHECKING:
    from .client import Client

__all__ = ["Room"]


class Room(RoomAnnotations):
    """One room of a host: its annotations (from `RoomAnnotations`) and its events."""

    def __init__(self, client: "Client", name: str) -> None:
        if not isinstance(name, str) or name == "":
            raise ValueError(f"a room name is a non-empty string, not {name!r}")
        self._client = client
        self.name = name

    def __repr__(self) -> str:
        return f"Room({self.name!r})"

    def follow(self) -> Iterator[Event]:
        """The room's events (`state`, `view`, `scene`, `annotation`, `result`, ...)."""
        return self._client.follow(self.name)
