"""A room's annotations from a notebook: the methods `Room` takes from `RoomAnnotations`.

    lab = Client("http://127.0.0.1:8000").room("lab")
    ruler = lab.annotate("line", [[0, 0, 0], [1.3, 0, 2]], label="crack")
    print(ruler["length"])                        # measured by the host, in physical units
    seeds = lab.points(label="seed")              # an N×3 numpy array
    for mark in lab.annotations(kind="box"):      # dicts as the host answers them
        print(mark["id"], mark["volume"])

Points are (x, y, z) in physical units, in the frame of the annotation's `layer` when it has
one, else in the room's. Every peer of the room sees each change as it is made.
"""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any, Dict, List, Optional

if TYPE_CHECKING:
    import numpy as np

    from .client import Client

__all__ = ["RoomAnnotations"]

KINDS = ("point", "line", "polyline", "box", "ellipsoid")


def _points(points: Any) -> List[List[float]]:
    """Points as lists of three floats: an N×3 array-like, or one (x, y, z)."""
    import numpy as np  # only when asked: the module imports without numpy (plugin processes)

    array = np.asarray(points, dtype=float)
    if array.ndim == 1 and array.shape == (3,):
        array = array.reshape(1, 3)
    if array.ndim != 2 or array.shape[1] != 3:
        raise ValueError(f"points are (x, y, z) triples: an N×3 array, not shape {array.shape}")
    return array.tolist()


class RoomAnnotations:
    """A room's annotations (`annotations`, `points`, `annotate`, ...): a base of `Room`, which
    sets `_client` (the Client) and `name` (the room)."""

    _client: "Client"
    name: str

    @property
    def _marks_path(self) -> str:
        return f"/api/rooms/{_id(self.name)}/annotations"

    def annotations(self, *, kind: Optional[str] = None, label: Optional[str] = None, as_array: bool = False) -> Any:
        """The room's annotations (dicts, in id order), those of `kind` and `label` when given.
        With `as_array=True`: every point of them as one N×3 float array (a point's one row, a
        line's two, ...), e.g. `room.annotations(kind="point", as_array=True)`."""
        if kind is not None and kind not in KINDS:
            raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
        marks = [m for m in self._client._http.json("GET", self._marks_path)["annotations"]
                 if (kind is None or m["kind"] == kind) and (label is None or m.get("label") == label)]
        if not as_array:
            return marks
        import numpy as np

        rows = [p for m in marks for p in m["points"]]
        return np.asarray(rows, dtype=float).reshape(len(rows), 3)

    def points(self, label: Optional[str] = None) -> "np.ndarray":
        """The room's point annotations (those labelled `label`, when given) as an N×3 array:
        what a layer bound to the room's points receives."""
        return self.annotations(kind="point", label=label, as_array=True)

    def annotate(self, kind: str, points: Any, **fields: Any) -> Dict[str, Any]:
        """Adds an annotation: `kind` (point, line, polyline, box, ellipsoid), its `points`
        (an N×3 array-like, or one (x, y, z) for a point), and any of `label`, `color`
        ('#rrggbb'), `layer`, `properties` (a dict of numbers and strings), `author`. Answers it
        as the host keeps it, with its id, version and measurements (`length`, `volume`)."""
        if kind not in KINDS:
            raise ValueError(f"kind is one of {', '.join(KINDS)}, not {kind!r}")
        return self._client._http.json("POST", self._marks_path, {"kind": kind, "points": _points(points), **fields})

    def annotate_many(self, marks: List[Dict[str, Any]]) -> Dict[str, Any]:
        """Adds several annotations at once (all or none): `{version, annotations}`."""
        body = [{**m, "points": _points(m["points"])} for m in marks]
        return self._client._http.json("POST", self._marks_path, body)

    def change_annotation(self, id: str, *, if_version: Optional[int] = None, **fields: Any) -> Dict[str, Any]:
        """Changes annotation `id` (`None` removes an optional field). With `if_version`, the
        host refuses (VitrineError 412) when someone changed it first."""
        if "points" in fields and fields["points"] is not None:
            fields["points"] = _points(fields["points"])
        headers = {"Content-Type": "application/json", **({"If-Match": f'"{if_version}"'} if if_version is not None else {})}
        body = json.dumps(fields).encode("utf-8")
        return self._client._http.send("PATCH", f"{self._marks_path}/{_id(id)}", body=body, headers=headers).json()

    def remove_annotation(self, id: str, *, if_version: Optional[int] = None) -> None:
        """Removes annotation `id`."""
        headers = {"If-Match": f'"{if_version}"'} if if_version is not None else None
        self._client._http.send("DELETE", f"{self._marks_path}/{_id(id)}", headers=headers)

    def annotations_csv(self) -> str:
        """The annotations as CSV, one row per point (id, kind, label, layer, point, x, y, z,
        length, volume, color, author, unit, length_unit, volume_unit, then one column per
        property): `unit` names the length unit of the row's points and length, `volume_unit`
        its volume's, empty where the frame's result states none."""
        return self._client._http.send("GET", self._marks_path, query={"format": "csv"}).body.decode("utf-8")

    def import_csv(self, text: str) -> Dict[str, Any]:
        """Adds the annotations of a CSV text in the export's shape: `{version, annotations}`."""
        return self._client._http.send("POST", self._marks_path, body=text.encode("utf-8"), headers={"Content-Type": "text/csv"}).json()


def _id(value: Any) -> str:
    from ._http import _seg

    return _seg(str(value))
