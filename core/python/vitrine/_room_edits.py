"""Edits of a room's labels layer from a notebook: merge, split, paint and names, undo and redo.

    room.edit("seg", "merge", segments=[12, 40])
    room.edit("seg", "split", segment=12, seeds=[[[3, 40, 41]], [[3, 60, 52]]])
    room.edit("seg", "paint", label=7, center=[10, 20, 30], radius=4)
    room.edit("seg", "paint", label=0, voxels=[[1, 2, 3], [1, 2, 4]])   # label 0 erases
    room.edit("seg", "names", label_names={"7": "nucleus"})
    room.undo(seq)                                                    # the layer is found from its edit
    room.edits("seg")                                                 # every edit, who made it, undone_by

Voxels are [z, y, x] indices of level 0. Each edit answers {"seq", "version", "by", "segments":
{"changed", "new"}, "voxels", "box"}; a bad field raises VitrineError naming it.
"""
from __future__ import annotations

import json
from typing import Any, Dict, List, Optional
from urllib.parse import quote


def _seg(value: str) -> str:
    return quote(value, safe="")


def _plain(value: Any) -> Any:
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, dict):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class RoomEdits:
    """The edits of a room's labels layers (mixed into `Room`)."""

    _client: Any
    _path: str

    def _edits_path(self, layer: str) -> str:
        return f"{self._path}/layers/{_seg(layer)}/edits"

    def edit(self, layer: str, op: str, *, version: Optional[int] = None, **fields: Any) -> Dict[str, Any]:
        """Applies one edit (`merge`, `split`, `paint` or `names`) to the labels layer `layer`.
        With `version`, only while the layer is still at that labels version (else 412)."""
        headers = {"Content-Type": "application/json"}
        if version is not None:
            headers["If-Match"] = f'"{int(version)}"'
        body = json.dumps({"op": op, **{key: _plain(value) for key, value in fields.items()}}).encode("utf-8")
        return self._client._http.send("POST", self._edits_path(layer), body=body, headers=headers).json()

    def _layer_of(self, seq: int) -> str:
        """The layer whose edit `seq` is: the room's log entry says."""
        page = self._client._http.json("GET", f"{self._path}/log", query={"since": str(int(seq) - 1), "limit": "1"})
        entries = page.get("entries", [])
        if not entries or entries[0].get("seq") != int(seq) or entries[0].get("type") != "labels.edit":
            raise ValueError(f"{seq} is not the seq of an edit of a labels layer in room {getattr(self, 'name', '?')!r}")
        return str(entries[0]["layer"])

    def undo(self, seq: int, layer: Optional[str] = None) -> Dict[str, Any]:
        """Undoes edit `seq` as a new edit (409 while a later edit still in effect changed
        what it changed: undo that first)."""
        target = layer if layer is not None else self._layer_of(seq)
        return self._client._http.send("POST", f"{self._edits_path(target)}/{int(seq)}/undo").json()

    def redo(self, seq: int, layer: Optional[str] = None) -> Dict[str, Any]:
        """Redoes undone edit `seq` as a new edit."""
        target = layer if layer is not None else self._layer_of(seq)
        return self._client._http.send("POST", f"{self._edits_path(target)}/{int(seq)}/redo").json()

    def edits(self, layer: str, since: int = 0) -> List[Dict[str, Any]]:
        """Every edit of `layer` after log seq `since`, oldest first, each with `by` and
        `undone_by` while it is undone."""
        found: List[Dict[str, Any]] = []
        while True:
            page = self._client._http.json("GET", self._edits_path(layer), query={"since": str(since), "limit": "10000"})
            found.extend(page["edits"])
            if not page.get("more"):
                return found
            since = page["next_since"]
