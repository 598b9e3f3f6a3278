"""Matching an output against an answer and its aliases, after SQuAD normalisation.

Two containment modes: ``substring`` (the official ConFiQA / context-faithful-prompting
test: the normalised answer is a character substring of the normalised output) and
``word`` (the answer must appear as whole words, so "Ian" is not found in "Brian").
Negation detection looks for negation words as whole tokens: the ConFiQA authors' list,
with negated contractions added for the strict reading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Literal

from scorers.squad_normalize import normalize_answer

MatchMode = Literal["substring", "word"]

NEGATION_WORDS: frozenset[str] = frozenset(
    {"no", "not", "never", "none", "cannot", "nobody", "nothing", "nowhere", "neither", "nor", "without", "hardly"}
)
"""The ConFiQA authors' negation words (Context-DPO ``evaluation.py``)."""

CONTRACTED_NEGATIONS: frozenset[str] = frozenset(
    {
        "cant",
        "isnt",
        "wasnt",
        "arent",
        "werent",
        "doesnt",
        "didnt",
        "dont",
        "wont",
        "hasnt",
        "havent",
        "hadnt",
        "shouldnt",
        "wouldnt",
        "couldnt",
        "aint",
    }
)
"""Negated contractions as normalisation leaves them (``isn't`` -> ``isnt``): the strict reading adds them."""


def answer_forms(answer: str, aliases: Iterable[str] = ()) -> tuple[str, ...]:
    """The distinct non-empty normalised forms of an answer and its aliases, answer first."""
    forms: list[str] = []
    for raw in (answer, *aliases):
        form = normalize_answer(raw) if isinstance(raw, str) else ""
        if form and form not in forms:
            forms.append(form)
    return tuple(forms)


def contains_form(normalized_text: str, form: str, mode: MatchMode = "substring") -> bool:
    """True when ``form`` (already normalised) occurs in ``normalized_text``."""
    if not form:
        return False
    if mode == "substring":
        return form in normalized_text
    return f" {form} " in f" {normalized_text} "


def contains_any(text: str, forms: Iterable[str], mode: MatchMode = "substring") -> str | None:
    """The first normalised form found in ``text``, or None."""
    normalized = normalize_answer(text)
    for form in forms:
        if contains_form(normalized, form, mode):
            return form
    return None


def exact_match_any(text: str, forms: Iterable[str]) -> bool:
    """True when the normalised ``text`` equals one of the normalised ``forms``."""
    normalized = normalize_answer(text)
    return bool(normalized) and normalized in set(forms)


_APOSTROPHES = re.compile(r"[\u2018\u2019\u02bc`]")


def negation_words(text: str, words: frozenset[str] = NEGATION_WORDS) -> tuple[str, ...]:
    """The ``words`` found as whole tokens of the normalised ``text`` (``No,`` is ``no``)."""
    tokens = normalize_answer(_APOSTROPHES.sub("'", text)).split()
    return tuple(sorted({token for token in tokens if token in words}))


def raw_negation_words(text: str) -> tuple[str, ...]:
    """The negation words found as whole whitespace-separated tokens of the raw ``text`` (``No,`` is not ``no``)."""
    return tuple(sorted({token for token in text.split() if token in NEGATION_WORDS}))
