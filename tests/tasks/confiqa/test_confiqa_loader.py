"""Loading ConFiQA files: the real sample item, repr fields, malformed items, sources."""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import pytest

from harness.errors import ConfigError
from harness.types import GenerateRequest, Output
from tasks.confiqa.loader import load_subset, parse_items
from tasks.confiqa.records import ItemError, parse_item, parse_path
from tasks.confiqa.task import ConFiQAFileTask


def _item(**overrides: Any) -> dict[str, Any]:
    base = {
        "orig_path": "[('Q1', 'P86', 'Q2')]",
        "cf_path": "[('Q1', 'P86', 'Q3')]",
        "orig_triple": "('Q1', 'P86', 'Q2')",
        "cf_triple": "('Q1', 'P86', 'Q3')",
        "orig_answer": "Lorne Balfe",
        "cf_answer": "Petri Alanko",
        "orig_alias": ["Lorne David Roderick Balfe"],
        "cf_alias": [],
        "question": "Who is the composer of Bad Boys for Life?",
        "orig_context": "It was composed by Lorne Balfe.",
        "cf_context": "It was composed by Petri Alanko.",
    }
    base.update(overrides)
    return base


def test_real_sample_item_loads_and_scores(shared_data: Path) -> None:
    path = shared_data / "confiqa" / "ConFiQA-QA.sample.json"
    result = load_subset(str(path), "qa")
    assert result.problems == [] and len(result.items) == 1
    item = result.items[0][1]
    assert item.orig_path_labeled == (("Bad Boys for Life", "composer", "Lorne Balfe"),)
    assert item.cf_triple == ("Q29021224", "P86", "Q5407635") and item.hops == 1
    task = ConFiQAFileTask("confiqa/qa", data=str(path))
    sample = next(iter(task.samples()))
    assert sample.id == "confiqa-qa-0" and sample.input.endswith("\nQ: Who is the composer of Bad Boys for Life?\nA: ")
    assert "Petri Alanko" in sample.input and "composed by Lorne Balfe" not in sample.input
    right = task.score(sample, Output(text=task.reference_output(sample, GenerateRequest(messages=sample.messages()))))
    assert right.correct and right.details["em"]
    assert not task.score(sample, Output(text="Lorne Balfe")).correct


def test_malformed_items_are_reported_with_index_and_skipped(caplog: pytest.LogCaptureFixture) -> None:
    raw = [
        _item(),
        _item(orig_path="[('Q1', 'P86')]"),
        _item(cf_path="__import__('os').system('touch /tmp/confiqa_pwned')"),
        "not an object",
        _item(question=""),
        _item(cf_answer="lorne balfe"),
        _item(orig_alias="not a list"),
        _item(cf_triple="(" * 5000),
        _item(orig=None, orig_triple=None, cf_triple=None),
    ]
    with caplog.at_level(logging.WARNING, logger="tasks.confiqa"):
        result = parse_items(raw, "test.json")
    # the authors score every item whose question, contexts, answers and aliases read (issue 37 item 9):
    # unreadable path or triple fields and an unchanged answer are noted, not skipped
    items = dict(result.items)
    assert list(items) == [0, 1, 2, 5, 7, 8]
    assert "orig_path[0]" in items[1].ignored[0] and items[1].orig_path is None and items[1].cf_path is not None
    assert "cf_path" in items[2].ignored[0] and "no knowledge conflict" in items[5].ignored[0]
    assert items[7].cf_triple is None and items[0].ignored == ()
    reasons = {p.index: p.reason for p in result.problems}
    assert set(reasons) == {3, 4, 6}
    assert "question" in reasons[4] and "orig_alias" in reasons[6]
    assert not Path("/tmp/confiqa_pwned").exists()
    assert "item 2 kept and scored; cf_path" in caplog.text and "skipped item 3" in caplog.text


def test_mc_items_keep_orig_and_may_lack_triples() -> None:
    item = parse_item(
        _item(
            orig={"note": "any shape"},
            orig_triple=None,
            cf_triple=None,
            orig_path="[('Q1','P1','Q2'), ('Q2','P2','Q4')]",
        )
    )
    assert item.orig == {"note": "any shape"} and item.orig_triple is None and item.hops == 2


def test_repr_parsing_rejects_non_literals_and_wrong_shapes() -> None:
    for bad in ("[]", "[('a', 'b', 3)]", "open('x')", "[('a','b','c')", "{'a': 1}"):
        with pytest.raises(ItemError):
            parse_path(bad, "orig_path")
    assert parse_path([["a", "b", "c"]], "p") == (("a", "b", "c"),)


def test_file_and_folder_sources(tmp_path: Path) -> None:
    (tmp_path / "ConFiQA-MR.json").write_text(json.dumps([_item()]), encoding="utf-8")
    assert len(load_subset(str(tmp_path), "mr").items) == 1
    with pytest.raises(ConfigError, match=r"ConFiQA-QA\.json"):
        load_subset(str(tmp_path), "qa")
    bad = tmp_path / "bad.json"
    bad.write_text("{not json", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"bad\.json: not valid JSON"):
        load_subset(str(bad), "qa")
    bad.write_text(json.dumps({"items": []}), encoding="utf-8")
    with pytest.raises(ConfigError, match="expected a JSON list"):
        load_subset(str(bad), "qa")
    bad.write_text(json.dumps([{"question": 1}]), encoding="utf-8")
    with pytest.raises(ConfigError, match="all 1 items are malformed"):
        load_subset(str(bad), "qa")
    with pytest.raises(ConfigError, match="not found"):
        load_subset(str(tmp_path / "missing.json"), "qa")


def test_hub_id_offline_without_cache_gives_a_clear_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    monkeypatch.setenv("HF_HUB_CACHE", str(tmp_path / "empty-cache"))
    task = ConFiQAFileTask("confiqa/mc")
    with pytest.raises(ConfigError, match=r"cannot be fetched: the hub is offline.*-T data=.*confiqa-gen/mc"):
        list(task.samples())
