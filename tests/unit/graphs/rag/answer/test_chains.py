"""Multi-hop answers as relation chains (graphs/rag/answer/chains.py), on made-up people, works and places:
compositional chains of any length, kinship words composed of relations, comparisons through each side's
chain (dates with their day, lifespans), "the same country" by demonyms, a missing hop's passage looked up by
name, and no answer when a hop is missing."""

from __future__ import annotations

from typing import Any

from graphs.domain import ParsedQuery
from graphs.rag.answer import chains
from graphs.rag.nodes.write_answer import write_answer
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime

GLASS = hit("glass#0", "The Glass Harbour is a 1974 Danish drama film directed by Ottilie Brandt. It was shot in "
                       "Esbjerg.", title="The Glass Harbour")
BRANDT = hit("brandt#0", "Ottilie Brandt (3 March 1931 – 12 June 2009) was a Danish film director. She was born in "
                         "Aarhus and died in Copenhagen.", title="Ottilie Brandt")


def test_the_asked_attribute_is_read_from_the_last_hop_and_both_hops_are_cited() -> None:
    found = chains.follow("Where was the director of film The Glass Harbour born?", [GLASS, BRANDT])
    assert found is not None and found.answer == "Aarhus"
    assert [n for n, _ in found.steps] == [0, 1]
    assert "directed by Ottilie Brandt" in found.steps[0][1] and "born in Aarhus" in found.steps[1][1]
    died = chains.follow("When did the director of film The Glass Harbour die?", [GLASS, BRANDT])
    assert died is not None and died.answer == "12 June 2009"


def test_a_chain_of_three_hops() -> None:
    hits = [
        hit("lantern#0", "The Tin Lantern is a 1902 opera with music by Aurel Vasko, after a tale by Jana Lisa.",
            title="The Tin Lantern"),
        hit("aurel#0", "Aurel Vasko (1870 – 1931) was a Slovak composer. He was the son of the organ builder "
                       "Pavol Vasko.", title="Aurel Vasko"),
        hit("pavol#0", "Pavol Vasko (1841 – 1905) was a Slovak organ builder. He died in Trnava after a long "
                       "illness.", title="Pavol Vasko"),
    ]
    found = chains.follow("Where did the father of the composer of The Tin Lantern die?", hits)
    assert found is not None and found.answer == "Trnava" and [n for n, _ in found.steps] == [0, 1, 2]


def test_kinship_words_are_composed_of_relations() -> None:
    hits = [
        hit("marta#0", "Marta Quell (born 1950) is a Chilean potter. She married the architect Tobias Renn in 1975.",
            title="Marta Quell"),
        hit("tobias#0", "Tobias Renn (1948 – 2011) was a Chilean architect. His mother was Ilse Renn, a painter "
                        "from Valdivia.", title="Tobias Renn"),
    ]
    found = chains.follow("Who is Marta Quell's mother-in-law?", hits)
    assert found is not None and found.answer == "Ilse Renn"
    # the question asks a person: the chain's entity; asked a place, the chain does not answer with a name
    assert chains.follow("What is Marta Quell's mother-in-law?", hits) is None


def test_a_missing_hop_gives_no_chain_answer() -> None:
    # the director's passage was not retrieved: the film's own year is not the director's birth
    assert chains.follow("When was the director of film The Glass Harbour born?", [GLASS]) is None


def test_a_missing_hop_is_looked_up_by_name() -> None:
    asked: list[str] = []

    def lookup(name: str) -> list[Any]:
        asked.append(name)
        return [BRANDT] if name == "Ottilie Brandt" else []

    found = chains.follow("Where did the director of film The Glass Harbour die?", [GLASS], lookup=lookup)
    assert found is not None and found.answer == "Copenhagen" and asked == ["Ottilie Brandt"]
    assert [h.doc_id for h in found.hits] == ["glass", "brandt"]


ALBUMS = [
    hit("dust#0", "Dust Mirrors is a 1988 album produced by Kell Ardis.", title="Dust Mirrors"),
    hit("comet#0", "Paper Comet is a 1979 album produced by Nia Volk.", title="Paper Comet"),
    hit("kell#0", "Kell Ardis (born 14 May 1940) is a Welsh record producer.", title="Kell Ardis"),
    hit("nia#0", "Nia Volk (born 2 February 1952) is an Estonian record producer.", title="Nia Volk"),
]


def test_a_comparison_through_each_sides_chain() -> None:
    # the albums' own years say the opposite: the producers' births decide
    found = chains.compare("Which album has the producer who was born earlier, Dust Mirrors or Paper Comet?", ALBUMS)
    assert found is not None and found.answer == "Dust Mirrors"
    assert "14 May 1940" in found.lead and "2 February 1952" in found.lead
    assert {n for n, _ in found.steps} == {0, 1, 2, 3}
    later = chains.compare("Which album came out first, Dust Mirrors or Paper Comet?", ALBUMS)
    assert later is not None and later.answer == "Paper Comet"


def test_dates_are_compared_with_their_day_and_lifespans_computed() -> None:
    hits = [
        hit("ada#0", "Ada Pell (1 May 1900 – 3 June 1950) was a Canadian chemist.", title="Ada Pell"),
        hit("bruno#0", "Bruno Kask (10 October 1900 – 1 January 1990) was an Estonian sculptor.", title="Bruno Kask"),
    ]
    first = chains.compare("Was Ada Pell or Bruno Kask born first?", hits)
    assert first is not None and first.answer == "Ada Pell"  # the same year: the month decides
    longer = chains.compare("Who lived longer, Ada Pell or Bruno Kask?", hits)
    assert longer is not None and longer.answer == "Bruno Kask"
    same_year = [hit("a#0", "Red Wire is a 1960 film.", title="Red Wire"),
                 hit("b#0", "Blue Wire is a 1960 film.", title="Blue Wire")]
    assert chains.compare("Which film came out first, Red Wire or Blue Wire?", same_year) is None


def test_the_same_country_by_demonyms_and_names() -> None:
    places = [hit("v#0", "Velmora is a village in the Lori Province of Armenia.", title="Velmora"),
              hit("t#0", "Tash Kettle is a hamlet in Cumbria, England.", title="Tash Kettle")]
    no = chains.same_country("Are Velmora and Tash Kettle both located in the same country?", places)
    assert no is not None and no.answer == "No"
    films = [
        hit("f1#0", "Cold Ledger is a 1961 crime film directed by Amos Fenwick.", title="Cold Ledger"),
        hit("f2#0", "Salt Road is a 1970 drama directed by Iris Moat.", title="Salt Road"),
        hit("p1#0", "Amos Fenwick (1910 – 1980) was an English film director.", title="Amos Fenwick"),
        hit("p2#0", "Iris Moat (born 1938) is a British director and writer.", title="Iris Moat"),
    ]
    yes = chains.same_country("Do both films Cold Ledger and Salt Road have the directors from the same country?", films)
    assert yes is not None and yes.answer == "Yes" and {n for n, _ in yes.steps} == {0, 1, 2, 3}


async def test_write_answer_follows_the_chain_and_joins_the_looked_up_passage(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda channel, expr: [BRANDT] if channel == "bm25" else [])
    question = "Where was the director of film The Glass Harbour born?"
    parsed = ParsedQuery(original_query=question, keywords=["director", "film", "Glass Harbour", "born"])
    out = await write_answer({"question": question, "parsed": parsed, "ranked": [GLASS]},
                             runtime(make_context(tmp_path, index=index)))
    assert out["status"] == "answered" and out["answer_span"] == "Aarhus"
    assert out["answer"].startswith("Aarhus.") and "[1]" in out["answer"] and "[2]" in out["answer"]
    assert [c.doc_id for c in out["citations"]] == ["glass", "brandt"]
    assert [h.doc_id for h in out["ranked"]] == ["glass", "brandt"]


async def test_a_store_failure_while_following_a_chain_is_a_degradation(tmp_path: Any) -> None:
    index = ScriptedIndex(fail=True)
    question = "Where was the director of film The Glass Harbour born?"
    parsed = ParsedQuery(original_query=question, keywords=["director", "film", "Glass Harbour", "born"])
    out = await write_answer({"question": question, "parsed": parsed, "ranked": [GLASS]},
                             runtime(make_context(tmp_path, index=index)))
    assert "write_answer" in out.get("degraded", [])
    assert out.get("answer_span") != "Aarhus"


def test_sides_named_through_a_relation_and_the_same_birthplace() -> None:
    films = [
        hit("f1#0", "Cold Ledger is a 1961 crime film directed by Amos Fenwick.", title="Cold Ledger"),
        hit("f2#0", "Salt Road is a 1970 drama directed by Iris Moat.", title="Salt Road"),
        hit("p1#0", "Amos Fenwick (4 April 1910 – 1980) was an English film director, born in Leeds.",
            title="Amos Fenwick"),
        hit("p2#0", "Iris Moat (born 1938 in Leeds, West Yorkshire) is a British director.", title="Iris Moat"),
    ]
    older = chains.compare("Who was born first, the director of film Cold Ledger or the director of film Salt Road?",
                           films)
    assert older is not None and older.answer == "Cold Ledger"
    place = chains.same_country("Were the director of film Cold Ledger and the director of film Salt Road born in "
                                "the same place?", films)
    assert place is not None and place.answer == "Yes"


def test_a_style_before_a_name_is_not_part_of_it() -> None:
    hits = [
        hit("ode#0", "Odelric II (died 901) was a count of the Vardens, the son of Emperor Aldo III and Berta of "
                     "Lusk.", title="Odelric II"),
        hit("berta#0", "Berta of Lusk (830 – 12 May 889) was a noblewoman of the Vardens.", title="Berta of Lusk"),
        hit("aldo#0", "Aldo III (800 – 870) was emperor of the Vardens.", title="Aldo III"),
    ]
    mother = chains.follow("When did Odelric II's mother die?", hits)
    assert mother is not None and mother.answer == "12 May 889"
    father = chains.follow("When did Odelric II's father die?", hits)
    assert father is not None and father.answer == "870"


def test_other_wordings_of_the_same_relations() -> None:
    hits = [
        hit("m#0", "Night Ferry is a 1984 thriller directed and produced by Rosa Lind, with a score by Oren Malk.",
            title="Night Ferry"),
        hit("r#0", "Rosa Lind (1940 – 2001) was a Swiss director. Her father was the sculptor Emil Lind. In 1966 "
                   "she married Paul Arnaud. They had two children, Nora Arnaud and Felix Arnaud.", title="Rosa Lind"),
        hit("o#0", "Oren Malk is a composer and a native of Haifa.", title="Oren Malk"),
        hit("e#0", "Emil Lind (1901 – 1977) was a Swiss sculptor who died in Basel.", title="Emil Lind"),
    ]
    cases = {
        "Who is the father of the director of film Night Ferry?": "Emil Lind",
        "Who is the spouse of the director of Night Ferry?": "Paul Arnaud",
        "Who is the child of the director of Night Ferry?": "Nora Arnaud",
        "Where was the composer of Night Ferry born?": "Haifa",
        "Where did the director of Night Ferry's father die?": "Basel",
    }
    for question, expected in cases.items():
        found = chains.follow(question, hits)
        assert found is not None and found.answer == expected, question


def test_a_later_chunk_is_completed_by_its_document_only_when_needed() -> None:
    later = hit("brandt#2", "In 1980 she received a lifetime award from the Danish Film Institute.", title="Ottilie Brandt")
    fetched: list[str] = []

    def fetch(doc_id: str) -> str | None:
        fetched.append(doc_id)
        return BRANDT.text + " " + later.text if doc_id == "brandt" else None

    found = chains.follow("Where was the director of film The Glass Harbour born?", [GLASS, later], fetch=fetch)
    assert found is not None and found.answer == "Aarhus" and fetched == ["brandt"]
    # the film's chunk states its director: its document is not fetched
    assert "glass" not in fetched
