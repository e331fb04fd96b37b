"""Qualifiers bound to the evidence sentence: a sentence that states the asked fact for another year, date,
edition, place or organization is no evidence, even in a passage that mentions the question's qualifier
elsewhere; the sentence before it, its title and its chunk's own date bind a qualifier too."""

from __future__ import annotations

from graphs.rag.answer.qualifiers import Conflict, bind, other_names, qualifiers
from graphs.text.normalize import normalize


def test_a_sentence_of_another_year_conflicts_even_where_its_passage_names_the_asked_year() -> None:
    found = qualifiers("How many visitors did the 2019 Harbour Lights festival draw?", {})
    binding = bind(found, normalize("In 2017 the festival drew 80,000 visitors."),
                   near=normalize("Harbour Lights festival"))
    assert binding.bound == 0.0 and binding.conflicts == (Conflict("year", "2019", "2017"),)
    assert bind(found, normalize("The 2019 edition drew 95,000 visitors.")).conflicts == ()


def test_the_sentence_before_and_the_chunks_own_date_bind_a_year() -> None:
    found = qualifiers("2021年清河马拉松有多少人完赛？", {})
    sentence = normalize("全程共有1.2万人完赛，创下纪录。")
    assert bind(found, sentence).bound == 0.0
    assert bind(found, sentence, near=normalize("2021年清河马拉松于4月举行。")).bound == 1.0
    assert bind(found, sentence, date=20210418).bound == 1.0  # the chunk's own date (a dated news item)
    assert bind(found, sentence, date=20190418).bound == 0.0


def test_another_edition_and_another_day_conflict() -> None:
    edition = qualifiers("第六届丝路电影节的开幕影片是哪部？", {})
    assert bind(edition, normalize("第五届丝路电影节以《长安》作为开幕影片。")).conflicts == (
        Conflict("ordinal", "第六届", "第5届"),)
    assert bind(edition, normalize("第五届电影节上，第六届的筹备已经启动。")).conflicts == ()  # it states 第六届
    day = qualifiers("What was announced at the March 14 briefing?", {})
    assert [q.kind for q in day] == ["date"] and qualifiers("3月14日发布会宣布了什么？", {})[0].forms[0] == day[0].forms[0]
    assert bind(day, normalize("在3月9日的发布会上，公司宣布了新的定价。")).conflicts[0].kind == "date"
    assert bind(day, normalize("3月14日的发布会上，公司宣布了新的定价。")).conflicts == ()


def test_a_number_or_a_rare_word_never_conflicts() -> None:
    found = qualifiers("5号线的首班车几点发车？", {})
    assert all(c.kind not in ("number", "word") for c in bind(found, normalize("3号线首班车6点发车。")).conflicts)


def test_another_place_or_organization_of_the_kind_the_question_names_conflicts() -> None:
    asked = [(("葡萄牙",), "LOCATION"), (("北方航空",), "ORGANIZATION")]
    sentence = normalize("西班牙去年的软木产量约为6万吨。")
    assert other_names(asked, sentence, {"西班牙": "LOCATION"}) == [Conflict("place", "葡萄牙", "西班牙")]
    assert other_names(asked, normalize("葡萄牙去年的软木产量约为10万吨。"), {"葡萄牙": "LOCATION"}) == []
    # the place that answers a where question is no conflict
    assert other_names(asked, sentence, {"西班牙": "LOCATION"}, skip="LOCATION") == []
    assert other_names(asked, normalize("南方航空的机队有600架飞机。"), {"南方航空": "ORGANIZATION"}) == [
        Conflict("organization", "北方航空", "南方航空")]


def test_a_sentence_that_refers_back_takes_its_contexts_value() -> None:
    """"本届" (this edition) or "that year" in the answering sentence: the sentence before says which."""
    edition = qualifiers("第七届西湖书展展出了多少种图书？", {})
    sentence = normalize("本届书展共展出图书1.2万种。")
    assert bind(edition, sentence, near=normalize("第六届西湖书展于5月开幕。")).conflicts == (
        Conflict("ordinal", "第七届", "第6届"),)
    assert bind(edition, sentence, near=normalize("第七届西湖书展于5月开幕。")).conflicts == ()
    # a sentence stating its own value is judged by it, not by its context
    assert bind(edition, normalize("第七届书展展出图书1.2万种。"), near=normalize("第六届书展于去年举行。")).conflicts == ()


def test_an_english_ordinal_of_the_same_noun_is_another_edition() -> None:
    """"the third Lakeside Book Fair" for "the fifth": the noun after the ordinal is its counter, as 届 is."""
    found = qualifiers("Who opened the fifth Lakeside Book Fair?", {})
    assert bind(found, normalize("The third Lakeside Book Fair was opened by the mayor.")).conflicts == (
        Conflict("ordinal", "fifth lakeside", "third lakeside"),)
    assert bind(found, normalize("The fifth Lakeside Book Fair was opened by Ana Ruiz.")).conflicts == ()
    # another noun counted is no conflict: the first day of the fair is not another fair
    assert bind(found, normalize("On the first day the fair drew 4,000 visitors.")).conflicts == ()
    album = qualifiers("Which label released the band's second album?", {})
    assert bind(album, normalize("Their fourth album was released by Dune Records.")).conflicts[0].kind == "ordinal"


def test_another_version_of_the_same_name_conflicts() -> None:
    found = qualifiers("What changed in Halyard 3.2?", {})
    assert [q.kind for q in found] == ["version"]
    assert bind(found, normalize("Halyard 3.4 added a plugin system.")).conflicts == (
        Conflict("version", "halyard 3.2", "halyard 3.4"),)
    assert bind(found, normalize("Halyard 3.2 fixed the scheduler; Halyard 3.4 added plugins.")).conflicts == ()
    assert bind(qualifiers("When did Route 9 open?", {}), normalize("Route 12 opened in 1961.")).conflicts[0].kind \
        == "version"
    # a year or a preposition before a number is no version
    assert all(q.kind != "version" for q in qualifiers("What did Mira Holt publish in 2019?", {}))
    assert all(q.kind != "version" for q in qualifiers("What happened on 12 May?", {}))


def test_a_month_names_the_event_and_another_months_sentence_conflicts() -> None:
    """"9月台风" is not the typhoon of 6月; "the April storms" are not the March ones (a month-day states its month)."""
    found = qualifiers("梧州9月台风造成多少户房屋受损？", {})
    assert [(q.kind, q.forms[0]) for q in found] == [("month", "9月")]
    assert bind(found, normalize("6月12日，台风过境梧州，1800户房屋受损。")).conflicts == (
        Conflict("month", "9月", "6月"),)
    assert bind(found, normalize("9月3日台风登陆，梧州共有2600户房屋受损。")).conflicts == ()
    assert bind(found, normalize("九月份的台风使2600户房屋受损。")).conflicts == ()
    storms = qualifiers("How many homes lost power in the April storms in Dunmore?", {})
    assert [q.kind for q in storms] == ["month"]
    assert bind(storms, normalize("On 2 March storms cut power to 900 homes in Dunmore.")).conflicts[0].kind == "month"
    assert bind(storms, normalize("The storms of April cut power to 900 homes.")).conflicts == ()


def test_a_month_is_not_read_inside_another_or_from_a_range_or_a_verb() -> None:
    # 1-10月 is a range of months, not 1月10日 nor the month 10月
    assert all(q.kind not in ("month", "date") for q in qualifiers("1-10月全省的出口额是多少？", {}))
    assert all(q.kind != "month" for q in qualifiers("What may the council decide?", {}))
    found = qualifiers("1月的降雪量是多少？", {})
    assert bind(found, normalize("11月降雪量为30毫米。")).conflicts == (Conflict("month", "1月", "11月"),)


def test_a_counted_part_of_an_event_in_either_order_is_the_same_part_and_another_number_conflicts() -> None:
    found = qualifiers("Who won stage three of the Tour of Arlen?", {})
    assert [(q.kind, q.counter) for q in found] == [("ordinal", "stage")]
    assert bind(found, normalize("Marek Lind won the third stage of the Tour of Arlen.")).conflicts == ()
    assert bind(found, normalize("Stage 3 went to Marek Lind.")).conflicts == ()
    assert bind(found, normalize("Stage two of the Tour of Arlen was won by Ivo Brandt.")).conflicts == (
        Conflict("ordinal", "stage 3", "stage 2"),)
    assert bind(found, normalize("The fourth stage ended in a sprint.")).conflicts == (
        Conflict("ordinal", "stage 3", "stage 4"),)
    # another noun counted is no conflict; a season's year is no counted part
    assert bind(found, normalize("On day two the riders crossed the pass.")).conflicts == ()
    assert all(q.kind != "ordinal" for q in qualifiers("Who won the 2021 season?", {}))
    first = qualifiers("首轮比赛中谁淘汰了卫冕冠军？", {})
    assert bind(first, normalize("第二轮比赛中，林岚淘汰了卫冕冠军。")).conflicts == (Conflict("ordinal", "首轮", "第2轮"),)
    assert bind(first, normalize("第一轮比赛中，林岚淘汰了卫冕冠军。")).conflicts == ()


def test_another_group_or_stage_of_the_same_row_conflicts() -> None:
    """The half marathon's winner for the full marathon's, the men's count for the women's, the semi-final for the
    final; a sentence that states the asked group beside others, or no group at all, does not conflict."""
    found = qualifiers("沙洲半程马拉松女子冠军是谁？", {})
    assert {(q.kind, q.forms[0]) for q in found} >= {("group", "半程"), ("group", "女子")}
    assert bind(found, normalize("全程女子冠军由韦晴获得。")).conflicts == (Conflict("group", "半程", "全程"),)
    assert bind(found, normalize("半程男子冠军为钟航。")).conflicts == (Conflict("group", "女子", "男子"),)
    assert bind(found, normalize("半程女子冠军为程雪，男子冠军为钟航。")).conflicts == ()
    assert bind(found, normalize("比赛于清晨开跑。")).conflicts == ()
    final = qualifiers("Who scored in the women's final at Penrose?", {})
    assert [c.stated for c in bind(final, normalize("In the women's semi-final Ada Roe scored twice.")).conflicts] \
        == ["semi-final"]
    assert bind(final, normalize("Ada Roe scored in the women's final.")).conflicts == ()
    # a question that names both groups compares them: no qualifier of that row
    assert all(q.kind != "group" for q in qualifiers("男子组和女子组各有多少人？", {}))


def test_a_sentence_that_states_its_own_group_is_not_saved_by_its_context() -> None:
    """The line before names the asked group (the men's singles); the answering line states its own (the women's
    doubles): another group's fact. A year is not judged so (a sentence may give a comparison's base year)."""
    found = qualifiers("清溪杯女子单打冠军是谁？", {})
    sentence = normalize("女子双打决赛中，陈冉和罗宁夺得女子双打冠军。")
    near = normalize("女子单打决赛因雨推迟。")
    assert bind(found, sentence, near=near).conflicts == (Conflict("group", "单打", "双打"),)
    assert bind(found, normalize("女子单打决赛中，陈冉夺冠。"), near=normalize("男子双打决赛中，罗宁夺冠。")).conflicts == ()


def test_the_chunks_own_date_binds_a_month_or_a_day_and_contradicts_another() -> None:
    month = qualifiers("松溪村水利协会十一月那次会员大会是谁记录的？", {})
    line = normalize("本次会议记录人：邵青禾")
    assert bind(month, line, date=20241102).bound == 1.0  # the minutes' header date: 2 November
    other = bind(month, line, date=20250614)  # the June minutes' recorder line
    assert other.bound < 1.0 and [c.kind for c in other.conflicts] == ["month"]
    day = qualifiers("Who chaired the tenants' meeting on 9 October 2023?", {})
    assert bind(day, normalize("Chair: Priya Banerjee"), date=20231009).conflicts == ()
    assert [c.kind for c in bind(day, normalize("Chair: Priya Banerjee"), date=20240311).conflicts] == ["date"]
    # a year is not contradicted by the chunk's date alone (a report of the year before, dated when published)
    year = qualifiers("2021年清河马拉松有多少人完赛？", {})
    assert bind(year, normalize("全程共有1.2万人完赛，创下纪录。"), date=20220110).conflicts == ()


def test_a_title_that_states_the_month_dates_the_document_not_the_day_it_was_published() -> None:
    # the sign-off of the April report, published on 8 May: its title says which month it is of
    month = qualifiers("松溪村供水站4月的运行月报是谁审核的？", {})
    line = normalize("编制：邵青禾 审核：苗立言")
    assert bind(month, line, date=20260508, heading=normalize("松溪村供水站运行月报（2026年4月）")).conflicts == ()
    other = bind(month, line, date=20260508, heading=normalize("松溪村供水站运行月报（2026年3月）"))
    assert [(c.kind, c.stated) for c in other.conflicts] == [("month", "3月")]  # the March report's
    assert [c.kind for c in bind(month, line, date=20260508).conflicts] == ["month"]  # no title: the chunk's date
    english = qualifiers("Who signed off the Tollard pumping station report for April?", {})
    sign_off = normalize("Prepared by Enid Brook; approved by Amos Pell.")
    assert bind(english, sign_off, date=20260508,
                heading=normalize("Tollard pumping station monthly report (April 2026)")).conflicts == ()
    assert [c.kind for c in bind(english, sign_off, date=20260508).conflicts] == ["month"]
