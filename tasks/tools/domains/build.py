"""Regenerate the built-in domains' task files: ``python -m tasks.tools.domains.build``.

Each generated task is validated against the τ² format and its domain and checked for
soundness (gold succeeds, gold replay scores 1, doing nothing scores 0) before writing.
"""

from __future__ import annotations

import importlib
import json
import sys
from typing import Any

from tasks.tools.domains.registry import DOMAIN_NAMES, get_domain, task_file
from tasks.tools.solvability import check_task
from tasks.tools.taskformat import check_against_domain, parse_tasks


def generate(name: str) -> list[dict[str, Any]]:
    """The domain's task dicts from its generator module ``<name>_tasks``."""
    module = importlib.import_module(f"tasks.tools.domains.{name}_tasks")
    return module.build_tasks()


def render(tasks: list[dict[str, Any]]) -> str:
    """The task file's exact text."""
    return json.dumps(tasks, indent=1, ensure_ascii=False) + "\n"


def build(name: str) -> list[str]:
    """Generate, check and write one domain's task file; returns the problems (nothing written if any)."""
    raw = generate(name)
    domain = get_domain(name)
    problems = []
    for task in parse_tasks(raw, f"{name} generator"):
        check_against_domain(task, domain)
        verdict = check_task(domain, task)
        if not verdict.ok:
            problems.append(f"{name} task {task.id}: {verdict.problem}")
    if not problems:
        task_file(name).write_text(render(raw), encoding="utf-8")
    return problems


def main(argv: list[str]) -> int:
    """Build the named domains (all by default)."""
    failed = False
    for name in argv or list(DOMAIN_NAMES):
        problems = build(name)
        for problem in problems:
            print(problem, file=sys.stderr)
        failed |= bool(problems)
        print(f"{name}: {'FAILED' if problems else 'ok'}")
    return 1 if failed else 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
