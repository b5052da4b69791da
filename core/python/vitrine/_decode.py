"""What a host sends back, as result objects holding numpy arrays.

A `/data` answer is a binary envelope (meshes and volumes: a little-endian u32 length, a JSON
preamble of that length, then the blocks), a `.npy` file (`format=npy`), typed result JSON
(point clouds, images, `/jobs/{id}/result`), or a file served as it is (a static specimen).
Arrays are views onto the received bytes wherever their alignment allows, and writable (the
bytes are held in a bytearray of the result's own).
"""
from __future__ import annotations

import base64
import json
import re
import struct
from typing import Any, Dict

from ._axes import axes_fields
from ._http import Response
from .results import ImageResult, MeshResult, PointCloudResult, VolumeResult

_ENVELOPE = re.compile(r"^application/x-[\w.+-]+-envelope-v1$")


def numpy() -> Any:
    """numpy, which the client's arrays need (plugins can do without it; notebooks cannot)."""
    try:
        import numpy as np
    except ImportError:  # pragma: no cover - depends on the interpreter
        raise ImportError("vitrine.Client gives numpy arrays: install numpy (pip install numpy)") from None
    return np


class DataFile:
    """A file served as it is: its bytes, media type and file name."""

    type = "file"

    def __init__(self, data: bytes, content_type: str, filename: str) -> None:
        self.data = data
        self.content_type = content_type
        self.filename = filename

    def __repr__(self) -> str:
        return f"DataFile({self.filename!r}, {self.content_type}, {len(self.data)} bytes)"


class DecodeError(ValueError):
    """The bytes are not what their media type says."""


def _block(np: Any, body: memoryview, offset: int, dtype: str, count: int, what: str) -> Any:
    size = np.dtype(dtype).itemsize * count
    if offset + size > len(body):
        raise DecodeError(f"truncated envelope: {what} needs {size} bytes at offset {offset}, only {len(body) - offset} left")
    if offset % np.dtype(dtype).itemsize == 0:
        return np.frombuffer(body, dtype=dtype, count=count, offset=offset)
    return np.frombuffer(bytearray(body[offset:offset + size]), dtype=dtype)


def _labels_of(source: Dict[str, Any]) -> Dict[str, Any]:
    """A segmentation's members of a preamble or typed result (none for another volume)."""
    if source.get("labels") is not True:
        return {}
    names, colors = source.get("label_names"), source.get("label_colors")
    return {"labels": True, "label_names": names if isinstance(names, dict) else None, "label_colors": colors if isinstance(colors, dict) else None}


def decode_envelope(body: bytes) -> Any:
    """A v1 envelope as a VolumeResult or MeshResult (the preamble is kept as `.preamble`)."""
    np = numpy()
    view = memoryview(body if isinstance(body, bytearray) else bytearray(body))
    if len(view) < 4:
        raise DecodeError("truncated envelope: shorter than its 4-byte length prefix")
    (length,) = struct.unpack_from("<I", view, 0)
    if 4 + length > len(view):
        raise DecodeError(f"truncated envelope: preamble of {length} bytes, only {len(view) - 4} present")
    preamble: Dict[str, Any] = json.loads(bytes(view[4:4 + length]).decode("utf-8"))
    offset = 4 + length
    if preamble.get("type") == "volume":
        shape = [int(n) for n in preamble["shape"]]
        count = 1
        for n in shape:
            count *= n
        data = _block(np, view, offset, str(preamble["dtype"]), count, "volume data").reshape(shape)
        whole = axes_fields(preamble) if "sizes" not in preamble else {}
        result: Any = VolumeResult(
            shape=shape, dtype=str(preamble["dtype"]), data=data, spacing=preamble.get("spacing"), origin=preamble.get("origin"),
            unit=preamble.get("unit"), **_labels_of(preamble), **whole,
        )
        vr = preamble.get("value_range")
        result.value_range = tuple(vr) if isinstance(vr, list) and len(vr) == 2 else None
        # A step of a volume with time or channels: which one, and the size of every axis of the whole.
        result.t, result.c, result.sizes = preamble.get("t"), preamble.get("c"), preamble.get("sizes")
    elif preamble.get("type") == "mesh":
        nv, ni, nn = (int(preamble.get(k) or 0) for k in ("vertex_count", "index_count", "normal_count"))
        vertices = _block(np, view, offset, "float32", nv * 3, "vertices").reshape(-1, 3)
        offset += nv * 12
        indices = _block(np, view, offset, "uint32", ni, "indices").reshape(-1, 3)
        offset += ni * 4
        normals = _block(np, view, offset, "float32", nn * 3, "normals").reshape(-1, 3) if nn else None
        offset += nn * 12
        nc = int(preamble.get("color_count") or 0)
        colors = _block(np, view, offset, str(preamble.get("color_dtype") or "uint8"), nc * 3, "colors").reshape(-1, 3) if nc else None
        result = MeshResult(vertices=vertices, indices=indices, normals=normals, colors=colors)
    else:
        raise DecodeError(f"unknown envelope type {preamble.get('type')!r}")
    result.preamble = preamble
    return result


def decode_npy(body: bytes) -> Any:
    """A `.npy` file as a VolumeResult (any other array as a plain numpy array)."""
    np = numpy()
    import io

    arr = np.load(io.BytesIO(body), allow_pickle=False)
    return VolumeResult.from_numpy(arr) if arr.ndim == 3 else arr


def decode_typed_json(payload: Dict[str, Any]) -> Any:
    """Typed result JSON (every result type) as a result object with numpy arrays."""
    np = numpy()
    kind = payload.get("type")
    if kind == "volume":
        data = np.frombuffer(bytearray(base64.b64decode(payload["data"])), dtype=payload["dtype"]).reshape(payload["shape"])
        result: Any = VolumeResult(
            shape=payload["shape"], dtype=payload["dtype"], data=data, spacing=payload.get("spacing"), origin=payload.get("origin"),
            unit=payload.get("unit"), **_labels_of(payload), **axes_fields(payload),
        )
        vr = payload.get("value_range")
        result.value_range = tuple(vr) if isinstance(vr, list) and len(vr) == 2 else None
        return result
    if kind == "mesh":
        normals = payload.get("normals")
        return MeshResult(
            vertices=np.asarray(payload["vertices"], dtype="float32").reshape(-1, 3),
            indices=np.asarray(payload["indices"], dtype="uint32").reshape(-1, 3),
            normals=np.asarray(normals, dtype="float32").reshape(-1, 3) if normals else None,
        )
    if kind == "point_cloud":
        colors, scalars = payload.get("colors"), payload.get("scalars")
        return PointCloudResult(
            points=np.asarray(payload["points"], dtype="float32").reshape(-1, 3),
            colors=np.asarray(colors).reshape(-1, 3) if colors is not None else None,
            scalars=np.asarray(scalars, dtype="float32") if scalars is not None else None,
        )
    if kind == "image":
        h, w, c = int(payload["height"]), int(payload["width"]), int(payload["channels"])
        data = np.frombuffer(bytearray(base64.b64decode(payload["data"])), dtype=payload["dtype"])
        return ImageResult(data=data.reshape((h, w) if c == 1 else (h, w, c)))
    raise DecodeError(f"unknown result type {kind!r}")


def _filename(response: Response) -> str:
    disposition = response.headers.get("content-disposition", "")
    match = re.search(r'filename="?([^";]+)"?', disposition)
    return match.group(1) if match else ""


def decode_response(response: Response) -> Any:
    """A `/data`, `/invoke` or `/result` answer by its media type, with the host's result ids attached."""
    media = response.content_type
    if _ENVELOPE.match(media):
        result = decode_envelope(response.body)
    elif media == "application/x-npy" or _filename(response).endswith(".npy"):
        result = decode_npy(response.body)
    elif media == "application/json" and "content-disposition" not in response.headers:
        result = decode_typed_json(response.json())
    else:
        result = DataFile(response.body, media or "application/octet-stream", _filename(response))
    if not hasattr(result, "__dict__"):
        return result
    result.result_id = response.headers.get("x-result-id")
    result.blob_id = response.headers.get("x-blob-id")
    # What made it, as the host says it: "<plugin>@<version>; bundle=<12 hex>" (None for code not from a plugin).
    result.provenance = response.headers.get("vitrine-provenance")
    return result
