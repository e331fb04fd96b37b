"""A chunk under a heading that names its subject mentions that subject: an exhibit's label under
"## TR-08 …", a release's notes under "## 4.2.0". The chunk's text does not repeat its heading; the checks of what
the top passages mention read the heading path too (``question.passage_words``)."""

from __future__ import annotations

from graphs.rag.answer.answerability import assess
from graphs.rag.answer.evidence import find_evidence
from graphs.rag.answer.question import passage_words
from tests.support.answers import question, write
from tests.support.fakes import hit

JUG = hit("labels.html#2", "年代：明代中期｜来源：1978年出土于石桥镇｜尺寸：高21厘米\n\n壶身绘缠枝牡丹，釉色青白。",
          title="馆藏瓷器说明", section="馆藏瓷器说明 > TR-08 青花缠枝牡丹纹执壶")
BOWL = hit("labels.html#3", "年代：清代乾隆年间｜来源：2003年征集于城关镇｜尺寸：口径15厘米\n\n碗心绘折枝梅花。",
           title="馆藏瓷器说明", section="馆藏瓷器说明 > TR-11 粉彩梅花纹碗")
PLATE = hit("tiles.md#1", "Dated to about 1720. Found in 1964 in the cellar of the mill house at Ashcombe.",
            title="Delft tiles in the collection", section="Delft tiles in the collection > DT-17 Ship tile")


def test_the_heading_path_is_read_with_the_passage() -> None:
    assert "tr-08" in passage_words(JUG).lower()
    assert "tr-08" not in passage_words(BOWL).lower()


def test_a_code_only_the_heading_writes_is_stated() -> None:
    for text, hits in (("Where was exhibit DT-17 found?", [PLATE, JUG]), ("TR-08是在哪里出土的？", [JUG, BOWL])):
        q = question(text, hits)
        assert q.codes, text
        verdict = assess(q, hits, find_evidence(q, hits))
        assert "no retrieved passage states" not in verdict.reason, (text, verdict.reason)


def test_both_sides_under_their_headings_are_mentioned() -> None:
    q = question("Which is older, exhibit TR-08 or TR-11?", [JUG, BOWL])
    verdict = assess(q, [JUG, BOWL], find_evidence(q, [JUG, BOWL]))
    assert "no retrieved passage mentions" not in verdict.reason, verdict.reason


def test_a_code_no_heading_or_text_writes_is_still_unstated() -> None:
    q = question("Where was exhibit DT-19 found?", [PLATE])
    decision, reason, _, _ = write("Where was exhibit DT-19 found?", [PLATE])
    assert q.codes and decision == "not_found", reason
