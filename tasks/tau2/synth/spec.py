"""The declarative domain spec (YAML) and the safe expression language of its conditions.

A spec names entities (key, count, fields with value pools) and tools. A tool is a
``read`` (``get``: return an entity by id; ``lookup``: find an entity id by a unique
field) or a ``write`` (``pre`` conditions, ``effects`` assignments, ``post`` conditions;
``creates`` makes a new entity). Conditions and effect values are Python expressions over
the bound entities (``book.status``) and parameters, limited to literals, names,
attributes, comparisons, boolean logic and arithmetic.
"""

from __future__ import annotations

import ast
import operator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

MAX_SPEC_BYTES = 1_000_000


class SpecError(ValueError):
    """A spec is malformed; the message names the part at fault."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class FieldSpec(_Strict):
    """One field of an entity: its type and the values the generator draws from."""

    type: Literal["str", "int", "bool", "float"] = "str"
    values: list[Any] = Field(min_length=1)
    unique: bool = False


class EntitySpec(_Strict):
    """An entity type: its key field name, id prefix, how many to generate and its fields."""

    key: str
    prefix: str
    count: int = Field(ge=1, le=500)
    fields: dict[str, FieldSpec]


class ParamSpec(_Strict):
    """A tool parameter: a reference to an entity (its id) or a value drawn like a field."""

    ref: str | None = None
    type: Literal["str", "int", "bool", "float"] = "str"
    values: list[Any] | None = None
    description: str = ""


class ToolSpecDecl(_Strict):
    """A tool of the spec."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]{0,63}$")
    kind: Literal["read", "write"]
    description: str
    params: dict[str, ParamSpec] = Field(default_factory=dict)
    get: str | None = None
    lookup: dict[str, str] | None = None
    creates: str | None = None
    pre: list[str] = Field(default_factory=list)
    effects: dict[str, str] = Field(default_factory=dict)
    post: list[str] = Field(default_factory=list)
    instruction: str | None = None

    @model_validator(mode="after")
    def _shape(self) -> ToolSpecDecl:
        if self.kind == "read" and (self.get is None) == (self.lookup is None):
            raise ValueError("a read tool needs exactly one of 'get' or 'lookup'")
        if self.kind == "write" and not self.effects and self.creates is None:
            raise ValueError("a write tool needs 'effects' or 'creates'")
        if self.kind == "write" and not self.instruction:
            raise ValueError("a write tool needs an 'instruction' template for the simulated user")
        return self


class DomainSpec(_Strict):
    """A whole spec."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_-]{0,63}$")
    description: str
    policy: str
    entities: dict[str, EntitySpec]
    tools: list[ToolSpecDecl] = Field(min_length=1)

    @model_validator(mode="after")
    def _references(self) -> DomainSpec:
        names = [t.name for t in self.tools]
        if len(set(names)) != len(names):
            raise ValueError("tool names repeat")
        for tool in self.tools:
            for pname, param in tool.params.items():
                if param.ref is not None and param.ref not in self.entities:
                    raise ValueError(f"tool {tool.name}: parameter {pname} refers to unknown entity {param.ref!r}")
                if param.ref is None and not param.values:
                    raise ValueError(f"tool {tool.name}: parameter {pname} needs 'ref' or 'values'")
            target = tool.get or tool.creates or (tool.lookup or {}).get("entity")
            if target is not None and target not in self.entities:
                raise ValueError(f"tool {tool.name}: unknown entity {target!r}")
            if tool.lookup is not None:
                entity, field = tool.lookup.get("entity"), tool.lookup.get("field")
                if field not in self.entities[entity].fields or not self.entities[entity].fields[field].unique:  # type: ignore[index]
                    raise ValueError(f"tool {tool.name}: lookup field {field!r} must be a unique field of {entity}")
            for expr in tool.pre + tool.post + list(tool.effects.values()):
                compile_expression(expr)
            for target_field in tool.effects:
                parts = target_field.split(".")
                if len(parts) != 2:
                    raise ValueError(f"tool {tool.name}: effect target {target_field!r} must be entity.field")
        return self


def load_spec(path: str | Path) -> DomainSpec:
    """Read and validate a YAML spec; SpecError names what is wrong."""
    import yaml

    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise SpecError(f"cannot read spec {path}: {exc.strerror}") from None
    if len(text) > MAX_SPEC_BYTES:
        raise SpecError(f"{path}: spec is over {MAX_SPEC_BYTES} bytes")
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        raise SpecError(f"{path}: not valid YAML: {exc}") from None
    return parse_spec(data, str(path))


def parse_spec(data: Any, source: str = "spec") -> DomainSpec:
    """Validate spec data already parsed from YAML or JSON."""
    try:
        return DomainSpec.model_validate(data)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(str(p) for p in e['loc']) or '(spec)'}: {e['msg']}" for e in exc.errors()[:5])
        raise SpecError(f"{source}: {problems}") from None


_BINARY = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul}
_COMPARE = {
    ast.Eq: operator.eq,
    ast.NotEq: operator.ne,
    ast.Lt: operator.lt,
    ast.LtE: operator.le,
    ast.Gt: operator.gt,
    ast.GtE: operator.ge,
    ast.In: lambda a, b: a in b,
    ast.NotIn: lambda a, b: a not in b,
}
_ALLOWED = (
    ast.Expression,
    ast.Compare,
    ast.BoolOp,
    ast.And,
    ast.Or,
    ast.UnaryOp,
    ast.Not,
    ast.USub,
    ast.BinOp,
    ast.Constant,
    ast.Name,
    ast.Attribute,
    ast.Load,
    ast.List,
    ast.Tuple,
    *_BINARY,
    *_COMPARE,
)


def compile_expression(text: str) -> ast.Expression:
    """Parse an expression of the spec language; SpecError for anything outside it."""
    if len(text) > 500:
        raise SpecError(f"expression too long: {text[:60]!r}...")
    try:
        tree = ast.parse(text, mode="eval")
    except SyntaxError as exc:
        raise SpecError(f"expression {text!r} is not valid: {exc.msg}") from None
    for node in ast.walk(tree):
        if not isinstance(node, _ALLOWED):
            raise SpecError(f"expression {text!r} uses {type(node).__name__}, which specs may not use")
    return tree


def evaluate_expression(tree: ast.Expression, scope: dict[str, Any]) -> Any:
    """Evaluate a compiled expression; entities in ``scope`` are dicts read with attribute syntax."""

    def ev(node: ast.AST) -> Any:
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            if node.id not in scope:
                raise KeyError(f"unknown name {node.id!r}")
            return scope[node.id]
        if isinstance(node, ast.Attribute):
            base = ev(node.value)
            if not isinstance(base, dict) or node.attr not in base:
                raise KeyError(f"no field {node.attr!r}")
            return base[node.attr]
        if isinstance(node, (ast.List, ast.Tuple)):
            return [ev(e) for e in node.elts]
        if isinstance(node, ast.UnaryOp):
            value = ev(node.operand)
            return (not value) if isinstance(node.op, ast.Not) else -value
        if isinstance(node, ast.BinOp):
            return _BINARY[type(node.op)](ev(node.left), ev(node.right))
        if isinstance(node, ast.BoolOp):
            values = (ev(v) for v in node.values)
            return all(values) if isinstance(node.op, ast.And) else any(values)
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, comparator in zip(node.ops, node.comparators, strict=True):
                right = ev(comparator)
                if not _COMPARE[type(op)](left, right):
                    return False
                left = right
            return True
        raise SpecError(f"unsupported expression node {type(node).__name__}")

    return ev(tree)
