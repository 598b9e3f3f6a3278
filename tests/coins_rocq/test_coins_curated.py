"""The curated specs: every one is judged correct on all its HumanEval cases, and a fixed
mutation of each, weakened or strengthened, gets the verdict it deserves (one pool for all).

The variants are made by one documented, type-directed transformation (``variant``): the
spec's own ``<entry>_spec`` is renamed ``<entry>_spec_unmutated`` and a new ``<entry>_spec``
is defined from it, with the precondition left as it is. With ``m`` the first mutation the
checker applies to an output of that type (see ``coins_rocq.mutate``):

* weaker: ``spec x r \\/ spec x (m^-1 r)`` for numbers and booleans (``r - 1``, ``pred r``,
  ``negb r``), ``spec x r \\/ r = empty`` for strings, lists and options (``""``, ``nil``,
  ``None``) and Python values (``PyNone``); for a pair, the same on its first component. It
  accepts the mutant ``m t`` of every true output ``t``, so the checker must call it ``too_weak``.
* stronger: ``spec x r /\\ spec x (m r)`` (``r + 1``, ``S r``, ``negb r``) or
  ``spec x r /\\ r = empty``; it rejects every true output that is not empty, so the checker
  must call it ``too_strong``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from fractions import Fraction
from typing import Literal

import pytest

from coins_rocq import CoqtopPool, check_specs
from coins_rocq.curated import CuratedSpec, curated_specs
from coins_rocq.floats import round_float_output, rounding_unit
from coins_rocq.humaneval import humaneval_cases
from coins_rocq.obligations import Case, prelude
from coins_rocq.rtypes import RType

REQUIRED = {13, 23, 30, 34, 35, 42, 48, 53}

VARIANT_CASES = 1
"""Cases per variant: the first one on which the variant shows (``_shows_variant``); one case
whose mutant is accepted, or whose true output is rejected, decides the verdict."""

Kind = Literal["weaker", "stronger"]
EXPECTED: dict[Kind, str] = {"weaker": "too_weak", "stronger": "too_strong"}


@pytest.fixture(scope="module")
def pool() -> Iterator[CoqtopPool]:
    """One persistent pool of two workers for the whole module."""
    with CoqtopPool(2) as shared:
        yield shared


def by_prelude(specs: list[CuratedSpec]) -> list[CuratedSpec]:
    """The specs grouped by the environment they need, so pool workers rarely reload Q or R."""
    return sorted(specs, key=lambda s: prelude(s.signature))


def test_the_curated_set_is_large_and_covers_every_type() -> None:
    specs = curated_specs()
    numbers = {int(s.task_id.rsplit("/", 1)[1]) for s in specs}
    assert len(specs) >= 40 and numbers >= REQUIRED
    text = " ".join(str(s.signature) for s in specs)
    for rocq_type in ("Z", "nat", "bool", "string", "list", "option", " * ", "Q", "R", "pyvalue"):
        assert rocq_type in text
    by_id = {s.task_id: str(s.signature) for s in specs}
    assert by_id["HumanEval/53"] == "add (x : Z) (y : Z) : Z"
    assert by_id["HumanEval/30"] == "get_positive (l : list Z) : list Z"


def test_every_problem_is_curated_once() -> None:
    numbers = [int(s.task_id.rsplit("/", 1)[1]) for s in curated_specs()]
    assert sorted(numbers) == list(range(164))
    for spec in curated_specs():
        assert spec.source.lstrip().startswith("(*"), (
            f"{spec.task_id}: the spec opens with a comment giving its meaning"
        )


@pytest.mark.slow
@pytest.mark.timeout(900)
def test_every_curated_spec_is_correct_on_all_its_cases(pool: CoqtopPool) -> None:
    specs = by_prelude(curated_specs())
    items = [(s.source, s.signature, humaneval_cases(s.task_id)) for s in specs]
    reports = check_specs(items, pool)
    wrong = {
        s.task_id: (r.verdict, r.reason[:200]) for s, r in zip(specs, reports, strict=True) if r.verdict != "correct"
    }
    assert wrong == {}


def _step(rtype: RType, term: str, step: int) -> str | None:
    """``term`` moved one step (``step`` is +1 or -1) for numbers and booleans, else None."""
    kind = rtype.kind
    if kind == "Z":
        return f"(Coq.ZArith.BinInt.Z.add {term} ({step})%Z)"
    if kind == "nat":
        return f"(Coq.Init.Datatypes.S {term})" if step > 0 else f"(Coq.Init.Nat.pred {term})"
    if kind == "bool":
        return f"(Coq.Init.Datatypes.negb {term})"
    if kind == "Q":
        return f"(Coq.QArith.QArith_base.Qplus {term} (Coq.QArith.QArith_base.inject_Z ({step})%Z))"
    if kind == "R":
        return f"(Coq.Reals.Rdefinitions.Rplus {term} (Coq.Reals.Rdefinitions.IZR ({step})%Z))"
    return None


def _empty(rtype: RType) -> str:
    """The empty value of a string, list or option type, ``PyNone`` for a Python value."""
    if rtype.kind == "pyvalue":
        return "PyNone"
    if rtype.kind == "string":
        return '""%string'
    if rtype.kind in ("list", "option"):
        return f"(@{'nil' if rtype.kind == 'list' else 'None'} {rtype.args[0].rocq()})"
    raise ValueError(f"no variant rule for output type {rtype}")


def _extra(kind: Kind, output: RType, base: str, result: str) -> str:
    """The proposition joined to the spec: the spec on the moved output, or the output being empty."""
    step = -1 if kind == "weaker" else 1
    if output.kind == "prod":
        if len(output.args) != 2:
            raise ValueError(f"no variant rule for output type {output}")
        first, second = output.args
        moved = _step(first, f"(Coq.Init.Datatypes.fst {result})", step)
        if moved is None:
            return f"(Coq.Init.Datatypes.fst {result} = {_empty(first)})"
        pair = f"(@pair {first.rocq()} {second.rocq()} {moved} (Coq.Init.Datatypes.snd {result}))"
        return f"({base} {pair})"
    moved = _step(output, result, step)
    return f"({base} {moved})" if moved is not None else f"({result} = {_empty(output)})"


def _shows_variant(value: object, rtype: RType) -> bool:
    """True when the variant rule of ``rtype`` tells ``value`` from its first mutant: the value
    (of a pair, its first component) is not empty, and a float plus 1 is exact in floating point,
    so that the checker's mutant ``float(t + 1)`` is exactly ``t + 1``. A rounded real
    (``rounding_unit``) does not show it either: its true output is refuted only over the whole
    interval it stands for, beyond the ladder for a spec that does not fix its output."""
    if rtype.kind == "prod":
        return isinstance(value, tuple) and _shows_variant(value[0], rtype.args[0])
    if rtype.kind in ("Q", "R"):
        exact = round_float_output(value, rtype)
        return rounding_unit(exact) is None and Fraction(float(Fraction(exact) + 1)) == Fraction(exact) + 1
    if rtype.kind == "pyvalue":
        return value is not None
    return not (rtype.kind in ("string", "list", "option") and value in ("", [], None))


def variant_cases(spec: CuratedSpec, cases: list[Case]) -> list[Case]:
    """The first ``VARIANT_CASES`` of ``cases`` on which the variant shows (see ``_shows_variant``)."""
    return [c for c in cases if _shows_variant(c.output, spec.signature.output)][:VARIANT_CASES]


def variant(spec: CuratedSpec, kind: Kind) -> str:
    """The spec's source with ``<entry>_spec`` weakened or strengthened as the module docstring says."""
    signature = spec.signature
    name = signature.spec_name
    definition = re.compile(rf"(?<![\w']){re.escape('Definition')}(\s+){re.escape(name)}(?![\w'])")
    renamed, count = definition.subn(rf"Definition\g<1>{name}_unmutated", spec.source)
    if count != 1:
        raise ValueError(f"{spec.task_id}: expected one 'Definition {name}', found {count}")
    params = [f"(coins_x{i} : {p.rtype.rocq()})" for i, p in enumerate(signature.params)]
    args = " ".join(f"coins_x{i}" for i in range(len(signature.params)))
    base = f"{name}_unmutated {args}".replace("  ", " ")
    extra = _extra(kind, signature.output, base, "coins_r")
    connective = "Coq.Init.Logic.or" if kind == "weaker" else "Coq.Init.Logic.and"
    return (
        f"{renamed.rstrip()}\nDefinition {name} {' '.join(params)} (coins_r : {signature.output.rocq()}) : Prop :=\n"
        f"  {connective} ({base} coins_r) {extra}.\n"
    )


@pytest.mark.slow
@pytest.mark.timeout(600)
@pytest.mark.parametrize("kind", ["weaker", "stronger"])
def test_every_mutated_variant_gets_the_verdict_it_deserves(pool: CoqtopPool, kind: Kind) -> None:
    specs = by_prelude(curated_specs())
    items = [(variant(s, kind), s.signature, variant_cases(s, humaneval_cases(s.task_id))) for s in specs]
    reports = check_specs(items, pool, mutants_per_case=1)
    wrong = {
        s.task_id: (r.verdict, r.reason[:200])
        for s, r in zip(specs, reports, strict=True)
        if r.verdict != EXPECTED[kind]
    }
    assert wrong == {}
