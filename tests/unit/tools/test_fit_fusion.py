"""``aer fit-fusion``: the grid search over the channel lists, the held-aside split it never fits on, leave-one-
dataset-out, and the params file the service reads."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.tools.fit_fusion import (
    Lists,
    Setting,
    best,
    fit,
    harms,
    lists_from_json,
    lists_to_json,
    measure,
    params_file,
    render,
)
from graphs.stores import fusion
from tests.support.fakes import hit


def _lists(qid: str, gold: str, dense: list[str], bm25: list[str], held: bool = False) -> Lists:
    return Lists.of(qid, held, frozenset({gold}),
                 [hit(f"{d}#0", score=0.9 - n * 0.01, channel="semantic") for n, d in enumerate(dense)],
                 [hit(f"{d}#0", score=1.0 - n * 0.01, channel="bm25", dense_score=None, bm25_score=1.0 - n * 0.01)
                  for n, d in enumerate(bm25)])


FILLER = [f"f{n}" for n in range(8)]


def dense_knows(qid: str, held: bool = False) -> Lists:
    """The gold document is third in the dense list and absent from BM25's."""
    return _lists(qid, "gold", ["d0", "d1", "gold", *FILLER], [f"b{n}" for n in range(8)], held)


def bm25_knows(qid: str, held: bool = False) -> Lists:
    return _lists(qid, "gold", [f"d{n}" for n in range(8)], ["b0", "b1", "gold", *FILLER], held)


def test_measure_reads_documents_of_the_fused_list() -> None:
    q = dense_knows("q1")
    assert measure(Setting("rrf", 5, 0.9), [q])["recall@5"] == 1.0
    assert measure(Setting("rrf", 1, 0.1), [q])["recall@5"] == 0.0  # BM25's unrelated documents come first


def test_the_fit_follows_the_channel_that_finds_the_gold() -> None:
    for make, today in ((dense_knows, Setting("rrf", 1, 0.1)), (bm25_knows, Setting("rrf", 1, 0.9))):
        sets = {"s": [make(f"q{n}") for n in range(5)]}
        assert measure(today, sets["s"])["recall@5"] == 0.0
        chosen = best("rrf", sets, today)
        assert measure(chosen, sets["s"])["recall@5"] == 1.0
        assert (chosen.dense_weight > today.dense_weight) == (make is dense_knows)


def test_held_aside_questions_are_never_fitted_on() -> None:
    # the tuning questions need a dense-leaning RRF; the held-aside ones would pull it back towards BM25
    today = fusion.RRF_DENSE_WEIGHT
    sets = {"a": [dense_knows(f"a{n}") for n in range(4)] + [bm25_knows(f"ah{n}", held=True) for n in range(6)]}
    rrf = fit(sets)["rrf"]
    a = rrf["sets"]["a"]
    assert a["before"]["tune"]["questions"] == 4 and a["before"]["held"]["questions"] == 6
    assert a["before"]["tune"]["recall@5"] == 0.0 and a["after"]["tune"]["recall@5"] == 1.0
    assert rrf["after"]["dense_weight"] > today


def test_leave_one_dataset_out_fits_without_the_set_it_measures() -> None:
    sets = {"a": [dense_knows(f"a{n}") for n in range(4)], "b": [bm25_knows(f"b{n}") for n in range(4)]}
    report = fit(sets)
    rrf = report["rrf"]
    # fitted on "a" alone (dense), measured on "b"; fitted on "b" alone (today's BM25-leaning setting suffices)
    assert rrf["sets"]["b"]["lodo"]["dense_weight"] > fusion.RRF_DENSE_WEIGHT
    assert rrf["sets"]["a"]["lodo"]["dense_weight"] <= fusion.RRF_DENSE_WEIGHT
    assert rrf["sets"]["a"]["lodo"]["all"]["recall@5"] == 0.0
    assert "| a |" in render(report) and "### weighted" in render(report)


def test_params_file_round_trips_through_the_loader(tmp_path: Path) -> None:
    sets = {"a": [dense_knows("a1"), bm25_knows("a2", held=True)]}
    params = params_file(fit(sets), sets, "e5")
    assert params["fitted"]["datasets"] == {"a": {"tune": 1, "held_aside": 1}}
    path = tmp_path / "p.json"
    path.write_text(json.dumps(params))
    loaded = fusion.load_params(path)
    assert loaded["rrf"] == params["rrf"]


def test_the_shipped_params_are_what_the_service_uses() -> None:
    shipped = json.loads(fusion.PARAMS_FILE.read_text())
    assert (
        shipped["rrf"]["k"], shipped["rrf"]["dense_weight"], shipped["weighted"]["dense_weight"]) == (fusion.RRF_K, fusion.RRF_DENSE_WEIGHT, fusion.WEIGHTED_DENSE_WEIGHT)
    assert shipped["fitted"]["by"]


@pytest.mark.parametrize("bad", [
    {"rrf": {"k": -1, "dense_weight": 0.3}, "weighted": {"dense_weight": 0.6}},
    {"rrf": {"k": 5, "dense_weight": 1.3}, "weighted": {"dense_weight": 0.6}},
    {"rrf": {"k": 5}, "weighted": {"dense_weight": 0.6}},
])
def test_a_broken_params_file_raises(tmp_path: Path, bad: dict) -> None:
    path = tmp_path / "p.json"
    path.write_text(json.dumps(bad))
    with pytest.raises((ValueError, KeyError)):
        fusion.load_params(path)


def test_channel_lists_round_trip_through_their_saved_form() -> None:
    questions = [dense_knows("a1"), bm25_knows("a2", held=True)]
    again = lists_from_json(lists_to_json(questions))
    assert again == questions
    assert [measure(Setting("rrf", 3, 0.8), [q]) for q in again] == [measure(Setting("rrf", 3, 0.8), [q]) for q in questions]


def test_a_fit_that_loses_on_a_held_aside_part_is_named_and_one_that_does_not_passes() -> None:
    # "a" needs a dense-leaning fusion on its tuning part; "b"'s held-aside questions need today's BM25-leaning one
    sets = {"a": [dense_knows(f"a{n}") for n in range(6)], "b": [bm25_knows(f"bh{n}", held=True) for n in range(3)]}
    lost = harms(fit(sets))
    assert lost and all(line.startswith("b: held-aside") for line in lost)
    assert harms(fit({"a": [dense_knows(f"a{n}") for n in range(4)] + [dense_knows("ah", held=True)]})) == []


def test_the_params_file_keeps_todays_values_for_a_method_whose_fit_harms() -> None:
    sets = {"a": [dense_knows(f"a{n}") for n in range(6)], "b": [bm25_knows(f"bh{n}", held=True) for n in range(3)]}
    report = fit(sets)
    params = params_file(report, sets, "e5")
    assert harms(report, "rrf") and params["rrf"] == {"k": fusion.RRF_K, "dense_weight": fusion.RRF_DENSE_WEIGHT}
    assert params["kept"]["rrf"] == harms(report, "rrf")
