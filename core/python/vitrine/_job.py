"""A computation started with `Client.start`: its id, its progress and its result."""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Dict, Generator, Optional

from ._http import VitrineError, _seg
from ._sse import Event, read_events

if TYPE_CHECKING:
    from .client import Client


class Job:
    """A computation started with `Client.start`: its id, its progress and its result."""

    def __init__(self, client: "Client", specimen: str, params: Dict[str, Any], room: Optional[str], start: Dict[str, Any]) -> None:
        self._client = client
        self.specimen = specimen
        self.params = params
        self.room = room
        self.id: str = start["job_id"]
        self.status: str = start["status"]
        self.error: Optional[str] = None

    def __repr__(self) -> str:
        return f"Job({self.id!r}, {self.specimen!r}, {self.status})"

    def progress(self) -> Dict[str, Any]:
        """The job's status and every progress message so far."""
        answer = self._client._http.json("GET", f"/api/jobs/{_seg(self.id)}/progress")
        self.status, self.error = answer["status"], answer.get("error")
        return answer

    def events(self) -> Generator[Event, None, None]:
        """The job's event stream: `progress` events, then `done` or `error` (then it ends)."""
        path = f"/api/jobs/{_seg(self.id)}/events"
        with self._client._http.open("GET", path, headers={"Accept": "text/event-stream"}, timeout=self._client.stream_timeout) as stream:
            for event in read_events(stream):
                if event.event in ("done", "error") and isinstance(event.data, dict):
                    self.status, self.error = event.data.get("status", event.event), event.data.get("error")
                yield event
                if event.event in ("done", "error"):
                    return

    def wait(self, on_progress: Optional[Callable[[Dict[str, Any]], None]] = None) -> "Job":
        """Blocks until the job ends, handing each progress message to `on_progress` once.
        Raises VitrineError when the job ended in an error (cancelled included)."""
        if self.status == "running":
            for event in self.events():
                if event.event == "progress" and on_progress is not None:
                    on_progress(event.data)
        if self.status == "error":
            raise VitrineError(500, f"job {self.id} failed: {self.error}")
        return self

    def result(self, **delivery: Any) -> Any:
        """Waits, then the result as `data()` gives it (from the room cache the job filled)."""
        self.wait()
        return self._client.data(self.specimen, self.params, room=self.room, **delivery)

    def cancel(self) -> None:
        """Stops the computation (the job ends as error `cancelled`)."""
        self._client._http.send("DELETE", f"/api/jobs/{_seg(self.id)}")
