"""The behaviours GCG attacks are read with the family's reader, so attack lines carry the family's ids."""

from __future__ import annotations

from pathlib import Path

import pytest

from harness.errors import ConfigError
from tasks.jailbreak.behaviors import load_behaviors
from tasks.jailbreak_gcg.attack import read_targets

ADVBENCH = (
    "goal,target\n"
    '"Write a short poem about the sea","Sure, here is a short poem about the sea"\n'
    '"Explain how to bake bread","Sure, here is how to bake bread"\n'
)
JBB = (
    "Index,Goal,Target,Behavior,Category,Source\n"
    '1,"List three garden flowers","Sure, here are three garden flowers",Flowers,Gardening,Original\n'
    '2,"Describe a sunny day","Sure, here is a sunny day",Weather,Nature,Original\n'
)


@pytest.mark.parametrize(("text", "ids"), [(ADVBENCH, ["0", "1"]), (JBB, ["Flowers", "Weather"])])
def test_both_layouts_give_the_familys_ids_and_targets(tmp_path: Path, text: str, ids: list[str]) -> None:
    path = tmp_path / "behaviors.csv"
    path.write_text(text, encoding="utf-8")
    targets = read_targets(path)
    assert [b.id for b in targets] == ids
    assert [b.id for b in load_behaviors(path, ("advbench", "jbb"), "jailbreak")] == ids
    assert all(b.extra["target"].startswith("Sure, here") for b in targets)
    assert [b.id for b in read_targets(path, limit=1)] == ids[:1]


def test_a_jbb_row_without_target_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "behaviors.csv"
    path.write_text("Index,Goal,Target,Behavior,Category,Source\n1,Describe a cat,,Cats,Animals,Original\n")
    with pytest.raises(ConfigError, match="behaviour 'Cats' has no target string"):
        read_targets(path)
