"""Testing a Python plugin's functions the way the host runs them.

::

    from vitrine.testing import run
    mesh = run("plugins/shapes/plugin.py", "ripple", segments=8)
    assert len(mesh.indices) == 8 * 8 * 6

`run` imports the plugin by path (with its sibling modules, as the host does), checks the
parameters against the function's annotations (what the host would refuse raises
`ParameterError`), calls it with a progress reporter, and checks and converts what it returned
(an invalid result raises `ResultShapeError`). The result is the `vitrine` result class of the
function's return annotation, its arrays flat (numpy arrays when numpy is present).
"""
from __future__ import annotations

import asyncio
import inspect
import os
import typing
from types import ModuleType
from typing import Any, List, Optional, Tuple, Union

from ._axes import axes_fields
from ._coerce import ResultShapeError, to_wire
from ._params import ParameterError, checked_arguments
from ._plugins import import_plugin
from .results import ImageResult, MeshResult, PointCloudResult, VolumeResult

__all__ = ["ParameterError", "ResultShapeError", "load", "run", "run_with_progress"]

RETURN_TYPES = {MeshResult: "mesh", VolumeResult: "volume", PointCloudResult: "point_cloud", ImageResult: "image"}


class _Collector:
    def __init__(self) -> None:
        self.messages: List[Tuple[str, Optional[float]]] = []

    def report(self, text: str, fraction: Optional[float] = None) -> None:
        self.messages.append((str(text), fraction))


def load(plugin: Union[str, "os.PathLike[str]", ModuleType]) -> ModuleType:
    """The plugin module: a module as is, or a `plugin.py` (or its folder) imported by path."""
    if isinstance(plugin, ModuleType):
        return plugin
    path = os.fspath(plugin)
    if os.path.isdir(path):
        path = os.path.join(path, "plugin.py")
    folder = os.path.dirname(os.path.abspath(path))
    return import_plugin(os.path.basename(folder), folder, os.path.basename(path))


def _return_type(fn: Any) -> str:
    hint = typing.get_type_hints(fn).get("return")
    if hint not in RETURN_TYPES:
        raise TypeError(f"{fn.__name__} is not a specimen function: annotate its return type as MeshResult, VolumeResult, PointCloudResult or ImageResult")
    return RETURN_TYPES[hint]


def run_with_progress(plugin: Any, function: str, /, **params: Any) -> Tuple[Any, List[Tuple[str, Optional[float]]]]:
    """Like `run`, and also the progress messages the function reported, as (text, fraction)."""
    module = load(plugin)
    fn = getattr(module, function, None)
    if not callable(fn):
        raise AttributeError(f"the plugin has no function {function!r}")
    return_type = _return_type(fn)
    kwargs, reporter = checked_arguments(fn, params)
    collector = _Collector()
    if reporter:
        kwargs[reporter] = collector
    value = fn(**kwargs)
    if inspect.isawaitable(value):
        value = asyncio.run(_awaited(value))
    meta, arrays = to_wire(value, return_type)
    return _result(return_type, meta, {field: array for field, _, array in arrays}), collector.messages


def run(plugin: Any, function: str, /, **params: Any) -> Any:
    """Runs `function` of `plugin` with `params` as the host would and returns its checked result."""
    return run_with_progress(plugin, function, **params)[0]


async def _awaited(value: Any) -> Any:
    return await value


def _result(kind: str, meta: dict, fields: dict) -> Any:
    if kind == "mesh":
        return MeshResult(vertices=fields["vertices"], indices=fields["indices"], normals=fields.get("normals"), colors=fields.get("colors"))
    if kind == "point_cloud":
        return PointCloudResult(points=fields["points"], colors=fields.get("colors"), scalars=fields.get("scalars"))
    if kind == "image":
        return ImageResult(width=meta["width"], height=meta["height"], channels=meta["channels"], dtype=meta["dtype"], data=fields["data"])
    volume: Any = VolumeResult(
        shape=meta["shape"], dtype=meta["dtype"], data=fields["data"], spacing=meta.get("spacing"), origin=meta.get("origin"), unit=meta.get("unit"),
        labels=meta.get("labels") is True, label_names=meta.get("label_names"), label_colors=meta.get("label_colors"),
        **axes_fields(meta),
    )
    volume.value_range = meta.get("value_range")
    volume.channel_ranges = meta.get("channel_ranges")
    volume.magnitude_max = meta.get("magnitude_max")
    return volume
