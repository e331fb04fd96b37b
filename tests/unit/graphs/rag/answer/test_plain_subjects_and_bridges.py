"""Multi-hop answers and their twins, on own sentences (#24, issue's bridge part): a question that names its subject
plainly is never answered from a neighbour's passage the subject's sentence names; a year written only in a
title's brackets states when the work appeared; an answer that is itself a short form; the kinship a Chinese
passage writes beside the name (其父X, 是X的儿子); demonyms no list holds compared for "the same nationality"."""

from __future__ import annotations

import asyncio

from graphs.rag.answer import chains
from graphs.rag.answer.answerability import calibrated
from graphs.rag.answer.evidence import find_evidence, plain_subject, title_year
from graphs.text.short_forms import asked_short_form, defined_short_forms
from tests.support.answers import question, write
from tests.support.fakes import hit
from tests.unit.graphs.rag.answer.test_attributes import Bigrams

ORLIN = hit("orlin#0", "Orlin is a mill village on the River Kest. Its weaving shed employed ninety people in 1890. "
                       "The village lies east of Dunmarsh.", title="Orlin")
DUNMARSH = hit("dun#0", "Dunmarsh is a river port in the Kest valley. It was founded in 1122 by ferrymen. Dunmarsh "
                        "lies two miles west of Orlin.", title="Dunmarsh")


def decided(text: str, hits: list) -> tuple[str, str | None, str]:
    q = question(text, hits)
    evidence = find_evidence(q, hits)
    verdict, _, _ = asyncio.run(calibrated(q, hits, evidence, Bigrams()))
    _, _, span, answer = write(text, hits)
    return verdict.decision, span, answer


def test_a_plain_named_subject_is_not_answered_from_the_neighbour_its_passage_names() -> None:
    assert plain_subject(question("When was Orlin founded?", [ORLIN, DUNMARSH]))
    assert not plain_subject(question("When was the village east of Dunmarsh founded?", [ORLIN, DUNMARSH]))
    assert not plain_subject(question("When was the father of Orlin Kade born?", [ORLIN, DUNMARSH]))
    assert plain_subject(question("In which year was the Orlin founded?", [ORLIN, DUNMARSH]))
    # a statement that describes the subject's place on the way ("… in a valley located in what county?")
    assert not plain_subject(question("Orlin is a mill village in a valley located in what county?", [ORLIN]))
    decision, span, answer = decided("When was Orlin founded?", [ORLIN, DUNMARSH])
    assert decision == "not_found" or (span != "1122" and "1122" not in answer), (decision, span, answer)
    # the twin: the subject's own passage states it, and that answers, never the neighbour's year
    own = hit("orlin#0", ORLIN.text + " Orlin was founded in 1350 by weavers from Flanders.", title="Orlin")
    decision, span, answer = decided("When was Orlin founded?", [own, DUNMARSH])
    assert decision == "answerable" and span == "1350" and "1122" not in answer


def test_the_subjects_own_passage_leads_over_a_sentence_that_names_it_of_another_work() -> None:
    gull = hit("gull#0", "Gull Point is a crime film directed by Aino Varr. A lighthouse keeper hides a smuggler.",
               title="Gull Point (1953 film)")
    shoal = hit("shoal#0", "Red Shoal is a 1977 drama film, a remake of Gull Point. It was shot on Inish Mor.",
                title="Red Shoal")
    decision, span, answer = decided("In which year was Gull Point released?", [shoal, gull])
    assert decision == "answerable" and span == "1953" and "Gull Point (1953 film)" in answer
    # without the year in its title the remake's year is still not Gull Point's
    plain = hit("gull#0", gull.text, title="Gull Point")
    decision, span, answer = decided("In which year was Gull Point released?", [shoal, plain])
    assert span != "1977" and not answer.startswith("1977")


def test_a_year_in_a_titles_brackets() -> None:
    assert title_year("Always (2011 film)") == "2011"
    assert title_year("Kestrel Bay (1988 Irish TV series)") == "1988"
    assert title_year("北岸（1992年电影）") == "1992"
    for title in ("Lilu (mythology)", "Orlin", "Room 1890", "Apollo 13 (film)"):
        assert title_year(title) is None, title


def test_an_answer_that_is_itself_a_short_form() -> None:
    assert asked_short_form("The society runs a sport known by which three-letter acronym?") == 3
    assert asked_short_form("By what initials is the council known?") == 0
    assert asked_short_form("该协会的英文缩写是什么？") == 0
    assert asked_short_form("Who founded the MSRA?") is None
    assert defined_short_forms("Members practise free-diving with scuba (SCUBA) gear and surface "
                               "air supply (SAS).") == ["SCUBA", "SAS"]
    society = hit("soc#0", "The Harl Society is a club in Brennick founded by the surveyor Ida Rusk in 1961. Its "
                           "members race remote-controlled model yachts (RCMY) on the town reservoir.",
                  title="Harl Society")
    rusk = hit("rusk#0", "Ida Rusk (1920 – 1999) was a surveyor. She founded the Harl Society.", title="Ida Rusk")
    found = chains.short_form("The society founded by Ida Rusk races model boats known by which four-letter "
                              "acronym?", [rusk, society])
    assert found is not None and found.answer == "RCMY" and "(RCMY)" in found.steps[0][1]
    # twins: the letters the question counts, and a passage that defines none about the subject
    assert chains.short_form("… model boats known by which three-letter acronym? Ida Rusk", [rusk, society]) is None
    assert chains.short_form("Ida Rusk's club goes by which acronym?", [rusk]) is None
    assert chains.short_form("Which acronym does the Tarn Club use?", [society]) is None  # not about it


def test_chinese_kinship_written_beside_the_name() -> None:
    hits = [hit("lin#0", "林远山（1901年－1960年）是一位木刻家，生于溪口镇。他是木匠林德昌的儿子。", title="林远山"),
            hit("de#0", "林德昌（1870年－1931年）是一位木匠。其父林守仁曾在县城开设书院。", title="林德昌"),
            hit("su#0", "苏青禾（1905年－1988年）是一位织工。她的父亲苏培元是一位米商。1926年，她嫁给木刻家林远山。",
                title="苏青禾")]
    grand = chains.follow("林远山的祖父是谁？", hits)
    assert isinstance(grand, chains.Followed) and grand.answer == "林守仁"
    married = hit("lin#0", hits[0].text + "1926年，他与苏青禾结婚。", title="林远山")
    in_law = chains.follow("林远山的岳父是谁？", [married, hits[2]])
    assert isinstance(in_law, chains.Followed) and in_law.answer == "苏培元"
    # a run that names the child, not the parent, is no parent ("是X的学生")
    pupil = [hit("a#0", "他是画家许文的学生。", title="周岚"), hit("b#0", "许文是一位画家。", title="许文")]
    assert not isinstance(chains.follow("周岚的父亲是谁？", pupil), chains.Followed)


def test_the_same_nationality_by_demonyms_no_list_holds() -> None:
    a = hit("a#0", "Ivo Marsk (1901 – 1970) was a Tarvian painter. He lived in Kell.", title="Ivo Marsk")
    b = hit("b#0", "Lena Sorr (1911 – 1990) was a Tarvian sculptor born in Ost.", title="Lena Sorr")
    c = hit("c#0", "Pol Aderin (1920 – 1985) was a Drelish architect.", title="Pol Aderin")
    same = chains.same_country("Are Ivo Marsk and Lena Sorr of the same nationality?", [a, b])
    assert same is not None and same.answer == "Yes"
    other = chains.same_country("Are Ivo Marsk and Pol Aderin of the same nationality?", [a, c])
    assert other is not None and other.answer == "No"
    assert chains.demonym_stem("Tarvian") == chains.demonym_stem("Tarvia")


def test_a_date_asked_of_the_name_it_is_set_beside() -> None:
    remake = hit("r#0", "Copper Gate is a 2019 Tarvian thriller directed by Oda Brin. It is a remake of the Drelish "
                        "film Nine Bells.", title="Copper Gate (film)")
    bells = hit("b#0", "Nine Bells is a Drelish mystery film directed by Kasimir Holt. A bell-ringer finds a letter "
                       "in the tower.", title="Nine Bells (1964 film)")
    text = "Copper Gate is a 2019 Tarvian thriller, a remake of Nine Bells, released in which year, directed by Kasimir Holt?"
    found = chains.apposed(text, [remake, bells])
    assert found is not None and found.answer == "1964" and found.steps == [(1, "Nine Bells (1964 film)")]
    # the twin: Nine Bells' passage gives no year anywhere, and Copper Gate's 2019 is not its year
    plain = hit("b#0", bells.text, title="Nine Bells")
    assert chains.apposed(text, [remake, plain]) is None
    assert chains.apposed("When was Nine Bells released?", [remake, bells]) is None


def test_relations_through_a_sibling() -> None:
    hits = [hit("m#0", "Ansel Morrow (1930 – 2001) was a Tarvian judge. In 1956 he married the cellist Ilse Darrow.",
                title="Ansel Morrow"),
            hit("i#0", "Ilse Darrow (1933 – 2010) was a Tarvian cellist. Her younger brother, the architect Piet "
                       "Darrow, designed the Kell concert hall.", title="Ilse Darrow"),
            hit("p#0", "Piet Darrow (1936 – 1999) was a Tarvian architect. His son Rune Darrow is a painter.",
                title="Piet Darrow")]
    in_law = chains.follow("Who is Ansel Morrow's brother-in-law?", hits)
    assert isinstance(in_law, chains.Followed) and in_law.answer == "Piet Darrow"
    grand = chains.follow("Who is the grandchild of Ilse Darrow's father?", hits)
    assert not isinstance(grand, chains.Followed)  # her father is named nowhere: no chain answer
    grandson = chains.follow("Who is the grandson of Piet Darrow's sister's father?", hits[1:])
    assert not isinstance(grandson, chains.Followed)
    assert chains.KINSHIP["grandson"] == ("child", "child") and chains.KINSHIP["uncle"] == ("father", "sibling")
    zh = [hit("a#0", "许青山（1921年－1990年）是一位医生。其兄许青岩是一位教师。他的哥哥许青岩曾在县中学任教。", title="许青山"),
          hit("b#0", "许青岩（1915年－1980年）是一位教师，生于梅溪镇。", title="许青岩")]
    found = chains.follow("许青山的哥哥出生在哪里？", zh)
    assert isinstance(found, chains.Followed) and found.answer.startswith("梅溪")


def test_a_sentence_that_opens_with_neither_its_passages_entity_nor_a_pronoun_keeps_its_value() -> None:
    # news: "我国" stands for the subject the neighbouring sentence names; no other entity opens the sentence
    news = hit("n#0", "初步测算，2023年我国芯片出口额达1.2万亿元，比上年增长8%。统计局说，中国芯片产业继续增长。",
               title="统计局发布年度报告")
    decision, span, answer = decided("2023年中国芯片出口额是多少？", [news])
    assert decision == "answerable" and "1.2万亿元" in f"{span} {answer}"
