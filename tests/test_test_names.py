"""Test files are named after the behaviour they check, not after the issue or round that asked for it."""

from __future__ import annotations

import re
from pathlib import Path

TESTS = Path(__file__).resolve().parent
NOT_BEHAVIOUR = re.compile(r"(^|_)issues?(_|$)|(^|_)(two|three|four|again|round\w*|new|more|extra|misc|[0-9]+)$")
"""An issue, an ordinal or a catch-all as the last word of a test module's name."""


def test_no_test_module_is_named_after_an_issue_or_a_round() -> None:
    modules = sorted(TESTS.rglob("test_*.py"))
    named = [str(p.relative_to(TESTS)) for p in modules if NOT_BEHAVIOUR.search(p.stem.removeprefix("test_"))]
    assert len(modules) > 100
    assert not named, f"rename after what they check: {named}"


def test_the_pattern_catches_the_names_it_is_for() -> None:
    caught = ["issue_37", "report_two", "first_hour_two", "cli_2", "runner_round2", "misc"]
    assert [n for n in caught if not NOT_BEHAVIOUR.search(n)] == []
    fine = ["report_consistency", "two_stage_sampler", "issuer_names", "run_preflight"]
    assert [n for n in fine if NOT_BEHAVIOUR.search(n)] == []
