"""Milvus filter expressions rendered from the filter tree (``graphs.stores.filters``), every value escaped.

The only module that writes Milvus expression strings (an import-linter contract keeps every other module
outside ``graphs.stores.milvus`` from importing it). A value only ever appears inside one double-quoted string
literal (``escape_string``) or as a decimal integer; a ``Like`` literal has its wildcards escaped
(``escape_like``) before its kind adds the ``%`` around it; field names are identifiers (the tree checks them).
"""

from __future__ import annotations

from graphs.stores.filters import And, Compare, Filter, InList, Like, Not, Or, Value

_STRING_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_LIKE_PATTERNS = {"contains": "%{}%", "prefix": "{}%", "suffix": "%{}", "equals": "{}"}


def escape_string(value: str) -> str:
    """Return ``value`` as a double-quoted Milvus string literal."""
    for ch in value:
        if ord(ch) < 0x20 and ch not in _STRING_ESCAPES:
            raise ValueError(f"control character {ch!r} cannot appear in a filter value")
    return '"' + "".join(_STRING_ESCAPES.get(ch, ch) for ch in value) + '"'


def escape_like(value: str) -> str:
    """Escape ``\\``, ``%`` and ``_`` so that ``value`` matches itself in a LIKE pattern."""
    return value.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def _literal(value: Value) -> str:
    if isinstance(value, bool) or not isinstance(value, int | str):
        raise ValueError(f"a filter value is an int or a str, not {value!r}")
    return str(int(value)) if isinstance(value, int) else escape_string(value)


def render(node: Filter) -> str:
    """The Milvus expression of a filter.

    A range on one field (an ``And`` of comparisons of that field) renders as one group,
    ``(date >= 20240101 and date <= 20241231)``; any other ``And``/``Or`` parenthesizes each operand.
    """
    if isinstance(node, Compare):
        return f"{node.field} {node.op} {_literal(node.value)}"
    if isinstance(node, Like):
        pattern = _LIKE_PATTERNS[node.kind].format(escape_like(node.literal))
        return f"{node.field} like {escape_string(pattern)}"
    if isinstance(node, InList):
        values = ", ".join(_literal(v) for v in node.values)
        return f"{node.field} {'not in' if node.negate else 'in'} [{values}]"
    if isinstance(node, Not):
        return f"not ({render(node.operand)})"
    if isinstance(node, And):
        if all(isinstance(o, Compare) for o in node.operands) and len({o.field for o in node.operands}) == 1:  # type: ignore[union-attr]
            return "(" + " and ".join(render(o) for o in node.operands) + ")"
        return " and ".join(f"({render(o)})" for o in node.operands)
    if isinstance(node, Or):
        return " or ".join(f"({render(o)})" for o in node.operands)
    raise ValueError(f"not a filter: {node!r}")


def render_optional(node: Filter | None) -> str:
    """``render``, or the empty expression (every row) for None."""
    return "" if node is None else render(node)
