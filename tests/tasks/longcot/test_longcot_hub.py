"""The hub path: a datasets repository (here a local mirror laid out as one, with custom split
names declared in its README card as on the hub) gives the same questions as the JSON files."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from harness.adapters import resolve_adapter
from harness.registry import resolve_task
from harness.runner import evaluate
from tasks.longcot.data import DOMAINS, LongCotDataError, Question, load_questions
from tasks.longcot.data.hub import without_nulls

SPLITS = ("easy", "medium")
CARD = """---
configs:
- config_name: default
  data_files:
{files}
---
# LongCoT mirror for tests
"""


def _rows(longcot_dir: Path, split: str, per_domain: int) -> list[dict]:
    rows = []
    for domain in DOMAINS:
        path = longcot_dir / f"{domain}-{split}.json"
        if path.is_file():
            for raw in json.loads(path.read_text())["questions"][:per_domain]:
                rows.append({"domain": domain, **raw})
    return rows


def _mirror(tmp_path: Path, longcot_dir: Path, as_records: bool, per_domain: int = 6) -> Path:
    """A repository folder with data/<split>.<ext> files and a card naming the splits.

    ``as_records``: parquet with ``problem`` as a nested record (one schema for all splits, as a
    hub conversion makes) and no domain column; else JSON lines with ``problem`` as JSON text.
    Answers are JSON text in both, as an Arrow column of mixed types must be.
    """
    import datasets

    repo = tmp_path / ("records" if as_records else "strings")
    (repo / "data").mkdir(parents=True)
    rows = {split: _rows(longcot_dir, split, per_domain) for split in SPLITS}
    ext = "parquet" if as_records else "jsonl"
    if as_records:
        table = datasets.Dataset.from_list(
            [
                {**{k: v for k, v in row.items() if k != "domain"}, "answer": json.dumps(row["answer"])}
                for split in SPLITS
                for row in rows[split]
            ]
        )
        start = 0
        for split in SPLITS:
            table.select(range(start, start + len(rows[split]))).to_parquet(str(repo / "data" / f"{split}.{ext}"))
            start += len(rows[split])
    else:
        for split in SPLITS:
            lines = [
                json.dumps({**row, "problem": json.dumps(row["problem"]), "answer": json.dumps(row["answer"])})
                for row in rows[split]
            ]
            (repo / "data" / f"{split}.{ext}").write_text("\n".join(lines) + "\n", encoding="utf-8")
    files = "\n".join(f"  - split: {split}\n    path: data/{split}.{ext}" for split in SPLITS)
    (repo / "README.md").write_text(CARD.format(files=files), encoding="utf-8")
    return repo


def _key(question: Question) -> tuple:
    """What a question is, with null-valued problem keys left out (Arrow records cannot tell them
    from absent ones; the verifiers read both as absent)."""
    return (
        question.domain,
        question.split,
        question.question_id,
        question.template,
        question.prompt,
        json.dumps(without_nulls(question.problem), sort_keys=True),
        json.dumps(question.answer, sort_keys=True),
    )


@pytest.mark.parametrize("as_records", [False, True], ids=["json-strings+domain-column", "nested-records"])
def test_a_mirror_gives_the_files_questions(tmp_path: Path, longcot_dir: Path, as_records: bool) -> None:
    repo = _mirror(tmp_path, longcot_dir, as_records)
    from_hub = list(load_questions(f"hub:{repo}", DOMAINS, SPLITS))
    expected = []
    for domain in DOMAINS:
        for split in SPLITS:
            path = longcot_dir / f"{domain}-{split}.json"
            if path.is_file():
                expected += list(load_questions(str(longcot_dir), (domain,), (split,)))[:6]
    assert len(from_hub) == len(expected) > 40
    assert [_key(q) for q in from_hub] == [_key(q) for q in expected]


async def test_oracle_scores_one_on_the_mirror(tmp_path: Path, longcot_dir: Path) -> None:
    repo = _mirror(tmp_path, longcot_dir, as_records=False, per_domain=3)
    task = resolve_task("longcot/mini").create(data=f"hub:{repo}")
    results = await evaluate(task, resolve_adapter("builtin/oracle"), concurrency=4)
    assert len(results) == 15
    assert all(r.score is not None and r.score.value == 1.0 for r in results), [
        (r.sample_id, r.score) for r in results if r.score is None or r.score.value != 1.0
    ]


def test_hub_failures_say_what_to_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, longcot_dir: Path) -> None:
    monkeypatch.setenv("HF_DATASETS_OFFLINE", "1")
    with pytest.raises(LongCotDataError, match=r"offline.*-T data=PATH"):
        list(load_questions("hub:LongHorizonReasoning/longcot", DOMAINS, ("easy",)))
    repo = _mirror(tmp_path, longcot_dir, as_records=False, per_domain=1)
    with pytest.raises(LongCotDataError, match=r"'hard' split.*failed"):
        list(load_questions(f"hub:{repo}", DOMAINS, ("hard",)))
    broken = tmp_path / "broken"
    (broken / "data").mkdir(parents=True)
    (broken / "data" / "easy.jsonl").write_text(
        json.dumps({"question_id": 1, "prompt": "p", "problem": {"template": "unknown"}}) + "\n"
    )
    (broken / "README.md").write_text(CARD.format(files="  - split: easy\n    path: data/easy.jsonl"))
    with pytest.raises(LongCotDataError, match="row 0: no 'domain' column and template 'unknown'"):
        list(load_questions(f"hub:{broken}", DOMAINS, ("easy",)))
