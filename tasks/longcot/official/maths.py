"""Math templates decided as LongCoT's verifier decides them (``src/_verify/_math.py``, Gemini
fallback off): the first balanced list after ``solution =`` (else the last list in the response),
split on top-level commas, compared component by component; equal after upstream's
normalisation, else equivalent under sympy.

Deviations from upstream (upstream bugs, README "LongCoT official verifier"): sympy runs in
the bounded worker of :mod:`scorers.sympy_equiv` (upstream's unbounded ``simplify`` hangs on
``10^10^10``), whose LaTeX reader handles ``\\sqrt{}`` inside ``\\frac`` (upstream's regex does
not); a component upstream calls textual (a word, an inequality) is compared as normalised text
instead of being rejected before comparison.
"""

from __future__ import annotations

import re
import time

from scorers.sympy_equiv import compare
from tasks.longcot.data import Question
from tasks.longcot.official.parsing import extract_solution, first_balanced_brackets, last_balanced_brackets
from tasks.longcot.verdict import Verdict

ANSWER_BUDGET_S = 10.0
COMPONENT_LIMIT_S = 4.0
MAX_COMPONENTS = 64
MATH_WORDS = frozenset({"sqrt", "cbrt", "log", "ln", "sin", "cos", "tan", "arctan", "abs", "pi", "e", "frac", "binom"})
TEXTUAL_HINTS = (
    "all polynomials",
    "integers with",
    "starting with",
    "less than",
    "greater than",
    "hours",
    "minutes",
    "p.m.",
    "a.m.",
    "odd integers",
    "even integers",
    "if ",
    "otherwise",
    "such that",
    "for some",
)
REPLACEMENTS = (
    ("$", ""),
    ("\\left", ""),
    ("\\right", ""),
    ("\\cdot", "*"),
    ("\\times", "*"),
    ("−", "-"),
    ("–", "-"),
    ("—", "-"),
    ("≤", "<="),
    ("≥", ">="),
    ("≠", "!="),
    ("\\leq", "<="),
    ("\\geq", ">="),
    ("\\le", "<="),
    ("\\ge", ">="),
    ("\\pi", "pi"),
    ("π", "pi"),
    ("cuberoot", "cbrt"),
)


def _balanced(text: str) -> bool:
    stack: list[str] = []
    for ch in text:
        if ch in "([{":
            stack.append({"(": ")", "[": "]", "{": "}"}[ch])
        elif ch in ")]}" and (not stack or stack.pop() != ch):
            return False
    return not stack


def split_components(text: str) -> list[str]:
    """Top-level comma parts, an outer ``[...]``/``(...)`` removed when its inside is balanced
    (``_math._split_top_level_csv``)."""
    text = text.strip()
    if len(text) >= 2 and (text[0], text[-1]) in (("[", "]"), ("(", ")")) and _balanced(text[1:-1].strip()):
        text = text[1:-1].strip()
    parts: list[str] = []
    current: list[str] = []
    depth = 0
    for ch in text:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        if ch == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(ch)
    if current:
        parts.append("".join(current).strip())
    return parts


def gold_components(answer: object) -> list[str]:
    """The stored answer as components (``_math._answer_components``)."""
    if isinstance(answer, list):
        return [str(item).strip() for item in answer]
    return split_components(str(answer)) if isinstance(answer, str) else [str(answer).strip()]


def normalise(component: str) -> str:
    """Upstream's textual normalisation of one component (``_math._normalize_component``), without
    its regex rewrites of ``\\frac`` and roots (the sympy reader does those)."""
    s = component.strip().strip("'").strip('"')
    for old, new in REPLACEMENTS:
        s = s.replace(old, new)
    s = re.sub(r"\s+", " ", s).strip()
    return s[:-1].strip() if s.endswith(".") else s


def is_textual(component: str) -> bool:
    """Words, inequalities or ``;`` (``_math._component_is_textual``)."""
    lower = component.lower()
    if any(hint in lower for hint in TEXTUAL_HINTS) or ";" in component or re.search(r"<=|>=|<|>", component):
        return True
    return any(len(word) > 1 and word not in MATH_WORDS for word in re.findall(r"[A-Za-z]+", lower))


def predicted_components(response: str) -> list[str] | None:
    """The first balanced list after ``solution =``, else the last list anywhere
    (``_math._extract_predicted_math_components``)."""
    payload = extract_solution(response)
    span = first_balanced_brackets(payload) if payload is not None else last_balanced_brackets(response)
    return split_components(span) if span is not None else None


def component_status(expected: str, predicted: str, timeout_s: float) -> str:
    """``match``, ``mismatch`` or ``unresolved`` for one component (``_math._compare_component``):
    numbers compare exactly, as upstream's ``simplify(a - b) == 0`` does (no rounding to the
    reference's decimals, which the strict reading allows)."""
    e, p = normalise(expected), normalise(predicted)
    if e == p or re.sub(r"\s+", "", e) == re.sub(r"\s+", "", p):
        return "match"
    if is_textual(e) or is_textual(p):
        return "unresolved"
    return compare(expected, predicted, timeout_s=timeout_s, round_to_expected=False)


def verify_math_official(question: Question, response: str, budget_s: float = ANSWER_BUDGET_S) -> Verdict:
    """Correct when every component matches; the first mismatch makes it wrong, an undecided one unresolved."""
    if question.answer is None:
        raise ValueError(f"{question.uid}: a math question needs an answer")
    expected = gold_components(question.answer)
    predicted = predicted_components(response)
    if predicted is None:
        return Verdict.unparsed("no [...] answer list in the answer")
    if len(predicted) != len(expected) or len(predicted) > MAX_COMPONENTS:
        return Verdict.check(False, predicted, f"expected {len(expected)} answers, got {len(predicted)}")
    deadline = time.monotonic() + budget_s
    for index, (want, got) in enumerate(zip(expected, predicted, strict=False)):
        remaining = deadline - time.monotonic()
        status = (
            component_status(want, got, max(0.05, min(COMPONENT_LIMIT_S, remaining))) if remaining > 0 else "unresolved"
        )
        if status == "mismatch":
            return Verdict.check(False, predicted, f"answer {index + 1}: {got!r} differs from {want!r}")
        if status == "unresolved":
            return Verdict("unresolved", ", ".join(predicted)[:300], f"answer {index + 1} could not be decided")
    return Verdict.check(True, predicted, "every answer equivalent")
