"""Flat typed arrays with or without numpy: what results and inputs are made of.

With numpy (when a plugin imports it, or it is simply installed) arrays are numpy arrays and
every pass over them is vectorised. Without it they are `array.array`s, which is enough for the
small results a standard-library plugin makes. Either way the bytes go to the host as they lie
in memory: `byte_view` is a view, never a copy.
"""
from __future__ import annotations

import array
import importlib
import importlib.util
import math
import sys
from typing import Any, Optional, Sequence

_UNTRIED: Any = object()
_np: Any = _UNTRIED


def _numpy() -> Any:
    """numpy, imported on first use (None without it). A plugin process that never makes an
    array never pays its import (a third of a second of CPU), and a host starts its processes
    without it; the module itself needs only the standard library."""
    global _np
    if _np is _UNTRIED:
        try:
            _np = importlib.import_module("numpy")
        except Exception:  # pragma: no cover - depends on the interpreter
            _np = None
    return _np


def installed_numpy() -> Optional[str]:
    """The version of the numpy arrays would use, read from its metadata without importing it."""
    if _np is not _UNTRIED:
        return None if _np is None else str(_np.__version__)
    if importlib.util.find_spec("numpy") is None:
        return None
    try:
        from importlib.metadata import version  # only here: it costs its own imports

        return version("numpy")
    except Exception:  # pragma: no cover - a numpy without metadata: ask it
        np = _numpy()
        return None if np is None else str(np.__version__)


def __getattr__(name: str) -> Any:
    # `_arrays.numpy` is numpy or None, read as other modules use it, imported when first read.
    if name == "numpy":
        return _numpy()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


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
    # Nothing is an ndarray before numpy is imported: no import just to ask.
    np = sys.modules.get("numpy")
    return np is not None and isinstance(value, np.ndarray)


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
    np = _numpy()
    if np is not None:
        try:
            arr = np.asarray(value)
        except Exception as error:
            raise ValueError(f"{field} is not an array of numbers ({error})") from None
        if arr.dtype == object or arr.dtype.kind not in "biuf":
            raise ValueError(f"{field} must hold numbers, not {arr.dtype}")
        return np.ascontiguousarray(arr.reshape(-1), dtype=dtype)
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
    np = _numpy()
    if np is None:
        raise ValueError("an N-dimensional array needs numpy, which this interpreter lacks")
    return np.asarray(value)


def length(arr: Any) -> int:
    return int(arr.size) if is_ndarray(arr) else len(arr)


def byte_view(arr: Any) -> memoryview:
    """The array's bytes as a flat view (no copy)."""
    if is_ndarray(arr):
        if not arr.flags["C_CONTIGUOUS"]:
            arr = _numpy().ascontiguousarray(arr)
        return memoryview(arr.reshape(-1).view(_numpy().uint8))
    return memoryview(arr).cast("B")


def first_non_finite(arr: Any) -> int:
    """Index of the first NaN or infinity, or -1."""
    if is_ndarray(arr):
        if arr.dtype.kind != "f":
            return -1
        np = _numpy()
        bad = ~np.isfinite(arr)
        return int(np.argmax(bad)) if bad.any() else -1
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
        np = _numpy()
        if arr.dtype.kind != "f" or (np.isfinite(low) and np.isfinite(high)):
            return [float(low), float(high)]  # no NaN or infinity: two passes, no mask
        finite = arr[np.isfinite(arr)]
        return [float(finite.min()), float(finite.max())] if finite.size else None
    values = [v for v in arr if math.isfinite(v)]
    return [float(min(values)), float(max(values))] if values else None


def from_bytes(buffer: Any, dtype: str, shape: Optional[Sequence[int]] = None) -> Any:
    """An array over `buffer` (numpy: shaped, no copy; else a flat array.array copy)."""
    np = _numpy()
    if np is not None:
        arr = np.frombuffer(buffer, dtype=dtype)
        return arr.reshape(shape) if shape is not None else arr
    out = array.array(TYPECODES[dtype])
    out.frombytes(bytes(buffer))
    return out
