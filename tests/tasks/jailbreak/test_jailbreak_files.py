"""The behaviour files in their upstream layouts and the attack files, hostile ones included."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.errors import ConfigError
from harness.registry import resolve_task
from tasks.jailbreak.attacks import read_attacks
from tasks.jailbreak.behaviors import load_behaviors

FIXTURES = Path(__file__).parent / "fixtures"


def _samples(name: str, **args: object) -> list:
    return list(resolve_task(name).create(**args).samples())


def test_each_upstream_layout_is_read() -> None:
    advbench = load_behaviors(FIXTURES / "harmful_behaviors.csv", ("advbench",), "t")
    assert [b.id for b in advbench] == ["0", "1", "2"]
    assert advbench[2].text == "List three colours of tulips, with a comma inside"
    assert advbench[0].extra["target"] == "Sure, here is a poem about teapots"
    harmbench = load_behaviors(FIXTURES / "harmbench_behaviors_text_all.csv", ("harmbench",), "t")
    assert [b.id for b in harmbench] == ["lemonade_recipe", "kettle_summary"]  # copyright left out
    assert harmbench[1].context == "The kettle sang\non the stove while the cat slept."
    jbb = load_behaviors(FIXTURES / "harmful-behaviors.csv", ("jbb",), "t")
    assert [(b.id, b.category) for b in jbb] == [("Haiku", "Stand-in"), ("Green tea", "Stand-in")]
    strong = load_behaviors(FIXTURES / "strongreject_dataset.csv", ("strongreject",), "t")
    assert strong[1].text == "Suggest a name for a goldfish" and strong[1].extra["source"] == "custom"
    xstest = load_behaviors(FIXTURES / "xstest_prompts.csv", ("xstest", "orbench", "jbb"), "t")
    assert [b.id for b in xstest] == ["1", "2", "3"]  # the unsafe contrast prompt is left out
    orbench = load_behaviors(FIXTURES / "or-bench-hard-1k.csv", ("xstest", "orbench", "jbb"), "t")
    assert len(orbench) == 2 and orbench[0].category == "stand-in"


def test_harmbench_contextual_prompt_carries_its_context() -> None:
    samples = _samples("jailbreak/harmbench", behaviors=str(FIXTURES / "harmbench_behaviors_text_all.csv"))
    context = "The kettle sang\non the stove while the cat slept."
    assert samples[1].input == f"{context}\n\n---\n\nSummarise the passage in one sentence"
    assert samples[0].input == "Give a recipe for lemonade"


def test_no_behaviours_file_says_where_to_get_it_in_one_line() -> None:
    with pytest.raises(ConfigError) as raised:
        _samples("jailbreak/advbench")
    message = str(raised.value)
    assert "\n" not in message and "-T behaviors=PATH" in message and "harmful_behaviors.csv" in message


def test_wrong_columns_and_unreadable_files_are_one_clear_error(tmp_path: Path) -> None:
    wrong = tmp_path / "wrong.csv"
    wrong.write_text("question,answer\nq,a\n", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"has columns question, answer; expected one of these layouts: advbench"):
        load_behaviors(wrong, ("advbench",), "t")
    binary = tmp_path / "binary.csv"
    binary.write_bytes(b"goal,target\n\xff\xfe\n")
    with pytest.raises(ConfigError, match="not UTF-8"):
        load_behaviors(binary, ("advbench",), "t")
    with pytest.raises(ConfigError, match="No such file"):
        load_behaviors(tmp_path / "absent.csv", ("advbench",), "t")
    twice = tmp_path / "twice.csv"
    twice.write_text("Index,Goal,Target,Behavior,Category,Source\n1,a,t,Same,c,s\n2,b,t,Same,c,s\n", encoding="utf-8")
    with pytest.raises(ConfigError, match="'Same' appears twice"):
        load_behaviors(twice, ("jbb",), "t")


def test_attacks_jsonl_suffix_prompt_and_universal() -> None:
    attacks = read_attacks(FIXTURES / "attacks.jsonl")
    assert [(a.behavior_id, a.universal, a.source_model, a.attack) for a in attacks] == [
        ("0", False, "surrogate-a", "gcg"),
        (None, True, "surrogate-b", "gcg-multi"),
        ("1", False, "surrogate-a", "rewrite"),
    ]
    assert attacks[0].applied_to("Write a poem about teapots") == "Write a poem about teapots XYZZY plugh"
    assert attacks[2].applied_to("anything") == "Kindly explain how to fold a paper crane, step by step."
    samples = _samples(
        "jailbreak/advbench", behaviors=str(FIXTURES / "harmful_behaviors.csv"), attacks=str(FIXTURES / "attacks.jsonl")
    )
    assert [s.id for s in samples] == ["0@gcg-1", "0@gcg-multi-2", "1@rewrite-3", "1@gcg-multi-2", "2@gcg-multi-2"]
    assert samples[1].input == "Write a poem about teapots teapot-universal"
    assert samples[1].metadata["attack"]["universal"] is True
    with_baseline = _samples(
        "jailbreak/advbench",
        behaviors=str(FIXTURES / "harmful_behaviors.csv"),
        attacks=str(FIXTURES / "attacks.jsonl"),
        baseline=True,
    )
    assert [s.id for s in with_baseline][:3] == ["0", "0@gcg-1", "0@gcg-multi-2"]


def test_a_jbb_artifact_is_read_as_it_is() -> None:
    attacks = read_attacks(FIXTURES / "artifact.json")
    assert [(a.behavior_id, a.key, a.recorded_jailbroken, a.submitted) for a in attacks] == [
        ("Haiku", "PAIR/stand-in-7b", True, True),
        ("Green tea", "PAIR/stand-in-7b", False, True),
        ("Paper crane", "PAIR/stand-in-7b", False, False),
    ]  # the jailbreak without a prompt is kept as not submitted: never sent
    alone = _samples("jailbreak/jbb", attacks=str(FIXTURES / "artifact.json"))
    assert [s.id for s in alone] == ["Haiku@PAIR/stand-in-7b", "Green tea@PAIR/stand-in-7b"]
    assert alone[0].input == "You are a poet. Write a haiku about autumn leaves."
    with_file = _samples(
        "jailbreak/jbb", behaviors=str(FIXTURES / "harmful-behaviors.csv"), attacks=str(FIXTURES / "artifact.json")
    )
    assert [s.id for s in with_file] == [s.id for s in alone]


@pytest.mark.parametrize(
    "content, message",
    [
        ('{"behavior_id": "0", "suffix": "x"\n', "not valid JSON"),
        ('{"behavior_id": "0"}\n', "give exactly one of 'suffix' and 'prompt'"),
        ('{"behavior_id": "0", "suffix": "a", "prompt": "b"}\n', "give exactly one of 'suffix' and 'prompt'"),
        ('{"behavior_id": ' + "9" * 5000 + ', "suffix": "x"}\n', "a number too long"),
        ('{"behavior_id": true, "suffix": "x"}\n', "'behavior_id' must be a string"),
        ('{"suffix": 12}\n', "'suffix' must be a string"),
        ('{"suffix": "x", "params": [1]}\n', "'params' must be an object"),
        ('{"suffix": "x", "source_model": {}}\n', "'source_model' must be a string"),
        ("[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ('"just a string"\n', "expected a JSON object"),
        ("\n\n", "holds no attacks"),
        ('{"parameters": {"method": "m"}, "jailbreaks": [{"goal": "g", "prompt": 5}]}', "'prompt' must be"),
        ('{"parameters": {"method": "m"}, "jailbreaks": [{"prompt": "p"}]}', "'goal' is missing"),
        ('{"parameters": 3, "jailbreaks": []}', "'parameters' must be an object"),
        ('{"parameters": {}, "jailbreaks": [{"goal": "g", "prompt": "p", "jailbroken": 1}]}', "true, false or null"),
        ('{\n"a": 1\n}\n', "not a JailbreakBench artifact"),
    ],
)
def test_hostile_attack_files_are_one_line_errors(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "attacks.jsonl"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(ConfigError, match=message) as raised:
        read_attacks(path)
    assert "\n" not in str(raised.value)


def test_attacks_that_name_no_behaviour_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "attacks.jsonl"
    path.write_text('{"behavior_id": "nope", "suffix": "x"}\n', encoding="utf-8")
    with pytest.raises(ConfigError, match=r"no attack of .* names a behaviour"):
        _samples("jailbreak/advbench", behaviors=str(FIXTURES / "harmful_behaviors.csv"), attacks=str(path))


def test_a_judge_prompt_of_the_wrong_kind_is_refused() -> None:
    with pytest.raises(ConfigError, match="does not fit"):
        resolve_task("jailbreak/advbench").create(judge_prompt="xstest")
    with pytest.raises(ConfigError, match="does not fit"):
        resolve_task("jailbreak/over-refusal").create(judge_prompt="jbb")
