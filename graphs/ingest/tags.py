"""How automatic entity tags are chosen: each tag found in a document gets a confidence, and only tags at or
above ``TAG_MIN_CONFIDENCE`` become the chunk's entity fields (shown on the page, used as search filters and
as knowledge-graph mentions).

The evidence, in order of strength:

1. The entity store knows the name (a gazetteer hit): 1.0. Metadata entities are not
   scored: the writer of the document named them.
2. jieba's dictionary tags the word as a name (人名 nr, 地名 ns, 机构名 nt, other proper noun nz): 0.6. Its
   dictionary also tags common nouns as person names (小溪 "brook", 小河 "creek"): a person tag on a word that
   starts with no common surname and does not look transliterated falls to 0.3.
3. The word is not in the dictionary and only looks like a name (a common surname and one or two more
   characters; a place suffix such as 镇/市/县): 0.4, a guess; a surname with a two-character given name
   (朱立伦, 吕文骏), the commonest full name, 0.6. A guess gains 0.2 when the document names it again
   (a real name recurs: 马云 in an article about him; a fragment of the segmenter's does not). A place guess
   of one character and its suffix (建镇 "founded a town", 名镇 "famous town", 因镇 "because the town") is a
   fragment of a phrase: 0.2, whatever the repetition.

The threshold sits between a corroborated guess (0.6) and an uncorroborated one (0.4): a single piece of
weak evidence never makes a filter. Capitalised Latin words are never tags (too noisy to filter on).
"""

from __future__ import annotations

from collections.abc import Iterable

from graphs.domain import EntityType, QueryEntity

TAG_MIN_CONFIDENCE = 0.5
"""Automatic tags below this are neither shown as entities nor used as filters."""
DICTIONARY = 0.6
GUESS = 0.4
SURNAMES = frozenset(
    "王李张刘陈杨黄赵吴周徐孙马朱胡郭何高林罗郑梁谢宋唐许韩冯邓曹彭曾肖田董袁潘蒋蔡余杜叶程苏魏吕丁任沈"
    "姚卢姜崔钟谭陆汪范金石廖贾夏韦傅方白邹孟熊秦邱江尹薛闫段雷侯龙史陶黎贺顾毛郝龚邵万钱严覃武戴莫孔向汤"
    "樊于常葛温易康伍庞柳申殷施鲁祝兰牛洪岳齐包游芦左安靳辛蓝关焦俞车仇颜倪聂甘章柯卜费毕邢窦阎谷麦"
    "单祁季纪舒骆凌盛晏翁詹霍戚苗滕邬"
    "欧阳司马上官诸葛令狐慕容尉迟耶律")
# Characters that spell foreign names in Chinese (马斯克, 特朗普, 莎士比亚): most of such a word is made of them.
TRANSLITERATION = frozenset("阿艾安奥巴拜班邦贝比彼布达戴德迪蒂杜多厄尔法菲弗福盖格古哈海汉赫亨胡霍基吉加杰金卡凯"
                            "坎科克肯库拉莱兰朗劳勒雷里利莉林卢鲁伦罗洛马迈曼梅门蒙米姆纳奈南内尼努诺帕佩皮普奇乔琼"
                            "萨塞桑森沙莎什史士斯苏索塔泰坦汤特提图托瓦威维温沃乌西希谢辛休雅亚扬伊英尤约泽詹兹佐"
                            "翰廉汀琳娅丽妮黛芙蕾薇露丝蒂")


def transliterated(word: str) -> bool:
    """Whether a word looks like a transliterated foreign name (every character spells a sound, or most of a
    longer word's: 约翰, 梅森, 路易十四 is not, 莎士比亚 is)."""
    spelled = sum(ch in TRANSLITERATION for ch in word)
    return spelled == len(word) if len(word) <= 2 else spelled * 3 >= len(word) * 2


def tag_confidence(entity: QueryEntity, mentions: int = 1) -> float:
    """The confidence of an automatic tag (see the module docstring); ``mentions``: how often the document
    names the word."""
    if entity.source != "pos":
        return entity.confidence
    word = entity.text
    if entity.confidence >= DICTIONARY:  # the dictionary tags it
        if entity.type == "PERSON" and word[0] not in SURNAMES and word[:2] not in SURNAMES \
                and not transliterated(word):
            return 0.3
        return DICTIONARY
    if entity.type == "LOCATION" and len(word) <= 2:
        return 0.2
    if entity.type == "PERSON" and len(word) == 3 and word[0] in SURNAMES:
        return DICTIONARY  # a surname and a two-character given name: the commonest full name
    return min(GUESS + (0.2 if mentions >= 2 else 0.0), DICTIONARY)


def confident_tags(found: Iterable[QueryEntity], document: str) -> dict[EntityType, list[str]]:
    """The tags (no dates) of entities found in a text that reach ``TAG_MIN_CONFIDENCE``; ``document``: the
    whole document's text, where repetition is counted."""
    raw: dict[EntityType, list[str]] = {}
    for e in found:
        if e.type == "DATE" or e.source not in ("gazetteer", "pos"):
            continue
        if tag_confidence(e, document.count(e.text)) >= TAG_MIN_CONFIDENCE:
            raw.setdefault(e.type, []).append(e.text)
    return raw
