"""Write questions.jsonl of the eighth own multi-hop set. The split is fixed here, before any run: every third
question (the 3rd, 6th, 9th, …, in the order listed) is held (7 of 22); rules may be written from dev failures
only."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_jsonl

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the right answer is "not found"
# bridges: the question's entity -> the entity its page names -> the asked attribute there, both languages
("bridge", "When was the company that ground the mirror of the Kestrel Hill Observatory's main telescope founded?", ["1874"], ["calder_optical_works.md"]),
("bridge", "How many people live in the village below the observatory that Miriam Oakes founded?", ["2,840", "2840"], ["thornmere.md"]),
("bridge", "Where was the founder of the Kestrel Hill Observatory born?", ["Ravensholt"], ["miriam_oakes.md"]),
("bridge", "青崖天文台台长出生在哪个县？", ["临溪县", "临溪"], ["周砚清.md"]),
("bridge", "青崖天文台所在的镇有多少常住人口？", ["2.6万", "26,000"], ["松桥镇.md"]),
("bridge", "In which year did the town where the Qingya Observatory stands become a town?", ["1953"], ["松桥镇.md"]),
("bridge", "周砚清做访问学者的那座天文台是哪一年建立的？", ["1931"], ["kestrel_hill_observatory.md"]),
("bridge", "On which river does the village at the foot of the Kestrel Hill Observatory's hill lie?", ["Lune"], ["thornmere.md"]),
("bridge", "In what year did the astronomer who founded the Kestrel Hill Observatory die?", ["1967"], ["miriam_oakes.md"]),
("bridge", "为青崖天文台磨制主镜的那家公司有多少员工？", ["220"], ["calder_optical_works.md"]),
("bridge", "When was the director of the Qingya Observatory born?", ["1952"], ["周砚清.md"]),
("bridge", "Under whom did the founder of the Kestrel Hill Observatory work on variable stars?", ["Edmund Tarrow"], ["miriam_oakes.md"]),
# comparisons of two stated values: in prose across two pages and languages, and in a table
("comparison", "Which was founded first, the Kestrel Hill Observatory or the Qingya Observatory?", ["Kestrel"], ["kestrel_hill_observatory.md", "青崖天文台.md"]),
("comparison", "Who was born earlier, Miriam Oakes or Zhou Yanqing?", ["Miriam Oakes", "Oakes"], ["miriam_oakes.md", "周砚清.md"]),
("comparison", "松桥镇和 Thornmere 哪个地方人口更多？", ["松桥镇", "松桥"], ["松桥镇.md", "thornmere.md"]),
("comparison", "For a family, which costs more at Kestrel Hill: the Friday star evening or the daytime solar viewing?", ["star evening", "Friday"], ["kestrel_visits.csv"]),
("comparison", "在青崖天文台，看一场天象厅球幕电影和参加一次夜间望远镜观测，哪个更便宜？", ["天象厅", "球幕"], ["青崖天文台参观票价.csv"]),
# not answerable: the last hop lacks the attribute, or one side of a comparison has no value
("absent", "Who is the mayor of the village where the Kestrel Hill Observatory stands?", [], ["thornmere.md"]),
("absent", "青崖天文台所在的镇是哪一年通铁路的？", [], ["松桥镇.md"]),
("absent", "When did the founders of the firm that ground the Halden Reflector's mirror die?", [], ["calder_optical_works.md"]),
("absent", "周砚清和 Miriam Oakes 谁去世得更早？", [], ["周砚清.md", "miriam_oakes.md"]),
("absent", "Which is cheaper for a family, the plate library tour or the daytime solar viewing?", [], ["kestrel_visits.csv"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
rows = [{"id": f"m8{i:02d}", "question": q, "answers": answers, "notFound": not answers, "files": names,
         "category": cat, "split": "held" if i % 3 == 0 else "dev"}
        for i, (cat, q, answers, names) in enumerate(Q, start=1)]
write_jsonl(root / "questions.jsonl", rows)
print(len(rows), "questions,", sum(r["split"] == "held" for r in rows), "held")
