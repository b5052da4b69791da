"""Asking a room's agent from a notebook: one turn over the room's agent socket, the reply awaited.

The socket (`/ws/agent/{room}?kind=notebook`) hears the room's whole conversation; the turn sent
is the one after the turns the host says are ahead of it (`turn_queued`), and its reply is the
`agent_text` pieces up to its `agent_text_done`. A headset tool the host sends this socket to run
(it runs one when it is the room's oldest socket) is answered at once that a notebook cannot.
"""
from __future__ import annotations

import json
import time
from typing import Any, Dict, List, Optional
from urllib.parse import quote

from ._http import VitrineError, query_string
from ._websocket import WebSocket


def _turn_over(frame: Dict[str, Any]) -> bool:
    """Whether `frame` ends a turn: its reply done (after an error too), or the turn stopped."""
    return frame.get("type") == "agent_text_done" or (frame.get("type") == "status" and frame.get("text") == "interrupted")


def ask(http: Any, room: str, text: str, *, name: Optional[str] = None, timeout: Optional[float] = None) -> str:
    """Sends `text` as a turn in `room` and answers the agent's reply (VitrineError when it fails)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("ask() takes the words of a turn: a non-empty string")
    wait = http.timeout if timeout is None else timeout
    deadline = time.monotonic() + wait
    query = query_string({"kind": "notebook", "name": name})
    ws = WebSocket(f"{http.base}/ws/agent/{quote(room, safe='')}{query}", http.headers(), wait)
    try:
        history = json.loads(ws.receive())
        client_id = history.get("client_id")
        ws.send_text(json.dumps({"type": "text", "text": text}))
        ahead = 0
        pieces: List[str] = []
        while True:
            if time.monotonic() > deadline:
                raise VitrineError(0, f"the agent of room {room!r} did not answer within {wait:g} s")
            message = ws.receive()
            if isinstance(message, bytes):
                continue
            frame = json.loads(message)
            kind = frame.get("type")
            if kind == "tool_call" and frame.get("executor") == client_id:
                result = {"error": f"a notebook does not run {frame.get('name')}"}
                ws.send_text(json.dumps({"type": "tool_result", "request_id": frame.get("request_id"), "result": result}))
            elif kind == "turn_queued":
                ahead = int(frame.get("position", 0))
            elif ahead > 0:
                ahead -= 1 if _turn_over(frame) else 0
            elif kind == "error":
                raise VitrineError(0, str(frame.get("message")))
            elif kind == "agent_text":
                pieces.append(str(frame.get("text", "")))
            elif _turn_over(frame):
                if kind == "status":
                    raise VitrineError(0, "the turn was interrupted")
                return "".join(pieces)
    finally:
        ws.close()
