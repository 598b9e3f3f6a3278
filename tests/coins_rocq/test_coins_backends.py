"""How the backends run jobs: the pool's closing axiom audit and its prelude-aware scheduling.

The pool audits all of a spec's proofs in one ``Print Assumptions`` and falls back to one
proof at a time only when that audit is not clean; each proof must get the verdict it gets
from the coqc backend, which audits every proof in its own file.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from coins_rocq import Case, CoqcBackend, CoqtopPool, Limits, check_specs, parse_signature
from coins_rocq.backends import coqtop_worker
from coins_rocq.backends.base import QUICK_LADDER, REPROVE_LADDER, AttemptResult, for_reprove
from coins_rocq.backends.clock import Budget
from coins_rocq.backends.coqc import CoqcSession
from coins_rocq.backends.coqtop import _Slot
from coins_rocq.backends.coqtop_session import CoqtopSession
from coins_rocq.obligations import attempt_sentences

PRELUDE = ("From Coq Require Import ZArith.",)
SETUP = ["Axiom coins_test_cheat : False."]
STATEMENTS = {
    "coins_goal_0": ("True", "exact I"),
    "coins_goal_1": ("False", "exact coins_test_cheat"),
    "coins_goal_2": ("(2 + 2 = 4)%nat", "reflexivity"),
}


@pytest.fixture(scope="module")
def pool() -> Iterator[CoqtopPool]:
    with CoqtopPool(1) as one:
        yield one


def _attempt_all(session: CoqtopSession | CoqcSession) -> list[AttemptResult]:
    """Load ``SETUP`` and attempt every statement with its own tactic; the attempts' results."""
    deadline = Budget(60)
    assert session.load(PRELUDE, SETUP, deadline) is None
    results = []
    for name, (statement, tactic) in STATEMENTS.items():
        sentences = [s.replace("ltac:(coins_ladder)", f"ltac:({tactic})") for s in attempt_sentences(name, statement)]
        results.append(session.attempt(name, sentences, deadline))
    return results


def _audit_verdicts(names: Sequence[str]) -> list[AttemptResult]:
    slot = _Slot()
    try:
        session = CoqtopSession(slot, Limits())
        assert [a.status for a in _attempt_all(session)] == ["proved"] * len(STATEMENTS)
        return session.audit(names, Budget(60))
    finally:
        slot.close()


@pytest.mark.slow
def test_the_pool_audit_names_the_one_proof_that_rests_on_an_axiom() -> None:
    pooled = _audit_verdicts(list(STATEMENTS))
    assert [v.status for v in pooled] == ["proved", "axioms", "proved"]
    assert "coins_test_cheat" in pooled[1].message
    coqc = CoqcSession(Limits())
    try:
        assert [a.status for a in _attempt_all(coqc)] == [v.status for v in pooled]
    finally:
        coqc.close()


def test_the_pool_refuses_to_audit_a_proof_it_never_found() -> None:
    verdicts = _audit_verdicts(["coins_goal_0", "coins_goal_9"])
    assert [v.status for v in verdicts] == ["proved", "error"]


SIG_Z = parse_signature("add (x : Z) (y : Z) : Z")
SIG_R = parse_signature("half (x : R) : R")
ADD = ("Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z.", SIG_Z, [Case((2, 3), 5)])
HALF = ("Definition half_spec (x r : R) : Prop := (r = x / 2)%R.", SIG_R, [Case((3.0,), 1.5)])
TRUE_HALF = ("Definition half_spec (x r : R) : Prop := True.", SIG_R, [Case((3.0,), 1.5)])


@pytest.mark.slow
def test_mixed_preludes_load_each_prelude_once_and_keep_the_jobs_order(
    pool: CoqtopPool, monkeypatch: pytest.MonkeyPatch
) -> None:
    loads: list[str] = []
    run = coqtop_worker.CoqtopWorker.run

    def counting(
        self: coqtop_worker.CoqtopWorker,
        sentences: Sequence[str],
        timeout_s: float,
        each_s: float | None = None,
        budget: Budget | None = None,
    ) -> list[coqtop_worker.Reply]:
        if sentences and sentences[0].startswith("From Coq Require"):
            loads.append(sentences[0])
        return run(self, sentences, timeout_s, each_s, budget)

    monkeypatch.setattr(coqtop_worker.CoqtopWorker, "run", counting)
    items = [ADD, HALF, ADD, TRUE_HALF, ADD]
    reports = check_specs(items, pool, mutants_per_case=1)
    assert [r.verdict for r in reports] == ["correct", "correct", "correct", "too_weak", "correct"]
    assert len(loads) <= 2
    with CoqcBackend(2) as coqc:
        reference = check_specs(items[1:4], coqc, mutants_per_case=1)
    assert [[o.outcome for o in r.results] for r in reports[1:4]] == [[o.outcome for o in r.results] for r in reference]


@pytest.mark.slow
def test_a_worker_whose_prelude_failed_halfway_is_replaced_before_the_next_spec() -> None:
    # The half-loaded prelude would stay in the worker: the next load of the same prelude
    # then fails on its first sentence ("There is already an Ltac named ...").
    broken = ("Ltac coins_test_tac := idtac.", "Definition coins_test_broken := coins_no_such_name.")
    slot = _Slot()
    try:
        deadline = Budget(60)
        failed = CoqtopSession(slot, Limits()).load(broken, [], deadline)
        assert failed is not None and "coins_no_such_name" in failed
        assert CoqtopSession(slot, Limits()).load(broken[:1], ["Definition coins_x := 1."], deadline) is None
    finally:
        slot.close()


SLOW_ON_SIX = (
    "Fixpoint slow (n : nat) : nat := match n with 0 => 1 | S m => slow m + slow m end.\n"
    "Definition add_spec (x y r : Z) : Prop :=\n"
    "  (r = x + y)%Z /\\ match r with 6%Z => slow 200 = 0%nat | _ => True end."
)


@pytest.mark.slow
def test_proofs_found_before_a_worker_is_killed_are_proved_again_and_audited(pool: CoqtopPool) -> None:
    assert check_specs([ADD], pool, mutants_per_case=1)[0].verdict == "correct"
    limits = Limits(goal_timeout_s=60, command_timeout_s=6, spec_budget_s=90)
    started = []
    init = coqtop_worker.CoqtopWorker.__init__

    def counting(self: coqtop_worker.CoqtopWorker, worker_limits: Limits) -> None:
        started.append(1)
        init(self, worker_limits)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(coqtop_worker.CoqtopWorker, "__init__", counting)
        report = check_specs([(SLOW_ON_SIX, SIG_Z, [Case((2, 3), 5)])], pool, limits, mutants_per_case=2)[0]
    outcomes = [r.outcome for r in report.results]
    assert started, "the slow obligation should have killed the worker (Rocq's own timeout is longer)"
    assert outcomes == ["proved", "unknown", "proved"]
    assert report.verdict == "undecided"


@pytest.mark.slow
def test_a_worker_killed_at_the_end_of_the_budget_keeps_the_proofs_found_before(pool: CoqtopPool) -> None:
    """The last attempt runs into the spec's budget and its worker is killed: the proofs found
    before were audited first, so they keep their verdicts instead of turning unknown."""
    limits = Limits(goal_timeout_s=60, command_timeout_s=30, spec_budget_s=8)
    report = check_specs([(SLOW_ON_SIX, SIG_Z, [Case((2, 3), 5)])], pool, limits, mutants_per_case=2)[0]
    outcomes = [(r.outcome, r.detail) for r in report.results]
    assert [o for o, _ in outcomes] == ["proved", "unknown", "proved"], outcomes
    assert "before the axiom audit" not in outcomes[1][1]
    assert report.verdict == "undecided"


@pytest.mark.slow
def test_a_proof_sent_with_an_attempt_the_budget_cannot_cover_is_audited_before_it(pool: CoqtopPool) -> None:
    """One pass, all attempts pipelined: the budget (8 s) covers none of their 60 s timeouts, so
    they go one at a time, each after the audit of the proofs before; the kill at the budget's
    end takes the slow attempt and what follows, never the proof found first."""
    limits = Limits(goal_timeout_s=60, command_timeout_s=30, spec_budget_s=8, quick_timeout_s=0)
    report = check_specs([(SLOW_ON_SIX, SIG_Z, [Case((2, 3), 5)])], pool, limits, mutants_per_case=2)[0]
    outcomes = [(r.outcome, r.detail) for r in report.results]
    assert [o for o, _ in outcomes] == ["proved", "unknown", "unknown"], outcomes
    assert not any("before the axiom audit" in detail for _, detail in outcomes), outcomes
    assert report.verdict == "undecided"


def test_every_obligation_gets_the_quick_pass_before_any_gets_the_full_timeout() -> None:
    """The budget goes first where it decides something: all quick attempts, then the full ones."""
    from coins_rocq.backends.base import QUICK_LADDER, AttemptResult, SpecJob
    from coins_rocq.backends.decision import run_job
    from coins_rocq.obligations import Obligation

    class Recorder:
        def __init__(self) -> None:
            self.ladders: list[tuple[str, str]] = []

        def load(self, prelude: tuple[str, ...], setup: list[str], deadline: Budget) -> str | None:
            return None

        def attempt(self, name: str, sentences: list[str], deadline: Budget) -> AttemptResult:
            return self.attempt_many([(name, sentences)], deadline)[0]

        def attempt_many(self, attempts: Sequence[tuple[str, list[str]]], deadline: Budget) -> list[AttemptResult]:
            out = []
            for name, sentences in attempts:
                quick = f"ltac:({QUICK_LADDER})" in sentences[0]
                self.ladders.append((name, "quick" if quick else "full"))
                out.append(AttemptResult("proved" if name == "coins_goal_0" else "timeout", ""))
            return out

        def audit(self, names: Sequence[str], deadline: Budget) -> list[AttemptResult]:
            return [AttemptResult("proved") for _ in names]

    obligations = [Obligation(i, "completeness", 0, f"G{i}", f"~G{i}", "") for i in range(3)]
    session = Recorder()
    result = run_job(SpecJob((), [], "", obligations, Limits()), session)
    passes = [kind for _, kind in session.ladders]
    assert passes == ["quick"] * 5 + ["full"] * 4
    assert [r.outcome for r in result.results] == ["proved", "unknown", "unknown"]
    assert Limits(quick_timeout_s=0).passes == ("coins_ladder",)
    assert Limits(goal_timeout_s=1).passes == ("coins_ladder",)


RUNAWAY = "let x := eval vm_compute in (Pos.iter negb true 1000000000000%positive) in exact I"
"""A tactic that computes for hours: the command limit kills its worker."""


@pytest.mark.parametrize(("reprove_tactic", "status"), [("exact I", "proved"), ('fail "not this ladder"', "timeout")])
def test_a_proof_lost_with_its_worker_is_found_again_with_the_reprove_ladder(reprove_tactic: str, status: str) -> None:
    """A worker killed by a runaway attempt takes the proofs not yet audited along; they are proved again
    with the reprove ladder (a longer per-goal limit), not the ladder that found them, so a second run's
    CPU time near the limit cannot lose them. The ladder that fails here shows which one the reprove ran."""
    setup = ["Ltac coins_ladder := exact I.", f"Ltac {REPROVE_LADDER} := {reprove_tactic}."]
    slot = _Slot()
    try:
        session = CoqtopSession(slot, Limits(command_timeout_s=2.0))
        budget = Budget(60)
        assert session.load(PRELUDE, setup, budget) is None
        assert session.attempt("coins_goal_0", attempt_sentences("coins_goal_0", "True"), budget).status == "proved"
        runaway = [s.replace("ltac:(coins_ladder)", f"ltac:({RUNAWAY})") for s in attempt_sentences("loop", "True")]
        assert session.attempt("loop", runaway, budget).status == "timeout"
        assert [a.status for a in session.audit(["coins_goal_0"], budget)] == [status]
    finally:
        slot.close()


def test_the_reprove_ladder_replaces_the_full_and_the_quick_one_only() -> None:
    sentences = attempt_sentences("g", "True") + attempt_sentences("q", "True", QUICK_LADDER)
    assert [s for s in for_reprove(sentences) if "ltac:" in s] == [
        f"Definition g : True := ltac:({REPROVE_LADDER}).",
        f"Definition q : True := ltac:({REPROVE_LADDER}).",
    ]
    script = ["Definition p : True := ltac:(exact I)."]
    assert for_reprove(script) == script
