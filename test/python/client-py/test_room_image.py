"""vitrine.Client.room_image and Room.image against a real host (its URL in VITRINE_URL): a PNG
of what a room shows at the size asked for, read back from its own header; what a notebook
draws; and the host's refusals (an empty room, a side past 2048) as VitrineError."""
import os
import struct
import unittest
import uuid
from typing import Any, Tuple

from vitrine import Client, Picture, VitrineError

try:
    from IPython.core.formatters import DisplayFormatter  # type: ignore[import]
    HAVE_IPYTHON = True
except ImportError:  # a plain interpreter: what a notebook shows is then checked by _repr_png_ alone
    HAVE_IPYTHON = False

URL = os.environ["VITRINE_URL"]
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def room():
    return f"py-image-{uuid.uuid4()}"


def ihdr_size(png: bytes) -> Tuple[int, int]:
    """Width and height from the IHDR chunk, read here rather than through Picture."""
    assert png[12:16] == b"IHDR", png[:24]
    width, height = struct.unpack(">II", png[16:24])
    return width, height


class RoomImage(unittest.TestCase):
    c = Client(URL)

    def test_a_png_of_what_the_room_shows_at_the_size_asked(self):
        name = room()
        self.c.show(name, "density", {"size": 8})
        png = self.c.room_image(name, width=320, height=200)
        self.assertIsInstance(png, bytes)
        self.assertIsInstance(png, Picture)
        self.assertEqual(png[:8], PNG_SIGNATURE)
        self.assertEqual(ihdr_size(png), (320, 200))
        self.assertEqual((png.width, png.height), (320, 200))
        self.assertEqual(repr(png), f"Picture(320x200 PNG, {len(png)} bytes)")
        # What Jupyter draws: the same bytes as a plain PNG.
        self.assertEqual(png._repr_png_(), bytes(png))

        # The room object asks the same; without a size the host's default, 512 a side.
        pictured = self.c.room(name).image(width=64, height=48)
        self.assertEqual(ihdr_size(pictured), (64, 48))
        self.assertEqual(ihdr_size(self.c.room(name).image()), (512, 512))

    @unittest.skipUnless(HAVE_IPYTHON, "IPython is not installed")
    def test_a_notebook_shows_it_as_an_image(self):
        name = room()
        self.c.show(name, "density", {"size": 8})
        png = self.c.room(name).image(width=40, height=30)
        formatter: Any = DisplayFormatter()
        shown, _ = formatter.format(png)
        self.assertEqual(shown["image/png"], bytes(png))
        self.assertEqual(shown["text/plain"], repr(png))

    def test_the_hosts_refusals_and_bad_sizes(self):
        with self.assertRaises(VitrineError) as empty:
            self.c.room_image(room())
        self.assertEqual(empty.exception.status, 404)
        name = room()
        self.c.show(name, "density", {"size": 8})
        with self.assertRaises(VitrineError) as big:
            self.c.room_image(name, width=4096)
        self.assertEqual(big.exception.status, 400)
        self.assertIn("w", big.exception.detail)
        with self.assertRaises(TypeError):
            self.c.room_image(name, width=12.5)  # type: ignore[arg-type]


if __name__ == "__main__":
    unittest.main()
