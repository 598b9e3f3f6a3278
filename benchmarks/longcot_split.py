"""Time ``split_top_level`` (LongCoT's list reader) on the nested hostile answer of issue 37 at n=5,000
and n=40,000, against the quadratic reading it replaced (kept here only as the reference).

The answer is ``[`` + ``{"a":`` x n + ``1`` + ``}`` x n + ``]``: every ``"`` made the old reader join
the whole buffer again. Ends with one JSON line: {"n": [...], "before_s": [...], "after_s": [...],
"before_over_after": [...], "after_growth": ...} (after_growth: after_s at 40,000 over at 5,000;
about 8 for a linear reader, about 64 for a quadratic one).
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tasks.longcot.verify.extract import split_top_level


def quadratic_split(text: str) -> list[str]:
    """The reader before issue 37: it joins the current buffer at every quote character."""
    inner = text.strip()[1:-1]
    parts: list[str] = []
    depth = 0
    quote: str | None = None
    current: list[str] = []
    for ch in inner:
        if quote:
            if ch == quote:
                quote = None
        elif ch in "\"'" and not "".join(current).strip():
            quote = ch
        elif ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0 and quote is None:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if current or parts:
        parts.append("".join(current).strip())
    return [p.strip().strip("'\"").strip() for p in parts]


def seconds(reader: Callable[[str], list[str]], text: str) -> float:
    """Wall time of one call of ``reader`` on ``text``."""
    started = time.perf_counter()
    reader(text)
    return time.perf_counter() - started


def main() -> None:
    """Time both readers at each size and print the JSON line."""
    sizes = [5_000, 40_000]
    before, after = [], []
    for n in sizes:
        text = "[" + '{"a":' * n + "1" + "}" * n + "]"
        assert quadratic_split(text) == split_top_level(text)
        before.append(round(seconds(quadratic_split, text), 4))
        after.append(round(seconds(split_top_level, text), 4))
        print(f"n={n}: before {before[-1]:.3f} s, after {after[-1]:.4f} s")
    ratios = [round(b / max(a, 1e-9), 1) for b, a in zip(before, after, strict=True)]
    growth = round(after[1] / max(after[0], 1e-9), 1)
    print(
        json.dumps(
            {"n": sizes, "before_s": before, "after_s": after, "before_over_after": ratios, "after_growth": growth}
        )
    )


if __name__ == "__main__":
    main()
