"""The child process behind :mod:`scorers.sympy_equiv`: reads JSON lines ``[expected, predicted]``
of whitelisted plain expressions on stdin and writes one JSON status per line on stdout.

Run as ``python -m scorers.sympy_worker``; it limits its own address space, imports sympy, says
``"ready"``, and then serves; the parent kills it when a comparison overruns its time limit
(the import, seconds on a loaded machine, is not counted against any comparison).
"""

from __future__ import annotations

import json
import math
import random
import re
import sys
from typing import Any

WORKER_MEMORY_BYTES = 2 * 1024**3
EXACT_BITS_LIMIT = 200_000
NUMERIC_BITS_LIMIT = 10**12
SYMBOLIC_EXPONENT_GUESS = 64
READY = "ready"


def _parse(plain: str, evaluate: bool) -> Any:
    import sympy as sp
    from sympy.parsing.sympy_parser import (
        convert_xor,
        factorial_notation,
        implicit_multiplication_application,
        parse_expr,
        standard_transformations,
    )

    local: dict[str, Any] = {
        name: getattr(sp, name)
        for name in ("sqrt", "cbrt", "log", "exp", "sin", "cos", "tan", "atan", "asin", "acos", "factorial", "binomial")
    }
    local.update({"ln": sp.log, "abs": sp.Abs, "pi": sp.pi, "oo": sp.oo})
    for name in set(re.findall(r"[A-Za-z]+", plain)):
        if len(name) == 1:
            local[name] = sp.E if name == "e" else sp.Symbol(name, real=True)
    safe_globals: dict[str, Any] = {
        "__builtins__": {},
        "Integer": sp.Integer,
        "Float": sp.Float,
        "Rational": sp.Rational,
        "Symbol": sp.Symbol,
        "Function": sp.Function,
        "factorial": sp.factorial,
        "Mul": sp.Mul,
        "Pow": sp.Pow,
        "Add": sp.Add,
    }
    transformations = (*standard_transformations, implicit_multiplication_application, convert_xor, factorial_notation)
    return parse_expr(
        plain, local_dict=local, global_dict=safe_globals, transformations=transformations, evaluate=evaluate
    )


def _bits(expr: Any) -> float:
    """A rough upper bound of the binary size of the numbers ``expr`` would evaluate to.

    A symbolic exponent (``3^(n+1)``) cannot explode before a value is substituted, so it
    counts as SYMBOLIC_EXPONENT_GUESS; the substituted checks run under the time limit.
    """
    import sympy as sp

    if expr.is_Integer or expr.is_Rational:
        return float(max(abs(int(expr.p)).bit_length(), abs(int(expr.q)).bit_length(), 1))
    if isinstance(expr, sp.Pow):
        base, exponent = expr.args
        if not exponent.is_number:
            return _bits(base) * SYMBOLIC_EXPONENT_GUESS + _bits(exponent)
        if _bits(exponent) > 64:
            return math.inf
        try:
            power = abs(float(exponent.evalf(20)))
        except (TypeError, ValueError):
            return math.inf
        return _bits(base) * max(power, 1.0)
    if isinstance(expr, sp.factorial):
        n = expr.args[0]
        if _bits(n) > 40:
            return math.inf
        value = float(n.evalf(20)) if n.is_number else 1.0
        return value * math.log2(max(value, 2.0))
    total = 0.0
    for arg in expr.args:
        total += _bits(arg)
    return max(total, 1.0)


def _numeric_close(a: Any, b: Any, digits: int, rel: str) -> bool | None:
    """Whether two closed-form numbers agree within relative tolerance ``rel`` (None if not numeric)."""
    import sympy as sp

    try:
        va, vb = sp.N(a, digits), sp.N(b, digits)
        if not (va.is_number and vb.is_number) or va.has(sp.zoo, sp.nan, sp.oo) or vb.has(sp.zoo, sp.nan, sp.oo):
            return None
        scale = max(abs(va), abs(vb))
        if scale == 0:
            return True
        return bool(abs(va - vb) <= scale * sp.Float(rel, digits))
    except (TypeError, ValueError, ArithmeticError):
        return None


def compare_plain(expected: str, predicted: str) -> str:
    """``match``, ``mismatch`` or ``unresolved`` for two whitelisted plain expressions."""
    import sympy as sp

    ue, up = _parse(expected, evaluate=False), _parse(predicted, evaluate=False)
    has_float = bool(ue.atoms(sp.Float) or up.atoms(sp.Float))
    bits = max(_bits(ue), _bits(up))
    if bits > EXACT_BITS_LIMIT:
        if ue.free_symbols or up.free_symbols or bits > NUMERIC_BITS_LIMIT:
            return "match" if sp.srepr(ue) == sp.srepr(up) else "unresolved"
        close = _numeric_close(ue, up, 80, "1e-60")
        return "unresolved" if close is None else ("match" if close else "mismatch")
    a, b = _parse(expected, evaluate=True), _parse(predicted, evaluate=True)
    if a.free_symbols or b.free_symbols:
        diff = sp.expand(a - b)
        if diff == 0 or sp.simplify(diff) == 0:
            return "match"
        symbols = sorted(a.free_symbols | b.free_symbols, key=str)
        rng = random.Random(0)
        for _ in range(3):
            point = {s: sp.Rational(rng.randint(2, 40), rng.randint(2, 9)) for s in symbols}
            close = _numeric_close(a.subs(point), b.subs(point), 40, "1e-25")
            if close is False:
                return "mismatch"
        return "unresolved"
    if has_float:
        close = _numeric_close(a, b, 30, "1e-12")
        return "unresolved" if close is None else ("match" if close else "mismatch")
    if a == b or (a.is_Rational and b.is_Rational):
        return "match" if a == b else "mismatch"
    close = _numeric_close(a, b, 60, "1e-45")
    if close is False:
        return "mismatch"
    if sp.simplify(a - b) == 0 or a.equals(b) is True:
        return "match"
    return "match" if close else "unresolved"


def main() -> None:
    """Serve comparisons until stdin closes."""
    try:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (WORKER_MEMORY_BYTES, WORKER_MEMORY_BYTES))
    except (ImportError, ValueError, OSError):
        pass
    sys.setrecursionlimit(4000)
    _parse("1", evaluate=True)
    sys.stdout.write(json.dumps(READY) + "\n")
    sys.stdout.flush()
    for line in sys.stdin:
        try:
            expected, predicted = json.loads(line)
            status = compare_plain(str(expected), str(predicted))
        except Exception:
            status = "unresolved"
        sys.stdout.write(json.dumps(status) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
