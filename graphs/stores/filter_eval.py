"""Parse the filter expressions of ``graphs.stores.filters`` and evaluate them to row masks in memory.

The in-process search mirror (``graphs.stores.milvus.mirror``) answers a filtered search of a Milvus Lite file
without Milvus Lite, whose filtered searches cost 50-150 ms at 100k rows (per-row Python masks). It needs
the filter as a mask over its rows: this module parses the expression language the service writes —
``and``/``or``/``not``, parentheses, ``field like "%…%"``, comparisons with an integer or string literal,
``field [not] in [...]`` — into a small tree, which the mirror evaluates against its columns. Anything else
raises ``UnsupportedFilter``, and the mirror asks Milvus for the matching ids instead: an unknown
expression is never guessed at.

A ``like`` pattern is supported when it is ``%literal%`` (containment), ``literal%`` (prefix),
``%literal`` (suffix) or a literal (equality), with ``\\%``, ``\\_`` and ``\\\\`` escapes; any other
wildcard use is unsupported. Semantics follow Milvus's (checked against Milvus Lite by
``tests/unit/graphs/stores/test_filter_eval.py``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Op = Literal["==", "!=", ">=", "<=", ">", "<"]


class UnsupportedFilter(ValueError):
    """An expression outside the language this module evaluates."""


@dataclass(frozen=True)
class Compare:
    field: str
    op: Op
    value: int | str


@dataclass(frozen=True)
class Like:
    field: str
    kind: Literal["contains", "prefix", "suffix", "equals"]
    literal: str


@dataclass(frozen=True)
class InList:
    field: str
    values: tuple[int | str, ...]
    negate: bool


@dataclass(frozen=True)
class Not:
    operand: Node


@dataclass(frozen=True)
class And:
    operands: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    operands: tuple[Node, ...]


Node = Compare | Like | InList | Not | And | Or

_TOKEN = re.compile(
    r"""\s*(?:
        (?P<string>"(?:[^"\\]|\\.)*")
      | (?P<int>-?\d+)(?![\w.])
      | (?P<op>==|!=|>=|<=|>|<|\(|\)|\[|\]|,)
      | (?P<word>[A-Za-z_][A-Za-z0-9_]*)
    )""",
    re.VERBOSE | re.DOTALL,
)
_STRING_ESCAPES = {"\\": "\\", '"': '"', "'": "'", "n": "\n", "r": "\r", "t": "\t"}
_KEYWORDS = {"and", "or", "not", "like", "in"}


def _unescape(body: str) -> str:
    out: list[str] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if ch == "\\":
            if i + 1 >= len(body) or body[i + 1] not in _STRING_ESCAPES:
                raise UnsupportedFilter(f"string escape {body[i:i + 2]!r}")
            out.append(_STRING_ESCAPES[body[i + 1]])
            i += 2
        else:
            out.append(ch)
            i += 1
    return "".join(out)


def _tokens(expr: str) -> list[tuple[str, str | int]]:
    out: list[tuple[str, str | int]] = []
    pos = 0
    while pos < len(expr):
        if expr[pos:].strip() == "":
            break
        m = _TOKEN.match(expr, pos)
        if m is None or m.end() == pos:
            raise UnsupportedFilter(f"cannot read {expr[pos:pos + 20]!r}")
        pos = m.end()
        if m.group("string") is not None:
            out.append(("str", _unescape(m.group("string")[1:-1])))
        elif m.group("int") is not None:
            out.append(("int", int(m.group("int"))))
        elif m.group("op") is not None:
            out.append(("op", m.group("op")))
        else:
            word = m.group("word")
            lowered = word.lower()
            out.append(("kw", lowered) if lowered in _KEYWORDS else ("name", word))
    return out


def like_pattern(pattern: str) -> tuple[Literal["contains", "prefix", "suffix", "equals"], str]:
    """Classify a LIKE pattern whose wildcards are only a leading and/or trailing ``%``."""
    chars: list[tuple[str, bool]] = []  # (char, is a wildcard)
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern) and pattern[i + 1] in "%_\\":
            chars.append((pattern[i + 1], False))
            i += 2
            continue
        if ch == "\\":
            raise UnsupportedFilter(f"LIKE escape in {pattern!r}")
        chars.append((ch, ch in "%_"))
        i += 1
    lead = bool(chars) and chars[0] == ("%", True)
    trail = len(chars) > int(lead) and chars[-1] == ("%", True)
    inner = chars[int(lead) : len(chars) - int(trail)]
    if any(wild for _, wild in inner):
        raise UnsupportedFilter(f"LIKE pattern {pattern!r}")
    literal = "".join(ch for ch, _ in inner)
    if lead and trail:
        return "contains", literal
    if lead:
        return "suffix", literal
    if trail:
        return "prefix", literal
    return "equals", literal


class _Parser:
    def __init__(self, expr: str) -> None:
        self.toks = _tokens(expr)
        self.i = 0

    def peek(self) -> tuple[str, str | int] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self, kind: str, value: str | None = None) -> str | int:
        tok = self.peek()
        if tok is None or tok[0] != kind or (value is not None and tok[1] != value):
            raise UnsupportedFilter(f"expected {value or kind}, found {tok[1] if tok else 'the end'}")
        self.i += 1
        return tok[1]

    def at(self, kind: str, value: str) -> bool:
        tok = self.peek()
        return tok is not None and tok[0] == kind and tok[1] == value

    def parse(self) -> Node:
        node = self.or_expr()
        if self.peek() is not None:
            raise UnsupportedFilter(f"unexpected {self.peek()}")
        return node

    def or_expr(self) -> Node:
        items = [self.and_expr()]
        while self.at("kw", "or"):
            self.i += 1
            items.append(self.and_expr())
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_expr(self) -> Node:
        items = [self.unary()]
        while self.at("kw", "and"):
            self.i += 1
            items.append(self.unary())
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Node:
        if self.at("kw", "not"):
            self.i += 1
            return Not(self.unary())
        if self.at("op", "("):
            self.i += 1
            node = self.or_expr()
            self.take("op", ")")
            return node
        return self.predicate()

    def literal(self) -> int | str:
        tok = self.peek()
        if tok is None or tok[0] not in ("str", "int"):
            raise UnsupportedFilter(f"expected a literal, found {tok}")
        self.i += 1
        return tok[1]

    def predicate(self) -> Node:
        field = str(self.take("name"))
        tok = self.peek()
        if tok == ("kw", "like"):
            self.i += 1
            kind, literal = like_pattern(str(self.take("str")))
            return Like(field, kind, literal)
        negate = False
        if tok == ("kw", "not"):
            self.i += 1
            negate = True
            tok = self.peek()
        if tok == ("kw", "in"):
            self.i += 1
            self.take("op", "[")
            values: list[int | str] = []
            if not self.at("op", "]"):
                values.append(self.literal())
                while self.at("op", ","):
                    self.i += 1
                    values.append(self.literal())
            self.take("op", "]")
            return InList(field, tuple(values), negate)
        if negate or tok is None or tok[0] != "op" or tok[1] not in ("==", "!=", ">=", "<=", ">", "<"):
            raise UnsupportedFilter(f"expected an operator after {field}, found {tok}")
        self.i += 1
        return Compare(field, tok[1], self.literal())  # type: ignore[arg-type]


def parse_filter(expr: str) -> Node:
    """The tree of a filter expression; ``UnsupportedFilter`` outside the supported language."""
    if not expr.strip():
        raise UnsupportedFilter("empty expression")
    return _Parser(expr).parse()


def fields_of(node: Node) -> set[str]:
    """Every field an expression reads."""
    if isinstance(node, Not):
        return fields_of(node.operand)
    if isinstance(node, And | Or):
        return set().union(*(fields_of(o) for o in node.operands))
    return {node.field}
