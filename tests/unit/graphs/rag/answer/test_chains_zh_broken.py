"""Relation chains in Chinese through the same walk and lexicon as the English ones, and a chain that reaches
an entity the passages do not go on from ("not found", not an answer about the first entity). Made-up people,
works, companies and places, in other domains than tests/data/multihop_own."""

from __future__ import annotations

from typing import Any

from graphs.domain import Hit, ParsedQuery
from graphs.rag.answer import chains
from graphs.rag.nodes.write_answer import write_answer
from tests.support.fakes import ScriptedIndex, hit, make_context, runtime

# -- Chinese chains

OPERA = hit("opera#0", "《青瓷记》是一部1964年首演的歌剧，由罗启明作曲，剧本作者是沈兰舟。", title="青瓷记")
LUO = hit("luo#0", "罗启明（1921年4月9日－1990年）是一位作曲家。他出生于梅岭镇，父亲是琴师罗振堂。", title="罗启明")
SHEN = hit("shen#0", "沈兰舟（1930年－2004年）是一位剧作家。她出生于云台县，丈夫是画家顾远帆。", title="沈兰舟")
GU = hit("gu#0", "顾远帆（1928年－）是一位画家。他出生于东湖市，母亲是刺绣艺人许月娥。他的妻子是剧作家沈兰舟。",
         title="顾远帆")
XU = hit("xu#0", "许月娥（1905年－1987年）是一位刺绣艺人。她出生于梅岭镇，在东湖市开过一家绣坊。", title="许月娥")
MEILING = hit("meiling#0", "梅岭镇位于湖西省北部。梅岭镇建于1486年，以茶园著称。", title="梅岭镇")
MILL = hit("mill#0", "金穗磨坊是一家生产面粉的企业。金穗磨坊由顾远帆于1990年在东湖市创立。", title="金穗磨坊")


def test_a_chinese_chain_reads_each_hop_from_the_passage_of_the_entity_reached() -> None:
    found = chains.follow("《青瓷记》的作曲家出生在哪里？", [OPERA, LUO])
    assert isinstance(found, chains.Followed) and found.answer == "梅岭镇"
    assert [n for n, _ in found.steps] == [0, 1]
    born = chains.follow("《青瓷记》的作曲家是哪一年出生的？", [OPERA, LUO])
    assert isinstance(born, chains.Followed) and born.answer.startswith("1921年")
    father = chains.follow("《青瓷记》作曲家的父亲是谁？", [OPERA, LUO])
    assert isinstance(father, chains.Followed) and father.answer == "罗振堂"  # past the occupation 琴师


def test_chinese_kinship_words_are_compositions_of_the_lexicon_relations() -> None:
    hits = [SHEN, GU, XU]
    in_law = chains.follow("沈兰舟的婆婆是谁？", hits)  # the spouse's mother
    assert isinstance(in_law, chains.Followed) and in_law.answer == "许月娥"
    where = chains.follow("沈兰舟的丈夫的母亲出生在哪里？", hits)
    assert isinstance(where, chains.Followed) and where.answer == "梅岭镇"
    daughter_in_law = chains.follow("许月娥的儿媳是谁？", [XU, GU, SHEN])
    assert daughter_in_law is None or isinstance(daughter_in_law, chains.Broken)  # 许月娥's passage names no child
    assert isinstance(found := chains.follow("顾远帆的妻子出生在哪里？", hits), chains.Followed) and found.answer == "云台县"


def test_a_place_reached_as_a_hop_and_the_maker_of_a_thing() -> None:
    founded = chains.follow("《青瓷记》作曲家的出生地建于哪一年？", [OPERA, LUO, MEILING])
    assert isinstance(founded, chains.Followed) and founded.answer.startswith("1486")
    founder = chains.follow("金穗磨坊的创始人出生在哪里？", [MILL, GU])
    assert isinstance(founder, chains.Followed) and founder.answer == "东湖市"
    kettle = [hit("k#0", "The Brisa T2 is a travel kettle. It is made by Orrin Housewares.", title="Brisa T2"),
              hit("o#0", "Orrin Housewares is a maker of small appliances. It was established in 1934 in Dunmore.",
                  title="Orrin Housewares")]
    year = chains.follow("When was the company that makes the Brisa T2 founded?", kettle)
    assert isinstance(year, chains.Followed) and year.answer == "1934"
    who = chains.follow("Who founded the company that makes the Brisa T2?", kettle)
    assert not isinstance(who, chains.Followed)  # the founding year is no founder


def test_a_founder_named_after_the_place_and_a_role_word() -> None:
    hits = [hit("c#0", "Tallow & Finch is a candle maker. The firm was founded in 1921 in Rye by the chemist Odile "
                       "Marsh.", title="Tallow & Finch"),
            hit("m#0", "Odile Marsh (2 February 1890 – 1961) was an English chemist. She was born in Hastings.",
                title="Odile Marsh")]
    found = chains.follow("When was the founder of Tallow & Finch born?", hits)
    assert isinstance(found, chains.Followed) and found.answer == "2 February 1890"


def test_one_parent_named_is_a_mother_when_her_own_passage_says_she() -> None:
    hits = [hit("r#0", "Rufus Kell (1930 – 2001) was a Welsh stonemason. He married the poet Anwen Brae in 1958.",
                title="Rufus Kell"),
            hit("a#0", "Anwen Brae (1933 – 2019) was a Welsh poet, the daughter of the baker Gwyneth Brae.",
                title="Anwen Brae"),
            hit("g#0", "Gwyneth Brae (1901 – 1980) was a baker in Cardiff. She ran the shop for fifty years.",
                title="Gwyneth Brae")]
    found = chains.follow("Who is Rufus Kell's mother-in-law?", hits)
    assert isinstance(found, chains.Followed) and found.answer == "Gwyneth Brae"
    # the same wording is no father when the parent's passage speaks of a woman
    father = chains.follow("Who is Rufus Kell's father-in-law?", hits)
    assert not isinstance(father, chains.Followed)


# -- a chain that breaks after a hop


def _lookup(pool: list[Hit]) -> chains.Lookup:
    return lambda name: [h for h in pool if chains.same_name(h.title, name)][:1]


def test_a_hop_to_an_entity_no_passage_is_about_is_broken_not_unknown() -> None:
    # 剧本作者 沈兰舟 has no passage: searched for by name and not found
    broken = chains.follow("《青瓷记》的作者出生在哪里？", [OPERA, LUO], lookup=_lookup([OPERA, LUO]))
    assert isinstance(broken, chains.Broken) and broken.entity == "沈兰舟" and not broken.has_passage
    # not searched (no lookup): not known to be absent
    assert chains.follow("《青瓷记》的作者出生在哪里？", [OPERA, LUO]) is None
    # the entity's passage is there but does not state the asked attribute (alive: no death date)
    gone = chains.follow("When did the composer of The Iron Bell die?", [
        hit("bell#0", "The Iron Bell is a 1988 film. The music is by Hale Corrigan.", title="The Iron Bell"),
        hit("hale#0", "Hale Corrigan (born 5 May 1950) is an Irish composer. He was born in Sligo.",
            title="Hale Corrigan")])
    assert isinstance(gone, chains.Broken) and gone.has_passage and "Hale Corrigan".casefold() in gone.entity
    # the first hop itself not found: no verdict (the other mechanisms answer)
    assert chains.follow("Where was the producer of The Iron Bell born?", [
        hit("bell#0", "The Iron Bell is a 1988 film. The music is by Hale Corrigan.", title="The Iron Bell")]) is None


BELL = hit("bell#0", "The Iron Bell is a 1988 Irish film directed by Nora Flint. The music is by Hale Corrigan. "
                     "It was shot in Sligo.", title="The Iron Bell")
NORA = hit("nora#0", "Nora Flint (1941 – 2016) was an Irish film director. She was born in Galway.",
           title="Nora Flint")


async def test_write_answer_says_not_found_when_the_chain_breaks(tmp_path: Any) -> None:
    index = ScriptedIndex(respond=lambda channel, expr: [])  # the composer's name finds no passage
    question = "Where was the composer of The Iron Bell born?"
    parsed = ParsedQuery(original_query=question, keywords=["composer", "Iron Bell", "born"])
    out = await write_answer({"question": question, "parsed": parsed, "ranked": [BELL, NORA]},
                             runtime(make_context(tmp_path, index=index)))
    assert out["status"] == "no_results"
    assert "hale corrigan" in out["answerability"].reason.casefold()
    # the chain that holds still answers
    asked = "Where was the director of The Iron Bell born?"
    ok = await write_answer({"question": asked, "parsed": ParsedQuery(original_query=asked,
                                                                     keywords=["director", "Iron Bell", "born"]),
                             "ranked": [BELL, NORA]}, runtime(make_context(tmp_path, index=index)))
    assert ok["status"] == "answered" and ok["answer_span"] == "Galway"


def test_an_entity_without_a_passage_of_its_own_is_read_where_a_sentence_names_it() -> None:
    novel = hit("n#0", "《山月》是一部1957年出版的小说，作者是周望川。周望川出生于临江县，当过小学教师。", title="山月")
    found = chains.follow("《山月》的作者出生在哪里？", [novel], lookup=_lookup([novel]))
    assert isinstance(found, chains.Followed) and found.answer == "临江县"
    film = hit("f#0", "Grey Orchard is a 1966 film directed by Aksel Brun. It was written by Ivo Marten, who was "
                      "born in Lisle.", title="Grey Orchard")
    said = chains.follow("Where was the writer of Grey Orchard born?", [film], lookup=_lookup([film]))
    assert isinstance(said, chains.Followed) and said.answer == "Lisle"
    # a sentence that names the entity but states the birthplace of another is no answer
    born_to = hit("i#0", "Ilse Varn (1931 – 1998) was an engineer. She was born in Tarrow to Aksel Varn and Marit "
                         "Dunne.", title="Ilse Varn")
    assert isinstance(chains.follow("Where was the father of Ilse Varn born?", [born_to], lookup=_lookup([born_to])),
                      chains.Broken)


def test_a_song_and_an_album_of_one_title_are_told_apart_by_the_kind_the_question_names() -> None:
    song = hit("s#0", "Paper Moths is a song by the singer Colm Reddy, released in 1998.", title="Paper Moths (song)")
    album = hit("a#0", "Paper Moths is the debut album by the singer Rosa Fenn, released in 2004.",
                title="Paper Moths (album)")
    colm = hit("c#0", "Colm Reddy (born 1961) is an Irish singer. He was born in Cork.", title="Colm Reddy")
    rosa = hit("r#0", "Rosa Fenn (born 1980) is an Irish singer. She was born in Tralee.", title="Rosa Fenn")
    for order in ([song, album, colm, rosa], [album, song, colm, rosa]):
        found = chains.follow("Where was the performer of the album Paper Moths born?", order)
        assert isinstance(found, chains.Followed) and found.answer == "Tralee"
        found = chains.follow("Where was the performer of the song Paper Moths born?", order)
        assert isinstance(found, chains.Followed) and found.answer == "Cork"


def test_a_passage_that_says_it_in_words_the_chain_does_not_read_is_no_proof_of_absence() -> None:
    film = hit("f#0", "Quiet Ledger is a 1971 film. The music is by Tomas Hale.", title="Quiet Ledger")
    # "his death … in Leeds": a death the chain's wordings do not read, but a death all the same
    tomas = hit("t#0", "Tomas Hale (1920 – 1985) was an English composer. After his death the archive in Leeds "
                       "kept his scores.", title="Tomas Hale")
    assert chains.follow("Where did the composer of Quiet Ledger die?", [film, tomas]) is None
    silent = hit("t#0", "Tomas Hale (born 1920) is an English composer. He wrote forty scores.", title="Tomas Hale")
    assert isinstance(chains.follow("Where did the composer of Quiet Ledger die?", [film, silent]), chains.Broken)


def test_the_place_a_relative_clause_describes_is_a_hop() -> None:
    founded = chains.follow("《青瓷记》的作曲家出生的镇建于哪一年？", [OPERA, LUO, MEILING])
    assert isinstance(founded, chains.Followed) and founded.answer.startswith("1486")
    town = hit("t#0", "Sligo is a town in Ireland. It was founded in 1245 by Maurice FitzGerald.", title="Sligo")
    hale = hit("hale#0", "Hale Corrigan (born 5 May 1950) is an Irish composer. He was born in Sligo.",
               title="Hale Corrigan")
    bell = hit("bell#0", "The Iron Bell is a 1988 film. The music is by Hale Corrigan.", title="The Iron Bell")
    year = chains.follow("When was the town where the composer of The Iron Bell was born founded?", [bell, hale, town])
    assert isinstance(year, chains.Followed) and year.answer == "1245"


def test_the_planner_asks_the_first_hop_of_a_chinese_chain_by_the_same_lexicon() -> None:
    from graphs.rag.planning import first_hop

    assert first_hop("《青瓷记》的作曲家是哪一年出生的？", "青瓷记") == "《青瓷记》的作曲家是谁？"
    assert first_hop("《青瓷记》的作者出生的镇建于哪一年？", "青瓷记") == "《青瓷记》的作者是谁？"
    assert first_hop("沈兰舟的婆婆出生在哪里？", "沈兰舟") == "沈兰舟的婆婆是谁？"
    assert first_hop("沈兰舟的丈夫的母亲是谁？", "沈兰舟") == "沈兰舟的丈夫是谁？"  # as before
    assert first_hop("许月娥的儿媳是谁？", "许月娥") is None  # one hop: no plan


def test_a_name_another_document_speaks_of_is_not_taken_for_absent() -> None:
    film = hit("f#0", "Salt Window is a 1972 film. The music is by Ferris Vale.", title="Salt Window")
    # the composer's own page is titled otherwise; the search by his name finds it
    page = hit("v#0", "Ferris Vale (1931 – 2001), born Ferenc Valek, was a composer who wrote for the stage.",
               title="Ferenc Valek")
    assert chains.follow("Where was the composer of Salt Window born?", [film],
                         lookup=lambda name: [page]) is None
    # nothing but the film's passage speaks of him: absent
    assert isinstance(chains.follow("Where was the composer of Salt Window born?", [film],
                                    lookup=lambda name: [film]), chains.Broken)
