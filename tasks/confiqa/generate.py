"""A seeded generator of ConFiQA-format items from the authored knowledge base.

QA: one fact, its object replaced by another entity of the same type. MR: a 2-4 hop path
with one hop changed; the hops after it follow the real facts of the new entity, so the
context holds exactly one counterfactual fact and the answer changes. MC: every hop
changed. Contexts are built from per-relation statement templates plus background facts
about the path's entities; in the counterfactual context, whole-word mentions of the
original answer are replaced by the counterfactual answer, as upstream does. Items whose
answers leak into the question or the other context, or whose original and counterfactual
answers contain one another, are not emitted.
"""

from __future__ import annotations

import random
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from scorers.squad_normalize import normalize_answer
from tasks.confiqa.kb import Entity, KnowledgeBase, default_knowledge_base
from tasks.confiqa.loader import Subset

HopPath = tuple[tuple[str, str, str], ...]
MAX_CANDIDATES = 80


@dataclass(frozen=True)
class GeneratorConfig:
    """What to generate: subset, count, seed, hop range and background facts per context."""

    subset: Subset
    n: int
    seed: int = 0
    min_hops: int = 2
    max_hops: int = 4
    background: int = 2


class Generator:
    """Builds items of one subset from a knowledge base, deterministically for a seed."""

    def __init__(self, config: GeneratorConfig, kb: KnowledgeBase | None = None) -> None:
        if config.subset not in ("qa", "mr", "mc"):
            raise ValueError(f"unknown ConFiQA subset {config.subset!r}")
        if not 2 <= config.min_hops <= config.max_hops <= 4:
            raise ValueError("hops must satisfy 2 <= min_hops <= max_hops <= 4")
        self.config = config
        self.kb = kb or default_knowledge_base()
        self.rng = random.Random(f"confiqa-gen:{config.subset}:{config.seed}:{config.min_hops}:{config.max_hops}")

    def entity(self, entity_id: str) -> Entity:
        """The entity with ``entity_id``."""
        return self.kb.entities[entity_id]

    def items(self) -> list[dict[str, Any]]:
        """Up to ``n`` items (fewer only if the knowledge base runs out of valid paths)."""
        out: list[dict[str, Any]] = []
        seen: set[HopPath] = set()
        for path in self._path_stream():
            if len(out) >= self.config.n:
                break
            if path in seen:
                continue
            item = self._build(path)
            if item is not None:
                seen.add(path)
                out.append(item)
        return out

    def _paths_by_group(self) -> dict[Any, list[HopPath]]:
        groups: dict[Any, list[HopPath]] = {}
        if self.config.subset == "qa":
            for triple in self.kb.triples():
                groups.setdefault(triple[1], []).append((triple,))
            return groups
        for start in sorted(self.kb.entities):
            for path in self._walk(start, (), self.config.max_hops):
                if len(path) >= self.config.min_hops:
                    groups.setdefault((len(path), tuple(t[1] for t in path)), []).append(path)
        return groups

    def _walk(self, node: str, path: HopPath, budget: int) -> Iterator[HopPath]:
        if path:
            yield path
        if budget == 0:
            return
        visited = {path[0][0], *(t[2] for t in path)} if path else {node}
        for relation, obj in self.kb.outgoing(node):
            if obj not in visited:
                yield from self._walk(obj, (*path, (node, relation, obj)), budget - 1)

    def _path_stream(self) -> Iterator[HopPath]:
        """Paths stratified by hop count, then relation chain, then uniformly."""
        groups = {
            key: sorted(paths) for key, paths in sorted(self._paths_by_group().items(), key=lambda kv: str(kv[0]))
        }
        for paths in groups.values():
            self.rng.shuffle(paths)
        while groups:
            lengths = sorted({len(next(iter(p))) for p in groups.values()})
            length = self.rng.choice(lengths)
            keys = [k for k, p in groups.items() if len(p[0]) == length]
            key = self.rng.choice(keys)
            yield groups[key].pop()
            if not groups[key]:
                del groups[key]

    def _alternatives(self, entity_type: str, exclude: set[str]) -> list[str]:
        ids = [e.id for e in self.kb.of_type(entity_type) if e.id not in exclude]
        self.rng.shuffle(ids)
        return ids[:MAX_CANDIDATES]

    def _counterfactual_path(self, path: HopPath) -> tuple[HopPath, int | None] | None:
        if self.config.subset == "qa":
            subj, rel, obj = path[0]
            for alt in self._alternatives(self.kb.relations[rel].object, {obj, subj}):
                if not self._collide(alt, obj):
                    return ((subj, rel, alt),), 0
            return None
        if self.config.subset == "mr":
            return self._one_hop_changed(path)
        return self._every_hop_changed(path)

    def _one_hop_changed(self, path: HopPath) -> tuple[HopPath, int] | None:
        hops = list(range(len(path)))
        self.rng.shuffle(hops)
        for hop in hops:
            subj, rel, obj = path[hop]
            prefix_entities = {path[0][0], *(t[2] for t in path[:hop])}
            for alt in self._alternatives(self.kb.relations[rel].object, {obj} | prefix_entities):
                chain = [*path[:hop], (subj, rel, alt)]
                current, used = alt, prefix_entities | {alt}
                for _, next_rel, _ in path[hop + 1 :]:
                    nxt = self.kb.facts.get((current, next_rel))
                    if nxt is None or nxt in used:
                        break
                    chain.append((current, next_rel, nxt))
                    current = nxt
                    used.add(nxt)
                if len(chain) == len(path) and not self._collide(chain[-1][2], path[-1][2]):
                    return tuple(chain), hop
        return None

    def _every_hop_changed(self, path: HopPath) -> tuple[HopPath, None] | None:
        chain: list[tuple[str, str, str]] = []
        current, used = path[0][0], {path[0][0]}
        for _, rel, obj in path:
            real = self.kb.facts.get((current, rel))
            options = self._alternatives(self.kb.relations[rel].object, used | {obj, real or ""})
            last = len(chain) == len(path) - 1
            pick = next((o for o in options if not last or not self._collide(o, path[-1][2])), None)
            if pick is None:
                return None
            chain.append((current, rel, pick))
            current = pick
            used.add(pick)
        return tuple(chain), None

    def _collide(self, a: str, b: str) -> bool:
        forms_a, forms_b = self.entity(a).forms(), self.entity(b).forms()
        return any(x in y or y in x for x in forms_a for y in forms_b)

    def _question(self, path: HopPath) -> str:
        if len(path) == 1:
            subj, rel, _ = path[0]
            return self.kb.relations[rel].question.format(s=self.entity(subj).label)
        phrase = self.entity(path[0][0]).label
        for _, rel, _ in path:
            phrase = self.kb.relations[rel].phrase.format(s=phrase)
        opener = "Who" if self.entity(path[-1][2]).type == "person" else "What"
        return f"{opener} is {phrase}?"

    def _background(self, orig: HopPath, cf: HopPath) -> list[tuple[str, str, str]]:
        on_path = {orig[0][0], *(t[2] for t in orig), *(t[2] for t in cf)}
        path_rels = {(s, r) for s, r, _ in (*orig, *cf)}
        finals = (orig[-1][2], cf[-1][2])
        pool = [
            (subj, rel, obj)
            for subj in [orig[0][0], *(t[2] for t in orig[:-1])]
            for rel, obj in self.kb.outgoing(subj)
            if (subj, rel) not in path_rels and obj not in on_path and not any(self._collide(obj, f) for f in finals)
        ]
        self.rng.shuffle(pool)
        return pool[: self.config.background]

    def _sentence(self, triple: tuple[str, str, str], template: int) -> str:
        subj, rel, obj = triple
        statements = self.kb.relations[rel].statements
        text = statements[template % len(statements)].format(s=self.entity(subj).label, o=self.entity(obj).label)
        return text[0].upper() + text[1:]

    def _build(self, path: HopPath) -> dict[str, Any] | None:
        found = self._counterfactual_path(path)
        if found is None:
            return None
        cf, changed = found
        templates = [self.rng.randrange(3) for _ in path]
        background = self._background(path, cf)
        bg_templates = [self.rng.randrange(3) for _ in background]
        orig_hops = [self._sentence(t, k) for t, k in zip(path, templates, strict=True)]
        cf_hops = [self._sentence(t, k) for t, k in zip(cf, templates, strict=False)]
        orig_bg = [self._sentence(t, k) for t, k in zip(background, bg_templates, strict=True)]
        answer_swap = [(self.entity(path[-1][2]).label, self.entity(cf[-1][2]).label)]
        cf_bg = [replace_whole_words(s, answer_swap) for s in orig_bg]
        order = list(range(len(orig_hops) + len(orig_bg)))
        self.rng.shuffle(order)
        orig_sentences, cf_sentences = orig_hops + orig_bg, cf_hops + cf_bg
        item = self._record(path, cf, changed)
        item.update(
            orig_context_piece=" ".join(orig_hops) if changed is None or len(path) > 1 else orig_hops[changed],
            cf_context_piece=" ".join(cf_hops) if changed is None or len(path) > 1 else cf_hops[changed],
            orig_context=" ".join(orig_sentences[i] for i in order),
            cf_context=" ".join(cf_sentences[i] for i in order),
        )
        return item if self._clean(item, path, cf) else None

    def _record(self, path: HopPath, cf: HopPath, changed: int | None) -> dict[str, Any]:
        def labeled(p: HopPath) -> list[tuple[str, str, str]]:
            return [(self.entity(s).label, r.replace("_", " "), self.entity(o).label) for s, r, o in p]

        def ids(p: HopPath) -> list[tuple[str, str, str]]:
            return [(s, self.kb.relations[r].pid, o) for s, r, o in p]

        orig_final, cf_final = self.entity(path[-1][2]), self.entity(cf[-1][2])
        item: dict[str, Any] = {
            "orig_path": repr(ids(path)),
            "cf_path": repr(ids(cf)),
            "orig_path_labeled": repr(labeled(path)),
            "cf_path_labeled": repr(labeled(cf)),
        }
        if changed is not None:
            item["orig_triple"] = repr(tuple(ids(path)[changed]))
            item["cf_triple"] = repr(tuple(ids(cf)[changed]))
        else:
            item["orig"] = repr(labeled(path))
        item.update(
            orig_answer=orig_final.label,
            cf_answer=cf_final.label,
            orig_alias=list(orig_final.aliases),
            cf_alias=list(cf_final.aliases),
            question=self._question(path),
        )
        return item

    def _clean(self, item: dict[str, Any], path: HopPath, cf: HopPath) -> bool:
        finals = {*self.entity(path[-1][2]).forms(), *self.entity(cf[-1][2]).forms()}
        others = [
            normalize_answer(self.entity(e).label)
            for e in {path[0][0], *(t[2] for t in path[:-1]), *(t[2] for t in cf[:-1])}
        ]
        question = normalize_answer(item["question"])
        if any(f in question or any(f in o for o in others) for f in finals):
            return False
        cf_context, orig_context = normalize_answer(item["cf_context"]), normalize_answer(item["orig_context"])
        return not any(f in cf_context for f in self.entity(path[-1][2]).forms()) and not any(
            f in orig_context for f in self.entity(cf[-1][2]).forms()
        )


def _literally(replacement: str) -> Callable[[re.Match[str]], str]:
    """A ``re.sub`` replacement that inserts ``replacement`` as is (no group references, no escapes)."""
    return lambda _match: replacement


def replace_whole_words(text: str, replacements: Sequence[tuple[str, str]]) -> str:
    """``text`` with every whole-word occurrence of each ``old`` replaced by ``new``."""
    for old, new in replacements:
        text = re.sub(rf"(?<!\w){re.escape(old)}(?!\w)", _literally(new), text)
    return text


def generate_items(
    subset: Subset,
    n: int,
    seed: int = 0,
    *,
    min_hops: int = 2,
    max_hops: int = 4,
    background: int = 2,
    kb: KnowledgeBase | None = None,
) -> list[dict[str, Any]]:
    """``n`` ConFiQA-format items of ``subset`` (repr-string paths, as upstream), seeded."""
    config = GeneratorConfig(subset=subset, n=n, seed=seed, min_hops=min_hops, max_hops=max_hops, background=background)
    return Generator(config, kb).items()
