"""The notebook client's parts that need no host: the event-stream reader, query strings, the
host's error bodies, and what needs numpy (run with and without it)."""
import io
import sys
import unittest

from vitrine import Client, VitrineError
from vitrine._http import error_of, query_string
from vitrine._sse import read_events


class EventStream(unittest.TestCase):
    def test_events_comments_and_ids(self):
        text = (
            ": heartbeat\n\n"
            "event: state\ndata: null\n\n"
            "event: progress\nid: 3\ndata: {\"seq\": 3,\ndata:  \"text\": \"a\"}\n\n"
            "data: plain text\r\n\r\n"
            "event: view\ndata: {}\n"  # no blank line: the stream ended mid-event
        )
        events = list(read_events(io.BytesIO(text.encode("utf-8"))))
        self.assertEqual([(e.event, e.data, e.id) for e in events], [
            ("state", None, None),
            ("progress", {"seq": 3, "text": "a"}, "3"),
            ("message", "plain text", "3"),
        ])


class Requests(unittest.TestCase):
    def test_query_strings(self):
        self.assertEqual(query_string(None), "")
        self.assertEqual(query_string({"a": None}), "")
        q = query_string({"params": {"size": 8}, "room_id": "lab 1", "flag": True, "skip": None})
        self.assertEqual(q, "?params=%7B%22size%22%3A8%7D&room_id=lab+1&flag=true")

    def test_error_bodies(self):
        e = error_of(400, b'{"status_code": 400, "detail": "size must be an integer", "code": "SPC_ERR_X"}')
        self.assertEqual((e.status, e.detail, e.code), (400, "size must be an integer", "SPC_ERR_X"))
        plain = error_of(502, b"<html>bad gateway</html>")
        self.assertEqual((plain.status, plain.detail, plain.code), (502, "<html>bad gateway</html>", None))
        self.assertIsInstance(plain, VitrineError)

    def test_bad_arguments_fail_before_sending(self):
        with self.assertRaises(ValueError):
            Client("localhost:8000")
        c = Client("http://127.0.0.1:9")
        with self.assertRaises(TypeError):
            c.data("x", colour="red")
        with self.assertRaises(TypeError):
            c.set_view("lab")
        with self.assertRaises(TypeError):
            c.show("lab")
        with self.assertRaises(ValueError):
            c.data("")


class Numpy(unittest.TestCase):
    def test_arrays_need_numpy_and_say_so(self):
        from vitrine._decode import DecodeError, decode_envelope

        if sys.modules.get("numpy", 0) is None:  # the run with numpy made unimportable
            with self.assertRaises(ImportError) as missing:
                decode_envelope(b"\x02\x00\x00\x00{}")
            self.assertIn("pip install numpy", str(missing.exception))
        else:
            with self.assertRaises(DecodeError) as bad:
                decode_envelope(b"\x02\x00\x00\x00{}")
            self.assertIn("unknown envelope type", str(bad.exception))


if __name__ == "__main__":
    unittest.main()
