"""A name written in the other script: by pinyin and by the aliases passages write in brackets."""

from __future__ import annotations

import pytest

from graphs.text.scripts import aliases, other_script


@pytest.mark.parametrize(("name", "texts", "spelled"), [
    # a Latin name's transliterated word read as Chinese characters of the passage (the kind words translated)
    ("songhe city museum", ["松河市博物馆每周二闭馆。"], "松河"),
    ("lu wenqing", ["本届评审组组长为陆文清。"], "陆文清"),
    # a Chinese name read as Latin words of the passage: a pinyin name in two words, a transliterated one
    ("方志远", ["The award went to Fang Zhiyuan of Ningbo."], "fang zhiyuan"),
    # a transliteration no pinyin reading finds, read by the fitted cross-language score (graphs.text.name_match)
    ("柯林斯顿", ["Collinston lies on the north bank."], "collinston"),
    ("梅尔伯恩图书馆", ["Merbourne library opens at nine."], "merbourne library"),
    # the alias the passage writes in brackets, either way round
    ("布里斯代尔", ["工厂设在英国布里斯代尔（Brisdale）。"], "brisdale"),
    ("brisdale", ["工厂设在英国布里斯代尔（Brisdale）。"], "布里斯代尔"),
    ("northgate foods", ["宁波北门食品有限公司（英文名 Northgate Foods）成立于2009年。"], "北门食品"),
    ("青柚科技", ["The studio Pomelo Labs (青柚科技) makes games."], "pomelo labs"),
])
def test_a_name_is_found_in_the_other_script(name: str, texts: list[str], spelled: str | None) -> None:
    assert other_script(name, texts) == spelled


@pytest.mark.parametrize(("name", "texts"), [
    ("qinghe library", ["青檀市图书馆借阅规则"]),      # another name: qinghe is not qingtan
    ("wu jianguo", ["本届评审组组长为陆文清。"]),
    ("陆文清", ["The jury was chaired by Lu Wenjing."]),  # one syllable off in a three-syllable name
    ("city library", ["市图书馆"]),                      # kind words alone are translated, never read as pinyin
])
def test_a_different_name_is_not_taken_for_it(name: str, texts: list[str]) -> None:
    assert other_script(name, texts) is None


def test_aliases_pair_the_chinese_run_and_the_capitalised_latin_name() -> None:
    pairs = aliases(["the company Pomelo Labs (青柚科技) and 杭州青柚科技有限公司（英文名 Pomelo Labs）"])
    assert ("青柚科技", "pomelo labs") in pairs
    assert all(latin == "pomelo labs" for _, latin in pairs)  # "the company" is not part of the name
