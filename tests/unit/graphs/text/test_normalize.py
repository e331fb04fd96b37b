"""Tests of text normalization and pinyin spelling."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from graphs.text.normalize import has_han, normalize


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
