"""Write questions.jsonl of the paraphrase set (the split alternates dev, held within each category, fixed here
before any run): ``python tests/data/paraphrase_own/make_set.py``."""

from __future__ import annotations

from pathlib import Path

from tests.support.own_material import write_questions

EN1, EN2 = "ashcombe_crossing.md", "fenwick_valley_growers.txt"
ZH1, ZH2 = "青川水库简介.md", "锦屏茶厂.txt"

QUESTIONS = [
    # the stated fact in other words: few of the question's words are in the answering sentence
    ("paraphrase_en", "Which engineer drew up the plans for the crossing at Ashcombe?", ["Harriet Voss"], [EN1]),
    ("paraphrase_en", "Which lender put up the money to build the Ashcombe bridge?", ["Merrow Savings Bank"], [EN1]),
    ("paraphrase_en", "When did the Ashcombe ferry service come to an end?", ["1962"], [EN1]),
    ("paraphrase_en", "How many farms belong to Fenwick Valley Growers?", ["47"], [EN2]),
    ("paraphrase_en", "Who heads Fenwick Valley Growers?", ["Tomas Reyne"], [EN2]),
    ("paraphrase_en", "How much fruit can the Fenwick Valley growers keep in refrigerated storage?",
     ["3,200 tonnes", "3200"], [EN2]),
    ("paraphrase_zh", "青川水库最多能装多少水？", ["4.1亿立方米", "4.1亿"], [ZH1]),
    ("paraphrase_zh", "青川水库的大坝有多高？", ["62米", "62"], [ZH1]),
    ("paraphrase_zh", "青川水库现在归哪家单位运营？", ["临江县水务集团"], [ZH1]),
    ("paraphrase_zh", "青川水库是哪一年开始存水的？", ["1978"], [ZH1]),
    ("paraphrase_zh", "锦屏茶厂一年能出多少茶叶？", ["900吨", "900"], [ZH2]),
    ("paraphrase_zh", "锦屏茶厂现在由谁掌管？", ["周慧兰"], [ZH2]),
    ("paraphrase_zh", "锦屏茶厂有多少名员工？", ["210"], [ZH2]),
    # one question, two languages
    ("mixed", "青川水库的 total storage capacity 是多少？", ["4.1亿立方米", "4.1亿"], [ZH1]),
    ("mixed", "Fenwick Valley Growers 的负责人是谁？", ["Tomas Reyne"], [EN2]),
    ("mixed", "锦屏茶厂的 annual output 是多少？", ["900吨", "900"], [ZH2]),
    ("mixed", "Ashcombe 的收费桥是谁设计的？", ["Harriet Voss"], [EN1]),
    # twins: the same subject, an attribute the files never state
    ("absent", "Which company built the Ashcombe toll bridge?", [], [EN1]),
    ("absent", "When was Fenwick Valley Growers founded?", [], [EN2]),
    ("absent", "How many people work at the Lowther juice mill?", [], [EN2]),
    ("absent", "青川水库的建设总投资是多少？", [], [ZH1]),
    ("absent", "锦屏茶厂的年销售额是多少？", [], [ZH2]),
    ("absent", "青川水库的 annual electricity output 是多少？", [], [ZH1]),
    ("absent", "Fenwick Valley Growers 的年营业额是多少？", [], [EN2]),
]

if __name__ == "__main__":
    write_questions(Path(__file__).parent, "pp", QUESTIONS)
