"""Question shapes the master layer recognizes by rule: greetings and plain arithmetic (nothing to retrieve),
two entities compared ("A or B", "A和B谁先…") and questions about change over time."""

from __future__ import annotations

import ast
import itertools
import operator
import re
from collections.abc import Iterable
from dataclasses import dataclass

# ---------------------------------------------------------------------------- writer-only questions

_THANKS = r"(?:thanks(?: a lot)?|thank you(?: (?:very|so) much)?|thx|cheers|谢谢(?:你|您)?|多谢|感谢)"
_GREETING = re.compile(
    r"^\s*(?:hi|hello|hey|" + _THANKS + r"|good (?:morning|afternoon|evening)|who are you|what can you do|"
    r"你好|您好|嗨|你是谁|你能做什么)[\s!！。.?？,，~]*$",
    re.IGNORECASE,
)
_THANKS_ONLY = re.compile(r"^\s*" + _THANKS + r"[\s!！。.?？,，~]*$", re.IGNORECASE)
_ARITHMETIC = re.compile(
    r"^\s*(?:what\s+is|what's|calculate|compute|how much is|计算)?\s*(?P<expr>[\d\s.+\-*/×÷()^%]+?)\s*"
    r"(?:=|等于多少|等于几|是多少|等于)?\s*[?？]?\s*$",
    re.IGNORECASE,
)
_OPS = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv,
        ast.Mod: operator.mod, ast.Pow: operator.pow, ast.FloorDiv: operator.floordiv}


def _evaluate(node: ast.AST) -> float:
    if isinstance(node, ast.Expression):
        return _evaluate(node.body)
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        value = _evaluate(node.operand)
        return -value if isinstance(node.op, ast.USub) else value
    if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
        left, right = _evaluate(node.left), _evaluate(node.right)
        if isinstance(node.op, ast.Pow) and (abs(right) > 64 or abs(left) > 1e6):
            raise ValueError("exponent too large")
        return float(_OPS[type(node.op)](left, right))
    raise ValueError(f"not arithmetic: {type(node).__name__}")


def arithmetic(question: str) -> str | None:
    """The value of a question that is only an arithmetic expression ("what is 12*(3+4)?"), else None."""
    m = _ARITHMETIC.match(question)
    if not m or not re.search(r"\d", m["expr"]) or not re.search(r"[+\-*/×÷^%]", m["expr"]):
        return None
    expr = m["expr"].replace("×", "*").replace("÷", "/").replace("^", "**")
    try:
        value = _evaluate(ast.parse(expr.strip(), mode="eval"))
    except (SyntaxError, ValueError, ZeroDivisionError, OverflowError):
        return None
    return f"{value:g}" if value != int(value) or abs(value) >= 1e15 else str(int(value))


def thanks(question: str) -> bool:
    """Whether a question is only thanks (answered "you're welcome", not "hello")."""
    return bool(_THANKS_ONLY.match(question))


def trivial(question: str) -> str | None:
    """Why a question needs no retrieval (a greeting or plain arithmetic), else None."""
    if _GREETING.match(question):
        return "a greeting or a question about the assistant: nothing to retrieve"
    if arithmetic(question) is not None:
        return "plain arithmetic: computed, nothing to retrieve"
    return None


# ---------------------------------------------------------------------------- comparisons and change over time

_CHOICE = re.compile(r"^\s*,?\s*(?:or|vs\.?|versus|compared (?:to|with))(?:\s+the)?\s*$|^\s*(?:还是|或者?|对比|比)\s*$",
                     re.IGNORECASE)
_AND = re.compile(r"^\s*,?\s*(?:and(?:\s+the)?|和|与|跟|同|及|以及|、)\s*$", re.IGNORECASE)
_LOOSE_CHOICE = re.compile(r"\bor\b|还是|或", re.IGNORECASE)
_COMPARE_CUE = re.compile(
    r"\b(?:both|either|neither|compare|comparison|same|different|in common|more|less|older|younger|oldest|youngest|"
    r"first|earlier|later|larger|bigger|smaller|longer|shorter|higher|taller)\b|谁先|谁更|哪个更|哪一个更|比较|对比|相比|"
    r"区别|异同|都是|一样|相同|更(?:早|晚|大|小|多|少|高|低|长|短|久|好|强|快|慢|老|新|旧|轻|重|贵|便宜|近|远|安静|年轻)",
    re.IGNORECASE,
)
_TEMPORAL = re.compile(
    r"\bhow (?:did|has|have|does|do) .+? (?:change|changed|evolve|evolved|develop|developed|grow|grown)\b|"
    r"\bover (?:time|the years|the decades)\b|\b(?:history|timeline|evolution) of\b|"
    r"历年|随(?:着)?时间|这些年来?|发展历程|历史沿革|变迁|演变|演进|逐年|(?:如何|怎样|怎么)(?:变化|发展|演变)",
    re.IGNORECASE,
)


@dataclass(frozen=True)
class Mention:
    text: str
    start: int
    end: int


def mentions(question: str, names: Iterable[str]) -> list[Mention]:
    """Where each named entity occurs in the question (first occurrence), in order, without overlaps."""
    found: list[Mention] = []
    for name in sorted(dict.fromkeys(n for n in names if n.strip()), key=len, reverse=True):
        at = question.find(name)
        if at >= 0 and not any(at < m.end and m.start < at + len(name) for m in found):
            found.append(Mention(name, at, at + len(name)))
    return sorted(found, key=lambda m: m.start)


def comparison_pair(question: str, names: Iterable[str]) -> tuple[Mention, Mention] | None:
    """Two entities the question compares: adjacent mentions offered as a choice ("A or B", "A还是B",
    "the forming of A or the birth of B"), or joined by "and"/"和" in a question with a comparison cue
    ("are A and B both ...", "A和B谁先...")."""
    cue = _COMPARE_CUE.search(question) is not None
    for a, b in itertools.pairwise(mentions(question, names)):
        gap = question[a.end : b.start]
        if _CHOICE.match(gap) or (len(gap.split()) <= 4 and _LOOSE_CHOICE.search(gap)) or (cue and _AND.match(gap)):
            return a, b
    return None


def asks_about_change(question: str) -> bool:
    """Whether the question asks how something changed over time ("历年…", "how did X evolve")."""
    return _TEMPORAL.search(question) is not None
