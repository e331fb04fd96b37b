"""A space typeset between a number and Chinese is no boundary: "2025 年" is 2025年 (i24-values14)."""

from graphs.text.normalize import normalize


def test_a_space_between_a_number_and_chinese_is_dropped() -> None:
    assert normalize("2026 年全年共收购茶青 58.3 吨") == "2026年全年共收购茶青58.3吨"
    assert normalize("第 4 届 年会") == "第4届 年会"


def test_spaces_between_latin_words_and_numbers_stay() -> None:
    assert normalize("The 2025 Report, page 3") == "the 2025 report, page 3"
    assert normalize("Model X 2 手册") == "model x 2手册"
