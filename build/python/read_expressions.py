"""Expression trees of a Python plugin module, for `read_plugin.py`: no code of the plugin runs.

An expression (an annotation, a default, a `specimens` entry) becomes its kind, its position
(1-based line, 1-based column in characters: ast counts UTF-8 bytes), the code as written and
what its kind carries. A string annotation is parsed as the expression it names. The build
(TypeScript, build/python/) maps the trees to JSON Schemas: this says what is written, never
what it means. Works on Python 3.8 and later.
"""

import ast

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
