"""The authored knowledge base behind the offline ConFiQA generator.

Three YAML files in ``kb/``: ``relations.yaml`` (Wikidata property, subject and object
types, question, phrase and statement templates), ``entities.yaml`` (typed entities with
aliases) and ``facts.yaml`` (functional facts: relation -> subject -> object). Loading
validates every reference and fails with an error naming the file and the bad entry.
"""

from __future__ import annotations

import functools
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scorers.squad_normalize import normalize_answer

KB_DIR = Path(__file__).resolve().parent / "kb"
MIN_ALIAS_CHARS = 4
_FOLD = str.maketrans({"ø": "o", "Ø": "O", "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "æ": "ae", "Æ": "AE", "ß": "ss"})


class KnowledgeBaseError(ValueError):
    """The knowledge-base files are malformed or inconsistent."""


@dataclass(frozen=True)
class Entity:
    """A typed entity: stable id, display label and aliases (accent-free spellings included)."""

    id: str
    label: str
    type: str
    aliases: tuple[str, ...]

    def forms(self) -> tuple[str, ...]:
        """The label and aliases, normalised SQuAD-style, without duplicates."""
        out: list[str] = []
        for name in (self.label, *self.aliases):
            form = normalize_answer(name)
            if form and form not in out:
                out.append(form)
        return tuple(out)


@dataclass(frozen=True)
class Relation:
    """A relation with its templates; ``{s}`` is the subject, ``{o}`` the object."""

    key: str
    pid: str
    subjects: tuple[str, ...]
    object: str
    question: str
    phrase: str
    statements: tuple[str, ...]


@dataclass(frozen=True)
class KnowledgeBase:
    """Entities by id, relations by key, and facts as (subject id, relation key) -> object id."""

    entities: Mapping[str, Entity]
    relations: Mapping[str, Relation]
    facts: Mapping[tuple[str, str], str]

    def of_type(self, entity_type: str) -> tuple[Entity, ...]:
        """Every entity of ``entity_type``, in id order."""
        return tuple(e for _, e in sorted(self.entities.items()) if e.type == entity_type)

    @functools.cached_property
    def _adjacency(self) -> dict[str, tuple[tuple[str, str], ...]]:
        table: dict[str, list[tuple[str, str]]] = {}
        for (subj, rel), obj in sorted(self.facts.items()):
            table.setdefault(subj, []).append((rel, obj))
        return {subj: tuple(pairs) for subj, pairs in table.items()}

    def outgoing(self, subject_id: str) -> tuple[tuple[str, str], ...]:
        """(relation key, object id) pairs of the facts about ``subject_id``, in relation order."""
        return self._adjacency.get(subject_id, ())

    def triples(self) -> tuple[tuple[str, str, str], ...]:
        """Every fact as (subject id, relation key, object id), sorted."""
        return tuple(sorted((s, r, o) for (s, r), o in self.facts.items()))


def fold_accents(text: str) -> str:
    """``text`` with diacritics removed (Reykjavík -> Reykjavik, Mjøsa -> Mjosa)."""
    decomposed = unicodedata.normalize("NFKD", text.translate(_FOLD))
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def entity_id(entity_type: str, label: str) -> str:
    """A stable id such as ``kb:city:reykjavik``."""
    slug = re.sub(r"[^a-z0-9]+", "_", fold_accents(label).lower()).strip("_") or "x"
    return f"kb:{entity_type}:{slug}"


def _read_yaml(path: Path) -> Any:
    import yaml

    try:
        return yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise KnowledgeBaseError(f"{path}: cannot read: {exc}") from None


def _str_list(value: Any, where: str) -> tuple[str, ...]:
    if value is None:
        return ()
    if not isinstance(value, list) or not all(isinstance(v, str) and v.strip() for v in value):
        raise KnowledgeBaseError(f"{where}: expected a list of non-empty strings, got {value!r}")
    return tuple(value)


def _parse_relations(raw: Any, path: Path) -> dict[str, Relation]:
    if not isinstance(raw, dict) or not raw:
        raise KnowledgeBaseError(f"{path}: expected a mapping of relations")
    relations: dict[str, Relation] = {}
    for key, spec in raw.items():
        where = f"{path.name}: relation {key!r}"
        if not isinstance(spec, dict):
            raise KnowledgeBaseError(f"{where}: expected a mapping")
        missing = {"pid", "subjects", "object", "question", "phrase", "statements"} - set(spec)
        if missing:
            raise KnowledgeBaseError(f"{where}: missing {sorted(missing)}")
        statements = _str_list(spec["statements"], f"{where} statements")
        if not statements or not all("{s}" in t and "{o}" in t for t in statements):
            raise KnowledgeBaseError(f"{where}: every statement needs {{s}} and {{o}}")
        if "{s}" not in str(spec["question"]) or "{s}" not in str(spec["phrase"]):
            raise KnowledgeBaseError(f"{where}: question and phrase need {{s}}")
        relations[str(key)] = Relation(
            key=str(key),
            pid=str(spec["pid"]),
            subjects=_str_list(spec["subjects"], f"{where} subjects"),
            object=str(spec["object"]),
            question=str(spec["question"]),
            phrase=str(spec["phrase"]),
            statements=statements,
        )
    return relations


def _with_folded(label: str, aliases: tuple[str, ...]) -> tuple[str, ...]:
    out: list[str] = []
    for name in (*aliases, label):
        for variant in (name, fold_accents(name)):
            if variant != label and variant not in out:
                out.append(variant)
    return tuple(out)


def _parse_entities(raw: Any, path: Path, known_types: set[str]) -> dict[str, Entity]:
    if not isinstance(raw, dict):
        raise KnowledgeBaseError(f"{path}: expected a mapping of entity types")
    unknown = set(raw) - known_types
    if unknown:
        raise KnowledgeBaseError(f"{path}: entity types used by no relation: {sorted(unknown)}")
    by_label: dict[str, Entity] = {}
    for entity_type, members in raw.items():
        if not isinstance(members, dict):
            raise KnowledgeBaseError(f"{path}: type {entity_type!r}: expected label -> aliases")
        seen_forms: dict[str, str] = {}
        for label, aliases in members.items():
            where = f"{path.name}: {entity_type} {label!r}"
            if not isinstance(label, str) or not normalize_answer(label):
                raise KnowledgeBaseError(f"{where}: the label must be a non-empty string")
            if label in by_label:
                raise KnowledgeBaseError(f"{where}: label also used by a {by_label[label].type}")
            declared = _str_list(aliases, where)
            short = [a for a in declared if len(normalize_answer(a)) < MIN_ALIAS_CHARS]
            if short:
                raise KnowledgeBaseError(f"{where}: aliases shorter than {MIN_ALIAS_CHARS} characters: {short}")
            entity = Entity(entity_id(entity_type, label), label, str(entity_type), _with_folded(label, declared))
            for form in entity.forms():
                if form in seen_forms and seen_forms[form] != label:
                    raise KnowledgeBaseError(f"{where}: name {form!r} also names {seen_forms[form]!r}")
                seen_forms[form] = label
            by_label[label] = entity
    ids = [e.id for e in by_label.values()]
    if len(set(ids)) != len(ids):
        raise KnowledgeBaseError(f"{path}: two labels give the same entity id")
    return {e.id: e for e in by_label.values()}


def _parse_facts(
    raw: Any, path: Path, relations: Mapping[str, Relation], entities: Mapping[str, Entity]
) -> dict[tuple[str, str], str]:
    if not isinstance(raw, dict):
        raise KnowledgeBaseError(f"{path}: expected relation -> {{subject: object}}")
    by_label = {e.label: e for e in entities.values()}
    facts: dict[tuple[str, str], str] = {}
    for rel_key, pairs in raw.items():
        relation = relations.get(rel_key)
        if relation is None:
            raise KnowledgeBaseError(f"{path.name}: unknown relation {rel_key!r}")
        if not isinstance(pairs, dict):
            raise KnowledgeBaseError(f"{path.name}: {rel_key}: expected subject -> object")
        for subject_label, object_label in pairs.items():
            where = f"{path.name}: {rel_key}: {subject_label!r} -> {object_label!r}"
            subject, obj = by_label.get(str(subject_label)), by_label.get(str(object_label))
            if subject is None or obj is None:
                raise KnowledgeBaseError(f"{where}: not a declared entity")
            if subject.type not in relation.subjects or obj.type != relation.object:
                raise KnowledgeBaseError(
                    f"{where}: types {subject.type} -> {obj.type} do not fit {relation.subjects} -> {relation.object}"
                )
            facts[(subject.id, rel_key)] = obj.id
    return facts


def load_knowledge_base(directory: Path | str = KB_DIR) -> KnowledgeBase:
    """Read and validate the three YAML files in ``directory``."""
    root = Path(directory)
    relations = _parse_relations(_read_yaml(root / "relations.yaml"), root / "relations.yaml")
    types = {t for r in relations.values() for t in (*r.subjects, r.object)}
    entities = _parse_entities(_read_yaml(root / "entities.yaml"), root / "entities.yaml", types)
    facts = _parse_facts(_read_yaml(root / "facts.yaml"), root / "facts.yaml", relations, entities)
    return KnowledgeBase(entities=entities, relations=relations, facts=facts)


@functools.lru_cache(maxsize=1)
def default_knowledge_base() -> KnowledgeBase:
    """The knowledge base shipped with the package (loaded once)."""
    return load_knowledge_base(KB_DIR)
