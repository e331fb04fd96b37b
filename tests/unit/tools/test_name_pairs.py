"""The name score's fit: logistic regression on labelled pairs, the threshold chosen on dev, measured on held."""

from __future__ import annotations

import json
from pathlib import Path

from app.tools.name_pairs import choose_threshold, fit, main, measure, prob


def test_fit_separates_true_pairs_from_false_friends() -> None:
    rows = [[1.0, 1.0], [0.9, 1.0], [0.1, 0.0], [0.0, 0.2]]
    labels = [True, True, False, False]
    coef, bias = fit(rows, labels)
    probs = [prob(coef, bias, r) for r in rows]
    t = choose_threshold(probs, labels)
    assert measure(probs, labels, t) == {"n": 4, "accuracy": 1.0, "recall": 1.0, "false_friends": 0.0}


def test_a_false_friend_costs_more_than_a_miss() -> None:
    # one true pair and one false friend at the same score: the threshold refuses both
    assert choose_threshold([0.6, 0.6, 0.9], [True, False, True]) > 0.6


def test_the_tool_reports_dev_and_held(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    pairs = [{"en": "Dongping Ferry", "zh": "东平渡", "same": True, "split": "dev"},
             {"en": "Dongping Ferry", "zh": "东平桥", "same": False, "split": "dev"},
             {"en": "brass lamp", "zh": "铜灯", "same": True, "split": "dev"},
             {"en": "brass lamp", "zh": "玻璃杯", "same": False, "split": "dev"},
             {"en": "linen curtains", "zh": "麻窗帘", "same": True, "split": "held"},
             {"en": "linen curtains", "zh": "纸袋", "same": False, "split": "held"}]
    path = tmp_path / "pairs.jsonl"
    path.write_text("\n".join(json.dumps(p, ensure_ascii=False) for p in pairs), encoding="utf-8")
    assert main([str(path)]) == 0
    report = json.loads(capsys.readouterr().out.splitlines()[0])
    assert report["held"]["n"] == 2 and report["dev"]["n"] == 4 and report["held"]["accuracy"] == 1.0
