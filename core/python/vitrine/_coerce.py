"""Turns what a function returned into a checked result ready for the wire.

The checks are the host's own (lengths, finite coordinates, indices in range, dtypes), made
here, in the plugin's process and vectorised where numpy is present, so that a large result
costs the host's event loop nothing but reading its bytes. A failed check raises
`ResultShapeError` with a message naming the field.
"""
from __future__ import annotations

import math
from typing import Any, Dict, List, NoReturn, Optional, Tuple

from . import _arrays, _axes
from ._labels import label_data, label_fields
from .results import ImageResult, MeshResult, PointCloudResult, VolumeResult

VOLUME_DTYPES = ("uint8", "int8", "uint16", "int16", "uint32", "int32", "float32", "float64")
IMAGE_DTYPES = ("uint8", "uint16", "float32")

Arrays = List[Tuple[str, str, Any]]


class ResultShapeError(ValueError):
    """What a function returned is not a valid result of its declared type."""


def to_wire(value: Any, return_type: str) -> Tuple[Dict[str, Any], Arrays]:
    """`(meta, [(field, dtype, flat array)])` of a checked result of `return_type`."""
    maker = {"mesh": _mesh, "volume": _volume, "point_cloud": _points, "image": _image}.get(return_type)
    if maker is None:
        raise ResultShapeError(f"unknown return type {return_type!r}")
    try:
        return maker(value)
    except ResultShapeError:
        raise
    except (ValueError, TypeError) as error:
        raise ResultShapeError(str(error)) from None


def _fail(message: str) -> NoReturn:
    raise ResultShapeError(message)


def _wrong(value: Any, expected: str) -> NoReturn:
    _fail(f"expected {expected}, got {type(value).__name__}")


def _mesh(value: Any) -> Tuple[Dict[str, Any], Arrays]:
    if isinstance(value, MeshResult):
        v, i, n, c = value.vertices, value.indices, value.normals, value.colors
    elif isinstance(value, (tuple, list)) and len(value) in (2, 3):
        v, i, n, c = value[0], value[1], value[2] if len(value) == 3 else None, None
    else:
        return _wrong(value, "a MeshResult or (vertices, indices[, normals])")
    vertices = _arrays.as_flat(v, "float32", "vertices")
    indices = _int_indices(i)
    if _arrays.length(vertices) % 3:
        _fail(f"vertices length {_arrays.length(vertices)} is not a multiple of 3")
    if _arrays.length(indices) % 3:
        _fail(f"indices length {_arrays.length(indices)} is not a multiple of 3")
    _finite(vertices, "vertices")
    count = _arrays.length(vertices) // 3
    top = _arrays.max_value(indices)
    if top is not None and top >= count:
        _fail(f"an index ({int(top)}) is out of range for {count} vertices")
    arrays: Arrays = [("vertices", "float32", vertices), ("indices", "uint32", indices)]
    if n is not None:
        normals = _arrays.as_flat(n, "float32", "normals")
        if _arrays.length(normals) and _arrays.length(normals) != _arrays.length(vertices):
            _fail(f"normals length {_arrays.length(normals)} does not match vertices length {_arrays.length(vertices)}")
        if _arrays.length(normals):
            arrays.append(("normals", "float32", normals))
    if c is not None:
        arrays.append(_colors(c, count, (3,), "vertex"))
    return {}, arrays


def _int_indices(value: Any) -> Any:
    if _arrays.is_ndarray(value) and value.dtype.kind not in "iub":
        _fail(f"indices must be integers, not {value.dtype}")
    if _arrays.is_ndarray(value) and value.size and value.dtype.kind == "i" and int(value.min()) < 0:
        _fail("indices must not be negative")
    return _arrays.as_flat(value, "uint32", "indices")


def _colors(value: Any, count: int, per: Tuple[int, ...], item: str) -> Tuple[str, str, Any]:
    kind = _arrays.dtype_name(value)
    dtype = "float32" if kind in ("float32", "float64") else "uint8"
    colors = _arrays.as_flat(value, dtype, "colors")
    if not any(_arrays.length(colors) == count * k for k in per):
        _fail(f"colors length {_arrays.length(colors)} is not {' or '.join(map(str, per))} per {item} for {count}")
    return ("colors", dtype, colors)


def _finite(arr: Any, field: str) -> None:
    at = _arrays.first_non_finite(arr)
    if at >= 0:
        _fail(f"{field}[{at}] is not a finite number")


def _volume(value: Any) -> Tuple[Dict[str, Any], Arrays]:
    spacing: Optional[list] = None
    origin: Optional[list] = None
    unit: Optional[str] = None
    labels: Any = (False, None, None)
    described: Any = None
    if isinstance(value, VolumeResult):
        shape, dtype, data = value.shape, value.dtype, value.data
        spacing, origin, unit, described = value.spacing, value.origin, value.unit, value
        labels = (value.labels, value.label_names, value.label_colors)
        if data is None:
            _fail("the volume has no data")
        if _arrays.is_ndarray(data):
            dtype = str(data.dtype) if dtype is None else dtype
            shape = list(data.shape) if shape is None or len(data.shape) > 1 else shape
    elif isinstance(value, tuple) and len(value) == 3:
        data, spacing, origin = value
        shape, dtype = None, None
    else:
        data, shape, dtype = value, None, None
    if shape is None:
        if not _arrays.is_ndarray(data):
            return _wrong(value, "a VolumeResult, a 3-D numpy array or (array, spacing, origin)")
        shape, dtype = list(data.shape), str(data.dtype)
    axes = _axes.axes_of(getattr(described, "axes", None), len(shape))
    if axes is None and _arrays.is_ndarray(data) and data.ndim != 3 and len(shape) == data.ndim:
        _fail(f"a volume array has 3 dimensions (4 or 5 with axes='tczyx', 'czyx' or 'tzyx'), got {data.ndim}")
    if dtype == "bool":
        dtype = "uint8"
    if labels[0]:
        data, dtype = label_data(data, dtype)
    if dtype not in VOLUME_DTYPES:
        _fail(f"volume dtype {dtype} is not supported (use one of {', '.join(VOLUME_DTYPES)})")
    sizes = _sizes(shape)
    flat = _arrays.as_flat(data, dtype, "data")
    need = 1
    for n in sizes:
        need *= n
    if _arrays.length(flat) != need:
        _fail(f"data holds {_arrays.length(flat)} values, shape {sizes} needs {need}")
    meta: Dict[str, Any] = {"shape": sizes, "dtype": dtype}
    for key, numbers in (("spacing", spacing), ("origin", origin)):
        if numbers is not None:
            meta[key] = _finite_list(numbers, key)
    if unit is not None:
        if not isinstance(unit, str) or len(unit) > 64:
            _fail("unit must be a string of at most 64 characters")
        meta["unit"] = unit
    if axes is not None:
        meta.update(_axes.axes_meta(described, axes, meta["shape"]))
        meta.update(_axes.step_stats(flat, axes, meta["shape"], meta.get("vector", False)))
    else:
        value_range = _arrays.finite_range(flat)
        if value_range is not None:
            meta["value_range"] = value_range
    meta.update(label_fields(labels[0], labels[1], labels[2], dtype))
    return meta, [("data", dtype, flat)]


def _sizes(shape: Any) -> List[int]:
    """A shape's sizes as ints (numpy's integers too): whole numbers, none negative."""
    sizes = [_size(n) for n in shape]
    whole = [n for n in sizes if n is not None]
    if not whole or len(whole) != len(sizes):
        _fail("shape must be a list of non-negative integers")
    return whole


def _size(n: Any) -> Optional[int]:
    if isinstance(n, bool):
        return None
    try:
        whole = int(n)
    except (TypeError, ValueError, OverflowError):
        return None
    return whole if whole == n and whole >= 0 else None


def _finite_list(numbers: Any, field: str) -> List[float]:
    try:
        values = [float(x) for x in numbers]
    except (TypeError, ValueError):
        raise ResultShapeError(f"{field} must be a list of numbers") from None
    if not all(math.isfinite(v) for v in values):
        _fail(f"{field} must hold finite numbers")
    return values


def _points(value: Any) -> Tuple[Dict[str, Any], Arrays]:
    colors = scalars = None
    if isinstance(value, PointCloudResult):
        p, colors, scalars = value.points, value.colors, value.scalars
    elif isinstance(value, tuple) and len(value) == 3:
        p, colors, scalars = value
    else:
        p = value
    points = _arrays.as_flat(p, "float32", "points")
    if _arrays.length(points) % 3:
        _fail(f"points length {_arrays.length(points)} is not a multiple of 3")
    _finite(points, "points")
    count = _arrays.length(points) // 3
    arrays: Arrays = [("points", "float32", points)]
    if colors is not None:
        arrays.append(_colors(colors, count, (3, 4), "point"))
    if scalars is not None:
        s = _arrays.as_flat(scalars, "float32", "scalars")
        if _arrays.length(s) != count:
            _fail(f"scalars length {_arrays.length(s)} does not match {count} points")
        arrays.append(("scalars", "float32", s))
    return {}, arrays


def _image(value: Any) -> Tuple[Dict[str, Any], Arrays]:
    if not isinstance(value, ImageResult):
        if not _arrays.is_ndarray(value):
            return _wrong(value, "an ImageResult or an H×W or H×W×C array")
        value = ImageResult.from_numpy(value)
    dtype = value.dtype or "uint8"
    if dtype == "bool":
        dtype = "uint8"
    if dtype == "float64":
        dtype = "float32"  # images travel as float32 at most
    if dtype not in IMAGE_DTYPES:
        _fail(f"image dtype {dtype} is not supported (use uint8, uint16 or float32)")
    width, height, channels = value.width, value.height, value.channels or 1
    if not (isinstance(width, int) and width > 0 and isinstance(height, int) and height > 0):
        _fail("an image needs a positive width and height")
    if channels not in (1, 2, 3, 4):
        _fail(f"an image has 1 to 4 channels, got {channels}")
    data = _arrays.as_flat(value.data, dtype, "data")
    if _arrays.length(data) != width * height * channels:
        _fail(f"data holds {_arrays.length(data)} values, {width}×{height}×{channels} needs {width * height * channels}")
    # A float image's samples may be NaN or infinite, as a volume's: a masked value, drawn as
    # the host's PNG encoder draws it (black), never refused.
    return {"width": width, "height": height, "channels": channels, "dtype": dtype}, [("data", dtype, data)]
