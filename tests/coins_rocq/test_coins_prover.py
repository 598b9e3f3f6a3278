"""``--prover``: a model on a loopback OpenAI-compatible server writes proofs of what the ladder leaves.

Its real proofs decide obligations no rung decides, kernel-checked and audited; hostile answers
(admitted, smuggled axioms, aborts, settings, endless loops, hidden periods, huge outputs, axioms
that only the audit sees) leave a spec whose goals are false undecided, each with its reason,
never correct.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from typing import Any

import pytest
from click.testing import CliRunner

from coins_rocq import Case, CoqcBackend, CoqtopPool, Limits, parse_signature
from coins_rocq.backends.base import LIMIT_REACHED
from coins_rocq.checker import check_spec
from coins_rocq.prover import MAX_REASON_CHARS, ProverOptions, check_specs_with_prover
from harness.calls import CallSettings, RetryPolicy, using_call_settings
from harness.errors import AdapterError
from harness.testing.openai_server import FaultPlan, OpenAIServer, Reply

pytestmark = pytest.mark.slow

SIG = parse_signature("f (x : nat) : nat")
CASES = [Case((3,), 3), Case((5,), 5)]
NEEDS_LEMMA = "Definition f_spec (x : nat) (out : nat) : Prop := out = x /\\ forall l : list nat, rev (rev l) = l."
"""Correct on every case, but each completeness goal needs induction (``rev_involutive``): no rung has it."""
FALSE_GOALS = "Definition f_spec (x : nat) (out : nat) : Prop := out = x /\\ forall l : list nat, rev l = l."
"""Its completeness goals are false, and no rung refutes them (the counterexample needs two elements)."""
BY_AXIOM = (
    "```coq\napply Coq.Logic.Classical_Prop.NNPP. intro H. apply H.\n"
    "split. reflexivity. intros l. apply rev_involutive.\n```"
)
"""A real proof, through an axiom (classical logic) that is not on the allow-list."""
PROOF = "Proves: goal\n```coq\nsplit.\n- reflexivity.\n- intros l. apply rev_involutive.\n```"
REFUTATION = "Proves: negation\n```coq\nintros [_ H]. specialize (H (0 :: 1 :: nil)). simpl in H. discriminate H.\n```"
LIMITS = Limits(goal_timeout_s=1)


@pytest.fixture(scope="module")
def pool() -> Iterator[CoqtopPool]:
    with CoqtopPool(2) as workers:
        yield workers


def _prompt(body: dict[str, Any]) -> str:
    return str(body["messages"][-1]["content"])


def _check(items: list[tuple[str, Any, Any]], backend: Any, spec: str, tries: int = 1) -> list[Any]:
    async def run() -> list[Any]:
        with using_call_settings(CallSettings(retry=RetryPolicy(max_retries=1, base_delay_s=0.01))):
            return await check_specs_with_prover(items, backend, ProverOptions(spec, tries), LIMITS, 2)

    return asyncio.run(run())


def test_a_real_proof_decides_what_no_rung_decides_and_is_counted_apart(pool: CoqtopPool) -> None:
    assert check_spec(NEEDS_LEMMA, SIG, CASES, pool, LIMITS, 2).verdict == "undecided"
    with OpenAIServer(lambda body: Reply(text=PROOF)) as server:
        [report] = _check([(NEEDS_LEMMA, SIG, CASES)], pool, f"openai-compatible/p@{server.base_url}")
        prompts = [_prompt(body) for body in server.requests]
    assert report.verdict == "correct"
    assert len(prompts) == 2 and all(NEEDS_LEMMA in p and "CoinsSpec.f_spec" in p for p in prompts)
    assert report.prover is not None and report.prover.decides_verdict and report.prover.ladder_verdict == "undecided"
    assert report.prover.counts() == {"sent": 2, "proved": 2, "refuted": 0, "not proved": 0, "refused": 0}
    decided = [r for r in report.results if r.rung == "prover"]
    assert len(decided) == 2 and all(r.obligation.kind == "completeness" for r in decided)
    data = report.to_dict()
    assert data["prover"]["counts"]["proved"] == 2 and data["rungs"]["prover"] == 2


def test_a_refutation_by_the_prover_judges_the_spec_too_strong(pool: CoqtopPool) -> None:
    with OpenAIServer(lambda body: Reply(text=REFUTATION)) as server:
        [report] = _check([(FALSE_GOALS, SIG, CASES)], pool, f"openai-compatible/p@{server.base_url}")
    assert report.verdict == "too_strong" and report.prover is not None
    assert report.prover.counts()["refuted"] == 2 and report.prover.decides_verdict


TIME_LIMIT = ("timeout", LIMIT_REACHED)
"""Why an endless answer ends: Rocq's per-goal timeout, or the command limit behind it. Rocq's timeout is an
exception raised from a signal handler, so a catch-all handler inside a tactic can swallow it
(coq/coq#7430); the CPU-time command limit then stops the prover, as CI saw once for the recursion."""

HOSTILE: dict[str, tuple[str, str | tuple[str, ...]]] = {
    "admitted": ("```coq\nAdmitted.\n```", "'Admitted' admits a proof"),
    "smuggled-axiom": ("```coq\nexact I. Qed. Axiom f : False.\n```", "after 'Qed.'"),
    "axiom": ("```coq\nAxiom cheat : forall P : Prop, P. apply cheat.\n```", "'Axiom' declares"),
    "abort": ("```coq\nsplit. Abort.\n```", "'Abort' manipulates"),
    "endless-repeat": ("```coq\nsplit. reflexivity. repeat (pose proof I).\n```", TIME_LIMIT),
    "endless-recursion": ("```coq\nlet rec loop := (try reflexivity; loop) in loop.\n```", TIME_LIMIT),
    "longer-inner-timeout": ("```coq\ntimeout 1000 (repeat (pose proof I)).\n```", TIME_LIMIT),
    "fail": ("```coq\nFail exact I.\n```", "'Fail' is a control command"),
    "set": ("```coq\nUnset Guard Checking. exact I.\n```", "'Unset' changes prover settings"),
    "drop": ("```coq\nDrop.\n```", "'Drop' leaves the prover"),
    "load": ('```coq\nLoad "/etc/passwd".\n```', "'Load' loads"),
    "hidden-periods": ("```coq\nsplit. (* . Qed. Axiom f : False. *) reflexivity. admit.\n```", "'admit'"),
    "huge": ("```coq\n" + "split. " * 40_000 + "\n```", "longer than"),
    "prints": ('```coq\nrepeat idtac "coins_rung_out 1".\n```', "'idtac' prints"),
    "no-check": ("```coq\nexact_no_check (conj (eq_refl 3) (fun l : list nat => eq_refl l)).\n```", "skips"),
    "ill-typed": ("```coq\nexact (conj (eq_refl 3) (fun l : list nat => eq_refl l)).\n```", "Error"),
    "wrong-side": ("Proves: negation\n```coq\nsplit. reflexivity.\n```", "Error"),
    "huge-error": (
        "```coq\nlet x := eval vm_compute in (List.repeat 0 3000) in exact (eq_refl x).\n```",
        "...",  # Rocq's error prints the whole list; the reason kept is cut
    ),
    "prose": ("I am not sure how to prove this.", "is a command, not a tactic"),
}


def test_hostile_answers_never_make_a_false_spec_correct_and_each_says_why(pool: CoqtopPool) -> None:
    """One spec per attack (told apart by a comment the responder reads), all checked together."""
    items = [(f"(* attack {name} *)\n{FALSE_GOALS}", SIG, CASES) for name in HOSTILE]

    def answer(body: dict[str, Any]) -> Reply:
        name = _prompt(body).split("(* attack ", 1)[1].split(" *)", 1)[0]
        return Reply(text=HOSTILE[name][0])

    started = time.monotonic()
    with OpenAIServer(answer) as server:
        reports = _check(items, pool, f"openai-compatible/p@{server.base_url}")
    elapsed = time.monotonic() - started
    for name, report in zip(HOSTILE, reports, strict=True):
        assert report.verdict == "undecided", name
        assert report.prover is not None and report.prover.counts()["sent"] == 2, name
        for attempt in report.prover.attempts:
            whys = HOSTILE[name][1]
            assert attempt.outcome in ("refused", "not proved"), (name, attempt)
            assert any(why in attempt.reason for why in ((whys,) if isinstance(whys, str) else whys)), (name, attempt)
            assert len(attempt.reason) <= MAX_REASON_CHARS, name
    assert all(len(a.reason) == MAX_REASON_CHARS for a in reports[list(HOSTILE).index("huge-error")].prover.attempts)
    assert elapsed < 240, f"the hostile batch took {elapsed:.0f} s"


def test_a_proof_resting_on_an_axiom_outside_the_allow_list_is_refused_by_the_audit(pool: CoqtopPool) -> None:
    classical = f"From Coq Require Import Classical_Prop.\n{NEEDS_LEMMA}"
    with OpenAIServer(lambda body: Reply(text=BY_AXIOM)) as server:
        [report] = _check([(classical, SIG, CASES)], pool, f"openai-compatible/p@{server.base_url}")
    assert report.verdict == "undecided" and report.prover is not None and len(report.prover.attempts) == 2
    assert all(a.outcome == "refused" and "Classical_Prop.classic" in a.reason for a in report.prover.attempts)


def test_the_coqc_backend_runs_the_prover_proofs_alike() -> None:
    classical = f"From Coq Require Import Classical_Prop.\n{NEEDS_LEMMA}"

    def answer(body: dict[str, Any]) -> Reply:
        return Reply(text=BY_AXIOM if "Classical_Prop" in _prompt(body) else PROOF)

    with CoqcBackend(2) as coqc, OpenAIServer(answer) as server:
        good, audited = _check(
            [(NEEDS_LEMMA, SIG, CASES), (classical, SIG, CASES)], coqc, f"openai-compatible/p@{server.base_url}"
        )
    assert good.verdict == "correct" and audited.verdict == "undecided"
    assert audited.prover is not None and len(audited.prover.attempts) == 2
    assert all("Classical_Prop.classic" in a.reason for a in audited.prover.attempts)


def test_a_second_try_gets_the_last_answer_and_why_it_failed(pool: CoqtopPool) -> None:
    def answer(body: dict[str, Any]) -> Reply:
        return Reply(text=PROOF if "Your previous answer" in _prompt(body) else "```coq\nAdmitted.\n```")

    with OpenAIServer(answer) as server:
        [report] = _check([(NEEDS_LEMMA, SIG, CASES)], pool, f"openai-compatible/p@{server.base_url}", tries=2)
        retries = [_prompt(b) for b in server.requests if "Your previous answer" in _prompt(b)]
    assert report.verdict == "correct" and report.prover is not None
    assert [a.tries for a in report.prover.attempts] == [2, 2]
    assert len(retries) == 2 and all("'Admitted' admits a proof" in p for p in retries)


def test_a_prover_that_keeps_failing_raises_an_adapter_error(pool: CoqtopPool) -> None:
    with OpenAIServer(faults=FaultPlan(rates={"500": 1.0})) as server, pytest.raises(AdapterError, match="gave up"):
        _check([(NEEDS_LEMMA, SIG, CASES)], pool, f"openai-compatible/p@{server.base_url}")


def test_the_command_line_prints_the_prover_counts_and_refuses_a_bad_prover_in_one_line(tmp_path: Any) -> None:
    from coins_rocq.cli import coins_group

    spec = tmp_path / "spec.v"
    spec.write_text(NEEDS_LEMMA, encoding="utf-8")
    cases = tmp_path / "cases.json"
    cases.write_text('[{"inputs": [3], "output": 3}]', encoding="utf-8")
    base = ["check", str(spec), "--cases", str(cases), "--signature", "f (x : nat) : nat", "--goal-timeout", "1"]
    with OpenAIServer(lambda body: Reply(text=PROOF)) as server:
        result = CliRunner().invoke(coins_group, [*base, "--prover", f"openai-compatible/p@{server.base_url}"])
    assert result.exit_code == 0, result.output
    assert "proved 1" in result.output and "the verdict rests on the prover (ladder alone: undecided)" in result.output
    assert "verdict: correct" in result.output
    bad = CliRunner().invoke(coins_group, [*base, "--prover", "no-such-provider/x"])
    assert bad.exit_code != 0 and "Traceback" not in bad.output
    assert bad.output.strip().startswith("Error: prover no-such-provider/x:")
