"""A bridge whose last hop is the question's own predicate, and kinship chains through a parent's spouse.

- "Which <noun> did the <relation> of X <verb> in <Name>?": the description "the <relation> of X" is the subject of
  the question's verb and ends at X's name; what follows (the verb, a name it governs) is asked of the entity it
  reaches, so a name written after it is no second subject and stays a word the answering sentence must write.
- "The son of A and his first wife, B": B is the mother ("his wife, B", "his second wife B").
- A parent written with a title ("Prince Tomas of Varna") is the page titled with it when the page keeps it.
- "Which <noun> did …" asks a list only when the noun is plural.

Invented pages (a shipwright and his father the harbour master, a margravine's family), in domains no dev set holds.
"""

from __future__ import annotations

import pytest

from graphs.rag.answer import chains
from graphs.rag.answer.extractive import multihop
from graphs.text.answer_types import expected_answer
from tests.support.answers import question
from tests.support.fakes import hit

ODA = hit("oda#0", "Oda Brennick (1901 – 1977) was a shipwright from Kessel. She was the daughter of Lorne Brennick "
                   "and Marit Sand.", title="Oda Brennick")
LORNE = hit("lorne#0", "Lorne Brennick (1870 – 1932) was a harbour master and politician. He sat for Wexmoor in the "
                       "Provincial Assembly of Norland from 1904 to 1911. He was born in Tarrholm.",
            title="Lorne Brennick")
ASSEMBLY = hit("assembly#0", "The Provincial Assembly of Norland is the legislature of Norland. It meets in Kessel "
                             "and has 48 seats.", title="Provincial Assembly of Norland")


def _lookup(pages):
    def find(name: str):
        return [p for p in pages if chains.same_name(p.title, name)]
    return find


def _answer(text: str, hits):
    q = question(text, hits)
    found = multihop(q, hits, False, None, _lookup(hits), None)
    assert found is not None and not isinstance(found, chains.Broken), found
    return found[0]


def test_the_predicate_after_a_relation_description_is_asked_of_the_entity_it_reaches() -> None:
    written = _answer("Which seat did the father of Oda Brennick hold in the Provincial Assembly of Norland?",
                      [ODA, LORNE, ASSEMBLY])
    # the father's sentence that names the assembly, not the daughter's page nor the assembly's own
    assert "He sat for Wexmoor in the Provincial Assembly of Norland" in written.text
    assert "48 seats" not in written.text


@pytest.mark.parametrize(("text", "clause"), [
    ("Which seat did the father of Oda Brennick hold in the Provincial Assembly of Norland?", "father of Oda Brennick"),
    ("What post did the mother of Oda Brennick take in Kessel?", "mother of Oda Brennick"),
])
def test_a_description_of_the_form_noun_of_name_ends_at_the_name(text: str, clause: str) -> None:
    names = ["Oda Brennick", "Provincial Assembly of Norland", "Kessel"]
    spots = chains.description_nouns(text, names)
    nouns = [n for _, n in spots if n in ("father", "mother")]
    assert chains._clause(text, spots, nouns, names) == clause


def test_a_name_outside_a_description_that_is_the_object_still_names_the_subject() -> None:
    # "How many times was X picked for the crew of the Y?": X is what is asked about, not the crew's holder
    assert chains._SUBJECT.search("How many times was Oda Brennick picked for the ") is None
    assert chains._SUBJECT.search("Which seat did the ") is not None


ROSE = hit("rose#0", "Rose of Lindau (12 May 1710 – 3 June 1761) was a margravine. She was the daughter of Prince "
                     "Tomas of Varna.", title="Rose of Lindau")
TOMAS = hit("tomas#0", "Prince Tomas of Varna (1680 – 1741) was a soldier. He was the second son of Anselm of Varna "
                       "and his first wife, Greta of Ulm, and served as a colonel.", title="Prince Tomas of Varna")


def test_a_parents_wife_after_and_is_the_mother_and_a_titled_page_is_the_parent() -> None:
    passages = chains.passages_of([ROSE, TOMAS])
    father = chains.next_hop(passages[0], "father", passages, passages[0].title)
    assert father is not None and father[2] is not None and father[2].title == "prince tomas of varna"
    mother = chains.next_hop(passages[1], "mother", passages, passages[1].title)
    assert mother is not None and mother[0] == "Greta of Ulm"
    followed = chains.follow("Who is Rose of Lindau's paternal grandmother?", [ROSE, TOMAS])
    assert isinstance(followed, chains.Followed) and followed.answer == "Greta of Ulm"


@pytest.mark.parametrize(("text", "kind"), [
    ("Which seat did the father of Oda Brennick hold?", "other"),
    ("Which ships did Oda Brennick build?", "list"),
    ("Which colleges did she attend?", "list"),
])
def test_which_noun_did_asks_a_list_only_for_a_plural_noun(text: str, kind: str) -> None:
    assert (expected_answer(text) == "list") == (kind == "list")


ODA_LATER = hit("oda#1", "In 1950 Oda Brennick launched the schooner Grey Tern. She retired to Kessel in 1966.",
                title="Oda Brennick")


def test_a_subject_retrieved_by_a_later_chunk_is_read_as_its_whole_document() -> None:
    # only the later chunk of the daughter's page was retrieved: its whole document names her father
    whole = {"oda": f"{ODA.text} {ODA_LATER.text}", "lorne": LORNE.text}
    reached = chains.described("Which seat did the father of Oda Brennick hold in the Provincial Assembly of Norland?",
                               [ODA_LATER, LORNE], None, None, whole.get)
    assert reached is not None and reached.passage.title == "lorne brennick"
