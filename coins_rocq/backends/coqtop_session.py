"""A job's session on one ``coqtop`` worker: load the spec, run attempts pipelined, audit the proofs.

The session starts with ``Reset coins_mark`` (or loads a new prelude), loads the spec once,
runs each attempt as one definition by ``ltac:(coins_ladder)`` and audits the proofs
together at the end of the job. When its worker dies or misbehaves the slot replaces it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from coins_rocq.backends.base import (
    LIMIT_REACHED,
    AttemptResult,
    Limits,
    attempt_timeout,
    check_assumptions,
    classify_failure,
    command_timeout,
    for_reprove,
)
from coins_rocq.backends.clock import Budget
from coins_rocq.backends.coqtop_worker import MARK, CoqtopWorker, ProtocolAnomaly, Reply, WorkerDied
from coins_rocq.ladder import winning_rung


class WorkerSlot(Protocol):
    """Where a session gets its worker: a live one (started afresh when needed), and how to drop it."""

    def worker(self, limits: Limits) -> CoqtopWorker:
        """The slot's live worker, started when there is none."""

    def discard(self) -> None:
        """Kill the current worker; the next call to ``worker`` starts a fresh one."""


NOT_RELOADED = AttemptResult("timeout", f"{LIMIT_REACHED}: the spec could not be reloaded within its time budget")
"""The result of every attempt left once the session's worker is lost and the spec not reloaded."""

ATTEMPT_OVERHEAD_S = 0.2
"""What an attempt may take beyond its ladder's timeout (elaboration, the kernel's check)."""

AUDIT_GRACE_S = 5.0
"""The least time the closing axiom audit gets when the spec's budget is nearly spent, so that
proofs found within the budget are not lost to its last command."""


class CoqtopSession:
    """A job's session on a worker; replaces the worker after it dies or misbehaves.

    A proof is one definition; its axioms are audited at the end of the job, all the
    job's proofs in one ``Print Assumptions`` over a definition that names each of them
    (``Print Assumptions`` walks every dependency, which for proofs over the reals is most
    of a second each), and proof by proof only when that audit is not clean.
    """

    def __init__(self, pool_slot: WorkerSlot, limits: Limits) -> None:
        self.slot = pool_slot
        self.limits = limits
        self.prelude: tuple[str, ...] = ()
        self.setup: list[str] = []
        self.loaded = False
        self.proofs: dict[str, list[str]] = {}
        self.lost: dict[str, AttemptResult] = {}
        self.checked: dict[str, AttemptResult] = {}
        self._audits = 0

    def load(self, prelude: tuple[str, ...], setup: list[str], budget: Budget) -> str | None:
        """Rewind the worker to its prelude (loading it if it differs) and load the spec."""
        self.prelude, self.setup = prelude, setup
        try:
            return self._load(budget)
        except WorkerDied as exc:
            return f"loading the spec failed: {exc}"
        except ProtocolAnomaly as exc:
            return str(exc)

    def _run(self, sentences: Sequence[str], budget: Budget, least_s: float = 0.0) -> list[Reply]:
        worker = self.slot.worker(self.limits)
        return worker.run(sentences, max(least_s, command_timeout(self.limits, budget)), budget=budget)

    def _load(self, budget: Budget) -> str | None:
        worker = self.slot.worker(self.limits)
        if worker.prelude == self.prelude:
            self._run([f"Reset {MARK}."], budget)
        else:
            if worker.prelude is not None:
                self._run(["Reset Initial."], budget)
            worker.prelude = None
            failed = _first_error(self._run(self.prelude, budget))
            if failed:
                self.slot.discard()
                return failed
            worker.prelude = self.prelude
        self._run([f"Definition {MARK} := tt."], budget)
        replies = self._run(self.setup, budget)
        failed = _first_error(replies)
        if failed:
            return failed
        if replies and replies[-1].proof_open:
            self.slot.discard()
            return "the spec left a proof open"
        self.loaded = True
        return None

    def attempt(self, name: str, sentences: list[str], budget: Budget) -> AttemptResult:
        """Run one attempt (see ``attempt_many``)."""
        return self.attempt_many([(name, sentences)], budget)[0]

    def attempt_many(self, attempts: Sequence[tuple[str, list[str]]], budget: Budget) -> list[AttemptResult]:
        """Run the attempts pipelined, each under the command limit (their audits deferred to ``audit``).

        When the worker is killed during one, that one is a timeout: the worker is restarted,
        the spec reloaded, the proofs not yet audited proved again, and the attempts after it
        sent again. After a protocol anomaly the one in flight is an error and the rest are not run.
        When the budget left may not cover every attempt's timeout, the proofs found so far are
        audited first and only the attempts it covers are sent (at least one); in the budget's
        last ``command_timeout_s``, where an attempt that overruns its timeout is stopped by the
        budget's end and the worker cannot be reloaded, they go one at a time, each after the
        audit. A kill at the budget's end then takes along only the attempt in flight, never a
        proof already found.
        """
        results: list[AttemptResult] = []
        todo = list(attempts)
        while todo:
            if not self.loaded:
                return results + [NOT_RELOADED] * len(todo)
            size = self._covered(todo, budget)
            if size < len(todo) or self._in_last_command(budget):
                self._checkpoint(budget)
                size = 1 if self._in_last_command(budget) else self._covered(todo, budget)
            done, cut = self._attempt_batch(todo[: max(1, size)], budget)
            results += done
            todo = todo[len(done) :]
            if cut is None:
                if done:
                    continue
                return results + [AttemptResult("error", "the prover answered no attempt")] * len(todo)
            if not todo:
                break
            todo = todo[1:]
            results.append(self._after(cut, budget))
        return results

    def _in_last_command(self, budget: Budget) -> bool:
        """True when less than one command limit of the budget is left."""
        return budget.left() < self.limits.command_timeout_s

    def _covered(self, attempts: Sequence[tuple[str, list[str]]], budget: Budget) -> int:
        """How many of ``attempts``, from the first, finish within the budget even if each runs to its timeout."""
        left = budget.left()
        for count, (_, sentences) in enumerate(attempts):
            left -= attempt_timeout(self.limits, sentences) + ATTEMPT_OVERHEAD_S
            if left < 0:
                return count
        return len(attempts)

    def _after(self, cut: WorkerDied | ProtocolAnomaly, budget: Budget) -> AttemptResult:
        """The result of the attempt the worker was lost in; after a kill, restart and reload it."""
        self.loaded = False
        if isinstance(cut, ProtocolAnomaly):
            return AttemptResult("error", str(cut))
        try:
            error = self._load(budget)
            if error is None:
                self._reprove(budget)
        except (WorkerDied, ProtocolAnomaly) as again:
            self.loaded = False
            error = str(again)
        if error is not None and not budget.spent():
            return AttemptResult("error", f"reloading the spec after a timeout failed: {error}")
        return AttemptResult("timeout", str(cut))

    def _attempt_batch(
        self, attempts: Sequence[tuple[str, list[str]]], budget: Budget
    ) -> tuple[list[AttemptResult], WorkerDied | ProtocolAnomaly | None]:
        """Send the attempts together; the results of those answered and what cut the batch short, if anything."""
        proofs = [[s for s in sentences if s != f"Print Assumptions {name}."] for name, sentences in attempts]
        flat = [sentence for proof in proofs for sentence in proof]
        cut: WorkerDied | ProtocolAnomaly | None = None
        try:
            remaining = max(0.05, budget.left())
            worker = self.slot.worker(self.limits)
            replies = worker.run(flat, remaining, command_timeout(self.limits, budget), budget)
        except (WorkerDied, ProtocolAnomaly) as exc:
            replies, cut = exc.replies, exc
        results: list[AttemptResult] = []
        at = 0
        for (name, _), proof in zip(attempts, proofs, strict=True):
            if not proof:
                results.append(AttemptResult("error", f"the attempt for {name} proves nothing"))
                continue
            if at + len(proof) > len(replies):
                return results, cut
            own = replies[at : at + len(proof)]
            at += len(proof)
            results.append(self._judge(name, proof, own))
            if not self.loaded:
                return results + [NOT_RELOADED] * (len(attempts) - len(results)), None
        return results, cut

    def _judge(self, name: str, proof: list[str], replies: list[Reply]) -> AttemptResult:
        """The result of one attempt from its replies."""
        if replies[-1].proof_open:
            self.slot.discard()
            self.loaded = False
            return AttemptResult("error", "prover protocol anomaly: an attempt left a proof open")
        failed = next((r for r in replies if r.is_error), None)
        if failed is not None:
            message = failed.error_message()
            return AttemptResult(classify_failure(message), message)
        self.proofs[name] = proof
        return AttemptResult("proved", rung=winning_rung("\n".join(r.text for r in replies)))

    def _reprove(self, budget: Budget) -> None:
        """After a reload, prove again the proofs not yet audited (the dead worker took them along).

        They are proved again under the reprove ladder's longer per-goal limit (``REPROVE_SLACK``):
        the limit decided them once, and their verdict must not hang on a second run's CPU time.
        """
        for name, proof in list(self.proofs.items()):
            if name in self.checked:
                continue
            replies = self._run(for_reprove(proof), budget)
            if _first_error(replies) is not None or replies[-1].proof_open:
                del self.proofs[name]
                self.lost[name] = AttemptResult("timeout", "proof lost with a replaced worker and not found again")

    def _checkpoint(self, budget: Budget) -> None:
        """Audit the proofs found so far, before attempts that may run into the budget's end.

        Such an attempt may be stopped by killing the worker, which takes every proof not yet
        audited along; audited ones keep their verdicts.
        """
        unaudited = [n for n in self.proofs if n not in self.checked and n not in self.lost]
        if unaudited:
            self.checked.update(self._audit_all(unaudited, budget))

    def audit(self, names: Sequence[str], budget: Budget) -> list[AttemptResult]:
        """Audit the proofs ``names``: together in one ``Print Assumptions``, one by one when that is not clean."""
        verdicts = {**self.lost, **self.checked}
        live = [n for n in names if n in self.proofs and n not in verdicts]
        if live:
            verdicts.update(self._audit_all(live, budget))
        return [verdicts.get(n, AttemptResult("error", f"no proof of {n} to audit")) for n in names]

    def _audit_all(self, names: list[str], budget: Budget) -> dict[str, AttemptResult]:
        verdicts: dict[str, AttemptResult] = {}
        if not self.loaded:
            lost = AttemptResult("timeout", "proved, but the worker was lost before the axiom audit")
            return {n: lost for n in names}
        try:
            combined = self._audit(names, budget)
            if combined.status == "proved" or len(names) == 1:
                return {n: combined for n in names}
            for name in names:
                verdicts[name] = self._audit([name], budget)
        except ProtocolAnomaly as exc:
            self.loaded = False
            verdicts.update({n: AttemptResult("error", str(exc)) for n in names if n not in verdicts})
        except WorkerDied as exc:
            self.loaded = False
            verdicts.update({n: AttemptResult("timeout", str(exc)) for n in names if n not in verdicts})
        return verdicts

    def _audit(self, names: list[str], budget: Budget) -> AttemptResult:
        """One ``Print Assumptions`` over ``names``: of the proof itself, or of a definition naming each."""
        if len(names) == 1:
            sentences = [f"Print Assumptions {names[0]}."]
        else:
            self._audits += 1
            audit = f"coins_audit_{self._audits}"
            body = " ".join(f"let _ := {name} in" for name in names)
            sentences = [
                f"Definition {audit} : Coq.Init.Datatypes.unit := {body} Coq.Init.Datatypes.tt.",
                f"Print Assumptions {audit}.",
            ]
        replies = self._run(sentences, budget, AUDIT_GRACE_S)
        if replies[-1].proof_open:
            self.slot.discard()
            self.loaded = False
            return AttemptResult("error", "prover protocol anomaly: the axiom audit left a proof open")
        failed = _first_error(replies)
        if failed is not None:
            return AttemptResult("error", failed)
        return check_assumptions(replies[-1].text)


def _first_error(replies: list[Reply]) -> str | None:
    """The first error message among ``replies``, or None."""
    return next((r.error_message() for r in replies if r.is_error), None)
