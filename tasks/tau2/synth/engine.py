"""An executable environment built from a spec: database, toolkit, procedural tool tests, dependency graph."""

from __future__ import annotations

import copy
import json
import random
import re
from dataclasses import dataclass, field
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, create_model

from tasks.tau2.synth.spec import DomainSpec, ToolSpecDecl, compile_expression, evaluate_expression
from tasks.tau2.synth.toolkit import ToolError, ToolKind, Toolkit, ToolSpec, strip_titles

PY_TYPES: dict[str, type] = {"str": str, "int": int, "bool": bool, "float": float}
TESTS_PER_TOOL = 40


class PostconditionError(Exception):
    """A tool's effects did not establish its declared post-conditions (a faulty tool)."""


class SynthDB(BaseModel):
    """A synthesized domain's database: records by entity type and id, and id counters."""

    model_config = ConfigDict(extra="forbid")

    records: dict[str, dict[str, dict[str, Any]]]
    counters: dict[str, int] = Field(default_factory=dict)


def fresh_db(data: dict[str, Any]) -> SynthDB:
    """A database over a copy of ``data`` (``generate_records``' output), so calls never change ``data``."""
    return SynthDB.model_validate(copy.deepcopy(data))


def generate_records(spec: DomainSpec, seed: int) -> dict[str, Any]:
    """The initial database, deterministic for ``seed``; unique fields get distinct values."""
    rng = random.Random(f"synth:{spec.name}:{seed}")
    records: dict[str, dict[str, dict[str, Any]]] = {}
    for name, entity in spec.entities.items():
        table: dict[str, dict[str, Any]] = {}
        pools = {f: rng.sample(s.values, len(s.values)) for f, s in entity.fields.items() if s.unique}
        count = min([entity.count] + [len(p) for p in pools.values()])
        for index in range(count):
            key = f"{entity.prefix}{index + 1:04d}"
            record: dict[str, Any] = {entity.key: key}
            for fname, fspec in entity.fields.items():
                record[fname] = pools[fname][index] if fspec.unique else rng.choice(fspec.values)
            table[key] = record
        records[name] = table
    return {"records": records, "counters": {name: len(t) for name, t in records.items()}}


def _args_model(decl: ToolSpecDecl) -> type[BaseModel]:
    fields = {
        pname: (str if p.ref else PY_TYPES[p.type], Field(..., description=p.description or None))
        for pname, p in decl.params.items()
    }
    return create_model(f"{decl.name}_arguments", __config__=ConfigDict(extra="forbid"), **fields)  # type: ignore[call-overload]


def render_template(template: str, scope: dict[str, Any]) -> str:
    """``template`` with each ``{name}`` or ``{entity.field}`` replaced from ``scope``."""

    def value(match: re.Match[str]) -> str:
        parts = match.group(1).split(".")
        current: Any = scope
        for part in parts:
            current = current[part]
        return str(current)

    return re.sub(r"\{([a-zA-Z_][\w.]*)\}", value, template)


class SynthToolkit(Toolkit):
    """Runs spec-declared tools over a SynthDB (subclassed per spec by ``build_toolkit``)."""

    spec_decls: ClassVar[dict[str, ToolSpecDecl]] = {}
    domain_spec: DomainSpec

    def invoke(self, name: str, values: dict[str, Any]) -> Any:
        """Execute the declared tool ``name``."""
        decl = self.spec_decls[name]
        records = self.db.records
        scope: dict[str, Any] = dict(values)
        for pname, param in decl.params.items():
            if param.ref is not None:
                if values[pname] not in records[param.ref]:
                    raise ToolError(f"{param.ref} {values[pname]!r} not found")
                scope[param.ref] = dict(records[param.ref][values[pname]])
        if decl.get is not None:
            return scope[decl.get]
        if decl.lookup is not None:
            entity, fname = decl.lookup["entity"], decl.lookup["field"]
            pname = next(iter(decl.params))
            for record in records[entity].values():
                if record[fname] == values[pname]:
                    return record
            raise ToolError(f"no {entity} with {fname} {values[pname]!r}")
        return self._write(decl, scope)

    def _write(self, decl: ToolSpecDecl, scope: dict[str, Any]) -> Any:
        records = self.db.records
        new_key = None
        if decl.creates is not None:
            entity = self.domain_spec.entities[decl.creates]
            new_key = f"{entity.prefix}{self.db.counters.get(decl.creates, 0) + 1:04d}"
            scope[decl.creates] = {entity.key: new_key, **{f: scope[f] for f in entity.fields if f in scope}}
        for condition in decl.pre:
            if not evaluate_expression(compile_expression(condition), scope):
                raise ToolError(f"precondition not met: {condition}")
        updates = [
            (target, evaluate_expression(compile_expression(expr), scope)) for target, expr in decl.effects.items()
        ]
        for target, value in updates:
            entity_name, fname = target.split(".")
            if fname not in self.domain_spec.entities[entity_name].fields:
                raise PostconditionError(f"effect writes unknown field {target}")
            scope[entity_name][fname] = value
        if decl.creates is not None:
            missing = set(self.domain_spec.entities[decl.creates].fields) - set(scope[decl.creates])
            if missing:
                raise PostconditionError(f"created {decl.creates} lacks fields {sorted(missing)}")
            self.db.counters[decl.creates] = self.db.counters.get(decl.creates, 0) + 1
        for pname, param in decl.params.items():
            if param.ref is not None:
                records[param.ref][scope[pname]] = scope[param.ref]
        if decl.creates is not None:
            records[decl.creates][new_key] = scope[decl.creates]
        for condition in decl.post:
            if not evaluate_expression(compile_expression(condition), scope):
                raise PostconditionError(f"post-condition violated: {condition}")
        touched = [decl.creates] if decl.creates else [p.ref for p in decl.params.values() if p.ref]
        return {name: scope[name] for name in touched if name}


def build_toolkit(spec: DomainSpec, tools: list[ToolSpecDecl]) -> type[SynthToolkit]:
    """A toolkit class exposing ``tools`` with JSON Schemas derived from their declared parameters."""
    specs = {}
    for decl in tools:
        model = _args_model(decl)
        parameters = strip_titles(model.model_json_schema())
        parameters.setdefault("properties", {})
        parameters.setdefault("required", [])
        specs[decl.name] = ToolSpec(
            decl.name, ToolKind.READ if decl.kind == "read" else ToolKind.WRITE, decl.description, model, parameters
        )
    return type(
        f"{spec.name.title().replace('-', '')}Tools",
        (SynthToolkit,),
        {"_specs": specs, "spec_decls": {d.name: d for d in tools}, "domain_spec": spec},
    )


def random_arguments(decl: ToolSpecDecl, db: SynthDB, rng: random.Random) -> dict[str, Any]:
    """Generated arguments: mostly existing ids and declared values, sometimes a missing id."""
    args: dict[str, Any] = {}
    for pname, param in decl.params.items():
        if param.ref is not None:
            ids = sorted(db.records[param.ref])
            args[pname] = rng.choice(ids) if ids and rng.random() > 0.1 else f"missing-{rng.randrange(1000)}"
        else:
            args[pname] = rng.choice(param.values or [None])
    if decl.lookup is not None:
        entity, fname = decl.lookup["entity"], decl.lookup["field"]
        values = sorted({str(r[fname]) for r in db.records[entity].values()})
        if values and rng.random() > 0.1:
            args[next(iter(decl.params))] = rng.choice(values)
    return args


@dataclass
class ToolTestReport:
    """The outcome of testing one tool procedurally."""

    name: str
    calls: int = 0
    succeeded: int = 0
    refused: int = 0
    failures: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        """No faulty call and at least one success."""
        return not self.failures and self.succeeded > 0


def test_tools(spec: DomainSpec, seed: int, calls_per_tool: int = TESTS_PER_TOOL) -> dict[str, ToolTestReport]:
    """Call every tool with generated arguments on fresh environments and check what the spec promises."""
    kit_class, data = build_toolkit(spec, list(spec.tools)), generate_records(spec, seed)
    rng = random.Random(f"synth-test:{spec.name}:{seed}")
    reports = {}
    for decl in spec.tools:
        report = ToolTestReport(decl.name)
        for _ in range(calls_per_tool):
            kit = kit_class(fresh_db(data))
            args = random_arguments(decl, kit.db, rng)
            before = kit.db.model_dump_json()
            try:
                result = kit.invoke(decl.name, args)
                json.dumps(result)
            except ToolError:
                report.refused += 1
                report.calls += 1
                continue
            except Exception as exc:
                report.failures.append(f"{type(exc).__name__}: {exc} (arguments {args})")
                report.calls += 1
                continue
            report.calls += 1
            report.succeeded += 1
            changed = kit.db.model_dump_json() != before
            if decl.kind == "read" and changed:
                report.failures.append(f"read tool changed the state (arguments {args})")
            if decl.kind == "write" and not changed and decl.creates is not None:
                report.failures.append(f"create tool changed nothing (arguments {args})")
        if report.succeeded == 0 and not report.failures:
            report.failures.append(f"never succeeded in {calls_per_tool} generated calls")
        reports[decl.name] = report
    return reports


def produces(decl: ToolSpecDecl) -> set[str]:
    """Entity types whose ids the tool yields."""
    if decl.lookup is not None:
        return {decl.lookup["entity"]}
    if decl.creates is not None:
        return {decl.creates}
    return set()


def consumes(decl: ToolSpecDecl) -> set[str]:
    """Entity types whose ids the tool needs."""
    return {p.ref for p in decl.params.values() if p.ref is not None}


def dependency_graph(tools: list[ToolSpecDecl]) -> dict[str, list[str]]:
    """Edges producer → consumer: a tool that consumes an entity id another tool produces."""
    return {a.name: sorted(b.name for b in tools if b.name != a.name and produces(a) & consumes(b)) for a in tools}
