"""The former look-alike tool-use tasks are gone: each old name is refused with one line naming its replacement."""

from __future__ import annotations

import subprocess
import sys

import pytest

from harness.errors import ConfigError
from harness.registry import resolve_task, task_index

NEEDS_TAU2 = False


@pytest.mark.parametrize(
    "old, new",
    [
        ("toolsim/retail", "tau2/retail"),
        ("tools/airline", "tau2/airline"),
        ("tools-synth/library", "tau2-synth/library"),
        ("tools-synth/my/spec.yaml", "tau2-synth/my/spec.yaml"),
    ],
)
def test_an_old_name_is_refused_naming_its_replacement(old: str, new: str) -> None:
    with pytest.raises(ConfigError, match=f"use {new!r}") as info:
        resolve_task(old)
    assert "\n" not in str(info.value)
    assert not any(name.startswith(("toolsim/", "tools/", "tools-synth/")) for name in task_index().entries)


def test_the_cli_refuses_an_old_name_in_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "harness", "run", "--task", "toolsim/telecom", "--model", "builtin/oracle"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip().splitlines() == [
        "error: task 'toolsim/telecom' was removed with the look-alike tool-use domains; use 'tau2/telecom' "
        "(τ²-bench's own domains and synthesized ones run under one runtime now)"
    ]
