"""Text normalization shared by every entity match: width, case, script, whitespace, pinyin."""

from __future__ import annotations

import functools
import re
import unicodedata
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from opencc import OpenCC

_WHITESPACE = re.compile(r"\s+")
# After NFKC, compatibility ideographs are folded into these blocks.
_HAN = re.compile("[\u3400-\u9fff\U00020000-\U0003ffff]")


@functools.cache
def _t2s() -> OpenCC:
    """Build the traditional-to-simplified converter once, on first use (it loads dictionaries)."""
    from opencc import OpenCC

    return OpenCC("t2s")


def has_han(text: str) -> bool:
    """Whether ``text`` is Chinese: it contains a Chinese character (the one such test of the code base)."""
    return _HAN.search(text) is not None


@functools.lru_cache(maxsize=131072)
def normalize(text: str) -> str:
    """Fold width (NFKC), case and Chinese script (traditional → simplified); collapse whitespace."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if has_han(folded):
        folded = _t2s().convert(folded)
    return _WHITESPACE.sub(" ", folded).strip()


@functools.lru_cache(maxsize=131072)
def pinyin_variants(text: str, limit: int = 8) -> tuple[str, ...]:
    """Spell ``text`` in toneless pinyin for each reading of its polyphones (at most ``limit``), likeliest first."""
    from pypinyin import Style, pinyin

    readings = [""]
    for options in pinyin(text, style=Style.NORMAL, heteronym=True):
        readings = [prefix + option for prefix in readings for option in options][:limit]
    spelled = ("".join(ch for ch in reading.lower() if ch.isalnum()) for reading in readings)
    return tuple(dict.fromkeys(spelled))


_PINYIN_SPELLING = re.compile(r"[a-z0-9\u00c0-\u024f' ’-]+")


def toneless(text: str) -> str | None:
    """A Latin spelling folded for pinyin matching: lowercase letters and digits, tone marks, spaces and
    apostrophes dropped ("Rén Zhèngfēi" → "renzhengfei"); None when ``text`` is not such a spelling."""
    folded = text.casefold().strip()
    if not folded or not _PINYIN_SPELLING.fullmatch(folded):
        return None
    return "".join(ch for ch in unicodedata.normalize("NFKD", folded) if ch.isascii() and ch.isalnum()) or None
