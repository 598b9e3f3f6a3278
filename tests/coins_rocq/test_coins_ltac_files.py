"""The ladder's Ltac lives in ``coins_rocq/ltac/*.v``: ``coqc`` checks every file after the prelude."""

from __future__ import annotations

import subprocess
from importlib import resources
from pathlib import Path

import pytest

from coins_rocq.ltac import ltac_sentences
from coins_rocq.obligations import prelude
from coins_rocq.rtypes import parse_signature

FILES = sorted(p.name[: -len(".v")] for p in resources.files("coins_rocq.ltac").iterdir() if p.name.endswith(".v"))


@pytest.mark.slow
@pytest.mark.parametrize("signature", ["f (x : Z) : Z", "f (x : R) : R"])
def test_coqc_checks_the_prelude_with_every_ltac_file(tmp_path: Path, signature: str) -> None:
    sentences = prelude(parse_signature(signature))
    (tmp_path / "Prelude.v").write_text("\n".join(sentences) + "\n", encoding="utf-8")
    done = subprocess.run(["coqc", "-q", "Prelude.v"], cwd=tmp_path, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]


def test_every_ltac_file_is_sent_and_each_sentence_once() -> None:
    assert {"helpers", "search", "real", "no_real", "lra", "no_lra"} <= set(FILES)
    preludes = {"R": prelude(parse_signature("f (x : R) : R")), "Z": prelude(parse_signature("f (x : Z) : Z"))}
    for name in FILES:
        own = ltac_sentences(name)
        assert own, name
        expected = {"real": {"R"}, "lra": {"R"}, "no_real": {"Z"}, "no_lra": {"Z"}}.get(name, {"R", "Z"})
        for kind, sentences in preludes.items():
            for sentence in own:
                assert sentences.count(sentence) == (kind in expected), (name, kind, sentence[:60])
