"""The question as a run understands it: the names and mentions of its validated entities, the terms a
sufficient result should mention, and how much of them some texts cover."""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from graphs.domain import EntityMatch, ParsedQuery, QueryEntity, ValidatedEntity
from graphs.rag.state import RagState
from graphs.text.echo import without_echo

_LATIN = re.compile(r"[a-z0-9]", re.ASCII)


def validate_one(entity: QueryEntity, match: EntityMatch | None, negated: bool) -> ValidatedEntity:
    """Turn a parsed entity and its store match into a validated entity."""
    if entity.type == "DATE":
        return ValidatedEntity(
            text=entity.text, type="DATE", standard_name=entity.date_range.label if entity.date_range else None,
            match="date" if entity.date_range else "none", score=1.0 if entity.date_range else 0.0,
            valid=entity.date_range is not None, date_range=entity.date_range, negated=negated,
        )
    if match is None:
        return ValidatedEntity(text=entity.text, type=entity.type, negated=negated)
    return ValidatedEntity(
        text=entity.text,
        type=match.entity.type,
        standard_name=match.entity.standard_name,
        match=match.match,
        score=round(match.score, 4),
        valid=True,
        hierarchy=match.entity.ancestors,
        negated=negated,
    )


def validated_names(state: RagState) -> list[str]:
    """Standard names of the question's entities that the entity store knows (not dates)."""
    return [e.standard_name for e in state.get("entities", []) if e.valid and e.type != "DATE" and e.standard_name]


def validated_mentions(state: RagState) -> list[str]:
    """How the question writes the entities the entity store knows (not dates): these can be filtered on."""
    return [e.text for e in state.get("entities", []) if e.valid and e.type != "DATE"]


def lexical_query(state: RagState) -> str:
    """The question plus the standard names of its entities (so 马斯克 also matches 'Elon Musk')."""
    extra = [n for n in validated_names(state) if n not in state["question"]]
    return " ".join([state["question"], *extra])


def question_terms(parsed: ParsedQuery, names: Iterable[str] = ()) -> list[str]:
    """The terms a sufficient result set should mention: keywords and entity names, lowercased."""
    terms = [k.lower() for k in parsed.keywords] + [n.lower() for n in names]
    return [t for t in dict.fromkeys(terms) if t.strip()]


def state_terms(state: RagState) -> list[str]:
    """``question_terms`` of a run: its keywords and its entities' standard names (dates left out)."""
    names = [e.standard_name or e.text for e in state.get("entities", []) if e.type != "DATE"]
    return question_terms(state["parsed"], names)


def _covered(term: str, text: str) -> bool:
    if term in text:
        return True
    if _LATIN.match(term) and len(term) >= 6:
        return term[:5] in text  # portrayed / portrays, directors / director
    return False


def echo_free(state: RagState, texts: Iterable[str]) -> list[str]:
    """The texts whose coverage of the question's terms is judged, without any copy of the question (a passage
    that repeats the question mentions all its terms and answers nothing)."""
    return [without_echo(text, state["question"]) for text in texts]


def coverage(terms: Sequence[str], texts: Iterable[str]) -> float:
    """Share of ``terms`` found in ``texts`` (1.0 when there are no terms)."""
    if not terms:
        return 1.0
    blob = "\n".join(texts).lower()
    return sum(_covered(t, blob) for t in terms) / len(terms)
