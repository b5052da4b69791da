"""Room: one room's scene from a notebook or a script, its layers added, changed and removed.

    room = Client("http://127.0.0.1:8000").room("lab")
    scan = room.add(volume, colormap="gray")                 # publishes it, returns the layer id
    mask = room.add(labels, labels=True, opacity=0.4)
    cell = room.add_segment(mask, 3, opacity=0.9)               # label 3's surface, made by the host
    room.add("ct-phantom", window=(0, 3000))                  # a specimen of the host, by id
    room.add(function="sphere", params={"radius": 2})         # a function's result
    room.update(mask, visible=False)
    room.remove(scan)
    link = room.snapshot()["url"]
    room.save("lab.vitrine")                                  # the room as a file: `Client.load` takes it in anywhere
    room.image(width=800, height=600)                         # a PNG of what it shows; a notebook draws it
    print(room.ask("What does this room show?"))              # a turn of the room's conversation with its agent
    ruler = room.annotate("line", [[0, 0, 0], [1.3, 0, 2]], label="crack")
    print(ruler["length"])                                   # measured by the host, in physical units
    seeds = room.points(label="seed")                         # an N×3 numpy array
    room.edit(mask, "merge", segments=[3, 5])                 # edits of a labels layer, undoable: room.undo(seq)

Every page, headset and notebook following the room sees each change at once. Arrays and
result objects are published as specimens of the host (`<room>.<layer>`) for the room (the
catalog lists them only to `specimens(room=...)`) and shown from there.
Annotation points are (x, y, z) in physical units, in the frame of the annotation's `layer` when
it has one, else in the room's.
"""
from __future__ import annotations

import re
from typing import Any, Dict, Iterator, List, Mapping, Optional, Sequence
from urllib.parse import quote

from ._agent import ask as _ask
from ._http import VitrineError
from ._picture import Picture
from ._room_annotations import RoomAnnotations
from ._room_edits import RoomEdits
from ._session import download
from ._sse import Event, read_events

#: The display fields a layer takes (see the host's docs/scenes.md).
DISPLAY_FIELDS = ("name", "visible", "opacity", "blending", "colormap", "window", "gamma", "mode", "affine",
                  "clip_planes", "labels", "t", "playing", "channels")


def _seg(value: str) -> str:
    return quote(value, safe="")


def _plain(value: Any) -> Any:
    """JSON-ready: numpy scalars and arrays as Python numbers and lists, tuples as lists."""
    if hasattr(value, "tolist"):
        return value.tolist()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _display(fields: Mapping[str, Any]) -> Dict[str, Any]:
    unknown = sorted(set(fields) - set(DISPLAY_FIELDS))
    if unknown:
        raise TypeError(f"unknown layer field {unknown[0]!r}: one of {', '.join(DISPLAY_FIELDS)}")
    return {key: _plain(value) for key, value in fields.items()}


class Room(RoomAnnotations, RoomEdits):
    """A room of a host: its scene (layers bottom first), its annotations (from
    `RoomAnnotations`), its labels layers' edits (from `RoomEdits`) and the changes any follower sees."""

    def __init__(self, client: Any, name: str) -> None:
        if not isinstance(name, str) or not name:
            raise ValueError(f"a room is a non-empty string, not {name!r}")
        self._client = client
        self.name = name
        self._path = f"/api/rooms/{_seg(name)}"

    def __repr__(self) -> str:
        return f"Room({self.name!r})"

    def ask(self, text: str, *, name: Optional[str] = None, timeout: Optional[float] = None) -> str:
        """Says `text` to the room's agent, as a turn of the conversation everyone in the room
        shares (headsets and pages hear it), and answers its reply; VitrineError when the host has
        no model, the turn fails or runs past `timeout` seconds (default: the client's)."""
        return _ask(self._client._http, self.name, text, name=name, timeout=timeout)

    def scene(self) -> Dict[str, Any]:
        """The whole scene: `version`, `layers` (bottom first) and `active` (the room's entry)."""
        return self._client._http.json("GET", f"{self._path}/scene")

    @property
    def layers(self) -> List[Dict[str, Any]]:
        """The layers, bottom first: each with `id`, `source`, `kind`, its display and its `result`."""
        return self.scene()["layers"]

    def layer(self, id: str) -> Dict[str, Any]:
        """One layer by id."""
        for layer in self.layers:
            if layer["id"] == id:
                return layer
        raise VitrineError(404, f"room '{self.name}' has no layer '{id}'")

    def _source(self, value: Any, params: Optional[Mapping[str, Any]], function: Optional[str], layer_id: Optional[str],
                name: Optional[str], labels: bool = False, made_by: Optional[str] = None,
                tables: Optional[Mapping[str, Any]] = None) -> Dict[str, Any]:
        if made_by is not None and (function is not None or isinstance(value, (str, Mapping)) or value is None):
            raise TypeError("source= names what made an array or result that add() publishes, not a specimen or a function")
        if function is not None:
            if value is not None:
                raise TypeError("add() takes a value or function=, not both")
            return {"function": function, "params": _plain(dict(params or {}))}
        if isinstance(value, Mapping) and ("specimen" in value or "function" in value):
            return _plain(dict(value))
        if isinstance(value, str):
            return {"specimen": value, "params": _plain(dict(params or {}))}
        if value is None:
            raise TypeError("add() needs something to show: an array, a result, a specimen id or function=")
        # An array or result: published as a specimen of the host, named after the room and layer.
        base = layer_id or name or type(value).__name__.lower()
        specimen = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{self.name}.{base}").strip("-.")[:128] or "layer"
        self._client.publish(specimen, value, display_name=name or base, labels=True if labels else None, room=self.name,
                             source=made_by, **(tables or {}))
        return {"specimen": specimen, "params": {}}

    def add(self, value: Any = None, *, id: Optional[str] = None, kind: Optional[str] = None, params: Optional[Mapping[str, Any]] = None,
            function: Optional[str] = None, index: Optional[int] = None, wait: bool = True, source: Optional[str] = None,
            **display: Any) -> str:
        """Adds a layer and returns its id. `value`: a numpy array or result object (published
        as a specimen first), a specimen id with `params`, or a source dict; or `function=` a
        function name with `params`. `kind`: image, labels, mesh or points (from the result when
        absent). `labels=True` with an array publishes it as a segmentation and makes a labels
        layer, with optional `label_names` and `label_colors` keyed by id; as a dict, `labels` is the layer's {colors, selected, show}. Display fields: name,
        visible, opacity, blending, colormap, window, gamma, mode, affine, clip_planes, labels, t,
        playing, channels. `source` names what made an array or result (`"segment.py"`): its
        layer's provenance says so, with this client, the user and the time. With `wait` (the default) it
        returns once the layer's result is in the scene, raising VitrineError if it failed."""
        # `labels=True` with an array says what the array is (a segmentation), as it does for a
        # VolumeResult; the layer's `labels` display field is the dict of colours and selection.
        # Its names and colours go with the published array, not into the layer's display.
        as_labels = display.get("labels") is True
        tables = {key: display.pop(key) for key in ("label_names", "label_colors") if key in display}
        if tables and not as_labels:
            raise TypeError(f"{next(iter(tables))} goes with labels=True and an array or VolumeResult it publishes")
        if as_labels:
            if value is None or isinstance(value, (str, Mapping)):
                raise TypeError("labels=True marks an array or VolumeResult as a segmentation; a specimen's layer takes kind='labels'")
            del display["labels"]
        layer: Dict[str, Any] = _display(display)
        layer["source"] = self._source(value, params, function, id, display.get("name"), as_labels, source, tables)
        if as_labels and kind is None:
            kind = "labels"
        if id is not None:
            layer["id"] = id
        if kind is not None:
            layer["kind"] = kind
        query = {"index": index} if index is not None else None
        if not wait:
            return self._client._http.json("POST", f"{self._path}/layers", layer, query=query)["id"]
        # Following the room before adding, so neither its result nor its failure can be missed.
        with self._client._http.open("GET", f"{self._path}/events", headers={"Accept": "text/event-stream"}, timeout=self._client.stream_timeout) as stream:
            events = read_events(stream)
            for event in events:
                if event.event == "scene":
                    break
            added = self._client._http.json("POST", f"{self._path}/layers", layer, query=query)
            return self._await(events, added["id"])

    def add_remote(self, remote: str, *, id: Optional[str] = None, level: Optional[int] = None, channel: Optional[int] = None,
                   t: Optional[int] = None, kind: Optional[str] = None, index: Optional[int] = None, wait: bool = True,
                   **display: Any) -> str:
        """Adds a layer showing the OME-Zarr image `remote` (`"NAME/path/to/image.ome.zarr"` on
        one of the host's remotes), read in place: published as a specimen of this room without
        copying it (`Client.publish_remote`), then added as `add` adds a specimen (`kind="labels"`
        for a segmentation; an NGFF label image is one anyway). Returns the layer's id."""
        base = id or display.get("name") or remote.rstrip("/").split("/")[-1].replace(".ome.zarr", "").replace(".zarr", "")
        specimen = re.sub(r"[^A-Za-z0-9._-]+", "-", f"{self.name}.{base}").strip("-.")[:128] or "remote"
        answer = self._client.publish_remote(specimen, remote, level=level, channel=channel, t=t, labels=kind == "labels" or None,
                                             display_name=display.get("name") or base, room=self.name)
        if kind is None and answer.get("labels"):
            kind = "labels"
        return self.add(specimen, id=id, kind=kind, index=index, wait=wait, **display)

    def add_segment(self, layer: str, segment: Any = "all", *, id: Optional[str] = None, index: Optional[int] = None,
                    wait: bool = True, **display: Any) -> str:
        """Adds the surface of label `segment` (an id, or "all") of labels layer `layer` as a mesh
        layer, made by the host from the same segmentation (no mask to publish) and kept with
        it. Returns the new layer's id (default `<layer>-<segment>`); takes `add`'s display fields."""
        if segment != "all" and (isinstance(segment, bool) or not isinstance(segment, int) or segment < 1):
            raise ValueError(f"segment is a label id (a whole number from 1) or 'all', not {segment!r}")
        source = dict(self.layer(layer)["source"])
        source["segment"] = segment
        return self.add(source, id=id or f"{layer}-{segment}", index=index, wait=wait, **display)

    def _await(self, events: Any, layer_id: str) -> str:
        active = None
        for event in events:
            data = event.data if isinstance(event.data, dict) else {}
            if event.event == "scene":
                active = data.get("active")
                for layer in data.get("layers", []):
                    if layer.get("id") == layer_id and layer.get("result"):
                        return layer_id
            elif event.event == "failed" and (data.get("layer") == layer_id or ("layer" not in data and active == layer_id)):
                raise VitrineError(500, f"layer '{layer_id}' of room '{self.name}' failed: {data.get('detail')}", data.get("code"))
        raise VitrineError(0, f"the event stream of room '{self.name}' ended before layer '{layer_id}' was computed")

    def update(self, layer: str, *, source: Optional[Mapping[str, Any]] = None, kind: Optional[str] = None, active: bool = False,
               **display: Any) -> Dict[str, Any]:
        """Changes a layer: the display fields given (None takes one back to its default), a new
        `source` (computed again), its `kind`, or `active=True` to make it the room's entry.
        Gives the layer as stored."""
        change: Dict[str, Any] = _display(display)
        if source is not None:
            change["source"] = _plain(dict(source))
        if kind is not None:
            change["kind"] = kind
        if active:
            change["active"] = True
        if not change:
            raise TypeError("update() needs at least one field to change")
        return self._client._http.json("PATCH", f"{self._path}/layers/{_seg(layer)}", change)

    def remove(self, layer: str) -> None:
        """Removes a layer."""
        self._client._http.send("DELETE", f"{self._path}/layers/{_seg(layer)}")

    def clear(self) -> Dict[str, Any]:
        """Removes every layer; gives the empty scene."""
        return self._client._http.json("PUT", f"{self._path}/scene", {"layers": []})

    def snapshot(self) -> Dict[str, Any]:
        """Records the room as it is now (scene, view, annotations, every layer's bytes kept):
        `{"id", "url"}`, `url` opening it in the viewer as it was."""
        return self._client._http.json("POST", f"{self._path}/snapshots")

    def restore(self, snapshot: Any) -> Dict[str, Any]:
        """Puts a snapshot's scene and view back into the room (its id, or what `snapshot()` or
        `Client.load` gave); gives the scene."""
        if isinstance(snapshot, Mapping):
            snapshot = snapshot["id"]
        snapshot_id = getattr(snapshot, "id", snapshot)
        return self._client._http.json("PUT", f"{self._path}/scene", {"snapshot": snapshot_id})

    def save(self, path: Any) -> Dict[str, Any]:
        """Takes a snapshot of the room and writes it to `path` as a session file (a folder:
        `<id>.vitrine` in it), holding every byte its layers show: `Client.load` takes it into
        any host. Gives `{"id", "url", "path"}`."""
        taken = self.snapshot()
        return {**taken, "path": download(self._client, taken["id"], path)}

    def access(self) -> Dict[str, Any]:
        """Who may read and write the room: `{"owner", "editors", "viewers", "public"}` (an open
        room: no owner, `public` "write")."""
        return self._client._http.json("GET", f"{self._path}/access")

    def set_access(self, *, editors: Sequence[str] = (), viewers: Sequence[str] = (), public: str = "none",
                   owner: Optional[str] = None) -> Dict[str, Any]:
        """Closes the room (the client's token's user becomes its owner when it was open), or
        changes who may use it: editors read and write, viewers read, everyone else as `public`
        says ("write", "read" or "none"). Only the owner or an admin may."""
        access: Dict[str, Any] = {"editors": list(editors), "viewers": list(viewers), "public": public}
        if owner is not None:
            access["owner"] = owner
        return self._client._http.json("PUT", f"{self._path}/access", access)

    def image(self, width: int = 512, height: int = 512) -> Picture:
        """A PNG of what the room shows with its view (`Client.room_image`): bytes with
        `width` and `height`, drawn as an image when a notebook shows it."""
        return self._client.room_image(self.name, width=width, height=height)

    def neuroglancer(self) -> Dict[str, Any]:
        """The room's scene as a Neuroglancer viewer state (volumes and labels by URL)."""
        return self._client._http.json("GET", f"{self._path}/neuroglancer")

    def follow(self) -> Iterator[Event]:
        """The room's events as they happen (state, view, scene, computing, result, failed ...)."""
        return self._client.follow(self.name)

    def log(self, since: int = 0, limit: Optional[int] = None) -> List[Dict[str, Any]]:
        """The room's changes after seq `since`, oldest first: each `{seq, ts, by, type, ...}`
        (type view, scene, layer, annotation, entry, snapshot, access or replay). Every page is read
        unless `limit` bounds how many are answered."""
        entries: List[Dict[str, Any]] = []
        while True:
            wanted = 10000 if limit is None else min(10000, limit - len(entries))
            page = self._client._http.json("GET", f"{self._path}/log", query={"since": since, "limit": wanted})
            entries.extend(page["entries"])
            if not page["more"] or (limit is not None and len(entries) >= limit):
                return entries
            since = page["next_since"]

    def presence(self) -> List[Dict[str, Any]]:
        """Who is in the room now, in the order they came: each `{id, name, kind, user, since}`."""
        return self._client._http.json("GET", f"{self._path}/presence")["peers"]
