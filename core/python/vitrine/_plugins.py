"""Importing plugins by path, each with its own sibling modules.

A plugin folder may hold helper modules next to `plugin.py`, imported as `import grid` or
`from .grid import f`. The folder is imported as a package of its own (`vitrine_plugin_<name>`)
so relative imports work, with the folder first on `sys.path` while it imports so absolute ones
do too. Two plugins may both have a `grid.py`: after a plugin is imported the bare names of the
modules that came from its folder are taken out of `sys.modules` (the plugin keeps its
references) and the next plugin imports its own. Importing a plugin again (new code) first
forgets every module of its package.
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
    package_name = "vitrine_plugin_" + re.sub(r"\W", "_", name)
    for key in [k for k in sys.modules if k == package_name or k.startswith(package_name + ".")]:
        del sys.modules[key]
    package = ModuleType(package_name)
    package.__path__ = [folder]
    package.__package__ = package_name
    sys.modules[package_name] = package
    module_name = f"{package_name}.{os.path.splitext(entry)[0]}"
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
            if not key.startswith(package_name + ".") and _inside(getattr(sys.modules[key], "__file__", None), folder):
                del sys.modules[key]
    return module


def describe_import_error(error: BaseException) -> Dict[str, Any]:
    """What the host says of a plugin that failed to import: the missing module, when one is."""
    missing = error.name if isinstance(error, ModuleNotFoundError) else None
    message = f"{type(error).__name__}: {error}"
    return {"ok": False, "error": message, "missing": missing, "traceback": "".join(traceback.format_exception(type(error), error, error.__traceback__))}
