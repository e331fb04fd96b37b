"""Intent from cue words (graphs.text.intent)."""

import pytest

from graphs.domain import QueryEntity
from graphs.text.intent import classify_intent

# ---------------------------------------------------------------- intent


@pytest.mark.parametrize(
    ("text", "intent"),
    [
        ("什么是机器学习？", "conceptual"),
        ("机器学习是什么", "conceptual"),
        ("什么叫量子纠缠", "conceptual"),
        ("深度学习的定义", "conceptual"),
        ("區塊鏈的原理是什麼", "conceptual"),
        ("What is machine learning?", "conceptual"),
        ("what are neural networks", "conceptual"),
        ("Define entropy", "conceptual"),
        ("Explain the meaning of entropy", "conceptual"),
        ("马斯克创办的公司有哪些？", "factual"),
        ("2024年苹果在北京发布的产品", "factual"),
        ("谁是美国总统", "factual"),
        ("泡泡战士的开发商是什么？", "factual"),
        ("What is the capital of France?", "factual"),
        ("What is Apple's market value?", "factual"),
        ("Who directed Inception?", "factual"),
        ("How many moons does Mars have?", "factual"),
        ("If Gallu is a demon Lilu is what?", "factual"),
        ("苹果和三星的区别", "comparison"),
        ("比较特斯拉和比亚迪的销量", "comparison"),
        ("马斯克和贝索斯谁更富有？", "comparison"),
        ("iPhone还是Galaxy好", "comparison"),
        ("Compare Python and Java", "comparison"),
        ("What is the difference between TCP and UDP?", "comparison"),
        ("Python vs Java", "comparison"),
        ("苹果vs三星", "comparison"),
        ("Are Christopher Nolan and Sathish Kalathil both film directors?", "comparison"),
        ("Which is older, Pisa or Florence?", "comparison"),
        ("Who was born first, Alice Walker or Toni Morrison?", "comparison"),
        ("Were Scott Derrickson and Ed Wood of the same nationality?", "comparison"),
        ("Is Everest taller than K2?", "comparison"),
        ("如何安装Python", "procedural"),
        ("怎么注册公司", "procedural"),
        ("申请签证的步骤", "procedural"),
        ("How to install Python on Windows?", "procedural"),
        ("How do I reset my password", "procedural"),
        ("人工智能有哪些趋势", "exploratory"),
        ("介绍一下量子计算", "exploratory"),
        ("中国新能源汽车的发展", "exploratory"),
        ("Tell me about the Roman Empire", "exploratory"),
        ("An overview of renewable energy", "exploratory"),
        ("AI trends in 2024", "exploratory"),
        # Seen in the evaluation sets (HotpotQA comparison questions, CMRC factual questions).
        ("Which band was formed first The Exies or Circus Diablo ?", "comparison"),
        ("Which singer is American, Mark King or Nick Hexum?", "comparison"),
        ("What do E. B. White and Dan Masterson have in common?", "comparison"),
        ("Between Iain Banks and Irwin Shaw, which writer has had a more diverse career?", "comparison"),
        ("Who was the first president of France?", "factual"),
        ("高英是怎么死的？", "factual"),
        ("斯氏腔吻鳕的外形是怎样的？", "factual"),
        ("松平康忠是什么时期的武将？", "factual"),
        ("鸟兽脚类的概念是由谁提出来的？", "factual"),
        ("越南投资发展银行的英文名是什么？", "factual"),
        ("A-135反弹道导弹系统设计目的是什么？", "factual"),
        ("是什么的出现才缓解牛车水区的拥挤状况？", "factual"),
        ("我该怎么注册公司", "procedural"),
        ("安装Python的方法", "procedural"),
    ],
)
def test_classify_intent(text: str, intent: str) -> None:
    got, confidence = classify_intent(text)
    assert got == intent
    assert 0.0 <= confidence <= 1.0


@pytest.mark.parametrize(
    ("text", "entity", "intent"),
    [
        ("What is Apple?", QueryEntity(text="Apple", type="ORGANIZATION"), "factual"),
        ("马斯克是什么", QueryEntity(text="马斯克", type="PERSON"), "factual"),
        (
            "What is Machine Learning?",
            QueryEntity(text="Machine Learning", type="OTHER", source="title_case"),
            "conceptual",
        ),
    ],
)
def test_what_is_a_named_entity_is_factual(text: str, entity: QueryEntity, intent: str) -> None:
    assert classify_intent(text, [entity])[0] == intent


def test_intent_confidence_is_lower_without_cues() -> None:
    assert classify_intent("2024年苹果在北京发布的产品")[1] < classify_intent("谁是美国总统")[1]
