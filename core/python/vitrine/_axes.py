"""Time and channels of a volume: its axes checked against its shape, and what the host keeps.

A volume with time or channels has 4 or 5 axes in NGFF order (`tczyx`, `czyx`, `tzyx`). The
checks are the host's own, made here so a plugin's test sees them; the host makes them again.
What the host keeps of the samples (each channel's finite range over every step, a vector
field's largest magnitude) is worked out here too, vectorised, so that the host's event loop
only reads the numbers.
"""
from __future__ import annotations

import math
import re
from typing import Any, Dict, List, Optional, Sequence, Tuple

from . import _arrays

AXES = ("zyx", "czyx", "tzyx", "tczyx")
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")


def axes_of(axes: Optional[str], ndim: int) -> Optional[str]:
    """The axes of an array of `ndim` dimensions (None: space only); a ValueError names `axes`."""
    if axes is None:
        if ndim == 5:
            return "tczyx"
        if ndim == 4:
            raise ValueError("a 4-D volume needs axes='czyx' (channels) or axes='tzyx' (time)")
        return None
    if axes not in AXES:
        raise ValueError(f"axes must be one of {', '.join(AXES)}, got {axes!r}")
    if len(axes) != ndim:
        raise ValueError(f"axes {axes!r} names {len(axes)} axes but the array has {ndim} dimensions")
    return None if axes == "zyx" else axes


def _counts(axes: str, shape: Sequence[int]) -> Tuple[int, int]:
    t, c = axes.find("t"), axes.find("c")
    return (int(shape[t]) if t >= 0 else 1, int(shape[c]) if c >= 0 else 1)


def _channel(value: Any, at: str) -> Dict[str, Any]:
    if isinstance(value, str):
        return {"name": value}
    if not isinstance(value, dict):
        raise ValueError(f"{at} must be a name or a dict of name, color, window")
    unknown = sorted(set(value) - {"name", "color", "window"})
    if unknown:
        raise ValueError(f"{at} has an unknown field {unknown[0]!r} (fields: name, color, window)")
    out: Dict[str, Any] = {}
    if value.get("name") is not None:
        out["name"] = str(value["name"])
    if value.get("color") is not None:
        if not isinstance(value["color"], str) or not _COLOR.match(value["color"]):
            raise ValueError(f"{at}.color must be a colour #rrggbb, got {value['color']!r}")
        out["color"] = value["color"].lower()
    if value.get("window") is not None:
        lo, hi = (float(v) for v in value["window"])
        if not (math.isfinite(lo) and math.isfinite(hi) and lo < hi):
            raise ValueError(f"{at}.window must be two finite numbers with lo below hi, got {list(value['window'])}")
        out["window"] = [lo, hi]
    return out


def axes_meta(volume: Any, axes: str, shape: Sequence[int]) -> Dict[str, Any]:
    """The time and channel fields of `volume` (a VolumeResult) for a volume of `axes`, checked."""
    steps, channels = _counts(axes, shape)
    meta: Dict[str, Any] = {"axes": axes}
    for key in ("spacing", "origin"):
        given = getattr(volume, key, None)
        if given is not None and len(given) != 3:
            raise ValueError(f"{key} of a volume with axes {axes!r} gives the three spatial axes (z, y, x), not {len(given)} values")
    listed = getattr(volume, "channels", None)
    if listed is not None:
        meta["channels"] = [_channel(value, f"channels[{i}]") for i, value in enumerate(listed)]
        if len(meta["channels"]) != channels:
            raise ValueError(f"channels lists {len(meta['channels'])} channel(s) but the volume has {channels}")
    step, unit = getattr(volume, "time_step", None), getattr(volume, "time_unit", None)
    if step is not None:
        if "t" not in axes or not (isinstance(step, (int, float)) and math.isfinite(step) and step > 0):
            raise ValueError("time_step must be a number above 0, for a volume with a t axis")
        meta["time_step"] = float(step)
    if unit is not None:
        meta["time_unit"] = str(unit)
    if getattr(volume, "vector", False):
        if "c" not in axes or channels != 3:
            raise ValueError(f"vector=True needs a c axis of 3 components (x, y, z), not {channels}")
        meta["vector"] = True
    return meta


def axes_fields(meta: Dict[str, Any]) -> Dict[str, Any]:
    """The VolumeResult keywords of a volume's time and channel fields as the host writes them."""
    return {key: meta[key] for key in ("axes", "channels", "time_step", "time_unit", "vector") if meta.get(key) is not None}


def _blocks(flat: Any, steps: int, channels: int) -> Any:
    """Numpy: the samples as (steps, channels, voxels); else a function giving one block's list."""
    if _arrays.is_ndarray(flat):
        return flat.reshape(steps, channels, -1)
    voxels = _arrays.length(flat) // (steps * channels)
    return lambda t, c: flat[(t * channels + c) * voxels:(t * channels + c + 1) * voxels]


def _magnitude_max(blocks: Any, steps: int) -> float:
    top = 0.0
    np = _arrays.numpy
    for t in range(steps):
        if np is not None and not callable(blocks):
            v = blocks[t, :3].astype(np.float64)
            squared = (v * v).sum(axis=0)
            squared = squared[np.isfinite(squared)]
            if squared.size:
                top = max(top, float(squared.max()))
        else:
            for x, y, z in zip(blocks(t, 0), blocks(t, 1), blocks(t, 2)):
                s = x * x + y * y + z * z
                if math.isfinite(s) and s > top:
                    top = s
    return math.sqrt(top)


def step_stats(flat: Any, axes: str, shape: Sequence[int], vector: bool) -> Dict[str, Any]:
    """`value_range`, each channel's range over every step, and a vector field's largest magnitude."""
    steps, channels = _counts(axes, shape)
    blocks = _blocks(flat, steps, channels)
    found: List[Optional[Sequence[float]]] = []
    for c in range(channels):
        if callable(blocks):
            each = [r for r in (_arrays.finite_range(blocks(t, c)) for t in range(steps)) if r is not None]
            found.append([min(r[0] for r in each), max(r[1] for r in each)] if each else None)
        else:
            found.append(_arrays.finite_range(blocks[:, c]))
    stats: Dict[str, Any] = {}
    held = [r for r in found if r is not None]
    if held:
        stats["value_range"] = [float(min(r[0] for r in held)), float(max(r[1] for r in held))]
    stats["channel_ranges"] = [[float(r[0]), float(r[1])] if r is not None else [0.0, 0.0] for r in found]
    if vector:
        stats["magnitude_max"] = _magnitude_max(blocks, steps)
    return stats
