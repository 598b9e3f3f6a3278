"""Chemistry templates decided as LongCoT's verifier decides them (``src/_verify/_chemistry.py``,
LLM extractor off): SMILES by exact string then RDKit canonical form (raw, then with ``:``
removed), integer lists, residue-name lists and ``[SMILES, float, ...]`` lists with floats
compared after Python's ``round(x, 2)``.

Deviations from upstream, each an upstream bug (README, "LongCoT official verifier"):
``**`` bold markers around a SMILES are markdown, not two wildcard atoms; a ``-`` before a
ring-closure digit belongs to the SMILES instead of ending it.
"""

from __future__ import annotations

import math
import re
from typing import Any

from scorers.smiles import canonical
from tasks.longcot.data import Question
from tasks.longcot.official.parsing import (
    extract_solution,
    last_balanced_brackets,
    list_from_text,
    mixed_list_from_text,
)
from tasks.longcot.verdict import Verdict
from tasks.longcot.verify.extract import final_match

SMILES_TEMPLATES = frozenset({"easy1", "easy2", "med3", "hard3"})
STRICT_ATOM = r"(?:\[[^\[\]\s]{1,60}\]|Br|Cl|[BCNOPSFHIbcnops*])"
RELAXED_ATOM = r"(?:\[[^\[\]\s]{1,60}\]|Br|Cl|Si|Na|Li|Mg|Al|Ca|Fe|Zn|Cu|Sn|Hg|Ag|Au|[A-Z][a-z]?|[bcnops*])"


def _smiles_pattern(atom: str, anchored: bool) -> re.Pattern[str]:
    """The SMILES-like token grammar of ``_regexes.compile_smiles_regex``.

    Anchored (from the payload's start): a ``-`` must be followed by an atom, a branch or
    (deviation) a ring-closure digit, and the token must end at a boundary.
    """
    hyphen = rf"-(?=(?:{atom}|\(|\d|%\d))" if anchored else "-"
    boundary = rf"""(?=$|[\s,;:.!?'"`]|-(?!(?:{atom}|\(|\d|%\d)))""" if anchored else ""
    body = rf"(?:{atom}|%\d{{2}}|\d|{hyphen}|[=#$:/\\.+@()])*"
    return re.compile(rf"(?:{atom}){body}(?:{atom}|%\d{{2}}|\d|\)|\]){boundary}")


FROM_START = _smiles_pattern(STRICT_ATOM, anchored=True)
ANYWHERE = _smiles_pattern(RELAXED_ATOM, anchored=False)


def without_bold(token: str) -> str:
    """``token`` without markdown ``**`` at either end (deviation: upstream reads them as atoms)."""
    while token.startswith("**"):
        token = token[2:]
    while token.endswith("**"):
        token = token[:-2]
    return token


def smiles_candidate(response: str) -> str | None:
    """The SMILES anchored at the start of the ``solution =`` payload, else the last SMILES-like
    token anywhere in the response (``_chemistry._extract_smiles_candidate``)."""
    payload = extract_solution(response)
    if payload is not None:
        match = FROM_START.match(without_bold(payload))
        if match and without_bold(match.group(0)):
            return without_bold(match.group(0))
    last = final_match(ANYWHERE, response)
    return without_bold(last.group(0)) if last is not None and without_bold(last.group(0)) else None


def smiles_equivalent(a: str, b: str) -> bool:
    """Equal as stripped text, else both canonicalise to the same SMILES (``_chemistry._smiles_equivalent``)."""
    a, b = a.strip(), b.strip()
    if a == b:
        return True
    ca, cb = canonical(a), canonical(b)
    return ca is not None and ca == cb


def _list_text(response: str) -> str | None:
    payload = extract_solution(response)
    return payload if payload is not None else last_balanced_brackets(response)


def ints_equal(a: list[Any], b: list[Any]) -> bool:
    """Nested lists equal item by item with Python ``==`` (``_chemistry._lists_equal_int``)."""
    if len(a) != len(b):
        return False
    for x, y in zip(a, b, strict=False):
        if isinstance(x, list) and isinstance(y, list):
            if not ints_equal(x, y):
                return False
        elif x != y:
            return False
    return True


def _round2(value: Any) -> float | None:
    try:
        number = float(value)
    except (TypeError, ValueError, OverflowError):
        return None
    return round(number, 2) if math.isfinite(number) else number


def mixed_equal(predicted: list[Any], gold: list[Any]) -> bool:
    """``[SMILES, float, ...]`` item by item: molecules equivalent, numbers equal after ``round(x, 2)``
    (``_chemistry._mixed_lists_equal``)."""
    if len(predicted) != len(gold):
        return False
    for mine, want in zip(predicted, gold, strict=False):
        if isinstance(want, str):
            if not isinstance(mine, str) or not smiles_equivalent(mine, want):
                return False
        elif isinstance(want, (int, float)):
            a, b = _round2(mine), _round2(want)
            if a is None or a != b:
                return False
        elif mine != want:
            return False
    return True


def string_items(text: str) -> list[str] | None:
    """A flat list of non-empty strings, numbers and nested lists refused (``_chemistry._parse_string_list``)."""
    parsed = mixed_list_from_text(text)
    if parsed is None:
        return None
    out = []
    for item in parsed:
        if isinstance(item, (list, int, float)):
            return None
        value = str(item).strip()
        if not value:
            return None
        out.append(value)
    return out


def verify_chemistry_official(question: Question, response: str) -> Verdict:
    """Dispatch on the template as ``_verifier.verify`` does."""
    template, gold = question.template, question.answer
    if template in SMILES_TEMPLATES:
        if not isinstance(gold, str):
            raise ValueError(f"{question.uid}: a {template} answer must be a SMILES string")
        token = smiles_candidate(response)
        if token is None:
            return Verdict.unparsed("no SMILES-like token in the answer")
        return Verdict.check(smiles_equivalent(token, gold), token, "SMILES exact, else canonical")
    if not isinstance(gold, list):
        raise ValueError(f"{question.uid}: a {template} answer must be a list, got {type(gold).__name__}")
    text = _list_text(response)
    if text is None:
        return Verdict.unparsed("no list in the answer")
    if template in ("med1", "med2", "hard1"):
        parsed = list_from_text(text)
        return Verdict.check(parsed is not None and ints_equal(parsed, gold), parsed, "integer list")
    if template == "hard2":
        mixed = mixed_list_from_text(text)
        return Verdict.check(mixed is not None and mixed_equal(mixed, gold), mixed, "SMILES and numbers at round(x, 2)")
    names = string_items(text)
    expected = [str(x).strip() for x in gold]
    return Verdict.check(names is not None and names == expected, names, "names compared trimmed")
