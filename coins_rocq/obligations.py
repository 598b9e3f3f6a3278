"""Proof obligations of a spec on test cases, and the Rocq text both backends send.

Completeness: for each case ``spec inputs output`` must hold. Soundness: for each mutant
``out'`` of the true output, ``~ spec inputs out'`` must hold. The spec's binders take the
values in the order of the signature's layout (``Signature.spec_roles``: an output in the
middle, a tuple output split over several binders). A spec with no output binder is a predicate
whose truth is the boolean output: each case gives the one goal ``spec inputs`` (output
``true``) or ``~ spec inputs`` (``false``), which is both its completeness and its soundness (the
only wrong output is the other boolean), counted as completeness. When the spec defines a
precondition, each case also gets the obligation ``pre inputs``: the protocol is
``pre inputs -> spec inputs output`` (and ``-> ~ spec inputs out'``), so a case whose
input the precondition provably excludes is left out of the verdict and reported
(``coins_rocq.checker.verdict_of``). Each goal is attacked
with the fixed automation ladder ``LADDER`` under one per-goal ``timeout``; when it
fails, the negated goal gets the same treatment (a proof of the negation refutes it).
The ladder itself is in ``coins_rocq.ladder``.

The checking environment is ``PRELUDE`` (plus ``Reals``/``Lra`` or ``QArith`` when the
signature uses ``R`` or ``Q``, and ``QArith`` with ``PYVALUE_DEFINITION`` when it uses
``pyvalue``); the spec is loaded inside ``Module CoinsSpec`` so that its notations, scopes
and imports end with the module, and obligations name its definitions by their qualified names.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Literal

from coins_rocq.floats import with_unknowns
from coins_rocq.ladder import ladder_tactic as ladder_in_module
from coins_rocq.ladder import probe_definition
from coins_rocq.ladder_ltac import LADDER_LTAC
from coins_rocq.ladder_real import LRA_LTAC, NO_LRA_LTAC, NO_REAL_LTAC, REAL_LTAC
from coins_rocq.mutate import DEFAULT_MUTANTS, mutants
from coins_rocq.render import render
from coins_rocq.rtypes import OUTPUT, PYVALUE_DEFINITION, SPEC_MODULE, RType, Signature

MODULE = SPEC_MODULE
PRELUDE = (
    "From Coq Require Import ZArith Lia String List Bool Ascii Sorting.Sorted.",
    "From Coq Require Sorting.Permutation NArith.Nnat ZArith.Znumtheory.",
)
PRELUDE_Q = ("From Coq Require QArith Qabs.",)
PRELUDE_R = ("From Coq Require Import Reals Lra.",)
SETTINGS = (
    'Set Warnings "-require-in-module,-notation-overridden,-deprecated".',
    "Arguments Z.add : simpl nomatch.",
    "Arguments Z.sub : simpl nomatch.",
    "Arguments Z.mul : simpl nomatch.",
)
"""The prelude's options. ``simpl`` leaves ``2 * k`` with ``k`` a variable as it is instead of
exposing ``Z.mul``'s match on ``k`` (which ``lia`` cannot read); on numerals it still computes."""

Kind = Literal["precondition", "completeness", "soundness"]
KINDS: tuple[Kind, ...] = ("precondition", "completeness", "soundness")


@dataclass(frozen=True)
class Case:
    """One trusted test case: the inputs (in signature order) and the true output.

    ``mapping``: the output is a Python dict given as a list of pairs, so its mutants must
    differ from it as a mapping (a reordering is the same dict, not a wrong output)."""

    inputs: tuple[Any, ...]
    output: Any
    mapping: bool = False


@dataclass(frozen=True)
class Obligation:
    """One goal to discharge: ``goal`` should be provable; ``negation`` refutes it when proved.

    ``interval``: the goal with each rounded real of the true output read as the interval it
    stands for (``interval_goal``), tried when ``goal`` fails; ``negation`` then negates it,
    since only a spec that rejects the whole interval rejects the true output.
    """

    index: int
    kind: Kind
    case: int
    goal: str
    negation: str
    description: str
    interval: str | None = None

    @property
    def negated_goal(self) -> str:
        """The goal whose negation is ``negation``: the interval reading when there is one, else ``goal``."""
        return self.interval or self.goal


def prelude(signature: Signature) -> tuple[str, ...]:
    """The sentences that set up the environment for ``signature``'s types."""
    lines = list(PRELUDE)
    atoms = signature.kinds()
    if "Q" in atoms or "pyvalue" in atoms:
        lines += PRELUDE_Q
    if "pyvalue" in atoms:
        lines.append(PYVALUE_DEFINITION)
    if "R" in atoms:
        lines += PRELUDE_R
        lines += LRA_LTAC
        real = REAL_LTAC
    else:
        lines += NO_LRA_LTAC
        real = NO_REAL_LTAC
    return tuple(lines) + LADDER_LTAC + real + SETTINGS


def setup_sentences(signature: Signature, spec_sentences: tuple[str, ...], has_pre: bool) -> list[str]:
    """The spec inside its module, and checks that its names have the signature's types."""
    out = [f"Module {MODULE}."]
    out.extend(spec_sentences)
    out.append(f"End {MODULE}.")
    out.append(f"Definition coins_spec_type_check : {signature.spec_type()} := {MODULE}.{signature.spec_name}.")
    if has_pre:
        out.append(f"Definition coins_pre_type_check : {signature.pre_type()} := {MODULE}.{signature.pre_name}.")
    return out


def ladder_tactic(definitions: tuple[str, ...], timeout_s: int, left_out: frozenset[str] = frozenset()) -> str:
    """The ladder (``coins_rocq.ladder``) as one tactic over the spec's definitions, without the rungs ``left_out``."""
    return ladder_in_module(definitions, timeout_s, MODULE, left_out)


def data_binder_probe(definitions: tuple[str, ...], statement: str) -> str:
    """The setup sentence that decides, once per spec, whether the first rung may compute (``coins_rocq.ladder``)."""
    return probe_definition(definitions, MODULE, statement)


def probe_statement(obligations: list[Obligation]) -> str:
    """What the binder probe reads: the first case's precondition and completeness goals, as one conjunction."""
    first = [ob.goal for ob in obligations if ob.case == obligations[0].case and ob.kind != "soundness"]
    return first[0] if len(first) == 1 else f"Coq.Init.Logic.and ({first[0]}) ({first[1]})"


def attempt_sentences(name: str, statement: str, ladder: str = "coins_ladder") -> list[str]:
    """Sentences that prove ``statement`` as ``name`` with the job's ``ladder`` and print its assumptions.

    A definition by ``ltac:`` opens no proof (nothing to abort, no goal printed after each
    command); the kernel checks the proof term when the definition is added.
    """
    return [f"Definition {name} : {statement} := ltac:({ladder}).", f"Print Assumptions {name}."]


def ladder_definition(ladder: str, name: str = "coins_ladder") -> str:
    """The setup sentence that names the job's ladder ``name``."""
    return f"Ltac {name} := {ladder}"


def build_obligations(
    signature: Signature,
    cases: list[Case],
    has_pre: bool,
    mutants_per_case: int = DEFAULT_MUTANTS,
    numbers: Sequence[int] | None = None,
) -> list[Obligation]:
    """Precondition, completeness and soundness obligations for every case, in a fixed order.

    ``numbers``: each case's index among all the problem's cases (default: its position), so
    that reports name cases the same way whether or not some were skipped before proving.
    """
    obligations: list[Obligation] = []
    spec = f"{MODULE}.{signature.spec_name}"
    pre = f"{MODULE}.{signature.pre_name}"
    for case_index, case in zip(numbers if numbers is not None else range(len(cases)), cases, strict=True):
        if has_pre:
            within = f"{pre} {_arguments(signature, signature.pre_roles(), case.inputs, None)}"
            obligations.append(
                Obligation(
                    len(obligations),
                    "precondition",
                    case_index,
                    within,
                    f"Coq.Init.Logic.not ({within})",
                    "test input within the precondition",
                )
            )
        goal = f"{spec} {_arguments(signature, signature.spec_roles(), case.inputs, case.output)}"
        description = "true output accepted"
        if signature.is_predicate:
            goal = goal if case.output else f"Coq.Init.Logic.not ({goal})"
            description = f"the spec {'holds' if case.output else 'fails'} (output {case.output})"
            negation = f"Coq.Init.Logic.not ({goal})"
            obligations.append(Obligation(len(obligations), "completeness", case_index, goal, negation, description))
            continue
        interval = interval_goal(spec, signature, case)
        if interval is not None:
            description += " (rounded reals read as their intervals when not exact)"
        obligations.append(
            Obligation(
                len(obligations),
                "completeness",
                case_index,
                goal,
                f"Coq.Init.Logic.not ({interval or goal})",
                description,
                interval,
            )
        )
        for wrong, how in mutants(case.output, signature.output, mutants_per_case, mapping=case.mapping):
            accepted = f"{spec} {_arguments(signature, signature.spec_roles(), case.inputs, wrong)}"
            obligations.append(
                Obligation(
                    len(obligations),
                    "soundness",
                    case_index,
                    f"Coq.Init.Logic.not ({accepted})",
                    accepted,
                    f"wrong output {_short(wrong)} ({how}) rejected",
                )
            )
    return obligations


def interval_goal(spec: str, signature: Signature, case: Case) -> str | None:
    """``spec inputs output`` with each rounded real of the output an unknown within its interval; None if none.

    ``exists r0 ..., spec inputs (... r0 ...) /\\ coins_within near r0 o0 /\\ ...``, where ``near a b``
    is ``Rabs (a - b) <= u`` (``Qle_bool (Qabs (a - b)) u = true`` for ``Q``) and ``u`` one unit
    of ``o``'s last kept digit (``coins_rocq.floats``). ``coins_within`` marks the bound for the
    ladder's ``interval`` rung (``coins_rocq.ladder_interval``).
    """
    output, rounded = with_unknowns(case.output, signature.output)
    if not rounded:
        return None
    bounds = [
        f"(@coins_within {RType(r.kind).rocq()} {_NEAR[r.kind].format(unit=render(float(r.unit), RType(r.kind)))}"
        f" {r.unknown.name} {render(r.value, RType(r.kind))})"
        for r in rounded
    ]
    accepted = f"({spec} {_arguments(signature, signature.spec_roles(), case.inputs, output)})"
    statement = bounds[-1]
    for term in reversed([accepted, *bounds[:-1]]):
        statement = f"(Coq.Init.Logic.and {term} {statement})"
    for r in reversed(rounded):
        statement = f"(Coq.Init.Logic.ex (fun {r.unknown.name} : {RType(r.kind).rocq()} => {statement}))"
    return statement


_NEAR = {
    "R": "(fun a b : Coq.Reals.Rdefinitions.R => Coq.Reals.Rdefinitions.Rle"
    " (Coq.Reals.Rbasic_fun.Rabs (Coq.Reals.Rdefinitions.Rminus a b)) {unit})",
    "Q": "(fun a b : Coq.QArith.QArith_base.Q => @Coq.Init.Logic.eq Coq.Init.Datatypes.bool"
    " (Coq.QArith.QArith_base.Qle_bool (Coq.QArith.Qabs.Qabs (Coq.QArith.QArith_base.Qminus a b)) {unit})"
    " Coq.Init.Datatypes.true)",
}
"""How near an unknown of each real type is to its rounded value: within ``unit``."""


def _arguments(signature: Signature, roles: Sequence[tuple[str, int]], inputs: Sequence[Any], output: Any) -> str:
    """The rendered values the binders with ``roles`` take, in binder order."""
    terms = []
    for role in roles:
        kind, index = role
        value = inputs[index] if kind == "input" else (output if index == OUTPUT else output[index])
        terms.append(render(value, signature.role_type(role)))
    return " ".join(terms)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."
