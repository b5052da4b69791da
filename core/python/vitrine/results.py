"""The four result types a function returns, and the inputs it receives.

Each class also takes the constructors plugins written for the reference service use
(`MeshResult(vertices=, indices=, normals=)`, `VolumeResult.from_numpy(arr, spacing=, origin=)`,
`ImageResult.from_numpy(arr)`, `PointCloudResult.from_numpy(points, colors=, scalars=)`, and a
volume's base64 `data` string), so such a function runs once its import names `vitrine`.
Values are kept as given; they are checked and converted once, when the result is sent.
"""
from __future__ import annotations

import base64
from typing import Any, Callable, List, Mapping, Optional, Sequence

from . import _arrays


class _Levels:
    """A result from a host whose surfaces have levels of detail (a labels volume, a large mesh)."""

    #: How the client that fetched it asks its host for a level (set by `Client.data`).
    _levels: Optional[Callable[[int, int], Any]] = None

    def mesh(self, segment: int = 1, level: int = 0) -> "MeshResult":
        """The surface of `segment` (a mesh result's one surface is segment 1) at level of detail
        `level` (0 the finest, each next one about a quarter of its triangles; past the coarsest,
        the coarsest), as the host's octree holds it, in physical units. Only a result that came
        from a host (`Client.data`) has levels."""
        if self._levels is None:
            raise ValueError("this result did not come from a vitrine host: it has no levels of detail to ask for")
        mesh: MeshResult = self._levels(int(segment), int(level))
        return mesh


class MeshResult(_Levels):
    """A triangle mesh: vertices (flat x,y,z or N×3), triangle indices, optional normals and colours.

    Positions are (x, y, z) in physical units, the frame a volume's voxel (z, y, x) is placed in
    by `origin + index × spacing`. Arrays in the other order, as numpy indexing and
    `skimage.measure.marching_cubes` give them, say so with `axes="zyx"` (columns swapped and
    each triangle's winding reversed, so it still faces the way it did), or come through
    `from_marching_cubes`.
    """

    type = "mesh"

    def __init__(self, vertices: Any = None, indices: Any = None, normals: Any = None, colors: Any = None, axes: str = "xyz") -> None:
        if axes not in ("xyz", "zyx"):
            raise ValueError(f"a mesh's axes are 'xyz' or 'zyx', not {axes!r}")
        if axes == "zyx":
            vertices, indices, normals = _xyz_of_zyx(vertices), _reversed_winding(indices), _xyz_of_zyx(normals)
        self.vertices = vertices
        self.indices = indices
        self.normals = normals
        self.colors = colors

    @classmethod
    def from_numpy(cls, vertices: Any, indices: Any, normals: Any = None, colors: Any = None, axes: str = "xyz") -> "MeshResult":
        return cls(vertices=vertices, indices=indices, normals=normals, colors=colors, axes=axes)

    @classmethod
    def from_marching_cubes(cls, verts: Any, faces: Any, normals: Any = None, values: Any = None, *,
                            spacing: Optional[Sequence[float]] = None, origin: Optional[Sequence[float]] = None) -> "MeshResult":
        """What `skimage.measure.marching_cubes(volume)` returns, as a mesh lying on that volume:
        `verts` and `normals` are (z, y, x) voxel indices, placed by the volume's `spacing` and
        `origin` (z, y, x, as a VolumeResult takes them). Give `spacing` here or to
        marching_cubes, not to both. `values` is accepted and ignored, so the whole answer can be
        passed as `MeshResult.from_marching_cubes(*marching_cubes(volume, 0.5), spacing=...)`."""
        np = _arrays.numpy
        if np is None:
            raise RuntimeError("from_marching_cubes needs numpy")
        points = np.asarray(verts, dtype="float64").reshape(-1, 3)
        if spacing is not None:
            points = points * np.asarray(spacing, dtype="float64").reshape(1, 3)
        if origin is not None:
            points = points + np.asarray(origin, dtype="float64").reshape(1, 3)
        normals = None if normals is None else np.asarray(normals, dtype="float32").reshape(-1, 3)
        return cls(vertices=points.astype("float32"), indices=faces, normals=normals, axes="zyx")

    def __repr__(self) -> str:
        return f"MeshResult({_count(self.vertices, 3)} vertices, {_count(self.indices, 3)} triangles)"


class VolumeResult(_Levels):
    """A volume in C order (slowest axis first), with optional voxel spacing, origin and unit.

    A segmentation says `labels=True` (each sample a label id, 0 the background; uint8, uint16 or
    uint32, an integer array of another type is converted), with optional `label_names` and
    `label_colors` keyed by id: `{3: "nucleus"}`, `{3: "#ff8800"}`.

    With time and channels it has 4 or 5 axes named by `axes` in NGFF order (`tczyx`, `czyx`,
    `tzyx`; a 5-D array is `tczyx` unless it says otherwise): `spacing` and `origin` stay
    spatial (z, y, x), `channels` lists each channel (a name, or a dict of `name`, `color`
    `#rrggbb` and `window` (lo, hi)), `time_step` and `time_unit` say how far apart the steps
    are, and `vector=True` says the 3 channels are the x, y, z components of a vector field.
    """

    type = "volume"
    #: [min, max] of the finite samples, as a host's answer carries it (`vitrine.testing`, the
    #: client); never read from a result a function returns: the host works it out.
    value_range: Optional[Sequence[float]] = None

    def __init__(
        self,
        shape: Optional[Sequence[int]] = None,
        dtype: Optional[str] = None,
        data: Any = None,
        spacing: Optional[Sequence[float]] = None,
        origin: Optional[Sequence[float]] = None,
        unit: Optional[str] = None,
        labels: bool = False,
        label_names: Optional[Mapping[Any, str]] = None,
        label_colors: Optional[Mapping[Any, str]] = None,
        axes: Optional[str] = None,
        channels: Optional[Sequence[Any]] = None,
        time_step: Optional[float] = None,
        time_unit: Optional[str] = None,
        vector: bool = False,
    ) -> None:
        if isinstance(data, str):  # the reference's base64 form
            data = base64.b64decode(data)
        if isinstance(data, (bytes, bytearray, memoryview)) and dtype is not None:
            data = _arrays.from_bytes(data, str(dtype), list(shape) if shape is not None and _arrays.numpy is not None else None)
        if shape is None and _arrays.is_ndarray(data):
            shape = data.shape
        # Kept as given, like every value: the check when the result is sent says what is wrong.
        self.shape: Optional[List[int]] = list(shape) if shape is not None else None
        self.dtype = str(dtype) if dtype is not None else _arrays.dtype_name(data)
        self.data = data
        self.spacing = list(spacing) if spacing is not None else None
        self.origin = list(origin) if origin is not None else None
        self.unit = unit
        self.labels = bool(labels)
        self.label_names = dict(label_names) if label_names is not None else None
        self.label_colors = dict(label_colors) if label_colors is not None else None
        self.axes = axes
        self.channels = list(channels) if channels is not None else None
        self.time_step = time_step
        self.time_unit = time_unit
        self.vector = bool(vector)

    @classmethod
    def from_numpy(
        cls, arr: Any, spacing: Optional[Sequence[float]] = None, origin: Optional[Sequence[float]] = None, unit: Optional[str] = None, **fields: Any
    ) -> "VolumeResult":
        """`arr` as a volume; `labels`, `label_names`, `label_colors`, `axes`, `channels`,
        `time_step`, `time_unit` and `vector` as the constructor takes them."""
        arr = _arrays.as_nd(arr)
        return cls(shape=arr.shape, dtype=str(arr.dtype), data=arr, spacing=spacing, origin=origin, unit=unit, **fields)

    def to_numpy(self) -> Any:
        """The samples as a numpy array of `shape`."""
        arr = _arrays.as_nd(self.data)
        return arr.reshape(self.shape) if self.shape is not None else arr

    def __repr__(self) -> str:
        labels = ", labels" if self.labels else ""
        axes = f", axes={self.axes!r}" if self.axes else ""
        return f"VolumeResult(shape={self.shape}, dtype={self.dtype}{labels}{axes})"


class PointCloudResult:
    """Points (flat x,y,z or N×3) with optional per-point colours or scalars."""

    type = "point_cloud"

    def __init__(self, points: Any = None, colors: Any = None, scalars: Any = None) -> None:
        self.points = points
        self.colors = colors
        self.scalars = scalars

    @classmethod
    def from_numpy(cls, points: Any, colors: Any = None, scalars: Any = None) -> "PointCloudResult":
        return cls(points=points, colors=colors, scalars=scalars)

    def __repr__(self) -> str:
        return f"PointCloudResult({_count(self.points, 3)} points)"


class ImageResult:
    """A raster image, row-major, channels last: 1 (grey), 2, 3 (RGB) or 4 (RGBA) channels."""

    type = "image"

    def __init__(
        self, width: Optional[int] = None, height: Optional[int] = None, channels: Optional[int] = None, dtype: Optional[str] = None, data: Any = None
    ) -> None:
        if isinstance(data, str):
            data = base64.b64decode(data)
        if isinstance(data, (bytes, bytearray, memoryview)):
            data = _arrays.from_bytes(data, str(dtype or "uint8"))
        if _arrays.is_ndarray(data) and data.ndim in (2, 3) and width is None:
            height, width = int(data.shape[0]), int(data.shape[1])
            channels = 1 if data.ndim == 2 else int(data.shape[2])
        self.width = width
        self.height = height
        self.channels = channels
        self.dtype = str(dtype) if dtype is not None else _arrays.dtype_name(data)
        self.data = data

    @classmethod
    def from_numpy(cls, arr: Any) -> "ImageResult":
        arr = _arrays.as_nd(arr)
        if arr.ndim not in (2, 3):
            raise ValueError(f"an image array is H×W or H×W×C, got {arr.ndim} dimensions")
        return cls(data=arr)

    def to_numpy(self) -> Any:
        arr = _arrays.as_nd(self.data)
        return arr.reshape((self.height, self.width) if self.channels == 1 else (self.height, self.width, self.channels))

    def __repr__(self) -> str:
        return f"ImageResult({self.width}×{self.height}×{self.channels}, {self.dtype})"


class MeshInput(MeshResult):
    """A mesh parameter's value: with numpy, `vertices` and `normals` are N×3, `indices` M×3."""


class VolumeInput(VolumeResult):
    """A volume parameter's value: `data` is an array of `shape` (numpy) or flat."""


class PointCloudInput(PointCloudResult):
    """A point-cloud parameter's value: with numpy, `points` is N×3."""


class ImageInput(ImageResult):
    """An image parameter's value: `data` is H×W×C (numpy) or flat."""


def _xyz_of_zyx(value: Any) -> Any:
    """Triples (flat or N×3) with their first and last members swapped; None stays None."""
    if value is None:
        return None
    np = _arrays.numpy
    if np is not None:
        return np.ascontiguousarray(np.asarray(value).reshape(-1, 3)[:, ::-1])
    flat = _arrays.as_flat(value, "float64", "vertices")
    return [v for i in range(0, len(flat), 3) for v in (flat[i + 2], flat[i + 1], flat[i])]


def _reversed_winding(indices: Any) -> Any:
    """Each triangle (a, b, c) as (a, c, b): swapping two axes mirrors the mesh, which turns faces inside out."""
    if indices is None:
        return None
    np = _arrays.numpy
    if np is not None:
        return np.ascontiguousarray(np.asarray(indices).reshape(-1, 3)[:, [0, 2, 1]])
    flat = _arrays.as_flat(indices, "uint32", "indices")
    return [v for i in range(0, len(flat), 3) for v in (flat[i], flat[i + 2], flat[i + 1])]


def _count(value: Any, per: int) -> str:
    try:
        return str(_arrays.length(_arrays.as_flat(value, "float64", "x")) // per)
    except Exception:
        return "?"
