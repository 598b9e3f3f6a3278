"""Synthesis: test the spec's tools, keep the sound ones, sample tool chains, execute them, emit tasks.

``synthesize(spec, seed)`` returns a ``Synthesis`` (domain, validated tasks, report);
``write_synthesis`` writes ``tasks.json``, ``db.json``, ``report.json`` and the spec to a folder.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tasks.tools.domains.authoring import make_task
from tasks.tools.framework.environment import Domain, Environment
from tasks.tools.solvability import check_task
from tasks.tools.synth.engine import (
    _render_template,
    consumes,
    dependency_graph,
    make_domain,
    produces,
    random_arguments,
    synth_db,
    test_tools,
)
from tasks.tools.synth.spec import DomainSpec, ToolSpecDecl
from tasks.tools.taskformat import TauTask, check_against_domain, parse_tasks

ATTEMPTS_PER_TASK = 40


@dataclass
class Synthesis:
    """The synthesized domain, its tasks and what happened on the way."""

    spec: DomainSpec
    domain: Domain
    tasks: list[TauTask]
    raw_tasks: list[dict[str, Any]]
    report: dict[str, Any]


def _producer(entity: str, tools: list[ToolSpecDecl], rng: random.Random) -> ToolSpecDecl | None:
    options = [t for t in tools if entity in produces(t)]
    return rng.choice(options) if options else None


def _sample_chain(tools: list[ToolSpecDecl], graph: dict[str, list[str]], rng: random.Random) -> list[ToolSpecDecl]:
    """A target write tool, preceded by producers of the ids it consumes, maybe followed by a consumer."""
    writes = [t for t in tools if t.kind == "write" and t.creates is None] or [t for t in tools if t.kind == "write"]
    target = rng.choice(writes)
    chain: list[ToolSpecDecl] = []
    for entity in sorted(consumes(target)):
        producer = _producer(entity, tools, rng)
        if producer is not None:
            chain.append(producer)
    chain.append(target)
    followers = [t for t in tools if t.name in graph.get(target.name, []) and t.kind == "write"]
    if followers and rng.random() < 0.3:
        chain.append(rng.choice(followers))
    return chain


def _execute_chain(
    domain: Domain, chain: list[ToolSpecDecl], rng: random.Random
) -> tuple[list[tuple[str, dict[str, Any]]], list[str]] | None:
    """Run a chain with sampled arguments; ids flow from producers to consumers. None when it cannot run."""
    env = Environment(domain)
    db = synth_db(env)
    known: dict[str, str] = {}
    calls: list[tuple[str, dict[str, Any]]] = []
    sentences: list[str] = []
    for decl in chain:
        args = random_arguments(decl, db, rng)
        for pname, param in decl.params.items():
            if param.ref is not None:
                if param.ref in known:
                    args[pname] = known[param.ref]
                elif not db.records[param.ref]:
                    return None
                else:
                    args[pname] = rng.choice(sorted(db.records[param.ref]))
        if decl.lookup is not None:
            entity, fname = decl.lookup["entity"], decl.lookup["field"]
            if not db.records[entity]:
                return None
            record = db.records[entity][rng.choice(sorted(db.records[entity]))]
            args[next(iter(decl.params))] = record[fname]
        before_scope = {p.ref: db.records[p.ref].get(args[n], {}) for n, p in decl.params.items() if p.ref}
        result = env.call("assistant", decl.name, json.dumps(args))
        if result.error:
            return None
        value = json.loads(result.content)
        for entity in produces(decl):
            record = value.get(entity, value) if decl.creates else value
            known[entity] = record[domain.agent_toolkit.domain_spec.entities[entity].key]  # type: ignore[attr-defined]
        if decl.kind == "write":
            scope = {**args, **{k: v for k, v in before_scope.items() if v}}
            if decl.creates is not None:
                scope[decl.creates] = value[decl.creates]
            sentences.append(_render_template(decl.instruction or "", scope))
        calls.append((decl.name, args))
    return calls, sentences


def synthesize(spec: DomainSpec, seed: int = 0, n_tasks: int = 25) -> Synthesis:
    """Build the environment, drop tools that fail their procedural tests, and emit sound tasks."""
    reports = test_tools(spec, seed)
    kept = [t for t in spec.tools if reports[t.name].passed]
    dropped = {name: r.failures[:3] for name, r in reports.items() if not r.passed}
    graph = dependency_graph(kept)
    domain = make_domain(spec, kept, seed)
    rng = random.Random(f"synth-chains:{spec.name}:{seed}")
    raw: list[dict[str, Any]] = []
    tasks: list[TauTask] = []
    signatures: set[str] = set()
    rejected = 0
    for _ in range(n_tasks * ATTEMPTS_PER_TASK):
        if len(tasks) >= n_tasks or not any(t.kind == "write" for t in kept):
            break
        chain = _sample_chain(kept, graph, rng)
        executed = _execute_chain(domain, chain, rng)
        if executed is None:
            rejected += 1
            continue
        calls, sentences = executed
        signature = json.dumps(calls, sort_keys=True)
        if signature in signatures:
            continue
        task_dict = make_task(
            str(len(tasks)),
            spec.name,
            f"Synthesized chain: {' -> '.join(c for c, _ in calls)}.",
            " Then, ".join(s[:1].lower() + s[1:] if i else s for i, s in enumerate(sentences)),
            "You know only what your request says; you do not know any ids.",
            calls,
            basis=("DB",),
        )
        task = parse_tasks([task_dict], f"synthesized {spec.name}")[0]
        check_against_domain(task, domain)
        if not check_task(domain, task).ok:
            rejected += 1
            continue
        signatures.add(signature)
        raw.append(task_dict)
        tasks.append(task)
    report = {
        "spec": spec.name,
        "seed": seed,
        "tools_tested": {
            n: {"calls": r.calls, "succeeded": r.succeeded, "refused": r.refused} for n, r in reports.items()
        },
        "tools_kept": [t.name for t in kept],
        "tools_dropped": dropped,
        "dependency_graph": graph,
        "tasks": len(tasks),
        "chains_rejected": rejected,
    }
    final = Domain(
        domain.name, domain.policy, domain.db_model, domain.db_data, domain.agent_toolkit, tasks_loader=lambda: tasks
    )
    return Synthesis(spec, final, tasks, raw, report)


def write_synthesis(result: Synthesis, out_dir: str | Path) -> Path:
    """Write tasks.json, db.json, report.json and spec.json into ``out_dir``."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    (out / "tasks.json").write_text(json.dumps(result.raw_tasks, indent=1) + "\n", encoding="utf-8")
    (out / "db.json").write_text(json.dumps(result.domain.db_data(), indent=1, sort_keys=True) + "\n", encoding="utf-8")
    (out / "report.json").write_text(json.dumps(result.report, indent=1) + "\n", encoding="utf-8")
    (out / "spec.json").write_text(result.spec.model_dump_json(indent=1) + "\n", encoding="utf-8")
    return out
