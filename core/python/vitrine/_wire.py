"""The frames a plugin process and its host exchange over two pipes.

A frame is a little-endian u32 length, a UTF-8 JSON header of that length, then the raw byte
blocks the header's `sizes` lists (array bytes as they lie in memory: never JSON or base64).
"""
from __future__ import annotations

import json
import os
import signal
import struct
import threading
from typing import Any, BinaryIO, Dict, List, Optional, Sequence, Tuple

_LEN = struct.Struct("<I")
#: A header is small; a longer one means the stream is out of step.
MAX_HEADER = 16 * 1024 * 1024


class FrameReader:
    def __init__(self, stream: BinaryIO) -> None:
        self._stream = stream

    def _exactly(self, n: int) -> Optional[bytearray]:
        buf = bytearray(n)
        view = memoryview(buf)
        got = 0
        while got < n:
            k = self._stream.readinto(view[got:])  # type: ignore[attr-defined]
            if not k:
                return None
            got += k
        return buf

    def read(self) -> Optional[Tuple[Dict[str, Any], List[bytearray]]]:
        """The next frame, or None at the end of the stream."""
        head = self._exactly(4)
        if head is None:
            return None
        (size,) = _LEN.unpack(head)
        if size > MAX_HEADER:
            raise ValueError(f"frame header of {size} bytes")
        raw = self._exactly(size)
        if raw is None:
            return None
        header = json.loads(raw.decode("utf-8"))
        blocks = []
        for n in header.get("sizes", []):
            block = self._exactly(int(n))
            if block is None:
                return None
            blocks.append(block)
        return header, blocks


class FrameWriter:
    """Writes whole frames; safe to call from several threads (progress from a worker thread)."""

    def __init__(self, fd: int) -> None:
        self._fd = fd
        self._lock = threading.Lock()

    def write(self, header: Dict[str, Any], blocks: Sequence[memoryview] = ()) -> None:
        header = dict(header)
        header["sizes"] = [b.nbytes for b in blocks]
        raw = json.dumps(header, separators=(",", ":"), allow_nan=False).encode("utf-8")
        # A cancel (SIGINT) must not cut a frame in half: it is held until the frame is out.
        with self._lock:
            old = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
            try:
                self._all(_LEN.pack(len(raw)) + raw)
                for block in blocks:
                    self._all(block)
            finally:
                signal.pthread_sigmask(signal.SIG_SETMASK, old)

    def _all(self, data: Any) -> None:
        view = memoryview(data).cast("B")
        while view.nbytes:
            written = os.write(self._fd, view)
            view = view[written:]
