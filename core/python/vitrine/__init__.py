"""vitrine: write specimen functions in Python, and reach a vitrine host from a notebook.

Plugin functions take their types from here::

    from vitrine import Range, MeshResult
    from typing import Annotated

    def sphere(radius: Annotated[float, Range(0.1, 5)] = 1.0) -> MeshResult:
        ...

`vitrine build` reads the annotations without running the plugin; the host runs the functions
in processes of its own. This package needs only the standard library and uses numpy when it
is installed.
"""
from __future__ import annotations

from ._version import __version__
from .annotations import Color, Items, ProgressReporter, Range
from ._picture import Picture
from .client import Client, Job, VitrineError
from .room import Room
from ._session import Snapshot
from .results import (
    ImageInput,
    ImageResult,
    MeshInput,
    MeshResult,
    PointCloudInput,
    PointCloudResult,
    VolumeInput,
    VolumeResult,
)

__all__ = [
    "Client",
    "Color",
    "ImageInput",
    "ImageResult",
    "Items",
    "Job",
    "MeshInput",
    "MeshResult",
    "Picture",
    "PointCloudInput",
    "PointCloudResult",
    "ProgressReporter",
    "Range",
    "Room",
    "Snapshot",
    "VitrineError",
    "VolumeInput",
    "VolumeResult",
    "__version__",
]
