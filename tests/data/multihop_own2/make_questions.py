"""Write questions.jsonl of the second own multi-hop set; the dev/held split is fixed here (within each category
dev, held, dev, … in the order listed: ``tests/support/own_material.write_questions``)."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_questions

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the right answer is "not found"
("bridge", "When was the town where the Vell Observatory is located founded?", ["1402"], ["vell_observatory.md", "ossery.md"]),
("bridge", "墨河大桥所在的城市建于哪一年？", ["1288"], ["墨河大桥.md", "青川市.md"]),
("bridge", "In which year was the club whose manager is Ines Calloway founded?", ["1893"], ["ines_calloway.md", "corran_athletic.md"]),
("bridge", "邓凯执教的俱乐部是哪一年成立的？", ["1994"], ["邓凯.md", "青川足球俱乐部.md"]),
("bridge", "When was the city where Harrow Park is located founded?", ["1311"], ["harrow_park.md", "wendmoor.md"]),
("bridge", "以墨河体育场为主场的俱乐部是哪一年成立的？", ["1994"], ["墨河体育场.md", "青川足球俱乐部.md"]),
("bridge", "On which river does the town where Clara Fennimore was born lie?", ["Ash"], ["clara_fennimore.md", "lorne.md"]),
("bridge", "许文澜出生的县建于哪一年？", ["1476"], ["许文澜.md", "松岗县.md"]),
("bridge", "Who designed the stadium where Corran Athletic plays its home matches?", ["Samuel Pryde"], ["corran_athletic.md", "harrow_park.md"]),
("bridge", "青川大学的创办人出生在哪里？", ["松岗县", "松岗"], ["青川大学.md", "许文澜.md"]),
("compositional", "Where was the designer of the Dunmore Reflector born?", ["Pellby"], ["dunmore_reflector.md", "helena_dunmore.md"]),
("compositional", "墨河大桥的设计者出生在哪里？", ["柳湾镇", "柳湾"], ["墨河大桥.md", "沈立峰.md"]),
("compositional", "When was the painter of The Lantern Keepers born?", ["1851"], ["the_lantern_keepers.md", "clara_fennimore.md"]),
("compositional", "墨河大桥的设计者毕业于哪所大学？", ["青川大学"], ["墨河大桥.md", "沈立峰.md"]),
("compositional", "Where was the architect of Harrow Park born?", ["Wendmoor"], ["harrow_park.md", "samuel_pryde.md"]),
("compositional", "青川大学的创办人是哪一年去世的？", ["1950"], ["青川大学.md", "许文澜.md"]),
("compositional", "When did the designer of the Dunmore Reflector die?", ["1941"], ["dunmore_reflector.md", "helena_dunmore.md"]),
("compositional", "青川足球俱乐部的主教练是哪一年出生的？", ["1975"], ["青川足球俱乐部.md", "邓凯.md"]),
("kinship", "Who is the father-in-law of Edwin Vance?", ["Rufus Dunmore"], ["edwin_vance.md", "helena_dunmore.md"]),
("kinship", "沈立峰的岳父是谁？", ["唐伯年"], ["沈立峰.md", "唐雨薇.md"]),
("kinship", "Where was the mother of Clara Fennimore born?", ["Tessington"], ["clara_fennimore.md", "alys_fennimore.md"]),
("kinship", "唐雨薇的丈夫出生在哪里？", ["柳湾镇", "柳湾"], ["唐雨薇.md", "沈立峰.md"]),
("kinship", "Where was the husband of Helena Dunmore born?", ["Ossery"], ["helena_dunmore.md", "edwin_vance.md"]),
("kinship", "唐伯年的女婿是谁？", ["沈立峰"], ["唐伯年.md", "唐雨薇.md"]),
("comparison", "Which town was founded earlier, Ossery or Pellby?", ["Pellby"], ["ossery.md", "pellby.md"]),
("comparison", "青川市和柳湾镇哪个建得更早？", ["青川市"], ["青川市.md", "柳湾镇.md"]),
("comparison", "Who was born first, Edwin Vance or Helena Dunmore?", ["Edwin Vance"], ["edwin_vance.md", "helena_dunmore.md"]),
("comparison", "沈立峰和邓凯谁年龄更大？", ["沈立峰"], ["沈立峰.md", "邓凯.md"]),
("comparison", "Which city was founded later, Wendmoor or Lorne?", ["Wendmoor"], ["wendmoor.md", "lorne.md"]),
("comparison", "松岗县和柳湾镇哪个建立得更早？", ["松岗县"], ["松岗县.md", "柳湾镇.md"]),
("comparison", "Which opened first, Harrow Park or the Quessary National Gallery?", ["Quessary National Gallery"], ["harrow_park.md", "quessary_national_gallery.md"]),
# the second hop absent (no passage of its entity, or its passage lacks the attribute); several first hops also
# name an entity of another kind whose passage states the asked attribute (a town's founding year)
("absent", "When was the university that runs the Vell Observatory founded?", [], ["vell_observatory.md"]),
("absent", "承建墨河大桥的公司是哪一年成立的？", [], ["墨河大桥.md"]),
("absent", "Where was the father of Helena Dunmore born?", [], ["helena_dunmore.md", "rufus_dunmore.md"]),
("absent", "唐雨薇的父亲出生在哪里？", [], ["唐雨薇.md", "唐伯年.md"]),
("absent", "When was the head chef of The Copper Kettle born?", [], ["the_copper_kettle.md"]),
("absent", "首创松岗酱鸭的厨师是哪一年出生的？", [], ["松岗酱鸭.md"]),
("absent", "Where was the first director of the museum that holds The Lantern Keepers born?", [], ["the_lantern_keepers.md", "quessary_national_gallery.md"]),
("absent", "青川足球俱乐部的主场是由哪位建筑师设计的？", [], ["青川足球俱乐部.md", "墨河体育场.md"]),
("absent", "When did the manager of Corran Athletic die?", [], ["corran_athletic.md", "ines_calloway.md"]),
("absent", "青川大学创办人的妻子是谁？", [], ["青川大学.md", "许文澜.md"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
# listed English, Chinese, English, … in each category: ordered English, Chinese, Chinese, English, … so that
# dev and held each hold both languages (the split alternates in the order passed)
ordered = []
for cat in dict.fromkeys(c for c, *_ in Q):
    rows = [r for r in Q if r[0] == cat]
    for k in range(0, len(rows), 4):
        block = rows[k:k + 4]
        ordered += block[:2] + block[2:][::-1]
write_questions(root, "mo", ordered)
