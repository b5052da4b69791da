"""Flat typed arrays with or without numpy: what results and inputs are made of.

With numpy (when a plugin imports it, or it is simply installed) arrays are numpy arrays and
every pass over them is vectorised. Without it they are `array.array`s, which is enough for the
small results a standard-library plugin makes. Either way the bytes go to the host as they lie
in memory: `byte_view` is a view, never a copy.
"""
from __future__ import annotations

import array
import importlib
import math
import sys
from typing import Any, Optional, Sequence

_np: Any
try:  # numpy is optional: the module needs only the standard library.
    _np = importlib.import_module("numpy")
except Exception:  # pragma: no cover - depends on the interpreter
    _np = None

numpy = _np

#: dtype name -> array.array type code (sizes checked below: Linux/macOS/Windows agree).
TYPECODES = {
    "uint8": "B",
    "int8": "b",
    "uint16": "H",
    "int16": "h",
    "uint32": "I",
    "int32": "i",
    "float32": "f",
    "float64": "d",
}
ITEMSIZE = {"uint8": 1, "int8": 1, "uint16": 2, "int16": 2, "uint32": 4, "int32": 4, "float32": 4, "float64": 8}
for _name, _code in TYPECODES.items():
    if array.array(_code).itemsize != ITEMSIZE[_name]:  # pragma: no cover - exotic platforms
        raise ImportError(f"array type code {_code!r} is not {ITEMSIZE[_name]} bytes here")

if sys.byteorder != "little":  # pragma: no cover - the wire is little-endian
    raise ImportError("vitrine needs a little-endian machine")


def is_ndarray(value: Any) -> bool:
    return _np is not None and isinstance(value, _np.ndarray)


def dtype_name(value: Any) -> Optional[str]:
    """The dtype name of an array-like (None for plain lists)."""
    if is_ndarray(value):
        return str(value.dtype)
    if isinstance(value, array.array):
        for name, code in TYPECODES.items():
            if value.typecode == code:
                return name
    return None


def as_flat(value: Any, dtype: str, field: str) -> Any:
    """`value` (list, tuple, array, N×k array) as a flat contiguous array of `dtype`."""
    if value is None:
        raise ValueError(f"{field} is missing")
    if _np is not None:
        try:
            arr = _np.asarray(value)
        except Exception as error:
            raise ValueError(f"{field} is not an array of numbers ({error})") from None
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            raise ValueError(f"{field} must hold numbers, not {arr.dtype}")
        return _np.ascontiguousarray(arr.reshape(-1), dtype=dtype)
    if isinstance(value, array.array) and value.typecode == TYPECODES[dtype]:
        return value
    flat = _flatten(value, field)
    try:
        return array.array(TYPECODES[dtype], flat)
    except (TypeError, OverflowError) as error:
        raise ValueError(f"{field} does not fit {dtype} ({error})") from None


def _flatten(value: Any, field: str) -> list:
    if isinstance(value, (bytes, bytearray, memoryview)):
        return list(value)
    out: list = []
    stack = [iter(value)]
    while stack:
        for item in stack[-1]:
            if isinstance(item, (list, tuple)):
                stack.append(iter(item))
                break
            if not isinstance(item, (int, float)) or isinstance(item, bool):
                raise ValueError(f"{field} must hold numbers")
            out.append(item)
        else:
            stack.pop()
    return out


def as_nd(value: Any) -> Any:
    """A numpy array of `value` (numpy required: N-dimensional data needs it)."""
    if _np is None:
        raise ValueError("an N-dimensional array needs numpy, which this interpreter lacks")
    return _np.asarray(value)


def length(arr: Any) -> int:
    return int(arr.size) if is_ndarray(arr) else len(arr)


def byte_view(arr: Any) -> memoryview:
    """The array's bytes as a flat view (no copy)."""
    if is_ndarray(arr):
        if not arr.flags["C_CONTIGUOUS"]:
            arr = _np.ascontiguousarray(arr)
        return memoryview(arr.reshape(-1).view(_np.uint8))
    return memoryview(arr).cast("B")


def first_non_finite(arr: Any) -> int:
    """Index of the first NaN or infinity, or -1."""
    if is_ndarray(arr):
        if arr.dtype.kind != "f":
            return -1
        bad = ~_np.isfinite(arr)
        return int(_np.argmax(bad)) if bad.any() else -1
    for i, v in enumerate(arr):
        if not math.isfinite(v):
            return i
    return -1


def max_value(arr: Any) -> Optional[float]:
    if length(arr) == 0:
        return None
    return float(arr.max()) if is_ndarray(arr) else max(arr)


def finite_range(arr: Any) -> Optional[Sequence[float]]:
    """[min, max] of the finite values, or None when there are none."""
    if is_ndarray(arr):
        if arr.size == 0:
            return None
        low, high = arr.min(), arr.max()
        if arr.dtype.kind != "f" or (_np.isfinite(low) and _np.isfinite(high)):
            return [float(low), float(high)]  # no NaN or infinity: two passes, no mask
        finite = arr[_np.isfinite(arr)]
        return [float(finite.min()), float(finite.max())] if finite.size else None
    values = [v for v in arr if math.isfinite(v)]
    return [float(min(values)), float(max(values))] if values else None


def from_bytes(buffer: Any, dtype: str, shape: Optional[Sequence[int]] = None) -> Any:
    """An array over `buffer` (numpy: shaped, no copy; else a flat array.array copy)."""
    if _np is not None:
        arr = _np.frombuffer(buffer, dtype=dtype)
        return arr.reshape(shape) if shape is not None else arr
    out = array.array(TYPECODES[dtype])
    out.frombytes(bytes(buffer))
    return out
