"""Importing plugins by path, each with its own sibling modules.

A plugin folder may hold helper modules next to `plugin.py` (`import grid`). Two plugins may
both have a `grid.py`, so after a plugin is imported the bare names of the modules that came
from its folder are taken out of `sys.modules` (the plugin keeps its references) and the next
plugin imports its own.
"""
from __future__ import annotations

import importlib.util
import os
import re
import sys
import traceback
from types import ModuleType
from typing import Any, Dict


def _inside(path: Any, folder: str) -> bool:
    return isinstance(path, str) and os.path.abspath(path).startswith(folder + os.sep)


def import_plugin(name: str, folder: str, entry: str) -> ModuleType:
    folder = os.path.abspath(folder)
    module_name = "vitrine_plugin_" + re.sub(r"\W", "_", name)
    spec = importlib.util.spec_from_file_location(module_name, os.path.join(folder, entry))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot load {entry} from {folder}")
    module = importlib.util.module_from_spec(spec)
    before = set(sys.modules)
    sys.path.insert(0, folder)
    try:
        sys.modules[module_name] = module
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(module_name, None)
        raise
    finally:
        sys.path.remove(folder)
        for key in set(sys.modules) - before:
            if key != module_name and _inside(getattr(sys.modules[key], "__file__", None), folder):
                del sys.modules[key]
    return module


def describe_import_error(error: BaseException) -> Dict[str, Any]:
    """What the host says of a plugin that failed to import: the missing module, when one is."""
    missing = error.name if isinstance(error, ModuleNotFoundError) else None
    message = f"{type(error).__name__}: {error}"
    return {"ok": False, "error": message, "missing": missing, "traceback": "".join(traceback.format_exception(type(error), error, error.__traceback__))}
