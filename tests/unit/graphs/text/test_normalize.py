"""Tests of text normalization and pinyin spelling."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from graphs.text.normalize import has_han, normalize, reply_language


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("ＡＰＰＬＥ", "apple"),
        ("ｉＰｈｏｎｅ　１５", "iphone 15"),
        ("iPhone", "iphone"),
        ("Straße", "strasse"),
        ("蘋果", "苹果"),
        ("馬斯克", "马斯克"),
        ("  Elon \t\n  Musk  ", "elon musk"),
        ("魔都", "魔都"),
        ("", ""),
        ("   ", ""),
    ],
)
def test_normalize(text: str, expected: str) -> None:
    assert normalize(text) == expected


def test_normalize_is_idempotent() -> None:
    for text in ["ＡＰＰＬＥ  蘋果", "Elon Musk", "臺灣 新北"]:
        assert normalize(normalize(text)) == normalize(text)


def test_has_han() -> None:
    assert has_han("苹果 inc")
    assert not has_han("apple ｉｎｃ")


def test_converter_is_not_built_at_import() -> None:
    code = "import sys, graphs.text.normalize; assert 'opencc' not in sys.modules; assert 'pypinyin' not in sys.modules"
    subprocess.run([sys.executable, "-c", code], check=True, cwd=Path(__file__).resolve().parents[4])


@pytest.mark.parametrize(("text", "expected"), [
    ("這是一個測試", "这是一个测试"),  # characters of the character dictionary
    ("沈默是金", "沉默是金"),  # a phrase none of whose characters is in the character dictionary
    ("一目瞭然", "一目了然"),
    ("软件和軟體", "软件和软体"),
])  # fmt: skip
def test_traditional_text_is_converted_whatever_triggers_it(text: str, expected: str) -> None:
    assert normalize.__wrapped__(text) == expected


def test_simplified_text_skips_the_converter(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pure-Python converter costs ~25 ms a 1,000-character page: a text it cannot change never reaches it
    (an upload's entity and graph folding was a sixth of its ingest time)."""
    import graphs.text.normalize as module

    def refuse() -> None:
        raise AssertionError("the converter was called")

    monkeypatch.setattr(module, "_t2s", refuse)
    assert normalize.__wrapped__("星河科技的首席执行官张思远在北京发布了新的芯片。") == "星河科技的首席执行官张思远在北京发布了新的芯片。"


@pytest.mark.parametrize(("question", "language"), [
    ("薬局の鍵は誰が持っていますか？", "ja"),  # kanji and hiragana
    ("ワクチンの値段はいくらですか", "ja"),  # katakana and hiragana only
    ("ｶﾀｶﾅの質問", "ja"),  # half-width katakana
    ("药房的钥匙由谁保管？", "zh"),
    ("藥房的鑰匙由誰保管？", "zh"),  # traditional script
    ("Who keeps the pharmacy keys?", "en"),
    ("약국 열쇠는 누가 보관하나요?", "en"),  # a language the fixed sentences are not written in: English
    ("Qui garde les clés de la pharmacie ?", "en"),
    # an English question naming something in Chinese is English; a Chinese one naming something in English is not
    ("Who runs 林氏木工坊?", "en"),
    ("How much does 何明's workshop charge?", "en"),
    ("Which site does 王建华 lead, 东湖站 or 西山站?", "en"),
    ("Marcus Hale 带的是哪条线路？", "zh"),
    ("Who是谁", "zh"),
    ("What 是 RAG？", "zh"),
])
def test_reply_language_reads_kana_as_japanese_before_han_as_chinese(question: str, language: str) -> None:
    assert reply_language(question) == language
