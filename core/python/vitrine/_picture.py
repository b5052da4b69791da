"""Picture: a PNG's bytes that a notebook draws as an image.

`Client.room_image()` answers one. It is `bytes`, so it is written to a file or handed to any
image library as it is; `width` and `height` come from the PNG's own header; and Jupyter shows
it as a picture because it has `_repr_png_` (a bare `bytes` would print as a wall of escapes).
"""
from __future__ import annotations

import struct
from typing import Tuple

#: The eight bytes every PNG starts with.
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Picture(bytes):
    """A PNG image: its bytes, its size, and a picture when a notebook shows it."""

    def _header(self) -> Tuple[int, int]:
        # The IHDR chunk comes first: its 4-byte length and type, then width and height.
        if not self.startswith(PNG_SIGNATURE) or self[12:16] != b"IHDR":
            raise ValueError("not a PNG: no signature and IHDR chunk at its start")
        width, height = struct.unpack(">II", self[16:24])
        return width, height

    @property
    def width(self) -> int:
        """Its width in pixels."""
        return self._header()[0]

    @property
    def height(self) -> int:
        """Its height in pixels."""
        return self._header()[1]

    def _repr_png_(self) -> bytes:
        return bytes(self)

    def __repr__(self) -> str:
        return f"Picture({self.width}x{self.height} PNG, {len(self)} bytes)"

    def save(self, path: str) -> None:
        """Writes the PNG to `path`."""
        with open(path, "wb") as out:
            out.write(self)
