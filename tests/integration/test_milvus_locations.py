"""Chunk locations (file, section, page) in a real Milvus Lite collection, and a collection created before they
existed: it keeps its data and keeps working, its hits just name no location."""

from __future__ import annotations

from pathlib import Path

from pymilvus import DataType, Function, FunctionType, MilvusClient

from graphs.domain import Chunk, Citation, Hit
from graphs.stores.filters import DATE_FIELD, ENTITY_FIELDS
from graphs.stores.milvus import DEFAULT_ANALYZER, MilvusIndex

DIM = 8


def vec(i: int) -> list[float]:
    v = [0.01] * DIM
    v[i % DIM] = 1.0
    return v


def chunk(doc_id: str, i: int, text: str, **kw: object) -> Chunk:
    return Chunk.model_validate({"id": f"{doc_id}#{i}", "doc_id": doc_id, "chunk_index": i, "title": doc_id,
                                 "text": text, **kw})


def test_locations_are_stored_searched_and_listed(tmp_path: Path) -> None:
    index = MilvusIndex(str(tmp_path / "m.db"), "chunks", DIM)
    try:
        chunks = [chunk("r.pdf", 1, "page two text", source="docs/r.pdf", page=2),
                  chunk("r.pdf", 0, "page one text", source="docs/r.pdf", page=1,
                        entities={"ORGANIZATION": ["Orchid"]}),
                  chunk("r.pdf", 2, "setup text", source="docs/r.pdf", section="Guide > Setup")]
        index.replace_document("r.pdf", chunks, [vec(1), vec(0), vec(2)])
        [hit] = index.search_dense(vec(0), filter=None, limit=1)
        assert (hit.source, hit.page, hit.section) == ("docs/r.pdf", 1, None)
        [bm25] = index.search_bm25("setup", filter=None, limit=1)
        assert (bm25.source, bm25.page, bm25.section) == ("docs/r.pdf", None, "Guide > Setup")
        listed = index.document_chunks("r.pdf")
        assert [(c.chunk_index, c.page, c.section) for c in listed] == [(0, 1, None), (1, 2, None),
                                                                       (2, None, "Guide > Setup")]
        assert listed[0].entities == {"ORGANIZATION": ["Orchid"]}
        assert index.document_summaries() == {"r.pdf": ("r.pdf", 3, len(b"page two textpage one textsetup text"))}
    finally:
        index.close()


def make_legacy_collection(path: Path, name: str) -> None:
    """The collection schema of the version before chunk locations, with one document in it."""
    client = MilvusClient(str(path))
    schema = client.create_schema(auto_id=False, enable_dynamic_field=False)
    schema.add_field("id", DataType.VARCHAR, is_primary=True, max_length=2048)
    schema.add_field("doc_id", DataType.VARCHAR, max_length=1024)
    schema.add_field("chunk_index", DataType.INT64)
    schema.add_field("title", DataType.VARCHAR, max_length=2048)
    schema.add_field("text", DataType.VARCHAR, max_length=65535)
    schema.add_field("search_text", DataType.VARCHAR, max_length=65535, enable_analyzer=True,
                     analyzer_params=DEFAULT_ANALYZER)
    schema.add_field("dense", DataType.FLOAT_VECTOR, dim=DIM)
    schema.add_field("sparse", DataType.SPARSE_FLOAT_VECTOR)
    for field in ENTITY_FIELDS.values():
        schema.add_field(field, DataType.VARCHAR, max_length=8192)
    schema.add_field(DATE_FIELD, DataType.INT64)
    schema.add_field("entities_json", DataType.VARCHAR, max_length=32768)
    schema.add_function(Function(name="text_bm25", function_type=FunctionType.BM25,
                                 input_field_names=["search_text"], output_field_names=["sparse"]))
    client.create_collection(name, schema=schema)
    row = {"id": "old#0@0123456789abcdef", "doc_id": "old", "chunk_index": 0, "title": "Old", "text": "old text",
           "search_text": "Old\nold text", "dense": vec(3), DATE_FIELD: 0, "entities_json": "",
           **dict.fromkeys(ENTITY_FIELDS.values(), "")}
    client.insert(name, [row])
    client.close()


def test_a_collection_from_before_locations_keeps_its_data_and_works(tmp_path: Path) -> None:
    path = tmp_path / "m.db"
    make_legacy_collection(path, "chunks")
    index = MilvusIndex(str(path), "chunks", DIM)
    try:
        assert index.document_ids() == {"old"}
        index.replace_document("new.md", [chunk("new.md", 0, "new text", source="new.md", section="Intro")], [vec(4)])
        assert index.document_ids() == {"old", "new.md"}
        hits = {h.doc_id: h for h in index.search_dense(vec(4), filter=None, limit=5)}
        assert hits["old"].text == "old text"
        assert (hits["new.md"].source, hits["new.md"].section) == (None, None)  # no field to keep them in
        assert [c.text for c in index.document_chunks("old")] == ["old text"]
    finally:
        index.close()


def test_a_citation_copies_the_hit_and_says_where_it_is() -> None:
    hit = Hit(id="r.pdf#0", doc_id="r.pdf", title="Report", text="t", score=1.0, channel="semantic",
              source="docs/r.pdf", page=3)
    citation = Citation.of(2, hit)
    assert citation == Citation(index=2, id="r.pdf#0", doc_id="r.pdf", title="Report", source="docs/r.pdf", page=3)
    assert citation.location == "docs/r.pdf, p. 3"
    assert Citation.of(1, hit.model_copy(update={"page": None, "section": "A > B"})).location == "docs/r.pdf § A > B"
    assert Citation.of(1, hit.model_copy(update={"source": None, "page": None})).location == ""


def test_a_term_only_a_chunks_heading_path_writes_is_found_by_bm25_in_lite_and_in_the_mirror(tmp_path: Path) -> None:
    # BM25 reads the title and the section path with the text (``rows.search_text``): a code or a word that only
    # the heading writes finds its chunk by keywords too, in both languages, while the hit's text (what answers
    # quote and cite) stays the chunk's own
    index = MilvusIndex(str(tmp_path / "m.db"), "chunks", DIM)
    try:
        chunks = [chunk("labels.html", 0, "年代：南宋。碗外壁刻划双层莲瓣，内底印字。", section="馆藏目录 > QX-17 青瓷莲瓣碗"),
                  chunk("labels.html", 1, "年代：唐代。镜背以高浮雕表现海兽。", section="馆藏目录 > QX-18 铜镜"),
                  chunk("guide.md", 0, "The gates open at nine and close at five.", section="Visitors > Parking"),
                  chunk("guide.md", 1, "Tickets are sold at the gates.", section="Visitors > Tickets")]
        index.replace_document("labels.html", chunks[:2], [vec(0), vec(1)])
        index.replace_document("guide.md", chunks[2:], [vec(2), vec(3)])
        for mirrored in (True, False):
            index.use_mirror = mirrored
            [code] = index.search_bm25("QX-17", filter=None, limit=1)
            assert (code.id, code.text) == ("labels.html#0", chunks[0].text), mirrored
            [word] = index.search_bm25("parking", filter=None, limit=1)
            assert (word.id, word.section, word.text) == ("guide.md#0", "Visitors > Parking", chunks[2].text)
            assert index.search_bm25("青瓷", filter=None, limit=1)[0].id == "labels.html#0"
    finally:
        index.close()
