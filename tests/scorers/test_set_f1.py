"""Set precision, recall and F1 on hand-made sets, and micro counts."""

from __future__ import annotations

import pytest

from scorers.set_f1 import SetMatch, match_sets, micro_counts


def test_hand_made_sets() -> None:
    m = match_sets(["T1071", "T1059", "T1105"], ["T1071", "T1059", "T1027", "T1055"])
    assert (m.tp, m.fp, m.fn) == (2, 1, 2)
    assert m.precision == pytest.approx(2 / 3)
    assert m.recall == pytest.approx(0.5)
    assert m.f1 == pytest.approx(4 / 7)
    assert not m.exact


def test_equal_disjoint_and_empty_sets() -> None:
    assert match_sets(["a", "b", "a"], ["b", "a"]).f1 == 1.0
    assert match_sets(["a", "b"], ["b", "a"]).exact
    assert match_sets(["x"], ["y"]).f1 == 0.0
    assert match_sets([], ["y"]).f1 == 0.0
    assert match_sets([], ["y"]).precision == 0.0
    assert match_sets([], []).f1 == 1.0


def test_micro_counts_pool_before_dividing() -> None:
    pooled = micro_counts([match_sets(["a"], ["a"]), match_sets(["b", "c", "d"], ["e"])])
    assert pooled == SetMatch(tp=1, fp=3, fn=1)
    assert pooled.f1 == pytest.approx(2 / 6)
