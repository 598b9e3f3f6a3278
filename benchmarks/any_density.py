"""Uses of ``typing.Any`` per thousand lines of ``harness/`` and ``tasks/``: a git revision against the working tree.

Counts the name ``Any`` as a token (not in strings or comments) in every ``.py`` file, and the files' lines;
the revision's files are read with ``git show``, so nothing in the working tree changes. Ends with one line of
JSON: ``{"before": {...}, "after": {...}, "ratio"}``, each side per package and in all with ``any``, ``lines``
and ``per_kloc``.

Run: ``python benchmarks/any_density.py [--before REV]`` (default ``HEAD``).
"""

from __future__ import annotations

import argparse
import io
import json
import subprocess
import tokenize
from collections.abc import Callable, Iterable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("harness", "tasks")


def any_tokens(source: str) -> int:
    """How many times the name ``Any`` is a token of ``source`` (0 for a file tokenize cannot read)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        return 0
    return sum(1 for token in tokens if token.type == tokenize.NAME and token.string == "Any")


def density(paths: Iterable[str], read: Callable[[str], str]) -> dict[str, float]:
    """``Any`` tokens, lines and tokens per thousand lines over the files ``paths`` (read by ``read``)."""
    uses = lines = 0
    for path in paths:
        source = read(path)
        uses += any_tokens(source)
        lines += source.count("\n")
    return {"any": uses, "lines": lines, "per_kloc": round(1000 * uses / lines, 2) if lines else 0.0}


def side(files: list[str], read: Callable[[str], str]) -> dict[str, dict[str, float]]:
    """The density per package and over all of them."""
    figures = {package: density([f for f in files if f.startswith(f"{package}/")], read) for package in PACKAGES}
    figures["all"] = density(files, read)
    return figures


def git(*args: str) -> str:
    """The output of ``git args`` run in the repository."""
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def main() -> None:
    """Measure both sides and print them."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--before", default="HEAD", help="the git revision to compare the working tree with")
    args = parser.parse_args()
    before_files = [f for f in git("ls-tree", "-r", "--name-only", args.before, *PACKAGES).split() if f.endswith(".py")]
    after_files = sorted(str(p.relative_to(ROOT)) for package in PACKAGES for p in (ROOT / package).rglob("*.py"))
    before = side(before_files, lambda path: git("show", f"{args.before}:{path}"))
    after = side(after_files, lambda path: (ROOT / path).read_text(encoding="utf-8"))
    for name, figures in (("before " + args.before, before), ("after (working tree)", after)):
        shown = (f"{k} {v['per_kloc']} Any/kLOC ({v['any']}/{v['lines']})" for k, v in figures.items())
        print(f"{name}: " + ", ".join(shown))
    ratio = round(after["all"]["per_kloc"] / before["all"]["per_kloc"], 3) if before["all"]["per_kloc"] else None
    print(json.dumps({"before": before, "after": after, "ratio": ratio}))


if __name__ == "__main__":
    main()
