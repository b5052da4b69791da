"""Server-Sent Events read from an open HTTP response, line by line (heartbeat comments skipped)."""
from __future__ import annotations

import json
from typing import Any, Dict, Iterator, List, Optional


class Event:
    """One event: its name, its data (parsed JSON when it is JSON, else the text) and its id."""

    def __init__(self, event: str, data: Any, id: Optional[str]) -> None:
        self.event = event
        self.data = data
        self.id = id

    def __repr__(self) -> str:
        return f"Event({self.event!r}, {self.data!r})"

    def as_dict(self) -> Dict[str, Any]:
        return {"event": self.event, "data": self.data, "id": self.id}


def read_events(stream: Any) -> Iterator[Event]:
    """The events of `stream` (a binary file-like object) until it ends."""
    name, last_id = "", None
    data: List[str] = []
    while True:
        raw = stream.readline()
        if not raw:
            return
        line = raw.decode("utf-8").rstrip("\r\n")
        if line == "":
            if data:
                text = "\n".join(data)
                try:
                    value: Any = json.loads(text)
                except ValueError:
                    value = text
                yield Event(name or "message", value, last_id)
            name, data = "", []
            continue
        if line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        if value.startswith(" "):
            value = value[1:]
        if field == "event":
            name = value
        elif field == "data":
            data.append(value)
        elif field == "id":
            last_id = value
