"""The chat completion's reference list under the answer."""

from __future__ import annotations

from app.api.routes.openai_compat import references
from app.schemas import QueryResponse


def _cited(index: int, chunk: str, **where: object) -> dict[str, object]:
    doc = chunk.split("#")[0]
    return {"index": index, "id": chunk, "docId": doc, "title": doc.rsplit(".", 1)[0].replace("_", " "),
            "source": where.get("source"), "page": where.get("page"), "section": where.get("section")}


def test_references_say_where_in_the_file_each_passage_is() -> None:
    response = QueryResponse.model_construct(citations=[
        _cited(1, "ferry_notice.txt#0", source="ferry_notice.txt"),
        _cited(2, "ferry_notice.txt#1", source="ferry_notice.txt"),
        _cited(3, "timetable.pdf#2", source="timetable.pdf", page=2),
        _cited(4, "crew.html#0", source="crew.html", section="Crew > Deck"),
        _cited(5, "tx#0"),  # a document added by id, no file
    ])
    assert references(response, "When does the last ferry leave?") == (
        "\n\nReferences:\n[1] ferry notice (ferry_notice.txt, passage 1)\n[2] ferry notice (ferry_notice.txt, "
        "passage 2)\n[3] timetable (timetable.pdf, p. 2)\n[4] crew (crew.html § Crew > Deck)\n[5] tx (tx)")
    assert references(QueryResponse.model_construct(citations=[]), "末班船几点开？") == ""
