"""Input parameters as the function receives them: result objects over the bytes the host sent."""
from __future__ import annotations

from typing import Any, Dict, List

from . import _arrays
from ._axes import axes_fields
from .results import ImageInput, MeshInput, PointCloudInput, VolumeInput


def _shaped(arr: Any, *shape: int) -> Any:
    return arr.reshape(shape) if _arrays.is_ndarray(arr) else arr


def make_input(kind: str, meta: Dict[str, Any], fields: Dict[str, Any]) -> Any:
    """The `*Input` object of `kind` whose arrays are `fields` (numpy arrays when numpy is here)."""
    if kind == "mesh":
        n = _arrays.length(fields["vertices"]) // 3
        colors = fields.get("colors")
        return MeshInput(
            vertices=_shaped(fields["vertices"], -1, 3),
            indices=_shaped(fields["indices"], -1, 3),
            normals=_shaped(fields["normals"], -1, 3) if "normals" in fields else None,
            colors=_shaped(colors, n, -1) if colors is not None and n else colors,
        )
    if kind == "volume":
        data = fields["data"]
        return VolumeInput(
            shape=meta["shape"], dtype=meta["dtype"], data=_shaped(data, *meta["shape"]), spacing=meta.get("spacing"), origin=meta.get("origin"),
            unit=meta.get("unit"), labels=meta.get("labels") is True, label_names=meta.get("label_names"), label_colors=meta.get("label_colors"),
            **axes_fields(meta),
        )
    if kind == "point_cloud":
        n = _arrays.length(fields["points"]) // 3
        colors = fields.get("colors")
        shaped_colors = _shaped(colors, n, -1) if colors is not None and n else colors
        return PointCloudInput(points=_shaped(fields["points"], -1, 3), colors=shaped_colors, scalars=fields.get("scalars"))
    if kind == "image":
        h, w, c = meta["height"], meta["width"], meta["channels"]
        data = fields["data"]
        return ImageInput(width=w, height=h, channels=c, dtype=meta.get("dtype"), data=_shaped(data, h, w) if c == 1 else _shaped(data, h, w, c))
    raise ValueError(f"unknown input type {kind!r}")


def read_inputs(specs: List[Dict[str, Any]], blocks: List[bytearray]) -> Dict[str, Any]:
    """Parameter name -> input object, taking each spec's arrays from `blocks` in order."""
    values: Dict[str, Any] = {}
    at = 0
    for spec in specs:
        fields: Dict[str, Any] = {}
        for field in spec["arrays"]:
            fields[field["field"]] = _arrays.from_bytes(blocks[at], field["dtype"])
            at += 1
        values[spec["param"]] = make_input(spec["type"], spec.get("meta", {}), fields)
    return values
