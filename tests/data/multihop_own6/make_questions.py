"""Write questions.jsonl of the sixth own multi-hop set. The split is fixed here, before any run: every third
question (the 3rd, 6th, 9th, …, in the order listed) is held (6 of 20); rules may be written from dev failures
only."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_jsonl

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the right answer is "not found"
# bridges, across the two languages both ways
("bridge", "In what year was the town where Marrow Bicycles has its head office founded?", ["1288"], ["marrow_bicycles.md", "tollbridge.md"]),
("bridge", "Marrow Bicycles 总部所在的小镇有多少居民？", ["18,400"], ["tollbridge.md"]),
("bridge", "In which county was the founder of Marrow Bicycles born?", ["宁川"], ["郑可岚.md"]),
("bridge", "云岫陶瓷总部所在的那个港口小镇是哪一年建立的？", ["1602"], ["kessford.md"]),
("bridge", "郑可岚创办的公司总部设在哪个小镇？", ["Tollbridge"], ["marrow_bicycles.md"]),
("bridge", "Which river flows through the town that is home to Marrow Bicycles?", ["Hessle"], ["tollbridge.md", "marrow_bicycles.md"]),
("bridge", "How many people live in the town where Yunxiu Ceramics has its headquarters?", ["9,800"], ["kessford.md"]),
("bridge", "Marrow Bicycles 的创始人出生的那个县是哪一年设县的？", ["1374"], ["宁川县.md"]),
("bridge", "When was the company that has its head office in Kessford founded?", ["2004"], ["云岫陶瓷.md"]),
("bridge", "郑可岚创办的公司有多少名员工？", ["140"], ["marrow_bicycles.md"]),
# comparisons of two stated numbers or dates
("comparison", "Which is lighter, the Marrow Ridge or the Marrow Fell?", ["Fell"], ["marrow_models.md"]),
("comparison", "青峰A型和青峰B型相比，哪一款功率更大？", ["青峰B型", "B型"], ["云岫陶瓷.md"]),
("comparison", "Which is older: the Old Toll Bridge in Tollbridge or the harbour wall at Kessford?", ["Old Toll Bridge"], ["tollbridge.md", "kessford.md"]),
("comparison", "Tollbridge 和 Kessford 哪个镇的人口更多？", ["Tollbridge"], ["tollbridge.md", "kessford.md"]),
("comparison", "青峰A型还是青峰B型更便宜？", ["青峰A型", "A型"], ["云岫陶瓷.md"]),
# not answerable: the second hop's attribute absent, or one side of a comparison without its value
("absent", "Who is the mayor of the town where Marrow Bicycles has its head office?", [], ["tollbridge.md"]),
("absent", "云岫陶瓷的创始人是哪一年出生的？", [], ["云岫陶瓷.md"]),
("absent", "Which is heavier, the Marrow Ridge or the Marrow Summit?", [], ["marrow_models.md"]),
("absent", "青峰A型和青峰C型哪一款更便宜？", [], ["云岫陶瓷.md"]),
("absent", "郑可岚出生的那个县有多少所中学？", [], ["宁川县.md"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
rows = [{"id": f"m6{i:02d}", "question": q, "answers": answers, "notFound": not answers, "files": names,
         "category": cat, "split": "held" if i % 3 == 0 else "dev"}
        for i, (cat, q, answers, names) in enumerate(Q, start=1)]
write_jsonl(root / "questions.jsonl", rows)
print(len(rows), "questions,", sum(r["split"] == "held" for r in rows), "held")
