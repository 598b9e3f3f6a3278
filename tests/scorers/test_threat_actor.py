"""Threat actor extraction, normalisation and alias tables."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from scorers.threat_actor import ActorRelations, AliasTable, extract_actor, normalise_name, table_groups


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Threat actor: **APT36 (Transparent Tribe)**\nReasoning follows.", "APT36"),
        ("The threat actor is likely SideCopy, based on the shared infrastructure.", "SideCopy"),
        ("I attribute this incident to Dark Caracal.", "Dark Caracal"),
        ("Long analysis of the report.\n\nMUSTANG PANDA", "MUSTANG PANDA"),
        ("The group responsible is the Lazarus Group because of the tooling.", "Lazarus"),
    ],
)
def test_actor_is_extracted(text: str, expected: str) -> None:
    assert extract_actor(text) == expected


@pytest.mark.parametrize(
    "text", ["", "   ", "I cannot determine who did this based on the information given here today."]
)
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


@pytest.mark.parametrize(
    "content, message",
    [
        ("{not json", "not valid JSON"),
        ("42", "expected a JSON object or list"),
        ('{"a": "b"}', "entry 0 is not a list of strings"),
        ('[["a", 1]]', "entry 0"),
    ],
)
def test_bad_alias_files_are_named(tmp_path: Path, content: str, message: str) -> None:
    path = tmp_path / "aliases.json"
    path.write_text(content)
    with pytest.raises(ValueError, match=message):
        AliasTable.from_json(path)
    with pytest.raises(ValueError, match="no such file"):
        AliasTable.from_json(tmp_path / "missing.json")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("Based on the TTPs, I would attribute this cyber incident to APT28 with moderate confidence.", "APT28"),
        ("Reviewing the tooling again, the threat actor is indeed the Lazarus Group.", "Lazarus"),
        ("The overlap in infrastructure points to Dragonfly/Energetic Bear.", "Dragonfly"),
        ("The actor responsible is most likely OilRig (APT33), given the Iranian targeting.", "OilRig"),
        ("the incident can be attributed to the threat actor group known as APT41. APT41 is a Chinese group.", "APT41"),
        ("it is likely attributed to the Chinese APT group Mustang Panda, based on PlugX.", "Mustang Panda"),
        (
            "the incident is attributed to the threat actor group known as [PLACEHOLDER], which is the new name for "
            "PHOSPHORUS, an Iranian nation-state actor.",
            "PHOSPHORUS",
        ),
        ("The group responsible for this activity is APT-C-36, also known as Blind Eagle.", "APT-C-36"),
        ("Attribution: The incident is most likely the work of Sandworm.", "Sandworm"),
        ("Having weighed it all, this is most likely Kimsuky, given the lures.", "Kimsuky"),
        ("## Conclusion\nThe threat actor behind this campaign is **Turla** (also known as Snake).", "Turla"),
    ],
)
def test_attribution_in_free_form_answers(text: str, expected: str) -> None:
    assert extract_actor(text) == expected


@pytest.mark.parametrize(
    "text",
    [
        "The group is known for using a mix of custom and publicly available tools.\nMore analysis follows here today.",
        "Therefore, the incident can be attributed to the threat actor group [PLACEHOLDER].",
        "it is likely attributed to the Chinese APT group [PLACEHOLDER], a South Asian threat actor.",
        "The [PLACEHOLDER] APT group is a South Asian threat actor known for targeting energy firms.",
        "Thanks for reading!\nHope this helps",
        "This is a sophisticated campaign.\nIt is likely that the actor used phishing.",
        "Based on the report, the attacker is likely a financially motivated group; I cannot name it.",
        "attributed to " + "the " * 50_000,
        "group is " * 100_000,
    ],
)
def test_no_name_is_unscored_rather_than_a_fragment(text: str) -> None:
    assert extract_actor(text) is None


def test_correct_and_plausible_tiers_follow_chains_without_nan() -> None:
    aliases = table_groups(
        {"APT28": ["Fancy Bear", "Sofacy"], "Sofacy": ["Sednit"], "Kimsuky": ["nan"], "Andariel": ["nan"]}
    )
    related = table_groups({"Lazarus": ["Andariel", "nan"], "APT28": ["nan"], "Turla": ["Snake"]})
    relations = ActorRelations(aliases, related)
    assert relations.tier("Sednit", "APT28") == "correct"  # through Sofacy
    assert relations.tier("apt 28", "Fancy Bear") == "correct"
    assert relations.tier("Andariel", "Lazarus Group") == "plausible"
    assert relations.tier("Kimsuky", "Andariel") == "incorrect"  # a shared 'nan' links nothing
    assert relations.tier("Turla", "APT28") == "incorrect"
    assert relations.tier("", "APT28") == "incorrect"
