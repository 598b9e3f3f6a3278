"""Threat actor extraction, normalisation and alias tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorers.threat_actor import AliasTable, extract_actor, normalise_name


@pytest.mark.parametrize("text, expected", [
    ("Threat actor: **APT36 (Transparent Tribe)**\nReasoning follows.", "APT36"),
    ("The threat actor is likely SideCopy, based on the shared infrastructure.", "SideCopy"),
    ("I attribute this incident to Dark Caracal.", "Dark Caracal"),
    ("Long analysis of the report.\n\nMUSTANG PANDA", "MUSTANG PANDA"),
    ("The group responsible is the Lazarus Group because of the tooling.", "Lazarus"),
])
def test_actor_is_extracted(text: str, expected: str) -> None:
    assert extract_actor(text) == expected


@pytest.mark.parametrize("text", ["", "   ", "I cannot determine who did this based on the information given here today."])
def test_no_actor_is_none(text: str) -> None:
    assert extract_actor(text) is None


def test_normalisation_and_aliases(tmp_path: Path) -> None:
    assert normalise_name("APT 36") == normalise_name("apt-36") == "apt36"
    table = AliasTable([["MUSTANG PANDA", "TA416", "RedDelta"], ["APT36", "Transparent Tribe"]])
    assert table.same_actor("Mustang Panda", "MUSTANG PANDA")
    assert table.same_actor("ta416", "MUSTANG PANDA")
    assert not table.same_actor("APT41", "MUSTANG PANDA")
    assert not table.same_actor("", "MUSTANG PANDA")
    assert AliasTable().same_actor("dark caracal", "Dark Caracal")
    assert AliasTable().same_actor("Lazarus", "Lazarus Group")
    assert AliasTable().same_actor("the Lazarus group", "Lazarus Group")
    path = tmp_path / "aliases.json"
    path.write_text(json.dumps({"SideCopy": ["Rattlesnake-Sub"]}))
    assert AliasTable.from_json(path).same_actor("rattlesnake sub", "SideCopy")


@pytest.mark.parametrize("content, message", [
    ("{not json", "not valid JSON"), ("42", "expected a JSON object or list"),
    ('{"a": "b"}', "entry 0 is not a list of strings"), ('[["a", 1]]', "entry 0"),
])
def test_bad_alias_files_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "aliases.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        AliasTable.from_json(path)
    with pytest.raises(ValueError, match="no such file"):
        AliasTable.from_json(tmp_path / "missing.json")
