"""The human-written upstream specs (reference data ``coins-human/``), used as they are.

Every one is read, every HumanEval case of its problem renders (or is a reported skipped
case), and every file loads in the prover with its own ``Example``s, except the four that
Rocq refuses as written and the two with nothing checkable: none is invalid for rendering
or examples. A fixed sample is checked in full: the specs the ladder decides
are judged correct, and the specs that are wrong as written are never judged correct.
The benchmark ``benchmarks/coins_human.py`` measures all of them.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from coins_rocq import CoqtopPool, Limits, check_specs
from coins_rocq.checker import PreparedSpec, prepare
from coins_rocq.humaneval import humaneval_cases
from coins_rocq.obligations import Case
from coins_rocq.rtypes import Signature
from coins_rocq.upstream import read_upstream

DECIDED = (15, 42, 66)
"""Specs the ladder decides as correct in seconds (a sample; the benchmark runs all 52)."""

NOT_CHECKABLE = {
    162: "'Parameter' declares an unproved assumption",
}
"""Specs with no job, and why: 162 declares ``md5_hash`` as a ``Parameter`` (an assumption the
screen refuses: nothing about an abstract function can be decided). 99 takes an ``R`` where
HumanEval passes the number as a numeral string: its cases are read as those numbers."""

DO_NOT_COMPILE = {
    69: " n was not found in the current environment",
    120: 'has type "nat" while it is expected to have type "Z"',
    129: "Grid was not found in the current environment",
    147: 'The term "n" has type "nat" while it is expected to have type "Z"',
}
"""Files Rocq refuses as written, whatever the checker does: 69 has a stray ``/\\n+`` in
``Pre`` (``n`` is read as a name); 120 and 147 compare a ``nat`` with ``>=``/``>`` under
``Open Scope Z_scope``; 129 uses ``Grid`` in ``Pre`` before defining it. Each is matched
with its whitespace collapsed: Rocq breaks a long message where its printing width falls, and
names a term (``length arr`` or ``Datatypes.length arr``) by what the environment shadows,
and calls an unknown name (69's ``n``, 129's ``Grid``) a reference or a variable depending on the
worker's state (both seen in CI for ``Grid``)."""

WRONG_AS_WRITTEN = {
    3: "too_weak",
    75: "too_strong",
    96: "too_strong",
    126: "too_strong",
    144: "too_strong",
    150: "too_strong",
}
"""Specs that are wrong as written, and their verdicts: 3 puts ``exists prefix suffix`` around
the whole ``<->``, so ``false`` is accepted for every list (an empty prefix makes both sides
false); 75 and 96 swap the operands of ``mod`` in their primality (75's ``d mod n = 0`` holds
for ``d = 0``, so no number is prime; 96's ``n mod p`` is ``n`` below ``p``, so every number
above 1 is); 126 demands a strictly sorted list where HumanEval accepts one duplicate; 144
reverses the numerator's digits (``"50/10"`` is read as 5/10, so ``simplify("2/10", "50/10")``
is refused ``True``); 150 reads ``Prime n -> res = x \\/ ~ Prime n -> res = y`` as
``Prime n -> (res = x \\/ ~ Prime n) -> res = y``. Each verdict rests on a case whose ``Pre``
is proved."""

SAMPLE_LIMITS = Limits(spec_budget_s=60.0)


def _human_dir(shared_data: Path) -> Path:
    folder = shared_data / "coins-human"
    if not folder.is_dir():
        pytest.skip(f"{folder} is absent")
    return folder


def _read(folder: Path, number: int) -> tuple[str, Signature, list[Case]]:
    task_id = f"HumanEval/{number}"
    source = (folder / f"{number}.v").read_text(encoding="utf-8")
    signature = read_upstream(source, task_id)
    return source, signature, humaneval_cases(task_id)


@pytest.mark.slow
def test_every_human_spec_renders_its_cases_and_loads_with_its_examples(shared_data: Path) -> None:
    folder = _human_dir(shared_data)
    numbers = sorted(int(p.stem) for p in folder.glob("*.v"))
    assert len(numbers) == 52
    prepared: list[tuple[int, PreparedSpec]] = [(n, prepare(*_read(folder, n))) for n in numbers]
    not_built = {n: p.reason for n, p in prepared if p.job is None}
    assert sorted(not_built) == sorted(NOT_CHECKABLE), not_built
    assert all(why in not_built[n] for n, why in NOT_CHECKABLE.items()), not_built
    untyped = [(n, c.why) for n, p in prepared for c in p.skipped if not c.precondition and n not in NOT_CHECKABLE]
    assert untyped == [], untyped
    built = [(n, p.job) for n, p in prepared if p.job is not None]
    with CoqtopPool(2) as pool:
        results = pool.run([replace(job, obligations=[]) for _, job in built])
    failed = {n: r.load_error or "" for (n, _), r in zip(built, results, strict=True) if r.load_error is not None}
    assert sorted(failed) == sorted(DO_NOT_COMPILE), failed
    mismatched = {n: failed[n] for n, why in DO_NOT_COMPILE.items() if why not in " ".join(failed[n].split())}
    assert mismatched == {}, mismatched


@pytest.mark.slow
def test_sample_of_human_specs_is_judged_as_written(shared_data: Path) -> None:
    folder = _human_dir(shared_data)
    numbers = (*DECIDED, *WRONG_AS_WRITTEN)
    items = [_read(folder, n) for n in numbers]
    with CoqtopPool(2) as pool:
        reports = check_specs(items, pool, SAMPLE_LIMITS)
    verdicts = {n: r.verdict for n, r in zip(numbers, reports, strict=True)}
    assert {n: verdicts[n] for n in DECIDED} == {n: "correct" for n in DECIDED}, verdicts
    assert {n: verdicts[n] for n in WRONG_AS_WRITTEN} == WRONG_AS_WRITTEN, verdicts
