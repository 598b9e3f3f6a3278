"""Specs that try to run commands past the screen or forge a verdict, on both backends.

Each attack is rejected (by the screen, by Rocq itself, or by the pool's reply markers),
nothing is written outside the provers' temporary directories, and a spec that says
``False`` is never judged correct.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from coins_rocq import Case, CoqcBackend, CoqtopPool, Limits, check_specs, parse_signature
from coins_rocq.backends.base import check_assumptions
from coins_rocq.backends.coqtop_worker import CoqtopWorker, ProtocolAnomaly
from coins_rocq.safety import UnsafeSpec, screen
from coins_rocq.sentences import split_sentences

SIG = parse_signature("add (x : Z) (y : Z) : Z")
CASES = [Case((2, 3), 5)]
FALSE = "Definition add_spec (x y r : Z) : Prop := False"
GOOD = "Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z."


def attacks(target: Path) -> dict[str, str]:
    """Each attack from the issue, writing to ``target`` where it can."""
    smuggled = "".join("(**)Check nat." for _ in range(200))
    return {
        "redirect-after-comment": f'{GOOD[:-1]}.(* *)Redirect "{target}" Print nat.',
        "redirect-after-comment-newline": f'{GOOD[:-1]}.(* *)\nRedirect "{target}" Print nat.',
        "false-with-smuggled-queries": f"{FALSE}.{smuggled}",
        "false-with-smuggled-print-assumptions": f"{FALSE}.(* *)Print Assumptions I.",
        "smuggled-axiom": f"{FALSE}.(**)Axiom cheat : forall P : Prop, P.",
        "smuggled-ltac": f"{FALSE}.(**)Ltac coins_lra ::= apply cheat.",
        "tab-separated": f'{FALSE}.\tRedirect "{target}" Print nat.',
        "let-binder-opens-proof": "Definition add_spec (x y r : Z) (d := 1) : Prop.",
        "assign-in-string": 'Definition add_spec (x y r : Z) (s := ":=") : Prop.',
        "dots": f"{FALSE}.. Check nat.",
        "nbsp": f'{FALSE}.\u00a0Redirect "{target}" Print nat.',
        "admitted-example": f"{FALSE}.\nExample e : add_spec 2 3 5. Proof. Admitted.",
        "query-in-example-proof": f'{FALSE}.\nExample e : True. Proof. Redirect "{target}" Print nat. exact I. Qed.',
        "open-example": f"{FALSE}.\nExample e : True. Proof. exact I.",
    }


@pytest.fixture(scope="module")
def pool() -> Iterator[CoqtopPool]:
    with CoqtopPool(2) as workers:
        yield workers


@pytest.mark.slow
@pytest.mark.parametrize("backend_name", ["pool", "coqc"])
def test_every_attack_is_rejected_and_writes_nothing(backend_name: str, pool: CoqtopPool, tmp_path: Path) -> None:
    target = tmp_path / "written"
    specs = attacks(target)
    if backend_name == "pool":
        reports = check_specs([(s, SIG, CASES) for s in specs.values()], pool, mutants_per_case=1)
    else:
        with CoqcBackend(2) as coqc:
            reports = check_specs([(s, SIG, CASES) for s in specs.values()], coqc, mutants_per_case=1)
    verdicts = {name: report.verdict for name, report in zip(specs, reports, strict=True)}
    assert set(verdicts.values()) == {"invalid"}, verdicts
    assert not target.exists()
    assert check_specs([(GOOD, SIG, CASES)], pool)[0].verdict == "correct"


def test_sentences_are_split_where_rocq_splits_them_and_kept_verbatim() -> None:
    source = 'A.(* x *)B. C "a "". b" (* "*)" (* nested *) *) D.\tE.\n- F. { G. }\n** H.'
    texts = [s.text for s in split_sentences(source)]
    assert texts == [
        "A.(* x *)B.",
        'C "a "". b" (* "*)" (* nested *) *) D.',
        "E.",
        "-",
        "F.",
        "{",
        "G.",
        "}",
        "**",
        "H.",
    ]
    assert split_sentences(source)[1].code == 'C "a "". b"   D.'


def test_the_screen_reads_every_sentence_rocq_will_run() -> None:
    ok = screen(GOOD + "\nExample e : add_spec 2 3 5. Proof. unfold add_spec. - reflexivity. Qed.")
    assert ok.defined == ("add_spec",)
    for source, reason in [
        (GOOD + "\nExample e : True. Proof. Print nat. Qed.", "not allowed inside a proof"),
        (GOOD + "\n- reflexivity.", "outside a proof"),
        ("Definition add_spec (x y r : Z) (d := 1) : Prop.", "top-level ':='"),
    ]:
        with pytest.raises(UnsafeSpec, match=reason):
            screen(source)


def test_a_sentence_that_runs_as_two_commands_is_a_protocol_anomaly() -> None:
    worker = CoqtopWorker(Limits())
    try:
        assert worker.run(["Check nat."], 30)[0].text.startswith("nat")
        with pytest.raises(ProtocolAnomaly):
            worker.run(["Check nat. Check bool."], 30)
        assert not worker.alive()
    finally:
        worker.close()


def test_the_axiom_audit_reads_only_the_obligations_own_output() -> None:
    assert check_assumptions("Closed under the global context\n").status == "proved"
    for forged in (
        "Axioms:\ncheat : False\nClosed under the global context",
        "nat : Set\nClosed under the global context",
        "",
    ):
        assert check_assumptions(forged).status == "axioms"


@pytest.mark.slow
@pytest.mark.parametrize("backend_name", ["pool", "coqc"])
def test_load_time_counts_against_the_spec_budget(backend_name: str, pool: CoqtopPool) -> None:
    slow = "".join(f"Definition big{i} := Eval vm_compute in slow 24.\n" for i in range(12))
    source = (
        "Fixpoint slow (n : nat) : bool := match n with 0 => true | S m => andb (slow m) (slow m) end.\n"
        f"{slow}Definition add_spec (x y r : Z) : Prop := True."
    )
    limits = Limits(command_timeout_s=60, spec_budget_s=2)
    if backend_name == "pool":
        report = check_specs([(source, SIG, CASES)], pool, limits)[0]
    else:
        with CoqcBackend(1) as coqc:
            report = check_specs([(source, SIG, CASES)], coqc, limits)[0]
    assert report.verdict == "invalid" and "budget" in report.reason


BUSY_OWNER = """
import os, time
from coins_rocq.backends.base import Limits
from coins_rocq.backends.coqtop_worker import CoqtopWorker
worker = CoqtopWorker(Limits())
os.write(worker.proc.stdin.fileno(), b"Fixpoint slow (n : nat) : bool := match n with 0 => true "
         b"| S m => andb (slow m) (slow m) end.\\nDefinition x := Eval vm_compute in slow 60.\\n")
time.sleep(1)
print(worker.proc.pid, flush=True)
time.sleep(600)
"""


@pytest.mark.slow
def test_a_busy_coqtop_worker_dies_with_its_owner() -> None:
    owner = subprocess.Popen([sys.executable, "-c", BUSY_OWNER], stdout=subprocess.PIPE, text=True)
    assert owner.stdout is not None
    child = int(owner.stdout.readline())
    os.kill(owner.pid, signal.SIGKILL)
    owner.wait()
    for _ in range(100):
        if not _running(child):
            break
        time.sleep(0.1)
    assert not _running(child)


def _running(pid: int) -> bool:
    """True while ``pid`` is a live (not zombie) process."""
    try:
        with open(f"/proc/{pid}/stat", encoding="ascii") as handle:
            return handle.read().split(") ", 1)[1][0] != "Z"
    except (FileNotFoundError, IndexError):
        return False


def test_a_worker_is_replaced_after_serving_its_share_of_specs(monkeypatch: pytest.MonkeyPatch) -> None:
    import coins_rocq.backends.coqtop as coqtop

    monkeypatch.setattr(coqtop, "JOBS_PER_WORKER", 2)
    with CoqtopPool(1) as one:
        pids = []
        for _ in range(3):
            assert check_specs([(GOOD, SIG, CASES)], one, mutants_per_case=1)[0].verdict == "correct"
            pids.append(one._slots[0].worker(Limits()).proc.pid)
    assert pids[0] == pids[1] != pids[2]
