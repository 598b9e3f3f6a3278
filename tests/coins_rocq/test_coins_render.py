"""Rendering Python values as Rocq terms, checked by the prover itself."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

import coins_rocq
from coins_rocq.mutate import mutants
from coins_rocq.render import render
from coins_rocq.rtypes import PreconditionViolation, TypeSyntaxError, ValueTypeError, parse_signature, parse_type


def test_terms_have_the_expected_shape() -> None:
    assert render(-3, parse_type("Z")) == "(-3)%Z"
    assert render('say "hi"', parse_type("string")) == '"say ""hi"""%string'
    assert render([[1], []], parse_type("list (list Z)")) == "((1%Z :: @nil Z) :: (@nil Z) :: @nil (list Z))"
    assert render(None, parse_type("option Z")) == "(@None Z)"
    assert "Qmake (-1)%Z 4%positive" in render(-0.25, parse_type("Q"))
    assert "ascii_of_nat 10%nat" in render("a\nb", parse_type("string"))


@pytest.mark.parametrize(
    "value, rtype", [(True, "Z"), (-1, "nat"), (1, "string"), ((1,), "Z * Z"), (float("nan"), "Q")]
)
def test_values_of_the_wrong_type_are_refused(value: object, rtype: str) -> None:
    with pytest.raises(ValueTypeError):
        render(value, parse_type(rtype))


def test_big_nats_are_binary_and_human_eval_values_of_every_shape_render() -> None:
    assert render(5001, parse_type("nat")) == "(Coq.ZArith.BinInt.Z.to_nat 5001%Z)"
    assert render(10**6, parse_type("nat")) == "(CoinsBig.coins_big_nat 1000000%Z)"
    assert render(0.1, parse_type("Q")) == "(Coq.QArith.QArith_base.Qmake 1%Z 10%positive)"
    assert render(3.0, parse_type("Z")) == "3%Z"
    assert render((1, 2), parse_type("list Z")) == render([1, 2], parse_type("list Z"))
    assert render({"a": 2}, parse_type("list (ascii * nat)")) == render([("a", 2)], parse_type("list (ascii * nat)"))
    with pytest.raises(PreconditionViolation):
        render(-1, parse_type("nat"))
    with pytest.raises(ValueTypeError):
        render(2.5, parse_type("Z"))


def test_a_decimal_numeral_string_is_read_as_its_number_where_the_spec_takes_q_or_r() -> None:
    """HumanEval/99 passes its number as text ("14.5"); a spec over ``R`` reads it as 29/2."""
    real = parse_type("R")
    assert render("14.5", real) == render(14.5, real)
    assert render("-15.5", parse_type("Q")) == render(-15.5, parse_type("Q"))
    assert render("10", real) == "(Coq.Reals.Rdefinitions.IZR 10%Z)"
    for bad in ("abc", "1e5", "nan", "", "1.5.2", "0.12345678901234567891"):
        with pytest.raises(ValueTypeError):
            render(bad, real)
    with pytest.raises(ValueTypeError):
        render("14", parse_type("Z"))


def test_bad_types_are_refused() -> None:
    for bad in ("list", "int", "Z ->", "(Z"):
        with pytest.raises(TypeSyntaxError):
            parse_type(bad)
    with pytest.raises(TypeSyntaxError):
        parse_signature("add x y : Z")


def test_the_prover_reads_rendered_terms_back_as_the_intended_values(tmp_path: Path) -> None:
    checks = [
        ("(-3)%Z", "Z", render(-3, parse_type("Z"))),
        ('"say ""hi"""%string', "string", render('say "hi"', parse_type("string"))),
        ('String (ascii_of_nat 10) ""%string', "string", render("\n", parse_type("string"))),
        (
            "String (ascii_of_nat 195) (String (ascii_of_nat 169) EmptyString)",
            "string",
            render("é", parse_type("string")),
        ),
        ('((1, true), "x"%string)', "Z * bool * string", render((1, True, "x"), parse_type("Z * bool * string"))),
        ("((1 :: nil) :: nil :: nil)%list", "list (list Z)", render([[1], []], parse_type("list (list Z)"))),
        ("Some (-2)%Z", "option Z", render(-2, parse_type("option Z"))),
        ("(-1 # 4)%Q", "Q", render(-0.25, parse_type("Q"))),
        ("(1 # 10)%Q", "Q", render(0.1, parse_type("Q"))),
        ("25361%nat", "nat", render(25361, parse_type("nat"))),
        ("53361%nat", "nat", render(53361, parse_type("nat"))),
        ('["a"; """" ; " "]%char', "list ascii", render('a" ', parse_type("list ascii"))),
        (
            "[ascii_of_nat 10; ascii_of_nat 195; ascii_of_nat 169]",
            "list ascii",
            render("\né", parse_type("list ascii")),
        ),
        ('"x"%char', "ascii", render("x", parse_type("ascii"))),
        ('[("b"%char, 4%nat)]', "list (ascii * nat)", render({"b": 4}, parse_type("list (ascii * nat)"))),
    ]
    helpers = (Path(coins_rocq.__file__).parent / "ltac" / "helpers.v").read_text(encoding="utf-8")
    sealed = helpers[helpers.index("Module Type CoinsBigNat.") : helpers.index("Import CoinsBig.")]
    lines = ["From Coq Require Import ZArith String List Ascii QArith.", "Import ListNotations.", "Open Scope Z_scope."]
    lines.append(sealed)
    for i, (expected, rtype, term) in enumerate(checks):
        lines.append(
            f"Lemma same{i} : @eq {parse_type(rtype).rocq()} {term} ({expected})."
            " Proof. rewrite ?CoinsBig.coins_big_nat_eq. reflexivity. Qed."
        )
    (tmp_path / "Render.v").write_text("\n".join(lines) + "\n")
    proc = subprocess.run(["coqc", "-q", "Render.v"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr + proc.stdout


def test_mutants_are_distinct_wrong_and_at_least_five_where_possible() -> None:
    for value, rtype in [
        (5, "Z"),
        ("abc", "string"),
        ([1, 2, 3], "list Z"),
        ((1, "x"), "Z * string"),
        (None, "option Z"),
        (0.5, "Q"),
    ]:
        found = mutants(value, parse_type(rtype))
        terms = {render(v, parse_type(rtype)) for v, _ in found}
        assert len(found) >= 5 and len(terms) == len(found)
        assert render(value, parse_type(rtype)) not in terms
    assert mutants(True, parse_type("bool")) == [(False, "negated")]


def test_a_dict_output_has_no_mutant_that_is_the_same_dict() -> None:
    """A dict is given as a list of pairs: its reorderings and repeated pairs are the same dict, not wrong outputs."""
    from coins_rocq.checker import validate_case
    from coins_rocq.obligations import Case

    signature = parse_signature("histogram (s : string) : list (string * nat)")
    case = validate_case(Case(("a b",), {"a": 1, "b": 1}), signature, 0)
    assert case.mapping and case.output == [("a", 1), ("b", 1)]
    wrong = [value for value, _ in mutants(case.output, signature.output, 20, mapping=case.mapping)]
    assert wrong and all(dict(value) != {"a": 1, "b": 1} for value in wrong)
    assert all(len({k for k, _ in value}) == len(value) for value in wrong)
    assert [("b", 1), ("a", 1)] in [value for value, _ in mutants(case.output, signature.output, 20)]


def test_python_values_render_as_pyvalue_keeping_their_python_type(tmp_path: Path) -> None:
    """``3`` and ``3.0`` are different pyvalues (HumanEval/92 tells them apart); the prover agrees."""
    from coins_rocq.rtypes import PYVALUE_DEFINITION

    py = parse_type("pyvalue")
    assert render(3, py) == "(PyInt 3%Z)" and render(3.0, py).startswith("(PyFloat (")
    assert render(None, py) == "PyNone" and render(True, py) == "(PyBool true)"
    checks = [
        ('PyList [PyInt 4; PyDict nil; PyList nil; PyFloat (116 # 5)%Q; PyStr "a"]', [4, {}, [], 23.2, "a"]),
        ("PyTuple [PyInt (-1); PyNone; PyBool false]", (-1, None, False)),
        ('PyDict [(PyStr "k", PyFloat (5 # 2)%Q)]', {"k": 2.5}),
    ]
    lines = [
        "From Coq Require Import ZArith String List Bool Ascii QArith.",
        PYVALUE_DEFINITION,
        "Import ListNotations.",
        "Open Scope Z_scope.",
    ]
    for i, (expected, value) in enumerate(checks):
        lines.append(f"Lemma same{i} : @eq pyvalue {render(value, py)} ({expected}). Proof. reflexivity. Qed.")
    lines.append(f"Lemma differ : {render(3, py)} <> {render(3.0, py)}. Proof. discriminate. Qed.")
    (tmp_path / "Py.v").write_text("\n".join(lines) + "\n")
    proc = subprocess.run(["coqc", "-q", "Py.v"], cwd=tmp_path, capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr + proc.stdout


@pytest.mark.parametrize("value", [{1, 2}, float("inf"), [float("nan")], {"k": object()}, b"bytes", 1j])
def test_what_is_not_a_python_literal_value_is_refused_as_a_pyvalue(value: object) -> None:
    with pytest.raises(ValueTypeError, match=r"pyvalue|rational"):
        render(value, parse_type("pyvalue"))


def test_a_pyvalue_nested_too_deep_is_refused_not_a_crash() -> None:
    deep: list[object] = []
    for _ in range(1000):
        deep = [deep]
    with pytest.raises(ValueTypeError, match="nested deeper"):
        render(deep, parse_type("pyvalue"))


def test_mutants_of_a_python_value_are_wrong_by_python_equality() -> None:
    """None first; never a value Python's ``==`` calls equal (``2.0`` for ``2``, ``True`` for ``1``)."""
    py = parse_type("pyvalue")
    for value in (2, 1, 2.5, 0.0, "2,3", None, True, [1, "a"], (1, 2), {"a": 1}, []):
        found = [v for v, _ in mutants(value, py, 20)]
        assert found and all(v != value for v in found), value
        assert len({render(v, py) for v in found}) == len(found)
        if value is not None:
            assert found[0] is None
