"""The notebook client's parts that need no host: the event-stream reader, query strings, the
host's error bodies, and what needs numpy (run with and without it)."""
import http.server
import io
import sys
import threading
import unittest

from vitrine import Client, VitrineError
from vitrine._http import BUSY_RETRIES, Http, error_of, query_string, retry_after_s
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


class Busy(unittest.TestCase):
    """A read refused with 503 and Retry-After is asked again; a write or a bare 503 is not."""

    def serve(self, busy, retry_after):
        seen = []

        class Handler(http.server.BaseHTTPRequestHandler):
            def answer(self):
                seen.append(self.command)
                length = int(self.headers.get("Content-Length") or 0)
                self.rfile.read(length)
                if len(seen) <= busy:
                    body = b'{"status_code": 503, "detail": "busy, retry later", "code": "SPC_ERR_X"}'
                    self.send_response(503)
                    if retry_after is not None:
                        self.send_header("Retry-After", retry_after)
                else:
                    body = b"ok"
                    self.send_response(200)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            do_GET = do_POST = answer

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        return Http(f"http://127.0.0.1:{server.server_address[1]}", None, 10), seen

    def test_read_asked_again_until_answered(self):
        http_, seen = self.serve(2, "0")
        self.assertEqual(http_.send("GET", "/api/blobs/x").body, b"ok")
        self.assertEqual(seen, ["GET", "GET", "GET"])

    def test_gives_up_with_the_hosts_error(self):
        http_, seen = self.serve(100, "0")
        with self.assertRaises(VitrineError) as caught:
            http_.send("GET", "/x")
        self.assertEqual((caught.exception.status, caught.exception.detail), (503, "busy, retry later"))
        self.assertEqual(len(seen), BUSY_RETRIES + 1)

    def test_write_or_bare_503_answered_at_once(self):
        http_, seen = self.serve(1, "0")
        with self.assertRaises(VitrineError):
            http_.send("POST", "/x", body=b"{}")
        self.assertEqual(seen, ["POST"])
        bare, bare_seen = self.serve(1, None)
        with self.assertRaises(VitrineError):
            bare.send("GET", "/x")
        self.assertEqual(bare_seen, ["GET"])

    def test_retry_after_values(self):
        self.assertEqual(retry_after_s("1"), 1.0)
        self.assertEqual(retry_after_s("3600"), 10.0)
        self.assertEqual(retry_after_s("Thu, 01 Jan 2026 00:00:02 GMT", now=1767225600.0), 2.0)
        self.assertIsNone(retry_after_s("soon"))
        self.assertIsNone(retry_after_s(None))


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
