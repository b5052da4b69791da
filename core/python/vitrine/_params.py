"""Checking a call's parameters against a function's annotations, as the host checks them.

The host checks values against the JSON Schema `vitrine build` writes from the annotations;
the test helper (`vitrine.testing`) checks the same rules here, from the same annotations, so
that a plugin's own tests catch what the host would refuse: unknown or missing parameters,
wrong types (no coercion; an int is a number, a bool is not), values outside a `Range`, not in
a `Literal`, lists of the wrong length, colours not `#rrggbb`.
"""
from __future__ import annotations

import inspect
import re
import sys
import typing
from typing import Any, Callable, Dict, Tuple

from .annotations import Color, Items, ProgressReporter, Range
from .results import ImageInput, ImageResult, MeshInput, MeshResult, PointCloudInput, PointCloudResult, VolumeInput, VolumeResult

INPUTS = (MeshInput, VolumeInput, PointCloudInput, ImageInput)
COLOR = re.compile(r"^#[0-9a-fA-F]{6}$")
# `typing.Annotated` came in Python 3.9: before it, no annotation carries a marker.
_ANNOTATED: Any = getattr(typing, "Annotated", None)
_NONE_TYPE = type(None)


class ParameterError(ValueError):
    """A value the host would refuse with a 400 naming the parameter."""


def _strip_optional(hint: Any) -> Tuple[Any, bool]:
    args = typing.get_args(hint)
    if typing.get_origin(hint) is typing.Union or type(hint).__name__ == "UnionType":
        rest = [a for a in args if a is not _NONE_TYPE]
        if len(rest) == 1 and len(rest) != len(args):
            return rest[0], True
    return hint, False


def _check(name: str, hint: Any, value: Any) -> None:
    meta: list = []
    if _ANNOTATED is not None and typing.get_origin(hint) is _ANNOTATED:
        hint, *meta = typing.get_args(hint)
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            raise ParameterError(f"{name} must be a number, got {value!r}")
    elif hint is int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise ParameterError(f"{name} must be an integer, got {value!r}")
    elif hint is bool:
        if not isinstance(value, bool):
            raise ParameterError(f"{name} must be true or false, got {value!r}")
    elif hint is Color:
        if not isinstance(value, str) or not COLOR.match(value):
            raise ParameterError(f"{name} must be a colour #rrggbb, got {value!r}")
    elif hint is str:
        if not isinstance(value, str):
            raise ParameterError(f"{name} must be a string, got {value!r}")
    elif origin is typing.Literal:
        if value not in args or isinstance(value, bool) != any(isinstance(a, bool) for a in args if a == value):
            raise ParameterError(f"{name} must be one of {list(args)}, got {value!r}")
    elif origin in (tuple, list):
        if not isinstance(value, (list, tuple)):
            raise ParameterError(f"{name} must be a list, got {value!r}")
        if origin is tuple:
            if len(value) != len(args):
                raise ParameterError(f"{name} must have {len(args)} items, got {len(value)}")
            for i, (item_hint, item) in enumerate(zip(args, value)):
                _check(f"{name}[{i}]", item_hint, item)
        else:
            for i, item in enumerate(value):
                _check(f"{name}[{i}]", args[0] if args else Any, item)
    elif isinstance(hint, type) and issubclass(hint, (MeshResult, VolumeResult, PointCloudResult, ImageResult)):
        if not isinstance(value, hint.__mro__[1] if hint in INPUTS else hint):
            raise ParameterError(f"{name} must be a {hint.__name__}, got {type(value).__name__}")
    for marker in meta:
        if isinstance(marker, Range):
            if marker.lo is not None and value < marker.lo:
                raise ParameterError(f"{name} must be at least {marker.lo}, got {value!r}")
            if marker.hi is not None and value > marker.hi:
                raise ParameterError(f"{name} must be at most {marker.hi}, got {value!r}")
        if isinstance(marker, Items):
            if marker.min is not None and len(value) < marker.min:
                raise ParameterError(f"{name} must have at least {marker.min} items, got {len(value)}")
            if marker.max is not None and len(value) > marker.max:
                raise ParameterError(f"{name} must have at most {marker.max} items, got {len(value)}")


def _type_hints(fn: Callable[..., Any]) -> Dict[str, Any]:
    if sys.version_info >= (3, 9):
        hints = typing.get_type_hints(fn, include_extras=True)
    else:
        hints = typing.get_type_hints(fn)
    return hints


def checked_arguments(fn: Callable[..., Any], params: Dict[str, Any]) -> Tuple[Dict[str, Any], str]:
    """The keyword arguments for `fn` (defaults filled) and the name of its reporter parameter ('' for none)."""
    try:
        hints = _type_hints(fn)
    except Exception:
        # An annotation this Python cannot evaluate (`X | None` before 3.10 under
        # `from __future__ import annotations`): values go unchecked, the reporter is still found.
        hints = {name: (ProgressReporter if "ProgressReporter" in str(p.annotation) else Any) for name, p in inspect.signature(fn).parameters.items()}
    signature = inspect.signature(fn)
    reporter = ""
    values: Dict[str, Any] = {}
    known = set()
    for name, parameter in signature.parameters.items():
        hint = hints.get(name, Any)
        bare, optional = _strip_optional(hint)
        if bare is ProgressReporter:
            reporter = name
            continue
        known.add(name)
        if name in params:
            if params[name] is None and optional:
                continue
            _check(name, bare, params[name])
            values[name] = params[name]
        elif parameter.default is inspect.Parameter.empty:
            raise ParameterError(f"{name} is required")
    unknown = sorted(set(params) - known)
    if unknown:
        raise ParameterError(f"{unknown[0]} is not a parameter of {fn.__name__}")
    return values, reporter
