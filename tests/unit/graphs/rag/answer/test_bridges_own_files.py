"""Bridges, years, misspelled and other-script names as a user's own files write them: titles such as
"X — visitor notes" rather than the bare name, the date in the opening sentence only, a name in pinyin or in
brackets. Documents of other domains than the trial sets' (tests/data/newuser, newuser2)."""

from __future__ import annotations

from graphs.rag.answer.evidence import by_meaning, find_evidence, other_language, title_names
from graphs.text.normalize import normalize
from tests.support.answers import question, write
from tests.support.fakes import hit

KAYAK = hit("kayaks#0", "Marlin Boats makes sea kayaks. The Marlin K3 kayak is built in Brindle Cove by a family "
                        "workshop.", title="Marlin Boats — product sheet 2024")
COVE = hit("cove#0", "Brindle Cove is a village on the Ardle estuary. It was founded in 1734 by salt traders and "
                     "got its pier in 1891. About 640 people live there.", title="Brindle Cove — visitor notes")


def test_title_names_are_the_names_a_title_is_made_of() -> None:
    assert title_names("Brindle Cove — visitor notes") == ("brindle cove — visitor notes", "brindle cove")
    assert title_names("青禾乐器：公司简介") == ("青禾乐器:公司简介", "青禾乐器", "公司简介")
    assert title_names("Harbour notes — draft") == ("harbour notes — draft", "harbour notes")  # "draft": no name


def test_a_bridge_reaches_a_passage_whose_title_only_begins_with_the_name() -> None:
    decision, _, span, answer = write("When was the village where the Marlin K3 kayak is built founded?", [KAYAK, COVE])
    assert decision == "answerable" and span == "1734"
    assert "[1]" in answer and "[2]" in answer


def test_the_last_hop_takes_the_span_next_to_the_asked_attribute_not_the_nearest_date() -> None:
    # the pier's year (1891) is in the same sentence; "founded" is what is asked
    cove = hit("cove#0", "Brindle Cove got its pier in 1891. It was founded in 1734 by salt traders.",
               title="Brindle Cove — visitor notes")
    _, _, span, _ = write("When was the village where the Marlin K3 kayak is built founded?", [KAYAK, cove])
    assert span == "1734"


def test_a_first_hop_that_answers_with_the_bridge_entity_is_not_followed_to_an_unrelated_sentence() -> None:
    plant = hit("bf#0", "Northgate Foods bakes its bread at its own plant in Kelvedon.",
                title="Northgate Foods — company sheet")
    town = hit("kel#0", "Kelvedon is a town on the River Blackwater.", title="Kelvedon — town notes")
    _, _, span, answer = write("Where will Northgate Foods hold its next supplier meeting?", [plant, town])
    assert "Blackwater" not in (span or "") and "Blackwater" not in answer


def test_a_year_of_the_question_is_matched_by_the_passage_date_it_states() -> None:
    run25 = hit("run25#0", "The seventh Dockside Run was held on 5 October 2025 with 4,100 runners.\n\n"
                           "The entry fee was 150 yuan.", title="Dockside Run draws record field", date=20251005)
    run24 = hit("run24#0", "The sixth Dockside Run was held on 6 October 2024.\n\nThe entry fee was 120 yuan.",
                title="Dockside Run returns", date=20241006)
    decision, _, span, answer = write("What was the entry fee for the 2025 Dockside Run?", [run25, run24])
    assert decision == "answerable" and "150 yuan" in f"{span} {answer}" and "120" not in answer


def test_a_misspelled_single_name_counts_as_mentioned_with_a_reason() -> None:
    decision, reason, span, _ = write("When was Brindel Cove founded?", [COVE, KAYAK])
    assert decision == "answerable" and span == "1734"
    decision, reason, span, _ = write("When was Brindel founded?",
                                      [hit("b#0", "Brindle is a hamlet in Kent. It was founded in 1734.",
                                           title="Brindle")])
    assert decision == "answerable" and span == "1734" and "'brindel' is taken as 'brindle'" in reason


def test_a_different_single_name_stays_missing() -> None:
    decision, _, _, _ = write("When was Grindelwood founded?",
                              [hit("b#0", "Brindle is a hamlet in Kent. It was founded in 1734.", title="Brindle")])
    assert decision == "not_found"


MUSEUM = hit("mus#0", "松河市博物馆每周二闭馆。馆长为陆文清。门票为20元。", title="松河市博物馆参观须知", dense_score=0.1)


def test_a_latin_name_in_pinyin_is_found_in_chinese_passages() -> None:
    q = question("Who is the director of Songhe City Museum?", [MUSEUM])
    assert q.misspelled == {"songhe city museum": "松河"}
    assert any("松河" in forms for forms in q.anchors)


def test_sentences_in_the_other_language_are_ranked_by_how_they_stand_out_in_meaning() -> None:
    q = question("On which day of the week is Songhe City Museum closed?", [MUSEUM])
    texts = other_language(q, [MUSEUM])
    assert texts == ["松河市博物馆每周二闭馆。", "馆长为陆文清。", "门票为20元。"]
    meaning = by_meaning({texts[0]: 0.80, texts[1]: 0.76, texts[2]: 0.77})
    assert meaning[texts[0]] == 1.0 and meaning[texts[2]] == 0.5 and meaning[texts[1]] < 0.5
    best = find_evidence(q, [MUSEUM], meaning=meaning)[0]
    assert best.sentences[0].text == texts[0]
    # without the sentences' meaning, the value of the asked type stands out (周二 is the day asked for: a weekday
    # is a date span) and the general dictionary reads "closed" in 闭馆 (闭着 → 闭): the sentence next to it, whose
    # context writes it, comes second, the ticket line that writes no word of the question last
    plain = find_evidence(q, [MUSEUM])
    assert [e.sentences[0].text for e in plain] == texts
    assert plain[1].score > plain[2].score


def test_by_meaning_needs_two_sentences_to_compare() -> None:
    assert by_meaning({"一句。": 0.9}) == {}


def test_a_chinese_opening_phrase_that_runs_into_the_relation_is_named_by_its_head() -> None:
    hits = [hit("co#0", "云雀文具在罗斯代尔设有自己的工厂，文具在那里生产。", title="公司简介")]
    q = question("云雀文具自有工厂所在的镇是哪一年建立的？", hits)
    assert any("云雀文具" in forms for forms in q.anchors)
    # a name the passages do not write at all stays missing
    q = question("青柚科技自有工厂所在的镇是哪一年建立的？", hits)
    assert not any(any(f in "云雀文具在罗斯代尔设有自己的工厂" for f in forms) for forms in q.anchors)


def test_the_planner_asks_the_first_hop_of_a_chinese_relative_clause_first() -> None:
    from graphs.rag.planning import chinese_first_hop, decompose
    from graphs.text.query_analysis import analyze_query
    from tests.support.fakes import TODAY, gazetteer_of

    assert chinese_first_hop("云雀文具自有工厂所在的镇是哪一年建立的？") == "云雀文具自有工厂所在的镇是哪里？"
    assert chinese_first_hop("陈立群毕业的大学的校长是谁？") == "陈立群毕业的大学是哪里？"
    assert chinese_first_hop("云雀文具的创始人是谁？") is None  # no relative clause: the X的Y的 rule's
    text = "云雀文具自有工厂所在的镇是哪一年建立的？"
    plan = decompose(text, analyze_query(text, gazetteer_of([]), TODAY), [], has_kg=False)
    assert plan is not None and plan.pattern == "bridge"
    assert [s.question for s in plan.sub_questions] == ["云雀文具自有工厂所在的镇是哪里？", text]


def test_a_three_character_chinese_name_one_homophone_off_is_misspelled() -> None:
    hits = [hit("qy#0", "青柚科技由林晓云和陈默于2019年共同创办。", title="青柚科技简介")]
    decision, reason, _, answer = write("林晓芸和谁一起创办了青柚科技？", hits)
    assert decision == "answerable" and "陈默" in answer and "'林晓芸' is taken as '林晓云'" in reason
    # one character off but not a homophone: another person
    decision, _, _, _ = write("林晓芬和谁一起创办了青柚科技？", hits)
    assert decision == "not_found"


def test_the_question_asks_an_attribute_in_other_words_than_the_sentence_that_states_it() -> None:
    # "how heavy" / "how tall" / "多重" against "weighs …" / "… m" / "重…公斤": the lexicon's words for the asked
    # attribute stand for the question's, so the sentence stating it beats one that only names the subject
    dock = hit("dock#0", "The Harlan D4 is a floating dock made by Harlan Marine. It weighs 310 kg and holds "
                         "four kayaks. Harlan Marine was founded in 2009.", title="Harlan D4 — data sheet")
    tower = hit("tower#0", "The Corrin Tower was designed by Ada Lunn in 1995. It rises 212 m above the "
                           "harbour.", title="Corrin Tower")
    for text, hits, value in (("How heavy is the Harlan D4?", [dock], "310 kg"),
                              ("How tall is the Corrin Tower?", [tower], "212 m")):
        decision, _, _, answer = write(text, hits)
        assert decision == "answerable" and value in answer.split("[1]")[0], (text, answer)


def test_a_product_named_again_by_its_model_code_alone_is_the_same_product() -> None:
    from graphs.rag.answer.question import by_code

    assert by_code("harlan d4", "the d4 is built in kessock by the firm's own yard")
    assert by_code("harlan d4", "a floating dock. d4 units ship in march")
    assert not by_code("harlan d4", "the brookline d4 is built in kessock")  # another maker's D4
    assert not by_code("pixel 15", "the 15 is built in kessock")  # a number is no model code
    dock = hit("dock#0", "Harlan Marine was founded in 2009 in Oban.\n\nThe Harlan D4 is a floating dock. It weighs "
                         "310 kg and holds four kayaks. The D4 is built in Kessock by the firm's own yard.\n\nThe "
                         "Harlan D6 is a larger dock. It weighs 520 kg.", title="Harlan Marine — product sheet")
    town = hit("kes#0", "Kessock is a fishing village on the Beauly Firth. It was founded in 1710 by herring "
                        "curers.", title="Kessock")
    decision, _, span, answer = write("When was the village where the Harlan D4 is built founded?", [dock, town])
    assert decision == "answerable" and span == "1710", answer


# -- a user's file titled by the bridge entity with words of its own ------------------------------------------


def test_title_named_reads_a_chinese_titles_opening_name_and_a_titles_named_parts() -> None:
    from graphs.rag.answer.evidence import title_named

    line = normalize("青松社区活动中心位于临河区桂花路 12 号枫林苑小区二楼，由街道办管理。")
    assert title_named(line, "枫林苑小区垃圾分类管理规定（2025年版）") == "枫林苑小区"
    assert title_named(line, "枫林苑小区垃圾分类管理规定", skip=["枫林苑小区"]) is None  # the question names it
    assert title_named(line, "桂园小区停车规定") is None  # an opening of two characters names nothing
    dated = normalize("本规定自2025年下半年起施行。")
    assert title_named(dated, "桂园小区收运时间表（2025年下半年）") is None  # a date is no name
    flat = normalize("A quiet one-bedroom flat on the third floor of Marlow Wharf, near the ferry.")
    assert title_named(flat, "Marlow Wharf — building history") == "marlow wharf"
    assert title_named(flat, "Harbour Mills — building history") is None


def test_a_first_hop_reaches_the_page_of_the_building_its_own_title_also_names() -> None:
    hits = [hit("unit#0", "A quiet one-bedroom flat on the third floor of Marlow Wharf, near the ferry. "
                          "Asking price £310,000 (2025).", 0.8, "hybrid", title="Unit 4C, Marlow Wharf — For Sale"),
            hit("wharf#0", "Marlow Wharf was built as a grain store in 1871. It was converted into 30 flats in "
                           "2003.", 0.5, "hybrid", title="Marlow Wharf — building history")]
    q = question("In which year was the building that contains Unit 4C converted into flats?", hits)
    best = find_evidence(q, hits)[0]
    assert best.bridge and best.span is not None and best.span.text == "2003"
    assert write("In which year was the building that contains Unit 4C converted into flats?", hits)[2] == "2003"
