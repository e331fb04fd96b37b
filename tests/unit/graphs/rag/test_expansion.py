"""The second hop of a bridge question (graphs/rag/expansion.py): the document a top passage names in the
sentence that repeats the question's relation, in English and Chinese; documents named elsewhere are no
candidates; the promoted passage sits right after the passage that names it."""

from __future__ import annotations

from pathlib import Path

from graphs.domain import Hit
from graphs.rag.expansion import (
    Bridge,
    bridge_candidates,
    chosen_bridges,
    named_as_name,
    named_documents,
    named_in,
    promote_bridge,
    score_documents,
)
from graphs.rag.relation_cues import bridge_terms, role_of, roles_in, states_role
from tests.support.fakes import ScriptedIndex, hit
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


# -- relations stated in other words, names that are names, bridges already ranked ---------------------------

FAMILY = [("tomas", "Tomas Orrin", "Tomas Orrin (1702-1760) was a count of Velmar. He was the eldest son of Count "
                                   "Ivo Orrin and Adela of Strand. In 1730 he married Berit Kaske."),
          ("adela", "Adela of Strand", "Adela of Strand (died 1744) was a noblewoman of Strand."),
          ("ivo", "Ivo Orrin", "Ivo Orrin was a count of Velmar."),
          ("berit", "Berit Kaske", "Berit Kaske was born in Lund, the daughter of Mats Kaske.")]
SONG = [("lanterns", "Paper Lanterns (song)", "\"Paper Lanterns\" is a comedy single by the recording artist Odile "
                                               "Marsh, released in 2004."),
        ("marsh", "Odile Marsh", "Odile Marsh (born 1980 in Brest) is a French singer."),
        ("comedy", "Comedy!", "Comedy! is a 1960 television series.")]


def test_a_kinship_role_is_found_in_the_words_a_passage_states_it(tmp_path: Path) -> None:
    graph = kg(tmp_path, FAMILY)
    anchor = [_anchor(FAMILY[0])]
    # "When did Tomas Orrin's mother die?": the passage says "son of ... Adela of Strand", never "mother"
    found = bridge_candidates(graph, ["tomas orrin", "mother", "die"], anchor, exclude=[])  # type: ignore[list-item]
    assert {b.doc for b in found if b.overlap >= 0.5} == {"adela", "ivo"}
    assert "berit" not in {b.doc for b in found}  # the marriage sentence states no parent
    # "Who is the father-in-law of Tomas Orrin?": through the spouse the passage names
    found = bridge_candidates(graph, ["father-in-law", "tomas orrin"], anchor, exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["berit"]


def test_a_performer_is_found_in_a_song_by_and_a_common_word_names_no_title(tmp_path: Path) -> None:
    graph = kg(tmp_path, SONG)
    # "Where was the performer of song Paper Lanterns born?": "a ... single by the recording artist"
    found = bridge_candidates(graph, ["performer", "song paper lanterns", "born"], [_anchor(SONG[0])],
                              exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["marsh"]  # "a comedy single" does not name the series "Comedy!"
    assert named_as_name("Comedy!", "Comedy! was a hit") and not named_as_name("Comedy!", "a comedy single")
    assert named_as_name("海蓝造船厂", "该船由海蓝造船厂建造") and named_as_name("de Vries", "painted by de vries")


def test_roles_of_the_question_and_their_cues() -> None:
    assert role_of("paternal grandfather") == "grandfather" and role_of("Performer") == "performer"
    assert role_of("genre") is None
    assert roles_in(["who", "sibyl hathaway"], "Who is Sibyl Hathaway's child-in-law?") == ["child-in-law"]
    assert states_role("husband", "She married the poet in 1913") and not states_role("husband", "a queenly bearing")
    assert states_role("mother", "He was the son of Ada") and not states_role("mother", "the person of the year")


def test_the_anchor_the_question_names_leads_before_one_that_only_resembles_it() -> None:
    named, lookalike = hit("good#0", title="Good People (film)"), hit("man#0", title="A Good Man")
    found = [Bridge("x", lookalike, "s", 0.67), Bridge("y", named, "s", 0.5)]
    assert named_in("Good People (film)", "Who directed the film Good People (Film)?")
    assert not named_in("A Good Man", "Who directed the film Good People (Film)?")
    assert [b.doc for b in chosen_bridges(found, 0.2, comparison=False, named=["good"])] == ["y"]
    assert [b.doc for b in chosen_bridges(found, 0.2, comparison=False)] == ["x"]


def test_a_bridge_already_ranked_moves_up_and_is_never_pushed_out_by_another() -> None:
    a, b = hit("a#0", title="A"), hit("b#0", title="B")
    ranked = [a, b, hit("x#0"), hit("y#0"), hit("bb#0", title="BB")]  # B's bridge BB is ranked 5th already
    bridge_a, bridge_b = Bridge("aa", a, "directed by AA", 0.4), Bridge("bb", b, "directed by BB", 0.4)
    out = promote_bridge(ranked, bridge_a, hit("aa#0", title="AA"), top_k=5, after=2, keep=["aa", "bb"])
    assert [h.doc_id for h in out] == ["a", "b", "aa", "x", "bb"]  # y made room, not BB
    out = promote_bridge(out, bridge_b, ranked[4], top_k=5, after=2, keep=["aa", "bb"])
    assert [h.doc_id for h in out] == ["a", "b", "bb", "aa", "x"] and out[2].hop == 1


def test_split_roles_are_matched_whole_and_cues_are_whole_words() -> None:
    # the parser splits "mother-in-law" into "mother" and "law": a parent's cue must not count for an in-law
    assert bridge_terms(["mugain", "mother", "law", "mother-in-law"], "Who is Mugain's mother-in-law?") == [
        "mugain", "mother-in-law"]
    assert bridge_terms(["genre", "author"], "What genre is the author of Dune?") == ["genre", "author"]
    assert states_role("father", "Lamprocles was Socrates' eldest son.") and not states_role("father", "a Sony album")
    assert states_role("performer", "the title track on Frank Sinatra's album")


def test_a_name_inside_the_anchors_own_title_is_no_second_hop(tmp_path: Path) -> None:
    docs = [("war", "Siege Engine: Iron Tide", "Siege Engine: Iron Tide is a strategy game whose story was written by "
                                             "Hal Brenner."),
            ("tide", "Iron Tide", "Iron Tide is a naval doctrine."),
            ("hal", "Hal Brenner", "Hal Brenner is an author of techno-thrillers.")]
    graph = kg(tmp_path, docs)
    found = bridge_candidates(graph, ["genre", "author", "story", "siege engine"], [_anchor(docs[0])],
                              exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["hal"]  # "Iron Tide" here is the game's own title, not the doctrine


def test_of_two_names_in_the_sentence_the_one_the_relation_points_at_leads(tmp_path: Path) -> None:
    docs = [("ash", "Ash Harbour", "Ash Harbour is a 1931 drama film directed by Wendel Korff and starring "
                                   "Ines Larue."),
            ("korff", "Wendel Korff", "Wendel Korff (1890-1955) was a director."),
            ("larue", "Ines Larue", "Ines Larue (1901-1980) was an actress."),
            ("harbour", "Ash (band)", "Ash is a band.")]
    graph = kg(tmp_path, docs)
    found = bridge_candidates(graph, ["film", "director", "died", "later", "ash harbour"], [_anchor(docs[0])],
                              exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["korff", "larue"] and found[0].overlap == found[1].overlap
    assert found[0].distance < found[1].distance
    assert chosen_bridges(list(reversed(found)), 0.2, comparison=False)[0].doc == "korff"


def test_a_name_inside_a_longer_name_and_a_disambiguation_page_are_not_named(tmp_path: Path) -> None:
    docs = [("otto", "Otto Renn", "Otto Renn was a count. He was the son of Bruno Renn and his wife Marta Holm, "
                                  "Countess of Vey, the Grand Empress."),
            ("marta", "Marta Holm, Countess of Vey", "Marta Holm was a countess."),
            ("martafilm", "Marta (1987 film)", "Marta is a film."),
            ("bruno", "Bruno Renn", "Bruno Renn was a count."),
            ("empress", "Grand Empress (disambiguation)", "Grand Empress may refer to several titles.")]
    graph = kg(tmp_path, docs)
    named = named_documents(graph, docs[0][2].split(". ")[1], within="Otto Renn")
    assert "marta" in named and "bruno" in named
    assert "martafilm" not in named and "empress" not in named


def test_a_name_in_the_anchors_bracketed_qualifier_is_still_a_second_hop(tmp_path: Path) -> None:
    docs = [("ember", "Ember (Glass Wolves song)", "\"Ember\" is a song by the band Glass Wolves, released in 1994."),
            ("wolves", "Glass Wolves", "Glass Wolves is a band formed in Leeds.")]
    graph = kg(tmp_path, docs)
    found = bridge_candidates(graph, ["performer", "ember", "formed"], [_anchor(docs[0])],
                              exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["wolves"]


def test_a_chinese_role_is_found_in_the_words_a_chinese_passage_states_it(tmp_path: Path) -> None:
    docs = [("lin", "林远", "林远是一名船长。他是周梅之子，生于大连。"), ("zhou", "周梅", "周梅是一名教师，出生于青岛。")]
    graph = kg(tmp_path, docs)
    assert roles_in(["林远", "出生"], "林远的母亲出生在哪里？") == ["母亲"]
    found = bridge_candidates(graph, ["林远", "母亲", "出生"], [_anchor(docs[0])], exclude=[])  # type: ignore[list-item]
    assert [b.doc for b in found] == ["zhou"] and found[0].overlap == 0.5


def test_a_chunk_dense_search_cannot_see_yet_is_scored_by_bm25() -> None:
    """Right after an upload a document's chunks carry a placeholder vector (filled in behind): dense search skips
    them, BM25 finds them. The selected document's chunk must still be scored (vector 0), or the graph route
    loses the documents it selected and answers from the breadth search alone."""
    filled = hit("notes.pdf#0", "The P2 is assembled in Marlow Cross.", dense_score=0.4, bm25_score=3.0)
    pending = hit("town.html#0", "Marlow Cross was founded in 1642.", dense_score=None, bm25_score=6.0)

    def respond(channel: str, expr: str | None) -> list[Hit]:
        return [filled] if channel == "structured" else [pending, filled]

    scored = score_documents(ScriptedIndex(respond), [0.1], "town founded", ["notes.pdf", "town.html"], 6.0,
                             chunks=True)
    assert [(s.hit.id, s.vector, s.fts) for s in scored["town.html"]] == [("town.html#0", 0.0, 1.0)]
    assert [(s.hit.id, s.vector, s.fts) for s in scored["notes.pdf"]] == [("notes.pdf#0", 0.4, 0.5)]


def test_a_chinese_relative_clause_describes_the_entity_it_does_not_name() -> None:
    from graphs.rag.relation_cues import describes_by_clause

    for described in ("青松社区活动中心所在的小区，可回收物每周哪天收运？", "这份章程所适用的那个园区由谁管理？",
                      "位于北门的那家面馆几点关门？", "在江湾演出的乐团是哪一年成立的？", "替他值班的那位护士叫什么？"):
        assert describes_by_clause(described), described
    for named in ("青松社区活动中心几点开门？", "所在地是哪里？", "企业所得税税率是多少？", "枫林苑小区的物业公司是哪家？"):
        assert not describes_by_clause(named), named
