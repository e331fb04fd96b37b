"""Write questions.jsonl of the fifth own multi-hop set. The split is fixed here, before any run: every third
question (the 3rd, 6th, 9th, …, in the order listed) is held (8 of 26); rules may be written from dev failures
only."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from tests.support.own_material import write_jsonl

root = Path(__file__).resolve().parent
Q = [
# (category, question, answers, files); answers empty: the second hop is absent, the right answer is "not found"
# the bridge entity named in the first hop by a relative clause, a possessive, a description
("bridge", "In which year did the town where Corrin Glassworks has its headquarters receive its borough charter?", ["1523"], ["corrin_glassworks.md", "halveston.md"]),
("bridge", "How many inhabitants did the town that is home to Ada Morrow's glassworks have at the 2020 census?", ["41,300"], ["halveston.md"]),
("bridge", "Which river flows into the estuary on which the headquarters town of Corrin Glassworks lies?", ["Brisk"], ["halveston.md"]),
("bridge", "Who succeeded the founder of Corrin Glassworks?", ["Silas Morrow"], ["corrin_glassworks.md", "ada_morrow.md"]),
("bridge", "Which town can be reached by ferry from the town where Corrin Glassworks is based?", ["Nessock"], ["halveston.md"]),
("bridge", "How high is the summit of the mountain on which the Thorne Hill Observatory stands?", ["2,861"], ["thorne_hill_observatory.md", "mount_carrel.md"]),
("bridge", "Which firm built the main telescope of the Thorne Hill Observatory?", ["Varden & Sons", "Varden"], ["thorne_hill_observatory.md", "lisle_telescope.md"]),
("bridge", "In which year did the telescope of the THO see first light?", ["1987"], ["lisle_telescope.md"]),
("bridge", "Which university runs the observatory that houses the Lisle Telescope?", ["University of Easthaven", "Easthaven"], ["lisle_telescope.md", "thorne_hill_observatory.md"]),
("bridge", "When was the university that runs the Thorne Hill Observatory founded?", ["1909"], ["thorne_hill_observatory.md", "university_of_easthaven.md"]),
("bridge", "How many students does the university that operates the THO have?", ["14,500"], ["university_of_easthaven.md"]),
("bridge", "When was the first recorded ascent of the mountain where the Lisle Telescope's observatory stands?", ["1832"], ["mount_carrel.md"]),
("bridge", "青岚茶业总部所在的城市有多少常住人口？", ["63.2万"], ["青岚茶业.md", "溪口市.md"]),
("bridge", "林素秋创办的公司总部设在哪座城市？", ["溪口市", "溪口"], ["青岚茶业.md", "林素秋.md"]),
("bridge", "青岚茶业总部所在城市建城于哪一年？", ["1071"], ["溪口市.md"]),
("bridge", "穿过青岚茶业总部所在城市的河流叫什么？", ["澄江"], ["溪口市.md"]),
("bridge", "林素秋的公司的招牌产品是什么？", ["白毫银针"], ["青岚茶业.md"]),
("bridge", "青岚茶业的创始人出生在哪里？", ["梅岭村", "梅岭"], ["青岚茶业.md", "林素秋.md"]),
("bridge", "What did the founder of Corrin Glassworks leave to the town?", ["library"], ["ada_morrow.md"]),
("bridge", "In which city is the university whose astronomy department runs the observatory on Mount Carrel?", ["Easthaven"], ["university_of_easthaven.md"]),
("bridge", "Where was the mirror of the main instrument of the Thorne Hill Observatory ground?", ["Easthaven"], ["lisle_telescope.md"]),
# the second hop absent: the bridge entity has no page, or its page does not state what is asked
("absent", "When was the village where the founder of Corrin Glassworks was born first recorded?", [], ["ada_morrow.md"]),
("absent", "Who is the mayor of the town where Corrin Glassworks has its headquarters?", [], ["halveston.md"]),
("absent", "林素秋出生的村子海拔多少米？", [], ["林素秋.md"]),
("absent", "青岚茶业总部所在城市的市长是谁？", [], ["溪口市.md"]),
("absent", "How much did the telescope that Varden & Sons built for the THO cost?", [], ["lisle_telescope.md"]),
]
for _, _, _, names in Q:
    for name in names:
        assert (root / "files" / name).is_file(), name
rows = [{"id": f"m5{i:02d}", "question": q, "answers": answers, "notFound": not answers, "files": names,
         "category": cat, "split": "held" if i % 3 == 0 else "dev"}
        for i, (cat, q, answers, names) in enumerate(Q, start=1)]
write_jsonl(root / "questions.jsonl", rows)
print(len(rows), "questions,", sum(r["split"] == "held" for r in rows), "held")
