"""Write questions.jsonl of the seventh own multi-hop set. The split is fixed here, before any run: every third
question (the 3rd, 6th, 9th, …, in the order listed) is held (6 of 20); rules may be written from dev failures
only."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_jsonl

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the right answer is "not found"
# bridges of two and three hops, across the two languages both ways
("bridge", "In what year did the port town that is home to Harrowgate Ferries receive its market charter?", ["1176"], ["wendlebay.md"]),
("bridge", "Harrowgate Ferries 总部所在的港口小镇有多少人口？", ["31,200", "31200"], ["wendlebay.md"]),
("bridge", "When was the shipyard where Lin Qiuhe worked before moving to Britain founded?", ["1958"], ["澜石造船厂.md"]),
("bridge", "林秋禾早年工作过的那家造船厂坐落在哪个镇？", ["澜石镇", "澜石"], ["澜石造船厂.md"]),
("bridge", "林秋禾担任总经理的那家公司，总部所在的城镇是哪一年获得集市特许状的？", ["1176"], ["wendlebay.md"]),
("bridge", "How many people live in the town where the shipyard that built the MV Skerra is located?", ["4.3万", "43,000"], ["澜石镇.md"]),
("bridge", "In which city was the managing director of Harrowgate Ferries born?", ["鹤汀", "Heting"], ["林秋禾.md"]),
("bridge", "建造 MV Skerra 的那家船厂有多少名职工？", ["1600"], ["澜石造船厂.md"]),
("bridge", "In which year did the town that is home to the shipyard where the managing director of Harrowgate Ferries once worked become a town?", ["1912"], ["澜石镇.md"]),
("bridge", "澜石造船厂2011年建造的那艘船跑的是哪条航线？", ["Skerra Sound"], ["harrowgate_ferries.md"]),
# comparisons of two stated values: in a table (both languages) and in prose
("comparison", "Which costs less for a car with driver, the Corran Isle crossing or the Skerra Sound crossing?", ["Skerra"], ["ferry_fares.csv"]),
("comparison", "去澜石镇玩，坐一趟灯塔夜游和报一个观鸟半日游，哪个更贵？", ["观鸟"], ["澜石镇海上游价目表.csv"]),
("comparison", "Which of Harrowgate Ferries' two ships is longer, the MV Corran or the MV Skerra?", ["Skerra"], ["harrowgate_ferries.md"]),
("comparison", "MV Corran 和 MV Skerra 哪艘船建成得更早？", ["Corran"], ["harrowgate_ferries.md"]),
("comparison", "澜石镇和 Wendlebay 哪个地方的人口更多？", ["澜石镇", "澜石"], ["澜石镇.md", "wendlebay.md"]),
# not answerable: the last hop lacks the attribute, or one side of a comparison has no value
("absent", "Who is the mayor of the port town where Harrowgate Ferries has its head office?", [], ["wendlebay.md"]),
("absent", "林秋禾工作过的那家船厂现任厂长是谁？", [], ["澜石造船厂.md"]),
("absent", "Which is cheaper to take a bicycle on, the Corran Isle crossing or the Harlow Point crossing?", [], ["ferry_fares.csv"]),
("absent", "澜石镇和鹤汀市，哪个地方设立得更早？", [], ["澜石镇.md", "林秋禾.md"]),
("absent", "How many passengers can the ferry that the Lanshi Shipyard built in 2011 carry?", [], ["harrowgate_ferries.md"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
rows = [{"id": f"m7{i:02d}", "question": q, "answers": answers, "notFound": not answers, "files": names,
         "category": cat, "split": "held" if i % 3 == 0 else "dev"}
        for i, (cat, q, answers, names) in enumerate(Q, start=1)]
write_jsonl(root / "questions.jsonl", rows)
print(len(rows), "questions,", sum(r["split"] == "held" for r in rows), "held")
