"""Reads Python plugin modules for `vitrine build` without running them.

Usage: python -I read_plugin.py FILE...

Prints one JSON object mapping each FILE to what the build needs from it: the module-level
functions (name, position, async, docstring, parameters with their annotation and default as
expression trees, return annotation), the names the module imports (so `t.Optional` or an alias
resolves), its simple module-level assignments (constants a `specimens` list may name) and its
`specimens` declaration. Only the standard library's `ast` is used: nothing the plugin imports
needs to be installed, and none of its code runs. The build (TypeScript, build/python/) maps
the trees to JSON Schemas, so this script says what is written, never what it means.

Positions are 1-based lines and 1-based columns in characters (ast counts UTF-8 bytes).
Expressions become trees in read_expressions.py. Works on Python 3.8 and later.
"""

import ast
import json
import os
import sys
from typing import Any, Dict

# `-I` leaves this script's own folder off the path: its sibling module is put back on it.
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from read_expressions import Source, expression, position  # noqa: E402

MIN_VERSION = (3, 8)


def parameters(source, function):
    args = function.args
    found = []
    positional = list(getattr(args, "posonlyargs", [])) + list(args.args)
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    posonly = len(getattr(args, "posonlyargs", []))

    def entry(arg, kind, default):
        item = position(source, arg)
        item.update(
            name=arg.arg,
            kind=kind,
            annotation=None if arg.annotation is None else expression(source, arg.annotation, True),
            default=None if default is None else expression(source, default, False),
        )
        return item

    for index, (arg, default) in enumerate(zip(positional, defaults)):
        found.append(entry(arg, "positional_only" if index < posonly else "positional", default))
    if args.vararg is not None:
        found.append(entry(args.vararg, "var_positional", None))
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        found.append(entry(arg, "keyword_only", default))
    if args.kwarg is not None:
        found.append(entry(args.kwarg, "var_keyword", None))
    return found


def function_entry(source, node):
    entry = position(source, node)
    entry["name"] = node.name
    entry["async"] = isinstance(node, ast.AsyncFunctionDef)
    entry["docstring"] = ast.get_docstring(node, clean=True)
    entry["parameters"] = parameters(source, node)
    entry["returns"] = None if node.returns is None else expression(source, node.returns, True)
    return entry


def module_statements(body):
    """Statements at module level, also those in top-level `if`/`try` blocks (TYPE_CHECKING imports)."""
    for statement in body:
        yield statement
        if isinstance(statement, ast.If):
            for inner in module_statements(statement.body + statement.orelse):
                yield inner
        elif isinstance(statement, ast.Try):
            blocks = statement.body + statement.orelse + statement.finalbody
            for handler in statement.handlers:
                blocks += handler.body
            for inner in module_statements(blocks):
                yield inner


def imports_of(body):
    """Local name -> what it imports (`t` -> `typing`, `Range` -> `vitrine.Range`)."""
    names = {}
    for statement in module_statements(body):
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname is not None:
                    names[alias.asname] = alias.name
                else:
                    head = alias.name.split(".")[0]
                    names[head] = head
        elif isinstance(statement, ast.ImportFrom) and statement.module and statement.level == 0:
            for alias in statement.names:
                if alias.name != "*":
                    names[alias.asname or alias.name] = statement.module + "." + alias.name
    return names


def assignment_target(statement):
    """(name, value) of `NAME = value` or `NAME: T = value` at module level, else None."""
    if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
        return statement.targets[0].id, statement.value
    if isinstance(statement, ast.AnnAssign) and isinstance(statement.target, ast.Name) and statement.value is not None:
        return statement.target.id, statement.value
    return None


def string_like(node):
    """Values a `specimens` entry may name: strings, names, and `+` of those."""
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return string_like(node.left) and string_like(node.right)
    return isinstance(node, ast.Name)


def read_module(path):
    with open(path, "rb") as handle:
        raw = handle.read()
    try:
        tree = ast.parse(raw, filename=path)
    except SyntaxError as error:
        line = error.lineno or 1
        return {"error": {"message": error.msg or "invalid syntax", "line": line, "col": error.offset or 1}}
    except ValueError as error:  # null bytes
        return {"error": {"message": str(error), "line": 1, "col": 1}}
    source = Source(raw.decode("utf-8", "replace"))
    # Type comments, not annotations: the script must parse on an old Python to say it is too old.
    functions = {}  # type: Dict[str, Any]
    assignments = {}  # type: Dict[str, Any]
    counts = {}  # type: Dict[str, int]
    specimens = None
    for statement in tree.body:
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
            # A later definition replaces an earlier one, as it does when the module runs.
            functions.pop(statement.name, None)
            functions[statement.name] = function_entry(source, statement)
        target = assignment_target(statement)
        if target is None:
            continue
        name, value = target
        counts[name] = counts.get(name, 0) + 1
        if string_like(value):
            assignments[name] = expression(source, value, False)
        if name == "specimens":
            specimens = position(source, statement)
            specimens["value"] = expression(source, value, False)
    # A name assigned twice has no one value to read.
    constants = {name: value for name, value in assignments.items() if counts[name] == 1}
    return {
        "functions": list(functions.values()),
        "imports": imports_of(tree.body),
        "constants": constants,
        "specimens": specimens,
    }


def main(paths):
    if sys.version_info < MIN_VERSION:
        sys.stderr.write("vitrine reads Python plugins with Python 3.8 or later; this is %s\n" % sys.version.split()[0])
        return 3
    modules = {}
    for path in paths:
        try:
            modules[path] = read_module(path)
        except OSError as error:
            modules[path] = {"error": {"message": "cannot read the file: %s" % error.strerror, "line": 1, "col": 1}}
        except RecursionError:
            modules[path] = {"error": {"message": "the module nests too deeply to read", "line": 1, "col": 1}}
    sys.stdout.write(json.dumps({"version": list(sys.version_info[:3]), "modules": modules}, ensure_ascii=True, allow_nan=False))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
