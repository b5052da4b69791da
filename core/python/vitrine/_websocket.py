"""A WebSocket client on the standard library, as much of RFC 6455 as the agent socket needs.

The opening handshake over `socket` (and `ssl` for https), text frames sent masked as a client
must, frames read whole (continuations joined), pings answered, a close answered and reported.
Binary frames are read and handed back as bytes; nothing here sends them.
"""
from __future__ import annotations

import base64
import hashlib
import os
import socket
import ssl
import struct
import urllib.parse
from typing import Mapping, Optional, Tuple, Union

from ._http import VitrineError

#: The GUID every server hashes the client's key with (RFC 6455, 1.3).
_GUID = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#: Largest frame taken from the host (its binary frames of speech are far smaller).
MAX_FRAME = 64 * 1024 * 1024


class WebSocket:
    """One client connection: `send_text`, `receive` (str for text, bytes for binary), `close`."""

    def __init__(self, url: str, headers: Mapping[str, str], timeout: Optional[float]) -> None:
        parts = urllib.parse.urlsplit(url)
        secure = parts.scheme == "https"
        port = parts.port or (443 if secure else 80)
        host = parts.hostname or "127.0.0.1"
        try:
            raw = socket.create_connection((host, port), timeout=timeout)
        except OSError as error:
            raise VitrineError(0, f"cannot reach {parts.scheme}://{parts.netloc}: {error}") from None
        self._sock = ssl.create_default_context().wrap_socket(raw, server_hostname=host) if secure else raw
        self._buffer = b""
        self._handshake(parts, headers)

    def _handshake(self, parts: urllib.parse.SplitResult, headers: Mapping[str, str]) -> None:
        key = base64.b64encode(os.urandom(16)).decode("ascii")
        path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
        lines = [f"GET {path} HTTP/1.1", f"Host: {parts.netloc}", "Upgrade: websocket", "Connection: Upgrade",
                 f"Sec-WebSocket-Key: {key}", "Sec-WebSocket-Version: 13"]
        lines += [f"{name}: {value}" for name, value in headers.items()]
        self._sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1"))
        head = self._read_until(b"\r\n\r\n")
        status_line, *header_lines = head.decode("latin-1").split("\r\n")
        status = int(status_line.split(" ")[1]) if len(status_line.split(" ")) > 1 else 0
        if status != 101:
            body = self._buffer[:500].decode("utf-8", "replace")
            raise VitrineError(status, body or status_line)
        accept = {k.strip().lower(): v.strip() for k, _, v in (h.partition(":") for h in header_lines)}.get("sec-websocket-accept")
        expected = base64.b64encode(hashlib.sha1((key + _GUID).encode("ascii")).digest()).decode("ascii")
        if accept != expected:
            raise VitrineError(0, "the host answered the WebSocket handshake with a wrong Sec-WebSocket-Accept")

    def _read(self, count: int) -> bytes:
        while len(self._buffer) < count:
            chunk = self._sock.recv(max(65536, count - len(self._buffer)))
            if not chunk:
                raise VitrineError(0, "the host closed the agent socket")
            self._buffer += chunk
        data, self._buffer = self._buffer[:count], self._buffer[count:]
        return data

    def _read_until(self, marker: bytes) -> bytes:
        while marker not in self._buffer:
            chunk = self._sock.recv(65536)
            if not chunk:
                raise VitrineError(0, "the host closed the connection during the WebSocket handshake")
            self._buffer += chunk
        head, _, self._buffer = self._buffer.partition(marker)
        return head

    def _send(self, opcode: int, payload: bytes) -> None:
        mask = os.urandom(4)
        length = len(payload)
        if length < 126:
            header = struct.pack("!BB", 0x80 | opcode, 0x80 | length)
        elif length < 65536:
            header = struct.pack("!BBH", 0x80 | opcode, 0x80 | 126, length)
        else:
            header = struct.pack("!BBQ", 0x80 | opcode, 0x80 | 127, length)
        masked = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        self._sock.sendall(header + mask + masked)

    def send_text(self, text: str) -> None:
        self._send(0x1, text.encode("utf-8"))

    def _frame(self) -> Tuple[bool, int, bytes]:
        first, second = struct.unpack("!BB", self._read(2))
        length = second & 0x7F
        if length == 126:
            length = struct.unpack("!H", self._read(2))[0]
        elif length == 127:
            length = struct.unpack("!Q", self._read(8))[0]
        if length > MAX_FRAME:
            raise VitrineError(0, f"the host sent a frame of {length} bytes")
        mask = self._read(4) if second & 0x80 else b""
        payload = self._read(length)
        if mask:
            payload = bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
        return bool(first & 0x80), first & 0x0F, payload

    def receive(self) -> Union[str, bytes]:
        """The next message; a ping is answered on the way, a close raises VitrineError with its reason."""
        parts: list = []
        kind = 0
        while True:
            fin, opcode, payload = self._frame()
            if opcode == 0x9:
                self._send(0xA, payload)
                continue
            if opcode == 0xA:
                continue
            if opcode == 0x8:
                code = struct.unpack("!H", payload[:2])[0] if len(payload) >= 2 else 1005
                self.close()
                raise VitrineError(0, f"the host closed the agent socket ({code}: {payload[2:].decode('utf-8', 'replace')})")
            if opcode in (0x1, 0x2):
                kind = opcode
            parts.append(payload)
            if fin:
                data = b"".join(parts)
                return data.decode("utf-8") if kind == 0x1 else data

    def close(self) -> None:
        try:
            self._send(0x8, struct.pack("!H", 1000))
        except OSError:
            pass
        try:
            self._sock.close()
        except OSError:
            pass
