"""Bridges through an entity the question only describes by its kind ("the harbour town where X is based", "Y's
bakery", "X所在的镇"), on own invented documents (#24): the described entity's passage is found as the passage of
that kind the named entity's passage names (or that names it), whatever word links them (a pronoun, "home to", a
table row); what is asked is then read in that passage, both hops cited. Each kind has a twin: a description the
passages cannot follow, or a second hop that does not state what is asked ("not found")."""

from __future__ import annotations

from graphs.rag.answer import chains
from tests.support.answers import chain_answer as ask
from tests.support.fakes import hit

MILL = hit("mill#0", "Dovecote Mill is a watermill that grinds spelt and rye. It stands on the edge of Ambry, beside "
                     "the weir, and sells its flour at the Saturday market.", title="Dovecote Mill")
AMBRY = hit("ambry#0", "Ambry is a market town in the Fenn valley. It has about 9,800 inhabitants. The town was "
                       "granted a market in 1327, and its stone bridge crosses the River Quill.", title="Ambry")
BAKER = hit("baker#0", "Hester Vane (1902 – 1980) was a baker. In 1931 she opened Vane's Bakery on Cross Street; "
                       "she ran it until 1968.", title="Hester Vane")
BAKERY = hit("bakery#0", "Vane's Bakery is a bakery known for its seed loaves. It is located in Ambry, two doors "
                         "from the old corn exchange.", title="Vane's Bakery")


def test_a_relative_clause_describes_the_town_the_first_passage_names_by_a_pronoun_sentence() -> None:
    out = ask("Which river does the stone bridge of the town where Dovecote Mill stands cross?", [MILL, AMBRY])
    assert isinstance(out, tuple)
    _, text = out
    assert "River Quill" in text and "It stands on the edge of Ambry" in text and "[1]" in text and "[2]" in text


def test_a_possessive_of_a_person_without_a_passage_then_a_second_description() -> None:
    # "Hester Vane's bakery": the bakery passage that the baker's passage names; then the town it is located in
    out = ask("How many inhabitants does the town where Hester Vane's bakery is located have?",
              [AMBRY, BAKERY, BAKER])
    assert isinstance(out, tuple) and out[0] is not None and "9,800" in out[0]


def test_the_described_kind_is_read_from_the_documents_opening_when_a_later_chunk_was_retrieved() -> None:
    later = hit("ambry#1", "Its stone bridge crosses the River Quill and was rebuilt after the flood of 1912.",
                title="Ambry")
    whole = {"ambry": AMBRY.text + " " + later.text, "mill": MILL.text}
    out = ask("In which year was the town where Dovecote Mill stands granted a market?", [MILL, later],
              fetch=lambda doc: whole.get(doc))
    assert isinstance(out, tuple) and out[0] == "1327"


def test_the_noun_the_question_word_asks_need_not_be_written_by_the_answering_sentence() -> None:
    keel = hit("keel#0", "The Gannet is a pilot boat that serves the port of Ambry. She was launched in 1958 by "
                         "Pryor Brothers at Wendle.", title="Gannet (pilot boat)")
    port = hit("ambry#0", "Ambry is a market town in the Fenn valley. Its harbour is home to a pilot boat, the "
                          "Gannet, and a lifeboat.", title="Ambry")
    out = ask("Which boatyard launched the pilot boat that serves Ambry?", [port, keel])
    assert isinstance(out, tuple) and "Pryor Brothers" in out[1]


def test_a_second_hop_that_does_not_state_what_is_asked_is_not_found() -> None:
    out = ask("Who is the mayor of the town where Dovecote Mill stands?", [MILL, AMBRY])
    assert isinstance(out, chains.Broken) and out.entity == "Ambry"


def test_the_named_entity_of_its_own_kind_is_no_description() -> None:
    # "the town of Ambry" is Ambry itself: no other town is reached through it
    other = hit("fenn#0", "Fennick is a town downstream of Ambry. It was granted a market in 1401.", title="Fennick")
    assert chains.described("When was the town of Ambry granted a market?", [AMBRY, other]) is None


def test_a_name_outside_the_description_is_what_is_asked_about() -> None:
    # the baker's own years, not the bakery's: the description is only where she worked
    assert chains.described("How many years did Hester Vane run the bakery located in Ambry?",
                            [BAKER, BAKERY, AMBRY]) is None


KILN = hit("窑#0", "青石窑是一座烧制青瓷的老窑，位于龙湾镇，至今仍在生产。", title="青石窑")
TOWN = hit("镇#0", "龙湾镇是东江边的一个古镇，建于1403年。镇上常住人口约2.1万人。", title="龙湾镇")
FOUNDER = hit("人#0", "许秋山（1921年－1999年）是一位制瓷艺人。1956年，他创办了自己的瓷窑，一生烧窑四十年。",
              title="许秋山")
FIRM = hit("厂#0", "秋山瓷业是一家陶瓷公司，1956年由许秋山创办，总部设在龙湾镇。", title="秋山瓷业")


def test_a_chinese_relative_clause_reaches_the_town_and_reads_what_is_asked_there() -> None:
    out = ask("青石窑所在的镇建于哪一年？", [KILN, TOWN])
    assert isinstance(out, tuple) and "1403" in (out[0] or "") and "[1]" in out[1] and "[2]" in out[1]


def test_a_chinese_description_of_a_firm_then_its_town_by_the_towns_own_passage() -> None:
    out = ask("许秋山创办的公司总部设在哪个镇？", [FOUNDER, FIRM, TOWN])
    assert isinstance(out, tuple) and out[0] == "龙湾镇"


def test_a_chinese_second_hop_without_the_asked_attribute_is_not_found() -> None:
    out = ask("青石窑所在的镇的镇长是谁？", [KILN, TOWN])
    assert isinstance(out, chains.Broken)


def test_kind_nouns_come_from_the_opening_and_the_title() -> None:
    p = chains.passages_of([BAKERY, hit("u#0", "The University of Ambry was founded in 1950.",
                                        title="University of Ambry"), TOWN])
    assert "bakery" in chains.kind_nouns(p[0], BAKERY.title)
    assert "university" in chains.kind_nouns(p[1], "University of Ambry")
    assert "镇" in chains.kind_nouns(p[2], TOWN.title)


MUSEUM = hit("museum#0", "The Fenn Museum is a museum of local history in Ambry. It was founded by the collector Oswin "
                         "Hale in 1921.", title="Fenn Museum")
HALE = hit("hale#0", "Oswin Hale (1870 – 1944) was a collector of farm tools. He ran the museum until 1940, when he "
                     "was succeeded by his niece Mabel Hale.", title="Oswin Hale")


def test_a_deed_done_to_the_entity_a_relation_reaches_is_read_in_its_passage() -> None:
    out = ask("Who succeeded the founder of the Fenn Museum?", [MUSEUM, HALE])
    assert isinstance(out, tuple) and out[0] == "Mabel Hale" and "[1]" in out[1] and "[2]" in out[1]


def test_the_entity_a_relation_reaches_still_answers_who_it_is() -> None:
    out = ask("Who is the founder of the Fenn Museum?", [MUSEUM, HALE])
    assert isinstance(out, tuple) and out[0] == "Oswin Hale"
