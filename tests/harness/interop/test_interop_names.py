"""Exporting to lm-eval imports neither inspect-ai nor the families it was not asked for (issue 20 item 6)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

from harness.interop.names import inspect_name, lm_eval_name

PROBE = textwrap.dedent(
    """
    import json, sys
    from harness.cli.main import main
    try:
        main(sys.argv[1:])
    except SystemExit as exc:
        code = exc.code
    else:
        code = 0
    families = sorted({m.split(".")[1] for m in sys.modules if m.startswith("tasks.") and m.count(".") >= 1})
    print(json.dumps({"code": code, "inspect_ai": "inspect_ai" in sys.modules, "families": families}))
    """
)


def _probe(*args: str) -> dict[str, object]:
    env = {**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"}
    done = subprocess.run(
        [sys.executable, "-c", PROBE, *args], capture_output=True, text=True, env=env, timeout=120, check=False
    )
    assert done.stdout.strip(), done.stderr
    result: dict[str, object] = json.loads(done.stdout.strip().splitlines()[-1])
    return result


def test_names_are_pure_functions() -> None:
    assert inspect_name("cyber/cti-rcm-2021") == "cyber_cti_rcm_2021"
    assert lm_eval_name("demo/arith") == "frontier_demo_arith"
    assert lm_eval_name("longcot-gen/cs") == "frontier_longcot_gen_cs"


def test_export_help_does_not_import_inspect_ai() -> None:
    result = _probe("export", "lm-eval", "--help")
    assert result == {"code": 0, "inspect_ai": False, "families": []}


def test_exporting_one_task_loads_only_its_family(tmp_path: Path) -> None:
    result = _probe("export", "lm-eval", str(tmp_path / "out"), "--task", "demo/arith", "--limit", "2")
    assert result["code"] in (0, None)
    assert result["inspect_ai"] is False
    assert result["families"] == ["demo"]
    config = (tmp_path / "out" / "frontier_demo_arith.yaml").read_text()
    assert "task: frontier_demo_arith" in config
    assert len((tmp_path / "out" / "frontier_demo_arith.jsonl").read_text().splitlines()) == 2
