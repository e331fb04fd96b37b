"""Text normalization shared by every entity match: width, case, script, whitespace, pinyin."""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from opencc import OpenCC

_WHITESPACE = re.compile(r"\s+")
_TYPESET_SPACE = re.compile(r"(?<=\d) (?=[\u4e00-\u9fff])|(?<=[\u4e00-\u9fff]) (?=\d)")
"""A space typeset between a number and the Chinese around it ("2025 年全年", "共向 46 户"): no word boundary in
Chinese, so "2025 年" is the question's 2025年."""
# After NFKC, compatibility ideographs are folded into these blocks.
_HAN = re.compile("[\u3400-\u9fff\U00020000-\U0003ffff]")


@functools.cache
def _t2s() -> OpenCC:
    """Build the traditional-to-simplified converter once, on first use (it loads dictionaries)."""
    from opencc import OpenCC

    return OpenCC("t2s")


@functools.cache
def _convertible() -> frozenset[str] | None:
    """Every character with which a traditional-to-simplified conversion can start to change a text: the keys of
    the character dictionary, and one character of each phrase made of none of them. A text holding none is
    returned unchanged by the converter, which costs ~25 ms a 1,000-character page on 2 cores (pure Python), so
    simplified text skips it. None (always convert) when the dictionaries are not where the package keeps them."""
    import opencc

    folder = Path(opencc.__file__).parent / "dictionary"
    try:
        with (folder / "TSCharacters.txt").open(encoding="utf-8") as fh:
            chars = {line.split("\t", 1)[0] for line in fh if line.strip()}
        with (folder / "TSPhrases.txt").open(encoding="utf-8") as fh:
            phrases = [line.split("\t", 1)[0] for line in fh if line.strip()]
    except OSError:
        return None
    return frozenset(chars | {p[0] for p in phrases if p and not any(c in chars for c in p)})


def _t2s_if_needed(text: str) -> str:
    convertible = _convertible()
    if convertible is not None and convertible.isdisjoint(text):
        return text
    return _t2s().convert(text)


def has_han(text: str) -> bool:
    """Whether ``text`` is Chinese: it contains a Chinese character (the one such test of the code base)."""
    return _HAN.search(text) is not None


_KANA = re.compile("[\u3040-\u30ff\u31f0-\u31ff\uff66-\uff9d]")


def reply_language(text: str) -> Literal["zh", "ja", "en"]:
    """The language the service's own fixed sentences (a "not found", a note that an upload is still being
    indexed) are written in for a question: Japanese when it holds kana (a Japanese sentence mixes kana with the
    Chinese characters ``has_han`` sees, and was answered in Chinese), Chinese when it holds Chinese characters,
    else English — also for a language those sentences are not written in (Korean, French, ...)."""
    if _KANA.search(text):
        return "ja"
    if not has_han(text):
        return "en"
    return "en" if _ENGLISH_FRAME.match(text) and not _CHINESE_FRAME.search(text) else "zh"


# An English question that names something in Chinese ("Who runs 林氏木工坊?") is English: it opens with an
# English question word and its Chinese is a name, holding no Chinese question word or particle.
_ENGLISH_FRAME = re.compile(
    r"^\W*(?:who|whom|whose|what|when|where|which|why|how|is|are|was|were|do|does|did|can|could|will|would|"
    r"should|has|have|had|tell|list|name|give|show|find)\b", re.IGNORECASE)
_CHINESE_FRAME = re.compile("[谁誰哪几幾吗嗎呢么麼啥怎是的了在有]|多少|何时|如何|为何")


def han_count(text: str) -> int:
    """How many Chinese characters ``text`` holds."""
    return len(_HAN.findall(text))


@functools.lru_cache(maxsize=131072)
def normalize(text: str) -> str:
    """Fold width (NFKC), case and Chinese script (traditional → simplified); collapse whitespace (and drop it
    between a number and Chinese: "2025 年" is 2025年)."""
    folded = unicodedata.normalize("NFKC", text).casefold()
    if has_han(folded):
        folded = _t2s_if_needed(folded)
    return _TYPESET_SPACE.sub("", _WHITESPACE.sub(" ", folded)).strip()


_FILE_SEPARATORS = re.compile(r"[_\-.+~]+")


def file_subject(source: str | None, doc_id: str) -> str:
    """The folded words of the file name of a document that is a file of its own (its id is its file's path):
    "鸿源银行_个人住房贷款批贷通知书.docx" → "鸿源银行 个人住房贷款批贷通知书". A user names a file for what it is
    about, and every passage of it is about that, where its title is generic and the passage names no one; a
    line of a JSONL corpus (its own id) is no file's subject: ""."""
    if not source or doc_id != source:
        return ""
    name = source.replace("\\", "/").rsplit("/", 1)[-1]
    stem = name.rsplit(".", 1)[0] if "." in name else name
    return normalize(_FILE_SEPARATORS.sub(" ", stem))


def without_names(text: str, names: Iterable[str]) -> str:
    """A text with every name it writes blanked to a space, longest name first, in any case: what a question asks
    of its subjects ("What is the price of the Aquapure X300?" less "Aquapure X300"; 正山小种 out of 茉莉花茶跟正山小种，哪样
    贵一点, so its 小 is no comparative). Callers choose which names count and tidy the rest."""
    for name in sorted(names, key=len, reverse=True):
        if name:
            text = re.sub(re.escape(name), " ", text, flags=re.IGNORECASE)
    return text


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
