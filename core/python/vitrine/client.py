"""Client: a vitrine host from a notebook or a script, synchronously, with numpy arrays.

    from vitrine import Client
    c = Client("http://127.0.0.1:8000")
    vol = c.data("ct-phantom")                 # a VolumeResult; vol.data is a numpy array
    c.publish("seg", labels, display_name="Segmentation")
    c.show("lab", "seg")                       # every page following room `lab` shows it
    c.set_view("lab", window=(0, 3), colormap="magma")
    c.room_image("lab", width=800, height=600)  # a PNG of what the room shows; a notebook draws it
    lab = c.room("lab")                        # the room's scene: many layers at once
    lab.save("lab.vitrine"); c.load("lab.vitrine").restore("lab2")   # a session as a file
    mask = lab.add(labels, kind="labels", opacity=0.4)
    for event in c.follow("lab"):              # state, view, computing, result ...
        print(event.event, event.data)
    c.room("lab").annotate("point", [1, 2, 3], label="seed")   # a mark every peer sees

Only the standard library and numpy. Calls block; nothing needs an event loop, so it works the
same in Jupyter (whose kernel runs one) and in a plain script.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Dict, Generator, List, Mapping, Optional, Sequence

from ._decode import DataFile, decode_response
from ._encode import to_file
from ._http import Http, VitrineError, _seg
from ._job import Job
from ._labels import as_label_volume
from ._picture import Picture
from ._sse import Event, read_events
from .results import MeshResult, VolumeResult
from .room import Room
from ._session import Snapshot, upload

__all__ = ["Client", "DataFile", "Event", "Job", "Picture", "Room", "Snapshot", "VitrineError"]

#: The room a request without one goes to, as on the host.
DEFAULT_ROOM = "service"
#: Delivery options `/data` takes beside params (how the result travels, never which result;
#: `t` and `c` pick the step of a volume with time or channels).
DELIVERY_OPTIONS = ("format", "compress", "max_triangles", "dtype", "window", "max_dim", "segment", "t", "c")
#: What a volume with time or channels says of them when it is published (VolumeResult's fields).
AXES_FIELDS = ("axes", "channels", "time_step", "time_unit", "vector")
#: Everything a volume says of itself besides its samples, geometry and labels: kept when published.
VOLUME_FIELDS = ("unit",) + AXES_FIELDS


def _delivery(options: Mapping[str, Any]) -> Dict[str, Any]:
    unknown = sorted(set(options) - set(DELIVERY_OPTIONS))
    if unknown:
        raise TypeError(f"unknown delivery option {unknown[0]!r}: one of {', '.join(DELIVERY_OPTIONS)}")
    out = {}
    for key, value in options.items():
        if key == "window" and isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        out[key] = value
    return out


class Client:
    """A vitrine host at `url` (`http://HOST:PORT`). `token`: a user's token (`vitrine users add`)
    or the host's admin token, sent as a Bearer token on every request: the host then knows who
    writes (marks are authored by that user) and closed rooms let it in as their access says (a
    host bound beyond loopback asks for a token to publish). `timeout`: seconds per
    request; `stream_timeout`: seconds an event stream may stay silent (None: forever; hosts
    send a heartbeat at least every 15 s)."""

    def __init__(self, url: str, token: Optional[str] = None, timeout: float = 120.0, stream_timeout: Optional[float] = 60.0) -> None:
        self._http = Http(url, token, timeout)
        self.url = self._http.base
        self.stream_timeout = stream_timeout

    def __repr__(self) -> str:
        return f"Client({self.url!r})"

    # The catalog.

    def specimens(self, room: Optional[str] = None) -> List[Dict[str, Any]]:
        """The catalog: one dict per specimen (`id`, `display_name`, `type`, `is_dynamic`, ...).
        With `room`, the arrays published for that room's layers are listed too."""
        return self._http.json("GET", "/api/specimens/", query={"room": room} if room else None)

    def specimen(self, id: str) -> Dict[str, Any]:
        """A specimen's full metadata."""
        return self._http.json("GET", f"/api/specimens/{_seg(id)}")

    def schema(self, id: str) -> Optional[Dict[str, Any]]:
        """The JSON Schema of a specimen's parameters (None for a static specimen)."""
        return self.specimen(id).get("schema")

    def functions(self) -> List[Dict[str, Any]]:
        """The host's functions: `name`, `schema`, `return_type`."""
        return self._http.json("GET", "/api/processing/functions")

    # Data.

    def data(self, id: str, params: Optional[Mapping[str, Any]] = None, room: Optional[str] = None, **delivery: Any) -> Any:
        """A specimen's data: a VolumeResult, MeshResult, PointCloudResult or ImageResult whose
        arrays are numpy arrays (a volume's `data` has its `shape`; mesh vertices N×3), or a
        DataFile for a file served as it is. Delivery options (`format`, `dtype`, `window`,
        `max_dim`, `max_triangles`, `compress`) shape how it travels, never which result. A volume
        with time or channels comes one 3-D step at a time: `t` (default 0) and `c` (default 0;
        for a vector field also "magnitude" or "rgb"); the answer's `t`, `c` and `sizes` say
        which step it is and how many there are."""
        query = {"params": dict(params) if params else None, "room_id": room, **_delivery(delivery)}
        return self._with_levels(decode_response(self._http.send("GET", f"/api/specimens/{_seg(id)}/data", query=query)))

    def _with_levels(self, result: Any) -> Any:
        """`result`, able to ask this host for its surfaces' levels of detail (`result.mesh(...)`)."""
        result_id = getattr(result, "result_id", None)
        if result_id and isinstance(result, (VolumeResult, MeshResult)):
            http = self._http
            result._levels = lambda segment, level: decode_response(http.send("GET", f"/api/results/{result_id}/meshes/{segment}/{level}"))
        return result

    def invoke(self, function: str, params: Optional[Mapping[str, Any]] = None, room: Optional[str] = None) -> Any:
        """Runs a function by name (`/api/processing/invoke`) and gives its result."""
        body = {"function_name": function, "kwargs": dict(params or {})}
        if room is not None:
            body["room_id"] = room
        payload = json.dumps(body).encode("utf-8")
        return decode_response(self._http.send("POST", "/api/processing/invoke", body=payload, headers={"Content-Type": "application/json"}))

    def start(self, id: str, params: Optional[Mapping[str, Any]] = None, room: Optional[str] = None,
              on_progress: Optional[Callable[[Dict[str, Any]], None]] = None, wait: bool = False) -> Job:
        """Starts a dynamic specimen's computation as a job (status `done` at once on a room
        cache hit). With `wait=True` (or an `on_progress` callback) it blocks until the job
        ends, calling `on_progress` with each progress message (`seq`, `text`, `fraction`)."""
        body: Dict[str, Any] = {"params": dict(params or {})}
        if room is not None:
            body["room_id"] = room
        job = Job(self, id, dict(params or {}), room, self._http.json("POST", f"/api/specimens/{_seg(id)}/start", body))
        if wait or on_progress is not None:
            job.wait(on_progress)
        return job

    # Rooms as shared workspaces.

    def publish(self, id: str, value: Any, *, display_name: Optional[str] = None, description: Optional[str] = None,
                tags: Optional[Sequence[str]] = None, spacing: Optional[Sequence[float]] = None,
                origin: Optional[Sequence[float]] = None, filename: Optional[str] = None, labels: Optional[bool] = None,
                label_names: Optional[Mapping[Any, str]] = None, label_colors: Optional[Mapping[Any, str]] = None,
                room: Optional[str] = None, source: Optional[str] = None, **axes: Any) -> Dict[str, Any]:
        """Publishes `value` as the static specimen `id` on the host (and every host of its
        service): a result object, a numpy array (3-D: a volume; 2-D or H×W×C uint8: an image;
        wrap a 3-D uint8 volume in `VolumeResult.from_numpy` to say so; 4-D or 5-D: a volume
        with time or channels), a file path, or bytes with `filename`. A volume's `spacing` and
        `origin` (z, y, x) come from a VolumeResult or are given here, and so do its length `unit`
        (`micrometer`, ...: the scale bar and OME-Zarr axes say it), its `axes`
        (`tczyx`, `czyx`, `tzyx`), `channels`, `time_step`, `time_unit` and `vector`.
        `labels=True` publishes a segmentation (integer ids, 0 the background; an integer array
        is converted to uint8, uint16 or uint32), with optional `label_names` and `label_colors`
        keyed by id; a VolumeResult marked as labels says so itself. `room` publishes it for that
        room's layers: the catalog lists it only to `specimens(room=...)`. `source` names what
        made it (a script or notebook: `"segment.py"`); a layer showing it carries it in its
        provenance, with this client's name and version, the user and the time. Publishing
        again replaces it. Gives the host's answer."""
        unknown = sorted(set(axes) - set(VOLUME_FIELDS))
        if unknown:
            raise TypeError(f"publish() got an unexpected keyword {unknown[0]!r}")
        labels = labels if labels is not None else getattr(value, "labels", False)
        label_names = label_names if label_names is not None else getattr(value, "label_names", None)
        label_colors = label_colors if label_colors is not None else getattr(value, "label_colors", None)
        if labels:
            value = as_label_volume(value)
        body, name = to_file(value, filename or id)
        query: Dict[str, Any] = {"filename": name, "display_name": display_name, "description": description, "room": room,
                                 "source": source}
        if tags:
            query["tags"] = ",".join(tags)
        for key, given in (("spacing", spacing), ("origin", origin)):
            given = given if given is not None else getattr(value, key, None)
            if given is not None:
                query[key] = ",".join(str(float(v)) for v in given)
        if labels:
            query["role"] = "labels"
            for key, table in (("label_names", label_names), ("label_colors", label_colors)):
                if table is not None:
                    query[key] = json.dumps({str(k): v for k, v in table.items()})
        for key in VOLUME_FIELDS:
            given = axes.get(key, getattr(value, key, None))
            if given is not None and given is not False:
                query[key] = json.dumps(given) if key == "channels" else str(given).lower() if key == "vector" else str(given)
        answer = self._http.send("PUT", f"/api/specimens/{_seg(id)}", query=query, body=body, headers={"Content-Type": "application/octet-stream"})
        return answer.json() if answer.body else {"id": id}

    def publish_remote(self, id: str, remote: str, *, level: Optional[int] = None, channel: Optional[int] = None,
                       t: Optional[int] = None, labels: Optional[bool] = None, display_name: Optional[str] = None,
                       description: Optional[str] = None, tags: Optional[Sequence[str]] = None,
                       room: Optional[str] = None) -> Dict[str, Any]:
        """Publishes the OME-Zarr image `remote` (`"NAME/path/to/image.ome.zarr"`, NAME one of
        the host's remotes: `remotes()`) as the volume specimen `id`, read in place: the host
        reads its metadata now and only the chunks a viewer needs later; nothing is uploaded.
        `level` is the finest level it shows (0, the image's own finest, by default), `channel`
        and `t` one channel or time step (all by default), `labels=True` a segmentation; with
        `room`, it is published for that room's layers and follows the room's access.
        Gives the host's answer: shape, dtype, levels (each level's shape), spacing, origin."""
        body: Dict[str, Any] = {"remote": remote}
        for key, given in (("level", level), ("channel", channel), ("t", t), ("display_name", display_name),
                           ("description", description), ("room", room)):
            if given is not None:
                body[key] = given
        if tags:
            body["tags"] = list(tags)
        if labels:
            body["role"] = "labels"
        return self._http.json("PUT", f"/api/specimens/{_seg(id)}", body)

    def remotes(self) -> List[str]:
        """The names of the remotes the host reads images from (never their URLs)."""
        return [entry["name"] for entry in self._http.json("GET", "/api/remotes")["remotes"]]

    def unpublish(self, id: str) -> None:
        """Removes a published specimen."""
        self._http.send("DELETE", f"/api/specimens/{_seg(id)}")

    def show(self, room: str, id: Optional[str] = None, params: Optional[Mapping[str, Any]] = None, *, function: Optional[str] = None) -> Any:
        """Makes specimen `id` (or `function=`) with `params` the entry of `room`: every viewer
        following the room shows it."""
        if (id is None) == (function is None):
            raise TypeError("show() takes a specimen id or function=, one of them")
        body: Dict[str, Any] = {"specimen": id} if id is not None else {"function": function}
        if params:
            body["params"] = dict(params)
        return self._http.json("PUT", f"/api/rooms/{_seg(room)}/entry", body)

    def entry(self, room: str) -> Optional[Dict[str, Any]]:
        """What `room` shows now (None when nothing)."""
        return self._http.json("GET", f"/api/rooms/{_seg(room)}/entry")

    def set_view(self, room: str, *, window: Optional[Sequence[float]] = None, colormap: Optional[str] = None,
                 opacity: Optional[float] = None, mode: Optional[str] = None, camera: Optional[Mapping[str, Any]] = None) -> Any:
        """Sets how `room` looks for everyone following it: `window` (lo, hi) in data units,
        `colormap`, `opacity` (0..1), `mode` (`slices`, `volume`, `surface`, `points`),
        `camera` {position, target, up}. Only the settings given change."""
        view: Dict[str, Any] = {}
        if window is not None:
            view["window"] = [float(v) for v in window]
        for key, value in (("colormap", colormap), ("opacity", opacity), ("mode", mode)):
            if value is not None:
                view[key] = value
        if camera is not None:
            view["camera"] = dict(camera)
        if not view:
            raise TypeError("set_view() needs at least one of window, colormap, opacity, mode, camera")
        return self._http.json("PUT", f"/api/rooms/{_seg(room)}/view", view)

    def view(self, room: str) -> Optional[Dict[str, Any]]:
        """How `room` looks now."""
        return self._http.json("GET", f"/api/rooms/{_seg(room)}/view")

    def room_image(self, room: str, width: int = 512, height: int = 512) -> Picture:
        """A PNG of what `room` shows with its view, drawn by the host at `width` x `height`
        pixels (each 1..2048). A `Picture`: bytes with `width` and `height`, drawn as an image
        when a notebook shows it. A room that shows nothing is a VitrineError 404."""
        for name, value in (("width", width), ("height", height)):
            if isinstance(value, bool) or not isinstance(value, int):
                raise TypeError(f"room_image() takes a whole number of pixels for {name}, not {value!r}")
        answer = self._http.send("GET", f"/api/rooms/{_seg(room)}/image", query={"w": width, "h": height})
        return Picture(answer.body)

    def room(self, name: str = DEFAULT_ROOM) -> Room:
        """Room `name`: its scene (`add` layers of arrays, results, specimens or functions,
        change them with `update`, `remove` them, `snapshot()` the room) and its annotations
        (`annotations()`, `points()`, `annotate(kind, points, **fields)`, ...). See
        `vitrine.room.Room`."""
        return Room(self, name)

    def load(self, path: Any) -> Snapshot:
        """Takes a session file (what `Room.save` wrote) into this host: the snapshot under the
        id it had where it was saved, every byte checked against its id. A `Snapshot` with `id`,
        `url` and `restore(room)`; a damaged file is a VitrineError 400 naming the part at fault."""
        return upload(self, path)

    def follow(self, room: str = DEFAULT_ROOM) -> Generator[Event, None, None]:
        """The room's events as they happen: `state` first (its entry or None), then `view`,
        `computing`, `result` ... Each has `.event`, `.data` (parsed JSON) and `.id`. Leave the
        loop (or close the generator) to stop; the connection closes with it."""
        with self._http.open("GET", f"/api/rooms/{_seg(room)}/events", headers={"Accept": "text/event-stream"}, timeout=self.stream_timeout) as stream:
            yield from read_events(stream)
