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
Works on Python 3.8 and later.
"""

import ast
import json
import sys

MIN_VERSION = (3, 8)
# A string annotation is parsed as an expression of its own; nesting deeper than this is noise.
MAX_STRING_DEPTH = 4
MAX_TEXT = 200


class Source:
    """One module's text, for converting byte offsets to character columns and quoting code."""

    def __init__(self, text):
        self.text = text
        self.lines = text.splitlines(True)

    def column(self, line, offset):
        if line < 1 or line > len(self.lines):
            return offset + 1
        raw = self.lines[line - 1].encode("utf-8")
        return len(raw[:offset].decode("utf-8", "replace")) + 1

    def quote(self, node):
        try:
            segment = ast.get_source_segment(self.text, node)
        except Exception:  # malformed positions in a synthetic node
            segment = None
        if segment is None:
            return ""
        segment = " ".join(segment.split())
        return segment if len(segment) <= MAX_TEXT else segment[: MAX_TEXT - 3] + "..."


def position(source, node, at=None):
    if at is not None:
        return {"line": at["line"], "col": at["col"]}
    return {"line": node.lineno, "col": source.column(node.lineno, node.col_offset)}


def slice_of(node):
    """The subscript's index expression (3.8 wraps it in ast.Index)."""
    inner = node.slice
    index_type = getattr(ast, "Index", None)
    if index_type is not None and isinstance(inner, index_type):
        inner = inner.value
    return inner


def dotted(node):
    """`a.b.c` as a string, or None when the expression is not a plain dotted name."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        head = dotted(node.value)
        return None if head is None else head + "." + node.attr
    return None


def number_constant(node):
    """A number literal, with a sign when written `-1.5` / `+2`; None for anything else."""
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = number_constant(node.operand)
        if inner is None:
            return None
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.Constant) and type(node.value) in (int, float):
        return node.value
    return None


def constant_value(value):
    """A constant as JSON: numbers that JSON cannot hold (inf, nan, huge ints) are not constants."""
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            return None
        return {"value": value, "float": True}
    if isinstance(value, int) and not isinstance(value, bool):
        if abs(value) > 2**53:
            return None
        return {"value": value}
    if value is None or isinstance(value, (str, bool)):
        return {"value": value}
    return None


def expression(source, node, annotation, at=None, depth=0):
    """An expression tree: kind, position, the code as written, and what the kind carries."""
    tree = position(source, node, at)
    tree["text"] = source.quote(node)
    number = number_constant(node)
    if number is not None and not isinstance(node, ast.Constant):
        converted = constant_value(number)
        if converted is not None:
            tree.update(kind="constant", **converted)
            return tree
    if isinstance(node, ast.Constant):
        if node.value is Ellipsis:
            tree["kind"] = "ellipsis"
            return tree
        converted = constant_value(node.value)
        if converted is None:
            tree["kind"] = "other"
            return tree
        tree.update(kind="constant", **converted)
        if annotation and isinstance(node.value, str) and depth < MAX_STRING_DEPTH:
            parsed = parse_string_annotation(node.value, tree, depth)
            if parsed is not None:
                tree["parsed"] = parsed
        return tree
    name = dotted(node)
    if name is not None:
        tree.update(kind="name", name=name)
        return tree

    def sub(child):
        return expression(source, child, annotation, at, depth)

    if isinstance(node, ast.Subscript):
        index = slice_of(node)
        args = index.elts if isinstance(index, ast.Tuple) else [index]
        tree.update(kind="subscript", value=sub(node.value), args=[sub(arg) for arg in args])
    elif isinstance(node, ast.Call):
        keywords = [{"name": k.arg, "value": sub(k.value)} for k in node.keywords if k.arg is not None]
        unpacked = any(k.arg is None for k in node.keywords) or any(isinstance(a, ast.Starred) for a in node.args)
        if unpacked:
            tree["kind"] = "other"
        else:
            tree.update(kind="call", func=sub(node.func), args=[sub(arg) for arg in node.args], keywords=keywords)
    elif isinstance(node, ast.BinOp) and isinstance(node.op, (ast.BitOr, ast.Add)):
        tree.update(kind="binop", op="|" if isinstance(node.op, ast.BitOr) else "+", left=sub(node.left), right=sub(node.right))
    elif isinstance(node, (ast.Tuple, ast.List)) and not any(isinstance(e, ast.Starred) for e in node.elts):
        tree.update(kind="sequence", brackets="tuple" if isinstance(node, ast.Tuple) else "list", items=[sub(e) for e in node.elts])
    elif isinstance(node, ast.Dict) and all(k is not None for k in node.keys):
        tree.update(kind="mapping", entries=[{"key": sub(k), "value": sub(v)} for k, v in zip(node.keys, node.values)])
    else:
        tree["kind"] = "other"
    return tree


def parse_string_annotation(text, outer, depth):
    """A string annotation (`"float"`, `'Literal["a"]'`) as the expression it names, or None."""
    try:
        parsed = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError):
        return None
    return expression(Source(text.strip()), parsed, True, {"line": outer["line"], "col": outer["col"]}, depth + 1)


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
    functions = {}
    assignments = {}
    counts = {}
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
