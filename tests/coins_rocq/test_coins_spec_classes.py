"""The classes of human specs the checker reads by one mechanism each (issue 36).

Binder alignment (output anywhere, a tuple output over several binders, no output binder),
output types of constructors (``sum``, the spec's own ``Inductive``), finding the spec by what
it is (``--spec`` to override) and trusted libraries (Coquelicot). Every spec is written here in
the shape the upstream human specs use; the HumanEval cases are the evidence of types.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from coins_rocq import CoqtopPool, check_specs
from coins_rocq.cli import coins_group
from coins_rocq.humaneval import humaneval_cases
from coins_rocq.mutate import mutants
from coins_rocq.obligations import Case, build_obligations
from coins_rocq.render import render
from coins_rocq.rtypes import parse_type
from coins_rocq.safety import UnsafeSpec, screen
from coins_rocq.upstream import UpstreamFormatError, read_upstream, upstream_signature
from coins_rocq.values import Constructed

FILTER_7 = """Require Import Coq.Strings.String Coq.Lists.List.
Definition has_sub (sub s : string) : bool := match String.index 0 sub s with Some _ => true | None => false end.
Definition problem_7_spec (input output : list string) (sub : string) : Prop :=
  output = filter (has_sub sub) input.
"""

INTERSPERSE_5 = """Require Import ZArith List.
Open Scope Z_scope.
Fixpoint inter (l : list Z) (d : Z) : list Z :=
  match l with nil => nil | x :: t => match t with nil => x :: nil | _ => x :: d :: inter t d end end.
Definition problem_5_spec (input output : list Z) (d : Z) : Prop := output = inter input d.
"""

SUM_PRODUCT_8 = """Require Import ZArith List.
Open Scope Z_scope.
Definition sum_product_spec : list Z -> Z -> Z -> Prop :=
  fun l s p => s = fold_right Z.add 0 l /\\ p = fold_right Z.mul 1 l.
"""

NEG_POS_136 = """Require Import ZArith List.
Open Scope Z_scope.
Definition pick (keep : Z -> bool) (better : Z -> Z -> Z) (l : list Z) : option Z :=
  fold_right (fun x acc => if keep x then match acc with None => Some x | Some y => Some (better x y) end
                           else acc) None l.
Definition Spec (lst : list Z) (output1 output2 : option Z) : Prop :=
  output1 = pick (fun x => x <? 0) Z.max lst /\\ output2 = pick (fun x => 0 <? x) Z.min lst.
"""

PALINDROME_48 = """Require Import Ascii List.
Definition is_palindrome (s : list ascii) : Prop := s = rev s.
Definition is_palindrome_spec (s : list ascii) : Prop := is_palindrome s.
"""

BELOW_52 = """Require Import ZArith List.
Open Scope Z_scope.
Definition below_threshold_spec_aux (l : list Z) (t : Z) : Prop := forallb (fun x => x <? t) l = true.
Definition Spec_logic (l : list Z) (t : Z) : Prop := below_threshold_spec_aux l t.
"""

ROUNDED_103 = """Require Import ZArith String.
Open Scope Z_scope.
Inductive result := NoAnswer | Binary (s : string).
Fixpoint bits (fuel : nat) (z : Z) : string :=
  match fuel with O => EmptyString
  | S f => if z <=? 0 then EmptyString else append (bits f (z / 2)) (if Z.odd z then "1" else "0") end.
Definition avg (n m : Z) : Z :=
  let s := n + m in let q := s / 2 in if Z.even s then q else if Z.even q then q else q + 1.
Definition Spec (n m : Z) (r : result) : Prop :=
  if m <? n then r = NoAnswer else r = Binary (append "0b" (bits 64 (avg n m))).
"""

ROUNDED_103_SUM = ROUNDED_103.replace("Inductive result := NoAnswer | Binary (s : string).\n", "").replace(
    "(r : result) : Prop :=\n  if m <? n then r = NoAnswer else r = Binary",
    "(r : sum Z string) : Prop :=\n  if m <? n then r = inl (-1) else r = inr",
)

SPLIT_WORDS_125 = """Require Import Ascii List String Arith.
Import ListNotations.
Definition is_ws (c : ascii) : bool := let n := nat_of_ascii c in (n =? 32) || ((9 <=? n) && (n <=? 13)).
Fixpoint words (sep : ascii -> bool) (l : list ascii) (cur : list ascii) : list (list ascii) :=
  match l with
  | [] => match cur with [] => [] | _ => [rev cur] end
  | c :: t => if sep c then match cur with [] => words sep t [] | _ => rev cur :: words sep t [] end
              else words sep t (c :: cur)
  end.
Definition odd_lower (c : ascii) : bool := let n := nat_of_ascii c in (97 <=? n) && (n <=? 122) && Nat.even n.
Definition split_words_spec (input : list ascii) (output : sum (list (list ascii)) nat) : Prop :=
  if existsb is_ws input then output = inl (words is_ws input [])
  else if existsb (fun c => Ascii.eqb c ","%char) input
  then output = inl (words (fun c => is_ws c || Ascii.eqb c ","%char) input [])
  else output = inr (List.length (filter odd_lower input)).
"""

ADD_53 = """Require Import ZArith.
Open Scope Z_scope.
Definition Spec (s : bool) : Prop := s = true.
Definition add (x y : Z) : Prop := x <= y.
Definition Spec_logic (x y output : Z) : Prop := output = x + y.
"""

TRIANGLE_45 = """Require Import Coquelicot.Coquelicot.
Require Import Reals.
Open Scope R_scope.
Definition Spec (a h output : R) : Prop := output = a * h / 2.
"""


def _sig(source: str, number: int, spec: str | None = None) -> str:
    signature = read_upstream(source, f"HumanEval/{number}", spec)
    assert signature.spec_layout is not None
    described = signature.spec_layout.describe([p.name for p in signature.params])
    return f"{signature.spec_name}: {signature} | {described}"


def test_binders_are_aligned_by_the_cases_types_and_names() -> None:
    assert _sig(FILTER_7, 7) == (
        "problem_7_spec: filter_by_substring (strings : list string) (substring : string) : list string"
        " | input <- strings, output <- result, sub <- substring"
    )
    assert _sig(INTERSPERSE_5, 5).endswith("input <- numbers, output <- result, d <- delimeter")
    assert _sig(SUM_PRODUCT_8, 8) == (
        "sum_product_spec: sum_product (numbers : list Z) : Z * Z | _1 <- numbers, _2 <- result[0], _3 <- result[1]"
    )
    assert _sig(NEG_POS_136, 136).endswith(
        ": option Z * option Z | lst <- lst, output1 <- result[0], output2 <- result[1]"
    )
    assert _sig(PALINDROME_48, 48) == "is_palindrome_spec: is_palindrome (text : list ascii) : bool | s <- text"


def test_an_alignment_that_ties_is_refused_and_one_that_fits_no_case_is_explained() -> None:
    tied = "Definition Spec (w : Z) (x : string) (y : Z) (z : string) : Prop := True."
    each_fits_one = [Case(("s", 1, 2), "t"), Case((1, "s", "t"), 2)]
    with pytest.raises(UpstreamFormatError, match="equally well in 2 ways"):
        upstream_signature(tied, "f", 3, cases=each_fits_one, param_names=["a", "b", "c"])
    cases = [Case((1, 2), 3)]
    plain = "Definition Spec (a b c : Z) : Prop := True."
    assert upstream_signature(plain, "f", 2, cases=cases).spec_layout.roles[-1] == ("output", -1)  # type: ignore[union-attr]
    with pytest.raises(UpstreamFormatError, match="no test case's values fit"):
        upstream_signature("Definition Spec (s : string) (o : Z) : Prop := True.", "f", 1, cases=[Case((1,), 2)])
    with pytest.raises(UpstreamFormatError, match="at least 2"):
        upstream_signature("Definition Spec (x : Z) : Prop := True.", "f", 2, cases=cases)


def test_the_spec_is_found_by_its_binders_and_spec_overrides() -> None:
    assert _sig(ADD_53, 53).startswith("Spec_logic: add (x : Z) (y : Z) : Z")
    assert _sig(BELOW_52, 52).startswith("Spec_logic: below_threshold (l : list Z) (t : Z) : bool")
    both = f"{ADD_53}Definition problem_53_spec (a b c : Z) : Prop := c = a + b."
    assert _sig(both, 53).startswith("problem_53_spec:")
    assert _sig(BELOW_52, 52, spec="below_threshold_spec_aux").startswith("below_threshold_spec_aux:")
    with pytest.raises(UpstreamFormatError, match="no Prop-valued definition named 'Nope'"):
        read_upstream(ADD_53, "HumanEval/53", "Nope")
    with pytest.raises(UpstreamFormatError, match=r"Spec: .*binders"):
        read_upstream(ADD_53, "HumanEval/53", "Spec")


def test_the_cli_prints_the_chosen_spec_and_its_binders_and_spec_overrides(tmp_path: Path) -> None:
    spec = tmp_path / "spec.v"
    spec.write_text(ADD_53, encoding="utf-8")
    check = ["check", str(spec), "--problem", "HumanEval/53", "--max-cases", "2"]
    missing = CliRunner().invoke(coins_group, [*check, "--spec", "Nope"])
    assert missing.exit_code == 2 and "no Prop-valued definition named 'Nope'" in missing.output
    chosen = CliRunner().invoke(coins_group, [*check, "--spec", "Spec_logic"])
    assert chosen.exit_code == 0, chosen.output
    assert "binders of Spec_logic: x <- x, y <- y, output <- result" in chosen.output


def test_constructor_types_are_read_from_the_spec_and_values_take_the_constructor_they_fit() -> None:
    signature = read_upstream(ROUNDED_103, "HumanEval/103")
    output = signature.output
    assert [c.name for c in output.constructors()] == ["CoinsSpec.NoAnswer", "CoinsSpec.Binary"]
    assert render(-1, output) == "CoinsSpec.NoAnswer"
    assert render("0b11", output) == '(CoinsSpec.Binary "0b11"%string)'
    wrong = [how for _, how in mutants("0b11", output, 3)]
    assert wrong[:2] == ["argument empty", "constructor NoAnswer instead"]
    assert mutants(-1, output, 3)[0] == (Constructed(1, ("a",)), "constructor Binary instead")
    union = parse_type("sum (list (list ascii)) nat")
    assert render(2, union).startswith("(@Coq.Init.Datatypes.inr (list (list Coq.Strings.Ascii.ascii)) nat 2%nat")
    assert render(["ab"], union).startswith("(@Coq.Init.Datatypes.inl")
    assert parse_type("Z + string * Z") == parse_type("sum Z (string * Z)")
    arrows = ROUNDED_103.replace(
        "Inductive result := NoAnswer | Binary (s : string).",
        "Inductive result : Type :=\n| NoAnswer : result\n| Binary : string -> result.",
    )
    assert read_upstream(arrows, "HumanEval/103").output == output
    recursive = "Inductive t := Leaf | Node (l r : t).\nDefinition Spec (n m : Z) (o : t) : Prop := True."
    with pytest.raises(UpstreamFormatError, match="not one the checker can render"):
        read_upstream(recursive, "HumanEval/103")


def test_a_predicate_spec_gets_one_goal_per_case_its_truth_the_output() -> None:
    signature = read_upstream(PALINDROME_48, "HumanEval/48")
    goals = build_obligations(signature, [Case(("aba",), True), Case(("ab",), False)], has_pre=False)
    assert [(ob.kind, ob.goal.startswith("Coq.Init.Logic.not")) for ob in goals] == [
        ("completeness", False),
        ("completeness", True),
    ]


def test_trusted_libraries_pass_the_screen_and_others_do_not() -> None:
    screen("Require Import Coquelicot.Coquelicot.\nFrom Coquelicot Require Import Hierarchy.")
    for hostile, reason in [
        ("Require Import mathcomp.ssreflect.ssreflect.", "neither in the standard library nor in a trusted"),
        ("From mathcomp Require Import ssreflect.", "only 'From Coq Require ...'"),
        ("From Coquelicot Require Import Nope.", "not installed (Debian package libcoq-coquelicot)"),
    ]:
        with pytest.raises(UnsafeSpec, match=re.escape(reason)):
            screen(hostile)


@pytest.mark.slow
def test_specs_of_every_class_are_judged_and_wrong_ones_never_correct() -> None:
    judged = [
        (FILTER_7, 7, "correct"),
        (INTERSPERSE_5, 5, "correct"),
        (SUM_PRODUCT_8, 8, "correct"),
        (NEG_POS_136, 136, "correct"),
        (PALINDROME_48, 48, "correct"),
        (BELOW_52, 52, "correct"),
        (ROUNDED_103, 103, "correct"),
        (ROUNDED_103_SUM, 103, "correct"),
        (SPLIT_WORDS_125, 125, "correct"),
        (ADD_53, 53, "correct"),
        (TRIANGLE_45, 45, "correct"),
        (SUM_PRODUCT_8.replace("Z.mul 1", "Z.mul 0"), 8, "too_strong"),
        (PALINDROME_48.replace("s = rev s", "False"), 48, "too_strong"),
        (PALINDROME_48.replace("s = rev s", "True"), 48, "too_strong"),
        (ROUNDED_103.replace("bits 64 (avg n m)", "bits 64 (n + m)"), 103, "too_strong"),
        (ROUNDED_103_SUM.replace("r = inr (append", "r = inr EmptyString \\/ r = inr (append"), 103, "too_weak"),
        (SPLIT_WORDS_125.replace("Nat.even n", "Nat.odd n"), 125, "too_strong"),
        (TRIANGLE_45.replace("output = a * h / 2", "False"), 45, "too_strong"),
    ]
    items = [(src, read_upstream(src, f"HumanEval/{n}"), humaneval_cases(f"HumanEval/{n}")) for src, n, _ in judged]
    with CoqtopPool(2) as pool:
        reports = check_specs(items, pool)
    verdicts = [(n, r.verdict, r.reason[:120]) for (_, n, _), r in zip(judged, reports, strict=True)]
    assert [v for _, v, _ in verdicts] == [want for _, _, want in judged], verdicts
