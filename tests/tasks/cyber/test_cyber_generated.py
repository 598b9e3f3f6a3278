"""Generated tasks: seeded, exact ground truth, and descriptions that never contradict their vectors."""

from __future__ import annotations

import random

import pytest

from harness.registry import resolve_task
from harness.types import GenerateRequest, Output
from scorers.cvss_score import parse_cvss3
from tasks.cyber.cvss_phrases import METRIC_VALUES, PHRASES
from tasks.cyber.cwe_catalog import catalogue, cwe_name
from tasks.cyber.gen_cvss import make_item
from tasks.cyber.gen_cwe import TEMPLATES


def make(name: str, **args: object):
    return resolve_task(name).create(**args)


def test_phrase_banks_cover_every_value_five_times_without_overlap() -> None:
    for metric, values in METRIC_VALUES.items():
        assert set(PHRASES[metric]) == set(values)
        for value in values:
            assert len(set(PHRASES[metric][value])) >= 5, (metric, value)
        for value, phrases in PHRASES[metric].items():
            for other, other_phrases in PHRASES[metric].items():
                if other != value:
                    for phrase in phrases:
                        assert all(o not in phrase and phrase not in o for o in other_phrases), (metric, phrase)


def test_every_description_states_exactly_its_vector() -> None:
    rng = random.Random(7)
    for _ in range(500):
        description, vector, metrics, _ = make_item(rng)
        parsed = parse_cvss3(vector)
        assert parsed.metrics == metrics
        for metric, value in metrics.items():
            assert any(p in description for p in PHRASES[metric][value]), (metric, value, description)
            for other in METRIC_VALUES[metric]:
                if other != value:
                    assert not any(p in description for p in PHRASES[metric][other]), (metric, other, description)


def test_generated_cvss_task_is_seeded_and_oracle_exact() -> None:
    a = list(make("cyber-gen/cvss", n=30, seed=3).samples())
    b = list(make("cyber-gen/cvss", n=30, seed=3).samples())
    c = list(make("cyber-gen/cvss", n=30, seed=4).samples())
    assert a == b and [s.target for s in a] != [s.target for s in c]
    assert len({s.id for s in a}) == 30
    task = make("cyber-gen/cvss", n=30, seed=3)
    for sample in a:
        assert sample.metadata["description"] in sample.input
        assert "Ensure the final line of your response contains only the CVSS v3 Vector String" in sample.input
        reply = task.reference_output(sample, GenerateRequest(messages=sample.messages()))
        assert task.score(sample, Output(text=reply)).value == 1.0
        assert task.score(sample, Output(text="no idea")).outcome == "unscored"


def test_cwe_templates_cover_forty_catalogue_cwes() -> None:
    ids = [t.cwe for t in TEMPLATES]
    assert len(set(ids)) == len(ids) >= 40
    for template in TEMPLATES:
        assert template.cwe in catalogue(), template.cwe
        assert len(template.advisories) >= 3 and len(template.tickets) >= 2
    assert cwe_name(79) == "Improper Neutralization of Input During Web Page Generation ('Cross-site Scripting')"


@pytest.mark.parametrize("style", ["advisory", "ticket", "mixed"])
def test_generated_cwe_items_in_both_styles(style: str) -> None:
    task = make("cyber-gen/cwe", n=120, seed=1, style=style)
    samples = list(task.samples())
    assert samples == list(make("cyber-gen/cwe", n=120, seed=1, style=style).samples())
    styles = {s.metadata["style"] for s in samples}
    assert styles == ({"advisory", "ticket"} if style == "mixed" else {style})
    for sample in samples:
        text = sample.metadata["text"]
        assert "{component}" not in text and "{param}" not in text and "{product}" not in text
        if sample.metadata["style"] == "ticket":
            assert "Steps to reproduce:\n1. " in text and "Observed behaviour: " in text and text.startswith("Title: ")
        assert sample.input.rstrip().endswith(text.strip())
        assert sample.metadata["cwe_name"] == cwe_name(int(sample.target.split("-")[1]))
        assert task.score(sample, Output(text=f"Reasoning.\n{sample.target}")).value == 1.0
        assert task.score(sample, Output(text="Reasoning.\nCWE-99999")).value == 0.0


def test_generated_mcq_questions_are_consistent_with_the_catalogue() -> None:
    entries = catalogue()
    task = make("cyber-gen/mcq", n=300, seed=2)
    samples = list(task.samples())
    assert samples == list(make("cyber-gen/mcq", n=300, seed=2).samples())
    kinds = set()
    for sample in samples:
        meta = sample.metadata
        kinds.add(meta["kind"])
        options, ids = meta["options"], meta["option_ids"]
        assert len(set(options)) == 4 and len(set(ids)) == 4
        right = "ABCD".index(sample.target)
        assert ids[right] == meta["answer_id"]
        subject = entries[int(meta["subject"].split("-")[1])]
        if meta["kind"] == "parent":
            assert int(meta["answer_id"].split("-")[1]) in subject.parents
            assert all(int(i.split("-")[1]) not in subject.parents for j, i in enumerate(ids) if j != right)
        else:
            assert meta["answer_id"] == meta["subject"]
        expected = meta["answer_id"] if meta["kind"] == "name_to_id" else entries[int(meta["answer_id"][4:])].name
        assert options[right] == expected
        assert f"{sample.target}) {options[right]}" in sample.input
        assert task.score(sample, Output(text=sample.target)).value == 1.0
    assert kinds == {"description", "name_to_id", "id_to_name", "parent"}
