"""Where a bridge ends: the attribute asked by the kind of answer (a birth's place for "In which city was …
born?", not only for "Where …"); the entity a question describes reached through its name in the named entity's
page (a Chinese place cut at the kind asked, a sentence that writes the description's words, a role holder's own
page). Invented pages (a film and its composer, a paper mill and its town, a ferry company), in domains no dev
set holds."""

from __future__ import annotations

import pytest

from graphs.rag.answer import chains
from tests.support.fakes import hit

FERRY = hit("ferry#0", "Winter Ferry is a 1960 Norwegian film shot in Bergen. The music is by Arne Lid.",
            title="Winter Ferry")
ARNE = hit("arne#0", "Arne Lid was a Norwegian composer. He wrote four symphonies and a violin concerto.",
           title="Arne Lid")
ARNE_BORN = hit("arne#0", "Arne Lid was a Norwegian composer, born in Tromso. He wrote four symphonies.",
                title="Arne Lid")
@pytest.mark.parametrize(("question", "attribute"), [
    ("In which city was the composer of Winter Ferry born?", "birth_place"),
    ("What town did the director of Glass Orchard die in?", "death_place"),
    ("In what year was the composer of Winter Ferry born?", "birth_date"),
    ("青崖天文台台长出生在哪个县？", "birth_place"),
    # a birth in a clause on the way is not what is asked
    ("In which year was the film directed by the man born in Oslo released?", "release_date"),
    ("Who is the man born in Oslo?", None),
    # both events named: neither is taken by the kind alone
    ("Which city was the composer of Winter Ferry born in, and where did he die?", "death_place"),
])
def test_a_birth_or_death_is_asked_by_the_kind_of_answer(question: str, attribute: str | None) -> None:
    assert chains.asked_of(question) == attribute


def test_a_birthplace_asked_by_the_kind_of_answer_is_followed_to_the_entity_reached() -> None:
    followed = chains.follow("In which city was the composer of Winter Ferry born?", [FERRY, ARNE_BORN])
    assert isinstance(followed, chains.Followed) and followed.answer == "Tromso"
    # the composer's passage states no birth: the film's own city is no answer
    broken = chains.follow("In which city was the composer of Winter Ferry born?", [FERRY, ARNE])
    assert isinstance(broken, chains.Broken) and broken.entity == "arne lid"


# -- a described entity reached through its name in the named entity's page, the page looked up


def _page(doc: str, title: str, text: str):
    return hit(f"{doc}#0", text, title=title)


MILL = _page("mill", "白沙纸坊", "白沙纸坊坐落在柳湾镇以北的河滩上，始建于1921年。纸坊的竹帘由英国的 Penrose Screen Works 编织。")
LIUWAN = _page("liuwan", "柳湾镇", "柳湾镇位于柳江下游，1950年设镇，全镇常住人口约1.8万。")
PENROSE = _page("penrose", "Penrose Screen Works", "Penrose Screen Works is a small company in Hexley. It employs "
                                                  "about 85 people and weaves wire and bamboo screens.")


def _lookup(pages):
    def find(name: str):
        return [p for p in pages if name.endswith(p.title) or chains.same_name(p.title, name)]
    return find


def test_a_chinese_place_is_cut_at_the_kind_asked_not_at_a_kind_inside_its_name() -> None:
    # 湾 (a bay) is a kind word inside the name: the run goes on to the kind asked, 镇, the words before the
    # name left in it for the lookup (which keeps a page whose title the run ends with)
    assert chains._zh_runs_of_kind("白沙纸坊坐落在柳湾镇以北的河滩上", {"镇"}) == ["坊坐落在柳湾镇"]
    reached = chains.described("白沙纸坊所在的镇有多少常住人口？", [MILL], lookup=_lookup([LIUWAN, PENROSE]))
    assert reached is not None and reached.passage.title == "柳湾镇"
    assert reached.steps == [(0, MILL.text.split("。")[0] + "。")]


def test_the_sentence_that_writes_the_descriptions_words_links_without_a_kind_noun() -> None:
    # "竹帘由 … 编织" writes no 公司, but it writes the description's 编织: the name there is looked up
    reached = chains.described("为白沙纸坊编织竹帘的那家公司有多少员工？", [MILL], lookup=_lookup([LIUWAN, PENROSE]))
    assert reached is not None and reached.passage.title == "penrose screen works"
    # a sentence that shares none of the description's words does not send its names to the lookup
    assert chains.described("为白沙纸坊修船的那家公司有多少员工？", [MILL], lookup=_lookup([LIUWAN, PENROSE])) is None


ORRIN = hit("orrin#0", "Orrin Ferries is a ferry company that sails from Kessford to the Tarn Isles.",
            title="Orrin Ferries")
MAUD = hit("maud#0", "Maud Levesque is a Canadian engineer, born in Trois-Pistoles. Since 2015 she has been the "
                     "managing director of Orrin Ferries.", title="Maud Levesque")


def test_a_role_holder_is_reached_from_her_own_page_that_names_the_entity_and_the_role() -> None:
    # the company's page does not name its director; her page names the company and the role in one sentence
    reached = chains.described("In which city was the managing director of Orrin Ferries born?", [ORRIN, MAUD])
    assert reached is not None and reached.passage.title == "maud levesque" and reached.by_role
    # a page that names the company without the role is no holder of it
    other = hit("maud#0", "Maud Levesque is a Canadian engineer. She crossed with Orrin Ferries in 2015.",
                title="Maud Levesque")
    assert chains.described("In which city was the managing director of Orrin Ferries born?", [ORRIN, other]) is None
