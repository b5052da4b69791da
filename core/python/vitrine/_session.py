"""Session files: a room's snapshot kept as one `.vitrine` file, and taken in by any host.

    saved = c.room("lab").save("lab.vitrine")     # a snapshot, downloaded with every byte it pins
    snap = other.load("lab.vitrine")               # the same snapshot id on another host
    snap.restore("lab")                            # the room shows it, nothing computed again
"""
from __future__ import annotations

import os
import shutil
import tempfile
from typing import TYPE_CHECKING, Any, Dict, Union

if TYPE_CHECKING:
    from .client import Client
    from .room import Room

#: The media type a host sends and takes session files as.
SESSION_TYPE = "application/x-tar"


class Snapshot:
    """A snapshot a host holds: its `id`, the `url` that opens it in the viewer, and `restore`."""

    def __init__(self, client: "Client", id: str, url: str) -> None:
        self._client = client
        self.id = id
        self.url = url

    def restore(self, room: Union[str, "Room"]) -> Dict[str, Any]:
        """Puts the snapshot's scene, view and annotations into `room` (a name or a Room); gives the scene."""
        target = room if not isinstance(room, str) else self._client.room(room)
        return target.restore(self.id)

    def __repr__(self) -> str:
        return f"Snapshot(id={self.id!r}, url={self.url!r})"


def download(client: "Client", snapshot_id: str, path: Union[str, "os.PathLike[str]"]) -> str:
    """Writes snapshot `snapshot_id`'s session file to `path` (a folder: `<id>.vitrine` in it);
    the file appears whole or not at all. Gives the path written."""
    target = os.fspath(path)
    if os.path.isdir(target):
        target = os.path.join(target, f"{snapshot_id}.vitrine")
    folder = os.path.dirname(os.path.abspath(target))
    with client._http.open("GET", f"/api/snapshots/{snapshot_id}", query={"format": "bundle"}) as answer:
        handle, partial = tempfile.mkstemp(prefix=".vitrine-", dir=folder)
        try:
            with os.fdopen(handle, "wb") as out:
                shutil.copyfileobj(answer, out, 1024 * 1024)
            os.replace(partial, target)
        except BaseException:
            os.unlink(partial)
            raise
    return target


def upload(client: "Client", path: Union[str, "os.PathLike[str]"]) -> Snapshot:
    """Takes session file `path` into the host: the snapshot under its own id."""
    with open(os.fspath(path), "rb") as source:
        body = source.read()
    created = client._http.send("POST", "/api/snapshots", body=body, headers={"Content-Type": SESSION_TYPE}).json()
    return Snapshot(client, created["id"], created["url"])
