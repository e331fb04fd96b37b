"""Bridges whose hops cross the two languages, on own invented documents (#24): a Chinese question describes an
entity (X总部所在的那个小镇) that an English page is about, and an English question one that a Chinese page names
in brackets (青杉瓷砖（Qingshan Tiles）); the kind nouns match across languages (镇 = town, 公司 = firm), the
second hop's page is looked up by the name the first hop's sentence writes next to the kind noun when the
retrieval did not bring it, and what is asked is read there by the lexicon's words of either language. The twin:
a second hop that does not state what is asked is not answered."""

from __future__ import annotations

from graphs.domain import Hit
from graphs.rag.answer import chains
from tests.support.answers import chain_answer as ask
from tests.support.fakes import hit

LOOMS = hit("looms#0", "Halden Looms is a weaving firm set up in 2001 by the designer Lin Xiang. Its head office "
                       "is in Mossbury, a mill town on the River Tain, and about 60 people work there.",
            title="Halden Looms")
MOSSBURY = hit("moss#0", "Mossbury is a small town in the Tain valley. It was founded in 1366 around a fulling mill. "
                         "About 12,300 people live there.", title="Mossbury - Valleywiki")
LIN = hit("lin#0", "林湘，1970年生，纺织设计师。2001年她在英国创办了织布公司 Halden Looms，并担任设计总监。", title="林湘")
TILES = hit("tiles#0", "青杉瓷砖（Qingshan Tiles）是一家瓷砖公司，2009年创立，总部设在英国小镇 Mossbury。", title="青杉瓷砖")


def test_a_chinese_description_with_modifiers_reaches_the_english_page_of_that_kind() -> None:
    out = ask("Halden Looms 总部所在的那个小镇是哪一年建立的？", [LOOMS, MOSSBURY])
    assert isinstance(out, tuple) and out[0] == "1366"
    assert "Its head office is in Mossbury" in out[1] and "[1]" in out[1] and "[2]" in out[1]


def test_the_second_hop_is_looked_up_by_the_name_the_first_hop_writes_next_to_the_kind_noun() -> None:
    def lookup(name: str) -> list[Hit]:
        return [MOSSBURY] if name.casefold() == "mossbury" else []

    out = ask("Halden Looms 总部所在的小镇有多少居民？", [LOOMS], lookup)
    assert isinstance(out, tuple) and out[0] is not None and "12,300" in out[0]
    assert ask("Halden Looms 总部所在的小镇有多少居民？", [LOOMS]) is None  # without the page: no answer made up


def test_an_english_question_names_the_chinese_page_by_its_bracketed_name() -> None:
    out = ask("How many people live in the town where Qingshan Tiles has its headquarters?", [TILES, MOSSBURY])
    assert isinstance(out, tuple) and out[0] is not None and "12,300" in out[0]


def test_the_asked_attribute_is_read_in_the_other_languages_page_by_the_lexicon() -> None:
    out = ask("林湘创办的公司总部设在哪个小镇？", [LIN, LOOMS])
    assert isinstance(out, tuple) and out[0] == "Mossbury"
    out = ask("林湘创办的公司有多少名员工？", [LIN, LOOMS])
    assert isinstance(out, tuple) and out[0] is not None and "60" in out[0]


def test_a_second_hop_that_does_not_state_what_is_asked_is_no_answer() -> None:
    out = ask("Halden Looms 总部所在的小镇的镇长是谁？", [LOOMS, MOSSBURY])
    assert not isinstance(out, tuple)


def test_kind_nouns_cross_the_languages() -> None:
    assert {"镇", "town"} <= chains.kind_nouns(chains.passages_of([MOSSBURY])[0], MOSSBURY.title)
    assert {"公司", "company"} <= chains.kind_nouns(chains.passages_of([LOOMS])[0], LOOMS.title)


def test_a_birthplace_written_after_the_family_one_is_born_into() -> None:
    song = hit("song#0", '"Lanterns Over Tain" is a song written by Orrin Vale that was released in 1961.',
               title="Lanterns Over Tain")
    writer = hit("vale#0", "Orrin Vale (1931 – 2009) was a songwriter and fiddler. Born into a family of ferrymen in "
                           "Port Hessle, Vale played at dances from the age of twelve.", title="Orrin Vale")
    out = ask("Where was the composer of song Lanterns Over Tain born?", [song, writer])
    assert isinstance(out, tuple) and out[0] is not None and "Port Hessle" in out[0]
