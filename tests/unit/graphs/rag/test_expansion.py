"""The second hop of a bridge question (graphs/rag/expansion.py): the document a top passage names in the
sentence that repeats the question's relation, in English and Chinese; documents named elsewhere are no
candidates; the promoted passage sits right after the passage that names it."""

from __future__ import annotations

from pathlib import Path

from graphs.rag.expansion import Bridge, bridge_candidates, chosen_bridges, named_documents, promote_bridge
from tests.support.fakes import hit
from tests.support.graph_route import kg

GAME = ("orchard", "Glass Orchard",
        "Glass Orchard is a puzzle game developed by Lumen Works. Its soundtrack was composed by Mara Voss. "
        "It was released in 2011.")
EN = [GAME,
      ("voss", "Mara Voss", "Mara Voss (born 1971) is a Finnish musician known for ambient choral music."),
      ("lumen", "Lumen Works", "Lumen Works is a studio in Tampere.")]
SHIP = ("ship", "星河号", "星河号是一艘远洋科考船。该船由海蓝造船厂建造，二〇一九年下水。船长是林远。")
ZH = [SHIP,
      ("yard", "海蓝造船厂", "海蓝造船厂位于宁波，始建于一九五八年。"),
      ("lin", "林远", "林远是一名船长，出生于大连。")]


def _anchor(doc: tuple[str, str, str]) -> object:
    return hit(f"{doc[0]}#0", doc[2], 0.8, "hybrid", title=doc[1])


def test_the_sentence_repeating_the_question_names_the_second_hop(tmp_path: Path) -> None:
    graph = kg(tmp_path, EN)
    # "Which genre is the composer of the Glass Orchard soundtrack known for?"
    terms = ["genre", "composer", "glass orchard", "soundtrack", "known"]
    found = bridge_candidates(graph, terms, [_anchor(GAME)], exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["voss"]  # Lumen Works is named too, in a sentence about something else
    assert found[0].overlap == 0.5 and "soundtrack" in found[0].sentence


def test_chinese_bridge_through_a_title_the_passage_names(tmp_path: Path) -> None:
    graph = kg(tmp_path, ZH)
    terms = ["星河号", "建造", "城市"]  # 星河号的建造厂位于哪个城市？
    found = bridge_candidates(graph, terms, [_anchor(SHIP)], exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["yard"]  # 林远 is named in a sentence that shares nothing with the question


def test_no_candidate_already_in_the_results_or_without_overlap(tmp_path: Path) -> None:
    graph = kg(tmp_path, EN)
    terms = ["genre", "composer", "glass orchard", "soundtrack", "known"]
    assert bridge_candidates(graph, terms, [_anchor(GAME)], exclude=["voss"]) == []  # type: ignore[list-item]
    # the anchor's title is all the question says: nothing is left to lead anywhere
    assert bridge_candidates(graph, ["glass orchard"], [_anchor(GAME)], exclude=[]) == []  # type: ignore[list-item]
    assert "voss" in named_documents(graph, "composed by Mara Voss")


def test_promote_puts_the_bridge_after_its_anchor_and_keeps_top_k() -> None:
    ranked = [hit("x#0", "x", 0.9), hit("orchard#0", GAME[2], 0.8, title="Glass Orchard"), hit("y#0"), hit("z#0")]
    bridge = Bridge("voss", ranked[1], "Its soundtrack was composed by Mara Voss.", 0.5)
    out = promote_bridge(ranked, bridge, hit("voss#0", EN[1][2], 0.4, "semantic", title="Mara Voss"), top_k=4)
    assert [h.doc_id for h in out] == ["x", "orchard", "voss", "y"]
    assert out[2].hop == 1 and out[2].channel == "graph" and out[2].path == ["doc:orchard", "doc:voss"]
    assert "second hop" in (out[2].relevance_explanation or "") and "Glass Orchard" in (out[2].relevance_explanation or "")


def test_a_comparisons_two_sides_stay_ahead_of_a_bridge() -> None:
    ranked = [hit("orchard#0", GAME[2], 0.8, title="Glass Orchard"), hit("lumen#0", EN[2][2], 0.7), hit("y#0")]
    bridge = Bridge("voss", ranked[0], "Its soundtrack was composed by Mara Voss.", 0.5)
    out = promote_bridge(ranked, bridge, hit("voss#0", EN[1][2], 0.4, "semantic"), top_k=3, after=2)
    assert [h.doc_id for h in out] == ["orchard", "lumen", "voss"]


def test_one_bridge_for_a_question_and_one_per_side_for_a_comparison() -> None:
    a, b = hit("a#0"), hit("b#0")
    found = [Bridge("x", a, "s", 0.6), Bridge("y", a, "s", 0.5), Bridge("z", b, "s", 0.4), Bridge("w", b, "s", 0.1)]
    assert [c.doc for c in chosen_bridges(found, 0.2, comparison=False)] == ["x"]
    assert [c.doc for c in chosen_bridges(found, 0.2, comparison=True)] == ["x", "z"]
    assert chosen_bridges(found[3:], 0.2, comparison=True) == []
