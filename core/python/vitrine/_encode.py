"""A result or array as a file a host takes for publishing: `.npy` (volume), `.ply` (mesh or
point cloud) or `.png` (image), written with numpy and the standard library.
"""
from __future__ import annotations

import io
import os
import struct
import zlib
from typing import Any, Tuple

from ._decode import numpy
from .results import ImageResult, MeshResult, PointCloudResult, VolumeResult


def _npy(np: Any, arr: Any) -> bytes:
    out = io.BytesIO()
    np.save(out, np.ascontiguousarray(arr), allow_pickle=False)
    return out.getvalue()


def _ply(np: Any, points: Any, faces: Any = None, colors: Any = None) -> bytes:
    """A binary little-endian PLY: float32 x, y, z (+ uchar red, green, blue), and triangles."""
    points = np.ascontiguousarray(np.asarray(points, dtype="<f4").reshape(-1, 3))
    fields = [("x", "<f4"), ("y", "<f4"), ("z", "<f4")]
    if colors is not None:
        colors = np.asarray(colors)
        if colors.dtype.kind == "f":
            colors = np.clip(np.rint(colors * 255), 0, 255)
        colors = colors.astype("u1").reshape(-1, 3)
        fields += [("red", "u1"), ("green", "u1"), ("blue", "u1")]
    vertex = np.empty(len(points), dtype=fields)
    vertex["x"], vertex["y"], vertex["z"] = points[:, 0], points[:, 1], points[:, 2]
    if colors is not None:
        vertex["red"], vertex["green"], vertex["blue"] = colors[:, 0], colors[:, 1], colors[:, 2]
    head = ["ply", "format binary_little_endian 1.0", f"element vertex {len(points)}"]
    head += [f"property float {n}" for n in ("x", "y", "z")]
    if colors is not None:
        head += [f"property uchar {n}" for n in ("red", "green", "blue")]
    body = [vertex.tobytes()]
    if faces is not None:
        tri = np.asarray(faces, dtype="<i4").reshape(-1, 3)
        face = np.empty(len(tri), dtype=[("n", "u1"), ("v", "<i4", (3,))])
        face["n"], face["v"] = 3, tri
        head += [f"element face {len(tri)}", "property list uchar int vertex_indices"]
        body.append(face.tobytes())
    return ("\n".join(head + ["end_header"]) + "\n").encode("ascii") + b"".join(body)


def _png(np: Any, arr: Any) -> bytes:
    """An 8- or 16-bit PNG of an H×W or H×W×C (C = 1..4) array."""
    arr = np.asarray(arr)
    if arr.ndim == 2:
        arr = arr[:, :, None]
    if arr.ndim != 3 or arr.shape[2] not in (1, 2, 3, 4):
        raise ValueError(f"an image is H×W or H×W×C with 1 to 4 channels, not shape {arr.shape}")
    if arr.dtype == np.uint16:
        depth, rows = 16, arr.astype(">u2")
    elif arr.dtype == np.uint8:
        depth, rows = 8, arr
    else:
        raise ValueError(f"an image is published as uint8 or uint16, not {arr.dtype}")
    h, w, c = arr.shape
    colour = {1: 0, 2: 4, 3: 2, 4: 6}[c]
    raw = b"".join(b"\x00" + rows[y].tobytes() for y in range(h))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", w, h, depth, colour, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b"")


def to_file(value: Any, name: str) -> Tuple[bytes, str]:
    """`value` as (file bytes, file name): a result object, a numpy array (3-D: a volume, 4-D and
    5-D: one with time or channels; 2-D or H×W×C with C ≤ 4 of uint8/uint16: an image), a path to a file, or raw bytes
    (then `name` must carry the extension)."""
    if isinstance(value, (str, os.PathLike)):
        with open(value, "rb") as f:
            return f.read(), os.path.basename(os.fspath(value))
    if isinstance(value, (bytes, bytearray, memoryview)):
        if "." not in name:
            raise ValueError("raw bytes need filename= with the format's extension (.npy, .stl, .obj, .glb, .ply, .png)")
        return bytes(value), name
    np = numpy()
    if isinstance(value, VolumeResult):
        return _npy(np, value.to_numpy()), f"{name}.npy"
    if isinstance(value, MeshResult):
        return _ply(np, value.vertices, value.indices, value.colors), f"{name}.ply"
    if isinstance(value, PointCloudResult):
        return _ply(np, value.points, None, value.colors), f"{name}.ply"
    if isinstance(value, ImageResult):
        return _png(np, value.to_numpy()), f"{name}.png"
    arr = np.asarray(value)
    if arr.ndim in (4, 5) or (arr.ndim == 3 and not (arr.shape[2] <= 4 and arr.dtype in (np.uint8,))):
        return _npy(np, arr), f"{name}.npy"
    if arr.ndim in (2, 3):
        return _png(np, arr), f"{name}.png"
    raise ValueError(f"cannot publish an array of shape {arr.shape}: a volume is 3-D (4-D or 5-D with time or channels), an image H×W or H×W×C")
