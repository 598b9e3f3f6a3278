"""The run directory's file names are spelled once, in harness/runformat.py (issue 20 item 10)."""

from __future__ import annotations

import ast
from pathlib import Path

from harness.run_lock import LOCK_FILE
from harness.runformat import CONFIG_FILE, SAMPLES_FILE, SUMMARY_FILE
from harness.runformat import LOCK_FILE as FORMAT_LOCK_FILE

ROOT = Path(__file__).resolve().parents[2]
NAMES = {CONFIG_FILE, SAMPLES_FILE, SUMMARY_FILE, FORMAT_LOCK_FILE}


def test_no_other_module_of_the_harness_or_the_leaderboard_spells_a_run_file_name() -> None:
    spelled: list[str] = []
    for package in ("harness", "leaderboard"):
        for module in sorted((ROOT / package).rglob("*.py")):
            if module == ROOT / "harness" / "runformat.py":
                continue
            for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
                if isinstance(node, ast.Constant) and node.value in NAMES:
                    spelled.append(f"{module.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert spelled == []


def test_the_lock_uses_the_run_format_name() -> None:
    assert LOCK_FILE == FORMAT_LOCK_FILE == ".lock"
