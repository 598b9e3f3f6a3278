"""The authored knowledge base and the seeded generator of ConFiQA-format items."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from scorers.squad_normalize import normalize_answer
from tasks.confiqa.generate import generate_items, replace_whole_words
from tasks.confiqa.kb import KB_DIR, KnowledgeBaseError, default_knowledge_base, load_knowledge_base
from tasks.confiqa.loader import parse_items
from tasks.confiqa.records import parse_path


def test_knowledge_base_size_types_and_aliases() -> None:
    kb = default_knowledge_base()
    assert len(kb.facts) >= 400 and len({r for _, r in kb.facts}) >= 20
    assert len({e.type for e in kb.entities.values()}) >= 15
    assert sum(1 for e in kb.entities.values() if e.aliases) >= 100
    reykjavik = kb.entities["kb:city:reykjavik"]
    assert reykjavik.type == "city" and "Reykjavik" in reykjavik.aliases


@pytest.mark.parametrize(
    ("subject", "relation", "obj"),
    [
        ("kb:country:france", "capital", "kb:city:paris"),
        ("kb:country:japan", "currency", "kb:currency:japanese_yen"),
        ("kb:book:one_hundred_years_of_solitude", "author", "kb:person:gabriel_garcia_marquez"),
        ("kb:element:francium", "discoverer", "kb:person:marguerite_perey"),
        ("kb:river:danube", "mouth", "kb:body_of_water:black_sea"),
        ("kb:company:lego", "headquarters", "kb:city:billund"),
        ("kb:software:python", "designer", "kb:person:guido_van_rossum"),
    ],
)
def test_spot_checked_facts(subject: str, relation: str, obj: str) -> None:
    assert default_knowledge_base().facts[(subject, relation)] == obj


def _broken_kb(tmp_path: Path, file: str, old: str, new: str) -> Path:
    target = tmp_path / "kb"
    shutil.copytree(KB_DIR, target)
    text = (target / file).read_text(encoding="utf-8")
    assert old in text
    (target / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return target


@pytest.mark.parametrize(
    ("file", "old", "new", "message"),
    [
        ("facts.yaml", "  France: Paris\n", "  France: Atlantis\n", "'France' -> 'Atlantis': not a declared entity"),
        ("facts.yaml", "  France: Paris\n", "  France: Euro\n", "do not fit"),
        ("entities.yaml", "  Rome: [Roma]", "  Rome: [Ro]", "shorter than 4"),
        ("entities.yaml", "  Kyiv: [Kiev]", "  Kyiv: [Kiev, Wien]", "also names 'Vienna'"),
        ("relations.yaml", 'statements: ["The capital of {s} is {o}."', 'statements: ["The capital is {o}."', "{s}"),
    ],
)
def test_knowledge_base_errors_name_the_entry(tmp_path: Path, file: str, old: str, new: str, message: str) -> None:
    with pytest.raises(KnowledgeBaseError, match=message.replace("{", r"\{").replace("}", r"\}")):
        load_knowledge_base(_broken_kb(tmp_path, file, old, new))


@pytest.mark.parametrize("subset", ["qa", "mr", "mc"])
def test_generated_items_are_deterministic_and_load_cleanly(subset: str) -> None:
    items = generate_items(subset, 120, seed=7)
    assert len(items) == 120
    assert generate_items(subset, 120, seed=7) == items
    assert generate_items(subset, 120, seed=8) != items
    result = parse_items(items, f"gen-{subset}")
    assert result.problems == [] and len(result.items) == 120


def _check_contexts(item: dict) -> None:
    orig_ctx, cf_ctx = normalize_answer(item["orig_context"]), normalize_answer(item["cf_context"])
    assert normalize_answer(item["cf_answer"]) in cf_ctx and normalize_answer(item["orig_answer"]) in orig_ctx
    assert normalize_answer(item["orig_answer"]) not in cf_ctx
    assert normalize_answer(item["orig_answer"]) not in normalize_answer(item["question"])


def test_qa_items_change_one_object_to_the_same_type() -> None:
    kb = default_knowledge_base()
    for item in generate_items("qa", 150, seed=1):
        (orig,), (cf,) = parse_path(item["orig_path"], "o"), parse_path(item["cf_path"], "c")
        assert orig[:2] == cf[:2] and orig[2] != cf[2]
        assert kb.entities[orig[2]].type == kb.entities[cf[2]].type
        assert item["orig_triple"] == repr(orig) and item["cf_context_piece"] in item["cf_context"]
        _check_contexts(item)


def _is_fact(triple: tuple[str, str, str]) -> bool:
    kb = default_knowledge_base()
    relation = next(
        k for k, r in kb.relations.items() if r.pid == triple[1] and kb.entities[triple[0]].type in r.subjects
    )
    return kb.facts.get((triple[0], relation)) == triple[2]


def test_mr_items_change_exactly_one_hop_and_follow_real_facts_after_it() -> None:
    hop_counts = set()
    for item in generate_items("mr", 150, seed=2):
        orig, cf = parse_path(item["orig_path"], "o"), parse_path(item["cf_path"], "c")
        hop_counts.add(len(orig))
        assert 2 <= len(orig) == len(cf) <= 4
        false_hops = [i for i, t in enumerate(cf) if not _is_fact(t)]
        assert len(false_hops) == 1 and all(_is_fact(t) for t in orig)
        changed = false_hops[0]
        assert orig[:changed] == cf[:changed] and item["cf_triple"] == repr(cf[changed])
        assert cf[-1][2] != orig[-1][2]
        _check_contexts(item)
    assert hop_counts == {2, 3, 4}


def test_mc_items_change_every_hop() -> None:
    for item in generate_items("mc", 150, seed=3):
        orig, cf = parse_path(item["orig_path"], "o"), parse_path(item["cf_path"], "c")
        assert all(not _is_fact(t) for t in cf) and all(o[2] != c[2] for o, c in zip(orig, cf, strict=True))
        assert "orig_triple" not in item and "orig" in item
        _check_contexts(item)


def test_whole_word_replacement_leaves_partial_words() -> None:
    text = "Balfe and Lorne Balfe's score; Lorne Balfes"
    assert (
        replace_whole_words(text, [("Lorne Balfe", "Petri Alanko")]) == "Balfe and Petri Alanko's score; Lorne Balfes"
    )
