"""A veto's fate, judged leave one set out: kept only where the sets it was not fitted on still gain."""

from __future__ import annotations

from app.tools.veto_fates import Replayed, fates, measure, refused


def _rows(dataset: str, veto: str, caught: int, wrong: int, also: tuple[str, ...] = ()) -> list[Replayed]:
    return [*(Replayed(dataset, f"{dataset}-{veto}-n{i}", 0, (veto, *also)) for i in range(caught)),
            *(Replayed(dataset, f"{dataset}-{veto}-a{i}", 1, (veto, *also)) for i in range(wrong))]


def test_a_veto_that_gains_only_on_the_set_it_came_from_is_dropped() -> None:
    # four absent questions caught on its own set, one answerable refused on each of three others
    rows = [*_rows("own", "narrow", 4, 0), *_rows("a", "narrow", 0, 1), *_rows("b", "narrow", 0, 1),
            *_rows("c", "narrow", 0, 1)]
    fate = measure(rows, "narrow")
    # left out, its own set keeps nothing (the others net -3); each other set, kept by the rest (+2), loses one
    assert (fate.caught, fate.refused, fate.held_out, fate.kept) == (4, 3, -3, False)


def test_a_veto_that_gains_on_every_set_is_kept() -> None:
    rows = [*_rows("a", "broad", 2, 1), *_rows("b", "broad", 3, 0), *_rows("c", "broad", 1, 0)]
    fate = measure(rows, "broad")
    assert fate.kept and fate.held_out == 5


def test_a_veto_with_no_measured_harm_stays_whatever_its_use() -> None:
    rows = [*_rows("own", "rare", 2, 0), *_rows("a", "other", 0, 1)]
    assert measure(rows, "rare").kept
    assert not measure(rows, "other").kept


def test_each_veto_is_judged_on_its_own_not_hidden_by_another_that_refuses_the_same() -> None:
    # "weak" holds wherever "strong" does, and on the answerable cases of "b" too
    rows = [*_rows("a", "strong", 2, 0, ("weak",)), *_rows("b", "strong", 2, 0, ("weak",)),
            *_rows("b", "weak", 0, 5)]
    judged = fates(rows, ["strong", "weak"])
    assert judged["strong"].kept and (judged["strong"].caught, judged["strong"].refused) == (4, 0)
    assert (judged["weak"].caught, judged["weak"].refused) == (4, 5) and not judged["weak"].kept


def test_a_case_the_score_or_an_earlier_rule_refuses_counts_for_no_veto() -> None:
    rows = [Replayed("a", "1", 1, ("x",), refused_first=True), Replayed("b", "2", 1, ("x",), answered_by_score=False)]
    assert (measure(rows, "x").caught, measure(rows, "x").refused) == (0, 0)


def test_the_chain_refuses_what_an_earlier_rule_or_the_score_refuses_whatever_the_vetoes() -> None:
    assert refused(Replayed("a", "1", 1, (), refused_first=True), [])
    assert refused(Replayed("a", "2", 1, ("x",), answered_by_score=False), [])
    assert not refused(Replayed("a", "3", 1, ("x",)), ["y"])
    assert refused(Replayed("a", "4", 1, ("x",)), ["x"])


def test_on_strong_matches_a_veto_yields_only_where_it_refuses_more_than_it_catches() -> None:
    """A strong dense match with a typed span overrides a veto only where, on such matches, the veto refuses as
    many answerable examples as it catches, left out set by set; its fate on every match is judged apart."""
    from dataclasses import replace

    from app.tools.veto_fates import strong_match

    weak_on_strong = [replace(r, strong=True) for r in [*_rows("a", "v", 0, 2), *_rows("b", "v", 1, 2)]]
    rows = [*_rows("a", "v", 5, 0), *_rows("b", "v", 4, 0), *weak_on_strong]
    assert measure(rows, "v").kept  # 10 caught against 4 refused on every match
    on_strong = measure(rows, "v", strong_only=True)
    assert (on_strong.caught, on_strong.refused, on_strong.kept) == (1, 4, False)
    assert measure([*_rows("a", "w", 0, 1), *(replace(r, strong=True) for r in _rows("a", "w", 3, 0))], "w",
                   strong_only=True).kept
    assert strong_match({"similarity": 0.9, "span_near": 1.0})
    assert not strong_match({"similarity": 0.9, "span_near": 0.5})
    assert not strong_match({"similarity": 0.8, "span_near": 1.0})


def test_sets_of_one_family_are_left_out_together() -> None:
    # caught on two sets of one family (written alike), answerable refused on two other families: left out as a
    # family, the family's catches are not held up by its own twin set
    rows = [*_rows("blind30", "narrow", 2, 0), *_rows("blind30b", "narrow", 2, 0),
            *_rows("newuser30", "narrow", 0, 1), *_rows("xname_own3", "narrow", 0, 1)]
    fate = measure(rows, "narrow")
    # left out, the blind family (+4) is not kept by the others (-2); each other family is, by +3: -1 and -1
    assert (fate.held_out, fate.kept) == (-2, False)


def test_the_counts_of_sets_not_replayed_are_carried_from_an_earlier_fates_file() -> None:
    from app.tools.veto_fates import carried

    # replayed now: a new set where the veto refuses two answerable questions; an earlier file counted it on two
    # sets no snapshot is left of, and on the replayed one (whose old count the new one replaces)
    fate = measure(_rows("newuser31", "narrow", 0, 2), "narrow")
    earlier = {"per_set": {"span_own9": {"caught": 3, "refused_answerable": 0},
                           "terms_own9": {"caught": 3, "refused_answerable": 0},
                           "newuser31": {"caught": 5, "refused_answerable": 0}}}
    both = carried(fate, earlier, ["newuser31"])
    assert both.per_set == {"span_own9": [3, 0], "terms_own9": [3, 0], "newuser31": [0, 2]}
    # each family left out is kept by the others (+1, +1, +6): its own net counts, the new family's -2 too
    assert (both.caught, both.refused, both.held_out, both.kept) == (6, 2, 3 + 3 - 2, True)
    assert not carried(fate, {}, ["newuser31"]).kept
