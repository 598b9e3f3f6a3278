"""Threat actor attribution: extracting the named actor and matching it with an alias table.

Names are compared after normalisation (case, punctuation and spacing removed, so
``APT 36``, ``apt-36`` and ``APT36`` agree). An alias table groups names of one actor
(``["MUSTANG PANDA", "TA416", "RedDelta"]``); a prediction is right when its normalised
name is the truth's or one of the truth's aliases.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from pathlib import Path

from scorers.extract import last_answer_value, last_nonempty_line, tail

MAX_NAME_CHARS = 120
MAX_ALIAS_FILE_BYTES = 20_000_000

_TAG = re.compile(
    r"(?im)^[^\w\n]{0,10}(?:final[ \t]+)?(?:threat[ \t]+actor|attribution|attributed[ \t]+(?:threat[ \t]+)?actor|actor|answer)"
    r"[^\w\n]{0,4}[ \t]*[:=](.*)$"
)
_PHRASES = (
    re.compile(r"(?i)\battribut(?:e|ed|ing)\s+(?:this|the)\s+(?:incident|activity|attack|report|campaign)\s+to\s+"
               r"(?:the\s+)?(?:threat\s+actor\s+|group\s+)?(.{1,120}?)(?:[.,;(]|\s+(?:based|due|because|with|as|given)\b|$)"),
    re.compile(r"(?i)\b(?:threat\s+actor|group|actor)\s+(?:responsible\s+)?(?:is|was)\s+(?:likely\s+|most\s+likely\s+|probably\s+)?"
               r"(?:the\s+)?(.{1,120}?)(?:[.,;(]|\s+(?:based|due|because|with|as|given)\b|$)"),
    re.compile(r"(?i)\bresponsible\s+(?:for\s+this\s+\w+\s+)?(?:is|was)\s+(?:likely\s+|most\s+likely\s+|probably\s+)?"
               r"(?:the\s+)?(.{1,120}?)(?:[.,;(]|\s+(?:based|due|because|with|as|given)\b|$)"),
)
_FILLER = re.compile(
    r"(?i)^(?:(?:likely|most\s+likely|probably|possibly|the|a|an)\s+)+|"
    r"\s+(?:threat\s+actor|threat\s+group|apt\s+group|group|actor|gang|team)$"
)


_AFFIXES = re.compile(r"^\s*the\s+|\s+(?:threat\s+group|apt\s+group|group|team|gang|threat\s+actor)\s*$")


def normalise_name(name: str) -> str:
    """Lowercase letters and digits only, without a leading 'the' or a trailing 'group': ``"APT 36"`` → ``"apt36"``."""
    text = str(name).lower()[: MAX_NAME_CHARS * 4]
    for _ in range(2):
        text = _AFFIXES.sub("", text)
    return re.sub(r"[^0-9a-z]+", "", text)


def clean_candidate(raw: str) -> str:
    """A candidate name without markdown, parentheticals, quotes, hedges and a trailing 'group'."""
    text = re.sub(r"[*`_#]+", "", raw[: MAX_NAME_CHARS * 4])
    text = re.sub(r"\([^)]*\)|\[[^\]]*\]", " ", text)
    text = text.strip().strip("\"'“”‘’").strip().rstrip(".!,;:").strip()
    for _ in range(3):
        text = _FILLER.sub("", text).strip()
    return text[:MAX_NAME_CHARS]


def extract_actor(text: str) -> str | None:
    """The threat actor a free-form attribution names, or None.

    Looks, in order, for a labelled line (``Threat actor: X``, ``Answer: X``), a stated
    attribution (``attribute this incident to X``, ``the threat actor is X``) and finally
    a short last line (six words at most).
    """
    if not text:
        return None
    body = tail(text)
    tagged = [value for value in _TAG.findall(body) if value.strip()]
    candidates: list[str] = [tagged[-1]] if tagged else []
    if not candidates:
        for pattern in _PHRASES:
            match = pattern.search(body)
            if match:
                candidates.append(match.group(1))
                break
    if not candidates:
        answer = last_answer_value(body)
        line = answer if answer is not None else last_nonempty_line(body)
        if line is not None and len(line.split()) <= 6:
            candidates.append(line)
    for raw in candidates:
        cleaned = clean_candidate(raw)
        if normalise_name(cleaned):
            return cleaned
    return None


class AliasTable:
    """Groups of names that denote one threat actor, looked up by normalised name."""

    def __init__(self, groups: Iterable[Iterable[str]] = ()) -> None:
        self._group_of: dict[str, frozenset[str]] = {}
        for group in groups:
            keys = frozenset(k for k in (normalise_name(n) for n in group) if k)
            merged = set(keys)
            for key in keys:
                merged |= self._group_of.get(key, frozenset())
            frozen = frozenset(merged)
            for key in frozen:
                self._group_of[key] = frozen

    def names_for(self, name: str) -> frozenset[str]:
        """The normalised names equivalent to ``name`` (itself included)."""
        key = normalise_name(name)
        return self._group_of.get(key, frozenset({key}))

    def same_actor(self, predicted: str, truth: str) -> bool:
        """True when ``predicted`` is ``truth`` or one of its aliases after normalisation."""
        key = normalise_name(predicted)
        return bool(key) and key in self.names_for(truth)

    @classmethod
    def from_json(cls, path: str | Path) -> AliasTable:
        """Read ``{"actor": ["alias", ...], ...}`` or ``[["name", "alias", ...], ...]`` from a JSON file.

        Raises ValueError naming the file and what is wrong with it.
        """
        source = Path(path)
        if not source.is_file():
            raise ValueError(f"alias table {source}: no such file")
        if source.stat().st_size > MAX_ALIAS_FILE_BYTES:
            raise ValueError(f"alias table {source}: larger than {MAX_ALIAS_FILE_BYTES} bytes")
        try:
            data = json.loads(source.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise ValueError(f"alias table {source}: not valid JSON ({exc})") from None
        return cls(_groups_from(data, source))


def _groups_from(data: object, source: Path) -> list[list[str]]:
    """The alias groups of a parsed alias file, validated."""
    if isinstance(data, Mapping):
        items = [[name, *aliases] if isinstance(aliases, list) else None for name, aliases in data.items()]
    elif isinstance(data, list):
        items = [group if isinstance(group, list) else None for group in data]
    else:
        raise ValueError(f"alias table {source}: expected a JSON object or list, got {type(data).__name__}")
    groups: list[list[str]] = []
    for index, group in enumerate(items):
        if group is None or not all(isinstance(n, str) for n in group):
            raise ValueError(f"alias table {source}: entry {index} is not a list of strings")
        groups.append(group)
    return groups
