"""Limits that count the prover's CPU time, and the records of why and by which rung obligations end.

Busy loops on every core make a prover's wall-clock time several times its CPU time; a
verdict must not change with them (issue 36). The shim that turns Rocq's ``timeout`` into a
CPU-time one is tested on ``coqc`` directly; the whole check on a spec whose proofs need
about a second and a half of CPU each under a 4 s per-goal limit.
"""

from __future__ import annotations

import contextlib
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from coins_rocq import LADDER, Case, CoqtopPool, Limits, check_spec, parse_signature
from coins_rocq.backends.clock import Budget, _loadable, clock_kind, process_cpu_s, prover_env
from coins_rocq.checker import prepare_all
from coins_rocq.ladder import RUNG_MARK, ladder_tactic, strip_rung_marks, winning_rung

SIG = parse_signature("add (x : Z) (y : Z) : Z")
SLOW = (
    "Fixpoint slowz (n : nat) : Z := match n with 0 => 1%Z | S m => (slowz m + slowz m)%Z end.\n"
    "Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z /\\ slowz 24 = Z.pow 2 24."
)
"""A right spec whose every obligation computes ``slowz 24`` (2^24 additions, about 1.5 s of CPU)."""
BUSY = "import time\nend = time.monotonic() + 300\nwhile time.monotonic() < end: pass\n"

needs_cpu_clock = pytest.mark.skipif(clock_kind() != "cpu", reason="no C compiler: limits are wall-clock here")


@contextlib.contextmanager
def busy_loops() -> Iterator[int]:
    """Two busy processes per core while the context lasts; yields how many."""
    count = 2 * (os.cpu_count() or 1)
    procs = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(count)]
    try:
        yield count
    finally:
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.wait()


def _timed_out_cpu_s(tmp_path: Path) -> float:
    """The CPU seconds Rocq reports for ``timeout 1`` around an endless computation, run by ``coqc`` with the shim."""
    source = (
        "Fixpoint spin (n : nat) : nat := match n with 0 => 0 | S m => spin m + spin m end.\n"
        "Goal spin 60 = 1. Time Fail timeout 1 (vm_compute; reflexivity). Abort.\n"
    )
    (tmp_path / "Spin.v").write_text(source, encoding="utf-8")
    done = subprocess.run(
        ["coqc", "-q", "Spin.v"], cwd=tmp_path, env=prover_env(), capture_output=True, text=True, timeout=120
    )
    timing = re.search(r"\(([\d.]+)u,([\d.]+)s\)", done.stdout)
    assert timing is not None, done.stdout + done.stderr
    return float(timing.group(1)) + float(timing.group(2))


@needs_cpu_clock
@pytest.mark.slow
def test_rocq_timeout_counts_the_provers_cpu_time_under_load(tmp_path: Path) -> None:
    # A wall-clock timeout of 1 s leaves the prover a share of that second with every core
    # busy twice over; the shim's CPU-time timer leaves it the whole second.
    with busy_loops():
        assert _timed_out_cpu_s(tmp_path) >= 0.9


@needs_cpu_clock
@pytest.mark.slow
def test_a_spec_needing_seconds_of_cpu_is_judged_alike_idle_and_under_load() -> None:
    limits = Limits(goal_timeout_s=4, quick_timeout_s=0, command_timeout_s=10, spec_budget_s=40)
    reports = []
    with CoqtopPool(1) as pool:
        reports.append(check_spec(SLOW, SIG, [Case((2, 3), 5)], pool, limits, mutants_per_case=1))
        with busy_loops():
            reports.append(check_spec(SLOW, SIG, [Case((2, 3), 5)], pool, limits, mutants_per_case=1))
    idle, loaded = reports
    assert idle.verdict == loaded.verdict == "correct", [(r.outcome, r.detail) for r in loaded.results]
    assert idle.rungs() == loaded.rungs() == {"compute-decide": len(idle.results)}


@pytest.mark.slow
def test_unknown_obligations_say_whether_a_limit_stopped_them_or_no_rung_decides_them() -> None:
    endless = (
        "Fixpoint slow (n : nat) : nat := match n with 0 => 1 | S m => slow m + slow m end.\n"
        "Definition add_spec (x y r : Z) : Prop := slow 200 = 0%nat."
    )
    excluded_middle = "Definition add_spec (x y r : Z) : Prop := forall P : Prop, P \\/ ~ P."
    limits = Limits(goal_timeout_s=1, quick_timeout_s=0, command_timeout_s=10, spec_budget_s=20)
    with CoqtopPool(1) as pool:
        stopped = check_spec(endless, SIG, [Case((2, 3), 5)], pool, limits, mutants_per_case=1)
        undecidable = check_spec(excluded_middle, SIG, [Case((2, 3), 5)], pool, limits, mutants_per_case=1)
    assert stopped.verdict == "undecided" and stopped.reason.endswith("limit reached")
    assert {r.undecided for r in stopped.results} == {"limit reached"}
    assert undecidable.verdict == "undecided" and undecidable.reason.endswith("no rung decides it")
    assert {r.undecided for r in undecidable.results} == {"no rung decides it"}
    record = undecidable.to_dict()["obligations"][0]
    assert record["undecided"] == "no rung decides it" and record["rung"] is None


def test_the_winning_rung_is_the_last_whose_mark_was_printed() -> None:
    assert winning_rung("<infomsg>coins_goal_0 is defined</infomsg>") is None
    output = f"<infomsg>{RUNG_MARK} 0</infomsg>\n<infomsg>{RUNG_MARK} 4</infomsg>\ncoins_goal_0 is defined"
    assert winning_rung(output) == LADDER[4][0]
    assert winning_rung(f"{RUNG_MARK} {len(LADDER)}\n") is None
    assert strip_rung_marks(f"{RUNG_MARK} 2\nClosed under the global context").strip() == (
        "Closed under the global context"
    )
    tactic = ladder_tactic((), 5, "M")
    assert tactic.count(f'idtac "{RUNG_MARK} ') == len(LADDER)


def test_a_rung_left_out_is_not_tried_and_an_unknown_name_is_refused() -> None:
    second = LADDER[1][0]
    tactic = ladder_tactic((), 5, "M", frozenset({second}))
    assert f'idtac "{RUNG_MARK} 0"' in tactic and f'idtac "{RUNG_MARK} 1"' not in tactic
    assert tactic.count(f'idtac "{RUNG_MARK} ') == len(LADDER) - 1
    with pytest.raises(ValueError, match="no such rung: nonesuch"):
        ladder_tactic((), 5, "M", frozenset({"nonesuch"}))


def test_a_ladder_without_the_winning_rung_names_the_next_one_that_decides() -> None:
    # The benchmark's ablation: the same obligations on the ladder without the rung that
    # decided them are decided by a later rung, and that rung is the one recorded.
    spec = "Definition add_spec (x y r : Z) : Prop := (r = x + y)%Z."
    item = (spec, SIG, [Case((2, 3), 5)])
    with CoqtopPool(1) as pool:
        first = check_spec(spec, SIG, [Case((2, 3), 5)], pool, mutants_per_case=1)
        winner = {r.rung or "(none)" for r in first.results}
        assert first.verdict == "correct" and len(winner) == 1 and "(none)" not in winner
        (prepared,) = prepare_all([item], mutants_per_case=1, left_out=frozenset(winner))
        assert prepared.job is not None
        (ablated,) = pool.run([prepared.job])
    rungs = {r.rung for r in ablated.results}
    assert {r.outcome for r in ablated.results} <= {"proved", "refuted"}
    assert None not in rungs and not rungs & winner, (winner, rungs)


def test_a_budget_counts_charged_seconds_and_ends_at_its_wall_clock_backstop() -> None:
    budget = Budget(10.0)
    budget.charge(4.0)
    budget.charge(-1.0)
    assert budget.left() == pytest.approx(6.0, abs=0.01) and not budget.spent()
    budget.charge(6.0)
    assert budget.spent() and not budget.backstop
    stale = Budget(1.0, wall_start=-1e6)
    assert stale.spent() and stale.backstop
    assert (process_cpu_s(os.getpid()) or 0.0) > 0.0
    assert process_cpu_s(2**22 + 12345) is None


def _clock_in(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    code = "from coins_rocq.backends.clock import clock_kind; print(clock_kind())"
    return subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=120)


def test_without_a_compiler_the_limits_fall_back_to_wall_clock_and_say_so(tmp_path: Path) -> None:
    env = {**os.environ, "FRONTIER_COINS_CACHE": str(tmp_path), "CC": str(tmp_path / "no-such-cc")}
    done = _clock_in(env)
    assert done.stdout.strip() == "wall"
    assert "wall-clock" in done.stderr and "Traceback" not in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


@needs_cpu_clock
def test_the_shim_is_compiled_once_into_the_cache(tmp_path: Path) -> None:
    env = {**os.environ, "FRONTIER_COINS_CACHE": str(tmp_path)}
    assert _clock_in(env).stdout.strip() == "cpu"
    built = list(tmp_path.glob("cputimer-*.so"))
    assert len(built) == 1
    stamp = built[0].stat().st_mtime_ns
    assert _clock_in({**env, "CC": str(tmp_path / "no-such-cc")}).stdout.strip() == "cpu"
    assert built[0].stat().st_mtime_ns == stamp


def test_a_shim_the_loader_refuses_is_not_used(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    broken = tmp_path / "cputimer-broken.so"
    broken.write_bytes(b"not a shared object")
    assert _loadable(broken) is None
    note = capsys.readouterr().err
    assert "wall-clock" in note and len(note.strip().splitlines()) == 1


def test_the_spec_budget_grows_with_the_obligations_beyond_those_it_is_sized_for() -> None:
    limits = Limits(spec_budget_s=120.0)
    assert limits.budget_for(1) == limits.budget_for(60) == 120.0
    assert limits.budget_for(90) == 180.0
    assert Limits(spec_budget_s=3.0).budget_for(120) == 6.0
