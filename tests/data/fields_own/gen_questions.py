"""Writes questions.jsonl of the fields own set (split fixed here, before any run: within each category the second
question of every three, in the order written, is held aside: 8 of 24). Run from the repository root:
``.venv/bin/python tests/data/fields_own/gen_questions.py``."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))
from tests.support.own_material import write_jsonl

MINUTES_ZH = ["北岭水务2026年第二次安全例会纪要.md"]
MINUTES_EN = ["corran_library_trustees_minutes.txt"]
PROFILE = ["people/halvor_brandt.html"]
SPEC = ["清湾QW-520空气净化器规格.txt"]
FEES = ["fernhill_school_fees_2026.md"]
STOCK = ["云栖书店库存_2026-05.csv"]
FORM = ["marlow_street_appointment.html"]
QUESTIONS = [
    # a role asked of a field block (header or sign-off of minutes), by noun or by verb, in either language
    ("field_role", "北岭水务4月9号那次安全例会是谁主持的？", ["祁文澜"], MINUTES_ZH),
    ("field_role", "Who took the minutes at the Corran Free Library trustees' spring meeting?", ["Owen Tremayne"],
     MINUTES_EN),
    ("field_role", "北岭水务第二次安全例会的记录人是谁？", ["许一苇"], MINUTES_ZH),
    ("field_role", "Who chaired the Corran library trustees meeting in March 2026?", ["Rosalind Achebe"], MINUTES_EN),
    # a place or a time stated by a field whose label names the kind (会议地点, Venue, Born)
    ("field_place", "北岭水务那次安全例会是在哪里开的？", ["调度室"], MINUTES_ZH),
    ("field_place", "Where was Halvor Brandt born?", ["Skelby"], PROFILE),
    ("field_place", "Where did the Corran library trustees hold their spring meeting?", ["Reading Room"], MINUTES_EN),
    # a spec sheet's quantities (the label is the attribute: 额定功率, 净重, 噪音)
    ("spec", "清湾QW-520的额定功率是多少？", ["55 W", "55W"], SPEC),
    ("spec", "QW-520 净化器有多重？", ["8.4 kg", "8.4kg"], SPEC),
    ("spec", "How noisy is the QW-520 air purifier?", ["48 dB", "22–48"], SPEC),
    # a table cell: row label x column header (Markdown table, CSV)
    ("table", "How much is lunch per term for a Year 8 pupil at Fernhill School?", ["410"], FEES),
    ("table", "What does Fernhill School charge for trips in Year 10?", ["480"], FEES),
    ("table", "云栖书店书号YQ-4431的那本书还有多少本库存？", ["23"], STOCK),
    ("table", "云栖书店的《北港风起》是谁写的？", ["董南山"], STOCK),
    # a form laid out as a two-column HTML table
    ("form", "What time is Imogen Castell's physiotherapy appointment?", ["10:40"], FORM),
    ("form", "Which room is Imogen Castell's appointment at Marlow Street Physiotherapy in?", ["3B"], FORM),
    ("form", "Who is the clinician for Imogen Castell's appointment?", ["Farid Lowe"], FORM),
    # the asked attribute's field holds a value of another kind: not found
    ("wrong_type", "In which year was Halvor Brandt born?", [], PROFILE),
    ("wrong_type", "北岭水务那次安全例会是几点结束的？", [], MINUTES_ZH),
    # the field or the column is absent, the subject present: not found
    ("absent", "清湾QW-520空气净化器的保修期是多久？", [], SPEC),
    ("absent", "How much is the boarding fee per term for Year 9 at Fernhill School?", [], FEES),
    ("absent", "On what date will the Corran library trustees hold their autumn meeting?", [], MINUTES_EN),
    # another row's value: the asked row is not in the table
    ("other_row", "What is the tuition per term for Year 12 at Fernhill School?", [], FEES),
    ("other_row", "云栖书店书号YQ-4425的书还剩几本？", [], STOCK),
]


def main() -> None:
    seen: dict[str, int] = {}
    rows = []
    for i, (category, question, answers, files) in enumerate(QUESTIONS, start=1):
        n = seen.get(category, 0)
        seen[category] = n + 1
        rows.append({"id": f"fo{i:02d}", "question": question, "answers": answers, "notFound": not answers,
                     "files": files, "category": category, "split": "held" if n % 3 == 1 else "dev"})
    write_jsonl(Path(__file__).resolve().parent / "questions.jsonl", rows)
    print(len(rows), "questions,", sum(r["split"] == "held" for r in rows), "held")


if __name__ == "__main__":
    main()
