"""Turning a math answer written as text or LaTeX into a plain expression sympy can read.

Only a whitelisted vocabulary survives (digits, operators, single-letter symbols and a
few function names), so that the result is safe to hand to sympy's parser. Anything
else makes :func:`to_plain` return None.
"""

from __future__ import annotations

import re

MAX_EXPR_CHARS = 4000
FUNCTIONS = (
    "sqrt",
    "cbrt",
    "log",
    "ln",
    "exp",
    "sin",
    "cos",
    "tan",
    "atan",
    "asin",
    "acos",
    "abs",
    "factorial",
    "binomial",
)
CONSTANTS = ("pi", "oo")
ALLOWED_CHARS = re.compile(r"^[0-9A-Za-z+\-*/^().!\s]*$")
IDENTIFIER = re.compile(r"[A-Za-z]+")
LATEX_SIMPLE = {
    r"\left": "",
    r"\right": "",
    r"\displaystyle": "",
    r"\,": "",
    r"\;": "",
    r"\!": "",
    r"\ ": "",
    r"\cdot": "*",
    r"\times": "*",
    r"\pi": "pi",
    r"\ln": "ln",
    r"\log": "log",
    r"\sin": "sin",
    r"\cos": "cos",
    r"\tan": "tan",
    r"\exp": "exp",
    r"\infty": "oo",
}
UNICODE = {"−": "-", "–": "-", "—": "-", "×": "*", "·": "*", "⋅": "*", "π": "pi", "÷": "/", "\u00a0": " "}


def _brace_group(text: str, i: int) -> tuple[str, int] | None:
    """The content of the ``{...}`` group opening at ``text[i]`` and the index after it."""
    if i >= len(text) or text[i] != "{":
        return None
    depth = 0
    for j in range(i, len(text)):
        if text[j] == "{":
            depth += 1
        elif text[j] == "}":
            depth -= 1
            if depth == 0:
                return text[i + 1 : j], j + 1
    return None


def _skip_spaces(text: str, i: int) -> int:
    while i < len(text) and text[i] == " ":
        i += 1
    return i


def _latex_commands(text: str) -> str | None:
    """Replace ``\\frac``, ``\\sqrt[n]{}``, ``\\binom`` and ``^{}``/``{}`` groups by plain syntax."""
    out: list[str] = []
    i = 0
    while i < len(text):
        for command in (r"\dfrac", r"\tfrac", r"\frac", r"\binom"):
            if text.startswith(command, i):
                first = _brace_group(text, _skip_spaces(text, i + len(command)))
                if first is None:
                    return None
                second = _brace_group(text, _skip_spaces(text, first[1]))
                if second is None:
                    return None
                a, b = _latex_commands(first[0]), _latex_commands(second[0])
                if a is None or b is None:
                    return None
                out.append(f"binomial({a},{b})" if command == r"\binom" else f"(({a})/({b}))")
                i = second[1]
                break
        else:
            if text.startswith(r"\sqrt", i):
                j = _skip_spaces(text, i + 5)
                index = None
                if j < len(text) and text[j] == "[":
                    close = text.find("]", j)
                    if close < 0:
                        return None
                    index = text[j + 1 : close]
                    j = _skip_spaces(text, close + 1)
                group = _brace_group(text, j)
                if group is None:
                    return None
                inner = _latex_commands(group[0])
                if inner is None:
                    return None
                out.append(f"sqrt({inner})" if index is None else f"(({inner})^(1/({index})))")
                i = group[1]
            elif text[i] == "{":
                group = _brace_group(text, i)
                if group is None:
                    return None
                inner = _latex_commands(group[0])
                if inner is None:
                    return None
                out.append(f"({inner})")
                i = group[1]
            else:
                out.append(text[i])
                i += 1
    return "".join(out)


def _unicode_roots(text: str) -> str:
    atom = r"(\([^()]*\)|[A-Za-z0-9.]+)"
    text = re.sub(rf"√\s*{atom}", r"sqrt(\1)", text)
    return re.sub(rf"∛\s*{atom}", r"cbrt(\1)", text)


def normalize(text: str) -> str:
    """Light normalisation shared by text and math comparison: unicode, ``$``, LaTeX spacing, case of words kept."""
    s = text.strip().strip("'\"`").replace("$", "")
    for old, new in UNICODE.items():
        s = s.replace(old, new)
    s = re.sub(r"\\(?:text|mathrm|mathbf|operatorname)\s*\{([^{}]*)\}", r"\1", s)
    s = s.replace(r"\boxed", "")
    s = re.sub(r"\s+", " ", s).strip()
    return s[:-1].strip() if s.endswith(".") else s


def to_plain(text: str) -> str | None:
    """A plain, whitelisted expression for ``text`` (``^`` kept for powers), or None if it is not one."""
    s = normalize(text)
    if not s or len(s) > MAX_EXPR_CHARS:
        return None
    for old, new in LATEX_SIMPLE.items():
        s = s.replace(old, new)
    cleaned = _latex_commands(s)
    if cleaned is None or "\\" in cleaned:
        return None
    s = _unicode_roots(cleaned).replace("cube_root", "cbrt").replace("cuberoot", "cbrt")
    s = re.sub(r"\b(ln|log|sin|cos|tan|sqrt)(\d+)\b", r"\1(\2)", s)
    if not ALLOWED_CHARS.match(s) or re.search(r"[A-Za-z]\s*\.|\.\s*[A-Za-z]", s):
        return None
    for word in IDENTIFIER.findall(s):
        if len(word) > 1 and word not in FUNCTIONS and word not in CONSTANTS:
            return None
    return s.strip() or None
