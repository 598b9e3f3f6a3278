"""Synthesis: test the spec's tools, keep the sound ones, sample tool chains, execute them, emit τ² tasks.

``synthesize(spec, seed)`` returns a ``Synthesis``: a ``SynthesizedDomain`` holding only tasks that
are sound under τ²'s runtime (the oracle agent with the scripted user, through the same episode
loop and evaluator as τ²'s own domains, earns reward and reward_strict 1; an idle agent earns 0),
and a report; ``write_domain`` writes it as a τ² data root (``domains/<name>/``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Coroutine
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from tasks.tau2.library import import_tau2
from tasks.tau2.parity import scripted_episode
from tasks.tau2.rewards import Evaluator
from tasks.tau2.scripted import gold_actions
from tasks.tau2.synth.engine import (
    SynthToolkit,
    build_toolkit,
    consumes,
    dependency_graph,
    fresh_db,
    generate_records,
    produces,
    random_arguments,
    render_template,
    test_tools,
)
from tasks.tau2.synth.spec import DomainSpec, ToolSpecDecl
from tasks.tau2.synthesized import SynthesizedDomain

if TYPE_CHECKING:
    from tau2.data_model.tasks import Task as Tau2Task

ATTEMPTS_PER_TASK = 40
T = TypeVar("T")
Call = tuple[str, dict[str, Any]]


@dataclass
class Synthesis:
    """The synthesized domain (with its sound tasks) and what happened on the way."""

    spec: DomainSpec
    domain: SynthesizedDomain
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
    kit_class: type[SynthToolkit], data: dict[str, Any], chain: list[ToolSpecDecl], rng: random.Random
) -> tuple[list[Call], list[str]] | None:
    """Run a chain with sampled arguments on a fresh database; ids flow from producers to consumers.

    None when it cannot run."""
    kit = kit_class(fresh_db(data))
    db, entities = kit.db, kit_class.domain_spec.entities
    known: dict[str, str] = {}
    calls: list[Call] = []
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
        result = kit.call(decl.name, json.dumps(args))
        if result.error:
            return None
        value = json.loads(result.content)
        for entity in produces(decl):
            record = value.get(entity, value) if decl.creates else value
            known[entity] = record[entities[entity].key]
        if decl.kind == "write":
            scope = {**args, **{k: v for k, v in before_scope.items() if v}}
            if decl.creates is not None:
                scope[decl.creates] = value[decl.creates]
            sentences.append(render_template(decl.instruction or "", scope))
        calls.append((decl.name, args))
    return calls, sentences


def task_dict(task_id: str, spec: DomainSpec, calls: list[Call], sentences: list[str]) -> dict[str, Any]:
    """One task in τ²'s format: the user asks for the chain's writes; the gold actions are its calls."""
    reason = " Then, ".join(s[:1].lower() + s[1:] if i else s for i, s in enumerate(sentences))
    gold = [
        {"action_id": f"{task_id}_{i}", "requestor": "assistant", "name": name, "arguments": arguments}
        for i, (name, arguments) in enumerate(calls)
    ]
    return {
        "id": task_id,
        "description": {"purpose": f"Synthesized chain: {' -> '.join(c for c, _ in calls)}."},
        "user_scenario": {
            "instructions": {
                "task_instructions": "Be concise and cooperative.",
                "domain": spec.name,
                "reason_for_call": reason,
                "known_info": "You know only what your request says; you do not know any ids.",
            }
        },
        "evaluation_criteria": {"actions": gold, "communicate_info": [], "reward_basis": ["DB"]},
    }


def run_sync(coroutine: Coroutine[Any, Any, T]) -> T:
    """Drive a coroutine that never suspends (scripted agent and user) to its result, inside or outside a loop."""
    try:
        coroutine.send(None)
    except StopIteration as stop:
        return stop.value
    coroutine.close()
    raise RuntimeError("a scripted episode tried to wait for I/O")


def is_sound(domain: SynthesizedDomain, evaluator: Evaluator, task: Tau2Task) -> bool:
    """The oracle earns reward and reward_strict 1 and an idle agent reward 0, under τ²'s episode loop and
    evaluator."""
    gold = run_sync(scripted_episode(domain, task, gold_actions(task)))
    rewards = evaluator.evaluate(task, gold.trajectory, gold.termination)
    if rewards.reward != 1.0 or rewards.reward_strict != 1.0:
        return False
    idle = run_sync(scripted_episode(domain, task, [], idle=True))
    return evaluator.evaluate(task, idle.trajectory, idle.termination).reward == 0.0


def synthesize(spec: DomainSpec, seed: int = 0, n_tasks: int = 25) -> Synthesis:
    """Build the environment, drop tools that fail their procedural tests, and emit sound tasks."""
    import_tau2()
    from tau2.data_model.tasks import Task as Tau2TaskModel

    reports = test_tools(spec, seed)
    kept = [t for t in spec.tools if reports[t.name].passed]
    graph = dependency_graph(kept)
    data, kit_class = generate_records(spec, seed), build_toolkit(spec, kept)
    domain = SynthesizedDomain(f"synth-{spec.name}", spec, [t.name for t in kept], fresh_db(data), spec.policy, [])
    evaluator = Evaluator(domain)
    rng = random.Random(f"synth-chains:{spec.name}:{seed}")
    tasks: list[Tau2Task] = []
    signatures: set[str] = set()
    rejected = 0
    for _ in range(n_tasks * ATTEMPTS_PER_TASK):
        if len(tasks) >= n_tasks or not any(t.kind == "write" for t in kept):
            break
        executed = _execute_chain(kit_class, data, _sample_chain(kept, graph, rng), rng)
        if executed is None:
            rejected += 1
            continue
        calls, sentences = executed
        signature = json.dumps(calls, sort_keys=True)
        if signature in signatures:
            continue
        task = Tau2TaskModel.model_validate(task_dict(str(len(tasks)), spec, calls, sentences))
        if not is_sound(domain, evaluator, task):
            rejected += 1
            continue
        signatures.add(signature)
        tasks.append(task)
    report = {
        "spec": spec.name,
        "seed": seed,
        "tools_tested": {
            n: {"calls": r.calls, "succeeded": r.succeeded, "refused": r.refused} for n, r in reports.items()
        },
        "tools_kept": [t.name for t in kept],
        "tools_dropped": {name: r.failures[:3] for name, r in reports.items() if not r.passed},
        "dependency_graph": graph,
        "tasks": len(tasks),
        "chains_rejected": rejected,
    }
    final = SynthesizedDomain(domain.name, spec, domain.kept, fresh_db(data), spec.policy, tasks)
    return Synthesis(spec, final, report)


def write_domain(result: Synthesis, out_dir: str | Path) -> Path:
    """Write ``result`` as a τ² data root under ``out_dir``; returns the domain folder ``domains/<name>/``."""
    folder = Path(out_dir) / "domains" / result.domain.name
    folder.mkdir(parents=True, exist_ok=True)
    tasks = [task.model_dump(mode="json", exclude_none=True) for task in result.domain.tasks(None)]
    files = {
        "tasks.json": json.dumps(tasks, indent=1),
        "split_tasks.json": json.dumps(result.domain.splits()),
        "db.json": json.dumps(result.domain.db.model_dump(mode="json"), indent=1, sort_keys=True),
        "spec.json": result.spec.model_dump_json(indent=1),
        "tools.json": json.dumps(result.domain.kept),
        "report.json": json.dumps(result.report, indent=1),
    }
    for name, text in files.items():
        (folder / name).write_text(text + "\n", encoding="utf-8")
    (folder / "policy.md").write_text(result.domain.policy, encoding="utf-8")
    return folder
