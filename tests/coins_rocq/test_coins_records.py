"""Specs whose output is a record of their own: the fields are the constructor's arguments.

A tuple result (HumanEval/8's ``(sum, product)``, HumanEval/136's ``(largest negative,
smallest positive)``) is as naturally a ``Record`` as a product or two binders. The specs
here are written for these tests in that shape.
"""

from __future__ import annotations

import pytest

from coins_rocq import CoqtopPool, check_specs
from coins_rocq.humaneval import humaneval_cases
from coins_rocq.mutate import mutants
from coins_rocq.render import render
from coins_rocq.upstream import UpstreamFormatError, read_upstream
from coins_rocq.values import Constructed

SUM_PRODUCT_8 = """Require Import ZArith List.
Open Scope Z_scope.
Record sum_prod := mk_sum_prod { total : Z ; product : Z }.
Definition Spec (l : list Z) (r : sum_prod) : Prop :=
  total r = fold_right Z.add 0 l /\\ product r = fold_right Z.mul 1 l.
"""

NEG_POS_136 = """Require Import ZArith List.
Open Scope Z_scope.
Record extremes : Type := { largest_negative : option Z; smallest_positive : option Z }.
Definition pick (keep : Z -> bool) (better : Z -> Z -> Z) (l : list Z) : option Z :=
  fold_right (fun x acc => if keep x then match acc with None => Some x | Some y => Some (better x y) end
                           else acc) None l.
Definition Spec (lst : list Z) (e : extremes) : Prop :=
  largest_negative e = pick (fun x => x <? 0) Z.max lst /\\ smallest_positive e = pick (fun x => 0 <? x) Z.min lst.
"""


def test_a_record_is_one_constructor_whose_arguments_are_its_fields() -> None:
    output = read_upstream(SUM_PRODUCT_8, "HumanEval/8").output
    assert [c.name for c in output.constructors()] == ["CoinsSpec.mk_sum_prod"]
    assert render((6, 6), output) == "(CoinsSpec.mk_sum_prod 6%Z 6%Z)"
    assert mutants((6, 6), output, 2) == [
        (Constructed(0, (7, 6)), "argument component 1 off by one (+1)"),
        (Constructed(0, (6, 7)), "argument component 2 off by one (+1)"),
    ]
    unnamed = read_upstream(NEG_POS_136, "HumanEval/136").output
    assert render((None, 1), unnamed) == "(CoinsSpec.Build_extremes (@None Z) (@Some Z 1%Z))"


@pytest.mark.parametrize(
    "record",
    [
        "Record tree := { label : Z; kids : list tree }.",  # recursive
        "Record box (A : Type) := { item : A; weight : Z }.",  # parameterised
        "Record odd := { f (x : Z) : Z }.",  # a field with binders
    ],
)
def test_records_the_checker_cannot_render_are_refused_by_name(record: str) -> None:
    name = record.split()[1]
    source = f"Require Import ZArith List.\n{record}\nDefinition Spec (l : list Z) (r : {name}) : Prop := True.\n"
    with pytest.raises(UpstreamFormatError, match="not one the checker can render"):
        read_upstream(source, "HumanEval/8")


@pytest.mark.slow
def test_record_specs_are_judged_and_wrong_ones_never_correct() -> None:
    judged = [
        (SUM_PRODUCT_8, 8, "correct"),
        (NEG_POS_136, 136, "correct"),
        (SUM_PRODUCT_8.replace("Z.mul 1 l", "Z.add 1 l"), 8, "too_strong"),
        (SUM_PRODUCT_8.replace(" /\\ product r = fold_right Z.mul 1 l", ""), 8, "too_weak"),
        (NEG_POS_136.replace("Z.min lst", "Z.max lst"), 136, "too_strong"),
    ]
    items = [(src, read_upstream(src, f"HumanEval/{n}"), humaneval_cases(f"HumanEval/{n}")) for src, n, _ in judged]
    with CoqtopPool(2) as pool:
        reports = check_specs(items, pool)
    verdicts = [(n, r.verdict, r.reason[:160]) for (_, n, _), r in zip(judged, reports, strict=True)]
    assert [v for _, v, _ in verdicts] == [want for _, _, want in judged], verdicts
