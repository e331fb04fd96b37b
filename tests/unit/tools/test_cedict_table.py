"""The dictionary table's builder: CC-CEDICT lines to headword → cleaned senses."""

from __future__ import annotations

import gzip
from pathlib import Path

from app.tools.cedict_table import build, senses


def test_senses_are_cleaned_of_asides_infinitives_and_references() -> None:
    assert senses("to expedite/(of a delivery etc) expedited/urgent/") == ["expedite", "expedited", "urgent"]
    assert senses("CL:個|个[ge4]/variant of 译[yi4]/see 翻译[fan1 yi4]/") == []
    assert senses("a very long definition that says far more than any word a text writes/hall") == ["hall"]
    assert senses("sum or volume of business; turnover/") == ["sum or volume of business", "turnover"]


def test_build_keeps_chinese_headwords_of_two_characters_or_more(tmp_path: Path) -> None:
    source = tmp_path / "cedict.txt.gz"
    source.write_bytes(gzip.compress("\n".join([
        "# CC-CEDICT",
        "展廳 展厅 [zhan3 ting1] /exhibition hall/showroom/",
        "廳 厅 [ting1] /hall/",
        "春節 春节 [Chun1 jie2] /Spring Festival (Chinese New Year)/",
        "A型 A型 [A xing2] /type A/",
    ]).encode("utf-8")))
    target = tmp_path / "table.tsv.gz"
    assert build(str(source), str(target)) == 2
    lines = gzip.decompress(target.read_bytes()).decode("utf-8").splitlines()
    assert lines == ["展厅\texhibition hall|showroom", "春节\tspring festival"]


def test_the_shipped_table_carries_its_licence_beside_it() -> None:
    """The dictionary is CC BY-SA 4.0 data in an Apache-2.0 project: its attribution and licence ship beside it (in
    the package, so a wheel carries both) and the README names it."""
    text = Path(__file__).parents[3] / "graphs" / "text"
    notice = (text / "cedict.LICENSE.txt").read_text(encoding="utf-8")
    assert (text / "cedict.tsv.gz").is_file()
    assert "CC-CEDICT" in notice and "CC BY-SA 4.0" in notice and "MDBG" in notice
    readme = (Path(__file__).parents[3] / "README.md").read_text(encoding="utf-8")
    assert "cedict.LICENSE.txt" in readme and "CC BY-SA 4.0" in readme
