"""Only the Milvus adapter writes filter expressions: no string in any other module of graphs/ or app/ holds a
fragment of one (a stored field compared, listed or LIKE-matched; a pattern opening with ``%``). The import
contract in pyproject.toml keeps other modules from importing the renderer; this keeps them from writing their
own. The scanner is checked against the expressions the renderer writes, so it cannot silently pass."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from graphs.domain import Constraint, DateRange
from graphs.stores.filters import ENTITY_FIELDS, build_filter, docs_filter, ids_filter, mention_filter
from graphs.stores.milvus.expressions import render
from graphs.stores.milvus.schema import LOCATION_FIELDS, OUTPUT_FIELDS

ROOT = Path(__file__).resolve().parents[5]
ADAPTER = ROOT / "graphs" / "stores" / "milvus"
FIELDS = sorted({*OUTPUT_FIELDS, *LOCATION_FIELDS, *ENTITY_FIELDS.values(), "search_text"}, key=len, reverse=True)
_FIELD = "|".join(map(re.escape, FIELDS))
FRAGMENT = re.compile(
    rf"""(?:^|[\s(])(?:{_FIELD})\s+(?:like|(?:not\s+)?in|==|!=|>=|<=|>|<)\s+["'\[\d{{]"""  # a stored field tested
    r"""|\blike\s+["']%"""  # a LIKE pattern
    r"""|(?:^|[\s(])\{\}\s+(?:like|==|!=|>=|<=)\s+\{\}"""  # a field and a value both formatted in
)


def strings(source: str) -> list[tuple[int, str]]:
    """Every string literal of a module (an f-string with ``{}`` for each replacement field), with its line."""
    out: list[tuple[int, str]] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.JoinedStr):
            out.append((node.lineno, "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)))
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            out.append((node.lineno, node.value))
    return out


def fragments(source: str) -> list[str]:
    return [f"{line}: {m.group(0).strip()!r} in {text[:80]!r}" for line, text in strings(source)
            for m in FRAGMENT.finditer(text)]


YEAR = DateRange(start=20240101, end=20241231, granularity="year", label="2024")


@pytest.mark.parametrize("node", [
    build_filter([Constraint(type="PERSON", value="张三")]),
    build_filter([Constraint(type="DATE", value="2024", date_range=YEAR, negated=True)]),
    docs_filter(["a"]),
    docs_filter(["a", "b"]),
    ids_filter(["x"], negate=True),
    mention_filter(["Apple"]),
])  # fmt: skip
def test_the_scanner_finds_every_kind_of_expression_the_renderer_writes(node: object) -> None:
    expr = render(node)  # type: ignore[arg-type]
    assert fragments(repr(expr)), expr


@pytest.mark.parametrize("source", [
    "x = '{} like {}'.format(field, literal)",
    "x = f'({field} >= {start} and {field} <= {end})'",
    "x = f'doc_id in [{values}]'",
    "x = f'{field} like \"%{token}%\"'",
    "x = f'date >= {start}'",
    "x = 'id not in [' + ', '.join(ids) + ']'",
])  # fmt: skip
def test_the_scanner_finds_hand_written_expressions(source: str) -> None:
    assert fragments(source)


def test_no_module_outside_the_milvus_adapter_writes_an_expression() -> None:
    found = {
        str(path.relative_to(ROOT)): hits
        for path in sorted([*(ROOT / "graphs").rglob("*.py"), *(ROOT / "app").rglob("*.py")])
        if ADAPTER not in path.parents and (hits := fragments(path.read_text(encoding="utf-8")))
    }
    assert found == {}
