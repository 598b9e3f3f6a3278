"""The curated specs: every one is judged correct on all its HumanEval cases, and a fixed
mutation of each, weakened or strengthened, gets the verdict it deserves (one pool for all).

The variants are made by one documented, type-directed transformation (``variant``): the
spec's own ``<entry>_spec`` is renamed ``<entry>_spec_unmutated`` and a new ``<entry>_spec``
is defined from it, with the precondition left as it is. With ``m`` the first mutation the
checker applies to an output of that type (see ``coins_rocq.mutate``):

* weaker: ``spec x r \\/ spec x (m^-1 r)`` for numbers and booleans (``r - 1``, ``pred r``,
  ``negb r``), ``spec x r \\/ r = empty`` for strings, lists and options (``""``, ``nil``,
  ``None``); for a pair, the same on its first component. It accepts the mutant ``m t`` of every
  true output ``t``, so the checker must call it ``too_weak``.
* stronger: ``spec x r /\\ spec x (m r)`` (``r + 1``, ``S r``, ``negb r``) or
  ``spec x r /\\ r = empty``; it rejects every true output that is not empty, so the checker
  must call it ``too_strong``.

The specs in ``specs/pending/`` are written and judged correct here too, on cases this module
builds (inputs drawn as the problem's own check draws them, outputs from the canonical solution),
until the checker can find their HumanEval cases itself; ``NOT_CURATED`` says why each is pending.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Literal

import pytest

from coins_rocq import CoqtopPool, Limits, check_specs
from coins_rocq.curated import SPECS_DIR, CuratedSpec, curated_specs
from coins_rocq.humaneval import extract_inputs, humaneval_cases, problem, run_solution
from coins_rocq.obligations import Case, prelude
from coins_rocq.rtypes import RType, ValueTypeError, coerce

REQUIRED = {13, 23, 30, 34, 35, 42, 48, 53}

PENDING_DIR = SPECS_DIR / "pending"
"""Specs judged correct on cases built in this module, waiting for the checker to find their cases."""

PENDING = "spec in specs/pending/, judged correct here on cases built below; "

NOT_CURATED: dict[int, str] = {
    22: "input is a list of arbitrary Python values (no Rocq type)",
    32: PENDING + "humaneval_cases finds none (check draws random polynomials)",
    38: PENDING + "humaneval_cases finds none (check is a round trip on random strings)",
    50: PENDING + "humaneval_cases finds none (check is a round trip on random strings)",
    78: PENDING + "one HumanEval case passes [] for the string argument, which makes the whole spec invalid today",
    92: "inputs mix ints and floats and the answer depends on which (3.0 vs 3); Q cannot tell them apart",
    95: "input is a dict with keys of mixed types",
    103: "output is a string or the int -1",
    111: "output is a dict",
    125: "output is a list of strings or an int",
    137: "inputs and output mix ints, floats, strings and None",
    148: PENDING + "its outputs are Python tuples of any length, which a list type does not accept today",
}

LIMITS = Limits(goal_timeout_s=15)
"""A roomier per-goal timeout than the default 5 s, so that a loaded machine does not turn a slow
proof into an unknown (the decided goals of these specs take well under a second alone)."""

VARIANT_CASES = 3
"""Cases per variant: the first three whose output is not empty (all of them count for the
verdict, so one in which the mutant or the rejected output shows up is enough)."""

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
    assert len(specs) >= 40 and REQUIRED <= numbers
    text = " ".join(str(s.signature) for s in specs)
    for rocq_type in ("Z", "nat", "bool", "string", "list", "option", " * ", "Q", "R"):
        assert rocq_type in text
    by_id = {s.task_id: str(s.signature) for s in specs}
    assert by_id["HumanEval/53"] == "add (x : Z) (y : Z) : Z"
    assert by_id["HumanEval/30"] == "get_positive (l : list Z) : list Z"


def test_every_problem_is_curated_or_listed_with_the_reason_it_is_not() -> None:
    numbers = {int(s.task_id.rsplit("/", 1)[1]) for s in curated_specs()}
    assert numbers.isdisjoint(NOT_CURATED)
    assert numbers | set(NOT_CURATED) == set(range(164))
    for spec in curated_specs():
        assert spec.source.lstrip().startswith("(*"), f"{spec.task_id}: the spec opens with a comment giving its meaning"


@pytest.mark.slow
def test_every_curated_spec_is_correct_on_all_its_cases(pool: CoqtopPool) -> None:
    specs = by_prelude(curated_specs())
    items = [(s.source, s.signature, humaneval_cases(s.task_id)) for s in specs]
    reports = check_specs(items, pool, LIMITS)
    wrong = {s.task_id: (r.verdict, r.reason[:200]) for s, r in zip(specs, reports) if r.verdict != "correct"}
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
    """The empty value of a string, list or option type."""
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


def _is_empty(value: object, rtype: RType) -> bool:
    """True when ``value`` is the empty value the variant rule of ``rtype`` would compare with."""
    if rtype.kind == "prod":
        return _is_empty(value[0], rtype.args[0]) if isinstance(value, tuple) else False
    return rtype.kind in ("string", "list", "option") and value in ("", [], None)


def variant_cases(spec: CuratedSpec, cases: list[Case]) -> list[Case]:
    """The first ``VARIANT_CASES`` of ``cases`` whose true output is not empty (see ``_is_empty``)."""
    return [c for c in cases if not _is_empty(c.output, spec.signature.output)][:VARIANT_CASES]


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
    return (f"{renamed.rstrip()}\nDefinition {name} {' '.join(params)} (coins_r : {signature.output.rocq()}) : Prop :=\n"
            f"  {connective} ({base} coins_r) {extra}.\n")


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["weaker", "stronger"])
def test_every_mutated_variant_gets_the_verdict_it_deserves(pool: CoqtopPool, kind: Kind) -> None:
    curated, pending = curated_specs(), curated_specs(PENDING_DIR)
    cases = {s.task_id: humaneval_cases(s.task_id) for s in curated} | {s.task_id: pending_cases(s) for s in pending}
    specs = by_prelude(curated + pending)
    items = [(variant(s, kind), s.signature, variant_cases(s, cases[s.task_id])) for s in specs]
    reports = check_specs(items, pool, LIMITS, mutants_per_case=1)
    wrong = {s.task_id: (r.verdict, r.reason[:200]) for s, r in zip(specs, reports) if r.verdict != EXPECTED[kind]}
    assert wrong == {}



def _random_polynomials(count: int) -> list[tuple[list[int]]]:
    """Coefficient lists drawn as HumanEval/32's check draws them (same seed, same rule)."""
    import random

    rng = random.Random(42)
    out = []
    for _ in range(count):
        coeffs = [rng.randint(-10, 10) or 1 for _ in range(2 * rng.randint(1, 4))]
        out.append((coeffs,))
    return out


def _random_words(seed: int, count: int) -> list[str]:
    """Lowercase words of 10 to 20 letters, as the round-trip checks of 38 and 50 draw them, and short ones."""
    import random
    import string

    rng = random.Random(seed)
    return ["", "a", "ab", "abc"] + ["".join(rng.choice(string.ascii_lowercase) for _ in range(rng.randint(10, 20)))
                                      for _ in range(count)]


def _encoded(task_id: str, encoder: str, words: list[str]) -> list[tuple[str]]:
    """``encoder`` (defined in the problem's prompt) applied to each word, by the sandboxed runner."""
    item = problem(task_id)
    results = run_solution(item["prompt"], encoder, [(w,) for w in words])
    return [(out,) for ok, out in results if ok]


def _typeable_literal_inputs(spec: CuratedSpec) -> list[tuple[object, ...]]:
    """The literal ``candidate(...)`` inputs of the problem that fit the signature's types."""
    return [inputs for inputs in extract_inputs(problem(spec.task_id)["test"]) if _fits(inputs, spec)]


def _fits(inputs: tuple[object, ...], spec: CuratedSpec) -> bool:
    """True when every input has the type of its parameter."""
    try:
        for value, param in zip(inputs, spec.signature.params, strict=True):
            coerce(value, param.rtype)
    except (ValueTypeError, ValueError):
        return False
    return True


def pending_cases(spec: CuratedSpec) -> list[Case]:
    """Cases for a pending spec: inputs as its HumanEval check draws them (or its typeable literal
    calls), outputs from the canonical solution, tuples read as lists."""
    builders = {
        "HumanEval/32": lambda: _random_polynomials(10),
        "HumanEval/38": lambda: _encoded(spec.task_id, "encode_cyclic", _random_words(38, 6)),
        "HumanEval/50": lambda: _encoded(spec.task_id, "encode_shift", _random_words(50, 6)),
    }
    inputs = builders.get(spec.task_id, lambda: _typeable_literal_inputs(spec))()
    item = problem(spec.task_id)
    outputs = run_solution(item["prompt"] + item["canonical_solution"], item["entry_point"], inputs)
    return [Case(tuple(args), list(out) if isinstance(out, tuple) else out)
            for args, (ok, out) in zip(inputs, outputs) if ok]


def test_every_pending_problem_is_listed_as_not_curated() -> None:
    pending = {int(s.task_id.rsplit("/", 1)[1]) for s in curated_specs(PENDING_DIR)}
    assert pending and all(NOT_CURATED[n].startswith(PENDING) for n in pending)
    assert {n for n, why in NOT_CURATED.items() if why.startswith(PENDING)} == pending


@pytest.mark.slow
def test_every_pending_spec_is_correct_on_the_cases_built_for_it(pool: CoqtopPool) -> None:
    specs = curated_specs(PENDING_DIR)
    items = [(s.source, s.signature, pending_cases(s)) for s in specs]
    assert all(len(cases) >= 5 for _, _, cases in items)
    reports = check_specs(items, pool, LIMITS)
    wrong = {s.task_id: (r.verdict, r.reason[:200]) for s, r in zip(specs, reports) if r.verdict != "correct"}
    assert wrong == {}
