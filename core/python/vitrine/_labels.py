"""A segmentation's fields, checked as the host checks them: `labels=True` on a uint8, uint16 or
uint32 volume (0 the background), `label_names` and `label_colors` keyed by label id (an int
or its decimal text), names of at most 256 characters, colours `#rrggbb`, at most 10,000
entries each. An integer numpy array of another type (what `scipy.ndimage.label` and
`skimage.measure.label` return: int32, int64) is converted to the smallest of the three that
holds its largest id.
"""
from __future__ import annotations

import re
from typing import Any, Dict, Mapping, Optional, Tuple

from . import _arrays
from .results import VolumeResult

LABEL_DTYPES = ("uint8", "uint16", "uint32")
LABEL_MAX = {"uint8": 255, "uint16": 65535, "uint32": 4294967295}
MAX_ENTRIES = 10_000
MAX_NAME = 256
_COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
_ID = re.compile(r"^(0|[1-9][0-9]{0,9})$")


def label_data(data: Any, dtype: Optional[str]) -> Tuple[Any, Optional[str]]:
    """`(data, dtype)` of a labels volume: an integer numpy array of another type converted to
    the smallest labels dtype that holds it; anything else as it is (checked by `label_fields`)."""
    if dtype in LABEL_DTYPES or not _arrays.is_ndarray(data):
        return data, dtype
    if str(data.dtype) in LABEL_DTYPES:
        return data, str(data.dtype)
    if data.dtype.kind == "b":
        return data.astype("uint8"), "uint8"
    if data.dtype.kind not in "iu":
        raise ValueError(f"labels must be whole numbers (uint8, uint16 or uint32), not {data.dtype}")
    low = int(data.min()) if data.size else 0
    high = int(data.max()) if data.size else 0
    if low < 0 or high > LABEL_MAX["uint32"]:
        raise ValueError(f"label ids must lie in 0..{LABEL_MAX['uint32']}, found {low if low < 0 else high}")
    target = next(name for name in LABEL_DTYPES if high <= LABEL_MAX[name])
    return data.astype(target), target


def _table(field: str, value: Any, top: int, check: Any) -> Dict[str, str]:
    if not isinstance(value, Mapping):
        raise ValueError(f"{field} must be a dict keyed by label id")
    if len(value) > MAX_ENTRIES:
        raise ValueError(f"{field} has {len(value)} entries, more than {MAX_ENTRIES}")
    out = []
    for key, item in value.items():
        text = str(key) if isinstance(key, int) and not isinstance(key, bool) else key
        if not isinstance(text, str) or not _ID.match(text) or int(text) > top:
            raise ValueError(f"{field} key {key!r} is not a label id (a whole number from 0 to {top})")
        checked = check(item)
        if checked is None:
            what = "a colour #rrggbb" if field == "label_colors" else f"a string of at most {MAX_NAME} characters"
            raise ValueError(f"{field} value of {text!r} is not {what}")
        out.append((int(text), checked))
    return {str(k): v for k, v in sorted(out)}


def _name(item: Any) -> Optional[str]:
    return item if isinstance(item, str) and len(item) <= MAX_NAME else None


def _color(item: Any) -> Optional[str]:
    return item.lower() if isinstance(item, str) and _COLOR.match(item) else None


def label_fields(labels: Any, names: Any, colors: Any, dtype: Optional[str]) -> Dict[str, Any]:
    """The wire fields of a volume's labels (empty when it is not marked as labels)."""
    if labels not in (None, True, False):
        raise ValueError("labels must be True or False")
    if not labels:
        if names is not None or colors is not None:
            raise ValueError(f"{'label_names' if names is not None else 'label_colors'} is given but labels is not True")
        return {}
    if dtype not in LABEL_DTYPES:
        raise ValueError(f"labels needs a volume of dtype uint8, uint16 or uint32, not {dtype}")
    fields: Dict[str, Any] = {"labels": True}
    if names is not None:
        fields["label_names"] = _table("label_names", names, LABEL_MAX[dtype], _name)
    if colors is not None:
        fields["label_colors"] = _table("label_colors", colors, LABEL_MAX[dtype], _color)
    return fields


def as_label_volume(value: Any) -> Any:
    """A volume or array to publish as labels, in a labels dtype; a file path or bytes as they are."""
    if isinstance(value, VolumeResult):
        data, _ = label_data(_arrays.as_nd(value.to_numpy()), None)
        return VolumeResult.from_numpy(data, spacing=value.spacing, origin=value.origin, unit=value.unit)
    if isinstance(value, (str, bytes, bytearray, memoryview)) or hasattr(value, "__fspath__"):
        return value
    data, _ = label_data(_arrays.as_nd(value), None)
    return VolumeResult.from_numpy(data)
